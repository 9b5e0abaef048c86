//! `--make-errors-visible-at-exit`: an `ERRBAR` (and on sm_90+ a `CGAERRBAR`) before every
//! `EXIT`, under the exit's guard, so that memory faults of the thread's outstanding accesses are
//! reported before it ends (as ptxas 13.5 writes them; the cubin also carries
//! EIATTR_GEN_ERRBAR_AT_EXIT).

use crate::arch::Sm;
use crate::ir::{Function, Instr, Opcode};
use crate::warp::WarpOp;

/// Puts the error barriers before each `EXIT` of `f`.
pub fn add_error_barriers(f: &mut Function, sm: Sm) {
    let mut barriers = vec![WarpOp::Errbar];
    if sm.num >= 90 {
        barriers.push(WarpOp::Cgaerrbar);
    }
    for block in &mut f.blocks {
        let mut out = Vec::with_capacity(block.instrs.len() + 2);
        for i in block.instrs.drain(..) {
            if i.op == Opcode::Exit {
                for &b in &barriers {
                    let mut bar = Instr::new(Opcode::Warp(b), &[], &[]);
                    bar.guard = i.guard;
                    out.push(bar);
                }
            }
            out.push(i);
        }
        block.instrs = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Reg, RegFile, Src};

    #[test]
    fn every_exit_gets_its_barriers_under_its_guard() {
        let mut f = Function::default();
        let p = Reg {
            file: RegFile::Pred,
            ..Reg::gpr(0)
        };
        let mut guarded = Instr::new(Opcode::Exit, &[], &[]);
        guarded.guard = Src::reg(p);
        f.blocks.push(Block {
            instrs: vec![guarded, Instr::new(Opcode::Exit, &[], &[])],
        });
        add_error_barriers(&mut f, Sm::new(90));
        let ops: Vec<Opcode> = f.instrs().map(|i| i.op).collect();
        let errbar = Opcode::Warp(WarpOp::Errbar);
        let cga = Opcode::Warp(WarpOp::Cgaerrbar);
        assert_eq!(ops, [errbar, cga, Opcode::Exit, errbar, cga, Opcode::Exit]);
        assert_eq!(f.blocks[0].instrs[1].guard, Src::reg(p));
        assert_eq!(f.blocks[0].instrs[3].guard, Src::TRUE);
    }
}
