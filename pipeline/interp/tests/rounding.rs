//! Directed rounding of f32 add/mul/fma/div/sqrt checked against exact integer arithmetic, round
//! to nearest against Rust's own (correctly rounded) operations, and known f64 cases.

mod common;
use common::*;
use std::cmp::Ordering;

const KERNEL: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry rnd(.param .u64 io)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<32>;
    ld.param.u64 %rd1, [io];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 128;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.f32 %f1, [%rd1];
    ld.global.f32 %f2, [%rd1+4];
    ld.global.f32 %f3, [%rd1+8];
    abs.f32 %f30, %f2;
    abs.f32 %f31, %f1;
    add.rn.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+16], %f4;
    add.rz.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+20], %f4;
    add.rm.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+24], %f4;
    add.rp.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+28], %f4;
    mul.rn.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+32], %f4;
    mul.rz.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+36], %f4;
    mul.rm.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+40], %f4;
    mul.rp.f32 %f4, %f1, %f2;   st.global.f32 [%rd1+44], %f4;
    fma.rn.f32 %f4, %f1, %f2, %f3;   st.global.f32 [%rd1+48], %f4;
    fma.rz.f32 %f4, %f1, %f2, %f3;   st.global.f32 [%rd1+52], %f4;
    fma.rm.f32 %f4, %f1, %f2, %f3;   st.global.f32 [%rd1+56], %f4;
    fma.rp.f32 %f4, %f1, %f2, %f3;   st.global.f32 [%rd1+60], %f4;
    div.rn.f32 %f4, %f1, %f30;   st.global.f32 [%rd1+64], %f4;
    div.rz.f32 %f4, %f1, %f30;   st.global.f32 [%rd1+68], %f4;
    div.rm.f32 %f4, %f1, %f30;   st.global.f32 [%rd1+72], %f4;
    div.rp.f32 %f4, %f1, %f30;   st.global.f32 [%rd1+76], %f4;
    sqrt.rn.f32 %f4, %f31;   st.global.f32 [%rd1+80], %f4;
    sqrt.rz.f32 %f4, %f31;   st.global.f32 [%rd1+84], %f4;
    sqrt.rm.f32 %f4, %f31;   st.global.f32 [%rd1+88], %f4;
    sqrt.rp.f32 %f4, %f31;   st.global.f32 [%rd1+92], %f4;
    ret;
}
"#;

/// An exact binary value `n * 2^e`.
#[derive(Copy, Clone, Debug)]
struct Exact {
    n: i128,
    e: i32,
}

fn exact(x: f32) -> Exact {
    let b = x.to_bits();
    let (exp, frac) = ((b >> 23) & 0xff, (b & 0x7f_ffff) as i128);
    let (m, e) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | 1 << 23, exp as i32 - 150)
    };
    Exact {
        n: if x < 0.0 { -m } else { m },
        e,
    }
}

fn align(a: Exact, b: Exact) -> Option<(i128, i128)> {
    let e = a.e.min(b.e);
    Some((
        a.n.checked_mul(1i128.checked_shl((a.e - e) as u32)?)?,
        b.n.checked_mul(1i128.checked_shl((b.e - e) as u32)?)?,
    ))
}

fn add(a: Exact, b: Exact) -> Option<Exact> {
    let (x, y) = align(a, b)?;
    Some(Exact {
        n: x + y,
        e: a.e.min(b.e),
    })
}

fn mul(a: Exact, b: Exact) -> Option<Exact> {
    Some(Exact {
        n: a.n.checked_mul(b.n)?,
        e: a.e + b.e,
    })
}

fn cmp(a: Exact, b: Exact) -> Option<Ordering> {
    let (x, y) = align(a, b)?;
    Some(x.cmp(&y))
}

fn up(x: f32) -> f32 {
    if x == 0.0 {
        return f32::from_bits(1);
    }
    f32::from_bits(if x > 0.0 {
        x.to_bits() + 1
    } else {
        x.to_bits() - 1
    })
}

fn down(x: f32) -> f32 {
    -up(-x)
}

/// Checks that `r` is `v` rounded toward zero / down / up (mode 1/2/3); `None` when the exact
/// comparison does not fit in i128 (the case is skipped).
fn check_directed(mode: usize, r: f32, v: Exact) -> Option<bool> {
    let (er, eu, ed) = (exact(r), exact(up(r)), exact(down(r)));
    Some(match mode {
        1 if v.n >= 0 => cmp(er, v)? != Ordering::Greater && cmp(eu, v)? == Ordering::Greater,
        1 => cmp(er, v)? != Ordering::Less && cmp(ed, v)? == Ordering::Less,
        2 => cmp(er, v)? != Ordering::Greater && cmp(eu, v)? == Ordering::Greater,
        _ => cmp(er, v)? != Ordering::Less && cmp(ed, v)? == Ordering::Less,
    })
}

/// For div and sqrt: `r` correctly directed-rounded iff products bracket the dividend/radicand.
fn check_by_product(
    mode: usize,
    r: f32,
    prod: impl Fn(f32) -> Exact,
    target: Exact,
) -> Option<bool> {
    let le = |x: f32| -> Option<bool> { Some(cmp(prod(x), target)? != Ordering::Greater) };
    let ge = |x: f32| -> Option<bool> { Some(cmp(prod(x), target)? != Ordering::Less) };
    let toward_down = mode == 2 || (mode == 1 && r >= 0.0);
    Some(if toward_down {
        le(r)? && !le(up(r))?
    } else {
        ge(r)? && !ge(down(r))?
    })
}

fn rand_f32(r: &mut Rng) -> f32 {
    let m = (r.next() & 0x7f_ffff) as u32;
    let e = 127 - 10 + (r.next() % 20) as u32;
    let s = (r.next() & 1) as u32;
    f32::from_bits(s << 31 | e << 23 | m)
}

#[test]
fn f32_directed_rounding_is_exact() {
    let m = parse(KERNEL);
    let mut rng = Rng(0x1234_5678);
    let threads = 256usize;
    let mut io = vec![0f32; 32 * threads];
    for t in 0..threads {
        for k in 0..3 {
            io[32 * t + k] = rand_f32(&mut rng);
        }
    }
    let mut bufs = vec![f32s(A, &io)];
    run(
        &m,
        "rnd",
        launch([1, 1, 1], [threads as u32, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let out = read_f32(&bufs[0]);
    let mut checked = 0;
    for t in 0..threads {
        let o = &out[32 * t..32 * t + 32];
        let (a, b, c) = (o[0], o[1], o[2]);
        assert_eq!(o[4].to_bits(), (a + b).to_bits(), "add.rn {a} {b}");
        assert_eq!(o[8].to_bits(), (a * b).to_bits(), "mul.rn {a} {b}");
        assert_eq!(
            o[12].to_bits(),
            a.mul_add(b, c).to_bits(),
            "fma.rn {a} {b} {c}"
        );
        assert_eq!(o[16].to_bits(), (a / b.abs()).to_bits(), "div.rn {a} {b}");
        assert_eq!(o[20].to_bits(), a.abs().sqrt().to_bits(), "sqrt.rn {a}");
        for mode in 1..4 {
            let sum = add(exact(a), exact(b)).unwrap();
            let prod = mul(exact(a), exact(b)).unwrap();
            let fma = add(prod, exact(c)).unwrap();
            for (slot, v, what) in [(4, sum, "add"), (8, prod, "mul"), (12, fma, "fma")] {
                if let Some(ok) = check_directed(mode, o[slot + mode], v) {
                    assert!(
                        ok,
                        "{what} mode {mode}: {a} {b} {c} gave {}",
                        o[slot + mode]
                    );
                    checked += 1;
                }
            }
            let bb = b.abs();
            if let Some(ok) = check_by_product(
                mode,
                o[16 + mode],
                |q| mul(exact(q), exact(bb)).unwrap(),
                exact(a),
            ) {
                assert!(ok, "div mode {mode}: {a} / {bb} gave {}", o[16 + mode]);
                checked += 1;
            }
            let r = o[20 + mode];
            if let Some(ok) = check_by_product(
                mode,
                r,
                |q| mul(exact(q), exact(q)).unwrap(),
                exact(a.abs()),
            ) {
                assert!(ok, "sqrt mode {mode}: {} gave {r}", a.abs());
                checked += 1;
            }
        }
    }
    assert!(
        checked > threads * 12,
        "most cases were checkable ({checked})"
    );
}

const F64_KERNEL: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry rnd64(.param .u64 io)
{
    .reg .b64 %rd<2>;
    .reg .f64 %fd<8>;
    ld.param.u64 %rd1, [io];
    ld.global.f64 %fd1, [%rd1];
    ld.global.f64 %fd2, [%rd1+8];
    add.rz.f64 %fd3, %fd1, %fd2;  st.global.f64 [%rd1+16], %fd3;
    add.rp.f64 %fd3, %fd1, %fd2;  st.global.f64 [%rd1+24], %fd3;
    add.rm.f64 %fd3, %fd1, %fd2;  st.global.f64 [%rd1+32], %fd3;
    mul.rp.f64 %fd3, %fd1, %fd1;  st.global.f64 [%rd1+40], %fd3;
    div.rz.f64 %fd3, %fd1, 0d4008000000000000;  st.global.f64 [%rd1+48], %fd3;
    div.rp.f64 %fd3, %fd1, 0d4008000000000000;  st.global.f64 [%rd1+56], %fd3;
    mul.rz.f64 %fd3, %fd1, 0d7fe0000000000000;  st.global.f64 [%rd1+64], %fd3;
    fma.rm.f64 %fd3, %fd1, %fd1, %fd2;  st.global.f64 [%rd1+72], %fd3;
    ret;
}
"#;

#[test]
fn f64_directed_rounding_known_cases() {
    let m = parse(F64_KERNEL);
    let tiny = 2f64.powi(-60);
    let mut bufs = vec![buf(
        A,
        &[1.0f64, tiny, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        |x: f64| x.to_le_bytes().to_vec(),
    )];
    run(&m, "rnd64", launch([1, 1, 1], [1, 1, 1]), &[A], &mut bufs).unwrap();
    let o: Vec<f64> = read_u64(&bufs[0])
        .iter()
        .map(|b| f64::from_bits(*b))
        .collect();
    let next_up = f64::from_bits(1f64.to_bits() + 1);
    assert_eq!(o[2], 1.0, "1 + 2^-60 toward zero");
    assert_eq!(o[3], next_up, "1 + 2^-60 up");
    assert_eq!(o[4], 1.0, "1 + 2^-60 down");
    assert_eq!(o[5], 1.0, "1 * 1 is exact");
    // q * 3 - 1 is exact by fma: 1/3 toward zero is the largest q with q * 3 <= 1, up the smallest with >= 1.
    let above = |q: f64| q.mul_add(3.0, -1.0);
    assert!(
        above(o[6]) <= 0.0 && above(f64::from_bits(o[6].to_bits() + 1)) > 0.0,
        "1/3 toward zero"
    );
    assert!(
        above(o[7]) >= 0.0 && above(f64::from_bits(o[7].to_bits() - 1)) < 0.0,
        "1/3 up"
    );
    assert_eq!(o[8], 2f64.powi(1023), "1 * 2^1023 is exact");
    assert_eq!(o[9], 1.0, "1 + 2^-60 by fma rounded down");
}

const F64_TINY_KERNEL: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry tiny64(.param .u64 io)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    .reg .f64 %d<8>;
    ld.param.u64 %rd1, [io];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 128;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.f64 %d1, [%rd1];
    ld.global.f64 %d2, [%rd1+8];
    mul.rz.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+16], %d3;
    mul.rm.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+24], %d3;
    mul.rp.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+32], %d3;
    div.rz.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+40], %d3;
    div.rm.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+48], %d3;
    div.rp.f64 %d3, %d1, %d2;   st.global.f64 [%rd1+56], %d3;
    sqrt.rz.f64 %d3, %d1;       st.global.f64 [%rd1+64], %d3;
    sqrt.rp.f64 %d3, %d1;       st.global.f64 [%rd1+72], %d3;
    mov.f64 %d4, 0d0000000000000000;
    fma.rz.f64 %d3, %d1, %d2, %d4;   st.global.f64 [%rd1+80], %d3;
    fma.rm.f64 %d3, %d1, %d2, %d4;   st.global.f64 [%rd1+88], %d3;
    fma.rp.f64 %d3, %d1, %d2, %d4;   st.global.f64 [%rd1+96], %d3;
    ret;
}
"#;

/// f64 products, quotients and square roots whose exact value lies among the subnormals or below
/// the smallest one: the directed roundings must still see the sign of what rounding dropped.
#[test]
fn f64_directed_rounding_of_subnormal_and_underflowing_results() {
    let u = f64::from_bits(1); // the smallest subnormal, 2^-1074
    let p = |e: i32| 2f64.powi(e);
    // (x, y, mul x*y .rz/.rm/.rp (fma x*y+0 too), div x/y .rz/.rm/.rp)
    let cases: [(f64, f64, [f64; 3], [f64; 3]); 6] = [
        // x*y = -2^-1200, below the smallest subnormal.
        (p(-600), -p(-600), [-0.0, -u, -0.0], [-1.0; 3]),
        // x*y = 4.5u; x/y = 2^1073 overflows.
        (
            1.5,
            3.0 * u,
            [4.0 * u, 4.0 * u, 5.0 * u],
            [f64::MAX, f64::MAX, f64::INFINITY],
        ),
        (
            -1.5,
            3.0 * u,
            [-4.0 * u, -5.0 * u, -4.0 * u],
            [-f64::MAX, -f64::INFINITY, -f64::MAX],
        ),
        // x*y = 2.09999..u; x/y = 4.2857..u (0.7 is a little below 7/10).
        (
            3.0 * u,
            0.7,
            [2.0 * u, 2.0 * u, 3.0 * u],
            [4.0 * u, 4.0 * u, 5.0 * u],
        ),
        // x*y = -10u exactly; x/y = -2.5u.
        (
            5.0 * u,
            -2.0,
            [-10.0 * u; 3],
            [-2.0 * u, -3.0 * u, -2.0 * u],
        ),
        // x/y = u/3, below the smallest subnormal.
        (u, 3.0, [3.0 * u; 3], [0.0, 0.0, u]),
    ];
    let input: Vec<f64> = cases
        .iter()
        .flat_map(|(x, y, _, _)| [*x, *y].into_iter().chain(std::iter::repeat_n(0.0, 14)))
        .collect();
    let mut bufs = vec![buf(A, &input, |x: f64| x.to_le_bytes().to_vec())];
    run(
        &parse(F64_TINY_KERNEL),
        "tiny64",
        launch([1, 1, 1], [cases.len() as u32, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let out: Vec<u64> = read_u64(&bufs[0]);
    for (i, (x, y, mul, div)) in cases.iter().enumerate() {
        let o = &out[16 * i..16 * i + 16];
        for (k, mode) in ["rz", "rm", "rp"].iter().enumerate() {
            assert_eq!(o[2 + k], mul[k].to_bits(), "mul.{mode} {x:e} * {y:e}");
            assert_eq!(o[10 + k], mul[k].to_bits(), "fma.{mode} {x:e} * {y:e} + 0");
            assert_eq!(o[5 + k], div[k].to_bits(), "div.{mode} {x:e} / {y:e}");
        }
    }
    // sqrt of the subnormal x, checked exactly on x scaled by 2^1074 (so r by 2^537).
    let below = |r: f64, sx: f64| r.mul_add(r, -sx);
    for (i, (x, _, _, _)) in cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.0 > 0.0 && c.0 < p(-1022))
    {
        let (rz, rp) = (
            f64::from_bits(out[16 * i + 8]) * p(537),
            f64::from_bits(out[16 * i + 9]) * p(537),
        );
        let sx = x / u;
        let (after_rz, before_rp) = (
            f64::from_bits(rz.to_bits() + 1),
            f64::from_bits(rp.to_bits() - 1),
        );
        assert!(
            below(rz, sx) <= 0.0 && below(after_rz, sx) > 0.0,
            "sqrt.rz {x:e}"
        );
        assert!(
            below(rp, sx) >= 0.0 && below(before_rp, sx) < 0.0,
            "sqrt.rp {x:e}"
        );
    }
}

#[test]
fn exact_zero_sums_are_minus_zero_only_when_rounding_down() {
    use ptxforge_interp::float::{add64, add_in, fma64, Rnd, F32};
    for rnd in [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp] {
        let want_negative = rnd == Rnd::Rm;
        assert_eq!(
            add64(1.5, -1.5, rnd).is_sign_negative(),
            want_negative,
            "{rnd:?} f64 x - x"
        );
        assert_eq!(
            fma64(2.0, 3.0, -6.0, rnd).is_sign_negative(),
            want_negative,
            "{rnd:?} f64 fma"
        );
        let f32_bits = add_in(0.25, -0.25, rnd, F32);
        assert_eq!(
            f32_bits == 0x8000_0000,
            want_negative,
            "{rnd:?} f32 x - x: {f32_bits:#x}"
        );
        // Zeros of one sign keep it in every mode.
        assert!(add64(-0.0, -0.0, rnd).is_sign_negative(), "{rnd:?} -0 + -0");
        assert!(add64(0.0, 0.0, rnd).is_sign_positive(), "{rnd:?} +0 + +0");
    }
}
