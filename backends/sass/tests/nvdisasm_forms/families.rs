//! Instruction families of the nvdisasm form list, one function each (math, integer, atomics,
//! tensor-core, fp8 and IMAD alias forms), kept apart from the main list in `nvdisasm_forms.rs`.

use super::*;

/// MUFU with every function, FMUL in each rounding mode, FRND.F64 in each (sm_75..sm_90 alike).
pub(super) fn mufu_family_forms() -> Vec<Instr> {
    use MufuFunc::*;
    let mut v: Vec<Instr> = [Cos, Sin, Ex2, Lg2, Rcp, Rsq, Rcp64h, Rsq64h, Sqrt, Tanh]
        .into_iter()
        .map(|func| Instr::new(Opcode::Mufu { func }, &[d(9)], &[r(2)]))
        .collect();
    for rnd in [Round::Rn, Round::Rz, Round::Rm, Round::Rp] {
        for ftz in [false, true] {
            v.push(Instr::new(
                Opcode::FmulRound { ftz, rnd },
                &[d(9)],
                &[r(2), r(5).negated()],
            ));
        }
        v.push(Instr::new(
            Opcode::FrndF64 { rnd },
            &[Dst::Reg(Reg::gpr64(6))],
            &[Src::reg(Reg::gpr64(2))],
        ));
    }
    v
}

/// SGXT[.W][.U32] with a register or immediate bit count; IDP.4A / IDP.2A.{LO,HI} with every
/// signedness pair on registers (IDP has no immediate form: nvdisasm rejects one; ptxas puts an
/// immediate B in the constant bank) (sm_75..sm_90 alike).
pub(super) fn sgxt_idp_forms() -> Vec<Instr> {
    let mut v = Vec::new();
    for (signed, wrap) in [(false, false), (true, false), (false, true), (true, true)] {
        let sgxt = Opcode::Sgxt { signed, wrap };
        v.push(Instr::new(sgxt, &[d(5)], &[r(6), r(7)]));
        v.push(Instr::new(sgxt, &[d(5)], &[r(6), Src::imm(0x11)]));
    }
    // IADD3.X taking a carry in and writing one out (PTX's addc.cc), B a register or immediate.
    for b in [r(7), Src::imm(7)] {
        v.push(Instr::new(
            Opcode::Iadd3 { x: true },
            &[d(3), pd(1)],
            &[r(5), b, Src::ZERO, p(1), Src::FALSE],
        ));
    }
    // IADD3.X with bitwise-NOT operands (`~R`, the high word of a 64-bit subtract), in each slot.
    for k in 0..3 {
        let mut srcs = [r(5), r(7), r(9), p(1), Src::FALSE];
        srcs[k] = srcs[k].negated();
        v.push(Instr::new(
            Opcode::Iadd3 { x: true },
            &[d(3), Dst::None],
            &srcs,
        ));
    }
    for (pairs, hi) in [(false, false), (true, false), (true, true)] {
        for a_signed in [false, true] {
            for b_signed in [false, true] {
                let op = Opcode::Idp {
                    pairs,
                    hi,
                    a_signed,
                    b_signed,
                };
                v.push(Instr::new(op, &[d(8)], &[r(4), r(5), r(6)]));
            }
        }
    }
    v
}

/// ATOMG/RED .ADD.F32.FTZ.RN in each scope (sm_90: opcodes 0x9a3/0x9a6, REDG).
pub(super) fn f32_atomic_forms() -> Vec<Instr> {
    let mut v = Vec::new();
    for scope in [MemScope::Cta, MemScope::Gpu, MemScope::Sys] {
        let (op, ty) = (AtomOp::Add, AtomType::F32);
        v.push(Instr::new(
            Opcode::Atomg {
                op,
                ty,
                scope,
                offset: 0x14,
            },
            &[d(9)],
            &[Src::reg(Reg::gpr64(4)), r(7), ur(4)],
        ));
        v.push(Instr::new(
            Opcode::Red {
                op,
                ty,
                scope,
                offset: -8,
            },
            &[],
            &[Src::reg(Reg::gpr64(4)), r(7), ur(4)],
        ));
    }
    v
}

/// Generic-space ATOM.E: integer operations and types in each scope, and CAS on 32 and 64 bits.
pub(super) fn generic_atom_forms() -> Vec<Instr> {
    let mut v = Vec::new();
    let pair = |i: u32| Src::reg(Reg::gpr64(i));
    for (op, ty, scope) in [
        (AtomOp::Add, AtomType::U32, MemScope::Gpu),
        (AtomOp::Max, AtomType::S32, MemScope::Cta),
        (AtomOp::Or, AtomType::U32, MemScope::Sys),
        (AtomOp::Exch, AtomType::U64, MemScope::Gpu),
        (AtomOp::Min, AtomType::S64, MemScope::Gpu),
        (AtomOp::Inc, AtomType::U32, MemScope::Gpu),
    ] {
        let d0 = if ty.is_wide() {
            Dst::Reg(Reg::gpr64(10))
        } else {
            d(9)
        };
        let data = if ty.is_wide() { pair(6) } else { r(7) };
        let atom = Opcode::Atom {
            op,
            ty,
            scope,
            offset: 0x10,
        };
        v.push(Instr::new(atom, &[d0], &[pair(4), data, ur(4)]));
        v.push(Instr::new(atom, &[Dst::None], &[pair(4), data, ur(4)]));
    }
    let group = |idx: u32, comps: u8| {
        Src::reg(Reg {
            comps,
            ..Reg::gpr(idx)
        })
    };
    for (ty, comps, d0) in [
        (AtomType::U32, 2, d(3)),
        (AtomType::U64, 4, Dst::Reg(Reg::gpr64(6))),
    ] {
        let cas = Opcode::Atom {
            op: AtomOp::Cas,
            ty,
            scope: MemScope::Gpu,
            offset: 0xc,
        };
        v.push(Instr::new(
            cas,
            &[d0],
            &[pair(2), group(8, comps), Src::ZERO],
        ));
    }
    v
}

/// ATOMG.CAS and ATOMS.CAS, 32- and 64-bit: the compare and new values in one group (a pair or
/// a quad), the new value's register printed and encoded after the compare value's.
pub(super) fn cas_forms() -> Vec<Instr> {
    let group = |idx: u32, comps: u8| {
        Src::reg(Reg {
            comps,
            ..Reg::gpr(idx)
        })
    };
    let mut v = Vec::new();
    for (ty, comps, d0) in [
        (AtomType::U32, 2, d(3)),
        (AtomType::U64, 4, Dst::Reg(Reg::gpr64(6))),
    ] {
        v.push(Instr::new(
            Opcode::Atomg {
                op: AtomOp::Cas,
                ty,
                scope: MemScope::Gpu,
                offset: 0x20,
            },
            &[d0],
            &[Src::reg(Reg::gpr64(2)), group(8, comps), Src::ZERO],
        ));
        v.push(Instr::new(
            Opcode::Atoms {
                op: AtomOp::Cas,
                ty,
                offset: 4,
            },
            &[d0],
            &[r(5), group(12, comps), Src::ZERO],
        ));
    }
    v
}

/// Instruction forms valid on `sm`.
/// IMMA (every shape and element pair the architecture has, with and without .SAT, C as RZ), BMMA
/// (.XOR/.AND) and DMMA, each on register groups.
pub(super) fn matrix_int_forms(sm: Sm, v: &mut Vec<Instr>) {
    use Opcode::*;
    let group = |idx: u32, comps: u8| Reg {
        comps,
        ..Reg::gpr(idx)
    };
    let g = |idx: u32, comps: u8| Src::reg(group(idx, comps));
    for shape in ImmaShape::ALL {
        if !shape.exists_on(sm.num) {
            continue;
        }
        let n = if shape.m16() { 4 } else { 2 };
        for (a, b) in [
            (IntElem::S8, IntElem::S8),
            (IntElem::U8, IntElem::S8),
            (IntElem::S8, IntElem::U8),
            (IntElem::U8, IntElem::U8),
            (IntElem::S4, IntElem::S4),
            (IntElem::U4, IntElem::S4),
            (IntElem::S4, IntElem::U4),
            (IntElem::U4, IntElem::U4),
        ] {
            if !ImmaShape::takes(shape, a, b, sm.num) {
                continue;
            }
            for (sat, c) in [(false, g(12, n)), (true, Src::ZERO)] {
                v.push(Instr::new(
                    Imma {
                        shape,
                        a,
                        b,
                        sat,
                        scoreboarded: sm.num < 80,
                    },
                    &[Dst::Reg(group(8, n))],
                    &[g(4, 4), g(2, 2), c],
                ));
            }
        }
    }
    for shape in BmmaShape::ALL {
        for and in [false, true] {
            if !shape.exists_on(sm.num, and) {
                continue;
            }
            v.push(Instr::new(
                Bmma {
                    shape,
                    and,
                    scoreboarded: sm.num < 80,
                },
                &[Dst::Reg(group(16, 4))],
                &[g(4, 4), g(10, 2), g(20, 4)],
            ));
        }
    }
    for signed in [false, true] {
        v.push(Instr::new(
            I2ip { signed },
            &[d(3)],
            &[r(4), r(5), Src::ZERO],
        ));
        v.push(Instr::new(I2ip { signed }, &[d(6)], &[r(7), r(8), r(9)]));
    }
    for shape in DmmaShape::ALL {
        if sm.num >= shape.min_sm() {
            v.push(Instr::new(
                Dmma { shape },
                &[Dst::Reg(group(8, 8))],
                &[g(16, 16), g(32, 8), Src::ZERO],
            ));
            v.push(Instr::new(
                Dmma { shape },
                &[Dst::Reg(group(40, 8))],
                &[g(16, 4), g(32, 2), g(40, 8)],
            ));
        }
    }
}

/// A plain 32-bit IMAD.
pub(super) fn imad_lo(signed: bool) -> Opcode {
    Opcode::Imad {
        mode: ImadMode::Lo,
        signed,
        x: false,
    }
}

/// The FP8 F2FP forms (sm_89+), with and without `.RELU`.
pub(super) fn fp8_forms(sm: Sm, v: &mut Vec<Instr>) {
    use ptxforge_sass::fp8::Fp8Form;
    if sm.num < 89 {
        return;
    }
    for form in Fp8Form::ALL {
        for relu in [false, true] {
            let srcs = match form {
                Fp8Form::PackF32 { .. } => [r(6), r(7), Src::ZERO],
                _ => [Src::ZERO, r(8), Src::ZERO],
            };
            let unpack = matches!(form, Fp8Form::Unpack { .. });
            for h1 in [false, true].into_iter().filter(|&h| unpack || !h) {
                v.push(Instr::new(
                    Opcode::F2fp8 { form, relu, h1 },
                    &[d(10)],
                    &srcs,
                ));
            }
        }
    }
}

/// IMAD with a zero factor, which nvdisasm names IMAD.MOV in the low mode only.
pub(super) fn imad_zero_factor_forms(v: &mut Vec<Instr>) {
    let modes = [
        (true, ImadMode::Lo),
        (false, ImadMode::Lo),
        (true, ImadMode::Hi),
        (false, ImadMode::Wide),
    ];
    for (signed, mode) in modes {
        let sources = [
            [Src::ZERO, r(5), r(6)],
            [Src::ZERO, Src::cbuf(0, 0x188), Src::ZERO],
            [r(4), Src::ZERO, r(6)],
            [Src::ZERO, Src::imm(7), r(6)],
            [r(4), r(5), r(6)],
        ];
        for srcs in sources {
            let dst = match mode {
                ImadMode::Wide => Dst::Reg(Reg {
                    comps: 2,
                    ..Reg::gpr(8)
                }),
                _ => d(9),
            };
            let op = Opcode::Imad {
                mode,
                signed,
                x: false,
            };
            v.push(Instr::new(op, &[dst], &srcs));
        }
    }
}
