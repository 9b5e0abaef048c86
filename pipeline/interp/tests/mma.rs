//! Tensor-core instructions: a 16x16 by 16x8 f16 product through ldmatrix (A rows, B^T rows) and
//! mma.m16n8k16 must equal the plain matrix product, and an s8 m16n8k32 product with fragments
//! built here from the PTX ISA formulas.

mod common;
use common::*;

const F16_KERNEL: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry hmma(.param .u64 pa, .param .u64 pbt, .param .u64 pd)
{
    .reg .b32 %r<40>;
    .reg .b64 %rd<12>;
    .reg .f32 %f<8>;
    .shared .align 16 .b8 sa[512];
    .shared .align 16 .b8 sb[256];
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pbt];
    ld.param.u64 %rd3, [pd];
    mov.u32 %r1, %laneid;
    // Copy A (512 bytes) and B^T (256 bytes) to shared: 16 + 8 bytes per lane.
    shl.b32 %r2, %r1, 4;
    cvt.u64.u32 %rd4, %r2;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd5];
    mov.u32 %r7, sa;
    add.u32 %r8, %r7, %r2;
    st.shared.v4.u32 [%r8], {%r3, %r4, %r5, %r6};
    shl.b32 %r9, %r1, 3;
    cvt.u64.u32 %rd6, %r9;
    add.s64 %rd7, %rd2, %rd6;
    ld.global.v2.u32 {%r10, %r11}, [%rd7];
    mov.u32 %r12, sb;
    add.u32 %r13, %r12, %r9;
    st.shared.v2.u32 [%r13], {%r10, %r11};
    bar.warp.sync -1;
    // A: lane l points at row (l % 8) + 8 ((l / 8) % 2), column 8 (l / 16); rows are 32 bytes.
    and.b32 %r14, %r1, 15;
    shl.b32 %r15, %r14, 5;
    shr.u32 %r16, %r1, 4;
    shl.b32 %r17, %r16, 4;
    add.u32 %r18, %r15, %r17;
    add.u32 %r19, %r7, %r18;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r19];
    // B^T: lane l (< 16) points at row (l % 8), column 8 (l / 8); rows are 32 bytes.
    and.b32 %r24, %r1, 7;
    shl.b32 %r25, %r24, 5;
    shr.u32 %r26, %r1, 3;
    and.b32 %r26, %r26, 1;
    shl.b32 %r27, %r26, 4;
    add.u32 %r28, %r25, %r27;
    add.u32 %r29, %r12, %r28;
    ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r30, %r31}, [%r29];
    mov.f32 %f1, 0f00000000;
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r20, %r21, %r22, %r23}, {%r30, %r31}, {%f1, %f1, %f1, %f1};
    // D: lane l holds rows g and g + 8, columns 2t and 2t + 1 (g = l / 4, t = l % 4); 8 floats per row.
    shr.u32 %r32, %r1, 2;
    and.b32 %r33, %r1, 3;
    shl.b32 %r34, %r32, 3;
    shl.b32 %r35, %r33, 1;
    add.u32 %r36, %r34, %r35;
    mul.wide.u32 %rd8, %r36, 4;
    add.s64 %rd9, %rd3, %rd8;
    st.global.v2.f32 [%rd9], {%f2, %f3};
    st.global.v2.f32 [%rd9+256], {%f4, %f5};
    ret;
}
"#;

fn f16_bits(v: i32) -> u16 {
    // Small integers are exact in f16: sign, exponent, 10-bit mantissa.
    if v == 0 {
        return 0;
    }
    let (s, a) = (if v < 0 { 0x8000 } else { 0 }, v.unsigned_abs());
    let e = 31 - a.leading_zeros();
    s | ((e + 15) << 10) as u16 | (((a << (10 - e)) & 0x3ff) as u16)
}

#[test]
fn ldmatrix_and_mma_f16_compute_the_matrix_product() {
    let m = parse(F16_KERNEL);
    let a: Vec<i32> = (0..256).map(|i| (i * 7 % 11) - 5).collect();
    let bt: Vec<i32> = (0..128).map(|i| (i * 5 % 9) - 4).collect(); // bt[n][k]
    let mut bufs = vec![
        buf(A, &a, |v| f16_bits(v).to_le_bytes().to_vec()),
        buf(B, &bt, |v| f16_bits(v).to_le_bytes().to_vec()),
        zeros(C, 16 * 8 * 4),
    ];
    run(
        &m,
        "hmma",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B, C],
        &mut bufs,
    )
    .unwrap();
    let d = read_f32(&bufs[2]);
    for r in 0..16 {
        for c in 0..8 {
            let want: i32 = (0..16).map(|k| a[r * 16 + k] * bt[c * 16 + k]).sum();
            assert_eq!(d[r * 8 + c], want as f32, "D[{r}][{c}]");
        }
    }
}

const S8_KERNEL: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry imma(.param .u64 frags, .param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [frags];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %laneid;
    mul.wide.u32 %rd3, %r1, 48;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];
    ld.global.v2.u32 {%r6, %r7}, [%rd4+16];
    ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd4+32];
    mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r12, %r13, %r14, %r15}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%r8, %r9, %r10, %r11};
    mul.wide.u32 %rd5, %r1, 16;
    add.s64 %rd6, %rd2, %rd5;
    st.global.v4.u32 [%rd6], {%r12, %r13, %r14, %r15};
    ret;
}
"#;

#[test]
fn mma_s8_m16n8k32_matches_the_isa_fragment_formulas() {
    let m = parse(S8_KERNEL);
    let mut rng = Rng(77);
    let a: Vec<i8> = (0..16 * 32).map(|_| rng.next() as i8).collect(); // a[row][k]
    let b: Vec<i8> = (0..32 * 8).map(|_| rng.next() as i8).collect(); // b[k][col]
    let c: Vec<i32> = (0..16 * 8).map(|_| rng.next() as i32 >> 8).collect();
    // Per lane: A 4 regs, B 2 regs, 2 pad, C 4 regs (48 bytes), per the PTX ISA's m16n8k32 .s8 layout.
    let mut words = vec![0u32; 32 * 12];
    for lane in 0..32usize {
        let (g, t) = (lane >> 2, lane % 4);
        for i in 0..16 {
            let row = if i < 4 || (8..12).contains(&i) {
                g
            } else {
                g + 8
            };
            let col = t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            words[lane * 12 + i / 4] |= (a[row * 32 + col] as u8 as u32) << (8 * (i % 4));
        }
        for i in 0..8 {
            let row = t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 };
            words[lane * 12 + 4 + i / 4] |= (b[row * 8 + g] as u8 as u32) << (8 * (i % 4));
        }
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, t * 2 + (i & 1));
            words[lane * 12 + 8 + i] = c[row * 8 + col] as u32;
        }
    }
    let mut bufs = vec![u32s(A, &words), zeros(B, 32 * 16)];
    run(
        &m,
        "imma",
        launch([1, 1, 1], [32, 1, 1]),
        &[A, B],
        &mut bufs,
    )
    .unwrap();
    let d = read_u32(&bufs[1]);
    for lane in 0..32usize {
        let (g, t) = (lane >> 2, lane % 4);
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, t * 2 + (i & 1));
            let want: i32 = (0..32)
                .map(|k| a[row * 32 + k] as i32 * b[k * 8 + col] as i32)
                .sum::<i32>()
                + c[row * 8 + col];
            assert_eq!(d[lane * 4 + i] as i32, want, "D[{row}][{col}]");
        }
    }
}
