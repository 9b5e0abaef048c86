//! `fns.b32 d, mask, base, offset`: the `|offset|`-th set bit of `mask` from `base` upwards
//! (offset > 0) or downwards (offset < 0; the search runs upwards on the bit-reversed mask from
//! `31 - base`, the position reflected back), `base` itself when offset is 0 and its bit is set,
//! 0xffffffff when there is none. As ptxas: the mask cut below the start by a clamping SHF, then a
//! binary search with POPC over halves 16, 8, 4, 2, 1; here branch-free (SEL where ptxas branches
//! on the offset's sign and predicates the search steps).

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::{Ctx, LResult};

const LUT_AND: u8 = 0xc0;

fn isetp(cmp: IntCmp, signed: bool) -> Opcode {
    Opcode::Isetp {
        cmp,
        signed,
        combine: BoolOp::And,
        ex: false,
    }
}

const SHL: Opcode = Opcode::Shf {
    right: false,
    signed: false,
    wide: false,
    hi: false,
};

const SHR: Opcode = Opcode::Shf {
    right: true,
    signed: false,
    wide: false,
    hi: true,
};

impl Ctx<'_> {
    pub(crate) fn lower_fns(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let mask = self.reg_src32(&o[1])?;
        let base = self.reg_src32(&o[2])?;
        let offset = self.reg_src32(&o[3])?;
        let zero = self.fns_compare(IntCmp::Eq, true, offset, Src::ZERO);
        let down = self.fns_compare(IntCmp::Lt, true, offset, Src::ZERO);
        // The mask searched upwards: bit-reversed going down, only `base`'s bit for offset 0.
        let reversed = self.fns_value(Opcode::Brev, &[mask]);
        let one = self.fns_value(Opcode::Mov, &[Src::imm(1)]);
        let base_bit = self.fns_value(SHL, &[one, base, Src::ZERO]);
        let only_base = self.fns_and(mask, base_bit);
        let m = self.fns_select(reversed, mask, down);
        let m = self.fns_select(only_base, m, zero);
        // The start: 31 - base going down; the count: |offset|, 1 for offset 0.
        let mirrored = self.fns_value(
            Opcode::Iadd3 { x: false },
            &[base.negated(), Src::imm(31), Src::ZERO],
        );
        let start = self.fns_select(mirrored, base, down);
        let minus = self.fns_value(
            Opcode::Iadd3 { x: false },
            &[offset.negated(), Src::ZERO, Src::ZERO],
        );
        let n = self.fns_select(minus, offset, down);
        let n = self.fns_select(one, n, zero);
        let ones = self.fns_value(Opcode::Mov, &[Src::imm(u32::MAX)]);
        let from_start = self.fns_value(SHL, &[ones, start, Src::ZERO]);
        let m = self.fns_and(m, from_start);
        let total = self.fns_value(Opcode::Popc, &[m]);
        let pos = self.nth_set_bit(m, n);
        let reflected = self.fns_value(
            Opcode::Iadd3 { x: false },
            &[pos.negated(), Src::imm(31), Src::ZERO],
        );
        let found_pos = self.fns_select(reflected, pos, down);
        let found = self.fns_compare(IntCmp::Ge, false, total, n);
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[found_pos, Src::imm(u32::MAX), found],
        );
        Ok(())
    }

    /// The position of the `n`-th (from 1) set bit of `m` from bit 0, when `popc(m) >= n`.
    fn nth_set_bit(&mut self, m: Src, n: Src) -> Src {
        let (mut x, mut k, mut pos) = (m, n, Src::ZERO);
        for width in [16u32, 8, 4, 2, 1] {
            let low_bits = Src::imm((1u32 << width) - 1);
            let low = self.fns_and(x, low_bits);
            let count = self.fns_value(Opcode::Popc, &[low]);
            // Fewer than k set bits in the low `width`: the bit is above them.
            let above = self.fns_compare(IntCmp::Lt, false, count, k);
            let moved = self.fns_value(
                Opcode::Iadd3 { x: false },
                &[pos, Src::imm(width), Src::ZERO],
            );
            pos = self.fns_select(moved, pos, above);
            if width > 1 {
                let shifted = self.fns_value(SHR, &[Src::ZERO, Src::imm(width), x]);
                x = self.fns_select(shifted, x, above);
                let left =
                    self.fns_value(Opcode::Iadd3 { x: false }, &[k, count.negated(), Src::ZERO]);
                k = self.fns_select(left, k, above);
            }
        }
        pos
    }

    /// A new register holding `op`'s result on `srcs`.
    fn fns_value(&mut self, op: Opcode, srcs: &[Src]) -> Src {
        let t = self.temp();
        match op {
            Opcode::Iadd3 { .. } => self.emit(op, &[Dst::Reg(t), Dst::None], srcs),
            _ => self.emit(op, &[Dst::Reg(t)], srcs),
        }
        Src::reg(t)
    }

    fn fns_and(&mut self, a: Src, b: Src) -> Src {
        let t = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_AND },
            &[Dst::Reg(t), Dst::None],
            &[a, b, Src::ZERO, Src::FALSE],
        );
        Src::reg(t)
    }

    /// `p ? a : b`.
    fn fns_select(&mut self, a: Src, b: Src, p: Src) -> Src {
        let t = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(t)], &[a, b, p]);
        Src::reg(t)
    }

    /// A predicate: `a cmp b`.
    fn fns_compare(&mut self, cmp: IntCmp, signed: bool, a: Src, b: Src) -> Src {
        let p = self.temp_pred();
        self.emit(
            isetp(cmp, signed),
            &[Dst::Reg(p), Dst::None],
            &[a, b, Src::TRUE],
        );
        Src::reg(p)
    }
}
