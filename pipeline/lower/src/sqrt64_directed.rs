//! `sqrt.rz/.rm/.rp.f64`: the correctly rounded (to nearest) root `y` of `sqrt64.rs`, rounded
//! again in the wanted direction by one DFMA: `DFMA.rnd(r, h, y)` with the residual
//! `r = x - y^2` (exact: `y` is the nearest root) and `h` about `1 / 2y` (MUFU.RCP64H of `y`'s
//! high word, halved). `r h` has the sign of `sqrt(x) - y` and is smaller than the spacing of
//! the doubles next to `y` (on both sides; at a power of two the one below is half the one
//! above, and the root then lies within half of it), so the directed rounding of `y + r h` is
//! `y` itself or its neighbour on the side of the exact root, as the direction says. The roots
//! it is applied to are positive normals (the scaled slow path's included); zeros, infinities,
//! NaNs and negative operands keep `sqrt64.rs`'s exact answers.

use ptxforge_sass::ir::*;

use crate::ctx::Ctx;

/// One in an f64's exponent field, in the high word.
const EXPONENT_ONE: u32 = 0x0010_0000;

impl Ctx<'_> {
    /// `y` (the nearest root of `x`) rounded again as `rnd` says; `y` itself for `.rn`.
    pub(crate) fn sqrt64_directed(&mut self, x: Reg, y: Reg, rnd: Round) -> Reg {
        if rnd == Round::Rn {
            return y;
        }
        let r = self.temp64();
        self.emit(
            Opcode::Dfma { rnd: Round::Rn },
            &[Dst::Reg(r)],
            &[Src::reg(y).negated(), Src::reg(y), Src::reg(x)],
        );
        let inverse_hi = self.temp();
        self.emit(
            Opcode::Mufu {
                func: MufuFunc::Rcp64h,
            },
            &[Dst::Reg(inverse_hi)],
            &[Src::reg(y.part(1))],
        );
        let half_hi = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(half_hi), Dst::None],
            &[
                Src::reg(inverse_hi),
                Src::imm(EXPONENT_ONE.wrapping_neg()),
                Src::ZERO,
            ],
        );
        let h = self.pair_of([Src::ZERO, Src::reg(half_hi)]);
        let out = self.temp64();
        self.emit(
            Opcode::Dfma { rnd },
            &[Dst::Reg(out)],
            &[Src::reg(r), Src::reg(h), Src::reg(y)],
        );
        out
    }
}
