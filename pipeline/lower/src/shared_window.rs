//! Conversions between shared and generic addresses (`cvta.shared`, `cvta.to.shared`), as ptxas
//! writes them: before sm_90 the generic shared window's 64-bit base is in `c[0x0][0x18]`
//! (generic = base + shared address, shared = generic - base); on sm_90 a generic shared address
//! is the shared address (already in the CTA's cluster window) under the high word `SR_SWINHI`.

use ptxforge_ptx::ast::{self, Instruction};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Where constant bank 0 holds the generic shared window's base (64-bit) before sm_90.
const SHARED_WINDOW_CBUF: u16 = 0x18;

impl Ctx<'_> {
    /// `cvta.shared.u64 d, a` and `cvta.to.shared.u64 d, a` (shared addresses are 32 bits: the
    /// result of `cvta.to.shared` has a zero high half).
    pub fn cvta_shared(&mut self, i: &Instruction, d: Reg, a: &ast::Operand) -> LResult<()> {
        if d.comps != 2 {
            return Err(format!(
                "'{}.{}' to a 32-bit register is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let (lo, hi) = self.src64(a)?;
        if i.has_mod("to") {
            self.shared_from_generic(d, lo);
        } else if self.sm.num >= 90 {
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[lo]);
            self.emit(
                Opcode::S2r(SpecialReg::SharedWindowHi),
                &[Dst::Reg(d.part(1))],
                &[],
            );
        } else {
            self.generic_from_shared(d, lo, hi);
        }
        Ok(())
    }

    /// The shared address of generic `lo` (its low word): `lo - window` before sm_90, `lo` itself
    /// on sm_90.
    fn shared_from_generic(&mut self, d: Reg, lo: Src) {
        if self.sm.num >= 90 {
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[lo]);
        } else {
            let lo = self.in_reg(lo);
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d.part(0)), Dst::None],
                &[lo, window_word(0).negated(), Src::ZERO],
            );
        }
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::ZERO]);
    }

    /// Before sm_90: the 64-bit sum of the shared address `{lo, hi}` and the window base.
    fn generic_from_shared(&mut self, d: Reg, lo: Src, hi: Src) {
        let lo = self.in_reg(lo);
        let hi = self.in_reg(hi);
        let p = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[lo, window_word(0), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[hi, window_word(1), Src::ZERO, Src::reg(p), Src::FALSE],
        );
    }
}

/// Word `half` (0 low, 1 high) of the shared window base in constant bank 0.
fn window_word(half: u16) -> Src {
    Src::cbuf(0, SHARED_WINDOW_CBUF + 4 * half)
}
