//! Cases of `kernels/tma.ptx` (sm_90): TMA tile loads and stores and bulk copies, with results
//! computed here from the PTX ISA's description of tile mode (out-of-bounds elements load as
//! zero and are not stored) and the tensor maps the kernel builds.

use super::*;

/// The two tensor maps thread 0 writes at output bytes 2048 and 2176 (words of each).
fn maps(input: u64, output: u64) -> Vec<u32> {
    let mut v = vec![0u32; 64];
    for (m, (base, stride, dim)) in [(input, 8, 31), (output + 2304, 4, 15)]
        .into_iter()
        .enumerate()
    {
        let w = &mut v[32 * m..32 * m + 32];
        w[0] = base as u32;
        w[1] = (base >> 32) as u32;
        w[2] = 272;
        w[3] = stride;
        w[8] = dim;
        w[9] = dim;
        w[13] = 3 << 24;
        w[14] = 1;
    }
    v
}

/// Every lane loads the 4x2 box at (5l mod 32 - 2, 3l mod 32 - 1) of the input as a 32x32 u32
/// tensor and 32 bytes from input byte 2048 + 32 (7l mod 32) into shared memory, which is
/// copied out; lanes 0..3 store their box at (5l - 2, 15) of a 16x16 tensor at output byte 2304.
pub fn tma_tile(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..1024).map(|_| r.u32()).collect();
    let mut smem = vec![0u32; 512];
    for l in 0..32i64 {
        let (x0, y0) = ((5 * l) % 32 - 2, (3 * l) % 32 - 1);
        for e in 0..8i64 {
            let (x, y) = (x0 + e % 4, y0 + e / 4);
            let inside = (0..32).contains(&x) && (0..32).contains(&y);
            smem[(8 * l + e) as usize] = if inside { a[(32 * y + x) as usize] } else { 0 };
        }
        let from = 512 + 8 * ((7 * l) % 32) as usize;
        smem[256 + 8 * l as usize..][..8].copy_from_slice(&a[from..from + 8]);
    }
    let mut e = vec![0u32; 1024];
    e[..512].copy_from_slice(&smem);
    e[512..576].copy_from_slice(&maps(addr(0), addr(1)));
    for l in 0..4i64 {
        for k in 0..8i64 {
            let (x, y) = (5 * l - 2 + k % 4, 15 + k / 4);
            if (0..16).contains(&x) && (0..16).contains(&y) {
                e[(576 + 16 * y + x) as usize] = smem[(8 * l + k) as usize];
            }
        }
    }
    Setup {
        launch: launch1(32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 1024])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
