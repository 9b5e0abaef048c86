//! MATCH forms (`match.any.sync`, `match.all.sync`, 32- and 64-bit values).

use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

/// MATCH.ANY and MATCH.ALL, .U64 with a register pair, ALL with a predicate result and with PT.
pub fn match_forms(_sm: Sm, v: &mut Vec<Instr>) {
    let d = |i| Dst::Reg(Reg::gpr(i));
    for wide in [false, true] {
        let a = Src::reg(if wide { Reg::gpr64(2) } else { Reg::gpr(7) });
        let any = Opcode::Warp(WarpOp::Match { all: false, wide });
        let all = Opcode::Warp(WarpOp::Match { all: true, wide });
        v.push(Instr::new(any, &[d(5), Dst::None], &[a]));
        v.push(Instr::new(all, &[d(6), Dst::Reg(Reg::pred(1))], &[a]));
        v.push(Instr::new(all, &[d(17), Dst::None], &[a]));
    }
}
