//! Runs every PTX file of the filetests (and examples/vadd.ptx) on a small launch with fixed inputs
//! and checks the outputs against values computed here.

mod common;
use common::*;

fn vadd_check(file: &str) {
    let m = load(file);
    let mut r = Rng(7);
    let n = 100usize;
    let a: Vec<f32> = (0..n).map(|_| r.small_f32()).collect();
    let b: Vec<f32> = (0..n).map(|_| r.small_f32()).collect();
    let mut bufs = vec![f32s(A, &a), f32s(B, &b), zeros(C, 4 * 128)];
    run(
        &m,
        "vadd",
        launch([2, 1, 1], [64, 1, 1]),
        &[A, B, C, n as u64],
        &mut bufs,
    )
    .unwrap();
    let c = read_f32(&bufs[2]);
    for i in 0..128 {
        let want = if i < n { a[i] + b[i] } else { 0.0 };
        assert_eq!(c[i].to_bits(), want.to_bits(), "element {i}");
    }
}

#[test]
fn vadd_example_and_filetest() {
    vadd_check("examples/vadd.ptx");
    vadd_check("pipeline/driver/tests/filetests/vadd.ptx");
}

#[test]
fn block_reduce_sums_each_block() {
    let m = load("pipeline/driver/tests/filetests/block_reduce.ptx");
    let vals: Vec<f32> = (0..512).map(|i| ((i * 37) % 101) as f32).collect();
    let mut bufs = vec![f32s(A, &vals), zeros(B, 8)];
    let stats = run(
        &m,
        "block_reduce",
        launch([2, 1, 1], [256, 1, 1]),
        &[A, B],
        &mut bufs,
    )
    .unwrap();
    let out = read_f32(&bufs[1]);
    for b in 0..2 {
        let want: f32 = vals[b * 256..(b + 1) * 256].iter().sum();
        assert_eq!(out[b], want, "block {b}");
    }
    assert_eq!(stats.threads, 512);
}

#[test]
fn gather64() {
    let m = load("pipeline/driver/tests/filetests/addr64.ptx");
    let table: Vec<u64> = (0..50).map(|i| 1000 + i * i).collect();
    let idx: Vec<u64> = (0..40).map(|i| (i * 7) % 50).collect();
    let mut bufs = vec![u64s(A, &table), zeros(B, 8 * 40), u64s(C, &idx)];
    run(
        &m,
        "gather64",
        launch([2, 1, 1], [32, 1, 1]),
        &[A, B, C, 40],
        &mut bufs,
    )
    .unwrap();
    let out = read_u64(&bufs[1]);
    for i in 0..40 {
        assert_eq!(out[i], table[idx[i] as usize] + i as u64);
    }
}

#[test]
fn bitops() {
    let m = load("pipeline/driver/tests/filetests/bitops.ptx");
    let mut r = Rng(3);
    let x: Vec<u32> = (0..64).map(|_| r.next() as u32).collect();
    let mut bufs = vec![u32s(A, &x), zeros(B, 256)];
    run(
        &m,
        "bitops",
        launch([1, 1, 1], [64, 1, 1]),
        &[A, B, 5],
        &mut bufs,
    )
    .unwrap();
    let out = read_u32(&bufs[1]);
    for i in 0..64 {
        let v = x[i];
        let want = !((((v as i32) >> 5) as u32 ^ (v >> 5)) ^ ((v & 0xff00) | (v << 3)));
        assert_eq!(out[i], want, "element {i}");
    }
}

#[test]
fn row_sum_counted_loop() {
    let m = load("pipeline/driver/tests/filetests/counted_loop.ptx");
    let n = 11u32;
    let vals: Vec<u32> = (0..3 * n).map(|i| i * 3 + 1).collect();
    let mut bufs = vec![u32s(A, &vals), zeros(B, 12)];
    run(
        &m,
        "row_sum",
        launch([3, 1, 1], [1, 1, 1]),
        &[A, B, n as u64],
        &mut bufs,
    )
    .unwrap();
    let out = read_u32(&bufs[1]);
    for r in 0..3 {
        assert_eq!(
            out[r],
            vals[r * n as usize..(r + 1) * n as usize]
                .iter()
                .sum::<u32>()
        );
    }
}

#[test]
fn cvt_int_extensions() {
    let m = load("pipeline/driver/tests/filetests/cvt_int.ptx");
    let s8: Vec<u8> = (0..32).map(|i| (i * 29 + 200) as u8).collect();
    let s16: Vec<u16> = (0..32).map(|i| (i * 4099 + 30000) as u16).collect();
    let u16v: Vec<u16> = (0..32).map(|i| (i * 7919 + 50000) as u16).collect();
    let w: Vec<u32> = (0..32).map(|i| 0x80 + i * 0x01010101).collect();
    let mut bufs = vec![
        buf(A, &s8, |x| vec![x]),
        buf(B, &s16, |x| x.to_le_bytes().to_vec()),
        buf(C, &u16v, |x| x.to_le_bytes().to_vec()),
        zeros(D, 8 * 32),
        u32s(E, &w),
    ];
    run(
        &m,
        "cvt_int",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C, D, E],
        &mut bufs,
    )
    .unwrap();
    let o64 = read_u64(&bufs[3]);
    let o32 = read_u32(&bufs[4]);
    for i in 0..32 {
        let sum = s8[i] as i8 as i64 + s16[i] as i16 as i64 + u16v[i] as i64;
        assert_eq!(o64[i], sum as u64);
        let want = ((sum as u32 as i32) >> 3).wrapping_add(w[i] as u8 as i8 as i32);
        assert_eq!(o32[i], want as u32);
    }
}

#[test]
fn float_ops() {
    let m = load("pipeline/driver/tests/filetests/float_ops.ptx");
    let mut r = Rng(11);
    let a: Vec<f32> = (0..32).map(|_| r.small_f32()).collect();
    let b: Vec<f32> = (0..32).map(|_| r.small_f32()).collect();
    let mut bufs = vec![f32s(A, &a), f32s(B, &b), zeros(C, 4 * 96)];
    run(
        &m,
        "float_ops",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C],
        &mut bufs,
    )
    .unwrap();
    let o = read_f32(&bufs[2]);
    for i in 0..32 {
        assert_eq!(o[3 * i], a[i].min(b[i]) - b[i].abs());
        assert_eq!(o[3 * i + 1], (-a[i]).max(b[i]));
        assert_eq!(o[3 * i + 2], a[i] * a[i].mul_add(b[i], 1.5));
    }
}

#[test]
fn grid_stride_and_saxpy() {
    let m = load("pipeline/driver/tests/filetests/grid_stride.ptx");
    let x: Vec<f32> = (0..300).map(|i| i as f32 * 0.25).collect();
    let y: Vec<f32> = (0..300).map(|i| 1.0 - i as f32).collect();
    let mut bufs = vec![f32s(A, &x), f32s(B, &y)];
    run(
        &m,
        "grid_stride",
        launch([2, 1, 1], [32, 1, 1]),
        &[A, B, 300],
        &mut bufs,
    )
    .unwrap();
    let o = read_f32(&bufs[1]);
    for i in 0..300 {
        assert_eq!(o[i], x[i].mul_add(2.0, y[i]));
    }
    let m = load("pipeline/driver/tests/filetests/saxpy.ptx");
    let mut bufs = vec![f32s(A, &x), f32s(B, &y)];
    run(
        &m,
        "saxpy",
        launch([3, 1, 1], [128, 1, 1]),
        &[300, 3.5f32.to_bits() as u64, A, B],
        &mut bufs,
    )
    .unwrap();
    let o = read_f32(&bufs[1]);
    for i in 0..300 {
        assert_eq!(o[i], x[i].mul_add(3.5, y[i]));
    }
}

#[test]
fn shared_reverse() {
    let m = load("pipeline/driver/tests/filetests/handwritten_shared.ptx");
    let io: Vec<u32> = (0..128)
        .map(|i| 0x0001_7ff0u32.wrapping_add(i * 0x0100_0013))
        .collect();
    let mut bufs = vec![u32s(A, &io)];
    run(
        &m,
        "shared_rev",
        launch([1, 1, 1], [128, 1, 1]),
        &[A],
        &mut bufs,
    )
    .unwrap();
    let o = read_u32(&bufs[0]);
    for i in 0..128 {
        let want = (io[127 - i] as u16 as i16 as i32).wrapping_add(io[1] as i32);
        assert_eq!(o[i], want as u32, "element {i}");
    }
}

#[test]
fn cvt_float_int() {
    let m = load("pipeline/driver/tests/filetests/handwritten_cvt_float.ptx");
    for (i, f) in [
        (-7i32, -2.5f32),
        (123456789, 1e10),
        (5, 2.5),
        (-1, -1e12),
        (3, f32::NAN),
    ] {
        let mut bufs = vec![buf(A, &[i as u32, f.to_bits(), 0], |x: u32| {
            x.to_le_bytes().to_vec()
        })];
        run(&m, "k", launch([1, 1, 1], [1, 1, 1]), &[A], &mut bufs).unwrap();
        let o = read_u32(&bufs[0]);
        assert_eq!(
            f32::from_bits(o[0]),
            i as f32 + i as u32 as f32,
            "input {i}"
        );
        // Rust's float-to-int casts truncate, saturate and map NaN to 0, as PTX's cvt does.
        let (trunc_s, trunc_u, rni) = (f as i32, f as u32, f.round_ties_even() as i32);
        let want = trunc_s.wrapping_add(trunc_u as i32).wrapping_add(rni);
        assert_eq!(o[2], want as u32, "input {f}");
    }
}

#[test]
fn int64_ops() {
    let m = load("pipeline/driver/tests/filetests/handwritten_int64.ptx");
    for (a, b) in [(5i64, 9u64), (-40, 3), (i64::MIN, 1), (100, u64::MAX)] {
        let mut bufs = vec![zeros(A, 16)];
        run(
            &m,
            "int64_ops",
            launch([1, 1, 1], [1, 1, 1]),
            &[A, a as u64, b],
            &mut bufs,
        )
        .unwrap();
        let o = read_u64(&bufs[0]);
        let d5 = a.wrapping_sub(b as i64);
        let d6 = d5.wrapping_neg();
        let d7 = d5.min(d6);
        let d9 = (a as u64).max(b).wrapping_sub(1) as i64;
        assert_eq!(o[0], if d7 > d9 { d7 } else { d9 } as u64);
        assert_eq!(o[1], d6 as u64);
    }
}

#[test]
fn predicates() {
    let m = load("pipeline/driver/tests/filetests/handwritten_preds.ptx");
    let (a, b) = (5i32, 2i32);
    let mut bufs = vec![zeros(A, 8 * 40)];
    run(
        &m,
        "preds",
        launch([1, 1, 1], [16, 1, 1]),
        &[A, a as u64, b as u64],
        &mut bufs,
    )
    .unwrap();
    let o = bufs[0].bytes.clone();
    let mut want = vec![0u8; 8 * 40];
    let mut word4 = None;
    for t in 0..16i32 {
        let p1 = t < a;
        let p2 = (t != b) && p1;
        let p3 = (t == 7) || p2;
        let p5 = !p3 ^ p1;
        let r4 = if p5 { a } else { b };
        let r5 = r4.wrapping_neg();
        let r7 = (r5.wrapping_abs() as u32).max(t as u32);
        let addr = (r7 as i64 * 8) as usize;
        let rd6 = ((r5 as i64) >> 3) << a;
        if !p2 {
            want[addr..addr + 8].copy_from_slice(&rd6.to_le_bytes());
        }
        if !p1 {
            word4 = Some(r7);
        }
    }
    if let Some(w) = word4 {
        want[4..8].copy_from_slice(&w.to_le_bytes());
    }
    assert_eq!(o, want);
}

#[test]
fn if_else_clamp_or_scale() {
    let m = load("pipeline/driver/tests/filetests/if_else.ptx");
    let x: Vec<f32> = (0..40).map(|i| i as f32 - 20.0).collect();
    let mut bufs = vec![f32s(A, &x)];
    run(
        &m,
        "clamp_or_scale",
        launch([2, 1, 1], [32, 1, 1]),
        &[A, 3.0f32.to_bits() as u64, 37],
        &mut bufs,
    )
    .unwrap();
    let o = read_f32(&bufs[0]);
    for i in 0..40 {
        let want = if i >= 37 {
            x[i]
        } else if x[i] < 3.0 {
            6.0
        } else {
            x[i].mul_add(0.5, -1.0)
        };
        assert_eq!(o[i], want);
    }
}

#[test]
fn index3d() {
    let m = load("pipeline/driver/tests/filetests/index3d.ptx");
    let mut bufs = vec![zeros(A, 4 * 64)];
    run(&m, "index3d", launch([2, 2, 2], [2, 2, 2]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for i in 0..64u32 {
        let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
        assert_eq!(o[(x + 4 * (y + 4 * z)) as usize], x + 2 + 3 * y + 5 * z);
    }
}

#[test]
fn int_minmax() {
    let m = load("pipeline/driver/tests/filetests/int_minmax.ptx");
    let mut r = Rng(5);
    let a: Vec<u32> = (0..32).map(|_| r.next() as u32).collect();
    let b: Vec<u32> = (0..32).map(|_| r.next() as u32).collect();
    let mut bufs = vec![u32s(A, &a), u32s(B, &b), zeros(C, 16 * 32)];
    run(
        &m,
        "int_minmax",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C],
        &mut bufs,
    )
    .unwrap();
    let o = read_u32(&bufs[2]);
    for i in 0..32 {
        let (x, y) = (a[i] as i32, b[i] as i32);
        assert_eq!(o[4 * i], x.min(y) as u32);
        assert_eq!(o[4 * i + 1], x.max(y) as u32);
        assert_eq!(o[4 * i + 2], x.wrapping_abs().wrapping_sub(y) as u32);
        assert_eq!(o[4 * i + 3], a[i].min(b[i]).wrapping_sub(a[i]));
    }
}

#[test]
fn laneid() {
    let m = load("pipeline/driver/tests/filetests/laneid.ptx");
    let mut bufs = vec![zeros(A, 4 * 70)];
    run(&m, "laneid", launch([1, 1, 1], [70, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    assert!((0..70).all(|i| o[i] == i as u32 % 32));
}

#[test]
fn ldg_nc() {
    let m = load("pipeline/driver/tests/filetests/ldg_nc.ptx");
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 1.5).collect();
    let mut bufs = vec![f32s(A, &x), zeros(B, 4 * 32)];
    run(
        &m,
        "ldg_nc",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B],
        &mut bufs,
    )
    .unwrap();
    let o = read_f32(&bufs[1]);
    assert!((0..32).all(|i| o[i] == x[i] + x[i + 32]));
}

#[test]
fn mul_wide() {
    let m = load("pipeline/driver/tests/filetests/mul_wide.ptx");
    let mut r = Rng(9);
    let a: Vec<u32> = (0..33).map(|_| r.next() as u32).collect();
    let b: Vec<u32> = (0..33).map(|_| r.next() as u32).collect();
    let mut bufs = vec![
        u32s(A, &a),
        u32s(B, &b),
        zeros(C, 8 * 32),
        zeros(D, 4 * 32),
        zeros(E, 4 * 32),
    ];
    run(
        &m,
        "mul_wide",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C, D, E],
        &mut bufs,
    )
    .unwrap();
    let (o1, o2, o3) = (read_u64(&bufs[2]), read_u32(&bufs[3]), read_u32(&bufs[4]));
    for i in 0..32 {
        let (x, y) = (a[i] as i32 as i64, a[i + 1] as i32 as i64);
        assert_eq!(o1[i], (y + 12345).wrapping_mul(x) as u64);
        assert_eq!(o2[i], ((x * y) >> 32) as u32);
        let hi = ((b[i] as u64 * b[i + 1] as u64) >> 32) as u32;
        assert_eq!(o3[i], b[i].wrapping_mul(7).wrapping_add(hi).wrapping_add(3));
    }
}

#[test]
fn multi_entries() {
    let m = load("pipeline/driver/tests/filetests/multi.ptx");
    let mut bufs = vec![zeros(A, 4 * 32), f32s(B, &[2.0; 32]), zeros(C, 4 * 32)];
    run(
        &m,
        "fill",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, 77],
        &mut bufs,
    )
    .unwrap();
    run(
        &m,
        "scale",
        launch([1, 1, 1], [32, 1, 1]),
        &[B, 1.25f32.to_bits() as u64],
        &mut bufs,
    )
    .unwrap();
    run(
        &m,
        "copy",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, C],
        &mut bufs,
    )
    .unwrap();
    assert!(read_u32(&bufs[2]).iter().all(|&v| v == 77));
    assert!(read_f32(&bufs[1]).iter().all(|&v| v == 2.5));
}

#[test]
fn select_pred() {
    let m = load("pipeline/driver/tests/filetests/select_pred.ptx");
    let a: Vec<u32> = (0..32).map(|i| i * 3).collect();
    let f: Vec<f32> = (0..32)
        .map(|i| {
            if i % 5 == 0 {
                f32::NAN
            } else {
                i as f32 - 16.0
            }
        })
        .collect();
    let mut bufs = vec![u32s(A, &a), f32s(B, &f), zeros(C, 4 * 32)];
    run(
        &m,
        "select_pred",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C, 10, 60],
        &mut bufs,
    )
    .unwrap();
    let o = read_u32(&bufs[2]);
    for i in 0..32 {
        let inr = a[i] as i32 >= 10 && (a[i] as i32) < 60;
        let r5 = if f[i].is_nan() || f[i] > 0.0 { 1 } else { 2 };
        assert_eq!(o[i], if inr { r5 } else { a[i] });
    }
}

#[test]
fn u64_compare() {
    let m = load("pipeline/driver/tests/filetests/u64_compare.ptx");
    let mut r = Rng(13);
    let v: Vec<u64> = (0..32).map(|_| r.next()).collect();
    let lim = 1u64 << 63;
    let mut bufs = vec![u64s(A, &v), zeros(B, 4 * 32)];
    run(
        &m,
        "u64_compare",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, lim, B],
        &mut bufs,
    )
    .unwrap();
    let o = read_u32(&bufs[1]);
    for i in 0..32 {
        assert_eq!(
            o[i],
            if v[i] < lim {
                v[i] as u32 & 0xffff
            } else {
                (v[i] >> 40) as u32
            }
        );
    }
}

#[test]
fn empty_kernel() {
    let m = load("pipeline/driver/tests/filetests/empty.ptx");
    let stats = run(&m, "empty", launch([2, 1, 1], [8, 1, 1]), &[], &mut []).unwrap();
    assert_eq!(stats.instructions, 16);
}
