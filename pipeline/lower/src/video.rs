//! SIMD video instructions as ptxas writes them on sm_75..sm_90: `vabsdiff4.u32.u32.u32[.add]
//! d, a, b, c` is one VABSDIFF4.U8 (`.add`: VABSDIFF4.U8.ACC, the sum of the four byte
//! differences plus c); `vabsdiff2.{u32,s32}[.add]` is integer code on the two halves (each
//! zero- or sign-extended, subtracted, IABS; `.add` sums them with c, else the two 16-bit
//! differences are packed by PRMT). Other video forms (mixed types, `.sat`, masks, lane
//! selectors, `.min/.max` reductions) stay "not supported yet".

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Whether `i` is the unsigned byte form this file lowers.
pub(crate) fn is_vabsdiff4_u8(i: &Instruction) -> bool {
    let mods = i.mods();
    i.opcode() == "vabsdiff4"
        && mods.iter().filter(|m| *m == "u32").count() == 3
        && mods.iter().all(|m| m == "u32" || m == "add")
        && i.operands.len() == 4
        && i.operands.iter().all(|o| matches!(o, Operand::Reg(_)))
}

/// Whether `i` is a `vabsdiff2` form this file lowers: three equal types (u32 or s32), `.add`
/// or no secondary operation, plain register operands.
pub(crate) fn is_vabsdiff2(i: &Instruction) -> bool {
    let mods = i.mods();
    let same_type = ["u32", "s32"]
        .iter()
        .any(|t| mods.iter().filter(|m| *m == t).count() == 3);
    i.opcode() == "vabsdiff2"
        && same_type
        && mods.iter().all(|m| m == "u32" || m == "s32" || m == "add")
        && i.operands.len() == 4
        && i.operands.iter().all(|o| matches!(o, Operand::Reg(_)))
}

impl Ctx<'_> {
    /// `vabsdiff2.{u32,s32}[.add] d, a, b, c`.
    pub fn lower_vabsdiff2(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 4)?;
        let signed = i.has_mod("s32");
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let c = self.reg_src32(&i.operands[3])?;
        let diffs = [false, true].map(|high| {
            let x = self.video_half(a, high, signed);
            let y = self.video_half(b, high, signed);
            let t = self.temp();
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(t), Dst::None],
                &[x, y.negated(), Src::ZERO],
            );
            let abs = self.temp();
            self.emit(Opcode::Iabs, &[Dst::Reg(abs)], &[Src::reg(t)]);
            Src::reg(abs)
        });
        if i.has_mod("add") {
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d), Dst::None],
                &[diffs[0], diffs[1], c],
            );
        } else {
            self.emit(
                Opcode::Prmt {
                    mode: PrmtMode::Index,
                },
                &[Dst::Reg(d)],
                &[diffs[0], Src::imm(0x5410), diffs[1]],
            );
        }
        Ok(())
    }

    /// The low or high 16 bits of `x`, zero- or sign-extended.
    fn video_half(&mut self, x: Src, high: bool, signed: bool) -> Src {
        let shr = |signed| Opcode::Shf {
            right: true,
            signed,
            wide: false,
            hi: true,
        };
        let source = if high {
            x
        } else {
            let t = self.temp();
            let shl = Opcode::Shf {
                right: false,
                signed: false,
                wide: false,
                hi: false,
            };
            self.emit(shl, &[Dst::Reg(t)], &[x, Src::imm(16), Src::ZERO]);
            Src::reg(t)
        };
        let d = self.temp();
        self.emit(
            shr(signed),
            &[Dst::Reg(d)],
            &[Src::ZERO, Src::imm(16), source],
        );
        Src::reg(d)
    }

    /// `vabsdiff4.u32.u32.u32[.add] d, a, b, c`.
    pub fn lower_vabsdiff4(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 4)?;
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let c = self.reg_src32(&i.operands[3])?;
        let acc = i.has_mod("add");
        self.emit(Opcode::Vabsdiff4 { acc }, &[Dst::Reg(d)], &[a, b, c]);
        Ok(())
    }
}
