//! Where an instruction came from: the PTX line it was lowered from, carried through every pass
//! to the encoder for `-lineinfo`'s line tables, and invisible to the passes themselves.
//!
//! [`SrcLoc`] is a field of every [`crate::ir::Instr`], so it travels wherever the instruction
//! goes (copies, moves, scheduling) at the cost of four bytes. It compares equal to every other
//! location and hashes to nothing, so that instructions that differ only in where they came from
//! are the same instruction to every pass (value numbering, deduplication): a build with
//! `-lineinfo` gets exactly the code of a build without it.

use std::hash::{Hash, Hasher};

/// The PTX line an instruction was lowered from; [`SrcLoc::NONE`] for code no PTX line asked for
/// (prologues, the trailer, instructions a pass made afresh).
#[derive(Copy, Clone, Debug, Default)]
pub struct SrcLoc(pub u32);

impl SrcLoc {
    /// No PTX line: the line tables let such an instruction keep the row before it.
    pub const NONE: SrcLoc = SrcLoc(0);

    /// The location of PTX line `line` (1-based).
    pub fn ptx_line(line: u32) -> SrcLoc {
        SrcLoc(line)
    }

    /// The PTX line, `None` for [`SrcLoc::NONE`].
    pub fn line(self) -> Option<u32> {
        (self.0 != 0).then_some(self.0)
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Every location equals every other: passes compare instructions by what they do.
impl PartialEq for SrcLoc {
    fn eq(&self, _: &SrcLoc) -> bool {
        true
    }
}

impl Eq for SrcLoc {}

/// Hashes to nothing, as [`PartialEq`] ignores it.
impl Hash for SrcLoc {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// Gives every instruction of `instrs` without a location the location `loc`.
pub fn stamp(instrs: &mut [crate::ir::Instr], loc: SrcLoc) {
    for i in instrs.iter_mut().filter(|i| i.loc.is_none()) {
        i.loc = loc;
    }
}

/// The PTX line of each instruction of `func` in layout order (0 where it has none): what the
/// cubin writer turns into line tables, one entry per 16-byte instruction.
pub fn ptx_lines(func: &crate::ir::Function) -> Vec<u32> {
    func.instrs().map(|i| i.loc.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Instr, Opcode};

    #[test]
    fn locations_do_not_make_instructions_differ() {
        let a = Instr::new(Opcode::Nop, &[], &[]);
        let mut b = a;
        b.loc = SrcLoc::ptx_line(12);
        assert_eq!(a, b);
        let hash = |i: &Instr| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            i.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&a), hash(&b));
        assert_eq!(b.loc.line(), Some(12));
        assert_eq!(a.loc.line(), None);
    }

    #[test]
    fn stamping_keeps_locations_already_given() {
        let mut v = vec![Instr::new(Opcode::Nop, &[], &[]); 2];
        v[0].loc = SrcLoc::ptx_line(3);
        stamp(&mut v, SrcLoc::ptx_line(7));
        assert_eq!((v[0].loc.0, v[1].loc.0), (3, 7));
    }
}
