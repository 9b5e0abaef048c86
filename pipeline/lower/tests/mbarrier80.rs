//! Instruction selection for `mbarrier.*` on sm_80..89 (shared-memory atomics on a 64-bit word,
//! `pipeline/lower/src/mbarrier80.rs`), `cp.async.mbarrier.arrive` on a known address, and a
//! guarded `trap`: the forms ptxas 13.5 writes, and "not supported yet" where we write nothing.

use ptxforge_lower::{lower_function, optimize};
use ptxforge_ptx::parse_module;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::arrives::ArrivesCount;
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

fn count(v: &[Instr], f: impl Fn(&Opcode) -> bool) -> usize {
    v.iter().filter(|i| f(&i.op)).count()
}

fn is_membar(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Warp(WarpOp::Membar {
            scope: Scope::Cta,
            ..
        })
    )
}

#[test]
fn init_stores_ptxas_initial_word() {
    for sm in [80, 86, 89] {
        let v = lower("mbarrier.init.shared.b64 [bar+8], 5;", sm).unwrap();
        let sts: Vec<_> = v
            .iter()
            .filter(|i| {
                matches!(
                    i.op,
                    Opcode::Sts {
                        size: MemSize::B64,
                        ..
                    }
                )
            })
            .collect();
        assert_eq!(sts.len(), 1, "sm_{sm}: {v:?}");
        // The pair holds 2^30 - 5 and 2^31 - 5 (moved in as constants).
        let movs: Vec<Src> = v
            .iter()
            .filter(|i| i.op == Opcode::Mov)
            .map(|i| i.srcs[0])
            .collect();
        for want in [0x3fff_fffb, 0x7fff_fffb] {
            assert!(movs.contains(&Src::imm(want)), "sm_{sm}: {movs:?}");
        }
        assert_eq!(count(&v, |o| matches!(o, Opcode::Syncs(_))), 0);
    }
}

#[test]
fn arrive_forms_use_shared_atomics() {
    let v = lower(
        "ld.param.u32 %r3, [n];\n\
         mbarrier.arrive.shared.b64 %rd1, [bar];\n\
         mbarrier.arrive_drop.shared::cta.b64 _, [bar];\n\
         mbarrier.arrive.noComplete.shared.b64 %rd2, [bar], %r3;\n\
         mbarrier.arrive_drop.noComplete.shared.b64 _, [bar], %r3;\n\
         mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;\n\
         mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;\n\
         mbarrier.pending_count.b64 %r4, %rd2;\n\
         selp.u32 %r5, 1, 0, %p1;\nselp.u32 %r6, 1, 0, %p2;\n\
         add.s32 %r4, %r4, %r5;\nadd.s32 %r4, %r4, %r6;\n\
         ld.param.u64 %rd3, [p];\nst.global.u32 [%rd3], %r4;",
        80,
    )
    .unwrap();
    assert_eq!(count(&v, is_membar), 4, "{v:?}");
    assert_eq!(count(&v, |o| *o == Opcode::Syncs(SyncsOp::AtomsArrive)), 2);
    assert_eq!(count(&v, |o| *o == Opcode::Syncs(SyncsOp::AtomsPopcInc)), 1);
    // noComplete: the count onto the high word (twice), and onto the low word for arrive_drop.
    let adds: Vec<i32> = v
        .iter()
        .filter_map(|i| match i.op {
            Opcode::Atoms {
                op: AtomOp::Add,
                offset,
                ..
            } => Some(offset),
            _ => None,
        })
        .collect();
    assert_eq!(adds, vec![4, 0, 4]);
    // test_wait: LDS of the high word, the phase bit in LOP3's predicate.
    assert_eq!(count(&v, |o| matches!(o, Opcode::Lds { offset: 4, .. })), 2);
    let luts: Vec<u8> = v
        .iter()
        .filter(|i| matches!(i.dsts[1], Dst::Reg(r) if r.file == RegFile::Pred))
        .filter_map(|i| match i.op {
            Opcode::Lop3 { lut } => Some(lut),
            _ => None,
        })
        .collect();
    assert_eq!(luts, vec![0x48, 0x0c]);
}

#[test]
fn inval_writes_nothing_and_generic_addresses_are_refused() {
    let v = lower("mbarrier.inval.shared.b64 [bar];", 80).unwrap();
    assert_eq!(count(&v, |o| !matches!(o, Opcode::Exit)), 0, "{v:?}");
    let generic = lower("ld.param.u64 %rd1, [p];\nmbarrier.init.b64 [%rd1], 2;", 86);
    assert_eq!(
        generic.unwrap_err(),
        "'mbarrier.init.b64' with a generic address is not supported yet"
    );
}

#[test]
fn cp_async_arrive_on_a_known_address_takes_no_loop() {
    let v = lower("cp.async.mbarrier.arrive.shared.b64 [bar+8];", 80).unwrap();
    let arrives: Vec<_> = v
        .iter()
        .filter(|i| i.op == Opcode::Syncs(SyncsOp::Arrives(ArrivesCount::Plain)))
        .collect();
    assert_eq!(arrives.len(), 1);
    assert_eq!(
        (arrives[0].srcs[0], arrives[0].srcs[2]),
        (Src::ZERO, Src::imm(8))
    );
    // Without .noinc, one more pending arrival first.
    assert!(v.iter().any(|i| matches!(
        i.op,
        Opcode::Atoms {
            op: AtomOp::Add,
            offset: 12,
            ..
        }
    )));
    assert_eq!(count(&v, |o| matches!(o, Opcode::Bra { .. })), 0);
    let v = lower("cp.async.mbarrier.arrive.noinc.shared.b64 [bar];", 90).unwrap();
    assert_eq!(
        count(&v, |o| *o
            == Opcode::Syncs(SyncsOp::Arrives(ArrivesCount::ArvCnt))),
        1
    );
    let v = lower("cp.async.mbarrier.arrive.shared.b64 [bar];", 90).unwrap();
    let a0t1 = SyncsOp::Arrive {
        mode: ArriveMode::A0T1,
        red: true,
        optout: false,
    };
    assert_eq!(count(&v, |o| *o == Opcode::Syncs(a0t1)), 1);
    let varying = lower(
        "mov.u32 %r1, %tid.x;\nshl.b32 %r1, %r1, 3;\ncp.async.mbarrier.arrive.shared.b64 [%r1];",
        80,
    );
    assert_eq!(
        varying.unwrap_err(),
        "'cp.async.mbarrier.arrive.shared.b64' with a thread-varying address is not supported yet"
    );
}

#[test]
fn a_guarded_trap_is_branched_around() {
    let v = lower(
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 3;\n@%p1 trap;\n\
         ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r1;",
        80,
    )
    .unwrap();
    let bra = v
        .iter()
        .position(|i| matches!(i.op, Opcode::Bra { .. }))
        .unwrap();
    assert!(
        v[bra].guard.neg,
        "the branch skips the trap where the guard fails"
    );
    assert_eq!(v[bra + 1].op, Opcode::Warp(WarpOp::BptTrap));
    assert_eq!(v[bra + 1].guard, Src::TRUE);
}
