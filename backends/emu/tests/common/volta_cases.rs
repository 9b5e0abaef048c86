//! `kernels/volta75.ptx`: Volta's quad-pair m8n8k4 f16 mma in three layout/type forms and
//! movmatrix. Fragments are small integers (every sum exact in f16 and f32), the quad pairs'
//! matrices put together from the PTX ISA's m8n8k4 figures and multiplied here.

use super::*;
use ptxforge_emu::Launch;

/// The f16 bits of an integer of magnitude below 2048.
fn f16_of(v: i32) -> u32 {
    if v == 0 {
        return 0;
    }
    let (s, a) = ((v < 0) as u32, v.unsigned_abs());
    let e = 31 - a.leading_zeros();
    s << 15 | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff)
}

fn f16_value(h: u32) -> i32 {
    let h = h & 0xffff;
    if h & 0x7fff == 0 {
        return 0;
    }
    let e = ((h >> 10) & 0x1f) as i32 - 15;
    let m = (h & 0x3ff | 0x400) as i32;
    let v = m >> (10 - e);
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// PTX ISA figures for m8n8k4 .f16: (row, column) of element `i` of `lane`'s fragment, in its
/// quad pair's matrix.
fn a_at(col_major: bool, lane: usize, i: usize) -> (usize, usize) {
    let (t, hi) = (lane % 4, if lane < 16 { 0 } else { 4 });
    if col_major {
        (i + hi, t)
    } else {
        (t + hi, i)
    }
}
fn b_at(col_major: bool, lane: usize, i: usize) -> (usize, usize) {
    let (t, hi) = (lane % 4, if lane < 16 { 0 } else { 4 });
    if col_major {
        (i, t + hi)
    } else {
        (t, i + hi)
    }
}
fn acc_at(f32: bool, lane: usize, i: usize) -> (usize, usize) {
    let hi = if lane < 16 { 0 } else { 4 };
    if f32 {
        ((lane % 2) + (i & 2) + hi, (i & 4) + (lane & 2) + (i & 1))
    } else {
        (lane % 4 + hi, i)
    }
}

/// D = A B + C per quad pair, each lane's D elements in order.
fn product(
    a: &[[i32; 4]],
    b: &[[i32; 4]],
    c: &[[i32; 8]],
    (a_col, b_col, f32_c, f32_d): (bool, bool, bool, bool),
) -> Vec<[i32; 8]> {
    let mut ma = [[[0i32; 4]; 8]; 4];
    let mut mb = [[[0i32; 8]; 4]; 4];
    let mut mc = [[[0i32; 8]; 8]; 4];
    for lane in 0..32 {
        let q = (lane / 4) % 4;
        for i in 0..4 {
            let (r, k) = a_at(a_col, lane, i);
            ma[q][r][k] = a[lane][i];
            let (k, n) = b_at(b_col, lane, i);
            mb[q][k][n] = b[lane][i];
        }
        for i in 0..8 {
            let (r, n) = acc_at(f32_c, lane, i);
            mc[q][r][n] = c[lane][i];
        }
    }
    (0..32)
        .map(|lane| {
            let q = (lane / 4) % 4;
            std::array::from_fn(|i| {
                let (r, n) = acc_at(f32_d, lane, i);
                (0..4).map(|k| ma[q][r][k] * mb[q][k][n]).sum::<i32>() + mc[q][r][n]
            })
        })
        .collect()
}

pub fn volta75(r: &mut Rng) -> Setup {
    let mut small = || (r.u32() % 9) as i32 - 4;
    let a: Vec<[i32; 4]> = (0..32).map(|_| std::array::from_fn(|_| small())).collect();
    let b: Vec<[i32; 4]> = (0..32).map(|_| std::array::from_fn(|_| small())).collect();
    let cf: Vec<[i32; 8]> = (0..32).map(|_| std::array::from_fn(|_| small())).collect();
    let ch: Vec<[i32; 8]> = (0..32).map(|_| std::array::from_fn(|_| small())).collect();
    let mv: Vec<u32> = (0..32).map(|_| r.u32()).collect();
    let pack = |x: i32, y: i32| f16_of(x) | f16_of(y) << 16;
    let mut inp = vec![0u32; 1024];
    for l in 0..32 {
        let w = &mut inp[32 * l..32 * l + 32];
        w[0] = pack(a[l][0], a[l][1]);
        w[1] = pack(a[l][2], a[l][3]);
        w[2] = pack(b[l][0], b[l][1]);
        w[3] = pack(b[l][2], b[l][3]);
        for i in 0..8 {
            w[4 + i] = (cf[l][i] as f32).to_bits();
        }
        for i in 0..4 {
            w[12 + i] = pack(ch[l][2 * i], ch[l][2 * i + 1]);
        }
        w[16] = mv[l];
    }
    let d0 = product(&a, &b, &cf, (false, true, true, true));
    let d1 = product(&a, &b, &ch, (true, false, false, false));
    let d2 = product(&a, &b, &ch, (true, true, false, true));
    let d3 = product(&a, &b, &cf, (false, false, true, true));
    let mut out = vec![0u32; 1024];
    for l in 0..32 {
        let w = &mut out[32 * l..32 * l + 32];
        for i in 0..8 {
            w[i] = (d0[l][i] as f32).to_bits();
            w[12 + i] = (d2[l][i] as f32).to_bits();
            w[24 + i] = (d3[l][i] as f32).to_bits();
        }
        for i in 0..4 {
            w[8 + i] = pack(d1[l][2 * i], d1[l][2 * i + 1]);
        }
        // movmatrix: lane l gets row l/4, columns 2(l%4), +1 of the transpose.
        let (row, col) = (l / 4, 2 * (l % 4));
        let elem = |rr: usize, cc: usize| (mv[4 * rr + cc / 2] >> (16 * (cc % 2))) & 0xffff;
        w[20] = elem(col, row) | elem(col + 1, row) << 16;
    }
    // The f16 results are read back as integers (a check on the helper pair).
    debug_assert_eq!(f16_value(f16_of(-37)), -37);
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 1024]), buf_u32(1, &inp)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &inp)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `kernels/stsm90.ptx`: stmatrix x4 at shared 0 and x2.trans at 512 from each lane's four words;
/// matrix j's row r lands at 128 j + 16 r (+ 512), lane l holding row l/4, columns 2(l%4), +1 of
/// each matrix (of its transpose with .trans).
pub fn stsm90(r: &mut Rng) -> Setup {
    let inp: Vec<u32> = (0..1024).map(|_| r.u32()).collect();
    let mut sh = [0u16; 512];
    for l in 0..32 {
        let (row, col) = (l / 4, 2 * (l % 4));
        for h in 0..2 {
            for j in 0..4 {
                sh[64 * j + 8 * row + col + h] = (inp[4 * l + j] >> (16 * h)) as u16;
            }
            for (j, word) in [3, 0].into_iter().enumerate() {
                sh[256 + 64 * j + 8 * (col + h) + row] = (inp[4 * l + word] >> (16 * h)) as u16;
            }
        }
    }
    let mut out = vec![0u32; 1024];
    for (k, w) in out.iter_mut().enumerate().take(256) {
        *w = sh[2 * k] as u32 | (sh[2 * k + 1] as u32) << 16;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 1024]), buf_u32(1, &inp)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &inp)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
