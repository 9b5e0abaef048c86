//! Generic-address float adds (ATOM.E.ADD.{F32.FTZ.RN,F64.RN,F16x2.RN,BF16x2.RN}) with the
//! predicate that says the add was done (the address was global).

use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

/// Each float type (BF16x2 on sm_90), with a predicate result or PT, with a result or RZ.
pub fn generic_float_add_forms(sm: Sm, v: &mut Vec<Instr>) {
    let mut types = vec![AtomType::F32, AtomType::F64, AtomType::F16x2];
    if sm.num >= 90 {
        types.push(AtomType::Bf16x2);
    }
    let desc = Src::reg(Reg::ugpr(4, 2));
    for ty in types {
        let (d0, data) = if ty.is_wide() {
            (Dst::Reg(Reg::gpr64(10)), Src::reg(Reg::gpr64(6)))
        } else {
            (Dst::Reg(Reg::gpr(9)), Src::reg(Reg::gpr(7)))
        };
        let atom = Opcode::Atom {
            op: AtomOp::Add,
            ty,
            scope: MemScope::Gpu,
            offset: 0x20,
        };
        let addr = Src::reg(Reg::gpr64(4));
        v.push(Instr::new(
            atom,
            &[d0, Dst::Reg(Reg::pred(0))],
            &[addr, data, desc],
        ));
        v.push(Instr::new(
            atom,
            &[Dst::None, Dst::Reg(Reg::pred(3))],
            &[addr, data, desc],
        ));
        v.push(Instr::new(atom, &[d0, Dst::None], &[addr, data, desc]));
    }
}
