//! Cases of `kernels/wgmma.ptx` (sm_90a): one warpgroup's m64n8k16 f16 -> f32, m64n8k32 s8 x u8 ->
//! s32 and e4m3 x e5m2 -> f32 warpgroup MMAs
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

/// Byte offset of row `r`, K byte `kb` in the layout of 8-row by 16-byte core matrices, LBO 128
/// along K and SBO 256 along rows (K is 32 bytes for every type).
fn offset(r: usize, kb: usize) -> usize {
    (r / 8) * 256 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16
}

/// The element types of a case: f16, or (s8 A, u8 B), or (e4m3 A, e5m2 B).
#[derive(Copy, Clone, PartialEq)]
enum Types {
    F16,
    S8U8,
    E4m3E5m2,
}

/// The value of an e4m3 (`e5m2 == false`) or e5m2 byte (no NaN or infinity is generated).
fn fp8_value(b: u8, e5m2: bool) -> f64 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b & 0x7f) >> mbits) as i32;
    let m = (b & ((1 << mbits) - 1)) as f64 / (1 << mbits) as f64;
    sign * if e == 0 {
        m * 2f64.powi(1 - bias)
    } else {
        (1.0 + m) * 2f64.powi(e - bias)
    }
}

/// out = A B + C (A B where the flag is 0) and -A B (integers: A B) for each thread's four
/// accumulators, A (64 x K) and B (K x 8) random values of `ty` in the shared-memory layout.
fn wgmma_case(r: &mut Rng, ty: Types) -> Setup {
    let k = if ty == Types::F16 { 16 } else { 32 };
    let mut abytes = vec![0u8; 2048];
    let mut bbytes = vec![0u8; 256];
    let mut a = vec![vec![0f64; k]; 64];
    let mut b = vec![vec![0f64; 8]; k];
    let small = |r: &mut Rng| ((r.u32() % 33) as f32 - 16.0) / 4.0;
    // One element's bytes and value: A's when `is_a`.
    let element = |r: &mut Rng, is_a: bool| -> (Vec<u8>, f64) {
        match ty {
            Types::F16 => {
                let v = small(r);
                (f16_bits(v).to_le_bytes().to_vec(), v as f64)
            }
            Types::S8U8 => {
                let byte = r.u32() as u8;
                let v = if is_a { byte as i8 as f64 } else { byte as f64 };
                (vec![byte], v)
            }
            // e4m3 exponents below 8, e5m2 below 16: no NaN or infinity.
            Types::E4m3E5m2 => {
                let byte = r.u32() as u8 & if is_a { 0xbf } else { 0xbb };
                (vec![byte], fp8_value(byte, !is_a))
            }
        }
    };
    let size = if ty == Types::F16 { 2 } else { 1 };
    for (row, vals) in a.iter_mut().enumerate() {
        for (kk, v) in vals.iter_mut().enumerate() {
            let (bytes, value) = element(r, true);
            abytes[offset(row, kk * size)..offset(row, kk * size) + size].copy_from_slice(&bytes);
            *v = value;
        }
    }
    for (kk, vals) in b.iter_mut().enumerate() {
        for (n, v) in vals.iter_mut().enumerate() {
            let (bytes, value) = element(r, false);
            bbytes[offset(n, kk * size)..offset(n, kk * size) + size].copy_from_slice(&bytes);
            *v = value;
        }
    }
    let c: Vec<u32> = (0..512)
        .map(|_| match ty {
            Types::S8U8 => r.u32(),
            _ => r.f32(100.0).to_bits(),
        })
        .collect();
    let flag = r.u32() & 1;
    let mut out = vec![0u32; 1024];
    for t in 0..128 {
        let (w, lane) = (t / 32, t % 32);
        for i in 0..4 {
            let (row, col) = (16 * w + lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2);
            let ab: f64 = (0..k).map(|x| a[row][x] * b[x][col]).sum();
            if ty == Types::S8U8 {
                let acc = if flag != 0 { c[4 * t + i] } else { 0 };
                out[8 * t + i] = (ab as i64 as u32).wrapping_add(acc);
                out[8 * t + 4 + i] = ab as i64 as u32;
            } else {
                let acc = if flag != 0 {
                    f32::from_bits(c[4 * t + i]) as f64
                } else {
                    0.0
                };
                out[8 * t + i] = ((ab + acc) as f32).to_bits();
                out[8 * t + 4 + i] = (-ab as f32).to_bits();
            }
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
            buf_u32(2, &c),
            buf_u32(3, &[0; 1024]),
        ],
        expected: vec![
            buf_bytes(0, abytes),
            buf_bytes(1, bbytes),
            buf_u32(2, &c),
            buf_u32(3, &out),
        ],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// m64n8k16 f16 -> f32.
pub fn wgmma_f16(r: &mut Rng) -> Setup {
    wgmma_case(r, Types::F16)
}

/// m64n8k32 s8 x u8 -> s32.
pub fn wgmma_s8(r: &mut Rng) -> Setup {
    wgmma_case(r, Types::S8U8)
}

/// m64n8k32 e4m3 x e5m2 -> f32.
pub fn wgmma_e4m3(r: &mut Rng) -> Setup {
    wgmma_case(r, Types::E4m3E5m2)
}
