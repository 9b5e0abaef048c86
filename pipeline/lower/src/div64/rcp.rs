//! `rcp.rn.f64` as ptxas 13.5 writes it (sm_75..sm_90), every path computed and selected:
//! - fast: `b`'s reciprocal refined as for division (`Ctx::rcp64_refined`), the seed's low word
//!   `b.hi + 0x300402`; taken when that word's magnitude, read as an f32, is at least 0x00400000
//!   (or NaN), which leaves out |b| below about 2^-1022 and above about 2^1021;
//! - a NaN quieted; a zero (or a denormal with a zero high word) gives a signed infinity, an
//!   infinity a signed zero (`b.hi ^ 0x7ff00000`, low word 0);
//! - a huge `b` (magnitude high word from 0x01000001 up): the reciprocal of `b / 2^1022`, times
//!   2^-1022, then `r + r (e + e^2)` with `e = 1 - b r` on the denormal result;
//! - a tiny `b`: the reciprocal of `b 2^106`, times 2^106.
//!
//! The slow paths' seeds take `|b.hi| - 0x100000` as the low word, as ptxas's subroutine does.

use ptxforge_sass::ir::*;

use crate::ctx::Ctx;

const SEED_LO_OFFSET: u32 = 0x0030_0402;
const FAST_MIN: u32 = 0x0040_0000;
const MAGNITUDE: u32 = 0x7fff_ffff;
const EXPONENT: u32 = 0x7ff0_0000;
const EXPONENT_ONE: u32 = 0x0010_0000;
const EXTREME_BOUND: u32 = 0x7fef_ffff;
const HUGE_MIN: u32 = 0x0100_0001;
/// `b / 2^1022` on the high word, and the high words of 2^-1022, 2^106 and 1.
const DOWN_1022: u32 = 0x3fe0_0000;
const TWO_POW_MINUS_1022_HI: u32 = 0x0010_0000;
const TWO_POW_106_HI: u32 = 0x4690_0000;
const ONE_HI: u32 = 0x3ff0_0000;
const LUT_AND: u8 = 0xc0;
const LUT_XOR: u8 = 0x3c;

impl Ctx<'_> {
    /// 1 / `b`, correctly rounded to nearest.
    pub(super) fn rcp64_rn(&mut self, b: Reg) -> Reg {
        let b_hi = Src::reg(b.part(1));
        let seed_lo = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(seed_lo), Dst::None],
            &[b_hi, Src::imm(SEED_LO_OFFSET), Src::ZERO],
        );
        let fast = self.rcp64_refined(b, Src::reg(seed_lo));
        let seed_mag = self.d64_lop(LUT_AND, Src::reg(seed_lo), Src::imm(MAGNITUDE));
        let fast_ok = self.d64_isetp(IntCmp::Ge, Src::reg(seed_mag), Src::imm(FAST_MIN));
        let slow = self.rcp64_slow(b);
        self.d64_select(fast, slow, fast_ok)
    }

    /// ptxas's subroutine (see the file's comment).
    fn rcp64_slow(&mut self, b: Reg) -> Reg {
        let b_hi = Src::reg(b.part(1));
        let mag = self.d64_lop(LUT_AND, b_hi, Src::imm(MAGNITUDE));
        let slow_lo = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(slow_lo), Dst::None],
            &[
                Src::reg(mag),
                Src::imm(EXPONENT_ONE.wrapping_neg()),
                Src::ZERO,
            ],
        );
        let tiny = self.rcp64_tiny(b, slow_lo);
        let huge = self.rcp64_huge(b, slow_lo);
        let is_huge = self.d64_isetp(IntCmp::Ge, Src::reg(mag), Src::imm(HUGE_MIN));
        let v = self.d64_select(huge, tiny, is_huge);
        // Zero or infinity: b.hi ^ 0x7ff00000, low word 0.
        let flipped = self.d64_lop(LUT_XOR, b_hi, Src::imm(EXPONENT));
        let flipped = self.pair_of([Src::ZERO, Src::reg(flipped)]);
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[Src::reg(mag), Src::imm(u32::MAX), Src::ZERO],
        );
        let extreme = self.d64_isetp(IntCmp::Ge, Src::reg(t), Src::imm(EXTREME_BOUND));
        let v = self.d64_select(flipped, v, extreme);
        let quiet = self.d64_quieted(b);
        let nan = self.d64_is_nan(b);
        self.d64_select(quiet, v, nan)
    }

    /// A tiny `b`: `rcp(b 2^106) 2^106`.
    fn rcp64_tiny(&mut self, b: Reg, seed_lo: Reg) -> Reg {
        let up = self.pair_of([Src::ZERO, Src::imm(TWO_POW_106_HI)]);
        let scaled = self.d64_mul(Round::Rn, b, up);
        let r = self.rcp64_refined(scaled, Src::reg(seed_lo));
        self.d64_mul(Round::Rn, r, up)
    }

    /// A huge `b`: `r = rcp(b / 2^1022) 2^-1022`, then `r + r (e + e^2)`, `e = 1 - b r`.
    fn rcp64_huge(&mut self, b: Reg, seed_lo: Reg) -> Reg {
        let hi = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(hi), Dst::None],
            &[
                Src::reg(b.part(1)),
                Src::imm(DOWN_1022.wrapping_neg()),
                Src::ZERO,
            ],
        );
        let scaled = self.pair_of([Src::reg(b.part(0)), Src::reg(hi)]);
        let r = self.rcp64_refined(scaled, Src::reg(seed_lo));
        let down = self.pair_of([Src::ZERO, Src::imm(TWO_POW_MINUS_1022_HI)]);
        let r = self.d64_mul(Round::Rn, r, down);
        let one = self.pair_of([Src::ZERO, Src::imm(ONE_HI)]);
        let e = self.d64_fma(Round::Rn, Src::reg(b).negated(), r, one);
        let e = self.d64_fma(Round::Rn, Src::reg(e), e, e);
        self.d64_fma(Round::Rn, Src::reg(r), e, r)
    }
}
