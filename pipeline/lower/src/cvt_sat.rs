//! Integer `cvt.sat`: the source clamped to the destination type's range (ISETP + SEL, with the
//! 64-bit compares as a `.EX` pair), then widened as plain `cvt` does.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// The values an integer type holds.
fn range(t: Type) -> (i128, i128) {
    let bits = 8 * t.size_bytes();
    match t.is_signed() {
        true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        false => (0, (1i128 << bits) - 1),
    }
}

impl Ctx<'_> {
    /// `cvt.sat.dt.st d, a` between integer types.
    pub(crate) fn cvt_int_sat(&mut self, i: &Instruction, dt: Type, st: Type) -> LResult<()> {
        let o = operands_exactly(i, 2)?;
        let d = self.dst(&o[0])?;
        let ((dlo, dhi), (slo, shi)) = (range(dt), range(st));
        let lower = (dlo > slo).then_some(dlo);
        let upper = (dhi < shi).then_some(dhi);
        let signed = st.is_signed();
        let (lo, hi) = if st.size_bytes() == 8 {
            let (l, h) = self.src64(&o[1])?;
            let (mut l, mut h) = (self.in_reg(l), self.in_reg(h));
            for (bound, keep) in [(lower, IntCmp::Ge), (upper, IntCmp::Le)] {
                if let Some(b) = bound {
                    (l, h) = self.clamp64(l, h, b, keep, signed);
                }
            }
            (l, h)
        } else {
            let a = self.src32(&o[1])?;
            let a = self.in_reg(a);
            let mut v = self.extend32(a, st.size_bytes(), signed);
            for (bound, keep) in [(lower, IntCmp::Ge), (upper, IntCmp::Le)] {
                if let Some(b) = bound {
                    v = self.clamp32(v, b, keep, signed);
                }
            }
            (v, self.sign_word(v, signed))
        };
        // The clamped value is in the destination's range: its low word is the 32-bit result
        // (sign-extended for narrow signed types), and a 64-bit destination takes both words.
        match dt.size_bytes() {
            8 => self.set_pair(d, lo, hi),
            _ => self.emit(Opcode::Mov, &[Dst::Reg(d)], &[lo]),
        }
        Ok(())
    }

    /// `v` where `v keep bound` holds, else `bound`.
    fn clamp32(&mut self, v: Src, bound: i128, keep: IntCmp, signed: bool) -> Src {
        let (p, r) = (self.temp_pred(), self.temp());
        let b = Src::imm(bound as u32);
        let cmp = Opcode::Isetp {
            cmp: keep,
            signed,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(cmp, &[Dst::Reg(p), Dst::None], &[v, b, Src::TRUE]);
        self.emit(Opcode::Sel, &[Dst::Reg(r)], &[v, b, Src::reg(p)]);
        Src::reg(r)
    }

    /// The 64-bit `(lo, hi)` where it compares `keep` with `bound`, else `bound`.
    fn clamp64(&mut self, lo: Src, hi: Src, bound: i128, keep: IntCmp, signed: bool) -> (Src, Src) {
        let (bl, bh) = (
            Src::imm(bound as u64 as u32),
            Src::imm((bound as u64 >> 32) as u32),
        );
        let (low, p) = (self.temp_pred(), self.temp_pred());
        let cmp = |signed, ex| Opcode::Isetp {
            cmp: keep,
            signed,
            combine: BoolOp::And,
            ex,
        };
        self.emit(
            cmp(false, false),
            &[Dst::Reg(low), Dst::None],
            &[lo, bl, Src::TRUE],
        );
        self.emit(
            cmp(signed, true),
            &[Dst::Reg(p), Dst::None],
            &[hi, bh, Src::TRUE, Src::reg(low)],
        );
        let (rl, rh) = (self.temp(), self.temp());
        self.emit(Opcode::Sel, &[Dst::Reg(rl)], &[lo, bl, Src::reg(p)]);
        self.emit(Opcode::Sel, &[Dst::Reg(rh)], &[hi, bh, Src::reg(p)]);
        (Src::reg(rl), Src::reg(rh))
    }

    /// The high word of `v` widened to 64 bits: its sign (signed) or zero.
    fn sign_word(&mut self, v: Src, signed: bool) -> Src {
        if !signed {
            return Src::ZERO;
        }
        let t = self.temp();
        let sar = Opcode::Shf {
            right: true,
            signed: true,
            wide: false,
            hi: true,
        };
        self.emit(sar, &[Dst::Reg(t)], &[Src::ZERO, Src::imm(31), v]);
        Src::reg(t)
    }
}
