//! Instruction selection for sm_90's elect.sync, mbarrier.* and async-proxy fences: the SYNCS
//! forms and initial states ptxas 13.5 writes, and "not supported yet" where we write nothing.

use ptxforge_lower::{lower_function, optimize};
use ptxforge_ptx::parse_module;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::{ArriveMode, SyncsOp};

fn module(body: &str, target: &str) -> String {
    format!(
        ".version 8.7\n.target {target}\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n.shared .align 8 .b64 bar[4];\n\
         {body}\nret;\n}}\n"
    )
}

fn lower(body: &str, sm: u32) -> Result<Vec<Instr>, String> {
    let src = module(body, &format!("sm_{sm}"));
    let m = parse_module(&src, "t.ptx").unwrap_or_else(|d| panic!("{d:?}"));
    match lower_function(&m, &m.functions[0], Sm::new(sm)) {
        Ok(mut k) => {
            optimize(&mut k.func);
            Ok(k.func.instrs().copied().collect())
        }
        Err(e) => Err(e
            .iter()
            .map(|e| e.message.clone())
            .collect::<Vec<_>>()
            .join("; ")),
    }
}

fn syncs(v: &[Instr]) -> Vec<SyncsOp> {
    v.iter()
        .filter_map(|i| match i.op {
            Opcode::Syncs(s) => Some(s),
            _ => None,
        })
        .collect()
}

fn arrive(mode: ArriveMode, red: bool, optout: bool) -> SyncsOp {
    SyncsOp::Arrive { mode, red, optout }
}

#[test]
fn init_with_a_constant_count_stores_ptxas_initial_state() {
    let v = lower("mov.u32 %r1, bar;\nadd.s32 %r2, %r1, 8;\nmov.u32 %r3, 12;\nmbarrier.init.shared::cta.b64 [%r2], %r3;", 90).unwrap();
    assert_eq!(
        syncs(&v),
        vec![SyncsOp::FenceViewAsync { global: false }, SyncsOp::Exch64]
    );
    let umovs: Vec<Src> = v
        .iter()
        .filter(|i| i.op == Opcode::Umov)
        .map(|i| i.srcs[0])
        .collect();
    // (2^20 - 12) << 1 and << 11, and the window base plus the barrier's offset 8.
    for want in [0x1fffe8, 0x7fffa000, 0x408] {
        assert!(umovs.contains(&Src::imm(want)), "{umovs:?}");
    }
}

#[test]
fn init_with_a_count_in_a_register_moves_it_by_r2ur() {
    let v = lower(
        "ld.param.u32 %r3, [n];\nmbarrier.init.shared.b64 [bar], %r3;",
        90,
    )
    .unwrap();
    assert_eq!(v.iter().filter(|i| i.op == Opcode::R2ur).count(), 2);
    assert_eq!(syncs(&v).last(), Some(&SyncsOp::Exch64));
}

#[test]
fn unsupported_forms_say_so() {
    let varying = lower(
        "mov.u32 %r1, %tid.x;\nshl.b32 %r1, %r1, 3;\nmbarrier.init.shared.b64 [%r1], 4;",
        90,
    );
    assert_eq!(
        varying.unwrap_err(),
        "'mbarrier.init.shared.b64' with a thread-varying address is not supported yet"
    );
    let generic = lower("ld.param.u64 %rd1, [p];\nmbarrier.inval.b64 [%rd1];", 90);
    assert!(generic
        .unwrap_err()
        .contains("with a generic address is not supported yet"));
}

#[test]
fn arrive_forms_choose_ptxas_modes() {
    let v = lower(
        "ld.param.u32 %r3, [n];\n\
         mbarrier.arrive.shared::cta.b64 %rd1, [bar];\n\
         mbarrier.arrive.release.cta.shared::cta.b64 _, [bar], %r3;\n\
         mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], %r3;\n\
         mbarrier.arrive.shared::cluster.b64 _, [bar];\n\
         mbarrier.arrive_drop.shared::cta.b64 _, [bar];\n\
         mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], %r3;\n\
         mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], %r3;\n\
         mbarrier.pending_count.b64 %r4, %rd1;\n\
         ld.param.u64 %rd2, [p];\nst.global.u32 [%rd2], %r4;",
        90,
    )
    .unwrap();
    use ArriveMode::*;
    assert_eq!(
        syncs(&v),
        vec![
            arrive(A1T0, false, false),
            arrive(ArT0, false, false),
            arrive(A1Tr, false, false),
            arrive(A1T0, true, false),
            arrive(A1T0, false, true),
            arrive(A0Tr, true, false),
            arrive(A0Tx, true, false),
        ]
    );
    // pending_count: 2^20 - ((hi >> 11) & 0xfffff).
    assert!(v
        .iter()
        .any(|i| matches!(i.op, Opcode::Iadd3 { .. }) && i.srcs[1] == Src::imm(0x100000)));
}

#[test]
fn try_wait_with_a_hint_sleeps_and_checks_again() {
    let v = lower(
        "$W:\nmbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 1, 1000;\n@!%p1 bra $W;",
        90,
    )
    .unwrap();
    assert_eq!(
        syncs(&v),
        vec![
            SyncsOp::PhaseChk { trywait: true },
            SyncsOp::PhaseChk { trywait: false }
        ]
    );
    let sleep = v
        .iter()
        .find(|i| i.op == Opcode::Warp(WarpOp::Nanosleep))
        .expect("NANOSLEEP");
    assert!(sleep.guard.neg, "NANOSLEEP runs only when the check failed");
    // The parity in bit 31.
    let check = v
        .iter()
        .find(|i| matches!(i.op, Opcode::Syncs(SyncsOp::PhaseChk { .. })))
        .unwrap();
    assert!(matches!(check.srcs[1].val, SrcVal::Reg(_)));
    assert!(v
        .iter()
        .any(|i| i.op == Opcode::Mov && i.srcs[0] == Src::imm(1 << 31)));
}

#[test]
fn elect_and_fences() {
    let v = lower(
        "elect.sync %r1|%p1, -1;\nselp.u32 %r2, %r1, 7, %p1;\n\
         fence.proxy.async.global;\nfence.proxy.async.shared::cta;\nfence.mbarrier_init.release.cluster;\n\
         ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r2;",
        90,
    )
    .unwrap();
    let elect = v
        .iter()
        .find(|i| i.op == Opcode::Warp(WarpOp::Elect))
        .expect("ELECT");
    assert!(matches!(elect.dsts[1], Dst::Reg(r) if r.file == RegFile::UGpr));
    assert_eq!(
        syncs(&v),
        vec![
            SyncsOp::FenceViewAsync { global: true },
            SyncsOp::FenceViewAsync { global: false }
        ]
    );
}
