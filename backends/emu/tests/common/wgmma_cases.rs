//! Cases of `kernels/wgmma.ptx` (sm_90a): one warpgroup's m64n8k16 f16 -> f32 warpgroup MMAs
//! from shared memory in the K-major no-swizzle layout, results computed here from the PTX ISA's
//! fragment layout (warp w: rows 16 w..; lane l: row 16 w + l / 4 + 8 (i / 2), column
//! 2 (l % 4) + i % 2 of element i).

use super::*;

/// The f16 bits of `v`, a multiple of 1/4 of magnitude below 64 (exact in f16).
fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let sign = if v < 0.0 { 0x8000 } else { 0 };
    let a = v.abs();
    let e = a.log2().floor() as i32;
    let m = ((a / 2f32.powi(e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | m
}

/// Byte offset of row `r`, K element `k` (f16) in the layout of 8-row by 16-byte core matrices,
/// LBO 128 along K and SBO 256 along rows.
fn offset(r: usize, k: usize) -> usize {
    (r / 8) * 256 + (2 * k / 16) * 128 + (r % 8) * 16 + (2 * k) % 16
}

/// out = A B + C (A B where the flag is 0) and -A B for each thread's four accumulators.
pub fn wgmma_f16(r: &mut Rng) -> Setup {
    let small = |r: &mut Rng| ((r.u32() % 33) as f32 - 16.0) / 4.0;
    let a: Vec<Vec<f32>> = (0..64)
        .map(|_| (0..16).map(|_| small(r)).collect())
        .collect();
    let b: Vec<Vec<f32>> = (0..16)
        .map(|_| (0..8).map(|_| small(r)).collect())
        .collect();
    let c: Vec<f32> = (0..512).map(|_| r.f32(100.0)).collect();
    let flag = r.u32() & 1;
    let mut abytes = vec![0u8; 2048];
    for (row, vals) in a.iter().enumerate() {
        for (k, v) in vals.iter().enumerate() {
            abytes[offset(row, k)..offset(row, k) + 2].copy_from_slice(&f16_bits(*v).to_le_bytes());
        }
    }
    let mut bbytes = vec![0u8; 256];
    for (k, vals) in b.iter().enumerate() {
        for (n, v) in vals.iter().enumerate() {
            bbytes[offset(n, k)..offset(n, k) + 2].copy_from_slice(&f16_bits(*v).to_le_bytes());
        }
    }
    let mut out = vec![0f32; 1024];
    for t in 0..128 {
        let (w, lane) = (t / 32, t % 32);
        for i in 0..4 {
            let (row, col) = (16 * w + lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2);
            let ab: f64 = (0..16).map(|k| a[row][k] as f64 * b[k][col] as f64).sum();
            let acc = if flag != 0 { c[4 * t + i] as f64 } else { 0.0 };
            out[8 * t + i] = (ab + acc) as f32;
            out[8 * t + 4 + i] = -ab as f32;
        }
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [128, 1, 1],
        },
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u64(addr(3))
            .u32(flag)
            .0,
        buffers: vec![
            buf_bytes(0, abytes.clone()),
            buf_bytes(1, bbytes.clone()),
            buf_f32(2, &c),
            buf_f32(3, &[0.0; 1024]),
        ],
        expected: vec![
            buf_bytes(0, abytes),
            buf_bytes(1, bbytes),
            buf_f32(2, &c),
            buf_f32(3, &out),
        ],
        f32_ulps: 0,
        unordered: vec![],
    }
}
