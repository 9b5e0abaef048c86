//! A module `.global` variable named as a memory operand's base (`ld.global.f32 %f1, [scale]`,
//! `st.global.u32 [table+8], %r1`, and generic `ld`/`st` of
//! such a variable): the address comes from the variable's constant-bank-4 slot, as ptxas
//! compiles it (`MOV R4, c[0x4][0x0]; MOV R5, c[0x4][0x4]` before sm_90, `LDC.64 R4, c[0x4][RZ]`
//! from sm_90 on), and the access adds the offset.

use ptxforge_ptx::ast::AddrBase;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    /// The 64-bit address of the module variable `base` names, in a register pair; `None` when
    /// `base` is not a module `.global` variable.
    pub(crate) fn global_symbol_base(&mut self, base: &AddrBase) -> Option<LResult<Src>> {
        let AddrBase::Symbol(s) = base else {
            return None;
        };
        let slot = self.global_slot(s)?;
        Some(self.global_address(slot).map(|(lo, hi)| {
            let pair = match (lo.val, hi.val) {
                // sm_90's LDC.64 already loaded the pair.
                (SrcVal::Reg(l), SrcVal::Reg(h))
                    if l.idx == h.idx && (l.comp, h.comp) == (0, 1) =>
                {
                    Reg { comps: 2, ..l }
                }
                _ => self.pair_of([lo, hi]),
            };
            Src::reg(pair)
        }))
    }
}
