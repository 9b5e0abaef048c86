//! `sqrt.rn.f64`: ptxas's correctly rounded f64 square root. The fast path (ptxas 13.5, sm_75..
//! sm_90) seeds with MUFU.RSQ64H on the high word, refines the reciprocal square root once
//! (`r + r e (1/2 + 3/8 e)` with `e = 1 - x r^2`), then `y = x r` and `y + (x - y^2) r / 2`; it
//! serves positive normal `x` whose high word lies in [0x03500000, 0x7ff00000) (the bits of
//! `hi - 0x03500000` below 0x7ca00000). ptxas calls a subroutine for the rest; here that path is
//! inline and computed for every lane, then selected: `x * 2^106` through the same steps with 53
//! taken off the result's exponent (denormal and small normal `x`; exact, as the scaling is an
//! even power of two; ptxas refines small normals with DFMA.RM/.RP instead), `x + x` for +-0,
//! +inf and any NaN (ptxas tests `x != 0` ordered), and the NaN 0xfff80000_00000000 for every
//! other negative `x`.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// `hi - FAST_MIN_HI < FAST_SPAN` (unsigned) selects the fast path.
const FAST_MIN_HI: u32 = 0x0350_0000;
const FAST_SPAN: u32 = 0x7ca0_0000;
/// The high words of 3/8, 1/2, 1 and 2^106.
const THREE_EIGHTHS_HI: u32 = 0x3fd8_0000;
const HALF_HI: u32 = 0x3fe0_0000;
const ONE_HI: u32 = 0x3ff0_0000;
const TWO_POW_106_HI: u32 = 0x4690_0000;
/// One in an f64's exponent field, in the high word.
const EXPONENT_ONE: u32 = 0x0010_0000;
/// The largest high word of a finite positive f64.
const MAX_FINITE_HI: u32 = 0x7fef_ffff;
const NEGATIVE_NAN_HI: u32 = 0xfff8_0000;

impl Ctx<'_> {
    /// `sqrt.rnd.f64 d, a` (`.rz/.rm/.rp`: the roots rounded again, `sqrt64_directed.rs`).
    pub fn sqrt_rn_f64(&mut self, i: &Instruction, rnd: Round) -> LResult<()> {
        crate::ctx::operands_exactly(i, 2)?;
        let d = self.dst(&i.operands[0])?;
        if d.comps != 2 {
            return Err(format!(
                "expected a 64-bit register, found {:?}",
                i.operands[0]
            ));
        }
        let x = match self.double_src(&i.operands[1])? {
            Src {
                val: SrcVal::Reg(r),
                ..
            } => r,
            _ => self.pair_of([Src::ZERO, Src::ZERO]),
        };
        let slow = self.sqrt64_needs_slow_path(x);
        let fast = self.sqrt64_newton(x);
        let fast = self.sqrt64_directed(x, fast, rnd);
        let scaled_x = self.dmul_const_hi(x, TWO_POW_106_HI);
        let scaled_root = self.sqrt64_newton(scaled_x);
        let scaled_root = self.sqrt64_directed(scaled_x, scaled_root, rnd);
        let slow_root = self.temp64();
        self.emit(
            Opcode::Mov,
            &[Dst::Reg(slow_root.part(0))],
            &[Src::reg(scaled_root.part(0))],
        );
        self.iadd_hi(slow_root, scaled_root, (53 * EXPONENT_ONE).wrapping_neg());
        let special = self.sqrt64_special(x, slow_root);
        for half in 0..2 {
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(d.part(half))],
                &[
                    Src::reg(special.part(half)),
                    Src::reg(fast.part(half)),
                    slow,
                ],
            );
        }
        Ok(())
    }

    /// `hi - 0x03500000 >= 0x7ca00000` (unsigned): not a positive normal from 2^-969 up.
    fn sqrt64_needs_slow_path(&mut self, x: Reg) -> Src {
        let offset = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(offset), Dst::None],
            &[
                Src::reg(x.part(1)),
                Src::imm(FAST_MIN_HI.wrapping_neg()),
                Src::ZERO,
            ],
        );
        self.isetp_u32(IntCmp::Ge, Src::reg(offset), Src::imm(FAST_SPAN))
    }

    /// ptxas's fast path on `x` (see the file's comment).
    fn sqrt64_newton(&mut self, x: Reg) -> Reg {
        let rsq_hi = self.temp();
        self.emit(
            Opcode::Mufu {
                func: MufuFunc::Rsq64h,
            },
            &[Dst::Reg(rsq_hi)],
            &[Src::reg(x.part(1))],
        );
        let r = self.pair_of([Src::ZERO, Src::reg(rsq_hi)]);
        let one = self.pair_of([Src::ZERO, Src::imm(ONE_HI)]);
        let half = self.pair_of([Src::ZERO, Src::imm(HALF_HI)]);
        let three_eighths = self.pair_of([Src::ZERO, Src::imm(THREE_EIGHTHS_HI)]);
        let r2 = self.dop(Opcode::Dmul { rnd: Round::Rn }, &[r, r]);
        let e = self.dfma(Src::reg(x), Src::reg(r2).negated(), one);
        let h = self.dfma(Src::reg(e), Src::reg(three_eighths), half);
        let g = self.dop(Opcode::Dmul { rnd: Round::Rn }, &[r, e]);
        let refined = self.dfma(Src::reg(h), Src::reg(g), r);
        let y = self.dop(Opcode::Dmul { rnd: Round::Rn }, &[x, refined]);
        let half_refined = self.temp64();
        self.emit(
            Opcode::Mov,
            &[Dst::Reg(half_refined.part(0))],
            &[Src::reg(refined.part(0))],
        );
        self.iadd_hi(half_refined, refined, EXPONENT_ONE.wrapping_neg());
        let err = self.dfma(Src::reg(y), Src::reg(y).negated(), x);
        self.dfma(Src::reg(err), Src::reg(half_refined), y)
    }

    /// The slow path's answer given the scaled root: `x + x` for +-0, NaN and +inf, the NaN
    /// 0xfff80000_00000000 for other negative `x`, `scaled` otherwise.
    fn sqrt64_special(&mut self, x: Reg, scaled: Reg) -> Reg {
        let zero = self.temp_pred();
        let op = Opcode::Dsetp {
            test: DoubleTest::Cmp(FloatCmp::Equ),
            combine: BoolOp::And,
        };
        self.emit(
            op,
            &[Dst::Reg(zero), Dst::None],
            &[Src::reg(x), Src::ZERO, Src::TRUE],
        );
        let hi = Src::reg(x.part(1));
        // +-0, NaN or +inf: x + x.
        let keep_x = self.temp_pred();
        let op = Opcode::Isetp {
            cmp: IntCmp::Gt,
            signed: true,
            combine: BoolOp::Or,
            ex: false,
        };
        self.emit(
            op,
            &[Dst::Reg(keep_x), Dst::None],
            &[hi, Src::imm(MAX_FINITE_HI), Src::reg(zero)],
        );
        let negative = self.isetp_signed(IntCmp::Lt, hi, Src::ZERO);
        let doubled = self.dop(Opcode::Dadd { rnd: Round::Rn }, &[x, x]);
        // negative ? NaN : scaled (the low word of the NaN is zero).
        let signed = self.temp64();
        let nan_hi = self.in_reg(Src::imm(NEGATIVE_NAN_HI));
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(signed.part(1))],
            &[nan_hi, Src::reg(scaled.part(1)), Src::reg(negative)],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(signed.part(0))],
            &[Src::ZERO, Src::reg(scaled.part(0)), Src::reg(negative)],
        );
        let out = self.temp64();
        for half in 0..2 {
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(out.part(half))],
                &[
                    Src::reg(doubled.part(half)),
                    Src::reg(signed.part(half)),
                    Src::reg(keep_x),
                ],
            );
        }
        out
    }

    /// `x * c` for the f64 whose high word is `c_hi` (low word zero).
    fn dmul_const_hi(&mut self, x: Reg, c_hi: u32) -> Reg {
        let c = self.pair_of([Src::ZERO, Src::imm(c_hi)]);
        self.dop(Opcode::Dmul { rnd: Round::Rn }, &[x, c])
    }

    /// A two-source FP64 op on register pairs.
    fn dop(&mut self, op: Opcode, srcs: &[Reg; 2]) -> Reg {
        let d = self.temp64();
        self.emit(op, &[Dst::Reg(d)], &[Src::reg(srcs[0]), Src::reg(srcs[1])]);
        d
    }

    /// `DFMA d, a, b, c` (round to nearest).
    fn dfma(&mut self, a: Src, b: Src, c: Reg) -> Reg {
        let d = self.temp64();
        self.emit(
            Opcode::Dfma { rnd: Round::Rn },
            &[Dst::Reg(d)],
            &[a, b, Src::reg(c)],
        );
        d
    }

    /// `d.hi = a.hi + k`.
    fn iadd_hi(&mut self, d: Reg, a: Reg, k: u32) {
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[Src::reg(a.part(1)), Src::imm(k), Src::ZERO],
        );
    }

    fn isetp_u32(&mut self, cmp: IntCmp, a: Src, b: Src) -> Src {
        Src::reg(self.isetp_into(cmp, false, a, b))
    }

    fn isetp_signed(&mut self, cmp: IntCmp, a: Src, b: Src) -> Reg {
        self.isetp_into(cmp, true, a, b)
    }

    fn isetp_into(&mut self, cmp: IntCmp, signed: bool, a: Src, b: Src) -> Reg {
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp,
            signed,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        p
    }
}
