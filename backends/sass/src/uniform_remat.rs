//! Uniform values recomputed where they are read instead of kept in a uniform register: a value
//! that the code may compute again anywhere (a constant-bank word loaded by `ULDC`, an immediate
//! moved by `UMOV`, an `S2UR` of a special register that never changes in a CTA) is loaded again
//! right before each instruction that reads it, into a fresh uniform register that lives for
//! that instruction only, and its own load goes.
//!
//! Two users: register allocation, where more uniform registers would be live than the 59 usable
//! (`regalloc.rs`: [`relieve_pressure`] chooses, as the GPR spill sweep does, the values with
//! the fewest reads per slot of live range, reads in loops weighing more), and calls
//! (`subroutine.rs`), which may overwrite every uniform register: the values live across one are
//! recomputed after it. Values of other kinds stay where they are (the caller reports them).

use crate::ir::*;
use crate::liveness::LiveRanges;

/// Uniform registers the allocator may use (UR4..UR62; `regalloc.rs`).
pub const USABLE: usize = 59;

/// Rounds of [`relieve_pressure`]: each keeps two more uniform registers free, for where aligned
/// pairs and quads do not fit side by side below the count.
pub const ROUNDS: usize = 4;

/// Special registers the same everywhere in a CTA, which `S2UR` may read again.
fn invariant(sr: SpecialReg) -> bool {
    matches!(
        sr,
        SpecialReg::CtaIdX
            | SpecialReg::CtaIdY
            | SpecialReg::CtaIdZ
            | SpecialReg::CgaCtaId
            | SpecialReg::SharedWindowHi
            | SpecialReg::SmemSz
    )
}

/// Whether `i` computes its uniform destination from constants only.
fn recomputable(i: &Instr) -> bool {
    let constant_srcs = i.srcs.iter().all(|s| !matches!(s.val, SrcVal::Reg(_)));
    let op = match i.op {
        Opcode::Uldc { .. } | Opcode::UldcNarrow { .. } => true,
        Opcode::Umov => matches!(i.srcs[0].val, SrcVal::Imm(_) | SrcVal::Zero),
        Opcode::S2ur(sr) => invariant(sr),
        _ => false,
    };
    op && constant_srcs && i.guard == Src::TRUE && i.dsts[1] == Dst::None
}

/// Per virtual register, the instruction that computes it where it is a uniform register with
/// one write, a whole-register write by a [`recomputable`] instruction; `None` otherwise.
pub fn recomputable_defs(f: &Function) -> Vec<Option<Instr>> {
    let nv = f.vreg_comps.len();
    let mut writes = vec![0u32; nv];
    let mut def: Vec<Option<Instr>> = vec![None; nv];
    for i in f.instrs() {
        for d in i.dsts.iter().filter_map(Dst::as_reg) {
            let v = d.idx as usize;
            writes[v] += 1;
            let whole = d.comp == 0 && d.comps == f.vreg_comps[v];
            if d.file == RegFile::UGpr && whole && recomputable(i) {
                def[v] = Some(*i);
            }
        }
    }
    for (v, d) in def.iter_mut().enumerate() {
        if writes[v] != 1 || f.fixed.iter().any(|&(p, _)| p as usize == v) {
            *d = None;
        }
    }
    def
}

/// Recomputes each value of `chosen` (indices of [`recomputable_defs`]'s `Some`) before each
/// instruction that reads it and removes its own computation. Returns how many values went.
pub fn recompute(f: &mut Function, defs: &[Option<Instr>], chosen: &[bool]) -> usize {
    let is_chosen =
        |r: &Reg| r.file == RegFile::UGpr && chosen.get(r.idx as usize).copied().unwrap_or(false);
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].instrs);
        let mut new = Vec::with_capacity(old.len() + 4);
        for mut i in old {
            if i.dsts.iter().filter_map(Dst::as_reg).any(|d| is_chosen(&d)) {
                continue;
            }
            let mut fresh: Vec<(u32, Reg)> = Vec::new();
            let mut loads = Vec::new();
            let mut regs = Vec::new();
            i.visit_regs(|r, a| {
                if a == Access::Read && is_chosen(&r) && !regs.contains(&r.idx) {
                    regs.push(r.idx);
                }
            });
            for v in regs {
                let whole = f.new_vreg(RegFile::UGpr, f.vreg_comps[v as usize]);
                let mut load = defs[v as usize].expect("a chosen value is recomputable");
                load.dsts[0] = Dst::Reg(whole);
                load.loc = i.loc;
                loads.push(load);
                fresh.push((v, whole));
            }
            i.visit_regs_mut(|r, a| {
                if a != Access::Read || r.file != RegFile::UGpr {
                    return;
                }
                if let Some(&(_, whole)) = fresh.iter().find(|(v, _)| *v == r.idx) {
                    r.idx = whole.idx;
                }
            });
            new.extend(loads);
            new.push(i);
        }
        f.blocks[b].instrs = new;
    }
    chosen.iter().filter(|&&c| c).count()
}

/// How much keeping value `v` costs per slot of its range: its reads, each weighted by 8 per
/// enclosing loop, over the slots it is live (`None`: not recomputable).
fn costs(f: &Function, lr: &LiveRanges, defs: &[Option<Instr>]) -> Vec<Option<f64>> {
    let depth = crate::spill::loop_depths(f);
    let mut reads = vec![0f64; f.vreg_comps.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        let w = 8f64.powi(depth[b].min(6) as i32);
        for i in &block.instrs {
            i.visit_regs(|r, a| {
                if a == Access::Read && r.file == RegFile::UGpr {
                    reads[r.idx as usize] += w;
                }
            });
        }
    }
    (0..f.vreg_comps.len())
        .map(|v| {
            let span: u32 = lr.of(v).iter().map(|&(s, e)| e - s).sum();
            (defs[v].is_some() && span > 2).then(|| reads[v] / span as f64)
        })
        .collect()
}

/// Sweeps the slots in order; wherever more than `limit` uniform registers are live, takes out
/// the live recomputable value of lowest cost until they fit or none is left there.
pub fn choose(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    costs: &[Option<f64>],
    limit: usize,
) -> Vec<bool> {
    let nv = f.vreg_comps.len();
    let mut events: Vec<(u32, bool, u32)> = Vec::new();
    for v in (0..nv).filter(|&v| files[v] == RegFile::UGpr) {
        for &(s, e) in lr.of(v) {
            events.push((s, true, v as u32));
            events.push((e, false, v as u32));
        }
    }
    events.sort_unstable_by_key(|&(at, starts, v)| (at, starts, v));
    let mut out = vec![false; nv];
    let mut live: Vec<u32> = Vec::new();
    let mut pressure = 0usize;
    for (_, starts, v) in events {
        if out[v as usize] {
            continue;
        }
        let comps = f.vreg_comps[v as usize] as usize;
        if !starts {
            if let Some(k) = live.iter().position(|&x| x == v) {
                live.swap_remove(k);
                pressure -= comps;
            }
            continue;
        }
        live.push(v);
        pressure += comps;
        while pressure > limit {
            let cheapest = (live.iter().enumerate())
                .filter_map(|(k, &x)| costs[x as usize].map(|c| (k, x, c)))
                .min_by(|a, b| a.2.total_cmp(&b.2).then(b.1.cmp(&a.1)));
            let Some((k, x, _)) = cheapest else { break };
            out[x as usize] = true;
            live.swap_remove(k);
            pressure -= f.vreg_comps[x as usize] as usize;
        }
    }
    out
}

/// Where the uniform registers did not fit: recomputes values so that at most
/// `USABLE - 2 * (round + 1)` are live anywhere (the registers left are for the recomputed
/// values, live at the instructions that read them). Returns whether anything changed.
pub fn relieve_pressure(
    f: &mut Function,
    lr: &LiveRanges,
    files: &[RegFile],
    round: usize,
) -> bool {
    let defs = recomputable_defs(f);
    let costs = costs(f, lr, &defs);
    let chosen = choose(f, lr, files, &costs, USABLE - 2 * (round + 1));
    recompute(f, &defs, &chosen) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Sm;

    fn uldc(d: Reg, offset: u16) -> Instr {
        Instr::new(
            Opcode::Uldc { wide: false },
            &[Dst::Reg(d)],
            &[Src::cbuf(0, offset)],
        )
    }

    fn add(d: Reg, a: Reg, b: Reg) -> Instr {
        Instr::new(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(a), Src::reg(b), Src::ZERO],
        )
    }

    /// `n` ULDCs of distinct words at the entry, then a loop that adds every one of them to an
    /// accumulator: `n` uniform values live through the whole loop.
    fn many_uniforms_in_a_loop(n: usize) -> (Function, Vec<Reg>) {
        let mut f = Function::default();
        let us: Vec<Reg> = (0..n).map(|_| f.new_vreg(RegFile::UGpr, 1)).collect();
        let acc = f.new_vreg(RegFile::Gpr, 1);
        let mut entry: Vec<Instr> = (us.iter().enumerate())
            .map(|(k, &u)| uldc(u, 0x210 + 4 * k as u16))
            .collect();
        entry.push(Instr::new(Opcode::Mov, &[Dst::Reg(acc)], &[Src::ZERO]));
        let mut body: Vec<Instr> = us.iter().map(|&u| add(acc, acc, u)).collect();
        let p = f.new_vreg(RegFile::Pred, 1);
        body.push(Instr::new(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(p), Dst::None],
            &[Src::reg(acc), Src::imm(1000), Src::TRUE],
        ));
        body.push(Instr::new(Opcode::Bra { target: 1 }, &[], &[]).guarded(Src::reg(p)));
        let exit = vec![Instr::new(Opcode::Exit, &[], &[])];
        f.blocks = vec![
            Block { instrs: entry },
            Block { instrs: body },
            Block { instrs: exit },
        ];
        (f, us)
    }

    #[test]
    fn the_sweep_takes_long_ranges_with_few_reads_first() {
        // v0 lives from the entry to the end and is read once; v1..v3 are read right after
        // their loads. With room for one, v0 goes, and only v0.
        let mut f = Function::default();
        let us: Vec<Reg> = (0..4).map(|_| f.new_vreg(RegFile::UGpr, 1)).collect();
        let r = f.new_vreg(RegFile::Gpr, 1);
        let mut instrs = vec![uldc(us[0], 0x210)];
        for k in 1..4 {
            instrs.push(uldc(us[k], 0x214 + 4 * k as u16));
            instrs.push(add(r, r, us[k]));
        }
        instrs.push(uldc(us[1], 0x300));
        instrs.push(add(r, us[1], us[0]));
        instrs.push(Instr::new(Opcode::Exit, &[], &[]));
        f.blocks = vec![Block { instrs }];
        let files = crate::liveness::vreg_files(&f);
        let lr = crate::liveness::live_ranges(&f);
        let defs = recomputable_defs(&f);
        // v1 has two loads: it is no candidate however long it lives.
        assert!(defs[us[0].idx as usize].is_some() && defs[us[1].idx as usize].is_none());
        let chosen = choose(&f, &lr, &files, &costs(&f, &lr, &defs), 1);
        assert!(chosen[us[0].idx as usize]);
        assert_eq!(chosen.iter().filter(|&&c| c).count(), 1);
    }

    #[test]
    fn too_many_live_uniform_values_are_loaded_again_where_read() {
        let (mut f, us) = many_uniforms_in_a_loop(70);
        crate::regalloc::allocate_registers(&mut f, Sm::new(90), 255)
            .expect("fits after recomputing");
        // Each add reads a uniform register that an ULDC of its word wrote just before, or one
        // that stayed live from the entry; no more than the usable ones are used.
        let body = &f.blocks[1].instrs;
        let reloaded = body
            .iter()
            .filter(|i| matches!(i.op, Opcode::Uldc { .. }))
            .count();
        assert!(
            reloaded >= 70 - USABLE,
            "{reloaded} values loaded in the loop"
        );
        assert!(reloaded < 70, "every value was moved: {reloaded}");
        let highest = f
            .instrs()
            .flat_map(|i| i.dsts.iter().filter_map(Dst::as_reg).collect::<Vec<_>>())
            .filter(|r| r.file == RegFile::UGpr)
            .map(|r| r.idx)
            .max()
            .unwrap();
        assert!(highest <= 62, "UR{highest}");
        for w in body.windows(2) {
            if let (Opcode::Uldc { .. }, Opcode::Iadd3 { .. }) = (w[0].op, w[1].op) {
                let Dst::Reg(d) = w[0].dsts[0] else { panic!() };
                assert_eq!(
                    w[1].srcs[1],
                    Src::reg(d),
                    "the reload feeds the add after it"
                );
            }
        }
        drop(us);
    }

    #[test]
    fn the_recomputed_code_allocates_and_every_read_finds_its_value() {
        let (mut f, _) = many_uniforms_in_a_loop(70);
        let files = crate::liveness::vreg_files(&f);
        let lr = crate::liveness::live_ranges(&f);
        assert!(relieve_pressure(&mut f, &lr, &files, 0));
        let before = f.clone();
        crate::regalloc::assign_registers(&mut f, Sm::new(90), 255).expect("fits");
        // One round was enough: allocation kept the sequence (the verifier pairs instructions).
        let ops = |f: &Function| f.instrs().map(|i| (i.op, i.srcs[0])).collect::<Vec<_>>();
        let (ops_before, ops_after) = (ops(&before), ops(&f));
        let same = ops_before.len() == ops_after.len()
            && ops_before
                .iter()
                .zip(&ops_after)
                .all(|(a, b)| a.0 == b.0 && (matches!(a.1.val, SrcVal::Reg(_)) || a.1 == b.1));
        assert!(same, "allocation recomputed more values");
        crate::regalloc::verify_allocation(&before, &f).unwrap();
    }

    #[test]
    fn values_that_fit_are_left_alone() {
        let (mut f, _) = many_uniforms_in_a_loop(40);
        let before = f.num_instrs();
        crate::regalloc::allocate_registers(&mut f, Sm::new(90), 255).unwrap();
        assert_eq!(f.num_instrs(), before);
    }
}
