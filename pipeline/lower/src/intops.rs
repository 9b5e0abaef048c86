//! `bfe` (32- and 64-bit), the carry chains (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`,
//! `madc`) and `dp4a`/`dp2a`, as ptxas selects them: SHF + SGXT (PRMT for a byte at 0), the
//! 64-bit field through a funnel shift and a mask; IADD3 with a carry-out predicate and IADD3.X
//! taking it back in; IDP.4A / IDP.2A.
//!
//! PTX's one carry flag (CC.CF) is a predicate virtual register per function, bound to the name
//! [`CARRY`]; it holds the hardware's carry (for subtraction: no borrow), as IADD3 writes it.

use ptxforge_ptx::ast::{Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// The name the carry flag's predicate is bound to (no PTX register can be called so).
const CARRY: &str = "%CC.CF";

const LUT_AND: u8 = 0xc0;
const LUT_NOT_A: u8 = 0x0f;
/// `a | (~b & c)`: a negative field's ones (c) above its length (outside the mask b).
const LUT_OR_ABOVE: u8 = 0xf2;

fn imm(op: &Operand) -> Option<u32> {
    match op {
        Operand::Imm(v) => Some(*v as u32),
        _ => None,
    }
}

pub(crate) fn shf(right: bool, signed: bool, wide: bool, hi: bool) -> Opcode {
    Opcode::Shf {
        right,
        signed,
        wide,
        hi,
    }
}

/// Whether the instruction reads or writes the carry flag.
pub(crate) fn uses_carry(i: &Instruction) -> bool {
    i.has_mod("cc") || matches!(i.opcode(), "addc" | "subc" | "madc")
}

impl Ctx<'_> {
    /// `bfe.{u32,s32,u64,s64} d, a, pos, len`.
    pub(crate) fn lower_bfe(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = operands(i, 4)?;
        if ty.size_bytes() == 8 {
            return self.bfe64(i, ty.is_signed());
        }
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let signed = ty.is_signed();
        match (imm(&o[2]), imm(&o[3])) {
            (Some(pos), Some(len)) => self.bfe32_imm(d, a, pos & 0xff, len & 0xff, signed),
            _ => {
                let pos = self.field_byte(&o[2], 0x4)?;
                let len = self.field_byte(&o[3], 0x4)?;
                let t = self.temp();
                self.emit(
                    shf(true, signed, false, true),
                    &[Dst::Reg(t)],
                    &[Src::ZERO, pos, a],
                );
                self.emit(
                    Opcode::Sgxt {
                        signed,
                        wrap: false,
                    },
                    &[Dst::Reg(d)],
                    &[Src::reg(t), len],
                );
            }
        }
        Ok(())
    }

    /// A position or length operand's low byte (what `bfe` and `bfi` read): an immediate's, or PRMT's.
    pub(crate) fn field_byte(&mut self, op: &Operand, selector: u32) -> LResult<Src> {
        if let Some(v) = imm(op) {
            return Ok(Src::imm(v & 0xff));
        }
        let s = self.reg_src32(op)?;
        let t = self.temp();
        self.emit(
            Opcode::Prmt {
                mode: PrmtMode::Index,
            },
            &[Dst::Reg(t)],
            &[Src::ZERO, Src::imm(selector), s],
        );
        Ok(Src::reg(t))
    }

    /// Immediate fields: a byte at 0 is PRMT's, an empty field 0, else SHF (when pos > 0) + SGXT.
    fn bfe32_imm(&mut self, d: Reg, a: Src, pos: u32, len: u32, signed: bool) {
        if len == 0 {
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::ZERO]);
            return;
        }
        if pos == 0 && len == 8 && !signed {
            let prmt = Opcode::Prmt {
                mode: PrmtMode::Index,
            };
            self.emit(prmt, &[Dst::Reg(d)], &[a, Src::imm(0x7770), Src::ZERO]);
            return;
        }
        let shifted = if pos == 0 {
            a
        } else {
            let t = self.temp();
            self.emit(
                shf(true, signed, false, true),
                &[Dst::Reg(t)],
                &[Src::ZERO, Src::imm(pos.min(32)), a],
            );
            Src::reg(t)
        };
        self.emit(
            Opcode::Sgxt {
                signed,
                wrap: false,
            },
            &[Dst::Reg(d)],
            &[shifted, Src::imm(len)],
        );
    }

    /// 64-bit `bfe`: the value shifted right by pos (funnel SHF, clamped), masked to `len` bits
    /// ((1 << len) - 1 on the pair); a signed field whose bit len-1 is set gets ones above it.
    fn bfe64(&mut self, i: &Instruction, signed: bool) -> LResult<()> {
        let o = &i.operands;
        let d = self.dst(&o[0])?;
        let (lo, hi) = self.src64(&o[1])?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let pos = self.field_byte(&o[2], 0x4)?;
        let len = self.field_byte(&o[3], 0x4)?;
        let (tl, th) = (self.temp(), self.temp());
        self.emit(
            shf(true, signed, true, false),
            &[Dst::Reg(tl)],
            &[lo, pos, hi],
        );
        self.emit(
            shf(true, signed, false, true),
            &[Dst::Reg(th)],
            &[Src::ZERO, pos, hi],
        );
        let (ml, mh) = self.low_mask64(len);
        let (xl, xh) = (d.part(0), d.part(1));
        for (x, t, m) in [(xl, tl, ml), (xh, th, mh)] {
            self.emit(
                Opcode::Lop3 { lut: LUT_AND },
                &[Dst::Reg(x), Dst::None],
                &[Src::reg(t), m, Src::ZERO, Src::FALSE],
            );
        }
        if !signed {
            return Ok(());
        }
        // Bit len-1 of the field: the pair shifted right by len-1 (clamped: none for len 0).
        let lm1 = match len.val {
            SrcVal::Imm(v) => Src::imm(v.wrapping_sub(1)),
            _ => {
                let t = self.temp();
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(t), Dst::None],
                    &[len, Src::imm(u32::MAX), Src::ZERO],
                );
                Src::reg(t)
            }
        };
        let (sl, sh) = (self.temp(), self.temp());
        self.emit(
            shf(true, false, true, false),
            &[Dst::Reg(sl)],
            &[Src::reg(xl), lm1, Src::reg(xh)],
        );
        self.emit(
            shf(true, false, false, true),
            &[Dst::Reg(sh)],
            &[Src::ZERO, lm1, Src::reg(xh)],
        );
        let neg = self.temp_pred();
        self.emit(
            Opcode::Lop3 { lut: 0xfc },
            &[Dst::Reg(sl), Dst::None],
            &[Src::reg(sl), Src::reg(sh), Src::ZERO, Src::FALSE],
        );
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Ne,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(neg), Dst::None],
            &[Src::reg(sl), Src::ZERO, Src::TRUE],
        );
        let ones = self.temp();
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(ones)],
            &[Src::ZERO, Src::imm(u32::MAX), Src::reg(neg).negated()],
        );
        for (x, m) in [(xl, ml), (xh, mh)] {
            self.emit(
                Opcode::Lop3 { lut: LUT_OR_ABOVE },
                &[Dst::Reg(x), Dst::None],
                &[Src::reg(x), m, Src::reg(ones), Src::FALSE],
            );
        }
        Ok(())
    }

    /// (1 << len) - 1 as a pair (all ones from 64 on): immediates for an immediate length.
    pub(crate) fn low_mask64(&mut self, len: Src) -> (Src, Src) {
        if let SrcVal::Imm(n) = len.val {
            let m = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            return (Src::imm(m as u32), Src::imm((m >> 32) as u32));
        }
        let (one, pl, ph) = (self.temp(), self.temp(), self.temp());
        self.emit(Opcode::Mov, &[Dst::Reg(one)], &[Src::imm(1)]);
        self.emit(
            shf(false, false, false, false),
            &[Dst::Reg(pl)],
            &[Src::reg(one), len, Src::ZERO],
        );
        self.emit(
            shf(false, false, true, true),
            &[Dst::Reg(ph)],
            &[Src::reg(one), len, Src::ZERO],
        );
        let (ml, mh, c) = (self.temp(), self.temp(), self.temp_pred());
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(ml), Dst::Reg(c)],
            &[Src::reg(pl), Src::imm(u32::MAX), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(mh), Dst::None],
            &[
                Src::reg(ph),
                Src::imm(u32::MAX),
                Src::ZERO,
                Src::reg(c),
                Src::FALSE,
            ],
        );
        (Src::reg(ml), Src::reg(mh))
    }

    /// `dp4a.atype.btype d, a, b, c` and `dp2a.{lo,hi}.atype.btype`: IDP.
    pub(crate) fn lower_dot(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 4)?;
        let types = i.types();
        let [ta, tb] = types.as_slice() else {
            return Err(unsupported(i));
        };
        let pairs = i.opcode() == "dp2a";
        let op = Opcode::Idp {
            pairs,
            hi: pairs && i.has_mod("hi"),
            a_signed: ta.is_signed(),
            b_signed: tb.is_signed(),
        };
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.reg_src32(&o[2])?;
        let c = self.reg_src32(&o[3])?;
        self.emit(op, &[Dst::Reg(d)], &[a, b, c]);
        Ok(())
    }

    /// The carry flag's predicate register.
    pub(crate) fn carry_flag(&mut self) -> Reg {
        if let Some(r) = self.bound_vreg(CARRY) {
            return r;
        }
        let r = self.temp_pred();
        self.bind_vreg(CARRY, r);
        r
    }

    /// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]` (32- and 64-bit), `mad{.lo,.hi}.cc` and
    /// `madc{.lo,.hi}[.cc]` (32-bit).
    pub(crate) fn lower_carry(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let (op, wide) = (i.opcode(), ty.size_bytes() == 8);
        if i.has_mod("sat") || !matches!(ty.size_bytes(), 4 | 8) {
            return Err(unsupported(i));
        }
        let carry_in = if matches!(op, "addc" | "subc" | "madc") {
            Src::reg(self.carry_flag())
        } else {
            Src::FALSE
        };
        let carry_out = if i.has_mod("cc") {
            Dst::Reg(self.carry_flag())
        } else {
            Dst::None
        };
        match op {
            "add" | "addc" | "sub" | "subc" => {
                let o = operands(i, 3)?;
                let sub = op.starts_with("sub");
                let d = self.dst(&o[0])?;
                if wide {
                    let (al, ah) = self.src64(&o[1])?;
                    let (bl, bh) = self.src64(&o[2])?;
                    let mid = self.temp_pred();
                    self.add_word(d.part(0), (al, bl), sub, carry_in, Dst::Reg(mid));
                    self.add_word(d.part(1), (ah, bh), sub, Src::reg(mid), carry_out);
                } else {
                    let (a, b) = (self.src32(&o[1])?, self.src32(&o[2])?);
                    self.add_word(d, (a, b), sub, carry_in, carry_out);
                }
                Ok(())
            }
            "mad" | "madc" if wide => self.mad64(i, ty),
            "mad" | "madc" if !i.has_mod("wide") => {
                let o = operands(i, 4)?;
                let d = self.dst(&o[0])?;
                let a = self.reg_src32(&o[1])?;
                let b = self.reg_src32(&o[2])?;
                let c = self.src32(&o[3])?;
                let p = self.temp();
                let mode = if i.has_mod("hi") {
                    ImadMode::Hi
                } else {
                    ImadMode::Lo
                };
                let imad = Opcode::Imad {
                    mode,
                    signed: ty.is_signed(),
                    x: false,
                };
                self.emit(imad, &[Dst::Reg(p)], &[a, b, Src::ZERO]);
                self.add_word(d, (Src::reg(p), c), false, carry_in, carry_out);
                Ok(())
            }
            _ => Err(unsupported(i)),
        }
    }

    /// One 32-bit word: `d = a + b` (IADD3) or, with a carry in, `a + b + carry` (IADD3.X);
    /// `sub` subtracts (`a - b`, with a carry in `a + ~b + carry`); the carry out into `out`.
    pub(crate) fn add_word(&mut self, d: Reg, (a, b): (Src, Src), sub: bool, carry: Src, out: Dst) {
        let a = self.in_reg(a);
        let with_carry = carry != Src::FALSE;
        let b = match (sub, with_carry) {
            (false, _) => b,
            (true, false) => self.in_reg(b).negated(),
            (true, true) => {
                let b = self.in_reg(b);
                let nb = self.temp();
                self.emit(
                    Opcode::Lop3 { lut: LUT_NOT_A },
                    &[Dst::Reg(nb), Dst::None],
                    &[b, Src::ZERO, Src::ZERO, Src::FALSE],
                );
                Src::reg(nb)
            }
        };
        if with_carry {
            self.emit(
                Opcode::Iadd3 { x: true },
                &[Dst::Reg(d), out],
                &[a, b, Src::ZERO, carry, Src::FALSE],
            );
        } else {
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d), out],
                &[a, b, Src::ZERO],
            );
        }
    }
}
