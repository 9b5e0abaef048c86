//! The SYNCS family and asynchronous-proxy fences encode bit for bit as ptxas 13.5 encodes them
//! for sm_90a (the words below were read from `nvdisasm -hex` of ptxas's cubin for a PTX module
//! using `mbarrier.*` and `fence.proxy.async`; control bits 105..127 are left out).

use ptxforge_sass::arch::Sm;
use ptxforge_sass::encode::encode_instr;
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::{ArriveMode, SyncsOp};

const CONTROL_MASK: u64 = (1 << 41) - 1;

fn r(i: u32) -> Src {
    Src::reg(Reg::gpr(i))
}
fn ur(i: u32) -> Src {
    Src::reg(Reg::ugpr(i, 1))
}

fn check(op: SyncsOp, dsts: &[Dst], srcs: &[Src], want: [u64; 2]) {
    let i = Instr::new(Opcode::Syncs(op), dsts, srcs);
    for sm in [Sm::new(90), Sm::accelerated(90)] {
        let [lo, hi] = encode_instr(sm, &i, 0, &[]).unwrap();
        assert_eq!(
            [lo, hi & CONTROL_MASK],
            want,
            "{op:?}: ours {lo:#018x} {hi:#018x}"
        );
    }
}

#[test]
fn syncs_words_match_ptxas() {
    use ArriveMode::*;
    use SyncsOp::*;
    let p = |i| Dst::Reg(Reg::pred(i));
    let bar = ur(6);
    let arrive = |mode, red| Arrive {
        mode,
        red,
        optout: false,
    };
    check(
        Exch64,
        &[Dst::None],
        &[bar, Src::reg(Reg::ugpr(4, 2))],
        [0x00000004063f75b2, 0x08000100],
    );
    check(
        arrive(A1T0, false),
        &[Dst::Reg(Reg::gpr(2))],
        &[bar, Src::ZERO],
        [0x000000ffff0279a7, 0x08100006],
    );
    check(
        arrive(ArT0, false),
        &[Dst::None],
        &[bar, r(0)],
        [0x00000000ffff79a7, 0x08500006],
    );
    check(
        arrive(A1Tr, false),
        &[Dst::None],
        &[bar, r(4)],
        [0x00000004ffff79a7, 0x08000006],
    );
    check(
        arrive(A0Tr, true),
        &[Dst::None],
        &[bar, r(5)],
        [0x00000005ffff79a7, 0x08300406],
    );
    check(
        arrive(A0Tx, true),
        &[Dst::None],
        &[bar, r(5)],
        [0x00000005ffff79a7, 0x08400406],
    );
    check(
        arrive(A1T0, false),
        &[Dst::None],
        &[bar, Src::ZERO],
        [0x000000ffffff79a7, 0x08100006],
    );
    check(
        PhaseChk { trywait: false },
        &[p(0)],
        &[bar, r(3)],
        [0x00000003ff0075a7, 0x08000046],
    );
    check(
        PhaseChk { trywait: false },
        &[p(1)],
        &[bar, r(0)],
        [0x00000000ff0075a7, 0x08020046],
    );
    check(
        PhaseChk { trywait: true },
        &[p(2)],
        &[bar, r(5)],
        [0x00000005ff0075a7, 0x08040146],
    );
    check(CctlIv, &[], &[bar], [0x00000000ff0079b1, 0x08000006]);
    check(
        FenceViewAsync { global: false },
        &[],
        &[],
        [0x00000000000073c6, 0],
    );
    check(
        FenceViewAsync { global: true },
        &[],
        &[],
        [0x00000000000073c6, 0x100],
    );
    // Addresses in a register (`[R11+URZ]`) and `.OPTOUT` (mbarrier.arrive_drop), from ptxas's
    // sm_90 code for mbarrier.* on `.shared` variables.
    check(
        arrive(A1T0, false),
        &[Dst::Reg(Reg::gpr(2))],
        &[r(11), Src::ZERO],
        [0x000000ff0b0279a7, 0x0810003f],
    );
    check(
        Arrive {
            mode: A1T0,
            red: false,
            optout: true,
        },
        &[Dst::None],
        &[r(13), Src::ZERO],
        [0x000000ff0dff79a7, 0x0810083f],
    );
    check(
        arrive(A0Tx, true),
        &[Dst::None],
        &[r(13), r(6)],
        [0x000000060dff79a7, 0x0840043f],
    );
    check(
        PhaseChk { trywait: true },
        &[p(1)],
        &[r(13), r(0)],
        [0x000000000d0075a7, 0x0802017f],
    );
    check(CctlIv, &[], &[r(11)], [0x000000000b0079b1, 0x0800003f]);
    // `[R12+URZ+0x8]`, `[R9+URZ+0x8]` (ptxas's code for a barrier array's second element).
    check(
        PhaseChk { trywait: true },
        &[p(0)],
        &[r(12), r(5), Src::imm(8)],
        [0x000008050c0075a7, 0x0800017f],
    );
    check(
        arrive(A1T0, false),
        &[Dst::None],
        &[r(9), Src::ZERO, Src::imm(8)],
        [0x000008ff09ff79a7, 0x0810003f],
    );
}

/// R2UR as ptxas 13.5 writes it on sm_90 for `mbarrier.init` with a count in a register
/// (`R2UR UR4, R4`), and its predicate form in the uniform-address loop around
/// `cp.async.mbarrier.arrive` (sm_90 `R2UR P1, UR4, R0`, sm_80 `R2UR P1, UR4, R5` with opcode
/// 0x3c2); there is none before sm_80.
#[test]
fn r2ur_word_matches_ptxas() {
    let i = Instr::new(Opcode::R2ur, &[Dst::Reg(Reg::ugpr(4, 1))], &[r(4)]);
    let [lo, hi] = encode_instr(Sm::accelerated(90), &i, 0, &[]).unwrap();
    assert_eq!([lo, hi & CONTROL_MASK], [0x00000000040472ca, 0x000e0000]);
    assert!(encode_instr(Sm::new(75), &i, 0, &[]).is_err());
    let pred = |src| {
        Instr::new(
            Opcode::R2urPred,
            &[Dst::Reg(Reg::ugpr(4, 1)), Dst::Reg(Reg::pred(1))],
            &[r(src)],
        )
        .guarded(Src::reg(Reg::pred(0)))
    };
    let [lo, hi] = encode_instr(Sm::new(90), &pred(0), 0, &[]).unwrap();
    assert_eq!([lo, hi & CONTROL_MASK], [0x00000000000402ca, 0x00020000]);
    let [lo, hi] = encode_instr(Sm::new(80), &pred(5), 0, &[]).unwrap();
    assert_eq!([lo, hi & CONTROL_MASK], [0x00000000050403c2, 0x00020000]);
}

/// ARRIVES.LDGSTSBAR.64 as ptxas 13.5 writes it for `cp.async.mbarrier.arrive[.noinc]`: sm_80
/// `[URZ+0x8]`, `@!P1 [UR4]`; sm_90 `.TRANSCNT [UR4]`, `.ARVCNT [UR4+0x8]`, and the
/// `SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR4], RZ` before `.TRANSCNT`.
#[test]
fn arrives_words_match_ptxas() {
    use ptxforge_sass::arrives::ArrivesCount::*;
    let arrives = |count, base: Src, off: Src| {
        Instr::new(
            Opcode::Syncs(SyncsOp::Arrives(count)),
            &[],
            &[base, Src::NONE, off],
        )
    };
    let ur4 = Src::reg(Reg::ugpr(4, 1));
    let cases = [
        (
            80,
            arrives(Plain, Src::ZERO, Src::imm(8)),
            [0x00000800ff0079b0, 0x08000a3f],
        ),
        (
            80,
            arrives(Plain, ur4, Src::NONE).guarded(Src::reg(Reg::pred(1)).negated()),
            [0x00000000ff0099b0, 0x08000a04],
        ),
        (
            90,
            arrives(TransCnt, ur4, Src::NONE),
            [0x00000000ff0079b0, 0x08000a84],
        ),
        (
            90,
            arrives(ArvCnt, ur4, Src::imm(8)),
            [0x00000800ff0079b0, 0x08000a44],
        ),
    ];
    for (sm, i, want) in cases {
        let [lo, hi] = encode_instr(Sm::new(sm), &i, 0, &[]).unwrap();
        assert_eq!([lo, hi & CONTROL_MASK], want, "sm_{sm} {i:?}");
    }
    let a0t1 = Instr::new(
        Opcode::Syncs(SyncsOp::Arrive {
            mode: ArriveMode::A0T1,
            red: true,
            optout: false,
        }),
        &[Dst::None],
        &[ur4, Src::ZERO, Src::NONE],
    );
    let [lo, hi] = encode_instr(Sm::new(90), &a0t1, 0, &[]).unwrap();
    assert_eq!([lo, hi & CONTROL_MASK], [0x000000ffffff79a7, 0x08200404]);
}

/// ELECT as ptxas 13.5 writes it for `elect.sync` on sm_90 (`ELECT P1, URZ, PT`,
/// `ELECT P0, UR4, PT`, `ELECT PT, UR5, PT`).
#[test]
fn elect_words_match_ptxas() {
    use ptxforge_sass::warp::WarpOp;
    let cases = [
        (
            Dst::Reg(Reg::pred(1)),
            Dst::None,
            [0x00000000003f782f, 0x03820000],
        ),
        (
            Dst::Reg(Reg::pred(0)),
            Dst::Reg(Reg::ugpr(4, 1)),
            [0x000000000004782f, 0x03800000],
        ),
        (
            Dst::None,
            Dst::Reg(Reg::ugpr(5, 1)),
            [0x000000000005782f, 0x038e0000],
        ),
    ];
    for (p, u, want) in cases {
        let i = Instr::new(Opcode::Warp(WarpOp::Elect), &[p, u], &[Src::TRUE]);
        let [lo, hi] = encode_instr(Sm::accelerated(90), &i, 0, &[]).unwrap();
        assert_eq!([lo, hi & CONTROL_MASK], want, "ours {lo:#018x} {hi:#018x}");
    }
}

/// CGAERRBAR (one opcode, `WarpOp::Cgaerrbar`, for cluster fences, ordering fences and exits).
#[test]
fn cgaerrbar_word_matches_ptxas() {
    let i = Instr::new(
        Opcode::Warp(ptxforge_sass::warp::WarpOp::Cgaerrbar),
        &[],
        &[],
    );
    let [lo, hi] = encode_instr(Sm::new(90), &i, 0, &[]).unwrap();
    assert_eq!([lo, hi & CONTROL_MASK], [0x00000000000075ab, 0]);
}
