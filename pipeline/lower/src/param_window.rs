//! Kernel parameters whose address escapes as a value (sm_90): `mov.b64 %rd, k_param_0;
//! cvta.param.u64 %rd2, %rd` (CUTLASS passes TMA descriptors and its Params struct so).
//!
//! As in ptxas 13.5's sm_90 code, a parameter-space address is the byte offset into the
//! parameter block (a 64-bit value, high word 0); `ld.param` through such a register is
//! `LDC c[0x0][Rlo+0x210+imm]`, and its generic address adds the parameter block's generic base,
//! which constant bank 0 holds at 0x198: `IADD3 R, P, Rlo, c[0x0][0x198]` and `IADD3.X` with
//! 0x19c. Before sm_90 ptxas builds that base from a relocated constant (`c[0x2][0x0] +
//! c[0x0][0x40]`); that is not supported yet. Registers that stay `ld.param` addresses only are
//! `param_addr.rs`'s, and cost nothing.

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Constant bank 0's generic address of the parameter block (64-bit) on sm_90.
const PARAM_WINDOW_CBUF: u16 = 0x198;

impl Ctx<'_> {
    /// `{offset, 0}`: the parameter-space address of parameter `name`.
    pub(crate) fn param_space_address(&mut self, name: &str) -> LResult<(Src, Src)> {
        if self.sm.num < 90 {
            return Err(format!(
                "taking the address of parameter '{name}' on sm_{} is not supported yet",
                self.sm.num
            ));
        }
        Ok((Src::imm(self.param(name)?.offset), Src::ZERO))
    }

    /// The 32-bit index register of `ld.param [%rd+imm]` where `%rd` is an ordinary 64-bit
    /// register holding a parameter-space address: its low word.
    pub(crate) fn param_space_index(&mut self, name: &str) -> LResult<Reg> {
        let r = self.vreg(name)?;
        if r.comps != 2 {
            return Err(format!("'{name}' is not a 64-bit register"));
        }
        Ok(r.part(0))
    }

    /// `cvta.param.u64 d, a`: the generic address of parameter-space address `a`.
    pub(crate) fn cvta_param(&mut self, i: &Instruction, d: Reg, a: &Operand) -> LResult<()> {
        if self.sm.num < 90 || i.has_mod("to") || d.comps != 2 {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let (lo, hi) = self.src64(a)?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let window = |half: u16| Src::cbuf(0, PARAM_WINDOW_CBUF + 4 * half);
        let p = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[lo, window(0), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[hi, window(1), Src::ZERO, Src::reg(p), Src::FALSE],
        );
        Ok(())
    }
}
