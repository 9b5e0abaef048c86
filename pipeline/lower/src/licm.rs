//! Loop-invariant code motion: in a loop laid out as consecutive blocks `h..=j` (a branch from
//! `j` back to `h`, entered only by falling into `h`), a pure instruction whose operands are not
//! written inside the loop moves to the end of the block before `h`, so it runs once rather
//! than on every trip (`MOV R3, 0x4` before the loop instead of in it). Only instructions with
//! single-definition GPR results move (no predicates: they are few); inner loops go first, so an
//! outer loop can take what moved out of an inner one.

use ptxforge_sass::ir::*;

/// Hoists loop-invariant pure instructions into the block before each loop.
pub fn hoist_loop_invariants(f: &mut Function) {
    let mut loops = loops_of(f);
    loops.sort_by_key(|&(h, j)| (j - h, h));
    for (h, j) in loops {
        hoist_from(f, h, j);
    }
}

/// `(header, latch)` of each back edge whose loop can take a preheader: the block before the
/// header falls into it and no branch from outside enters the loop.
fn loops_of(f: &Function) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (j, b) in f.blocks.iter().enumerate() {
        for i in &b.instrs {
            let Opcode::Bra { target } = i.op else {
                continue;
            };
            let h = target as usize;
            if h == 0 || h > j || out.contains(&(h, j)) {
                continue;
            }
            if falls_through(&f.blocks[h - 1]) && entered_only_at_top(f, h, j) {
                out.push((h, j));
            }
        }
    }
    out
}

fn falls_through(b: &Block) -> bool {
    b.instrs
        .last()
        .is_none_or(|i| !(i.is_terminator() && i.guard == Src::TRUE))
}

/// No branch from outside `h..=j` targets a block of it.
fn entered_only_at_top(f: &Function, h: usize, j: usize) -> bool {
    f.blocks.iter().enumerate().all(|(k, b)| {
        (h..=j).contains(&k)
            || b.instrs.iter().all(|i| match i.op {
                Opcode::Bra { target } => !(h..=j).contains(&(target as usize)),
                _ => true,
            })
    })
}

fn hoist_from(f: &mut Function, h: usize, j: usize) {
    let writes = crate::local_cse::write_counts(f);
    let mut written_in_loop = vec![false; f.num_vregs as usize];
    for b in &f.blocks[h..=j] {
        for i in &b.instrs {
            for d in i.dsts.iter().filter_map(Dst::as_reg) {
                written_in_loop[d.idx as usize] = true;
            }
        }
    }
    let mut hoisted = Vec::new();
    for bi in h..=j {
        let mut k = 0;
        while k < f.blocks[bi].instrs.len() {
            let i = &f.blocks[bi].instrs[k];
            if invariant(i, &written_in_loop, &writes, &f.vreg_comps) {
                let i = f.blocks[bi].instrs.remove(k);
                for d in i.dsts.iter().filter_map(Dst::as_reg) {
                    written_in_loop[d.idx as usize] = false;
                }
                hoisted.push(i);
            } else {
                k += 1;
            }
        }
    }
    if hoisted.is_empty() {
        return;
    }
    let pre = &mut f.blocks[h - 1].instrs;
    let at = match pre.last() {
        Some(last) if last.is_terminator() => pre.len() - 1,
        _ => pre.len(),
    };
    pre.splice(at..at, hoisted);
}

fn invariant(i: &Instr, in_loop: &[bool], writes: &[u32], comps: &[u8]) -> bool {
    if i.guard != Src::TRUE || !movable(&i.op) {
        return false;
    }
    let mut any = false;
    for d in &i.dsts {
        if let Dst::Reg(r) = d {
            let whole = r.comp == 0 && comps[r.idx as usize] == r.comps;
            if r.file != RegFile::Gpr || !whole || writes[r.idx as usize] != r.comps as u32 {
                return false;
            }
            any = true;
        }
    }
    let mut ok = any;
    i.visit_regs(|r, a| {
        if a == Access::Read && in_loop[r.idx as usize] {
            ok = false;
        }
    });
    ok
}

/// Cheap pure ALU operations (no memory, no lane exchange, nothing variable-latency).
fn movable(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Mov
            | Opcode::Iadd3 { .. }
            | Opcode::Imad { .. }
            | Opcode::Lop3 { .. }
            | Opcode::Shf { .. }
            | Opcode::Sel
            | Opcode::Imnmx { .. }
            | Opcode::Fadd { .. }
            | Opcode::Fmul { .. }
            | Opcode::Ffma { .. }
    )
}
