//! `atom{.global,.shared,}.cas.b16 d, [a], cmp, new`: no 16-bit compare-and-swap exists, so, as
//! ptxas 13.5 does, a loop on the aligned 32-bit word holding the half: the expected word is the
//! word last seen with `cmp` put in the half, the new word the same with `new`; a 32-bit CAS; when
//! the word's other half changed under it (the found word's other half differs from the expected
//! one's) the swap is tried again with the found word, otherwise the found half is the result
//! (equal to `cmp` exactly when the swap happened). Opens two blocks after the current one.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::atomic_float::{memory_scope, space};
use crate::ctx::{Ctx, LResult};

/// Whether `i` is an unguarded 16-bit CAS without a memory order other than `.relaxed`.
pub(crate) fn is_cas16(i: &Instruction) -> bool {
    i.opcode() == "atom"
        && i.has_mod("cas")
        && matches!(i.ty(), Some(Type::B16 | Type::U16 | Type::S16))
        && i.guard().is_none()
        && space(i).is_some()
        && !i.mods().iter().any(|m| {
            matches!(
                m.as_str(),
                "sc" | "acquire" | "release" | "acq_rel" | "cluster"
            ) || m.starts_with("L2")
        })
}

/// Blocks the lowering of `i` opens after the current one.
pub(crate) fn extra_blocks(i: &Instruction) -> u32 {
    if is_cas16(i) {
        2
    } else {
        0
    }
}

impl Ctx<'_> {
    /// The loop of `atom.cas.b16` (see the module docs).
    pub(crate) fn lower_cas16(&mut self, i: &Instruction) -> LResult<()> {
        let ops = crate::ctx::operands_exactly(i, 4)?;
        let sp = space(i).ok_or("atom without an address space")?;
        let scope = memory_scope(i);
        let cmp = self.reg_src32(&ops[2])?;
        let new = self.reg_src32(&ops[3])?;
        let (word, low) = self.half_word_address(sp, &ops[1])?;
        let high = self.is_high_half(low);
        // PRMT selectors putting c's low half into the word's half: [c.lo | a.hi] or [a.lo | c.lo].
        let put = self.select_imm(high, 0x5410, 0x3254);
        let seen = self.temp();
        let (load, cas) = self.half_word_ops(sp, scope);
        self.emit(load, &[Dst::Reg(seen)], &word.load_srcs());
        self.f.blocks.push(Block::default());
        let loop_block = self.f.blocks.len() as u32 - 1;
        let expected = self.permute_bytes(Src::reg(seen), put, cmp);
        let swapped = self.permute_bytes(Src::reg(seen), put, new);
        let group = self.f.new_vreg(RegFile::Gpr, 2);
        for (k, value) in [expected, swapped].into_iter().enumerate() {
            let to = group.part(k as u8);
            self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(value)]);
        }
        let found = self.temp();
        self.emit(
            cas,
            &[Dst::Reg(found)],
            &[word.base, Src::reg(group), Src::ZERO],
        );
        // The other halves (the swapped half zeroed) of the expected and the found word.
        let other_expected = self.permute_bytes(Src::reg(expected), put, Src::ZERO);
        let other_found = self.permute_bytes(Src::reg(found), put, Src::ZERO);
        let again = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Ne,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(again), Dst::None],
            &[Src::reg(other_found), Src::reg(other_expected), Src::TRUE],
        );
        self.emit(Opcode::Mov, &[Dst::Reg(seen)], &[Src::reg(found)]);
        self.branch_if(Src::reg(again), loop_block);
        self.f.blocks.push(Block::default());
        let pick = self.select_imm(high, 0x7732, 0x7710);
        let half = self.permute_bytes(Src::reg(seen), pick, Src::ZERO);
        let d = self.dst(&ops[0])?;
        self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(half)]);
        Ok(())
    }
}
