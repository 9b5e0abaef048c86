//! Cases of `kernels/async_arrive.ptx` (sm_80 on): cp.async.mbarrier.arrive[.noinc] and the
//! mbarrier family, with results computed here from the PTX ISA's description.

use super::*;

/// The four rounds of the kernel's comment: copies seen through the barriers, then thread 0's
/// pending counts and waits.
pub fn async_arrive(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..1024).map(|_| r.u32()).collect();
    let mut e = vec![0u32; 1024];
    for t in 0..32 {
        for (round, from) in [(0, (t + 1) % 32), (1, t ^ 2), (2, t ^ 4)] {
            let (d, s) = (128 * round + 4 * t, 128 * round + 4 * from);
            e[d..d + 4].copy_from_slice(&input[s..s + 4]);
        }
    }
    e[512..517].copy_from_slice(&[3, 2, 0, 1, 2]);
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 1024])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
