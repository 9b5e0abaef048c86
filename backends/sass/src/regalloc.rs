//! Register allocation: liveness over the CFG, live intervals over the block layout, linear scan.
//!
//! A virtual register's interval is the hull of every position where it is used, defined or live
//! (live-in at a block start, live-out at a block end), so values live around loop back edges keep
//! their register for the whole loop. Partial or guarded writes do not kill the old value.
//! Groups (64-bit pairs) get aligned physical registers. R1 is left free, as ptxas keeps it for the
//! stack pointer.

use std::fmt;

use crate::arch::Sm;
use crate::ir::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegAllocError(pub String);

impl fmt::Display for RegAllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Successor blocks of block `b`.
pub fn successors(f: &Function, b: usize) -> Vec<usize> {
    let mut s = Vec::new();
    let last = f.blocks[b].instrs.last();
    for i in &f.blocks[b].instrs {
        if let Opcode::Bra { target } = i.op {
            s.push(target as usize);
        }
    }
    let falls_through = match last {
        Some(i) if i.is_terminator() => i.guard != Src::TRUE,
        _ => true,
    };
    if falls_through && b + 1 < f.blocks.len() {
        s.push(b + 1);
    }
    s
}

/// Whether the write fully defines the register (unguarded, the whole group).
fn is_full_def(i: &Instr, r: &Reg, comps: u8) -> bool {
    i.guard == Src::TRUE && r.comp == 0 && r.comps == comps
}

/// Per-block live-in sets (as sorted vreg lists) by iterative dataflow.
fn live_in_sets(f: &Function) -> Vec<Vec<bool>> {
    let n = f.num_vregs as usize;
    let nb = f.blocks.len();
    let mut gen = vec![vec![false; n]; nb];
    let mut kill = vec![vec![false; n]; nb];
    for (b, block) in f.blocks.iter().enumerate() {
        for i in &block.instrs {
            i.visit_regs(|r, a| {
                let v = r.idx as usize;
                let partial = a == Access::Write && !is_full_def(i, &r, f.vreg_comps[v]);
                if (a == Access::Read || partial) && !kill[b][v] {
                    gen[b][v] = true;
                }
            });
            i.visit_regs(|r, a| {
                if a == Access::Write && is_full_def(i, &r, f.vreg_comps[r.idx as usize]) {
                    kill[b][r.idx as usize] = true;
                }
            });
        }
    }
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| successors(f, b)).collect();
    let mut live_in = gen.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            for v in 0..n {
                if live_in[b][v] {
                    continue;
                }
                let out = succs[b].iter().any(|&s| live_in[s][v]);
                if out && !kill[b][v] {
                    live_in[b][v] = true;
                    changed = true;
                }
            }
        }
    }
    live_in
}

/// `[start, end]` positions of every vreg (None if it never occurs).
fn intervals(f: &Function) -> Vec<Option<(u32, u32)>> {
    let live_in = live_in_sets(f);
    let mut iv: Vec<Option<(u32, u32)>> = vec![None; f.num_vregs as usize];
    let mut extend = |v: usize, p: u32| {
        iv[v] = Some(match iv[v] {
            Some((s, e)) => (s.min(p), e.max(p)),
            None => (p, p),
        });
    };
    let mut pos = 0u32;
    let mut starts = Vec::new();
    for block in &f.blocks {
        starts.push(pos);
        for i in &block.instrs {
            i.visit_regs(|r, _| extend(r.idx as usize, pos));
            pos += 1;
        }
    }
    starts.push(pos);
    for b in 0..f.blocks.len() {
        let end = starts[b + 1].saturating_sub(1).max(starts[b]);
        for (v, live) in live_in[b].iter().enumerate() {
            if *live {
                extend(v, starts[b]);
            }
        }
        for s in successors(f, b) {
            for (v, live) in live_in[s].iter().enumerate() {
                if *live {
                    extend(v, end);
                }
            }
        }
    }
    iv
}

/// A register file's free list with aligned group allocation.
struct FreeRegs {
    busy: Vec<bool>,
}

impl FreeRegs {
    fn new(count: usize, reserved: &[usize]) -> FreeRegs {
        let mut busy = vec![false; count];
        for &r in reserved {
            busy[r] = true;
        }
        FreeRegs { busy }
    }

    fn take(&mut self, comps: usize) -> Option<usize> {
        let align = comps.next_power_of_two();
        let start = (0..self.busy.len()).step_by(align).find(|&s| {
            s + comps <= self.busy.len() && self.busy[s..s + comps].iter().all(|b| !b)
        })?;
        self.busy[start..start + comps]
            .iter_mut()
            .for_each(|b| *b = true);
        Some(start)
    }

    fn give(&mut self, start: usize, comps: usize) {
        self.busy[start..start + comps]
            .iter_mut()
            .for_each(|b| *b = false);
    }
}

/// Assigns physical registers to every virtual register of `f` and rewrites it in place.
pub fn allocate_registers(f: &mut Function, _sm: Sm, max_regs: u32) -> Result<(), RegAllocError> {
    let iv = intervals(f);
    let files = vreg_files(f);
    let pinned = f.frame.pinned();
    let mut order: Vec<usize> = (0..iv.len())
        .filter(|&v| iv[v].is_some() && pinned.map(|(p, _)| p as usize) != Some(v))
        .collect();
    order.sort_by_key(|&v| (iv[v].unwrap().0, v));
    let gpr_limit = (max_regs.clamp(16, 255) as usize).saturating_sub(2).max(8);
    let mut gpr = FreeRegs::new(gpr_limit, &[1]);
    let mut pred = FreeRegs::new(7, &[]);
    let mut ugpr = FreeRegs::new(63, &[0, 1, 2, 3]);
    let mut assign = vec![0u32; iv.len()];
    // The stack pointer lives in R1 (reserved above), whatever else is live.
    if let Some((v, phys)) = pinned {
        assign[v as usize] = phys;
    }
    let mut active: Vec<usize> = Vec::new();
    for &v in &order {
        let (start, _) = iv[v].unwrap();
        active.retain(|&a| {
            let keep = iv[a].unwrap().1 >= start;
            if !keep {
                let comps = f.vreg_comps[a] as usize;
                match files[a] {
                    RegFile::Gpr => gpr.give(assign[a] as usize, comps),
                    RegFile::Pred | RegFile::UPred => pred.give(assign[a] as usize, comps),
                    RegFile::UGpr => ugpr.give(assign[a] as usize, comps),
                }
            }
            keep
        });
        let comps = f.vreg_comps[v] as usize;
        let got = match files[v] {
            RegFile::Gpr => gpr.take(comps),
            RegFile::Pred | RegFile::UPred => pred.take(comps),
            RegFile::UGpr => ugpr.take(comps),
        };
        let Some(r) = got else {
            return Err(RegAllocError(format!(
                "out of {:?} registers (spilling is not supported yet)",
                files[v]
            )));
        };
        assign[v] = r as u32;
        active.push(v);
    }
    rewrite(f, &assign);
    Ok(())
}

fn vreg_files(f: &Function) -> Vec<RegFile> {
    let mut files = vec![RegFile::Gpr; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, _| files[r.idx as usize] = r.file);
    }
    files
}

/// Replaces virtual numbers by physical ones and records the register count.
fn rewrite(f: &mut Function, assign: &[u32]) {
    let mut max_gpr: i64 = -1;
    let mut max_pred = 0;
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            i.visit_regs_mut(|r, _| {
                let phys = assign[r.idx as usize] + r.comp as u32;
                *r = Reg {
                    idx: phys,
                    comp: 0,
                    ..*r
                };
                match r.file {
                    RegFile::Gpr => max_gpr = max_gpr.max(phys as i64 + r.comps as i64 - 1),
                    RegFile::Pred => max_pred = max_pred.max(phys + 1),
                    _ => {}
                }
            });
        }
    }
    f.allocated = true;
    f.reg_usage = RegUsage {
        gprs: (max_gpr + 1).max(2) as u32 + 2,
        preds: max_pred,
        ugprs: 0,
    };
}

/// What a physical register holds at a program point, for [`verify_allocation`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Holds {
    Nothing,
    Value(u32, u8),
    Unknown,
}

/// Checks an allocation by value tracking: `before` (virtual) and `after` (physical) are the same
/// instruction sequence; every read of a virtual register part must find that value in the
/// physical register it was mapped to, along every path where the state is known.
pub fn verify_allocation(before: &Function, after: &Function) -> Result<(), String> {
    if before.num_instrs() != after.num_instrs() || before.blocks.len() != after.blocks.len() {
        return Err("instruction sequences differ".into());
    }
    type State = std::collections::HashMap<(RegFile, u32), Holds>;
    let nb = before.blocks.len();
    let mut entry: Vec<Option<State>> = vec![None; nb];
    entry[0] = Some(State::new());
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let Some(mut st) = entry[b].clone() else {
                continue;
            };
            for (vi, pi) in before.blocks[b].instrs.iter().zip(&after.blocks[b].instrs) {
                check_and_apply(vi, pi, &mut st)?;
            }
            for s in successors(before, b) {
                let merged = match &entry[s] {
                    None => st.clone(),
                    Some(old) => merge(old, &st),
                };
                if entry[s].as_ref() != Some(&merged) {
                    entry[s] = Some(merged);
                    changed = true;
                }
            }
        }
    }
    Ok(())
}

fn merge(
    a: &std::collections::HashMap<(RegFile, u32), Holds>,
    b: &std::collections::HashMap<(RegFile, u32), Holds>,
) -> std::collections::HashMap<(RegFile, u32), Holds> {
    let mut m = a.clone();
    for (k, v) in b {
        let e = m.entry(*k).or_insert(*v);
        if e != v {
            *e = Holds::Unknown;
        }
    }
    for (k, v) in m.iter_mut() {
        if !b.contains_key(k) && *v != Holds::Nothing {
            *v = Holds::Unknown;
        }
    }
    m
}

/// Pairs the virtual and physical operands of one instruction, checks reads, records writes.
fn check_and_apply(
    vi: &Instr,
    pi: &Instr,
    st: &mut std::collections::HashMap<(RegFile, u32), Holds>,
) -> Result<(), String> {
    let mut virt = Vec::new();
    vi.visit_regs(|r, a| virt.push((r, a)));
    let mut phys = Vec::new();
    pi.visit_regs(|r, a| phys.push((r, a)));
    if virt.len() != phys.len() {
        return Err(format!("operand count differs at {:?}", vi.op));
    }
    for ((v, a), (p, _)) in virt.iter().zip(&phys) {
        if *a != Access::Read {
            continue;
        }
        for k in 0..v.comps {
            let want = Holds::Value(v.idx, v.comp + k);
            match st
                .get(&(p.file, p.idx + k as u32))
                .copied()
                .unwrap_or(Holds::Nothing)
            {
                Holds::Value(x, c) if Holds::Value(x, c) != want => {
                    return Err(format!(
                        "{:?} reads v{}.{} from {:?}{} which holds v{x}.{c}",
                        vi.op,
                        v.idx,
                        v.comp + k,
                        p.file,
                        p.idx + k as u32
                    ));
                }
                _ => {}
            }
        }
    }
    for ((v, a), (p, _)) in virt.iter().zip(&phys) {
        if *a == Access::Write {
            for k in 0..v.comps {
                st.insert((p.file, p.idx + k as u32), Holds::Value(v.idx, v.comp + k));
            }
        }
    }
    Ok(())
}
