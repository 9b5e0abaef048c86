//! The small steps `div64.rs` (f64 division) is written in: FP64 ops on register pairs, word
//! tests, selects.

use ptxforge_ptx::ast::Operand;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// The largest exponent field (in the high word) less one: `field - 1 > this` (unsigned) holds
/// for the fields 0 and 0x7ff.
const EXTREME_BOUND: u32 = 0x7fef_fffe;
const EXPONENT: u32 = 0x7ff0_0000;
const QUIET: u32 = 0x0008_0000;
const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;

impl Ctx<'_> {
    /// An f64 operand in a register pair (immediates moved in; zero as a pair of zeros).
    pub(super) fn d64_operand(&mut self, op: &Operand) -> LResult<Reg> {
        Ok(match self.double_src(op)? {
            Src {
                val: SrcVal::Reg(r),
                ..
            } => r,
            _ => self.pair_of([Src::ZERO, Src::ZERO]),
        })
    }

    /// `DFMA.rnd d, a, b, c`.
    pub(super) fn d64_fma(&mut self, rnd: Round, a: Src, b: Reg, c: Reg) -> Reg {
        self.d64_fma_to(rnd, a, b, Src::reg(c))
    }

    /// `DFMA.rnd d, a, b, c` with any addend (a negated one included).
    pub(super) fn d64_fma_to(&mut self, rnd: Round, a: Src, b: Reg, c: Src) -> Reg {
        let d = self.temp64();
        self.emit(Opcode::Dfma { rnd }, &[Dst::Reg(d)], &[a, Src::reg(b), c]);
        d
    }

    /// `DMUL.rnd d, a, b`.
    pub(super) fn d64_mul(&mut self, rnd: Round, a: Reg, b: Reg) -> Reg {
        let d = self.temp64();
        self.emit(
            Opcode::Dmul { rnd },
            &[Dst::Reg(d)],
            &[Src::reg(a), Src::reg(b)],
        );
        d
    }

    /// `LOP3.lut d, a, b, RZ` (`a` a register).
    pub(super) fn d64_lop(&mut self, lut: u8, a: Src, b: Src) -> Reg {
        let d = self.temp();
        self.emit(
            Opcode::Lop3 { lut },
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::ZERO, Src::FALSE],
        );
        d
    }

    /// `ISETP.cmp.U32.AND p, a, b, PT`.
    pub(super) fn d64_isetp(&mut self, cmp: IntCmp, a: Src, b: Src) -> Src {
        self.d64_isetp_combined(cmp, a, b, Src::TRUE, BoolOp::And)
    }

    /// `ISETP.cmp.U32.AND p, a, b, accum`.
    pub(super) fn d64_isetp_acc(&mut self, cmp: IntCmp, a: Src, b: Src, accum: Src) -> Src {
        self.d64_isetp_combined(cmp, a, b, accum, BoolOp::And)
    }

    /// `ISETP.cmp.U32.OR p, a, b, accum`.
    pub(super) fn d64_isetp_or(&mut self, cmp: IntCmp, a: Src, b: Src, accum: Src) -> Src {
        self.d64_isetp_combined(cmp, a, b, accum, BoolOp::Or)
    }

    fn d64_isetp_combined(
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

    /// `SEL d, a, b, p` on one word.
    pub(super) fn d64_sel(&mut self, a: Reg, b: Src, p: Src) -> Reg {
        let d = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[Src::reg(a), b, p]);
        d
    }

    /// `p ? a : b` on register pairs.
    pub(super) fn d64_select(&mut self, a: Reg, b: Reg, p: Src) -> Reg {
        let d = self.temp64();
        for half in 0..2 {
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(d.part(half))],
                &[Src::reg(a.part(half)), Src::reg(b.part(half)), p],
            );
        }
        d
    }

    /// Whether an f64 high word's exponent field is nonzero (a normal number, an infinity or a
    /// NaN).
    pub(super) fn d64_exponent_nonzero(&mut self, hi: Src) -> Src {
        let e = self.d64_lop(LUT_AND, hi, Src::imm(EXPONENT));
        self.d64_isetp(IntCmp::Ne, Src::reg(e), Src::ZERO)
    }

    /// `accum || field is 0 or 0x7ff` for an exponent field in place (`hi & 0x7ff00000`).
    pub(super) fn d64_exponent_extreme(&mut self, field: Reg, accum: Src) -> Src {
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[Src::reg(field), Src::imm(u32::MAX), Src::ZERO],
        );
        self.d64_isetp_or(IntCmp::Gt, Src::reg(t), Src::imm(EXTREME_BOUND), accum)
    }

    /// `v` clamped to [-limit, limit] (signed).
    pub(super) fn d64_clamp(&mut self, v: Reg, limit: u32) -> Reg {
        let low = self.d64_signed_lt(Src::reg(v), Src::imm(limit.wrapping_neg()));
        let floor = self.in_reg(Src::imm(limit.wrapping_neg()));
        let v = self.d64_sel_src(floor, Src::reg(v), low);
        let high = self.d64_signed_lt(Src::imm(limit), Src::reg(v));
        let ceiling = self.in_reg(Src::imm(limit));
        self.d64_sel_src(ceiling, Src::reg(v), high)
    }

    fn d64_signed_lt(&mut self, a: Src, b: Src) -> Src {
        let (a, b) = match a.val {
            SrcVal::Reg(_) => (a, b),
            // ISETP's first source is a register: `k < v` as `v > k`.
            _ => {
                let p = self.temp_pred();
                let op = Opcode::Isetp {
                    cmp: IntCmp::Gt,
                    signed: true,
                    combine: BoolOp::And,
                    ex: false,
                };
                self.emit(op, &[Dst::Reg(p), Dst::None], &[b, a, Src::TRUE]);
                return Src::reg(p);
            }
        };
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp: IntCmp::Lt,
            signed: true,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        Src::reg(p)
    }

    pub(super) fn d64_sel_src(&mut self, a: Src, b: Src, p: Src) -> Reg {
        let d = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[a, b, p]);
        d
    }

    /// Whether the f64 `x` is a NaN (`DSETP.NAN`).
    pub(super) fn d64_is_nan(&mut self, x: Reg) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Dsetp {
            test: DoubleTest::Cmp(FloatCmp::Nan),
            combine: BoolOp::And,
        };
        self.emit(
            op,
            &[Dst::Reg(p), Dst::None],
            &[Src::reg(x), Src::reg(x), Src::TRUE],
        );
        Src::reg(p)
    }

    /// `x` with the quiet bit set.
    pub(super) fn d64_quieted(&mut self, x: Reg) -> Reg {
        let hi = self.d64_lop(LUT_OR, Src::reg(x.part(1)), Src::imm(QUIET));
        self.pair_of([Src::reg(x.part(0)), Src::reg(hi)])
    }
}
