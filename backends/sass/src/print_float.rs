//! f32 immediates as nvdisasm prints them: `-24`, `0.5`, `0.10000000149011611938`,
//! `9.9999997473787516356e-05`, `1.00000000000000000000e+09`, `+INF ` (with its space), `+QNAN`.

/// nvdisasm's text for the f32 with these bits: C's `%.20g` below 1e9 in magnitude, `%.20e` from
/// there on, and `+INF`/`-INF`/`+QNAN`-style names for the special values (learnt by decoding
/// ptxas's FMUL immediates).
pub fn f32_literal(bits: u32) -> String {
    let v = f32::from_bits(bits);
    let sign = if v.is_sign_negative() { "-" } else { "+" };
    if v.is_infinite() {
        // nvdisasm follows an infinity with a space: `FSETP.GEU.AND P0, PT, |R2|, +INF , PT`.
        return format!("{sign}INF ");
    }
    if v.is_nan() {
        let quiet = bits & 0x0040_0000 != 0;
        return format!("{sign}{}", if quiet { "QNAN" } else { "SNAN" });
    }
    let v = v as f64;
    if v.abs() >= 1e9 {
        c_exponent(&format!("{v:.20e}"))
    } else {
        c_general(v, 20)
    }
}

/// C's `%.{precision}g`: significant digits, trailing zeros dropped, exponent form outside
/// 1e-4 ..= 10^precision.
fn c_general(v: f64, precision: usize) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let scientific = format!("{v:.*e}", precision - 1);
    let exponent: i32 = scientific.split_once('e').unwrap().1.parse().unwrap();
    if exponent < -4 || exponent >= precision as i32 {
        let (mantissa, _) = scientific.split_once('e').unwrap();
        return c_exponent(&format!("{}e{exponent}", trim_fraction(mantissa)));
    }
    let decimals = (precision as i32 - 1 - exponent) as usize;
    trim_fraction(&format!("{v:.decimals$}")).to_string()
}

/// Drops trailing zeros of a fraction, and the point if nothing is left after it.
fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Rust's `1.5e9` / `1.5e-5` exponent written as C writes it: `e+09`, `e-05`.
fn c_exponent(s: &str) -> String {
    let (mantissa, exponent) = s.split_once('e').unwrap();
    let exponent: i32 = exponent.parse().unwrap();
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

#[cfg(test)]
mod tests {
    use super::f32_literal;

    /// Pairs read from nvdisasm's listing of ptxas's `FMUL R, R, imm` for these values.
    #[test]
    fn prints_like_nvdisasm() {
        let cases: &[(f32, &str)] = &[
            (0.5, "0.5"),
            (-24.0, "-24"),
            (16777216.0, "16777216"),
            (0.001, "0.0010000000474974513054"),
            (0.1, "0.10000000149011611938"),
            (1e-4, "9.9999997473787516356e-05"),
            (1e-5, "9.9999997473787516356e-06"),
            (0.00012, "0.00011999999696854501963"),
            (12345.678, "12345.677734375"),
            (999999936.0, "999999936"),
            (1e9, "1.00000000000000000000e+09"),
            (-1e9, "-1.00000000000000000000e+09"),
            (1e20, "1.00000002004087734272e+20"),
            (1.0000001, "1.0000001192092895508"),
            (f32::from_bits(1), "1.4012984643248170709e-45"),
            (f32::MIN_POSITIVE, "1.175494350822287508e-38"),
            (f32::INFINITY, "+INF "),
            (f32::NEG_INFINITY, "-INF "),
            (f32::from_bits(0x7fc0_0000), "+QNAN"),
        ];
        for &(v, text) in cases {
            assert_eq!(f32_literal(v.to_bits()), text, "{v}");
        }
    }
}
