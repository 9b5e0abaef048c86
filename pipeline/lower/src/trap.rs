//! A guarded `trap` or `brkpt` (`@p trap;`), as ptxas 13.5 writes it: BPT.TRAP is never
//! predicated; the threads whose guard fails branch around it (`@!p BRA skip; BPT.TRAP 0x1;
//! skip:`). An unguarded one is BPT.TRAP alone (`ctx.rs`).

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Blocks a guarded trap opens after the current one: the BPT.TRAP and the code after it.
pub(crate) const TRAP_BLOCKS: u32 = 2;

/// Whether `i` is a guarded `trap` or `brkpt` (lowered through the blocks of `TRAP_BLOCKS`).
pub(crate) fn is_guarded_trap(i: &Instruction) -> bool {
    matches!(i.opcode(), "trap" | "brkpt") && i.guard().is_some()
}

impl Ctx<'_> {
    /// `@p trap` → `@!p BRA skip; BPT.TRAP 0x1; skip:` (the current guard is `p`).
    pub(crate) fn lower_guarded_trap(&mut self) -> LResult<()> {
        let trap_block = self.f.blocks.len() as u32;
        self.guard = self.guard.negated();
        self.emit(
            Opcode::Bra {
                target: trap_block + 1,
            },
            &[],
            &[],
        );
        self.guard = Src::TRUE;
        self.f.blocks.push(Block::default());
        self.emit(Opcode::Warp(WarpOp::BptTrap), &[], &[]);
        self.f.blocks.push(Block::default());
        Ok(())
    }
}
