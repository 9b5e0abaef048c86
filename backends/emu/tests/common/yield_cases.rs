//! Case of `kernels/yield.ptx`: a loop with an unknown trip count around a global atomic, in
//! which ptxas writes a YIELD (sm_75..sm_89); results computed here.

use super::*;
use ptxforge_emu::Launch;

/// 64 threads; thread i loops `cnt[i] & 7` times, each time adding 1 to `ctr[i & 15]`, and
/// stores its trip count. The counters end with the sums of their threads' trip counts.
pub fn yield_loop(r: &mut Rng) -> Setup {
    let n = 64;
    let cnt: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let ctr: Vec<u32> = (0..16).map(|_| r.u32() % 1000).collect();
    let mut ctr_end = ctr.clone();
    let trips: Vec<u32> = cnt.iter().map(|c| c & 7).collect();
    for (i, t) in trips.iter().enumerate() {
        ctr_end[i & 15] += t;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![buf_u32(0, &cnt), buf_u32(1, &ctr), buf_u32(2, &vec![0; n])],
        expected: vec![buf_u32(0, &cnt), buf_u32(1, &ctr_end), buf_u32(2, &trips)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
