//! Each machine instruction lowering emits is given the PTX line it was lowered from
//! (`ptxforge_sass::srcloc`), for `-lineinfo`'s line tables: the lowering functions themselves
//! know nothing of it.

use ptxforge_sass::ir::Function;
use ptxforge_sass::srcloc::{stamp, SrcLoc};

/// Where the next instruction will go: the last block and its length.
pub(crate) fn position(f: &Function) -> (usize, usize) {
    let last = f.blocks.len().saturating_sub(1);
    (last, f.blocks.get(last).map_or(0, |b| b.instrs.len()))
}

/// Gives every instruction emitted since `from` (a [`position`]) that has no location yet the
/// location of PTX line `line`: lowering appends to the last block and opens blocks after it.
pub(crate) fn stamp_since(f: &mut Function, from: (usize, usize), line: u32) {
    let loc = SrcLoc::ptx_line(line);
    for (n, b) in f.blocks.iter_mut().enumerate().skip(from.0) {
        let start = if n == from.0 { from.1 } else { 0 };
        if let Some(new) = b.instrs.get_mut(start..) {
            stamp(new, loc);
        }
    }
}
