//! The FP8 conversion kernel (`kernels/fp8.ptx`): inputs and reference results, computed by
//! searching each format's 256 codes for the nearest value (independently of the emulator's and
//! the interpreter's rounding code).

use super::*;
use ptxforge_emu::Launch;

/// The value of an FP8 code (NaN for NaN codes; e5m2's infinities are infinite).
fn value(code: u8, e4m3: bool) -> f64 {
    let (mbits, bias) = if e4m3 { (3, 7) } else { (2, 15) };
    let mag = code & 0x7f;
    let (e, m) = ((mag >> mbits) as i32, (mag & ((1 << mbits) - 1)) as f64);
    let v = if e4m3 && mag == 0x7f || !e4m3 && e == 31 && m != 0.0 {
        f64::NAN
    } else if !e4m3 && e == 31 {
        f64::INFINITY
    } else if e == 0 {
        m * 2f64.powi(1 - bias - mbits)
    } else {
        (1.0 + m / (1 << mbits) as f64) * 2f64.powi(e - bias)
    };
    if code & 0x80 != 0 {
        -v
    } else {
        v
    }
}

/// `x` to nearest (ties to the even code), saturating to the largest finite value; NaN is 0x7f.
fn to_fp8(x: f64, e4m3: bool, relu: bool) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    let x = if relu && x < 0.0 { 0.0 } else { x };
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    let largest = (0..0x7fu8)
        .filter(|&c| value(c, e4m3).is_finite())
        .max_by(|&c, &d| value(c, e4m3).total_cmp(&value(d, e4m3)))
        .unwrap();
    if x.abs() >= value(largest, e4m3) {
        return sign | largest;
    }
    let finite = (0..0x7fu8).filter(|&c| value(c, e4m3).is_finite());
    let best = finite
        .min_by(|&c, &d| {
            let (dc, dd) = (
                (value(c, e4m3) - x.abs()).abs(),
                (value(d, e4m3) - x.abs()).abs(),
            );
            dc.total_cmp(&dd).then((c & 1).cmp(&(d & 1)))
        })
        .unwrap();
    sign | best
}

/// f16 bits to f64.
fn f16_value(h: u16) -> f64 {
    let (e, m) = ((h >> 10 & 0x1f) as i32, (h & 0x3ff) as f64);
    let v = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// An FP8 byte as f16 bits (exact; NaN is 0x7fff).
fn widen(code: u8, e4m3: bool, relu: bool) -> u32 {
    let v = value(code, e4m3);
    if v.is_nan() {
        return 0x7fff;
    }
    let v = if relu && v < 0.0 { 0.0 } else { v };
    (0..=0xffffu16)
        .find(|&h| f16_value(h) == v && (h & 0x8000 != 0) == v.is_sign_negative())
        .unwrap() as u32
}

/// An f32 word: random sign, mantissa and an exponent from 2^-12 to 2^17 (past both formats'
/// largest and below their smallest subnormals), with NaN, infinities and zeros now and then.
fn input_f32(r: &mut Rng) -> u32 {
    let bits = r.u32();
    match bits % 32 {
        0 => 0x7fc0_0000,
        1 => 0xff80_0000 ^ (bits & 0x8000_0000),
        2 => bits & 0x8000_0000,
        _ => (bits & 0x807f_ffff) | ((127 - 12 + (r.u32() % 30)) << 23),
    }
}

pub fn fp8(r: &mut Rng) -> Setup {
    const THREADS: usize = 128;
    let mut input = Vec::new();
    for _ in 0..THREADS {
        input.extend([input_f32(r), input_f32(r), r.u32(), r.u32()]);
    }
    let mut out = Vec::new();
    for w in input.chunks(4) {
        let (a, b) = (f32::from_bits(w[0]) as f64, f32::from_bits(w[1]) as f64);
        let pair = |x: f64, y: f64, e4m3, relu| {
            (to_fp8(x, e4m3, relu) as u32) << 8 | to_fp8(y, e4m3, relu) as u32
        };
        let (h1, h0) = (f16_value((w[2] >> 16) as u16), f16_value(w[2] as u16));
        let unpack = |bytes: u32, e4m3, relu| {
            widen((bytes >> 8) as u8, e4m3, relu) << 16 | widen(bytes as u8, e4m3, relu)
        };
        out.extend([
            pair(a, b, true, false),
            pair(a, b, false, false),
            pair(a, b, true, true),
            pair(h1, h0, true, false),
            pair(h1, h0, false, true),
            unpack(w[3] & 0xffff, true, false),
            unpack(w[3] & 0xffff, false, false),
            unpack(w[3] >> 16, true, true),
        ]);
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [THREADS as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &vec![0; out.len()]), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &input)],
        unordered: vec![],
        f32_ulps: 0,
    }
}
