//! Register allocation: linear scan over live ranges with holes (`liveness.rs`), aligned groups.
//!
//! Groups (64-bit pairs, 128-bit quads) get aligned physical registers. R1 is left free, as ptxas
//! keeps it for the stack pointer.

use std::fmt;

use crate::arch::Sm;
use crate::ir::*;
use crate::liveness::{vreg_files, LiveRanges};
use crate::reg_regions::GprBudget;

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

/// A register file's scan state: which physical registers the ranges around the scan position hold.
pub(crate) struct FileScan {
    /// Registers that may be assigned (the rest are reserved or beyond the limit).
    usable: Vec<bool>,
    /// Registers held by an active range (one live at the scan position).
    busy: Vec<bool>,
    /// Ranges that hold a register and are live at the scan position, with a segment cursor.
    active: Vec<(u32, u32)>,
    /// Ranges that hold a register, started before the scan position and are in a hole there.
    inactive: Vec<(u32, u32)>,
    /// `blocked[r] == stamp`: an inactive range on `r` meets the range being assigned.
    blocked: Vec<u32>,
    stamp: u32,
    /// Per virtual register, the registers its group must stay below (`setmaxnreg` regions,
    /// `reg_regions.rs`); empty when every register may be used everywhere.
    caps: Vec<u32>,
    /// Groups allowed above this look there first, leaving the registers below it to the
    /// values of the smallest `setmaxnreg` region (0: no such regions).
    floor: usize,
}

impl FileScan {
    pub(crate) fn new(count: usize, reserved: &[usize]) -> FileScan {
        let mut usable = vec![true; count];
        for &r in reserved {
            usable[r] = false;
        }
        FileScan {
            usable,
            busy: vec![false; count],
            active: Vec::new(),
            inactive: Vec::new(),
            blocked: vec![0; count],
            stamp: 0,
            caps: Vec::new(),
            floor: 0,
        }
    }

    /// Moves the scan to `pos`: ranges that ended give their register back, ranges in a hole
    /// become inactive, inactive ranges live again become active.
    fn advance(&mut self, pos: u32, lr: &LiveRanges, assign: &[u32], comps: &[u8]) {
        let mut k = 0;
        while k < self.active.len() {
            let (v, cur) = self.active[k];
            let segs = lr.of(v as usize);
            let cur = skip_ended(segs, cur, pos);
            let held = assign[v as usize] as usize
                ..(assign[v as usize] + comps[v as usize] as u32) as usize;
            if cur as usize == segs.len() || segs[cur as usize].0 > pos {
                self.busy[held].iter_mut().for_each(|b| *b = false);
                self.active.swap_remove(k);
                if (cur as usize) < segs.len() {
                    self.inactive.push((v, cur));
                }
            } else {
                self.active[k].1 = cur;
                k += 1;
            }
        }
        let mut k = 0;
        while k < self.inactive.len() {
            let (v, cur) = self.inactive[k];
            let segs = lr.of(v as usize);
            let cur = skip_ended(segs, cur, pos);
            if cur as usize == segs.len() {
                self.inactive.swap_remove(k);
            } else if segs[cur as usize].0 <= pos {
                let held = assign[v as usize] as usize
                    ..(assign[v as usize] + comps[v as usize] as u32) as usize;
                self.busy[held].iter_mut().for_each(|b| *b = true);
                self.inactive.swap_remove(k);
                self.active.push((v, cur));
            } else {
                self.inactive[k].1 = cur;
                k += 1;
            }
        }
    }

    /// The lowest aligned group of `comps` registers free for the whole range `segs` of `v`.
    fn pick(
        &mut self,
        v: u32,
        segs: &[(u32, u32)],
        comps: usize,
        lr: &LiveRanges,
        assign: &[u32],
        vc: &[u8],
    ) -> Option<usize> {
        self.stamp += 1;
        for &(v, cur) in &self.inactive {
            if meets(&lr.of(v as usize)[cur as usize..], segs) {
                let r = assign[v as usize] as usize;
                for b in &mut self.blocked[r..r + vc[v as usize] as usize] {
                    *b = self.stamp;
                }
            }
        }
        // Groups beyond eight registers (warpgroup MMA accumulators) are 8-aligned, as ptxas
        // places them (R24 for 4 to 128 registers).
        let align = comps.next_power_of_two().min(8);
        let n = (self.caps.get(v as usize).copied())
            .map_or(self.usable.len(), |c| (c as usize).min(self.usable.len()));
        let free = |s: &usize| {
            s + comps <= n
                && (*s..s + comps)
                    .all(|r| self.usable[r] && !self.busy[r] && self.blocked[r] != self.stamp)
        };
        let floor = self.floor.next_multiple_of(align);
        if floor > 0 && floor + comps <= n {
            if let Some(s) = (floor..n).step_by(align).find(free) {
                return Some(s);
            }
        }
        (0..n).step_by(align).find(free)
    }

    fn hold(&mut self, v: u32, r: usize, comps: usize) {
        self.busy[r..r + comps].iter_mut().for_each(|b| *b = true);
        self.active.push((v, 0));
    }
}

/// The first segment at or after `cur` that has not ended by `pos`.
fn skip_ended(segs: &[(u32, u32)], mut cur: u32, pos: u32) -> u32 {
    while (cur as usize) < segs.len() && segs[cur as usize].1 <= pos {
        cur += 1;
    }
    cur
}

/// Whether two sorted lists of half-open segments overlap.
fn meets(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].1 <= b[j].0 {
            i += 1;
        } else if b[j].1 <= a[i].0 {
            j += 1;
        } else {
            return true;
        }
    }
    false
}

/// Assigns physical registers to every virtual register of `f` and rewrites it in place.
///
/// Where more predicates would be live than the seven physical ones, [`fit_predicates`] first
/// keeps some predicate values in GPRs. Live ranges keep their holes (`liveness.rs`); ranges are
/// taken in order of their start and each gets the lowest aligned group that no range live at its
/// start holds and that no range in a hole there meets later. Values of one instruction's last
/// read and of its write may share. Where the GPRs do not fit `max_regs`, [`spill_round`] moves
/// values to stack frame slots and the scan runs again.
///
/// [`fit_predicates`]: crate::pred_pressure::fit_predicates
/// [`spill_round`]: crate::spill::spill_round
pub fn allocate_registers(f: &mut Function, sm: Sm, max_regs: u32) -> Result<(), RegAllocError> {
    let unsupported = |e: String| RegAllocError(format!("{e} is not supported yet"));
    crate::subroutine::expand_calls(f).map_err(unsupported)?;
    assign_registers(f, sm, max_regs)?;
    crate::subroutine::finish_subroutines(f, sm).map_err(unsupported)
}

/// [`allocate_registers`] without the subroutine steps around it (`subroutine.rs`): the
/// instruction sequence stays the same, which [`verify_allocation`] compares.
pub fn assign_registers(f: &mut Function, sm: Sm, max_regs: u32) -> Result<(), RegAllocError> {
    // A value's live range depends on its own operands only, so the ranges of every file give the
    // predicates' too: where the predicates fit already (the common case) `fit_predicates` would
    // change nothing, and its liveness need not be computed apart.
    let files = vreg_files(f);
    let lr = crate::liveness::live_ranges_in(f, &files, |_| true);
    let ranges = if crate::pred_pressure::predicates_fit(f, &lr, &files) {
        Some((files, lr))
    } else {
        crate::pred_pressure::fit_predicates_with(f, Some((files, lr)));
        None
    };
    let assign = fit(f, sm, max_regs, ranges).map_err(|(_, why)| RegAllocError(why))?;
    rewrite(f, &assign);
    Ok(())
}

/// Spills GPR values to the stack frame until the function's registers fit `max_regs` (nothing
/// when they fit already); the allocation verifier's tests call it to see the spilled code.
pub fn fit_gprs(f: &mut Function, sm: Sm, max_regs: u32) -> Result<(), RegFile> {
    fit(f, sm, max_regs, None)
        .map(|_| ())
        .map_err(|(file, _)| file)
}

/// The assignment of every file, spilling GPRs in rounds where they do not fit; `Err` names the
/// file that did not fit and says why (`regalloc_failure.rs`). `ranges`: the register files and
/// live ranges of `f` as it is, when the caller has them. Each GPR range stays within the
/// smallest budget over it (`reg_regions.rs`: `setmaxnreg` regions).
fn fit(
    f: &mut Function,
    sm: Sm,
    max_regs: u32,
    mut ranges: Option<(Vec<RegFile>, LiveRanges)>,
) -> Result<Vec<u32>, (RegFile, String)> {
    let fresh_from = f.num_vregs;
    let mut round = 0;
    loop {
        let (files, lr) = ranges.take().unwrap_or_else(|| {
            let files = vreg_files(f);
            let lr = crate::liveness::live_ranges_in(f, &files, |_| true);
            (files, lr)
        });
        // Per program point: `setmaxnreg` regions have budgets of their own.
        let budget = GprBudget::of(f, max_regs);
        match assign_coalesced(f, &lr, &files, &budget) {
            Ok(assign) => return Ok(assign),
            // Registers bound to the call convention's are not spilled.
            Err(RegFile::Gpr) if round < crate::spill::ROUNDS && f.fixed.is_empty() => {
                // R1 is the stack pointer's once there is a frame.
                let usable = budget.minus(1);
                // The values the scan left out go too: where no more registers are live than
                // the budget, the ranges' holes and aligned groups can still keep a scan from
                // fitting, and the next round also aims lower.
                let unplaced = unplaced_gprs(f, &lr, &files, &budget);
                let round_of = (round, fresh_from, &unplaced[..]);
                if crate::spill::spill_round_within(f, sm, &lr, &files, &usable, round_of) {
                    crate::pred_pressure::fit_predicates(f);
                }
                round += 1;
            }
            Err(file) => {
                let why = crate::regalloc_failure::explain(f, &lr, &files, file, &budget);
                return Err((file, why));
            }
        }
    }
}

/// [`assign_files`] with the copies coalesced (`coalesce.rs`) where that fits, else without.
fn assign_coalesced(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    budget: &GprBudget,
) -> Result<Vec<u32>, RegFile> {
    if let Some(c) = crate::coalesce::coalesce(f, files, lr) {
        if let Ok(mut assign) = assign_files(f, &c.ranges, files, budget) {
            for (v, &(root, off)) in c.root.iter().enumerate() {
                if root as usize != v {
                    assign[v] = assign[root as usize] + off as u32;
                }
            }
            return Ok(assign);
        }
    }
    assign_files(f, lr, files, budget)
}

/// One scan per register file over the ranges `lr`; each GPR group stays below the smallest
/// budget over its range.
fn assign_files(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    budget: &GprBudget,
) -> Result<Vec<u32>, RegFile> {
    let mut assign = vec![0u32; f.vreg_comps.len()];
    // The stack pointer lives in R1 (reserved in the GPR scan), whatever else is live.
    if let Some((v, phys)) = f.frame.pinned() {
        assign[v as usize] = phys;
    }
    for &(v, phys) in &f.fixed {
        if phys as usize + f.vreg_comps[v as usize] as usize > budget.over(lr.of(v as usize)) {
            return Err(RegFile::Gpr);
        }
        assign[v as usize] = phys;
    }
    // With `setmaxnreg` regions a second GPR scan keeps the registers below the smallest
    // region's budget for the values that reach it, where the plain scan did not fit them.
    let floors = if budget.varies() {
        vec![0, budget.lowest()]
    } else {
        vec![0]
    };
    let gprs_fit = floors.into_iter().any(|floor| {
        let mut scan = FileScan::new(budget.highest(), &[1]);
        if budget.varies() {
            scan.caps = (0..f.vreg_comps.len())
                .map(|v| budget.over(lr.of(v)) as u32)
                .collect();
            scan.floor = floor;
        }
        // Registers bound to fixed ones hold them wherever they are live.
        scan.inactive.extend(
            f.fixed
                .iter()
                .filter(|(v, _)| !lr.of(*v as usize).is_empty())
                .map(|&(v, _)| (v, 0)),
        );
        scan_file(f, lr, files, RegFile::Gpr, &mut scan, &mut assign).is_ok()
    });
    if !gprs_fit {
        return Err(RegFile::Gpr);
    }
    for file in [RegFile::Pred, RegFile::UGpr, RegFile::UPred] {
        let mut scan = match file {
            RegFile::Pred | RegFile::UPred => FileScan::new(7, &[]),
            _ => FileScan::new(63, &[0, 1, 2, 3]),
        };
        if scan_file(f, lr, files, file, &mut scan, &mut assign).is_err() {
            return Err(file);
        }
    }
    Ok(assign)
}

/// Assigns the registers of one file, in order of their ranges' starts; `Err` names the first
/// virtual register that found no free group.
pub(crate) fn scan_file(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    file: RegFile,
    scan: &mut FileScan,
    assign: &mut [u32],
) -> Result<(), u32> {
    let mut failed = None;
    scan_file_with(f, lr, files, (file, scan), assign, |v| {
        failed = Some(v);
        false
    });
    failed.map_or(Ok(()), Err)
}

/// The GPR values a scan within `budget` finds no register for. The scan goes on past each
/// (holding nothing for it), so one pass names every value that the ranges' holes and the
/// groups' alignment leave out, even where no more registers are live than the budget.
pub(crate) fn unplaced_gprs(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    budget: &GprBudget,
) -> Vec<u32> {
    let mut assign = vec![0u32; f.vreg_comps.len()];
    if let Some((v, phys)) = f.frame.pinned() {
        assign[v as usize] = phys;
    }
    let mut scan = FileScan::new(budget.highest(), &[1]);
    if budget.varies() {
        scan.caps = (0..f.vreg_comps.len())
            .map(|v| budget.over(lr.of(v)) as u32)
            .collect();
    }
    let mut unplaced = Vec::new();
    scan_file_with(f, lr, files, (RegFile::Gpr, &mut scan), &mut assign, |v| {
        unplaced.push(v);
        true
    });
    unplaced
}

/// The scan of [`scan_file`]; `on_fail(v)` hears of each value that found no free group and
/// says whether the scan goes on.
fn scan_file_with(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    (file, scan): (RegFile, &mut FileScan),
    assign: &mut [u32],
    mut on_fail: impl FnMut(u32) -> bool,
) {
    let mut order: Vec<u32> = (0..f.vreg_comps.len() as u32)
        .filter(|&v| {
            files[v as usize] == file
                && !lr.of(v as usize).is_empty()
                && f.frame.pinned().map(|(p, _)| p) != Some(v)
                && !f.fixed.iter().any(|&(p, _)| p == v)
        })
        .collect();
    order.sort_unstable_by_key(|&v| (lr.of(v as usize)[0].0, v));
    for v in order {
        let segs = lr.of(v as usize);
        scan.advance(segs[0].0, lr, assign, &f.vreg_comps);
        let comps = f.vreg_comps[v as usize] as usize;
        match scan.pick(v, segs, comps, lr, assign, &f.vreg_comps) {
            Some(r) => {
                assign[v as usize] = r as u32;
                scan.hold(v, r, comps);
            }
            None if on_fail(v) => {}
            None => return,
        }
    }
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
