//! Floating-point semantics: exact rounding to f32/f16/bf16 from an f64 value plus the sign of its
//! remainder, directed rounding of f64 results with error-free transforms, half-precision decoding,
//! and the approximate functions.
//!
//! Every f32, f16 and bf16 operation is computed as `s + tail` where `s` is an f64 and `tail` is a
//! tiny remainder known only by its sign (exact for add/mul/fma/div/sqrt: products of these formats
//! are exact in f64 and `two_sum`/`fma` give the remainder), then rounded once to the target format
//! with the requested mode. f64 operations take the correctly rounded result and step it by one ulp
//! when the exact error says the directed mode needs it.

use ptxforge_ptx::ast::Type;

/// IEEE rounding modes (`.rn`, `.rz`, `.rm`, `.rp`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rnd {
    Rn,
    Rz,
    Rm,
    Rp,
}

/// The rounding mode named in `mods` (`rn`/`rni` ...), `Rn` when none is.
pub fn rnd_of(mods: &[String]) -> Rnd {
    for m in mods {
        match m.as_str() {
            "rz" | "rzi" => return Rnd::Rz,
            "rm" | "rmi" => return Rnd::Rm,
            "rp" | "rpi" => return Rnd::Rp,
            "rn" | "rni" => return Rnd::Rn,
            _ => {}
        }
    }
    Rnd::Rn
}

/// A binary floating-point format narrower than f64.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fmt {
    pub ebits: u32,
    pub mbits: u32,
}

pub const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
};
pub const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
};
pub const BF16: Fmt = Fmt { ebits: 8, mbits: 7 };

/// Canonical NaN results: f32 `0x7fffffff`, f16 `0x7fff`, bf16 `0x7fff` (these formats carry no
/// payload through arithmetic); f64 `0x7fffffffffffffff` for invalid operations, while a NaN f64
/// operand propagates quieted.
pub const F64_NAN: u64 = 0x7fff_ffff_ffff_ffff;

impl Fmt {
    fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    pub fn inf(self) -> u64 {
        ((1u64 << self.ebits) - 1) << self.mbits
    }
    fn sign(self) -> u64 {
        1u64 << (self.ebits + self.mbits)
    }
    pub fn nan(self) -> u64 {
        self.inf() | ((1u64 << self.mbits) - 1)
    }
}

/// Rounding direction on magnitudes.
#[derive(Copy, Clone, PartialEq)]
enum Dir {
    Nearest,
    Trunc,
    Away,
}

fn dir(rnd: Rnd, neg: bool) -> Dir {
    match rnd {
        Rnd::Rn => Dir::Nearest,
        Rnd::Rz => Dir::Trunc,
        Rnd::Rm => {
            if neg {
                Dir::Away
            } else {
                Dir::Trunc
            }
        }
        Rnd::Rp => {
            if neg {
                Dir::Trunc
            } else {
                Dir::Away
            }
        }
    }
}

/// Rounds the exact value `s + tail` (|tail| below half an ulp of `s` in f64, known by its sign
/// `tail_sign`) to `fmt` with mode `rnd`; returns the bits.
pub fn round_to(s: f64, tail_sign: i8, rnd: Rnd, fmt: Fmt) -> u64 {
    if s.is_nan() {
        return fmt.nan();
    }
    let neg = if s == 0.0 {
        tail_sign < 0 || (tail_sign == 0 && s.is_sign_negative())
    } else {
        s < 0.0
    };
    let sign = if neg { fmt.sign() } else { 0 };
    if s.is_infinite() {
        return sign | fmt.inf();
    }
    let d = dir(rnd, neg);
    if s == 0.0 {
        return sign
            | if tail_sign != 0 && d == Dir::Away {
                1
            } else {
                0
            };
    }
    let mag_tail = if neg { -tail_sign } else { tail_sign };
    let bits = s.abs().to_bits();
    let (m, e) = if bits >> 52 == 0 {
        (bits, -1074i32)
    } else {
        (
            (bits & ((1 << 52) - 1)) | 1 << 52,
            (bits >> 52) as i32 - 1075,
        )
    };
    let top = e + 63 - m.leading_zeros() as i32;
    let (bias, emin) = (fmt.bias(), 1 - fmt.bias());
    if top > bias {
        return sign
            | if d == Dir::Trunc {
                fmt.inf() - 1
            } else {
                fmt.inf()
            };
    }
    let q = top.max(emin) - fmt.mbits as i32;
    let sh = q - e;
    let (kept, rem, half) = if sh <= 0 {
        (m.checked_shl((-sh) as u32).unwrap_or(0), 0u64, 1u64)
    } else if sh >= 64 {
        (0, m, u64::MAX)
    } else {
        (m >> sh, m & ((1u64 << sh) - 1), 1u64 << (sh - 1))
    };
    let mut out = if top >= emin {
        (((top + bias) as u64) << fmt.mbits) | (kept & ((1 << fmt.mbits) - 1))
    } else {
        kept
    };
    match d {
        Dir::Nearest => {
            let up =
                rem > half || (rem == half && (mag_tail > 0 || (mag_tail == 0 && kept & 1 == 1)));
            if up {
                out += 1;
            }
        }
        Dir::Trunc => {
            if rem == 0 && mag_tail < 0 {
                out -= 1;
            }
        }
        Dir::Away => {
            if rem != 0 || mag_tail > 0 {
                out += 1;
            }
        }
    }
    sign | out.min(fmt.inf())
}

/// Error-free sum: `a + b == s + e` exactly (barring overflow).
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

fn sign_of(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// The sign of the exact sum of `terms` (repeated error-free summation until the terms no longer
/// overlap; the largest term then decides).
pub fn exact_sign(mut v: Vec<f64>) -> i8 {
    if v.iter().any(|x| !x.is_finite()) {
        return 0;
    }
    for _ in 0..2 * v.len() + 2 {
        let before = v.clone();
        for i in 1..v.len() {
            let (s, e) = two_sum(v[i], v[i - 1]);
            v[i] = s;
            v[i - 1] = e;
        }
        if before == v {
            break;
        }
    }
    v.iter()
        .rev()
        .find(|x| **x != 0.0)
        .map_or(0, |x| sign_of(*x))
}

fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// Turns the round-to-nearest f64 result `r` into the `rnd` result, given the sign of `exact - r`
/// and whether `r` overflowed from finite operands.
fn adjust64(r: f64, err: i8, overflowed: bool, rnd: Rnd) -> f64 {
    if overflowed {
        let max = f64::MAX.copysign(r);
        return match (rnd, r > 0.0) {
            (Rnd::Rz, _) | (Rnd::Rm, true) | (Rnd::Rp, false) => max,
            _ => r,
        };
    }
    if rnd == Rnd::Rn || err == 0 || !r.is_finite() {
        return r;
    }
    match rnd {
        Rnd::Rm if err < 0 => next_down(r),
        Rnd::Rp if err > 0 => next_up(r),
        Rnd::Rz if r > 0.0 && err < 0 => next_down(r),
        Rnd::Rz if r < 0.0 && err > 0 => next_up(r),
        _ => r,
    }
}

fn overflowed(r: f64, ins: &[f64]) -> bool {
    r.is_infinite() && ins.iter().all(|x| x.is_finite())
}

fn err_sign(e: f64) -> i8 {
    if e.is_nan() {
        0
    } else {
        sign_of(e)
    }
}

/// An f64 from its nearest value `s` and the sign of the exact remainder, rounded by `rnd`.
pub fn from_f64_with_tail(s: f64, tail: i8, rnd: Rnd) -> f64 {
    adjust64(s, tail, false, rnd)
}

pub fn add64(a: f64, b: f64, rnd: Rnd) -> f64 {
    let (s, e) = two_sum(a, b);
    if s == 0.0 && e == 0.0 {
        return exact_zero_sum(a, b, rnd);
    }
    adjust64(s, err_sign(e), overflowed(s, &[a, b]), rnd)
}

/// The zero that `x + y` gives when the sum is exactly zero (IEEE 754 6.3): the operands' sign when
/// both are zeros of one sign, otherwise +0, except -0 when rounding toward negative infinity.
pub fn exact_zero_sum(x: f64, y: f64, rnd: Rnd) -> f64 {
    let both_zero = x == 0.0 && y == 0.0;
    if both_zero && x.is_sign_negative() == y.is_sign_negative() {
        return x;
    }
    if rnd == Rnd::Rm {
        -0.0
    } else {
        0.0
    }
}

/// The binary exponent of a finite nonzero `x`: `|x|` lies in `[2^e, 2^(e+1))`.
fn exponent(x: f64) -> i32 {
    let bits = x.abs().to_bits();
    if bits >> 52 == 0 {
        return -1011 - bits.leading_zeros() as i32;
    }
    (bits >> 52) as i32 - 1023
}

/// `x * 2^e`, exact when the result is a normal number or zero and every step moves `x` towards it
/// (scaling a tiny value up, or a large one down to about 1).
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= f64::from_bits(((step + 1023) as u64) << 52);
        e -= step;
    }
    x
}

/// Whether every value is finite and nonzero (the operands error terms are computed for).
fn finite_nonzero(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite() && *x != 0.0)
}

pub fn mul64(a: f64, b: f64, rnd: Rnd) -> f64 {
    let r = a * b;
    adjust64(r, mul_err_sign(a, b, r), overflowed(r, &[a, b]), rnd)
}

/// The sign of `a * b - r`. The low part of the product is taken on operands scaled to `[1, 2)`,
/// so that it cannot underflow when the product is subnormal or below the smallest subnormal.
fn mul_err_sign(a: f64, b: f64, r: f64) -> i8 {
    if !finite_nonzero(&[a, b]) || !r.is_finite() {
        return err_sign(a.mul_add(b, -r));
    }
    let (ea, eb) = (exponent(a), exponent(b));
    err_sign(scale(a, -ea).mul_add(scale(b, -eb), -scale(r, -(ea + eb))))
}

pub fn fma64(a: f64, b: f64, c: f64, rnd: Rnd) -> f64 {
    let r = a.mul_add(b, c);
    if r == 0.0 && fma_err_sign(a, b, c, r) == 0 {
        return exact_zero_sum(a * b, c, rnd);
    }
    if rnd == Rnd::Rn || !r.is_finite() {
        return adjust64(r, 0, overflowed(r, &[a, b, c]), rnd);
    }
    adjust64(r, fma_err_sign(a, b, c, r), false, rnd)
}

/// The sign of `a * b + c - r`: error-free sums over `c`, `-r` and the product split in two. The
/// split is exact only while the product's low part does not underflow, so all terms are first
/// scaled up together until the product reaches 2^-900; where `c` or `r` would then overflow they
/// dwarf the product, which only decides when `c == r`.
fn fma_err_sign(a: f64, b: f64, c: f64, r: f64) -> i8 {
    let lift = if finite_nonzero(&[a, b]) {
        (-900 - exponent(a) - exponent(b)).max(0)
    } else {
        0
    };
    let (c1, r1) = (scale(c, lift), scale(r, lift));
    if !c1.is_finite() || !r1.is_finite() {
        return if c == r {
            sign_of(a) * sign_of(b)
        } else {
            sign_of(c - r)
        };
    }
    let a1 = scale(a, lift);
    let ph = a1 * b;
    let pl = a1.mul_add(b, -ph);
    exact_sign(vec![c1, -r1, pl, ph])
}

pub fn div64(a: f64, b: f64, rnd: Rnd) -> f64 {
    let r = a / b;
    adjust64(
        r,
        div_err_sign(a, b, r),
        overflowed(r, &[a, b]) && b != 0.0,
        rnd,
    )
}

/// The sign of `a / b - r`, from the remainder `a - r * b` taken on operands scaled to `[1, 2)` (the
/// quotient then lies near 1, so the remainder is exact even when `r` is subnormal).
fn div_err_sign(a: f64, b: f64, r: f64) -> i8 {
    if !finite_nonzero(&[a, b]) || !r.is_finite() {
        return err_sign((-r).mul_add(b, a)) * sign_of(b);
    }
    let (ea, eb) = (exponent(a), exponent(b));
    let (a1, b1) = (scale(a, -ea), scale(b, -eb));
    err_sign((-scale(r, eb - ea)).mul_add(b1, a1)) * sign_of(b)
}

pub fn sqrt64(a: f64, rnd: Rnd) -> f64 {
    let r = a.sqrt();
    adjust64(r, sqrt_err_sign(a, r), false, rnd)
}

/// The sign of `sqrt(a) - r`, from `a - r * r` on `a` scaled by an even power of two into `[1, 4)`.
fn sqrt_err_sign(a: f64, r: f64) -> i8 {
    if !finite_nonzero(&[a]) || a < 0.0 {
        return err_sign((-r).mul_add(r, a));
    }
    let half = exponent(a).div_euclid(2);
    let r1 = scale(r, -half);
    err_sign((-r1).mul_add(r1, scale(a, -2 * half)))
}

/// `a + b` in `fmt` (operands already decoded to f64).
pub fn add_in(a: f64, b: f64, rnd: Rnd, fmt: Fmt) -> u64 {
    let (s, e) = two_sum(a, b);
    if s == 0.0 && e == 0.0 {
        return round_to(exact_zero_sum(a, b, rnd), 0, rnd, fmt);
    }
    round_to(s, err_sign(e), rnd, fmt)
}

/// `a * b` in `fmt`: exact in f64 for f32/f16/bf16 operands.
pub fn mul_in(a: f64, b: f64, rnd: Rnd, fmt: Fmt) -> u64 {
    round_to(a * b, 0, rnd, fmt)
}

/// `a * b + c` in `fmt` with one rounding.
pub fn fma_in(a: f64, b: f64, c: f64, rnd: Rnd, fmt: Fmt) -> u64 {
    let (s, e) = two_sum(a * b, c);
    if s == 0.0 && e == 0.0 {
        return round_to(exact_zero_sum(a * b, c, rnd), 0, rnd, fmt);
    }
    round_to(s, err_sign(e), rnd, fmt)
}

pub fn div_in(a: f64, b: f64, rnd: Rnd, fmt: Fmt) -> u64 {
    let q = a / b;
    let rem = (-q).mul_add(b, a);
    round_to(q, err_sign(rem) * sign_of(b), rnd, fmt)
}

pub fn sqrt_in(a: f64, rnd: Rnd, fmt: Fmt) -> u64 {
    let r = a.sqrt();
    round_to(r, err_sign((-r).mul_add(r, a)), rnd, fmt)
}

/// Decodes a narrow-format value exactly.
pub fn decode(bits: u64, fmt: Fmt) -> f64 {
    let neg = bits & fmt.sign() != 0;
    let e = ((bits >> fmt.mbits) & ((1 << fmt.ebits) - 1)) as i32;
    let m = bits & ((1 << fmt.mbits) - 1);
    let mag = if e == (1 << fmt.ebits) - 1 {
        if m == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if e == 0 {
        m as f64 * 2f64.powi(1 - fmt.bias() - fmt.mbits as i32)
    } else {
        (m | 1 << fmt.mbits) as f64 * 2f64.powi(e - fmt.bias() - fmt.mbits as i32)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// Whether `bits` is a subnormal of `fmt`.
pub fn is_subnormal(bits: u64, fmt: Fmt) -> bool {
    (bits >> fmt.mbits) & ((1 << fmt.ebits) - 1) == 0 && bits & ((1 << fmt.mbits) - 1) != 0
}

/// Flushes a subnormal to a zero of the same sign.
pub fn flush(bits: u64, fmt: Fmt) -> u64 {
    if is_subnormal(bits, fmt) {
        bits & fmt.sign()
    } else {
        bits
    }
}

/// The narrow format of a scalar or packed type.
pub fn fmt_of(ty: Type) -> Option<Fmt> {
    match ty {
        Type::F32 => Some(F32),
        Type::F16 | Type::F16x2 => Some(F16),
        Type::BF16 | Type::BF16x2 => Some(BF16),
        _ => None,
    }
}

/// A float operand as f64 (for comparisons): f32 (flushed under `ftz`), f16, bf16 or f64.
pub fn to_f64(bits: u64, ty: Type, ftz: bool) -> f64 {
    match fmt_of(ty) {
        Some(f) => decode(
            if ftz {
                flush(bits & mask_fmt(f), f)
            } else {
                bits & mask_fmt(f)
            },
            f,
        ),
        None => f64::from_bits(bits),
    }
}

fn mask_fmt(f: Fmt) -> u64 {
    (f.sign() << 1) - 1
}

/// `atom.add` on floats: round to nearest, no flush (global f32 adds flush: `memops.rs`).
pub fn atomic_add(old: u64, b: u64, ty: Type) -> Option<u64> {
    Some(match ty {
        Type::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        Type::F32 | Type::F16 | Type::BF16 => {
            let f = fmt_of(ty)?;
            add_in(decode(old, f), decode(b, f), Rnd::Rn, f)
        }
        Type::F16x2 | Type::BF16x2 => {
            let f = fmt_of(ty)?;
            let lane = |s: u32| {
                add_in(
                    decode(old >> s & 0xffff, f),
                    decode(b >> s & 0xffff, f),
                    Rnd::Rn,
                    f,
                ) << s
            };
            lane(0) | lane(16)
        }
        _ => return None,
    })
}

/// `atom.min`/`atom.max` on floats (NaN operands lose, as in `min`/`max`).
pub fn atomic_minmax(is_min: bool, old: u64, b: u64, ty: Type) -> Option<u64> {
    let f = fmt_of(ty);
    let (x, y) = match f {
        Some(f) => (decode(old, f), decode(b, f)),
        None => (f64::from_bits(old), f64::from_bits(b)),
    };
    let pick_old = pick_first(is_min, x, y)?;
    Some(if pick_old { old } else { b })
}

/// Whether `min`/`max` picks `x` over `y`; `None` when both are NaN. NaN loses to a number, and
/// -0 is below +0.
pub fn pick_first(is_min: bool, x: f64, y: f64) -> Option<bool> {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => None,
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => {
            let (kx, ky) = (total_key(x), total_key(y));
            Some(if is_min { kx <= ky } else { kx >= ky })
        }
    }
}

fn total_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 {
        !(b & i64::MAX)
    } else {
        b
    }
}

/// The approximate functions, computed in f64 (then rounded to nearest once by the caller); the
/// hardware's tolerances are in `APPROX_TOLERANCE`.
pub fn approx(op: &str, x: f64) -> Option<f64> {
    Some(match op {
        "rcp" => 1.0 / x,
        "sqrt" => x.sqrt(),
        "rsqrt" => 1.0 / x.sqrt(),
        "ex2" => x.exp2(),
        "lg2" => x.log2(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tanh" => x.tanh(),
        _ => return None,
    })
}
