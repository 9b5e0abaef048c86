//! Case of `kernels/special_regs.ptx`: registers whose values differ between machines (clocks,
//! timers, SM and warp ids, shared sizes), which the kernel itself checks for what holds
//! everywhere and stores as flag bits, so the expected words are fixed.

use super::*;

/// Every thread stores 0x1ff (all nine properties hold) and %dynamic_smem_size (0 here) in its
/// 32-byte slot; the rest of the buffer stays as it was.
pub fn special_regs(r: &mut Rng) -> Setup {
    let threads = 64;
    let words = threads * 8;
    let start: Vec<u32> = (0..words).map(|_| r.u32()).collect();
    let mut expected = start.clone();
    for t in 0..threads {
        expected[8 * t] = 0x1ff;
        expected[8 * t + 1] = 0;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [threads as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 4]), buf_u32(1, &start)],
        expected: vec![buf_u32(0, &[0; 4]), buf_u32(1, &expected)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `kernels/cluster.ptx`: out[t] = in[t ^ 127] across the cluster barrier.
pub fn cluster_sync(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    let e: Vec<u32> = (0..128).map(|t| a[t ^ 127]).collect();
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [128, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 128])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
