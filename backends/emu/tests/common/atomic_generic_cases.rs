//! Case of `kernels/atomic_generic.ptx`: float atomic adds on generic addresses (global and
//! shared) and scalar f16 adds, every thread adding the same amount; results computed here.

use super::*;
use ptxforge_emu::Launch;

/// The f16 bits of a small non-negative integer (exact below 2048).
fn f16_int(n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let e = 31 - n.leading_zeros();
    (e + 15) << 10 | (n << (10 - e)) & 0x3ff
}

fn f32w(v: f32) -> u32 {
    v.to_bits()
}

fn f64w(v: f64) -> [u32; 2] {
    let b = v.to_bits();
    [b as u32, (b >> 32) as u32]
}

/// 64 threads; the accumulators start at small integers so that every sum is exact.
pub fn atomic_generic(r: &mut Rng) -> Setup {
    let n = 64u32;
    let junk: Vec<u32> = (0..4).map(|_| r.u32() & 0xffff).collect();
    let half2 = |lo: u32, hi: u32| f16_int(lo) | f16_int(hi) << 16;
    let mut out = vec![0u32; 16];
    out[0] = f32w(10.0);
    out[1] = half2(3, 5);
    out[2] = half2(7, 9);
    out[3] = f16_int(11) | junk[0] << 16;
    out[4..6].copy_from_slice(&f64w(100.0));
    out[6] = f32w(20.0);
    out[7] = half2(13, 15);
    out[8] = f16_int(17) | junk[1] << 16;
    out[9] = junk[2] | f16_int(19) << 16;
    out[10..12].copy_from_slice(&f64w(200.0));
    out[12] = f32w(30.0);
    out[13] = r.u32();
    out[14] = f32w(40.0);
    out[15] = r.u32();
    let mut done = out.clone();
    done[0] = f32w(10.0 + n as f32);
    done[1] = half2(3 + n, 5 + n);
    done[2] = half2(7 + n, 9 + 2 * n);
    done[3] = f16_int(11 + n) | junk[0] << 16;
    done[4..6].copy_from_slice(&f64w(100.0 + n as f64));
    done[6] = f32w(20.0 + 2.0 * n as f32);
    done[7] = half2(13 + n, 15 + 2 * n);
    done[8] = f16_int(17 + n) | junk[1] << 16;
    done[9] = junk[2] | f16_int(19 + n) << 16;
    done[10..12].copy_from_slice(&f64w(200.0 + n as f64));
    done[12] = f32w(30.0 + n as f32);
    done[14] = f32w(40.0 + 0.5 * n as f32);
    let mut olds = Vec::new();
    for k in 0..n {
        olds.extend([
            f32w(10.0 + k as f32),
            half2(3 + k, 5 + k),
            f16_int(7 + k),
            f16_int(9 + 2 * k),
            f16_int(11 + k),
        ]);
        olds.extend(f64w(100.0 + k as f64));
        olds.extend([
            f32w(20.0 + 2.0 * k as f32),
            half2(13 + k, 15 + 2 * k),
            f16_int(17 + k),
            f16_int(19 + k),
        ]);
        olds.extend(f64w(200.0 + k as f64));
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &out), buf_u32(1, &vec![0; olds.len()])],
        expected: vec![buf_u32(0, &done), buf_u32(1, &olds)],
        f32_ulps: 0,
        unordered: vec![1],
    }
}

/// 64 threads, each compare-and-swapping its own generic, global and shared half: the threads
/// whose input word is negative compare with the current value and swap in its low half.
pub fn cas16(r: &mut Rng) -> Setup {
    let n = 64usize;
    let input: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let mut out: Vec<u32> = (0..n * 3 + 96).map(|_| r.u32()).collect();
    let halves = |w: &[u32]| -> Vec<u16> {
        w.iter()
            .flat_map(|&x| [x as u16, (x >> 16) as u16])
            .collect()
    };
    let start = halves(&out[..96]);
    let mut end = start.clone();
    for t in 0..n {
        let swap = (input[t] as i32) < 0;
        for region in 0..3 {
            let k = region * 64 + t;
            if swap {
                end[k] = input[t] as u16;
            }
            out[96 + 3 * t + region] = start[k] as u32;
        }
    }
    let mut expected = out.clone();
    for (k, w) in expected[..96].iter_mut().enumerate() {
        *w = end[2 * k] as u32 | (end[2 * k + 1] as u32) << 16;
    }
    let mut before = out.clone();
    for w in before[96..].iter_mut() {
        *w = 0;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &before), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &expected), buf_u32(1, &input)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
