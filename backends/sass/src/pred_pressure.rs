//! Predicate values kept in GPRs where more would be live than the seven physical predicates.
//!
//! A predicate chosen to live in a GPR (a *mirror*, 0 or 1) is never held in a predicate register
//! for long: every write of it goes to a fresh predicate that `SEL mirror, RZ, 0x1, !t` copies into
//! the mirror under the writer's guard, and every read of it reads a fresh predicate that
//! `ISETP.NE.U32.AND t, PT, mirror, RZ, PT` rebuilds just before. Those fresh predicates live for
//! one instruction, in the place of the value they stand for, so the predicates live at any point
//! drop by one for each value moved out. ptxas does the same with P2R/R2P (several predicates per
//! GPR); one GPR per value keeps every instruction a form the encoder already has.

use crate::ir::*;
use crate::liveness::{live_ranges_in, vreg_files, LiveRanges};
use crate::regalloc::{scan_file, FileScan};

/// Physical predicates P0..P6.
const PREDICATES: usize = 7;

/// Rounds of choosing values to move out: each round lowers the number of predicates it lets be
/// live at once, for the few kernels whose ranges' holes keep a scan from fitting the first time.
const ROUNDS: usize = 4;

/// Moves predicate values into GPRs until the predicate file's ranges fit in its seven registers
/// (left as it is when it fits already, or when no round helps: assignment then reports it).
pub fn fit_predicates(f: &mut Function) {
    fit_predicates_with(f, None);
}

/// [`fit_predicates`], given for its first round the register files and live ranges (of at least
/// the predicate values) of `f` as it is, when the caller has them.
pub fn fit_predicates_with(f: &mut Function, mut ranges: Option<(Vec<RegFile>, LiveRanges)>) {
    let fresh_from = f.num_vregs;
    for round in 0..ROUNDS {
        let (files, lr) = match ranges.take() {
            Some(given) => given,
            None => {
                let files = vreg_files(f);
                let lr = live_ranges_in(f, &files, |file| file == RegFile::Pred);
                (files, lr)
            }
        };
        if !files.contains(&RegFile::Pred) {
            return;
        }
        let mut scan = FileScan::new(PREDICATES, &[]);
        let mut assign = vec![0u32; f.vreg_comps.len()];
        if scan_file(f, &lr, &files, RegFile::Pred, &mut scan, &mut assign).is_ok() {
            return;
        }
        let movable = |v: usize| files[v] == RegFile::Pred && (v as u32) < fresh_from;
        let out = values_to_move(&lr, f.vreg_comps.len(), PREDICATES - round, movable);
        if !out.iter().any(|&o| o) {
            return;
        }
        move_to_gprs(f, &out);
    }
}

/// Whether the predicate values of `f` fit the predicate file as they are (`lr`: live ranges of at
/// least the predicate values, `files`: every value's file), so that [`fit_predicates`] would
/// leave `f` alone.
pub fn predicates_fit(f: &Function, lr: &LiveRanges, files: &[RegFile]) -> bool {
    if !files.contains(&RegFile::Pred) {
        return true;
    }
    let mut scan = FileScan::new(PREDICATES, &[]);
    let mut assign = vec![0u32; f.vreg_comps.len()];
    scan_file(f, lr, files, RegFile::Pred, &mut scan, &mut assign).is_ok()
}

/// Sweeps the slots in order and, wherever more than `limit` movable ranges are live, moves out
/// the live ones that span the most slots until `limit` are left.
fn values_to_move(
    lr: &LiveRanges,
    nv: usize,
    limit: usize,
    movable: impl Fn(usize) -> bool,
) -> Vec<bool> {
    let mut events: Vec<(u32, bool, u32)> = Vec::new();
    let mut span = vec![0u32; nv];
    for v in (0..nv).filter(|&v| movable(v)) {
        let segs = lr.of(v);
        if let (Some(first), Some(last)) = (segs.first(), segs.last()) {
            span[v] = last.1 - first.0;
        }
        for &(s, e) in segs {
            events.push((s, true, v as u32));
            events.push((e, false, v as u32));
        }
    }
    // Ends before starts at the same slot: half-open segments that touch do not overlap.
    events.sort_unstable_by_key(|&(at, starts, v)| (at, starts, v));
    let mut out = vec![false; nv];
    let mut live: Vec<u32> = Vec::new();
    for (_, starts, v) in events {
        if out[v as usize] {
            continue;
        }
        if !starts {
            live.retain(|&x| x != v);
            continue;
        }
        live.push(v);
        while live.len() > limit {
            let (k, _) = live
                .iter()
                .enumerate()
                .max_by_key(|&(_, &x)| (span[x as usize], x))
                .unwrap();
            out[live.swap_remove(k) as usize] = true;
        }
    }
    out
}

/// Rewrites every read and write of the predicates `out` selects through GPR mirrors.
pub(crate) fn move_to_gprs(f: &mut Function, out: &[bool]) {
    let mut mirror: Vec<Option<Reg>> = vec![None; out.len()];
    for (v, &o) in out.iter().enumerate() {
        if o {
            mirror[v] = Some(f.new_vreg(RegFile::Gpr, 1));
        }
    }
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].instrs);
        let mut new = Vec::with_capacity(old.len() + 8);
        for i in old {
            rewrite_instr(f, i, &mirror, &mut new);
        }
        f.blocks[b].instrs = new;
    }
}

/// One instruction: reloads of the mirrored predicates it reads, the instruction on fresh
/// predicates, then the copies of the mirrored predicates it wrote into their mirrors.
fn rewrite_instr(f: &mut Function, mut i: Instr, mirror: &[Option<Reg>], new: &mut Vec<Instr>) {
    let mirrored = |r: Reg| r.file == RegFile::Pred && mirror[r.idx as usize].is_some();
    let mut reloaded: Vec<(u32, Reg)> = Vec::new();
    let mut reads: Vec<&mut Src> = vec![&mut i.guard];
    reads.extend(i.srcs.iter_mut());
    for s in reads {
        let SrcVal::Reg(r) = s.val else { continue };
        if !mirrored(r) {
            continue;
        }
        let t = match reloaded.iter().find(|(v, _)| *v == r.idx) {
            Some(&(_, t)) => t,
            None => {
                let t = f.new_vreg(RegFile::Pred, 1);
                new.push(reload(t, mirror[r.idx as usize].unwrap()));
                reloaded.push((r.idx, t));
                t
            }
        };
        s.val = SrcVal::Reg(t);
    }
    let mut stores: Vec<(Reg, Reg)> = Vec::new();
    for d in &mut i.dsts {
        let Dst::Reg(r) = *d else { continue };
        if mirrored(r) {
            let t = f.new_vreg(RegFile::Pred, 1);
            *d = Dst::Reg(t);
            stores.push((t, mirror[r.idx as usize].unwrap()));
        }
    }
    let mut guard = i.guard;
    if !stores.is_empty() && writes_guard(&i) {
        // The copies run under the guard the instruction saw, not the value it wrote there.
        let g = f.new_vreg(RegFile::Pred, 1);
        new.push(pred_copy(g, i.guard));
        guard = Src::reg(g);
    }
    new.push(i);
    for (t, m) in stores {
        new.push(store(m, t).guarded(guard));
    }
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

/// `ISETP.NE.U32.AND t, PT, mirror, RZ, PT`: the predicate back from its mirror.
fn reload(t: Reg, mirror: Reg) -> Instr {
    let op = Opcode::Isetp {
        cmp: IntCmp::Ne,
        signed: false,
        combine: BoolOp::And,
        ex: false,
    };
    Instr::new(
        op,
        &[Dst::Reg(t), Dst::None],
        &[Src::reg(mirror), Src::ZERO, Src::TRUE],
    )
}

/// `SEL mirror, RZ, 0x1, !t`: 1 where the predicate is true, else 0.
fn store(mirror: Reg, t: Reg) -> Instr {
    Instr::new(
        Opcode::Sel,
        &[Dst::Reg(mirror)],
        &[Src::ZERO, Src::imm(1), Src::reg(t).negated()],
    )
}

/// `ISETP.EQ.U32.AND d, PT, RZ, RZ, s`: a copy of the predicate source `s` (negation included).
fn pred_copy(d: Reg, s: Src) -> Instr {
    let op = Opcode::Isetp {
        cmp: IntCmp::Eq,
        signed: false,
        combine: BoolOp::And,
        ex: false,
    };
    Instr::new(op, &[Dst::Reg(d), Dst::None], &[Src::ZERO, Src::ZERO, s])
}
