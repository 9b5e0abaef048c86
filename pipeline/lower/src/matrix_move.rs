//! `movmatrix.sync.aligned.m8n8.trans.b16` as MOVM.16.MT88 (sm_75 on) and
//! `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared{::cta}.b16` as STSM (sm_90), as ptxas
//! selects them. STSM's data is one group of `count` registers, as LDSM's destination.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;
use ptxforge_sass::matrix_move::MatrixOp;

use crate::ctx::unsupported;
use crate::ctx::{operands_exactly, Ctx, LResult};
use crate::mem::Space;

impl Ctx<'_> {
    /// `movmatrix` and `stmatrix`; `None` for other instructions.
    pub fn lower_matrix_move(&mut self, i: &Instruction) -> Option<LResult<()>> {
        match i.opcode() {
            "movmatrix" => Some(self.lower_movmatrix(i)),
            "stmatrix" => Some(self.lower_stmatrix(i)),
            _ => None,
        }
    }

    fn lower_movmatrix(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| matches!(m, "sync" | "aligned" | "m8n8" | "trans" | "b16");
        if !i.mods().iter().all(|m| known(m)) || !i.has_mod("trans") || self.sm.num < 75 {
            return Err(unsupported(i));
        }
        let ops = operands_exactly(i, 2)?;
        let a = self.reg_src32(&ops[1])?;
        let d = self.dst(&ops[0])?;
        self.emit(Opcode::Matrix(MatrixOp::Movm), &[Dst::Reg(d)], &[a]);
        Ok(())
    }

    fn lower_stmatrix(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| {
            matches!(
                m,
                "sync"
                    | "aligned"
                    | "m8n8"
                    | "x1"
                    | "x2"
                    | "x4"
                    | "trans"
                    | "shared"
                    | "shared::cta"
                    | "b16"
            )
        };
        if !i.mods().iter().all(|m| known(m)) || self.sm.num < 90 {
            return Err(unsupported(i));
        }
        let ops = operands_exactly(i, 2)?;
        let count: u8 = [4, 2, 1]
            .into_iter()
            .find(|n| i.has_mod(&format!("x{n}")))
            .unwrap_or(1);
        if Self::fragment_elems(&ops[1]).len() != count as usize {
            return Err(unsupported(i));
        }
        let data = self.fragment_in(&ops[1], count)?;
        let (base, offset) = self.mem_address(Space::Shared, &ops[0])?;
        self.emit(
            Opcode::Matrix(MatrixOp::Stsm {
                count,
                trans: i.has_mod("trans"),
                offset,
            }),
            &[],
            &[base, data],
        );
        Ok(())
    }
}
