//! Copy coalescing before register allocation: a GPR copy `MOV d, s` whose two words never hold
//! different live values gets one register for both, so that the copy becomes `MOV Rx, Rx` and
//! goes ([`remove_self_copies`]).
//!
//! Lowering copies a vector load's group out into its scalar elements, scalars into a group for
//! a vector store or an `mma` fragment, and 64-bit halves in and out of pairs; those copies are
//! where the values meet. Coalescing works on 32-bit parts: a scalar may become part `k` of a
//! group, a pair parts `k, k+1` of a quad (`k` aligned to its size), two scalars one. The merged
//! vregs keep their names in the IR (the allocation verifier still follows each by name): the
//! member is placed at an offset of its root, and the root's parts are live where any member's
//! part is. Two parts merge only where their live ranges (per part, `liveness.rs`) are disjoint,
//! with one exception: a guarded copy `@P MOV d, s` of a value `s` written only by `@P` just
//! before (nothing in between touching `d`'s register or `P`) may overlap `d` there, since the
//! write then gives `d` the value the copy would (the predicated vector load with zeroed
//! elements that CUTLASS writes).

use crate::ir::*;
use crate::liveness::{part_live_ranges, LiveRanges, Parts};

/// Where each GPR vreg lives after coalescing: `(root, offset)`, `(v, 0)` for roots.
pub struct Coalesced {
    pub root: Vec<(u32, u8)>,
    /// Live ranges per vreg: roots' cover their members', members' are empty.
    pub ranges: LiveRanges,
    /// How many copies were coalesced.
    pub merged: usize,
}

/// A candidate copy: its weight (loop depth), global position, block and index in it.
struct Copy {
    weight: u32,
    pos: u32,
    block: usize,
    index: usize,
    d: Reg,
    s: Reg,
    guard: Src,
}

/// Coalesces the GPR copies of `f` where no live values meet; `lr` gives the other files'
/// ranges unchanged. `None` when nothing merges.
pub fn coalesce(f: &Function, files: &[RegFile], lr: &LiveRanges) -> Option<Coalesced> {
    let copies = candidate_copies(f, files);
    if copies.is_empty() {
        return None;
    }
    let (plr, parts) = part_live_ranges(f, files, |file| file == RegFile::Gpr);
    let nv = f.vreg_comps.len();
    let mut st = State {
        root: (0..nv as u32).map(|v| (v, 0)).collect(),
        members: vec![Vec::new(); nv],
        segs: (0..parts.count()).map(|u| plr.of(u).to_vec()).collect(),
        parts,
    };
    let counts = AccessCounts::of(f, &st.parts);
    let starts = block_starts(f);
    let mut merged = 0;
    for c in &copies {
        if st.try_merge(f, c, &counts, starts[c.block]) {
            merged += 1;
        }
    }
    if merged == 0 {
        return None;
    }
    let ranges = st.vreg_ranges(f, files, lr);
    Some(Coalesced {
        root: st.root,
        ranges,
        merged,
    })
}

/// Deletes copies of a physical register to itself (after allocation).
pub fn remove_self_copies(f: &mut Function) {
    for b in &mut f.blocks {
        b.instrs.retain(|i| {
            !(i.op == Opcode::Mov
                && matches!((i.dsts[0], i.srcs[0]), (Dst::Reg(d), s)
                    if s == Src::reg(d) && d.file == RegFile::Gpr))
        });
    }
}

/// Unmodified single-word GPR copies between coalescable vregs, heaviest (innermost loops) first.
fn candidate_copies(f: &Function, files: &[RegFile]) -> Vec<Copy> {
    let mut excluded = vec![false; f.vreg_comps.len()];
    if let Some((sp, _)) = f.frame.pinned() {
        excluded[sp as usize] = true;
    }
    if let Some(sp) = f.frame.stack_ptr {
        excluded[sp.idx as usize] = true;
    }
    for &(v, _) in &f.fixed {
        excluded[v as usize] = true;
    }
    let depth = crate::spill::loop_depths(f);
    let mut copies = Vec::new();
    let mut pos = 0u32;
    for (b, block) in f.blocks.iter().enumerate() {
        for (k, i) in block.instrs.iter().enumerate() {
            let p = pos + k as u32;
            if i.op != Opcode::Mov {
                continue;
            }
            let (Dst::Reg(d), SrcVal::Reg(s)) = (i.dsts[0], i.srcs[0].val) else {
                continue;
            };
            let plain = |r: Reg| {
                r.file == RegFile::Gpr
                    && r.comps == 1
                    && files[r.idx as usize] == RegFile::Gpr
                    && !excluded[r.idx as usize]
            };
            if plain(d) && plain(s) && !i.srcs[0].neg && !i.srcs[0].abs && d.idx != s.idx {
                copies.push(Copy {
                    weight: depth[b],
                    pos: p,
                    block: b,
                    index: k,
                    d,
                    s,
                    guard: i.guard,
                });
            }
        }
        pos += block.instrs.len() as u32;
    }
    copies.sort_by_key(|c| (std::cmp::Reverse(c.weight), c.pos));
    copies
}

fn block_starts(f: &Function) -> Vec<u32> {
    let mut starts = Vec::with_capacity(f.blocks.len());
    let mut pos = 0u32;
    for b in &f.blocks {
        starts.push(pos);
        pos += b.instrs.len() as u32;
    }
    starts
}

/// Writes per vreg and reads per part, for the guarded-copy exception.
struct AccessCounts {
    writes: Vec<u32>,
    reads: Vec<u32>,
}

impl AccessCounts {
    fn of(f: &Function, parts: &Parts) -> AccessCounts {
        let mut c = AccessCounts {
            writes: vec![0; f.vreg_comps.len()],
            reads: vec![0; parts.count()],
        };
        for i in f.instrs() {
            i.visit_regs(|r, a| match a {
                Access::Write => c.writes[r.idx as usize] += 1,
                Access::Read => parts.of(r).for_each(|u| c.reads[u] += 1),
            });
        }
        c
    }
}

/// The merges so far.
struct State {
    root: Vec<(u32, u8)>,
    members: Vec<Vec<u32>>,
    /// Live segments of each part of each root (members' parts folded in).
    segs: Vec<Vec<(u32, u32)>>,
    parts: Parts,
}

impl State {
    /// The root part holding word `comp` of vreg `v`.
    fn place(&self, v: u32, comp: u8) -> (u32, u8) {
        let (r, off) = self.root[v as usize];
        (r, off + comp)
    }

    fn part_segs(&self, root: u32, k: u8) -> &[(u32, u32)] {
        &self.segs[(self.parts.base[root as usize] + k as u32) as usize]
    }

    /// Merges the two sides of copy `c` where they fit and never meet; whether it did.
    fn try_merge(&mut self, f: &Function, c: &Copy, counts: &AccessCounts, start: u32) -> bool {
        let (rd, pd) = self.place(c.d.idx, c.d.comp);
        let (rs, ps) = self.place(c.s.idx, c.s.comp);
        if rd == rs {
            return false;
        }
        let comps = |v: u32| f.vreg_comps[v as usize];
        let (big, pb, small, psm) = if comps(rs) >= comps(rd) {
            (rs, ps, rd, pd)
        } else {
            (rd, pd, rs, ps)
        };
        let Some(off) = pb.checked_sub(psm) else {
            return false;
        };
        let n = comps(small);
        let align = (n as usize).next_power_of_two().min(8) as u8;
        if off as usize + n as usize > comps(big) as usize || off % align != 0 {
            return false;
        }
        let window = if c.guard == Src::TRUE {
            None
        } else {
            self.guarded_window(f, c, counts, start, (rd, pd))
        };
        let s_is_big = big == rs;
        for j in 0..n {
            let a = self.part_segs(small, j);
            let b = self.part_segs(big, off + j);
            if !meets_outside(a, b, if j == psm { window } else { None }) {
                continue;
            }
            // Another word of the same groups, copied under the same guard in this block.
            let (dp, sp) = if s_is_big {
                ((small, j), (big, off + j))
            } else {
                ((big, off + j), (small, j))
            };
            let other = (j != psm && c.guard != Src::TRUE)
                .then(|| self.partner_window(f, c, counts, start, dp, sp))
                .flatten();
            if other.is_none() || meets_outside(a, b, other) {
                return false;
            }
        }
        for j in 0..n {
            let mine = std::mem::take(
                &mut self.segs[(self.parts.base[small as usize] + j as u32) as usize],
            );
            let at = (self.parts.base[big as usize] + (off + j) as u32) as usize;
            self.segs[at] = union(&self.segs[at], &mine);
        }
        let moved = std::mem::take(&mut self.members[small as usize]);
        for m in moved.iter().copied().chain([small]) {
            let (_, o) = self.root[m as usize];
            self.root[m as usize] = (big, o + off);
            self.members[big as usize].push(m);
        }
        true
    }

    /// The window of [`State::guarded_window`] for the copy in `c`'s block, under its guard, from
    /// root part `sp` into root part `dp`, if there is one.
    fn partner_window(
        &self,
        f: &Function,
        c: &Copy,
        counts: &AccessCounts,
        start: u32,
        dp: (u32, u8),
        sp: (u32, u8),
    ) -> Option<(u32, u32)> {
        let instrs = &f.blocks[c.block].instrs;
        let k = instrs.iter().position(|i| {
            i.op == Opcode::Mov
                && i.guard == c.guard
                && matches!((i.dsts[0], i.srcs[0].val), (Dst::Reg(d), SrcVal::Reg(s))
                    if d.comps == 1 && s.comps == 1 && d.file == RegFile::Gpr
                        && s.file == RegFile::Gpr
                        && self.place(d.idx, d.comp) == dp && self.place(s.idx, s.comp) == sp)
        })?;
        let (Dst::Reg(d), SrcVal::Reg(s)) = (instrs[k].dsts[0], instrs[k].srcs[0].val) else {
            return None;
        };
        let partner = Copy {
            weight: c.weight,
            pos: start + k as u32,
            block: c.block,
            index: k,
            d,
            s,
            guard: c.guard,
        };
        self.guarded_window(f, &partner, counts, start, dp)
    }

    /// For a guarded copy `@P MOV d, s`: where `s`'s only write is `@P` earlier in the block and
    /// its word is read only by the copy, and nothing between touches `d`'s root part or writes
    /// `P`, the slots from that write to the copy, where `d` and `s` may overlap.
    fn guarded_window(
        &self,
        f: &Function,
        c: &Copy,
        counts: &AccessCounts,
        start: u32,
        d_place: (u32, u8),
    ) -> Option<(u32, u32)> {
        let s_part = self.parts.base[c.s.idx as usize] as usize + c.s.comp as usize;
        if counts.writes[c.s.idx as usize] != 1 || counts.reads[s_part] != 1 {
            return None;
        }
        let instrs = &f.blocks[c.block].instrs;
        let k0 = (0..c.index).rev().find(|&k| {
            let mut w = false;
            instrs[k].visit_regs(|r, a| w |= a == Access::Write && r.idx == c.s.idx);
            w
        })?;
        if instrs[k0].guard != c.guard {
            return None;
        }
        let SrcVal::Reg(g) = c.guard.val else {
            return None;
        };
        for i in &instrs[k0 + 1..c.index] {
            let mut bad = false;
            i.visit_regs(|r, a| {
                if r.file != RegFile::Gpr {
                    bad |= a == Access::Write && r.file == g.file && r.idx == g.idx;
                    return;
                }
                for k in 0..r.comps {
                    bad |= self.place(r.idx, r.comp + k) == d_place;
                }
            });
            if bad {
                return None;
            }
        }
        Some((
            2 * (start + k0 as u32) + 1,
            2 * (start + c.index as u32) + 1,
        ))
    }

    /// Every vreg's range: a root's is the union of its parts', a member's is empty, other
    /// files' are `lr`'s.
    fn vreg_ranges(&self, f: &Function, files: &[RegFile], lr: &LiveRanges) -> LiveRanges {
        let mut segs = Vec::new();
        let mut first = Vec::with_capacity(f.vreg_comps.len() + 1);
        for v in 0..f.vreg_comps.len() {
            first.push(segs.len() as u32);
            if files[v] != RegFile::Gpr {
                segs.extend_from_slice(lr.of(v));
            } else if self.root[v].0 == v as u32 {
                let mut all: Vec<(u32, u32)> = Vec::new();
                for k in 0..f.vreg_comps[v].max(1) {
                    all = union(&all, self.part_segs(v as u32, k));
                }
                segs.extend(all);
            }
        }
        first.push(segs.len() as u32);
        LiveRanges { segs, first }
    }
}

/// Whether sorted half-open segment lists `a` and `b` overlap anywhere outside `allowed`.
fn meets_outside(a: &[(u32, u32)], b: &[(u32, u32)], allowed: Option<(u32, u32)>) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (s, e) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if s < e && !allowed.is_some_and(|(ws, we)| ws <= s && e <= we) {
            return true;
        }
        if a[i].1 <= b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

/// The union of two sorted lists of half-open segments, merged where they touch.
fn union(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut all: Vec<(u32, u32)> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match out.last_mut() {
            Some(last) if last.1 >= s => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_inside_the_window_is_allowed_and_outside_is_not() {
        let a = [(3, 9)];
        let b = [(5, 7)];
        assert!(meets_outside(&a, &b, None));
        assert!(!meets_outside(&a, &b, Some((4, 8))));
        assert!(meets_outside(&a, &b, Some((6, 8))));
        assert!(!meets_outside(&[(0, 2)], &[(2, 4)], None));
    }

    /// `x = 0` before a loop whose body writes `s` under `@p`, copies it into `x` under `@p` and
    /// reads `x`: `s` is live from its write only (not around the loop), and the copy coalesces.
    fn guarded_copy_loop() -> (Function, Reg, Reg) {
        let mut f = Function::default();
        let p = f.new_vreg(RegFile::Pred, 1);
        let x = f.new_vreg(RegFile::Gpr, 1);
        let s = f.new_vreg(RegFile::Gpr, 1);
        let y = f.new_vreg(RegFile::Gpr, 1);
        let mov = |d: Reg, src: Src| Instr::new(Opcode::Mov, &[Dst::Reg(d)], &[src]);
        let on_p = Src::reg(p);
        f.blocks.push(Block {
            instrs: vec![mov(x, Src::imm(0))],
        });
        f.blocks.push(Block {
            instrs: vec![
                mov(s, Src::imm(7)).guarded(on_p),
                mov(x, Src::reg(s)).guarded(on_p),
                mov(y, Src::reg(x)),
                Instr::new(Opcode::Bra { target: 1 }, &[], &[]).guarded(on_p),
            ],
        });
        f.blocks.push(Block { instrs: vec![] });
        (f, x, s)
    }

    #[test]
    fn a_guarded_copy_of_a_same_guard_write_coalesces() {
        let (f, x, s) = guarded_copy_loop();
        let files = crate::liveness::vreg_files(&f);
        let (plr, parts) = part_live_ranges(&f, &files, |_| true);
        // Written at instruction 1 (slot 3), read at 2: not live from the loop's start (slot 2).
        assert_eq!(plr.of(parts.base[s.idx as usize] as usize), &[(3, 5)]);
        let lr = crate::liveness::live_ranges(&f);
        let c = coalesce(&f, &files, &lr).expect("the copy coalesces");
        assert_eq!(c.merged, 1);
        assert_eq!(c.root[s.idx as usize].0, c.root[x.idx as usize].0);
        let before = f.clone();
        let mut g = f.clone();
        crate::regalloc::assign_registers(&mut g, crate::arch::Sm::new(80), 255).unwrap();
        crate::regalloc::verify_allocation(&before, &g).unwrap();
        let n = g.num_instrs();
        remove_self_copies(&mut g);
        assert_eq!(g.num_instrs(), n - 1);
    }

    #[test]
    fn union_merges_touching_segments() {
        assert_eq!(union(&[(0, 2), (6, 8)], &[(2, 4)]), vec![(0, 4), (6, 8)]);
    }
}
