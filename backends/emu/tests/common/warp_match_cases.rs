//! Case of `kernels/match.ptx`: match.any/match.all over whole warps and over the odd lanes of a
//! branch; results computed here from the PTX ISA's definition.

use super::*;
use ptxforge_emu::Launch;

/// The mask of the lanes of `lanes` whose value equals `v`.
fn lanes_equal(values: &[u64], lanes: u32, v: u64) -> u32 {
    (0..32)
        .filter(|&l| lanes >> l & 1 == 1 && values[l] == v)
        .fold(0, |m, l| m | 1 << l)
}

/// match.all: (the member mask, true) when every member holds the same value, else (0, false).
fn all_equal(values: &[u64], lanes: u32, v: u64) -> (u32, u32) {
    if lanes_equal(values, lanes, v) == lanes {
        (lanes, 1)
    } else {
        (0, 0)
    }
}

/// Three warps: small random values (64-bit ones differing in the high half too), one value for
/// the whole warp, and equal low halves under differing high halves.
pub fn match_ops(r: &mut Rng) -> Setup {
    let threads = 96;
    let common = r.next();
    let input: Vec<u64> = (0..threads)
        .map(|t| match t / 32 {
            0 => (r.next() % 2) << 32 | r.next() % 4,
            1 => common,
            _ => (r.next() % 3) << 40 | 0x1234_5677,
        })
        .collect();
    let start: Vec<u32> = (0..9 * threads).map(|_| r.u32()).collect();
    let mut e = start.clone();
    for t in 0..threads {
        let (base, lane) = (t & !31, t % 32);
        let warp = &input[base..base + 32];
        let low: Vec<u64> = warp.iter().map(|&v| v as u32 as u64).collect();
        let o = &mut e[9 * t..9 * t + 9];
        o[0] = lanes_equal(&low, u32::MAX, low[lane]);
        o[1] = lanes_equal(warp, u32::MAX, warp[lane]);
        (o[2], o[3]) = all_equal(&low, u32::MAX, low[lane]);
        (o[4], o[5]) = all_equal(warp, u32::MAX, warp[lane]);
        if lane % 2 == 1 {
            let odd = 0xaaaa_aaaa;
            let half: Vec<u64> = low.iter().map(|&v| v >> 1).collect();
            o[6] = lanes_equal(&half, odd, half[lane]);
            (o[7], o[8]) = all_equal(&half, odd, half[lane]);
        }
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [threads as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &start), buf_u64(1, &input)],
        expected: vec![buf_u32(0, &e), buf_u64(1, &input)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
