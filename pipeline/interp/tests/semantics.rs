//! Warp collectives, barriers with shared memory, divergence inside a warp, calls and recursion,
//! and the errors: out of bounds, deadlock, call depth, unsupported instructions.

mod common;
use common::*;
use ptxforge_interp::{SimError, Tolerance};

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

fn kernel(body: &str) -> ptxforge_ptx::ast::Module {
    parse(&format!("{HEAD}{body}"))
}

/// A kernel for a newer `.target` (mbarrier waits need sm_90, wgmma sm_90a); same three header lines.
fn kernel_on(target: &str, body: &str) -> ptxforge_ptx::ast::Module {
    parse(&format!(
        ".version 8.0\n.target {target}\n.address_size 64\n{body}"
    ))
}

#[test]
fn shfl_and_vote() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd1, %rd1, %rd2;
    mul.lo.u32 %r2, %r1, 10;
    shfl.sync.down.b32 %r3|%p1, %r2, 3, 31, -1;
    shfl.sync.up.b32 %r4, %r2, 1, 0, -1;
    shfl.sync.bfly.b32 %r5, %r2, 5, 31, -1;
    shfl.sync.idx.b32 %r6, %r2, 7, 31, -1;
    setp.lt.u32 %p2, %r1, 20;
    vote.sync.ballot.b32 %r7, %p2, -1;
    vote.sync.all.pred %p3, %p2, -1;
    selp.u32 %r8, 1, 0, %p3;
    selp.u32 %r9, 1, 0, %p1;
    st.global.u32 [%rd1], %r3;
    st.global.u32 [%rd1+4], %r4;
    st.global.u32 [%rd1+8], %r5;
    st.global.u32 [%rd1+12], %r6;
    st.global.u32 [%rd1+16], %r7;
    st.global.u32 [%rd1+20], %r8;
    st.global.u32 [%rd1+24], %r9;
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 32 * 32)];
    run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for l in 0..32u32 {
        let r = &o[8 * l as usize..8 * l as usize + 8];
        let down_ok = l + 3 <= 31;
        assert_eq!(
            r[0],
            if down_ok { (l + 3) * 10 } else { l * 10 },
            "down lane {l}"
        );
        assert_eq!(r[6], down_ok as u32, "down predicate lane {l}");
        assert_eq!(r[1], if l >= 1 { (l - 1) * 10 } else { 0 }, "up lane {l}");
        assert_eq!(r[2], (l ^ 5) * 10, "bfly lane {l}");
        assert_eq!(r[3], 70, "idx lane {l}");
        assert_eq!(r[4], 0x000f_ffff, "ballot");
        assert_eq!(r[5], 0, "all");
    }
}

#[test]
fn divergent_warp_reconverges_for_shfl() {
    // Odd and even lanes take different paths and meet at a shfl.sync with the full mask.
    let m = kernel(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 0;
    @%p1 bra EVEN;
    mul.lo.u32 %r3, %r1, 100;
    shfl.sync.bfly.b32 %r4, %r3, 1, 31, -1;
    bra.uni DONE;
EVEN:
    add.u32 %r3, %r1, 7;
    shfl.sync.bfly.b32 %r4, %r3, 1, 31, -1;
DONE:
    mov.u32 %r5, %tid.x;
    mul.wide.u32 %rd2, %r5, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 4 * 64)];
    run(&m, "k", launch([1, 1, 1], [64, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for t in 0..64u32 {
        let partner = (t % 32) ^ 1;
        let want = if partner % 2 == 1 {
            partner * 100
        } else {
            partner + 7
        };
        assert_eq!(o[t as usize], want, "thread {t}");
    }
}

#[test]
fn barrier_orders_shared_memory_and_bar_red() {
    // Each thread writes its slot, waits, then reads its neighbour's; bar.red.popc counts odd threads.
    let m = kernel(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b32 s[128];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    mad.lo.u32 %r5, %r1, 3, 1;
    st.shared.u32 [%r4], %r5;
    and.b32 %r9, %r1, 1;
    setp.ne.u32 %p1, %r9, 0;
    bar.red.popc.u32 %r10, 0, %p1;
    add.u32 %r6, %r1, 1;
    rem.u32 %r6, %r6, 128;
    shl.b32 %r6, %r6, 2;
    add.u32 %r7, %r2, %r6;
    ld.shared.u32 %r8, [%r7];
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r8;
    st.global.u32 [%rd3+4], %r10;
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 8 * 128)];
    run(&m, "k", launch([1, 1, 1], [128, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for t in 0..128u32 {
        assert_eq!(o[2 * t as usize], ((t + 1) % 128) * 3 + 1);
        assert_eq!(o[2 * t as usize + 1], 64);
    }
}

#[test]
fn atomics_on_global_and_shared() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<3>;
    .shared .align 4 .b32 cnt;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    atom.shared.add.u32 %r2, [cnt], 1;
    atom.global.add.u32 %r3, [%rd1], %r1;
    atom.global.max.s32 %r4, [%rd1+4], %r1;
    atom.global.inc.u32 %r5, [%rd1+8], 9;
    atom.global.cas.b32 %r6, [%rd1+12], 0, 55;
    bar.sync 0;
    ld.shared.u32 %r7, [cnt];
    st.global.u32 [%rd1+16], %r7;
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 20)];
    run(&m, "k", launch([1, 1, 1], [40, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    assert_eq!(o, vec![(0..40).sum::<u32>(), 39, 40 % 10, 55, 40]);
}

#[test]
fn calls_with_params_and_recursion() {
    let m = kernel(
        r#"
.func (.param .b32 ret) fact(.param .b32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    ld.param.b32 %r1, [n];
    setp.le.u32 %p1, %r1, 1;
    @%p1 bra BASE;
    sub.u32 %r2, %r1, 1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), fact, (a0);
    ld.param.b32 %r3, [r0];
    }
    mul.lo.u32 %r4, %r3, %r1;
    st.param.b32 [ret], %r4;
    ret;
BASE:
    st.param.b32 [ret], 1;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r1;
    .param .b32 r0;
    call.uni (r0), fact, (a0);
    ld.param.b32 %r2, [r0];
    }
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 4 * 10)];
    run(&m, "k", launch([1, 1, 1], [10, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    let mut f = 1u32;
    for n in 0..10u32 {
        f *= n.max(1);
        assert_eq!(o[n as usize], f, "fact({n})");
    }
    // Unbounded recursion stops at the call depth limit.
    let deep = kernel(
        r#"
.func loop_forever(.param .b32 n)
{
    .reg .b32 %r<2>;
    ld.param.b32 %r1, [n];
    {
    .param .b32 a0;
    st.param.b32 [a0], %r1;
    call.uni loop_forever, (a0);
    }
    ret;
}
.visible .entry k()
{
    .reg .b32 %r<2>;
    {
    .param .b32 a0;
    st.param.b32 [a0], 0;
    call.uni loop_forever, (a0);
    }
    ret;
}"#,
    );
    let e = run(&deep, "k", launch([1, 1, 1], [1, 1, 1]), &[], &mut []).unwrap_err();
    assert!(matches!(e, SimError::CallDepth { .. }), "{e}");
}

#[test]
fn out_of_bounds_is_reported_with_space_address_and_thread() {
    let m = load("pipeline/driver/tests/filetests/vadd.ptx");
    let mut bufs = vec![zeros(A, 4 * 64), zeros(B, 4 * 64), zeros(C, 4 * 63)];
    let e = run(
        &m,
        "vadd",
        launch([1, 1, 1], [64, 1, 1]),
        &[A, B, C, 64],
        &mut bufs,
    )
    .unwrap_err();
    match &e {
        SimError::OutOfBounds {
            space,
            addr,
            thread,
            ..
        } => {
            assert_eq!(*space, ptxforge_interp::Space::Global);
            assert_eq!(*addr, C + 4 * 63);
            assert_eq!(thread.tid, [63, 0, 0]);
        }
        _ => panic!("expected out of bounds, got {e}"),
    }
    assert!(e.to_string().contains("out-of-bounds global access"), "{e}");
    assert!(e.is_kernel_fault());
}

#[test]
fn mismatched_barriers_deadlock() {
    let m = kernel(
        r#"
.visible .entry k()
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra LOW;
    bar.sync 1;
    ret;
LOW:
    bar.sync 0;
    ret;
}"#,
    );
    let e = run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[], &mut []).unwrap_err();
    assert!(matches!(e, SimError::Deadlock { .. }), "{e}");
    assert!(
        e.to_string().starts_with("deadlock: 32 threads wait"),
        "{e}"
    );
    // Exited threads don't hold a barrier up: half the block exits, the other half syncs.
    let m = kernel(
        r#"
.visible .entry k()
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 ret;
    bar.sync 0;
    ret;
}"#,
    );
    run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[], &mut []).unwrap();
}

#[test]
fn unsupported_instruction_names_opcode_and_line() {
    let m = kernel_on(
        "sm_90a",
        r#"
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>; .reg .f32 %f<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, %rd1, 1, 1, 1, 0;
    ret;
}"#,
    );
    let e = run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[A], &mut []).unwrap_err();
    match &e {
        // (A warpgroup MMA with A in registers is one the interpreter does not run yet.)
        SimError::Unsupported { opcode, line, .. } => {
            assert_eq!(opcode, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
            assert_eq!(*line, 10, "3 header lines, a blank line, then the kernel");
        }
        _ => panic!("expected unsupported, got {e}"),
    }
}

#[test]
fn integer_edge_semantics() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p, .param .u32 a, .param .u32 b)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    div.u32 %r3, %r1, %r2;
    rem.u32 %r4, %r1, %r2;
    div.s32 %r5, %r1, %r2;
    bfe.s32 %r6, %r1, 4, 8;
    bfi.b32 %r7, %r2, %r1, 8, 4;
    prmt.b32 %r8, %r1, %r2, 0x3210;
    prmt.b32 %r9, %r1, %r2, 0x8765;
    bfind.u32 %r10, %r1;
    brev.b32 %r11, %r1;
    shf.l.wrap.b32 %r12, %r1, %r2, 36;
    lop3.b32 %r13, %r1, %r2, 0xff, 0x96;
    popc.b32 %r14, %r1;
    clz.b32 %r15, %r1;
    st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
    st.global.v4.u32 [%rd1+16], {%r7, %r8, %r9, %r10};
    st.global.v4.u32 [%rd1+32], {%r11, %r12, %r13, %r14};
    st.global.u32 [%rd1+48], %r15;
    ret;
}"#,
    );
    let (a, b) = (0x8123_45f0u32, 0u32);
    let mut bufs = vec![zeros(A, 64)];
    run(
        &m,
        "k",
        launch([1, 1, 1], [1, 1, 1]),
        &[A, a as u64, b as u64],
        &mut bufs,
    )
    .unwrap();
    let o = read_u32(&bufs[0]);
    // ptxas's sequences select all ones when the divisor is zero.
    assert_eq!(o[0], u32::MAX, "u32 x/0");
    assert_eq!(o[1], u32::MAX, "u32 x%0");
    assert_eq!(o[2], u32::MAX, "negative s32 x/0");
    assert_eq!(o[3], ((a >> 4) as u8 as i8) as i32 as u32, "bfe.s32");
    assert_eq!(o[4], (a & !0xf00) | ((b & 0xf) << 8), "bfi");
    assert_eq!(o[5], a, "prmt identity");
    let bytes = [a.to_le_bytes(), b.to_le_bytes()].concat();
    let sel = |s: u32| {
        if s & 8 != 0 {
            if bytes[(s & 7) as usize] & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            bytes[(s & 7) as usize] as u32
        }
    };
    assert_eq!(
        o[6],
        sel(5) | sel(6) << 8 | sel(7) << 16 | sel(8) << 24,
        "prmt with sign replication"
    );
    assert_eq!(o[7], 31, "bfind");
    assert_eq!(o[8], a.reverse_bits(), "brev");
    assert_eq!(
        o[9],
        ((((b as u64) << 32 | a as u64) << 4) >> 32) as u32,
        "shf.l.wrap"
    );
    assert_eq!(o[10], a ^ b ^ 0xff, "lop3 xor");
    assert_eq!(o[11], a.count_ones(), "popc");
    assert_eq!(o[12], 0, "clz");
}

#[test]
fn mbarrier_phases_order_shared_memory() {
    let src = r#"
.visible .entry k(.param .u64 out, .param .u32 count)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .shared .align 8 .b64 bar;
    .shared .align 4 .b32 s[64];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r11, [count];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SKIP;
    mbarrier.init.shared::cta.b64 [bar], %r11;
SKIP:
    bar.sync 0;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    mul.lo.u32 %r5, %r1, %r1;
    st.shared.u32 [%r4], %r5;
    mbarrier.arrive.shared::cta.b64 %rd2, [bar];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
    @!%p2 bra WAIT;
    xor.b32 %r6, %r1, 1;
    shl.b32 %r7, %r6, 2;
    add.u32 %r8, %r2, %r7;
    ld.shared.u32 %r9, [%r8];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r9;
    ret;
}"#;
    let m = kernel_on("sm_90", src);
    let mut bufs = vec![zeros(A, 4 * 64)];
    let stats = run(&m, "k", launch([1, 1, 1], [64, 1, 1]), &[A, 64], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    assert!((0..64u32).all(|t| o[t as usize] == (t ^ 1) * (t ^ 1)));
    assert!(
        stats.instructions < 64 * 40,
        "waiting threads yield instead of spinning: {}",
        stats.instructions
    );
    // Expecting more arrivals than there are threads never completes the phase.
    let e = run(&m, "k", launch([1, 1, 1], [64, 1, 1]), &[A, 65], &mut bufs).unwrap_err();
    assert!(matches!(e, SimError::Deadlock { .. }), "{e}");
}

#[test]
fn wide_multiplies_and_carry_chains() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p, .param .u64 a, .param .u64 b)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [a];
    ld.param.u64 %rd3, [b];
    mul.hi.u64 %rd4, %rd2, %rd3;
    mul.hi.s64 %rd5, %rd2, %rd3;
    mov.b64 {%r1, %r2}, %rd2;
    mov.b64 {%r3, %r4}, %rd3;
    add.cc.u32 %r5, %r1, %r3;
    addc.cc.u32 %r6, %r2, %r4;
    addc.u32 %r7, 0, 0;
    sub.cc.u32 %r8, %r1, %r3;
    subc.u32 %r9, %r2, %r4;
    mov.b64 %rd6, {%r5, %r6};
    mov.b64 %rd7, {%r8, %r9};
    mad.wide.u32 %rd8, %r1, %r3, %rd2;
    cvt.sat.s8.s32 %r10, %r1;
    cvt.sat.u16.s64 %r11, %rd3;
    st.global.v2.u64 [%rd1], {%rd4, %rd5};
    st.global.v2.u64 [%rd1+16], {%rd6, %rd7};
    st.global.u64 [%rd1+32], %rd8;
    st.global.v4.u32 [%rd1+48], {%r7, %r10, %r11, %r11};
    ret;
}"#,
    );
    for (a, b) in [
        (u64::MAX, u64::MAX - 2),
        (0x8000_0000_0000_0001, 3),
        (0x1234_5678_9abc_def0, 0xfedc_ba98_7654_3210),
        (5, 7),
    ] {
        let mut bufs = vec![zeros(A, 64)];
        run(&m, "k", launch([1, 1, 1], [1, 1, 1]), &[A, a, b], &mut bufs).unwrap();
        let o = read_u64(&bufs[0]);
        let w = read_u32(&bufs[0]);
        assert_eq!(o[0], ((a as u128 * b as u128) >> 64) as u64, "mul.hi.u64");
        assert_eq!(
            o[1],
            ((a as i64 as i128 * b as i64 as i128) >> 64) as u64,
            "mul.hi.s64"
        );
        assert_eq!(
            o[2],
            a.wrapping_add(b),
            "64-bit add from a 32-bit carry chain"
        );
        assert_eq!(
            o[3],
            a.wrapping_sub(b),
            "64-bit sub from a 32-bit borrow chain"
        );
        assert_eq!(
            o[4],
            (a as u32 as u64 * b as u32 as u64).wrapping_add(a),
            "mad.wide.u32"
        );
        assert_eq!(w[12], a.checked_add(b).is_none() as u32, "carry out");
        assert_eq!(
            w[13],
            (a as u32 as i32).clamp(-128, 127) as u32,
            "cvt.sat.s8.s32"
        );
        assert_eq!(w[14], (b as i64).clamp(0, 65535) as u32, "cvt.sat.u16.s64");
    }
}

#[test]
fn generic_addressing_reaches_shared_local_and_global() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 out)
{
    .local .align 8 .b8 depot[16];
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    .reg .pred %p<4>;
    .shared .align 4 .b32 sh[32];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u64 %rd2, sh;
    cvta.shared.u64 %rd3, %rd2;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    add.u32 %r2, %r1, 1000;
    st.u32 [%rd5], %r2;
    mov.u64 %rd6, depot;
    cvta.local.u64 %rd7, %rd6;
    st.u32 [%rd7+4], %r1;
    ld.local.u32 %r3, [depot+4];
    ld.shared.u32 %r4, [%rd2];
    bar.sync 0;
    ld.u32 %r5, [%rd5];
    isspacep.shared %p1, %rd5;
    isspacep.global %p2, %rd1;
    isspacep.local %p3, %rd5;
    selp.u32 %r6, 1, 0, %p1;
    selp.u32 %r7, 2, 0, %p2;
    add.u32 %r6, %r6, %r7;
    selp.u32 %r7, 4, 0, %p3;
    add.u32 %r6, %r6, %r7;
    cvta.to.shared.u64 %rd8, %rd5;
    cvt.u32.u64 %r7, %rd8;
    mul.wide.u32 %rd9, %r1, 16;
    add.s64 %rd10, %rd1, %rd9;
    st.v4.u32 [%rd10], {%r3, %r5, %r6, %r7};
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 16 * 32)];
    run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for t in 0..32u32 {
        let r = &o[4 * t as usize..4 * t as usize + 4];
        assert_eq!(r, &[t, t + 1000, 3, 4 * t], "thread {t}");
    }
}

#[test]
fn match_redux_activemask_elect() {
    let m = parse(&format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n{}",
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    and.b32 %r2, %r1, 3;
    match.any.sync.b32 %r3, %r2, -1;
    match.all.sync.b32 %r4|%p1, %r2, -1;
    redux.sync.add.u32 %r5, %r1, -1;
    redux.sync.max.s32 %r6, %r2, -1;
    activemask.b32 %r7;
    elect.sync %r8|%p2, -1;
    selp.u32 %r9, 1, 0, %p2;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
    st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r9};
    ret;
}"#
    ));
    let mut bufs = vec![zeros(A, 32 * 32)];
    run(&m, "k", launch([1, 1, 1], [32, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for l in 0..32u32 {
        let r = &o[8 * l as usize..8 * l as usize + 8];
        assert_eq!(r[0], 0x1111_1111 << (l & 3), "match.any lane {l}");
        assert_eq!(r[1], 0, "match.all");
        assert_eq!(r[2], (0..32).sum::<u32>(), "redux.add");
        assert_eq!(r[3], 3, "redux.max");
        assert_eq!(r[4], u32::MAX, "activemask");
        assert_eq!(r[5], 0, "elected lane");
        assert_eq!(r[6], (l == 0) as u32, "elect predicate");
    }
}

#[test]
fn atomics_all_operations() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<3>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    atom.global.exch.b32 %r2, [%rd1], %r1;
    atom.global.dec.u32 %r3, [%rd1+4], 5;
    atom.global.and.b32 %r4, [%rd1+8], -2;
    atom.global.or.b32 %r5, [%rd1+12], 16;
    atom.global.xor.b32 %r6, [%rd1+16], %r1;
    atom.global.min.u32 %r7, [%rd1+20], %r1;
    cvt.rn.f32.u32 %f1, %r1;
    atom.global.add.f32 %f2, [%rd1+24], %f1;
    red.global.add.u64 [%rd1+32], 3;
    atom.global.cas.b64 %rd2, [%rd1+40], 7, 9;
    ret;
}"#,
    );
    let init = [0u32, 2, 0xffff_ffff, 0, 0, 100, 0, 0, 0, 0, 7, 0];
    let mut bufs = vec![u32s(A, &init)];
    run(&m, "k", launch([1, 1, 1], [10, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    assert_eq!(o[0], 9, "exch keeps the last thread's value");
    // dec from 2 with limit 5: 1, 0, 5, 4, 3, 2, 1, 0, 5, 4
    assert_eq!(o[1], 4, "dec wraps to the limit at 0");
    assert_eq!(o[2], 0xffff_fffe, "and");
    assert_eq!(o[3], 16, "or");
    assert_eq!(o[4], (0..10).fold(0, |a, x| a ^ x), "xor");
    assert_eq!(o[5], 0, "min");
    assert_eq!(f32::from_bits(o[6]), 45.0, "f32 add");
    assert_eq!(o[8] as u64 | (o[9] as u64) << 32, 30, "red.add.u64");
    assert_eq!(o[10], 9, "cas replaced 7 once");
}

#[test]
fn float_min_max_nan_rules_and_int_to_float_rounding() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p, .param .u64 x)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<12>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [x];
    mov.f32 %f1, 0f7FC00000;
    mov.f32 %f2, 0f3F800000;
    min.f32 %f3, %f1, %f2;
    max.f32 %f4, %f1, %f1;
    min.NaN.f32 %f5, %f2, %f1;
    mov.f32 %f6, 0f80000000;
    mov.f32 %f7, 0f00000000;
    min.f32 %f8, %f7, %f6;
    cvt.rz.f32.u64 %f9, %rd2;
    cvt.rm.f32.s64 %f10, %rd2;
    cvt.rp.f32.s64 %f11, %rd2;
    st.global.v4.f32 [%rd1], {%f3, %f4, %f5, %f8};
    st.global.v4.f32 [%rd1+16], {%f9, %f10, %f11, %f11};
    ret;
}"#,
    );
    for x in [
        (1u64 << 40) + 1,
        u64::MAX,
        (-((1i64 << 40) + 1)) as u64,
        12345,
    ] {
        let mut bufs = vec![zeros(A, 32)];
        run(&m, "k", launch([1, 1, 1], [1, 1, 1]), &[A, x], &mut bufs).unwrap();
        let o = read_u32(&bufs[0]);
        assert_eq!(f32::from_bits(o[0]), 1.0, "min(NaN, 1) is 1");
        assert_eq!(o[1], 0x7fff_ffff, "max(NaN, NaN) is the canonical NaN");
        assert_eq!(o[2], 0x7fff_ffff, "min.NaN propagates");
        assert_eq!(o[3], 0x8000_0000, "min(+0, -0) is -0");
        // Reference: the f32 neighbours of the integer, compared exactly in i128.
        // Exact comparison of an f32 with an integer: in f64 below 2^53, else both are integers.
        let cmp = |g: f32, v: i128| -> std::cmp::Ordering {
            if v.unsigned_abs() < 1 << 53 {
                (g as f64).partial_cmp(&(v as f64)).unwrap()
            } else {
                (g as f64 as i128).cmp(&v)
            }
        };
        let step = |g: f32, up: bool| {
            f32::from_bits(if (g >= 0.0) == up {
                g.to_bits() + 1
            } else {
                g.to_bits() - 1
            })
        };
        use std::cmp::Ordering::*;
        let check = |bits: u32, v: i128, dir: i32| {
            let g = f32::from_bits(bits);
            match dir {
                0 if v >= 0 => assert!(
                    cmp(g, v) != Greater && cmp(step(g, true), v) == Greater,
                    "rz {v}"
                ),
                0 => assert!(
                    cmp(g, v) != Less && cmp(step(g, false), v) == Less,
                    "rz {v}"
                ),
                -1 => assert!(
                    cmp(g, v) != Greater && cmp(step(g, true), v) == Greater,
                    "rm {v}"
                ),
                _ => assert!(
                    cmp(g, v) != Less && cmp(step(g, false), v) == Less,
                    "rp {v}"
                ),
            }
        };
        check(o[4], x as i128, 0);
        check(o[5], x as i64 as i128, -1);
        check(o[6], x as i64 as i128, 1);
    }
}

#[test]
fn cluster_barrier_and_mapa_with_one_cta_clusters() {
    let m = parse(&format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n{}",
        r#"
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b32 s[64];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    add.u32 %r5, %r1, 7;
    st.shared.u32 [%r4], %r5;
    barrier.cluster.arrive.relaxed.aligned;
    barrier.cluster.wait.aligned;
    mov.u32 %r9, %cluster_ctarank;
    xor.b32 %r6, %r1, 63;
    shl.b32 %r6, %r6, 2;
    add.u32 %r7, %r2, %r6;
    mapa.shared::cluster.u32 %r8, %r7, %r9;
    ld.shared::cluster.u32 %r8, [%r8];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r8;
    ret;
}"#
    ));
    let mut bufs = vec![zeros(A, 4 * 64)];
    run(&m, "k", launch([1, 1, 1], [64, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    assert!((0..64u32).all(|t| o[t as usize] == (t ^ 63) + 7));
}

#[test]
fn compare_select_and_misc_integer_ops() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p, .param .u32 a, .param .u32 b)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<2>;
    .reg .f32 %f<8>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    set.lt.u32.s32 %r3, %r1, %r2;
    set.ge.f32.u32 %f1, %r1, %r2;
    slct.u32.s32 %r4, 11, 22, %r1;
    sad.u32 %r5, %r1, %r2, 1;
    dp4a.u32.s32 %r6, %r1, %r2, 5;
    bfind.shiftamt.u32 %r7, %r2;
    shf.r.clamp.b32 %r8, %r1, %r2, 40;
    shf.r.wrap.b32 %r9, %r1, %r2, 36;
    mov.b32 %f2, %r1;
    testp.normal.f32 %p1, %f2;
    selp.u32 %r10, 1, 0, %p1;
    copysign.f32 %f3, %f2, 0f3F800000;
    cvt.rni.f32.f32 %f4, %f2;
    mul24.hi.u32 %r11, %r1, %r2;
    cnot.b32 %r12, %r2;
    st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
    st.global.v4.u32 [%rd1+16], {%r7, %r8, %r9, %r10};
    st.global.v4.f32 [%rd1+32], {%f1, %f3, %f4, %f4};
    st.global.v2.u32 [%rd1+48], {%r11, %r12};
    ret;
}"#,
    );
    for (a, b) in [
        (0xc0a0_0000u32, 0x0000_1234u32),
        (0x4049_0fdb, 0x8000_0001),
        (3, 0),
    ] {
        let mut bufs = vec![zeros(A, 64)];
        run(
            &m,
            "k",
            launch([1, 1, 1], [1, 1, 1]),
            &[A, a as u64, b as u64],
            &mut bufs,
        )
        .unwrap();
        let o = read_u32(&bufs[0]);
        let (sa, sb) = (a as i32, b as i32);
        assert_eq!(o[0], if sa < sb { u32::MAX } else { 0 }, "set.lt.u32.s32");
        assert_eq!(
            f32::from_bits(o[8]),
            if a >= b { 1.0 } else { 0.0 },
            "set.ge.f32.u32"
        );
        assert_eq!(o[1], if sa >= 0 { 11 } else { 22 }, "slct");
        assert_eq!(o[2], a.abs_diff(b) + 1, "sad");
        let dot: i32 = (0..4)
            .map(|i| (a >> (8 * i)) as u8 as i32 * (b >> (8 * i)) as u8 as i8 as i32)
            .sum::<i32>()
            + 5;
        assert_eq!(o[3], dot as u32, "dp4a.u32.s32");
        assert_eq!(
            o[4],
            if b == 0 { u32::MAX } else { b.leading_zeros() },
            "bfind.shiftamt"
        );
        assert_eq!(o[5], b, "shf.r.clamp by 40 gives the high word");
        assert_eq!(
            o[6],
            ((((b as u64) << 32) | a as u64) >> 4) as u32,
            "shf.r.wrap by 36 shifts by 4"
        );
        let f = f32::from_bits(a);
        assert_eq!(o[7], f.is_normal() as u32, "testp.normal");
        assert_eq!(
            f32::from_bits(o[9]),
            1.0f32.copysign(f),
            "copysign: the magnitude of b with the sign of a"
        );
        assert_eq!(
            f32::from_bits(o[10]),
            f.round_ties_even(),
            "cvt.rni.f32.f32"
        );
        assert_eq!(
            o[12],
            (((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) >> 16) as u32,
            "mul24.hi.u32"
        );
        assert_eq!(o[13], (b == 0) as u32, "cnot");
    }
}

#[test]
fn approximate_functions_stay_within_documented_ulps() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<10>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd1, %rd1, %rd2;
    ld.global.f32 %f1, [%rd1];
    ex2.approx.ftz.f32 %f2, %f1;
    lg2.approx.ftz.f32 %f3, %f1;
    rsqrt.approx.ftz.f32 %f4, %f1;
    rcp.approx.ftz.f32 %f5, %f1;
    div.full.f32 %f6, 0f40490FDB, %f1;
    sin.approx.ftz.f32 %f7, %f1;
    tanh.approx.f32 %f8, %f1;
    st.global.v4.f32 [%rd1], {%f2, %f3, %f4, %f5};
    st.global.v4.f32 [%rd1+16], {%f6, %f7, %f8, %f8};
    ret;
}"#,
    );
    let xs: Vec<f32> = (1..=64).map(|i| i as f32 * 0.37).collect();
    let mut io = vec![0f32; 8 * xs.len()];
    for (i, x) in xs.iter().enumerate() {
        io[8 * i] = *x;
    }
    let mut bufs = vec![f32s(A, &io)];
    run(&m, "k", launch([1, 1, 1], [64, 1, 1]), &[A], &mut bufs).unwrap();
    let o = read_f32(&bufs[0]);
    // Each result must be within the tolerance the crate documents for the instruction.
    let within = |name: &str, got: f32, want: f64| {
        let tol = ptxforge_interp::APPROX_TOLERANCE
            .iter()
            .find(|e| e.0 == name)
            .expect(name)
            .1;
        let err = (got as f64 - want).abs();
        let ok = match tol {
            Tolerance::Ulps(n) => err <= n as f64 * want.abs() * f32::EPSILON as f64,
            Tolerance::RelLog2(e) => err <= 2f64.powi(e) * want.abs(),
            Tolerance::AbsLog2(e) => err <= 2f64.powi(e),
        };
        assert!(ok, "{name}: got {got}, want {want}");
    };
    for (i, &x) in xs.iter().enumerate() {
        let r = &o[8 * i..8 * i + 8];
        let x = x as f64;
        within("ex2.approx", r[0], x.exp2());
        within("lg2.approx", r[1], x.log2());
        within("rsqrt.approx", r[2], 1.0 / x.sqrt());
        within("rcp.approx", r[3], 1.0 / x);
        within("div.full", r[4], std::f32::consts::PI as f64 / x);
        within("sin.approx", r[5], x.sin());
        within("tanh.approx", r[6], x.tanh());
    }
}

#[test]
fn special_registers() {
    let m = kernel(
        r#"
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %lanemask_lt;
    mov.u32 %r2, %lanemask_le;
    mov.u32 %r3, %lanemask_gt;
    mov.u32 %r4, %lanemask_ge;
    mov.u32 %r5, %lanemask_eq;
    mov.u32 %r6, %warpid;
    mov.u32 %r7, %smid;
    mov.u32 %r8, %clock;
    mov.u32 %r9, %tid.y;
    mov.u32 %r10, %ntid.y;
    mov.u32 %r11, %nctaid.x;
    mov.u32 %r0, %tid.x;
    mad.lo.u32 %r0, %r9, 16, %r0;
    mul.wide.u32 %rd2, %r0, 48;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
    st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
    st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r11};
    ret;
}"#,
    );
    let mut bufs = vec![zeros(A, 48 * 64)];
    run(&m, "k", launch([3, 1, 1], [16, 4, 1]), &[A], &mut bufs).unwrap();
    let o = read_u32(&bufs[0]);
    for lin in 0..64u32 {
        let r = &o[12 * lin as usize..12 * lin as usize + 12];
        let lane = lin % 32;
        let lt = (1u64 << lane) as u32 - 1;
        assert_eq!(
            r[..5],
            [lt, lt | 1 << lane, !(lt | 1 << lane), !lt, 1 << lane],
            "lane masks of {lin}"
        );
        assert_eq!(r[5], lin / 32, "warpid");
        assert_eq!(r[6..8], [0, 0], "smid and clock are fixed");
        assert_eq!(r[8..11], [lin / 16, 4, 3], "tid.y, ntid.y, nctaid.x");
    }
}

#[test]
fn const_global_variables_and_dynamic_shared() {
    let m = kernel(
        r#"
.const .align 4 .u32 table[4] = {10, 20, 30, 40};
.global .align 4 .u32 counter = 5;
.global .align 8 .f64 scale[2] = {0d4000000000000000, 0d4008000000000000};
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .reg .f64 %fd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    shl.b32 %r3, %r2, 2;
    mov.u64 %rd2, table;
    cvt.u64.u32 %rd3, %r3;
    add.s64 %rd4, %rd2, %rd3;
    ld.const.u32 %r4, [%rd4];
    atom.global.add.u32 %r5, [counter], 1;
    ld.global.f64 %fd1, [scale+8];
    mov.u32 %r6, dyn;
    shl.b32 %r7, %r1, 2;
    add.u32 %r8, %r6, %r7;
    st.shared.u32 [%r8], %r4;
    bar.sync 0;
    xor.b32 %r9, %r7, 4;
    add.u32 %r9, %r6, %r9;
    ld.shared.u32 %r10, [%r9];
    mov.u32 %r11, %dynamic_smem_size;
    cvt.rzi.u32.f64 %r2, %fd1;
    mul.wide.u32 %rd5, %r1, 16;
    add.s64 %rd5, %rd1, %rd5;
    st.global.v4.u32 [%rd5], {%r4, %r10, %r11, %r2};
    ret;
}"#,
    );
    let p = ptxforge_interp::pack_params(&m, "k", &[A]).unwrap();
    let limits = ptxforge_interp::Limits {
        dynamic_shared_bytes: 256,
        ..Default::default()
    };
    let mut bufs = vec![zeros(A, 16 * 64)];
    ptxforge_interp::run_kernel(
        &m,
        "k",
        &launch([1, 1, 1], [64, 1, 1]),
        &p,
        &mut bufs,
        &limits,
    )
    .unwrap();
    let o = read_u32(&bufs[0]);
    for t in 0..64usize {
        assert_eq!(o[4 * t], [10, 20, 30, 40][t % 4], ".const initialiser");
        assert_eq!(
            o[4 * t + 1],
            [10, 20, 30, 40][(t ^ 1) % 4],
            "dynamic shared"
        );
        assert_eq!(o[4 * t + 2], 256, "%dynamic_smem_size");
        assert_eq!(o[4 * t + 3], 3, ".global f64 initialiser");
    }
    // Without dynamic shared memory the first store is out of bounds.
    let e = ptxforge_interp::run_kernel(
        &m,
        "k",
        &launch([1, 1, 1], [64, 1, 1]),
        &p,
        &mut bufs,
        &Default::default(),
    );
    assert!(
        matches!(
            e,
            Err(SimError::OutOfBounds {
                space: ptxforge_interp::Space::Shared,
                ..
            })
        ),
        "{e:?}"
    );
}
