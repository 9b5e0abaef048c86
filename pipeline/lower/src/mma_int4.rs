//! sm_90's 4-bit `mma` (s4/u4 m8n8k32, m16n8k32, m16n8k64), which Hopper's IMMA does not take:
//! as ptxas 13.5 does, each 4-bit fragment register is widened to two 8-bit ones (nibbles 0..3 and
//! 4..7, sign- or zero-extended to bytes), two 8-bit IMMAs of half the K (8816, 16816, 16832) run
//! on the low and the high halves with a zero accumulator, and C is added (saturating with
//! `.satfinite`: the partial sums are small, so only the last addition can overflow).
//!
//! Both halves keep A's and B's K indices paired: the low bytes of A's register j hold columns
//! `8t + 0..3` (of its K block) and the low bytes of B's the same rows, as the 8-bit shapes read
//! them at `4t + 0..3`.

use ptxforge_sass::imma::{ImmaShape, IntElem};
use ptxforge_sass::ir::*;

use crate::ctx::Ctx;

/// The 8-bit shape of half the K and the element kind a 4-bit one widens to.
pub fn widened(shape: ImmaShape, e: IntElem) -> Option<(ImmaShape, IntElem)> {
    let half = match shape {
        ImmaShape::M8N8K32 => ImmaShape::M8N8K16,
        ImmaShape::M16N8K32 => ImmaShape::M16N8K16,
        ImmaShape::M16N8K64 => ImmaShape::M16N8K32,
        _ => return None,
    };
    let wide = match e {
        IntElem::S4 => IntElem::S8,
        IntElem::U4 => IntElem::U8,
        _ => return None,
    };
    Some((half, wide))
}

impl Ctx<'_> {
    /// D = C + IMMA(A_lo, B_lo) + IMMA(A_hi, B_hi) for a 4-bit `shape` on sm_90.
    #[allow(clippy::too_many_arguments)]
    pub fn imma_int4(
        &mut self,
        shape: ImmaShape,
        (a_e, b_e): (IntElem, IntElem),
        sat: bool,
        [a, b, c]: [Src; 3],
        (na, nb, acc): (u8, u8, u8),
        d: Reg,
    ) -> Option<()> {
        let (half, a8) = widened(shape, a_e)?;
        let (_, b8) = widened(shape, b_e)?;
        let op = Opcode::Imma {
            shape: half,
            a: a8,
            b: b8,
            sat: false,
            scoreboarded: false,
        };
        let mut parts = Vec::new();
        for high in [false, true] {
            let wa = self.widen_group(a, na, a_e.signed(), high);
            let wb = self.widen_group(b, nb, b_e.signed(), high);
            let p = self.f.new_vreg(RegFile::Gpr, acc);
            self.emit(op, &[Dst::Reg(p)], &[wa, wb, Src::ZERO]);
            parts.push(p);
        }
        for j in 0..acc {
            let cj = c.as_reg().map_or(Src::ZERO, |r| Src::reg(r.part(j)));
            let (lo, hi) = (Src::reg(parts[0].part(j)), Src::reg(parts[1].part(j)));
            let dj = d.part(j);
            if sat {
                self.add_saturating(dj, cj, lo, hi);
            } else {
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(dj), Dst::None],
                    &[cj, lo, hi],
                );
            }
        }
        Some(())
    }

    /// A group of `n` registers holding the low (or high) nibbles of each register of `s` as bytes.
    fn widen_group(&mut self, s: Src, n: u8, signed: bool, high: bool) -> Src {
        let g = self.f.new_vreg(RegFile::Gpr, n);
        for j in 0..n {
            let w = s.as_reg().map_or(Src::ZERO, |r| Src::reg(r.part(j)));
            self.widen_nibbles(g.part(j), w, signed, high);
        }
        Src::reg(g)
    }

    /// `d` = the four nibbles of `w`'s low (high) half as bytes: PRMT spreads the half's two bytes
    /// to bytes 0 and 2, a shift and LOP3 put each byte's high nibble into the next byte, and for
    /// signed elements IMAD adds 0xf0 to each byte whose bit 3 is set.
    fn widen_nibbles(&mut self, d: Reg, w: Src, signed: bool, high: bool) {
        let spread = self.temp();
        let selector = if high { 0x4342 } else { 0x4140 };
        self.emit(
            Opcode::Prmt {
                mode: PrmtMode::Index,
            },
            &[Dst::Reg(spread)],
            &[w, Src::imm(selector), Src::ZERO],
        );
        let shifted = self.temp();
        self.emit(
            Opcode::Shf {
                right: false,
                signed: false,
                wide: false,
                hi: false,
            },
            &[Dst::Reg(shifted)],
            &[Src::reg(spread), Src::imm(4), Src::ZERO],
        );
        // (shifted | spread) & 0x0f0f0f0f: LUT (a | c) & b.
        let bytes = if signed { self.temp() } else { d };
        self.emit(
            Opcode::Lop3 { lut: 0xc8 },
            &[Dst::Reg(bytes), Dst::None],
            &[
                Src::reg(shifted),
                Src::imm(0x0f0f_0f0f),
                Src::reg(spread),
                Src::FALSE,
            ],
        );
        if !signed {
            return;
        }
        let sign = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(sign), Dst::None],
            &[
                Src::reg(bytes),
                Src::imm(0x0808_0808),
                Src::ZERO,
                Src::FALSE,
            ],
        );
        // Bit 3 times 30 is 0xf0 in the same byte: no carry reaches the next one.
        self.emit(
            Opcode::Imad {
                mode: ImadMode::Lo,
                signed: false,
                x: false,
            },
            &[Dst::Reg(d)],
            &[Src::reg(sign), Src::imm(30), Src::reg(bytes)],
        );
    }

    /// d = c + (x + y), clamped to s32 where the last addition overflows (x + y cannot).
    fn add_saturating(&mut self, d: Reg, c: Src, x: Src, y: Src) {
        let xy = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(xy), Dst::None],
            &[x, y, Src::ZERO],
        );
        let sum = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(sum), Dst::None],
            &[c, Src::reg(xy), Src::ZERO],
        );
        // Overflow iff sum's sign differs from both addends': (sum ^ c) & (sum ^ xy) < 0.
        let v = self.temp();
        let c_reg = self.in_reg(c);
        self.emit(
            Opcode::Lop3 { lut: 0x18 },
            &[Dst::Reg(v), Dst::None],
            &[Src::reg(sum), c_reg, Src::reg(xy), Src::FALSE],
        );
        let over = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(over), Dst::None],
            &[Src::reg(v), Src::ZERO, Src::TRUE],
        );
        let negative = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(negative), Dst::None],
            &[c_reg, Src::ZERO, Src::TRUE],
        );
        let min = self.temp();
        self.emit(Opcode::Mov, &[Dst::Reg(min)], &[Src::imm(0x8000_0000)]);
        let limit = self.temp();
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(limit)],
            &[Src::reg(min), Src::imm(0x7fff_ffff), Src::reg(negative)],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::reg(limit), Src::reg(sum), Src::reg(over)],
        );
    }
}
