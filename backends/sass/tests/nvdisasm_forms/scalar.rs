//! Forms of the scalar instructions behind `bfind`, `shf` and `fma.{rz,rm,rp}.f32`: FLO with
//! every signedness and `.SH`, SHF.W in both directions with a register or immediate amount, and
//! FFMA in each rounding mode with `.FTZ` and operand modifiers (sm_75..sm_90 alike); ATOMG/RED
//! `.ADD.F64.RN` and `.ADD.F16x2.RN` in each scope (sm_90: opcodes 0x9a3/0x9a6, REDG), and
//! `.ADD.BF16x2.RN` on sm_90.

use super::*;

pub(super) fn scalar_forms() -> Vec<Instr> {
    let mut v = Vec::new();
    for signed in [false, true] {
        for sh in [false, true] {
            v.push(Instr::new(Opcode::Flo { signed, sh }, &[d(5)], &[r(4)]));
        }
    }
    for right in [false, true] {
        for hi in [false, true] {
            let op = Opcode::ShfWrap { right, hi };
            v.push(Instr::new(op, &[d(5)], &[r(4), r(6), r(7)]));
            v.push(Instr::new(op, &[d(5)], &[r(4), Src::imm(7), r(7)]));
            v.push(Instr::new(op, &[d(5)], &[r(4), r(6), Src::ZERO]));
        }
    }
    for rnd in [Round::Rz, Round::Rm, Round::Rp] {
        for ftz in [false, true] {
            let op = Opcode::FfmaRound { ftz, rnd };
            v.push(Instr::new(op, &[d(9)], &[r(2), r(5), r(7)]));
            v.push(Instr::new(
                op,
                &[d(9)],
                &[r(2).negated(), r(5), r(7).negated()],
            ));
            v.push(Instr::new(op, &[d(9)], &[r(2), r(5).absolute(), r(7)]));
        }
    }
    for (scope, ty) in [MemScope::Cta, MemScope::Gpu, MemScope::Sys]
        .into_iter()
        .flat_map(|s| [(s, AtomType::F64), (s, AtomType::F16x2)])
    {
        let op = AtomOp::Add;
        let pair = |i: u32| Src::reg(Reg::gpr64(i));
        let atomg = Opcode::Atomg {
            op,
            ty,
            scope,
            offset: -0x18,
        };
        let (dst, data) = if ty == AtomType::F64 {
            (Dst::Reg(Reg::gpr64(8)), pair(6))
        } else {
            (d(8), r(6))
        };
        v.push(Instr::new(atomg, &[dst], &[pair(4), data, ur(4)]));
        let red = Opcode::Red {
            op,
            ty,
            scope,
            offset: 0x10,
        };
        v.push(Instr::new(red, &[], &[pair(4), data, ur(4)]));
    }
    v
}

/// ATOMG/REDG `.ADD.BF16x2.RN` (sm_90 only).
pub(super) fn bf16x2_atomic_forms() -> Vec<Instr> {
    let (op, ty, scope) = (AtomOp::Add, AtomType::Bf16x2, MemScope::Gpu);
    let pair = Src::reg(Reg::gpr64(4));
    vec![
        Instr::new(
            Opcode::Atomg {
                op,
                ty,
                scope,
                offset: 8,
            },
            &[d(9)],
            &[pair, r(7), ur(4)],
        ),
        Instr::new(
            Opcode::Red {
                op,
                ty,
                scope,
                offset: -4,
            },
            &[],
            &[pair, r(7), ur(4)],
        ),
    ]
}
