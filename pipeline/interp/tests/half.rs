//! f16 and bf16: conversions from f32 in every rounding mode and f16/f16x2/bf16 arithmetic, checked
//! against a brute-force reference over all 65536 encodings.

mod common;
use common::*;

/// Every finite value of a 16-bit format, sorted, with its encoding (negative zero omitted).
fn table(ebits: u32, mbits: u32) -> Vec<(f64, u16)> {
    let bias = (1 << (ebits - 1)) - 1;
    let mut v = Vec::new();
    for b in 0..=u16::MAX {
        let e = (b as u32 >> mbits) & ((1 << ebits) - 1);
        let m = b as u32 & ((1 << mbits) - 1);
        if e == (1 << ebits) - 1 || b == 0x8000 {
            continue;
        }
        let mag = if e == 0 {
            m as f64 * 2f64.powi(1 - bias - mbits as i32)
        } else {
            (m | 1 << mbits) as f64 * 2f64.powi(e as i32 - bias - mbits as i32)
        };
        v.push((if b & 0x8000 != 0 { -mag } else { mag }, b));
    }
    v.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    v
}

/// `x` rounded into the format of `t`: mode 0 nearest-even, 1 toward zero, 2 down, 3 up.
fn reference(t: &[(f64, u16)], x: f64, mode: u32, inf: u16) -> u16 {
    let max = t.last().unwrap().0;
    let i = t.partition_point(|e| e.0 <= x);
    let below = if i > 0 { Some(t[i - 1]) } else { None };
    let above = t.get(i).copied();
    if let Some(b) = below {
        if b.0 == x {
            return if x == 0.0 && x.is_sign_negative() {
                0x8000
            } else {
                b.1
            };
        }
    }
    let ulp_top = max - t[t.len() - 2].0;
    let down = || below.map_or(inf | 0x8000, |b| b.1);
    let up = || above.map_or(inf, |a| a.1);
    let toward_zero = || {
        if x > 0.0 {
            below.map_or(inf, |b| b.1)
        } else {
            above.map_or(0x8000 | inf, |a| a.1)
        }
    };
    match mode {
        0 => {
            if x >= max + ulp_top / 2.0 {
                return inf;
            }
            if x <= -(max + ulp_top / 2.0) {
                return inf | 0x8000;
            }
            let (b, a) = (below.unwrap(), above.unwrap());
            let (db, da) = (x - b.0, a.0 - x);
            let pick = if db < da || (db == da && b.1 & 1 == 0) {
                b.1
            } else {
                a.1
            };
            // Results of zero keep the sign of x.
            if pick & 0x7fff == 0 {
                if x < 0.0 {
                    0x8000
                } else {
                    0
                }
            } else {
                pick
            }
        }
        1 => {
            let r = if x > max {
                t.last().unwrap().1
            } else if x < -max {
                t[0].1
            } else {
                toward_zero()
            };
            if r & 0x7fff == 0 && x < 0.0 {
                0x8000
            } else {
                r
            }
        }
        2 => {
            let r = if x > max { t.last().unwrap().1 } else { down() };
            if r & 0x7fff == 0 && x < 0.0 {
                0x8000
            } else {
                r
            }
        }
        _ => {
            let r = if x < -max { t[0].1 } else { up() };
            if r & 0x7fff == 0 && x < 0.0 {
                0x8000
            } else {
                r
            }
        }
    }
}

const CVT: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry cvt16(.param .u64 io)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<3>;
    .reg .b16 %h<10>;
    ld.param.u64 %rd1, [io];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.f32 %f1, [%rd1];
    cvt.rn.f16.f32 %h1, %f1;  st.global.b16 [%rd1+4], %h1;
    cvt.rz.f16.f32 %h2, %f1;  st.global.b16 [%rd1+6], %h2;
    cvt.rm.f16.f32 %h3, %f1;  st.global.b16 [%rd1+8], %h3;
    cvt.rp.f16.f32 %h4, %f1;  st.global.b16 [%rd1+10], %h4;
    cvt.rn.bf16.f32 %h5, %f1;  st.global.b16 [%rd1+12], %h5;
    cvt.rz.bf16.f32 %h6, %f1;  st.global.b16 [%rd1+14], %h6;
    cvt.rm.bf16.f32 %h7, %f1;  st.global.b16 [%rd1+16], %h7;
    cvt.rp.bf16.f32 %h8, %f1;  st.global.b16 [%rd1+18], %h8;
    cvt.f32.f16 %f2, %h1;  st.global.f32 [%rd1+20], %f2;
    ret;
}
"#;

fn rand_f32(r: &mut Rng) -> f32 {
    let m = (r.next() & 0x7f_ffff) as u32;
    let e = 127 - 28 + (r.next() % 48) as u32;
    f32::from_bits(((r.next() & 1) as u32) << 31 | e << 23 | m)
}

#[test]
fn f32_to_f16_and_bf16_in_all_modes() {
    let m = parse(CVT);
    let (t16, tb16) = (table(5, 10), table(8, 7));
    let mut rng = Rng(99);
    let n = 512;
    let mut xs: Vec<f32> = (0..n).map(|_| rand_f32(&mut rng)).collect();
    // Ties, overflow boundaries and subnormals.
    xs[..8].copy_from_slice(&[
        65520.0,
        65504.0,
        -65520.0,
        1.0 + 1.0 / 2048.0,
        2f32.powi(-25),
        -2f32.powi(-26),
        3.0 * 2f32.powi(-25),
        0.0,
    ]);
    let mut io = vec![0u32; 8 * n];
    for (i, x) in xs.iter().enumerate() {
        io[8 * i] = x.to_bits();
    }
    let mut bufs = vec![u32s(A, &io)];
    run(
        &m,
        "cvt16",
        launch([1, 1, 1], [n as u32, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let b = &bufs[0].bytes;
    let half =
        |i: usize, k: usize| u16::from_le_bytes([b[32 * i + 4 + 2 * k], b[32 * i + 5 + 2 * k]]);
    for (i, &x) in xs.iter().enumerate() {
        for mode in 0..4 {
            assert_eq!(
                half(i, mode as usize),
                reference(&t16, x as f64, mode, 0x7c00),
                "f16 mode {mode} of {x:e}"
            );
            assert_eq!(
                half(i, 4 + mode as usize),
                reference(&tb16, x as f64, mode, 0x7f80),
                "bf16 mode {mode} of {x:e}"
            );
        }
        let back = f32::from_bits(u32::from_le_bytes(
            b[32 * i + 20..32 * i + 24].try_into().unwrap(),
        ));
        let h = half(i, 0);
        let want = t16.iter().find(|e| e.1 == h).map_or(
            if h & 0x8000 != 0 {
                f64::NEG_INFINITY
            } else if h == 0 {
                0.0
            } else {
                f64::INFINITY
            },
            |e| e.0,
        );
        assert_eq!(
            back as f64,
            if h == 0x8000 { -0.0 } else { want },
            "f16 {h:#x} back to f32"
        );
    }
}

const ARITH: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry arith16(.param .u64 io)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .b16 %h<8>;
    ld.param.u64 %rd1, [io];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.b16 %h1, [%rd1];
    ld.global.b16 %h2, [%rd1+2];
    ld.global.b16 %h3, [%rd1+4];
    add.rn.f16 %h4, %h1, %h2;  st.global.b16 [%rd1+8], %h4;
    mul.rn.f16 %h5, %h1, %h2;  st.global.b16 [%rd1+10], %h5;
    fma.rn.f16 %h6, %h1, %h2, %h3;  st.global.b16 [%rd1+12], %h6;
    ld.global.b32 %r2, [%rd1];
    ld.global.b32 %r3, [%rd1+4];
    add.rn.f16x2 %r4, %r2, %r3;  st.global.b32 [%rd1+16], %r4;
    add.rn.bf16 %h7, %h1, %h2;  st.global.b16 [%rd1+20], %h7;
    ret;
}
"#;

#[test]
fn f16_and_bf16_arithmetic() {
    let m = parse(ARITH);
    let (t16, tb16) = (table(5, 10), table(8, 7));
    let dec = |t: &[(f64, u16)], h: u16| t.iter().find(|e| e.1 == h).map(|e| e.0);
    let mut rng = Rng(4242);
    let n = 256;
    let mut io = vec![0u16; 16 * n];
    let finite16 = |r: &mut Rng| loop {
        let h = (r.next() as u16) & 0xbfff; // exponents below 16: no overflow to inf or NaN inputs
        if h & 0x7c00 != 0x7c00 {
            return h;
        }
    };
    for i in 0..n {
        for k in 0..3 {
            io[16 * i + k] = finite16(&mut rng);
        }
    }
    // bf16 inputs: reinterpret the first two halves; make them finite bf16 values too.
    let mut bufs = vec![buf(A, &io, |x: u16| x.to_le_bytes().to_vec())];
    run(
        &m,
        "arith16",
        launch([1, 1, 1], [n as u32, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let o: Vec<u16> = bufs[0]
        .bytes
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    for i in 0..n {
        let r = &o[16 * i..16 * i + 16];
        let (a, b, c) = (
            dec(&t16, r[0]).unwrap(),
            dec(&t16, r[1]).unwrap(),
            dec(&t16, r[2]).unwrap(),
        );
        let nearest = |x: f64| reference(&t16, x, 0, 0x7c00);
        let sign_fix = |got: u16, want: u16| {
            if got & 0x7fff == 0 && want & 0x7fff == 0 {
                got & 0x7fff
            } else {
                got
            }
        };
        assert_eq!(
            sign_fix(r[4], nearest(a + b)),
            sign_fix(nearest(a + b), nearest(a + b)),
            "f16 {a} + {b}"
        );
        assert_eq!(
            sign_fix(r[5], nearest(a * b)),
            sign_fix(nearest(a * b), nearest(a * b)),
            "f16 {a} * {b}"
        );
        // a*b + c in f64 is exact when it needs no more than 53 bits; the inputs keep it so except
        // for extreme exponent gaps, which the reference would round twice: skip those.
        let exact = a * b + c;
        if (exact - c - a * b).abs() == 0.0 {
            assert_eq!(
                sign_fix(r[6], nearest(exact)),
                sign_fix(nearest(exact), nearest(exact)),
                "f16 fma {a} {b} {c}"
            );
        }
        let lo = nearest(a + c);
        let hi = nearest(b + dec(&t16, r[3]).unwrap());
        assert_eq!(sign_fix(r[8], lo), sign_fix(lo, lo), "f16x2 low lane");
        assert_eq!(sign_fix(r[9], hi), sign_fix(hi, hi), "f16x2 high lane");
        if let (Some(x), Some(y)) = (dec(&tb16, r[0]), dec(&tb16, r[1])) {
            let want = reference(&tb16, x + y, 0, 0x7f80);
            assert_eq!(
                sign_fix(r[10], want),
                sign_fix(want, want),
                "bf16 {x} + {y}"
            );
        }
    }
}

const FP8: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry fp8(.param .u64 io)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<3>;
    .reg .b16 %h<4>;
    ld.param.u64 %rd1, [io];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.f32 %f1, [%rd1];
    ld.global.f32 %f2, [%rd1+4];
    cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;
    cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2;
    cvt.rn.f16x2.e4m3x2 %r2, %h1;
    st.global.b16 [%rd1+8], %h1;
    st.global.b16 [%rd1+10], %h2;
    st.global.b32 [%rd1+12], %r2;
    ret;
}
"#;

#[test]
fn fp8_pack_and_unpack() {
    let m = parse(FP8);
    // (hi, lo) inputs and the expected e4m3 / e5m2 codes of each.
    let cases: [(f32, f32, u8, u8, u8, u8); 5] = [
        (1.0, 2.0, 0x38, 0x40, 0x3c, 0x40),
        (448.0, -500.0, 0x7e, 0xfe, 0x5f, 0xe0),
        (0.001953125, 1.0625, 0x01, 0x38, 0x18, 0x3c),
        (1e6, -1e6, 0x7e, 0xfe, 0x7b, 0xfb),
        (3.25, 0.0, 0x45, 0x00, 0x42, 0x00),
    ];
    let mut io = vec![0u32; 4 * cases.len()];
    for (i, c) in cases.iter().enumerate() {
        io[4 * i] = c.0.to_bits();
        io[4 * i + 1] = c.1.to_bits();
    }
    let mut bufs = vec![u32s(A, &io)];
    run(
        &m,
        "fp8",
        launch([1, 1, 1], [cases.len() as u32, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let b = &bufs[0].bytes;
    for (i, c) in cases.iter().enumerate() {
        let at = 16 * i;
        assert_eq!(
            (b[at + 9], b[at + 8]),
            (c.2, c.3),
            "e4m3 of {} {}",
            c.0,
            c.1
        );
        assert_eq!(
            (b[at + 11], b[at + 10]),
            (c.4, c.5),
            "e5m2 of {} {}",
            c.0,
            c.1
        );
        // Unpacking e4m3 to f16 is exact: compare with the f16 encoding of the e4m3 value.
        let h = u32::from_le_bytes(b[at + 12..at + 16].try_into().unwrap());
        let f16_of = |code: u8| -> u16 {
            let (e, mm) = ((code >> 3) & 0xf, (code & 7) as u16);
            let mag = if e == 0 && mm == 0 {
                0
            } else if e == 0 {
                // subnormal e4m3 m * 2^-9 is a normal f16: m = 1 << k ... normalise.
                let v = mm as f64 * 2f64.powi(-9);
                let ex = v.log2().floor() as i32;
                let frac = ((v / 2f64.powi(ex) - 1.0) * 1024.0) as u16;
                (((ex + 15) as u16) << 10) | frac
            } else {
                ((e as u16 + 8) << 10) | (mm << 7)
            };
            mag | if code & 0x80 != 0 { 0x8000 } else { 0 }
        };
        assert_eq!(
            h,
            (f16_of(c.2) as u32) << 16 | f16_of(c.3) as u32,
            "f16x2 from e4m3 {:#x} {:#x}",
            c.2,
            c.3
        );
    }
}
