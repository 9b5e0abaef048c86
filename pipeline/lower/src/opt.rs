//! Clean-ups on virtual-register IR: copy propagation, constant-bank folding, dead-code elimination.

use ptxforge_sass::ir::*;

/// Runs every pass of [`crate::passes::PASSES`]: copy propagation, constant-bank and immediate
/// folding, local CSE, then removes pure instructions nobody reads.
pub fn optimize(f: &mut Function) {
    crate::passes::optimize_with(f, &crate::passes::PassConfig::default());
}

/// Per vreg and 32-bit part: how many instructions write that part.
fn part_defs(f: &Function) -> Vec<[u32; 4]> {
    let mut count = vec![[0u32; 4]; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                for c in r.comp..(r.comp + r.comps).min(4) {
                    count[r.idx as usize][c as usize] += 1;
                }
            }
        });
    }
    count
}

/// A copy `MOV d.part, s` where that part of `d` is written only here and `s`'s part only once.
fn copy_source(i: &Instr, defs: &[[u32; 4]]) -> Option<(Reg, Reg)> {
    if i.op != Opcode::Mov || i.guard != Src::TRUE || i.srcs[0].neg || i.srcs[0].abs {
        return None;
    }
    let (Dst::Reg(d), SrcVal::Reg(s)) = (i.dsts[0], i.srcs[0].val) else {
        return None;
    };
    if d.file != s.file || d.comps != 1 || s.comps != 1 || d.idx == s.idx {
        return None;
    }
    let once = |r: Reg| defs[r.idx as usize].get(r.comp as usize) == Some(&1);
    (once(d) && once(s)).then_some((d, s))
}

/// Replaces reads of copied values (whole registers or single parts) by the copied sources.
pub(crate) fn propagate_copies(f: &mut Function) {
    let defs = part_defs(f);
    let mut part_src: std::collections::HashMap<(u32, u8), Reg> = std::collections::HashMap::new();
    for i in f.instrs() {
        if let Some((d, s)) = copy_source(i, &defs) {
            part_src.insert((d.idx, d.comp), s);
        }
    }
    let comps = f.vreg_comps.clone();
    let resolve_part = |mut r: Reg| {
        for _ in 0..64 {
            match part_src.get(&(r.idx, r.comp)) {
                Some(s) => r = *s,
                None => break,
            }
        }
        r
    };
    let resolve = |r: Reg| -> Reg {
        if r.comps == 1 {
            return resolve_part(r);
        }
        let parts: Vec<Reg> = (0..r.comps).map(|c| resolve_part(r.part(c))).collect();
        let base = parts[0];
        let whole = base.comp == 0
            && comps[base.idx as usize] == r.comps
            && parts
                .iter()
                .enumerate()
                .all(|(c, p)| p.idx == base.idx && p.comp == c as u8);
        if whole {
            Reg {
                comps: r.comps,
                ..base
            }
        } else {
            r
        }
    };
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            i.visit_regs_mut(|r, a| {
                if a == Access::Read {
                    *r = resolve(*r);
                }
            });
        }
    }
}

/// Removes instructions whose only effect is a register result nobody reads, to a fixed point.
pub(crate) fn eliminate_dead_code(f: &mut Function) {
    loop {
        let used = used_vregs(f);
        let before = f.num_instrs();
        for b in &mut f.blocks {
            b.instrs.retain(|i| !is_dead(i, &used));
        }
        if f.num_instrs() == before {
            return;
        }
    }
}

fn used_vregs(f: &Function) -> Vec<bool> {
    let mut used = vec![false; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Read {
                used[r.idx as usize] = true;
            }
        });
    }
    used
}

/// Pure instructions (no memory, control or barrier effect) whose destinations are all unused.
fn is_dead(i: &Instr, used: &[bool]) -> bool {
    let pure = !matches!(
        i.op,
        Opcode::Stg { .. }
            | Opcode::St { .. }
            | Opcode::Sts { .. }
            | Opcode::Stl { .. }
            | Opcode::Bra { .. }
            | Opcode::Exit
            | Opcode::BarSync { .. }
            | Opcode::Nop
            | Opcode::Atoms { .. }
            | Opcode::Atomg { .. }
            | Opcode::Atom { .. }
            | Opcode::Red { .. }
            | Opcode::Ldgsts { .. }
            | Opcode::Ldgdepbar
            | Opcode::DepbarLe { .. }
            | Opcode::Syncs(_)
            | Opcode::Call { .. }
            | Opcode::CallAbs { .. }
            | Opcode::Ret
            | Opcode::SubArgs
    );
    let mut any_dst = false;
    let mut all_unused = true;
    for d in &i.dsts {
        if let Dst::Reg(r) = d {
            any_dst = true;
            all_unused &= !used[r.idx as usize];
        }
    }
    pure && any_dst && all_unused
}

/// Writes and reads per vreg over the whole function.
pub(crate) fn access_counts(f: &Function) -> (Vec<u32>, Vec<u32>) {
    let mut writes = vec![0; f.num_vregs as usize];
    let mut reads = vec![0; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| match a {
            Access::Write => writes[r.idx as usize] += 1,
            Access::Read => reads[r.idx as usize] += 1,
        });
    }
    (writes, reads)
}

/// Writes per (vreg, 32-bit part) and reads per vreg over the whole function.
pub(crate) struct PartCounts {
    pub writes: Vec<[u32; 4]>,
    pub reads: Vec<u32>,
}

impl PartCounts {
    pub fn of(f: &Function) -> PartCounts {
        let mut c = PartCounts {
            writes: vec![[0; 4]; f.num_vregs as usize],
            reads: vec![0; f.num_vregs as usize],
        };
        for i in f.instrs() {
            i.visit_regs(|r, a| match a {
                Access::Write => {
                    for p in r.comp..(r.comp + r.comps).min(4) {
                        c.writes[r.idx as usize][p as usize] += 1;
                    }
                }
                Access::Read => c.reads[r.idx as usize] += 1,
            });
        }
        c
    }

    /// Every part of the register is written exactly once (it holds one value wherever read).
    pub fn single(&self, r: Reg, comps: &[u8]) -> bool {
        let n = comps[r.idx as usize] as usize;
        self.writes[r.idx as usize][..n.min(4)]
            .iter()
            .all(|&w| w == 1)
    }
}
