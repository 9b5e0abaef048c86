//! Case of `kernels/uflo.ptx`: reductions of every thread to one address, which ptxas aggregates
//! per warp with VOTEU, REDUX and UFLO on sm_80+; results computed here.

use super::*;
use ptxforge_emu::Launch;

/// 96 threads (three warps, the last one full too): the sum counter gains 96, the minimum word
/// ends as the least of its start and every thread's value.
pub fn uflo_red(r: &mut Rng) -> Setup {
    let n = 96;
    let v: Vec<u32> = (0..n).map(|_| r.u32() | 1 << 20).collect();
    let sum0 = r.u32() % 1000;
    let min0 = r.u32();
    let min_end = v.iter().copied().fold(min0, u32::min);
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![buf_u32(0, &v), buf_u32(1, &[sum0]), buf_u32(2, &[min0])],
        expected: vec![
            buf_u32(0, &v),
            buf_u32(1, &[sum0 + n as u32]),
            buf_u32(2, &[min_end]),
        ],
        f32_ulps: 0,
        unordered: vec![],
    }
}
