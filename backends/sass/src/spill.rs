//! GPR spilling: where the GPR ranges do not fit the register budget, some values live in stack
//! frame slots instead, stored by `STL` after every write and reloaded by `LDL` before every read.
//!
//! A spilled value is a whole virtual register (a 64-bit pair, a quad or a CAS group is one
//! virtual register, so groups are spilled whole, never half). Each write of it goes to a fresh
//! register that `STL [R1+slot]` stores right after (under the writer's guard); each read reads a
//! fresh register that `LDL [R1+slot]` fills right before. Those fresh registers live for one
//! instruction and are never spilled themselves. Which values go is chosen by a sweep over the
//! program points: wherever more registers would be live than the budget, the live value with the
//! lowest cost goes first, cost being its reads and writes (each weighted by 8 per enclosing
//! loop) per slot of live range: long ranges with few uses, outside loops, go first.
//! `LDL`/`STL` are variable-latency memory operations: the scheduler gives their results and
//! their late source reads scoreboards (`latency.rs`), as for the `.local` accesses of `local.rs`.

use crate::arch::Sm;
use crate::frame::{resize_prologue, SlotKind, STACK_TOP_CBUF};
use crate::ir::*;
use crate::liveness::LiveRanges;
use crate::reg_regions::GprBudget;
use crate::regalloc::successors;

/// Rounds of spilling: each lowers the number of registers the sweep lets be live
/// ([`headroom`]), for the kernels where aligned groups and ranges' holes keep a scan from
/// fitting at first.
pub const ROUNDS: usize = 12;

/// Registers below `usable` that round `round` keeps free: two more each round for the first six,
/// four more each round after. Large CUTLASS kernels, whose quads and pairs of mma fragments
/// fragment the file, need 14 to 28 (they ran out of rounds at 10 when every round added two).
pub fn headroom(round: usize) -> usize {
    if round < 6 {
        2 * round
    } else {
        12 + 4 * (round - 5)
    }
}

/// One spill round: chooses values so that at most `usable - headroom(round)` GPRs are live anywhere,
/// and rewrites their accesses through frame slots. `fresh_from`: registers numbered from there
/// are spill temporaries (never chosen). Returns whether anything was spilled.
pub fn spill_round(
    f: &mut Function,
    sm: Sm,
    lr: &LiveRanges,
    files: &[RegFile],
    usable: usize,
    round: usize,
    fresh_from: u32,
) -> bool {
    let budget = GprBudget::uniform(usable);
    spill_round_within(f, sm, lr, files, &budget, (round, fresh_from, &[]))
}

/// [`spill_round`] where the usable registers differ between program points (`setmaxnreg`
/// regions, `reg_regions.rs`): the values whose ranges reach a region of `n` registers use at
/// most `n` less the round's headroom. `unplaced`: values a register scan found no room for,
/// spilled too where they may be.
pub fn spill_round_within(
    f: &mut Function,
    sm: Sm,
    lr: &LiveRanges,
    files: &[RegFile],
    usable: &GprBudget,
    (round, fresh_from, unplaced): (usize, u32, &[u32]),
) -> bool {
    // The last round spills every value that may be spilled: each then lives in a register only
    // for the instruction that reads or writes it, which fits wherever anything can.
    let limit = |level: usize| {
        if round + 1 >= ROUNDS {
            0
        } else {
            level.saturating_sub(headroom(round)).max(4)
        }
    };
    let costs = spill_costs(f, lr, files, fresh_from);
    let caps: Vec<usize> = (0..f.vreg_comps.len())
        .map(|v| usable.over(lr.of(v)))
        .collect();
    let levels = (&caps[..], &usable.levels()[..]);
    // Where no more registers are live than usable, the scan failed on the ranges' holes and the
    // groups' alignment: the values it left out go, rather than a sweep to a lower limit.
    let pressure_fits = !choose(f, lr, files, &costs, levels, |level| level)
        .into_iter()
        .any(|o| o);
    let mut left_out = vec![false; costs.len()];
    for &v in unplaced {
        left_out[v as usize] = costs[v as usize].is_some();
    }
    let out = if pressure_fits && round + 1 < ROUNDS && left_out.contains(&true) {
        left_out
    } else {
        choose(f, lr, files, &costs, levels, limit)
    };
    if !out.iter().any(|&o| o) {
        return false;
    }
    let sp = stack_pointer(f, sm);
    let mut slot = vec![None; out.len()];
    for (v, &o) in out.iter().enumerate() {
        if o {
            let bytes = 4 * f.vreg_comps[v] as u32;
            let align = bytes.next_power_of_two().min(16);
            slot[v] = Some(f.frame.allocate(bytes, align, SlotKind::Spill));
        }
    }
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].instrs);
        let mut new = Vec::with_capacity(old.len() + 8);
        for i in old {
            rewrite_instr(f, i, &slot, sp, &mut new);
        }
        f.blocks[b].instrs = new;
    }
    resize_prologue(f);
    true
}

/// Byte offsets in the final code of the spill stores and reloads (LDL/STL of a spill slot
/// through the stack pointer), for EIATTR_ANNOTATIONS.
pub fn spill_access_offsets(f: &Function) -> Vec<u32> {
    let Some(sp) = f.frame.stack_ptr else {
        return Vec::new();
    };
    let sp = if f.allocated {
        Reg::gpr(crate::frame::STACK_PTR_PHYS)
    } else {
        sp
    };
    let in_spill_slot = |offset: i32| {
        f.frame.slots.iter().any(|s| {
            s.kind == SlotKind::Spill
                && (s.offset as i64..(s.offset + s.size) as i64).contains(&(offset as i64))
        })
    };
    f.instrs()
        .enumerate()
        .filter(|(_, i)| match i.op {
            Opcode::Ldl { offset, .. } | Opcode::Stl { offset, .. } => {
                i.srcs[0] == Src::reg(sp) && in_spill_slot(offset)
            }
            _ => false,
        })
        .map(|(n, _)| (n * 16) as u32)
        .collect()
}

/// What spilling a value costs: `None` for values that may not be spilled.
fn spill_costs(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    fresh_from: u32,
) -> Vec<Option<f64>> {
    let nv = f.vreg_comps.len();
    let depth = loop_depths(f);
    let mut weight = vec![0f64; nv];
    let mut spillable: Vec<bool> = (0..nv)
        .map(|v| files[v] == RegFile::Gpr && (v as u32) < fresh_from)
        .collect();
    if let Some((sp, _)) = f.frame.pinned() {
        spillable[sp as usize] = false;
    }
    for (b, block) in f.blocks.iter().enumerate() {
        let w = 8f64.powi(depth[b].min(6) as i32);
        for i in &block.instrs {
            let no_store_after = i.is_terminator() || writes_guard(i);
            // The warpgroup MMAs' registers (accumulators, register A, sparse metadata) stay in
            // place from the MMA to its wait: never spilled.
            let in_place = matches!(i.op, Opcode::Wgmma(_) | Opcode::WarpgroupDepbar { .. });
            let mut seen: Vec<u32> = Vec::new();
            i.visit_regs(|r, a| {
                if r.file != RegFile::Gpr {
                    return;
                }
                if a == Access::Write && no_store_after || in_place {
                    spillable[r.idx as usize] = false;
                }
                if !seen.contains(&r.idx) {
                    seen.push(r.idx);
                    weight[r.idx as usize] += w;
                }
            });
        }
    }
    (0..nv)
        .map(|v| {
            let span: u32 = lr.of(v).iter().map(|&(s, e)| e - s).sum();
            (spillable[v] && span > 0).then(|| weight[v] / span as f64)
        })
        .collect()
}

/// How many loops (back edges in layout order) enclose each block.
pub(crate) fn loop_depths(f: &Function) -> Vec<u32> {
    let mut depth = vec![0u32; f.blocks.len()];
    for b in 0..f.blocks.len() {
        for s in successors(f, b) {
            if s <= b {
                depth[s..=b].iter_mut().for_each(|d| *d += 1);
            }
        }
    }
    depth
}

/// Sweeps the slots in order and takes out live spillable values of lowest cost wherever too
/// many GPRs are live (or until nothing spillable is left there). Each value may use the
/// registers below its cap (`caps`; the smallest budget over its range), so the check is per
/// budget level of `levels` (ascending): the live values capped at or below a level must fit
/// `limit(level)`. With one level this is the plain count of live registers.
fn choose(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    costs: &[Option<f64>],
    (caps, levels): (&[usize], &[usize]),
    limit: impl Fn(usize) -> usize,
) -> Vec<bool> {
    let nv = f.vreg_comps.len();
    let pinned = f.frame.pinned().map(|(p, _)| p as usize);
    let mut events: Vec<(u32, bool, u32)> = Vec::new();
    for v in (0..nv).filter(|&v| files[v] == RegFile::Gpr && Some(v) != pinned) {
        for &(s, e) in lr.of(v) {
            events.push((s, true, v as u32));
            events.push((e, false, v as u32));
        }
    }
    // Ends before starts at the same slot: half-open segments that touch do not overlap.
    events.sort_unstable_by_key(|&(at, starts, v)| (at, starts, v));
    // The first level at or above each value's cap: the value counts there and above.
    let level_of: Vec<usize> = (0..nv)
        .map(|v| {
            (levels.iter())
                .position(|&l| l >= caps[v])
                .unwrap_or(levels.len() - 1)
        })
        .collect();
    let limits: Vec<usize> = levels.iter().map(|&l| limit(l)).collect();
    let mut out = vec![false; nv];
    let mut live: Vec<u32> = Vec::new();
    let mut pressure = vec![0usize; levels.len()];
    let change = |pressure: &mut Vec<usize>, v: u32, add: bool| {
        let comps = f.vreg_comps[v as usize] as usize;
        for p in &mut pressure[level_of[v as usize]..] {
            *p = if add { *p + comps } else { *p - comps };
        }
    };
    for (_, starts, v) in events {
        if out[v as usize] {
            continue;
        }
        if !starts {
            if let Some(k) = live.iter().position(|&x| x == v) {
                live.swap_remove(k);
                change(&mut pressure, v, false);
            }
            continue;
        }
        live.push(v);
        change(&mut pressure, v, true);
        while let Some(over) = (0..levels.len()).find(|&l| pressure[l] > limits[l]) {
            let cheapest = live
                .iter()
                .enumerate()
                .filter(|&(_, &x)| level_of[x as usize] <= over)
                .filter_map(|(k, &x)| costs[x as usize].map(|c| (k, x, c)))
                .min_by(|a, b| a.2.total_cmp(&b.2).then(b.1.cmp(&a.1)));
            let Some((k, x, _)) = cheapest else { break };
            out[x as usize] = true;
            live.swap_remove(k);
            change(&mut pressure, x, false);
        }
    }
    out
}

/// The frame's stack pointer; a function without a frame gets one, with the prologue
/// `MOV R1, c[0x0][0x28]` (LDC on sm_90) and `IADD3 R1, R1, -size, RZ` at its entry.
fn stack_pointer(f: &mut Function, sm: Sm) -> Reg {
    if let Some(sp) = f.frame.stack_ptr {
        return sp;
    }
    let sp = f.new_vreg(RegFile::Gpr, 1);
    f.frame.stack_ptr = Some(sp);
    let load = if sm.num >= 90 {
        Opcode::Ldc { wide: false }
    } else {
        Opcode::Mov
    };
    let prologue = [
        Instr::new(load, &[Dst::Reg(sp)], &[Src::cbuf(0, STACK_TOP_CBUF)]),
        Instr::new(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(sp), Dst::None],
            &[Src::reg(sp), Src::imm(0), Src::ZERO],
        ),
    ];
    f.blocks[0].instrs.splice(0..0, prologue);
    sp
}

/// Whether the instruction writes the predicate that guards it.
fn writes_guard(i: &Instr) -> bool {
    let SrcVal::Reg(g) = i.guard.val else {
        return false;
    };
    i.dsts.iter().any(|d| {
        d.as_reg()
            .is_some_and(|r| r.idx == g.idx && r.file == g.file)
    })
}

/// One instruction: reloads of the spilled values it reads, the instruction on fresh registers,
/// then the stores of the spilled values it wrote.
fn rewrite_instr(
    f: &mut Function,
    mut i: Instr,
    slot: &[Option<u32>],
    sp: Reg,
    new: &mut Vec<Instr>,
) {
    let spilled =
        |r: Reg| r.file == RegFile::Gpr && slot.get(r.idx as usize).is_some_and(Option::is_some);
    let mut reloaded: Vec<((u32, u8, u8), Reg)> = Vec::new();
    for s in i.srcs.iter_mut() {
        let SrcVal::Reg(r) = s.val else { continue };
        if !spilled(r) {
            continue;
        }
        let key = (r.idx, r.comp, r.comps);
        let t = match reloaded.iter().find(|(k, _)| *k == key) {
            Some(&(_, t)) => t,
            None => {
                let t = f.new_vreg(RegFile::Gpr, r.comps);
                let at = slot[r.idx as usize].unwrap() + 4 * r.comp as u32;
                for (part, size, offset) in pieces(at, r.comps) {
                    let d = words(t, part, size);
                    new.push(Instr::new(
                        Opcode::Ldl {
                            size: mem_size(size),
                            offset: offset as i32,
                        },
                        &[Dst::Reg(d)],
                        &[Src::reg(sp)],
                    ));
                    f.frame.spill_load_bytes += 4 * size as u32;
                }
                reloaded.push((key, t));
                t
            }
        };
        s.val = SrcVal::Reg(t);
    }
    let mut stores: Vec<(Reg, u32)> = Vec::new();
    for d in &mut i.dsts {
        let Dst::Reg(r) = *d else { continue };
        if spilled(r) {
            let t = f.new_vreg(RegFile::Gpr, r.comps);
            *d = Dst::Reg(t);
            stores.push((t, slot[r.idx as usize].unwrap() + 4 * r.comp as u32));
        }
    }
    let guard = i.guard;
    new.push(i);
    for (t, at) in stores {
        for (part, size, offset) in pieces(at, t.comps) {
            let data = words(t, part, size);
            let st = Instr::new(
                Opcode::Stl {
                    size: mem_size(size),
                    offset: offset as i32,
                },
                &[],
                &[Src::reg(sp), Src::reg(data)],
            );
            new.push(st.guarded(guard));
            f.frame.spill_store_bytes += 4 * size as u32;
        }
    }
}

/// The accesses that move `comps` words at frame offset `at`: `(first part, words, offset)`,
/// one access where the width is 1, 2 or 4 words and the offset is aligned to it, else one per
/// word.
fn pieces(at: u32, comps: u8) -> Vec<(u8, u8, u32)> {
    if matches!(comps, 1 | 2 | 4) && at % (4 * comps as u32) == 0 {
        return vec![(0, comps, at)];
    }
    (0..comps).map(|k| (k, 1, at + 4 * k as u32)).collect()
}

fn mem_size(words: u8) -> MemSize {
    match words {
        1 => MemSize::B32,
        2 => MemSize::B64,
        _ => MemSize::B128,
    }
}

/// `n` words of the group `r` from its word `first`.
fn words(r: Reg, first: u8, n: u8) -> Reg {
    Reg {
        comp: r.comp + first,
        comps: n,
        ..r
    }
}
