//! `mov` with vector operands: packing registers into a wider one and unpacking it
//! (`mov.b64 %rd, {%r1, %r2}`, `mov.b64 {%r1, %r2}, %rd`, `mov.b32 %r, {%rs1, %rs2}`, `_` sinks).
//!
//! 16-bit values live in the low half of a 32-bit register whose high half is unspecified (every
//! reader extends them), so packing halves is one `PRMT d, lo, 0x5410, hi` as ptxas emits, and
//! unpacking takes the register as is for the low half and shifts it for the high half.

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// PRMT selector taking the low halves of A (result bits 0..15) and B (bits 16..31).
const PACK_HALVES: u32 = 0x5410;

/// Whether `mov` has a vector operand (and so is lowered here).
pub fn is_vector_mov(i: &Instruction) -> bool {
    i.opcode() == "mov" && i.operands.iter().any(|o| matches!(o, Operand::Vector(_)))
}

impl Ctx<'_> {
    pub fn lower_vector_mov(&mut self, i: &Instruction) -> LResult<()> {
        // `mov.v2.u32 {%r1, %r2}, ...` moves vectors (ptxas splits a scalar source oddly).
        if let Some(v) = i
            .mods()
            .iter()
            .find(|m| matches!(m.as_str(), "v2" | "v4" | "v8"))
        {
            return Err(format!("vector 'mov.{v}' is not supported yet"));
        }
        let [d, s] = &i.operands[..] else {
            return Err(format!(
                "Arguments mismatch for instruction '{}'",
                i.opcode()
            ));
        };
        let bits = i
            .ty()
            .map(|t| t.size_bytes() * 8)
            .ok_or("mov needs a type")?;
        match (d, s) {
            (Operand::Vector(parts), src) => self.unpack(parts, src, bits),
            (dst, Operand::Vector(parts)) => self.pack(dst, parts, bits),
            _ => Err(format!("expected a vector operand, found {d:?}")),
        }
    }

    /// `mov.bN dst, {parts}`.
    fn pack(&mut self, dst: &Operand, parts: &[Operand], bits: u32) -> LResult<()> {
        let d = self.dst(dst)?;
        match (bits, parts.len()) {
            (64, 2) => {
                for (k, p) in parts.iter().enumerate() {
                    let s = self.src32(p)?;
                    self.emit(Opcode::Mov, &[Dst::Reg(d.part(k as u8))], &[s]);
                }
            }
            (64, 4) => {
                for k in 0..2 {
                    let word = self.pack_halves(&parts[2 * k], &parts[2 * k + 1])?;
                    self.emit(Opcode::Mov, &[Dst::Reg(d.part(k as u8))], &[word]);
                }
            }
            (32, 2) => {
                let word = self.pack_halves(&parts[0], &parts[1])?;
                self.emit(Opcode::Mov, &[Dst::Reg(d)], &[word]);
            }
            _ => {
                return Err(format!(
                    "vector mov.b{bits} of {} elements is not supported yet",
                    parts.len()
                ))
            }
        }
        Ok(())
    }

    /// A 32-bit register holding `lo` in bits 0..15 and `hi` in bits 16..31.
    fn pack_halves(&mut self, lo: &Operand, hi: &Operand) -> LResult<Src> {
        let (lo, hi) = (self.reg_src32(lo)?, self.reg_src32(hi)?);
        let t = self.temp();
        self.emit(
            Opcode::Prmt {
                mode: PrmtMode::Index,
            },
            &[Dst::Reg(t)],
            &[lo, Src::imm(PACK_HALVES), hi],
        );
        Ok(Src::reg(t))
    }

    /// `mov.bN {parts}, src`.
    fn unpack(&mut self, parts: &[Operand], src: &Operand, bits: u32) -> LResult<()> {
        let words = match bits {
            64 => {
                let (lo, hi) = self.src64(src)?;
                vec![lo, hi]
            }
            32 => vec![self.src32(src)?],
            _ => return Err(format!("vector mov.b{bits} is not supported yet")),
        };
        let per_word = parts.len() / words.len();
        if per_word == 0 || per_word > 2 || parts.len() % words.len() != 0 {
            return Err(format!(
                "vector mov.b{bits} of {} elements is not supported yet",
                parts.len()
            ));
        }
        for (k, p) in parts.iter().enumerate() {
            if *p == Operand::Sink {
                continue;
            }
            let d = self.dst(p)?;
            let word = words[k / per_word];
            let high_half = per_word == 2 && k % 2 == 1;
            if high_half {
                let word = self.in_reg(word);
                let shr = Opcode::Shf {
                    right: true,
                    signed: false,
                    wide: false,
                    hi: true,
                };
                self.emit(shr, &[Dst::Reg(d)], &[Src::ZERO, Src::imm(16), word]);
            } else {
                self.emit(Opcode::Mov, &[Dst::Reg(d)], &[word]);
            }
        }
        Ok(())
    }
}
