//! `createpolicy`: the 64-bit L2 cache policies that `.L2::cache_hint` accesses take (as their
//! memory descriptor), built as ptxas builds them (learnt from its SASS). The low word is 0; the high word holds bit 28,
//! the primary priority at 25..26 (evict_unchanged 0, evict_first 1, evict_last 2,
//! evict_normal 3), a secondary evict_first at bit 24, and then
//! - `.fractional`: the fraction of lines at 20..23, `trunc(fraction * 15.99)`;
//! - `.range`: bit 27, a granule of `2^g` bytes (`g = max(ceil(log2(total)) - 7, 12)`) with
//!   `g - 12` at 20..23, the first granule's low 7 bits at 12..18 and the number of granules the
//!   primary range spans (at most 127) at 5..11; a total size of 0 gives `0x18000000` alone.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{unsupported, Ctx, LResult};

/// Bit 28, set in every policy.
const POLICY_VALID: u32 = 1 << 28;
/// Bit 27: an address-range policy.
const POLICY_RANGE: u32 = 1 << 27;
/// The policy of a range whose total size is 0.
const EMPTY_RANGE: u32 = POLICY_VALID | POLICY_RANGE;
/// ptxas scales a fraction by this (just under 16) before truncating it to 4 bits.
const FRACTION_SCALE: f32 = 15.99;
/// `(a & b) | c`.
const LUT_AND_OR: u8 = 0xea;
/// `a | b`.
const LUT_OR: u8 = 0xfc;

/// The priority bits of `i`'s `.L2::evict_*` modifiers (primary, then the optional secondary).
fn priority_bits(i: &Instruction) -> Option<u32> {
    let mut priorities = i.mods().iter().filter_map(|m| m.strip_prefix("L2::"));
    let primary = match priorities.next()? {
        "evict_unchanged" => 0,
        "evict_first" => 1,
        "evict_last" => 2,
        "evict_normal" => 3,
        _ => return None,
    };
    let secondary = match priorities.next() {
        None | Some("evict_unchanged") => 0,
        Some("evict_first") => 1,
        Some(_) => return None,
    };
    Some(POLICY_VALID | primary << 25 | secondary << 24)
}

/// The 4-bit field of a fraction, as ptxas's FMUL and truncating F2I compute it.
fn fraction_field(fraction: f32) -> u32 {
    ((fraction * FRACTION_SCALE) as u32) & 0xf
}

impl Ctx<'_> {
    pub(crate) fn lower_createpolicy(&mut self, i: &Instruction) -> LResult<()> {
        let bits = priority_bits(i).ok_or_else(|| unsupported(i))?;
        let d = match i.operands.first() {
            Some(op) => self.dst(op)?,
            None => return Err(unsupported(i)),
        };
        let high = if i.has_mod("fractional") {
            self.fractional_policy(i, bits)?
        } else if i.has_mod("range") && i.has_mod("global") && i.operands.len() == 4 {
            self.range_policy(i, bits | POLICY_RANGE)?
        } else {
            return Err(unsupported(i));
        };
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[Src::ZERO]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[high]);
        Ok(())
    }

    /// The memory descriptor of an access with `.L2::cache_hint`: its 64-bit policy operand in a
    /// uniform register pair, as ptxas passes it (`LDG.E R0, desc[UR6][R2.64]`).
    pub(crate) fn policy_descriptor(&mut self, policy: &Operand) -> LResult<Reg> {
        let (lo, hi) = self.src64(policy)?;
        Ok(self.uniform_pair(lo, hi))
    }

    /// The high word of `createpolicy.fractional d[, fraction]` (a fraction of 1 by default).
    fn fractional_policy(&mut self, i: &Instruction, bits: u32) -> LResult<Src> {
        let fraction = match i.operands.get(1) {
            None => return Ok(Src::imm(bits | fraction_field(1.0) << 20)),
            Some(Operand::F32(b)) => f32::from_bits(*b),
            Some(Operand::F64(b)) => f64::from_bits(*b) as f32,
            Some(op) => {
                let f = self.reg_src32(op)?;
                let field = self.scaled_fraction(f);
                return Ok(self.and_or(field, 0xf0_0000, bits));
            }
        };
        Ok(Src::imm(bits | fraction_field(fraction) << 20))
    }

    /// `trunc(f * 15.99) << 20`.
    fn scaled_fraction(&mut self, f: Src) -> Src {
        let scaled = self.temp();
        let fmul = Opcode::Fmul { ftz: false };
        let scale = Src::imm(FRACTION_SCALE.to_bits());
        self.emit(fmul, &[Dst::Reg(scaled)], &[f, scale]);
        let n = self.temp();
        let f2i = Opcode::F2i {
            signed: false,
            truncate: true,
        };
        self.emit(f2i, &[Dst::Reg(n)], &[Src::reg(scaled)]);
        self.shl(Src::reg(n), 20)
    }

    /// The high word of `createpolicy.range.global d, [a], primary_size, total_size`.
    fn range_policy(&mut self, i: &Instruction, bits: u32) -> LResult<Src> {
        let (lo, hi) = self.policy_address(&i.operands[1])?;
        let primary = self.reg_src32(&i.operands[2])?;
        let total = self.reg_src32(&i.operands[3])?;
        let g = self.granule_log2(total);
        let first = self.shift_right64(lo, hi, g);
        let granule = self.temp();
        let shf = |right, wide, hi| Opcode::Shf {
            right,
            signed: false,
            wide,
            hi,
        };
        let one = self.in_reg(Src::imm(1));
        self.emit(
            shf(false, false, false),
            &[Dst::Reg(granule)],
            &[one, g, Src::ZERO],
        );
        // end = (a + primary + granule - 1) >> g
        let span = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(span), Dst::None],
            &[Src::reg(granule), Src::imm(u32::MAX), primary],
        );
        let sum = self.temp64();
        self.add64_parts(sum, (lo, hi), (Src::reg(span), Src::ZERO));
        let end = self.shift_right64(Src::reg(sum.part(0)), Src::reg(sum.part(1)), g);
        let count = self.temp64();
        self.sub64_parts(count, end.0, end.1, first.0, first.1);
        let clamped = self.clamp_count(count);
        // The fields: granule index, g - 12, count.
        let g12 = self.temp();
        let add = Opcode::Iadd3 { x: false };
        self.emit(
            add,
            &[Dst::Reg(g12), Dst::None],
            &[g, Src::imm((-12i32) as u32), Src::ZERO],
        );
        let w = self.shl(first.0, 12);
        let w = self.and_or(w, 0x7_f000, bits);
        let f = self.shl(Src::reg(g12), 20);
        let f = self.and_or(f, 0xf0_0000, 0);
        let w = self.or(f, w);
        let c = self.shl(clamped, 5);
        let c = self.and_or(c, 0xfe0, 0);
        let w = self.or(c, w);
        // A total size of 0: the empty range's word.
        let nonzero = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Ne,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(nonzero), Dst::None],
            &[total, Src::ZERO, Src::TRUE],
        );
        let out = self.temp();
        let empty = Src::imm(EMPTY_RANGE);
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(out)],
            &[w, empty, Src::reg(nonzero)],
        );
        Ok(Src::reg(out))
    }

    /// The address operand's two words (a 64-bit register plus an offset).
    fn policy_address(&mut self, op: &Operand) -> LResult<(Src, Src)> {
        let Operand::Addr {
            base: AddrBase::Reg(r),
            offset,
        } = op
        else {
            return Err(format!("createpolicy address {op:?} is not supported yet"));
        };
        let (lo, hi) = self.src64(&Operand::Reg(r.clone()))?;
        if *offset == 0 {
            return Ok((lo, hi));
        }
        let sum = self.temp64();
        let off = (*offset as u64 as u32, (*offset as u64 >> 32) as u32);
        let off = (Src::imm(off.0), self.in_reg(Src::imm(off.1)));
        self.add64_parts(sum, (lo, hi), off);
        Ok((Src::reg(sum.part(0)), Src::reg(sum.part(1))))
    }

    /// `g = max(ceil(log2(total)) - 7, 12)`, with MUFU.LG2 as ptxas computes it.
    fn granule_log2(&mut self, total: Src) -> Src {
        let f = self.temp();
        let i2f = if self.sm.num >= 86 {
            Opcode::I2fp { signed: false }
        } else {
            Opcode::I2f { signed: false }
        };
        self.emit(i2f, &[Dst::Reg(f)], &[total]);
        let l = self.temp();
        let lg2 = Opcode::Mufu {
            func: MufuFunc::Lg2,
        };
        self.emit(lg2, &[Dst::Reg(l)], &[Src::reg(f)]);
        let c = self.temp();
        let ceil = Opcode::F2iWide {
            dst: NumFormat::U32,
            src: NumFormat::F32,
            rnd: Round::Rp,
        };
        self.emit(ceil, &[Dst::Reg(c)], &[Src::reg(l)]);
        let g = self.temp();
        let add = Opcode::Iadd3 { x: false };
        self.emit(
            add,
            &[Dst::Reg(g), Dst::None],
            &[Src::reg(c), Src::imm((-7i32) as u32), Src::ZERO],
        );
        // max(g, 12) as a compare and select (IMNMX is VIMNMX from sm_90).
        let above = self.temp_pred();
        let isetp = Opcode::Isetp {
            cmp: IntCmp::Gt,
            signed: true,
            combine: BoolOp::And,
            ex: false,
        };
        let g = Src::reg(g);
        self.emit(
            isetp,
            &[Dst::Reg(above), Dst::None],
            &[g, Src::imm(12), Src::TRUE],
        );
        let max = self.temp();
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(max)],
            &[g, Src::imm(12), Src::reg(above)],
        );
        Src::reg(max)
    }

    /// `(hi:lo) >> g` (g below 32), as two words.
    fn shift_right64(&mut self, lo: Src, hi: Src, g: Src) -> (Src, Src) {
        let (l, h) = (self.temp(), self.temp());
        let shf = |wide, high| Opcode::Shf {
            right: true,
            signed: false,
            wide,
            hi: high,
        };
        let hi = self.in_reg(hi);
        self.emit(shf(true, false), &[Dst::Reg(l)], &[lo, g, hi]);
        self.emit(shf(false, true), &[Dst::Reg(h)], &[Src::ZERO, g, hi]);
        (Src::reg(l), Src::reg(h))
    }

    /// `min(count, 127)` of a 64-bit count.
    fn clamp_count(&mut self, count: Reg) -> Src {
        let small = self.temp_pred();
        let isetp = |cmp| Opcode::Isetp {
            cmp,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        let high_zero = self.temp_pred();
        let hi = Src::reg(count.part(1));
        self.emit(
            isetp(IntCmp::Eq),
            &[Dst::Reg(high_zero), Dst::None],
            &[hi, Src::ZERO, Src::TRUE],
        );
        let lo = Src::reg(count.part(0));
        let below = Src::imm(0x7f);
        let acc = Src::reg(high_zero);
        self.emit(
            isetp(IntCmp::Lt),
            &[Dst::Reg(small), Dst::None],
            &[lo, below, acc],
        );
        let out = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(out)], &[lo, below, Src::reg(small)]);
        Src::reg(out)
    }

    /// `a << n` (32 bits).
    fn shl(&mut self, a: Src, n: u32) -> Src {
        let d = self.temp();
        let shf = Opcode::Shf {
            right: false,
            signed: false,
            wide: false,
            hi: false,
        };
        let a = self.in_reg(a);
        self.emit(shf, &[Dst::Reg(d)], &[a, Src::imm(n), Src::ZERO]);
        Src::reg(d)
    }

    /// `a | b`.
    fn or(&mut self, a: Src, b: Src) -> Src {
        let d = self.temp();
        let lop = Opcode::Lop3 { lut: LUT_OR };
        self.emit(
            lop,
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::ZERO, Src::FALSE],
        );
        Src::reg(d)
    }

    /// `(a & mask) | or`.
    fn and_or(&mut self, a: Src, mask: u32, or: u32) -> Src {
        let d = self.temp();
        let or = self.in_reg(Src::imm(or));
        let lop = Opcode::Lop3 { lut: LUT_AND_OR };
        self.emit(
            lop,
            &[Dst::Reg(d), Dst::None],
            &[a, Src::imm(mask), or, Src::FALSE],
        );
        Src::reg(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields ptxas 13.5 wrote for constant fractions (0.1, 0.5, 1.0).
    #[test]
    fn fraction_fields_are_ptxas_fields() {
        assert_eq!(fraction_field(0.1), 1);
        assert_eq!(fraction_field(0.5), 7);
        assert_eq!(fraction_field(1.0), 15);
    }
}
