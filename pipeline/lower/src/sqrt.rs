//! `sqrt.rn.f32`: ptxas's correctly rounded square root. The fast path is MUFU.RSQ and one Newton
//! correction (`y = x * r`, `y + (x - y * y) * r / 2`) for positive normal `x` from 2^-101 up
//! (the bits of `x - 0x0d000000` at most 0x727fffff). ptxas calls a subroutine for the rest; here
//! that path is inline and computed for every lane, then selected: `x * 2^64` through the same
//! steps, times 2^-32 (denormal and tiny `x`; negative and NaN `x` give the canonical NaN), and
//! `x` itself for +-0 and +inf.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// `x - FAST_MIN_BITS <= FAST_SPAN` (unsigned, on the bits) selects the fast path.
const FAST_MIN_BITS: u32 = 0x0d00_0000;
const FAST_SPAN: u32 = 0x727f_ffff;
const TWO_POW_64: u32 = 0x5f80_0000;
const TWO_POW_MINUS_32: u32 = 0x2f80_0000;
const HALF: u32 = 0x3f00_0000;
const POSITIVE_INFINITY: u32 = 0x7f80_0000;
const LUT_AND: u8 = 0xc0;

impl Ctx<'_> {
    /// `sqrt.rn.f32 d, a` (without `.ftz`).
    pub fn sqrt_rn_f32(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 2)?;
        let d = self.dst(&i.operands[0])?;
        let x = self.reg_src32(&i.operands[1])?;
        let slow = self.sqrt_needs_slow_path(x);
        let fast = self.sqrt_newton(x);
        let scaled = self.float_product(x, TWO_POW_64, false);
        let scaled_root = self.sqrt_newton(scaled);
        let slow_root = self.float_product(scaled_root, TWO_POW_MINUS_32, true);
        let keep_x = self.is_zero_or_positive_infinity(x);
        let slow_result = self.temp();
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(slow_result)],
            &[x, slow_root, keep_x],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::reg(slow_result), fast, slow],
        );
        Ok(())
    }

    /// `x - 0x0d000000 > 0x727fffff` on the bits: not a positive normal from 2^-101 up.
    fn sqrt_needs_slow_path(&mut self, x: Src) -> Src {
        let offset = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(offset), Dst::None],
            &[x, Src::imm(FAST_MIN_BITS.wrapping_neg()), Src::ZERO],
        );
        self.unsigned_compare(
            IntCmp::Gt,
            Src::reg(offset),
            Src::imm(FAST_SPAN),
            Src::TRUE,
            BoolOp::And,
        )
    }

    /// One Newton correction of `y = x * rsqrt(x)`: `y + (x - y * y) * (rsqrt(x) / 2)`.
    fn sqrt_newton(&mut self, x: Src) -> Src {
        let (rsq, y, half_rsq, err, root) = (
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
        );
        self.emit(Opcode::MufuRsq, &[Dst::Reg(rsq)], &[x]);
        self.emit(
            Opcode::Fmul { ftz: true },
            &[Dst::Reg(y)],
            &[x, Src::reg(rsq)],
        );
        let half = self.in_reg(Src::imm(HALF));
        self.emit(
            Opcode::Fmul { ftz: true },
            &[Dst::Reg(half_rsq)],
            &[Src::reg(rsq), half],
        );
        self.emit(
            Opcode::Ffma { ftz: false },
            &[Dst::Reg(err)],
            &[Src::reg(y).negated(), Src::reg(y), x],
        );
        self.emit(
            Opcode::Ffma { ftz: false },
            &[Dst::Reg(root)],
            &[Src::reg(err), Src::reg(half_rsq), Src::reg(y)],
        );
        Src::reg(root)
    }

    /// `x * k` for the f32 bits `k` (a power of two: exact but for flushing and overflow).
    fn float_product(&mut self, x: Src, k: u32, ftz: bool) -> Src {
        let k = self.in_reg(Src::imm(k));
        let p = self.temp();
        self.emit(Opcode::Fmul { ftz }, &[Dst::Reg(p)], &[x, k]);
        Src::reg(p)
    }

    /// `x` is +0, -0 or +inf (on the bits).
    fn is_zero_or_positive_infinity(&mut self, x: Src) -> Src {
        let magnitude = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_AND },
            &[Dst::Reg(magnitude), Dst::None],
            &[x, Src::imm(0x7fff_ffff), Src::ZERO, Src::FALSE],
        );
        let zero = self.unsigned_compare(
            IntCmp::Eq,
            Src::reg(magnitude),
            Src::ZERO,
            Src::TRUE,
            BoolOp::And,
        );
        self.unsigned_compare(IntCmp::Eq, x, Src::imm(POSITIVE_INFINITY), zero, BoolOp::Or)
    }

    /// `ISETP.cmp.U32.combine p, a, b, accum`.
    fn unsigned_compare(
        &mut self,
        cmp: IntCmp,
        a: Src,
        b: Src,
        accum: Src,
        combine: BoolOp,
    ) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp,
            signed: false,
            combine,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, accum]);
        Src::reg(p)
    }
}
