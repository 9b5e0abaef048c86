//! Cases of `kernels/bfind.ptx` (bfind in every form and the funnel shifts, on values with zero,
//! all-ones and sign-only halves) and `kernels/atomic_f64.ptx` (f64 atomic adds); the expected
//! words computed here from PTX's definitions.

use super::*;

/// PTX's bfind on a `bits`-wide value: the highest set bit (signed: the highest bit differing
/// from the sign), `bits - 1 - index` with `.shiftamt`, 0xffffffff when there is none.
fn bfind(v: u64, bits: u32, signed: bool, shiftamt: bool) -> u32 {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let mut x = v & mask;
    if signed && (x >> (bits - 1)) & 1 == 1 {
        x = !x & mask;
    }
    if x == 0 {
        return u32::MAX;
    }
    let index = 63 - x.leading_zeros();
    if shiftamt {
        bits - 1 - index
    } else {
        index
    }
}

/// PTX's `shf.{l,r}.{wrap,clamp}.b32 d, lo, hi, n`.
fn shf(lo: u32, hi: u32, n: u32, left: bool, wrap: bool) -> u32 {
    let n = if wrap { n & 31 } else { n.min(32) };
    let pair = (hi as u64) << 32 | lo as u64;
    if left {
        ((pair << n) >> 32) as u32
    } else {
        (pair >> n) as u32
    }
}

/// A 64-bit input whose halves are zero, all ones or random by thread.
fn value(r: &mut Rng, t: usize) -> u64 {
    let half = |r: &mut Rng, k: usize| match k {
        0 => 0,
        1 => u32::MAX,
        2 => r.u32() >> (r.u32() % 32),
        _ => r.u32(),
    } as u64;
    let lo = half(r, t % 4);
    let hi = half(r, (t / 4) % 4);
    hi << 32 | lo
}

pub fn bfind_shf(r: &mut Rng) -> Setup {
    let n = 64;
    let mut input = Vec::with_capacity(4 * n);
    let mut out = Vec::with_capacity(12 * n);
    for t in 0..n {
        let v = value(r, t);
        let amount = r.u32() % 70;
        input.extend([v as u32, (v >> 32) as u32, amount, 0]);
        let (lo, hi) = (v as u32, (v >> 32) as u32);
        for (bits, x) in [(32, lo as u64), (64, v)] {
            for (signed, shiftamt) in [(false, false), (true, false), (false, true), (true, true)] {
                out.push(bfind(x, bits, signed, shiftamt));
            }
        }
        for (left, wrap) in [(true, true), (false, true), (true, false), (false, false)] {
            out.push(shf(lo, hi, amount, left, wrap));
        }
    }
    Setup {
        launch: launch1(n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &vec![0; 12 * n])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &out)],
        unordered: vec![],
        f32_ulps: 0,
    }
}

/// An f64 of moderate magnitude with a random sign and significand.
fn f64_moderate(r: &mut Rng) -> f64 {
    let bits = (r.next() & 0x800f_ffff_ffff_ffff) | (1015 + r.next() % 16) << 52;
    f64::from_bits(bits)
}

/// `kernels/atomic_f64.ptx`: a[i] += b[i] (old value kept), then a[i] += 0.5.
pub fn atomic_f64(r: &mut Rng) -> Setup {
    let n = 64;
    let a: Vec<f64> = (0..n).map(|_| f64_moderate(r)).collect();
    let b: Vec<f64> = (0..n).map(|_| f64_moderate(r)).collect();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
    let end: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x + y) + 0.5).collect();
    Setup {
        launch: launch1(n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![
            buf_u64(0, &bits(&a)),
            buf_u64(1, &bits(&b)),
            buf_u64(2, &vec![0; n]),
        ],
        expected: vec![
            buf_u64(0, &bits(&end)),
            buf_u64(1, &bits(&b)),
            buf_u64(2, &bits(&a)),
        ],
        unordered: vec![],
        f32_ulps: 0,
    }
}

/// `kernels/atomic_f64.ptx` `shared_fadd`: shared f64 and f32 adds (ptxas's CAS loop).
pub fn shared_fadd(r: &mut Rng) -> Setup {
    let n = 64;
    let a: Vec<f64> = (0..n).map(|_| f64_moderate(r)).collect();
    let b: Vec<f64> = (0..n).map(|_| f64_moderate(r)).collect();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
    let mut out = Vec::with_capacity(3 * n);
    for (x, y) in a.iter().zip(&b) {
        let (fx, fy) = (*x as f32, *y as f32);
        let f32_pair = (fx.to_bits() as u64) | ((fx + fy).to_bits() as u64) << 32;
        out.extend([x.to_bits(), (x + y).to_bits(), f32_pair]);
    }
    Setup {
        launch: launch1(n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![
            buf_u64(0, &bits(&a)),
            buf_u64(1, &bits(&b)),
            buf_u64(2, &vec![0; 3 * n]),
        ],
        expected: vec![
            buf_u64(0, &bits(&a)),
            buf_u64(1, &bits(&b)),
            buf_u64(2, &out),
        ],
        unordered: vec![],
        f32_ulps: 0,
    }
}
