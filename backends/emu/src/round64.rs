//! Directed rounding of DADD, DMUL and DFMA (78..79: RN, RM, RP, RZ): the round-to-nearest
//! result is stepped by one ulp when it lies on the wrong side of the exact value, whose side is
//! found with error-free transforms on operands scaled away from the subnormal range.

/// `a + b`, `a * b` or `a * b + c` (`c: None` for the product) rounded by `rm`.
pub fn round_op(sum: Option<f64>, a: f64, b: f64, c: Option<f64>, rm: u32) -> f64 {
    let r = match (sum, c) {
        (Some(s), _) => s,
        (None, Some(c)) => a.mul_add(b, c),
        (None, None) => a * b,
    };
    if rm == 0 || r.is_nan() {
        return r;
    }
    let operands_finite = a.is_finite() && b.is_finite() && c.is_none_or(f64::is_finite);
    if r.is_infinite() {
        // Overflow from finite operands: the directed modes that point inwards give the largest finite.
        let inward = matches!((rm, r > 0.0), (3, _) | (1, true) | (2, false));
        return if operands_finite && inward {
            f64::MAX.copysign(r)
        } else {
            r
        };
    }
    let above = match (sum, c) {
        (Some(_), _) => -exact_sign(&[a, b, -r]),
        (None, c) => -product_error_sign(a, b, c.unwrap_or(0.0), r),
    };
    if rm == 1 && r == 0.0 && above == 0 && r.is_sign_positive() {
        // An exact zero sum is -0 when rounding down, unless every addend is +0.
        let addends = match (sum, c) {
            (Some(_), _) => [a, b],
            (None, Some(c)) => [a * b, c],
            (None, None) => return r,
        };
        if addends.iter().any(|x| *x != 0.0 || x.is_sign_negative()) {
            return -0.0;
        }
    }
    let step = match (rm, above) {
        (1, 1) => -1,
        (2, -1) => 1,
        (3, 1) if r > 0.0 => -1,
        (3, -1) if r < 0.0 => 1,
        _ => 0,
    };
    if step == 0 {
        r
    } else {
        next(r, step)
    }
}

/// One ulp up (`step > 0`) or down from a finite `r`.
fn next(r: f64, step: i32) -> f64 {
    if r == 0.0 {
        return f64::from_bits(1).copysign(step as f64);
    }
    let b = r.to_bits();
    f64::from_bits(if (r > 0.0) == (step > 0) {
        b + 1
    } else {
        b - 1
    })
}

/// The sign of `a * b + c - r`: the product is split exactly (hi + lo) after scaling all terms
/// by a power of two that keeps the low part out of the subnormal range.
fn product_error_sign(a: f64, b: f64, c: f64, r: f64) -> i32 {
    if a == 0.0 || b == 0.0 {
        return exact_sign(&[c, -r]);
    }
    let lift = (-900 - exponent(a) - exponent(b)).max(0);
    let (a1, c1, r1) = (scale(a, lift), scale(c, lift), scale(r, lift));
    if !c1.is_finite() || !r1.is_finite() {
        // c and r dwarf the product, which then only decides a tie between them.
        return if c == r {
            (a.signum() * b.signum()) as i32
        } else {
            exact_sign(&[c, -r])
        };
    }
    let hi = a1 * b;
    let lo = a1.mul_add(b, -hi);
    exact_sign(&[hi, lo, c1, -r1])
}

/// The sign of the exact sum of `terms` (distillation with TwoSum, then the largest remainder).
fn exact_sign(terms: &[f64]) -> i32 {
    let mut v = terms.to_vec();
    for _ in 0..v.len() * 4 {
        for k in 1..v.len() {
            let (s, e) = two_sum(v[k - 1], v[k]);
            v[k - 1] = e;
            v[k] = s;
        }
    }
    v.iter()
        .rev()
        .find(|x| **x != 0.0)
        .map_or(0, |x| x.signum() as i32)
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The binary exponent of a finite nonzero `x`.
fn exponent(x: f64) -> i32 {
    let bits = x.abs().to_bits();
    match bits >> 52 {
        0 => -1011 - bits.leading_zeros() as i32,
        e => e as i32 - 1023,
    }
}

/// `x * 2^e` in steps that stay exact while they move `x` towards the normal range.
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= f64::from_bits(((step + 1023) as u64) << 52);
        e -= step;
    }
    x
}
