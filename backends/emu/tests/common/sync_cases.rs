//! Cases of `kernels/mbarrier.ptx` (sm_90): elect.sync and mbarrier phases, with results
//! computed here from the PTX ISA's description.

use super::*;

/// Lane 0 of every warp is elected; among the odd lanes, lane 1.
pub fn elect(r: &mut Rng) -> Setup {
    let threads = 96;
    let start: Vec<u32> = (0..3 * threads).map(|_| r.u32()).collect();
    let mut e = start.clone();
    for t in 0..threads {
        let lane = t % 32;
        e[3 * t] = 0;
        e[3 * t + 1] = (lane == 0) as u32;
        e[3 * t + 2] = if lane % 2 == 1 { 1 } else { 99 };
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [threads as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &start)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Four tiles through the producer/consumer pipeline of 1 + 3 warps.
pub fn pipeline(r: &mut Rng) -> Setup {
    let rounds = 4usize;
    let input: Vec<u32> = (0..rounds * 32).map(|_| r.u32()).collect();
    let mut e = vec![0u32; 128];
    for (t, out) in e.iter_mut().enumerate() {
        let (warp, lane) = (t / 32, t % 32);
        *out = if warp == 0 {
            input[(rounds - 1) * 32 + lane]
        } else {
            (0..rounds).fold(0u32, |acc, k| {
                let v = input[k * 32 + (lane + warp) % 32];
                acc.wrapping_add(v.wrapping_mul(k as u32 + 1))
            })
        };
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [128, 1, 1],
        },
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u32(rounds as u32)
            .0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 128])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// One barrier of 12 arrivals through a phase and a half (see the kernel's comment).
pub fn phases(_: &mut Rng) -> Setup {
    let n = 12;
    let e = [n, n - 3, 0, 1, 1, 0, 0, 1];
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &[0; 8])],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
