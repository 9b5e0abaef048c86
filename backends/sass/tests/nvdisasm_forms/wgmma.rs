//! The warpgroup MMA forms (`wgmma.rs`, sm_90a): HGMMA, IGMMA and QGMMA with their
//! accumulators, WARPGROUP.ARRIVE/DEPBAR and VOTEU.ANY.

use super::{p, r};
use ptxforge_sass::ir::*;

/// The warpgroup MMAs (HGMMA, IGMMA, QGMMA) in every type family, shape extremes, negations,
/// transposes, register A, scale-d predicates and group ends; WARPGROUP.ARRIVE/DEPBAR; VOTEU.ANY.
pub fn wgmma_forms() -> Vec<Instr> {
    use ptxforge_sass::wgmma::{GmmaAcc, GmmaElem::*, WgmmaOp};
    let base = WgmmaOp {
        n: 8,
        a: F16,
        b: F16,
        acc: GmmaAcc::F32,
        neg_a: false,
        neg_b: false,
        tnsp_a: false,
        tnsp_b: false,
        sat: false,
        reg_a: false,
        closes_group: true,
        sparse: None,
    };
    let upred = |i: u32| {
        Src::reg(Reg {
            file: RegFile::UPred,
            idx: i,
            comps: 1,
            comp: 0,
        })
    };
    let group = |i| Src::reg(Reg::ugpr(i, 4));
    let acc = |op: &WgmmaOp| Reg {
        comps: op.acc_regs(),
        ..Reg::gpr(24)
    };
    let mut ops = Vec::new();
    for n in [8, 16, 24, 64, 128, 256] {
        ops.push(WgmmaOp { n, ..base });
    }
    for (a, b, acc) in [
        (F16, F16, GmmaAcc::F16),
        (Bf16, Bf16, GmmaAcc::F32),
        (Tf32, Tf32, GmmaAcc::F32),
        (E4m3, E4m3, GmmaAcc::F32),
        (E5m2, E4m3, GmmaAcc::F32),
        (E4m3, E5m2, GmmaAcc::F16),
        (E5m2, E5m2, GmmaAcc::F16),
        (S8, S8, GmmaAcc::S32),
        (U8, S8, GmmaAcc::S32),
        (S8, U8, GmmaAcc::S32),
        (U8, U8, GmmaAcc::S32),
    ] {
        ops.push(WgmmaOp { a, b, acc, ..base });
        ops.push(WgmmaOp {
            a,
            b,
            acc,
            reg_a: true,
            n: 64,
            ..base
        });
    }
    ops.push(WgmmaOp {
        a: S8,
        b: S8,
        acc: GmmaAcc::S32,
        sat: true,
        ..base
    });
    for bits in 1..16u32 {
        ops.push(WgmmaOp {
            neg_a: bits & 1 != 0,
            neg_b: bits & 2 != 0,
            tnsp_a: bits & 4 != 0,
            tnsp_b: bits & 8 != 0,
            ..base
        });
    }
    ops.push(WgmmaOp {
        reg_a: true,
        neg_a: true,
        neg_b: true,
        tnsp_b: true,
        ..base
    });
    ops.push(WgmmaOp {
        closes_group: false,
        ..base
    });
    // Sparse forms: every unit, N extremes, both selectors of the 16/32-bit types.
    for (a, b, acc, sel) in [
        (F16, F16, GmmaAcc::F32, 0),
        (Bf16, Bf16, GmmaAcc::F32, 1),
        (Tf32, Tf32, GmmaAcc::F32, 1),
        (E4m3, E5m2, GmmaAcc::F16, 0),
        (S8, U8, GmmaAcc::S32, 0),
    ] {
        for n in [8, 256] {
            ops.push(WgmmaOp {
                a,
                b,
                acc,
                n,
                sparse: Some(sel),
                tnsp_a: sel == 1,
                ..base
            });
        }
    }
    let mut v = Vec::new();
    let preds = [
        Src::TRUE,
        Src::FALSE,
        upred(0),
        upred(3).negated(),
        upred(6),
    ];
    for (k, op) in ops.iter().enumerate() {
        let d = acc(op);
        let c = if k % 3 == 1 { Src::ZERO } else { Src::reg(d) };
        let srcs = if op.reg_a {
            vec![
                Src::reg(Reg {
                    comps: 4,
                    ..Reg::gpr(180)
                }),
                group(8),
                c,
                preds[k % 5],
            ]
        } else {
            vec![
                group(4 * (1 + k as u32 % 14)),
                Src::NONE,
                c,
                preds[k % 5],
                r(k as u32 % 200),
            ]
        };
        v.push(Instr::new(Opcode::Wgmma(*op), &[Dst::Reg(d)], &srcs));
    }
    v.push(Instr::new(Opcode::WarpgroupArrive, &[], &[]));
    for pending in 0..8 {
        v.push(Instr::new(Opcode::WarpgroupDepbar { pending }, &[], &[]));
    }
    for (dst, src) in [(0, p(0)), (3, p(2).negated()), (6, Src::TRUE)] {
        let up = Reg {
            file: RegFile::UPred,
            idx: dst,
            comps: 1,
            comp: 0,
        };
        v.push(Instr::new(Opcode::VoteuAny, &[Dst::Reg(up)], &[src]));
    }
    v
}
