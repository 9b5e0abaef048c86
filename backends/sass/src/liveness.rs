//! Liveness of virtual registers, per 32-bit part, and the live ranges (segments with holes) that
//! register allocation assigns.
//!
//! A part is live at a point when some path from there reads it before an unguarded write of it,
//! and some path to there may have written it: a read of a part that no definition can reach reads
//! garbage and needs no register, so a value that is only written under a guard, or a 64-bit value
//! built half by half, is live from its first write on and not from the function's entry.
//! Positions are slots: instruction `p` (in block layout order) reads at `2p` and writes at
//! `2p + 1`, so a value whose last read is at `p` may share its register with a value written at `p`.

use crate::ir::*;
use crate::regalloc::successors;

/// A fixed-size set of small integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub fn new(n: usize) -> BitSet {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }
    /// Sets bit `i`; whether it was clear.
    pub fn insert(&mut self, i: usize) -> bool {
        let (w, m) = (i / 64, 1u64 << (i % 64));
        let was_clear = self.words[w] & m == 0;
        self.words[w] |= m;
        was_clear
    }
    /// Clears bit `i`; whether it was set.
    pub fn remove(&mut self, i: usize) -> bool {
        let (w, m) = (i / 64, 1u64 << (i % 64));
        let was_set = self.words[w] & m != 0;
        self.words[w] &= !m;
        was_set
    }
    /// `self |= other`; whether `self` changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    /// Takes the bits of `words` (a set of the same size).
    pub fn copy_from_words(&mut self, words: &[u64]) {
        self.words.copy_from_slice(words);
    }
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    pub fn intersect_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }
    /// The set bits in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let t = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + t
                })
            })
        })
    }
}

/// The numbering of the 32-bit parts of the virtual registers that liveness looks at: vreg `v`
/// owns parts `base[v] .. base[v] + len[v]` (none for registers of files left out).
pub struct Parts {
    pub base: Vec<u32>,
    pub len: Vec<u8>,
    pub owner: Vec<u32>,
}

impl Parts {
    pub fn new(f: &Function, files: &[RegFile], keep: impl Fn(RegFile) -> bool) -> Parts {
        let nv = f.vreg_comps.len();
        let mut base = Vec::with_capacity(nv);
        let mut len = Vec::with_capacity(nv);
        let mut owner = Vec::new();
        for (v, &c) in f.vreg_comps.iter().enumerate() {
            let n = if keep(files[v]) { c.max(1) } else { 0 };
            base.push(owner.len() as u32);
            len.push(n);
            owner.extend(std::iter::repeat_n(v as u32, n as usize));
        }
        Parts { base, len, owner }
    }
    pub fn count(&self) -> usize {
        self.owner.len()
    }
    /// The parts an operand names.
    pub fn of(&self, r: Reg) -> std::ops::Range<usize> {
        let v = r.idx as usize;
        if self.len[v] == 0 {
            return 0..0;
        }
        let s = (self.base[v] + r.comp as u32) as usize;
        s..s + r.comps as usize
    }
}

/// The register file of every virtual register (as its operands name it).
pub fn vreg_files(f: &Function) -> Vec<RegFile> {
    let mut files = vec![RegFile::Gpr; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, _| files[r.idx as usize] = r.file);
    }
    files
}

/// Whether a write kills the old contents of the parts it names: an unguarded write, or a write
/// of uniform registers whose writes always happen (`Function::uniform_writes_happen`).
fn kills(f: &Function, i: &Instr) -> bool {
    i.guard == Src::TRUE || always_writes_uniform(f, i)
}

/// Before register allocation: an instruction whose destinations are all uniform registers of
/// `Function::uniform_writes_happen`.
pub(crate) fn always_writes_uniform(f: &Function, i: &Instr) -> bool {
    let mut regs = i.dsts.iter().filter_map(Dst::as_reg).peekable();
    !f.allocated
        && regs.peek().is_some()
        && regs.all(|r| {
            matches!(r.file, RegFile::UGpr | RegFile::UPred)
                && f.uniform_writes_happen.contains(&r.idx)
        })
}

/// Reads under a guard `@P` of parts that an earlier `@P` write in the same block wrote, with no
/// write of `P` between: `(position, part)`. Such a read sees that write's value (where `P` is
/// false it does not happen), so the part is not live above the write for its sake (the
/// predicated vector loads of CUTLASS, copied out under the same guard).
fn covered_reads(f: &Function, parts: &Parts) -> std::collections::HashSet<(u32, u32)> {
    let mut covered = std::collections::HashSet::new();
    let mut writer: std::collections::HashMap<u32, Src> = std::collections::HashMap::new();
    let mut pos = 0u32;
    for block in &f.blocks {
        writer.clear();
        for i in &block.instrs {
            let guard_reg = i.guard.as_reg();
            if i.guard != Src::TRUE {
                i.visit_regs(|r, a| {
                    // The guard itself is read whatever its value.
                    let is_guard = guard_reg.is_some_and(|g| g.file == r.file && g.idx == r.idx);
                    if a == Access::Read && !is_guard {
                        for u in parts.of(r) {
                            if writer.get(&(u as u32)) == Some(&i.guard) {
                                covered.insert((pos, u as u32));
                            }
                        }
                    }
                });
            }
            i.visit_regs(|r, a| {
                if a == Access::Write {
                    for u in parts.of(r) {
                        if i.guard == Src::TRUE {
                            writer.remove(&(u as u32));
                        } else {
                            writer.insert(u as u32, i.guard);
                        }
                    }
                }
            });
            // After the parts: a write of its own guard leaves nothing covered by it.
            i.visit_regs(|r, a| {
                if a == Access::Write && matches!(r.file, RegFile::Pred | RegFile::UPred) {
                    writer.retain(|_, g| {
                        !matches!(g.val, SrcVal::Reg(p) if p.file == r.file && p.idx == r.idx)
                    });
                }
            });
            pos += 1;
        }
    }
    covered
}

/// One bit set of `stride` words per block, in one allocation.
pub struct BitRows {
    words: Vec<u64>,
    stride: usize,
}

impl BitRows {
    fn new(rows: usize, bits: usize) -> BitRows {
        let stride = bits.div_ceil(64);
        BitRows {
            words: vec![0; rows * stride],
            stride,
        }
    }
    pub fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.stride..(r + 1) * self.stride]
    }
    fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.stride..(r + 1) * self.stride]
    }
    fn insert(&mut self, r: usize, i: usize) {
        self.words[r * self.stride + i / 64] |= 1u64 << (i % 64);
    }
    fn get(&self, r: usize, i: usize) -> bool {
        self.words[r * self.stride + i / 64] >> (i % 64) & 1 != 0
    }
}

/// `a |= b`; whether `a` changed.
fn union_words(a: &mut [u64], b: &[u64]) -> bool {
    let mut changed = false;
    for (a, b) in a.iter_mut().zip(b) {
        let n = *a | b;
        changed |= n != *a;
        *a = n;
    }
    changed
}

/// Per-block live-out sets of parts, restricted to parts some definition may reach.
pub struct Liveness {
    pub parts: Parts,
    pub live_out: BitRows,
    /// Parts some write may have defined on a path to the block's start.
    pub defined_in: BitRows,
    /// Guarded reads that a same-guard write in their block covers ([`covered_reads`]).
    covered: std::collections::HashSet<(u32, u32)>,
}

/// Computes [`Liveness`]: backward dataflow of upward-exposed reads and unguarded writes, and
/// forward dataflow of writes (any write, guarded or not, may define).
pub fn liveness(f: &Function, parts: Parts) -> Liveness {
    let n = parts.count();
    let nb = f.blocks.len();
    let mut gen = BitRows::new(nb, n);
    let mut kill = BitRows::new(nb, n);
    let mut writes = BitRows::new(nb, n);
    let covered = covered_reads(f, &parts);
    let mut pos = 0u32;
    for (b, block) in f.blocks.iter().enumerate() {
        for i in &block.instrs {
            let p = pos;
            pos += 1;
            i.visit_regs(|r, a| {
                if a == Access::Read {
                    for u in parts.of(r) {
                        if !kill.get(b, u) && !covered.contains(&(p, u as u32)) {
                            gen.insert(b, u);
                        }
                    }
                }
            });
            i.visit_regs(|r, a| {
                if a == Access::Write {
                    for u in parts.of(r) {
                        writes.insert(b, u);
                        if kills(f, i) {
                            kill.insert(b, u);
                        }
                    }
                }
            });
        }
    }
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| successors(f, b)).collect();
    let defined_in = defined_at_entry(&succs, &writes, n);
    let mut defined_out = BitRows {
        words: defined_in.words.clone(),
        stride: defined_in.stride,
    };
    for (d, w) in defined_out.words.iter_mut().zip(&writes.words) {
        *d |= w;
    }
    let mut live_in = BitRows::new(nb, n);
    let mut live_out = BitRows::new(nb, n);
    let stride = live_in.stride;
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let out = live_out.row_mut(b);
            for &s in &succs[b] {
                union_words(out, &live_in.words[s * stride..(s + 1) * stride]);
            }
            for (o, d) in out.iter_mut().zip(defined_out.row(b)) {
                *o &= d;
            }
            let (g, k, keep) = (gen.row(b), kill.row(b), defined_in.row(b));
            let live = live_in.row_mut(b);
            for w in 0..stride {
                let next = (g[w] | (out[w] & !k[w])) & keep[w];
                changed |= next != live[w];
                live[w] = next;
            }
        }
    }
    Liveness {
        parts,
        live_out,
        defined_in,
        covered,
    }
}

/// Forward may-be-written dataflow: the parts written on some path to each block's start.
fn defined_at_entry(succs: &[Vec<usize>], writes: &BitRows, n: usize) -> BitRows {
    let nb = succs.len();
    let mut def_in = BitRows::new(nb, n);
    let mut out = vec![0u64; def_in.stride];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            out.copy_from_slice(def_in.row(b));
            union_words(&mut out, writes.row(b));
            for &s in &succs[b] {
                changed |= union_words(def_in.row_mut(s), &out);
            }
        }
    }
    def_in
}

/// Each virtual register's live range: sorted, disjoint, half-open slot segments `[start, end)`.
pub struct LiveRanges {
    /// Segments of vreg `v`: `segs[first[v] as usize .. first[v + 1] as usize]`.
    pub segs: Vec<(u32, u32)>,
    pub first: Vec<u32>,
}

impl LiveRanges {
    pub fn of(&self, v: usize) -> &[(u32, u32)] {
        &self.segs[self.first[v] as usize..self.first[v + 1] as usize]
    }
}

/// The live ranges of every virtual register.
pub fn live_ranges(f: &Function) -> LiveRanges {
    live_ranges_in(f, &vreg_files(f), |_| true)
}

/// Walks every block backward from its live-out set and records where each vreg of the files
/// `keep` selects is live (the others get empty ranges).
pub fn live_ranges_in(
    f: &Function,
    files: &[RegFile],
    keep: impl Fn(RegFile) -> bool,
) -> LiveRanges {
    let lv = liveness(f, Parts::new(f, files, keep));
    let unit = lv.parts.owner.clone();
    ranges_of_units(f, &lv, unit, f.vreg_comps.len())
}

/// The live range of every 32-bit part of the vregs of the files `keep` selects, indexed by part
/// number (`Parts::base[v] + k` for part `k` of vreg `v`), with that numbering.
pub fn part_live_ranges(
    f: &Function,
    files: &[RegFile],
    keep: impl Fn(RegFile) -> bool,
) -> (LiveRanges, Parts) {
    let lv = liveness(f, Parts::new(f, files, keep));
    let n = lv.parts.count();
    let lr = ranges_of_units(f, &lv, (0..n as u32).collect(), n);
    (lr, lv.parts)
}

/// Live ranges of `units` units, where part `u` belongs to unit `unit[u]` (its vreg, or itself):
/// a unit is live where any of its parts is.
fn ranges_of_units(f: &Function, lv: &Liveness, unit: Vec<u32>, units: usize) -> LiveRanges {
    let parts = &lv.parts;
    let mut per_unit: Vec<Vec<(u32, u32)>> = vec![Vec::new(); units];
    let mut starts = Vec::with_capacity(f.blocks.len() + 1);
    let mut pos = 0u32;
    for b in &f.blocks {
        starts.push(pos);
        pos += b.instrs.len() as u32;
    }
    starts.push(pos);
    let mut walk = BlockWalk {
        live: BitSet::new(parts.count()),
        live_parts: vec![0u8; units],
        open_end: vec![u32::MAX; units],
        open: Vec::new(),
        defined: BitSet::new(parts.count()),
        unit,
        cover: vec![None; parts.count()],
    };
    for b in (0..f.blocks.len()).rev() {
        walk.run(f, parts, lv, b, starts[b], starts[b + 1], &mut per_unit);
    }
    let mut segs: Vec<(u32, u32)> = Vec::new();
    let mut first = Vec::with_capacity(units + 1);
    for list in &mut per_unit {
        let own = segs.len();
        first.push(own as u32);
        list.sort_unstable();
        for &(s, e) in list.iter() {
            let len = segs.len();
            match segs.last_mut() {
                Some(last) if len > own && last.1 >= s => last.1 = last.1.max(e),
                _ => segs.push((s, e)),
            }
        }
    }
    first.push(segs.len() as u32);
    LiveRanges { segs, first }
}

/// The state of one backward walk over a block.
struct BlockWalk {
    live: BitSet,
    /// How many parts of each vreg are live.
    live_parts: Vec<u8>,
    /// Where the open segment of a live vreg ends (`u32::MAX`: not live).
    open_end: Vec<u32>,
    open: Vec<u32>,
    /// Parts defined before the current instruction (a forward pre-pass over the block).
    defined: BitSet,
    /// The unit (vreg, or the part itself) whose range each part extends.
    unit: Vec<u32>,
    /// For a live part: `Some(P)` where every read of it below (up to a kill) is an `@P` read
    /// that an `@P` write covers, so that the next `@P` write up kills it; `None` otherwise.
    cover: Vec<Option<Src>>,
}

impl BlockWalk {
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        f: &Function,
        parts: &Parts,
        lv: &Liveness,
        b: usize,
        start: u32,
        end: u32,
        out: &mut [Vec<(u32, u32)>],
    ) {
        let block = &f.blocks[b];
        // First write of each part in the block, for reads of parts no earlier write defines.
        self.defined.copy_from_words(lv.defined_in.row(b));
        let mut first_write: Vec<(usize, u32)> = Vec::new();
        for (k, i) in block.instrs.iter().enumerate() {
            i.visit_regs(|r, a| {
                if a == Access::Write {
                    for u in parts.of(r) {
                        if self.defined.insert(u) {
                            first_write.push((u, k as u32));
                        }
                    }
                }
            });
        }
        self.live.copy_from_words(lv.live_out.row(b));
        for u in self.live.iter() {
            self.cover[u] = None;
            let v = self.unit[u] as usize;
            if self.live_parts[v] == 0 {
                self.open_end[v] = 2 * end;
                self.open.push(v as u32);
            }
            self.live_parts[v] += 1;
        }
        let mut newly = Vec::new();
        for (k, i) in block.instrs.iter().enumerate().rev() {
            let p = start + k as u32;
            // Parts first written here are undefined before: reads here do not see them, and
            // they are not live above this instruction.
            newly.clear();
            while let Some(&(u, at)) = first_write.last() {
                if at < k as u32 {
                    break;
                }
                self.defined.remove(u);
                newly.push(u);
                first_write.pop();
            }
            self.step(i, p, kills(f, i), parts, &lv.covered, out);
            for &u in &newly {
                let v = self.unit[u] as usize;
                if self.live.remove(u) {
                    self.live_parts[v] -= 1;
                    if self.live_parts[v] == 0 {
                        out[v].push((2 * p + 1, self.open_end[v]));
                        self.open_end[v] = u32::MAX;
                    }
                }
            }
        }
        for v in self.open.drain(..) {
            let v = v as usize;
            if self.open_end[v] != u32::MAX {
                out[v].push((2 * start, self.open_end[v]));
                self.open_end[v] = u32::MAX;
                self.live_parts[v] = 0;
            }
        }
        self.live.clear();
    }

    /// One instruction, backward: writes end (or make) segments, reads start them.
    fn step(
        &mut self,
        i: &Instr,
        p: u32,
        kills: bool,
        parts: &Parts,
        covered: &std::collections::HashSet<(u32, u32)>,
        out: &mut [Vec<(u32, u32)>],
    ) {
        i.visit_regs(|r, a| {
            if a != Access::Write {
                return;
            }
            let mut last = u32::MAX;
            for u in parts.of(r) {
                let v = self.unit[u];
                if v == last {
                    continue;
                }
                last = v;
                let guard = if kills { Src::TRUE } else { i.guard };
                self.write_unit(v as usize, r, p, guard, parts, out);
            }
        });
        i.visit_regs(|r, a| {
            if a != Access::Read {
                return;
            }
            for u in parts.of(r) {
                let v = self.unit[u] as usize;
                let cover =
                    (i.guard != Src::TRUE && covered.contains(&(p, u as u32))).then_some(i.guard);
                // `defined` holds parts defined before this instruction (it was rolled back past
                // writes at this instruction), which is what a read here sees.
                if !self.defined.get(u) {
                    continue;
                }
                if self.live.insert(u) {
                    self.cover[u] = cover;
                    if self.live_parts[v] == 0 {
                        self.open_end[v] = 2 * p + 1;
                        self.open.push(v as u32);
                    }
                    self.live_parts[v] += 1;
                } else if self.cover[u] != cover {
                    self.cover[u] = None;
                }
            }
        });
    }

    /// A write at `p` under `guard` of the parts of unit `v` that operand `r` names: it kills
    /// those parts where unguarded, or where every read below is covered by this guard.
    fn write_unit(
        &mut self,
        v: usize,
        r: Reg,
        p: u32,
        guard: Src,
        parts: &Parts,
        out: &mut [Vec<(u32, u32)>],
    ) {
        if self.open_end[v] == u32::MAX {
            out[v].push((2 * p + 1, 2 * p + 2));
            return;
        }
        let mut removed = false;
        for u in parts.of(r) {
            let kills = guard == Src::TRUE || self.cover[u] == Some(guard);
            if self.unit[u] as usize == v && kills && self.live.remove(u) {
                self.live_parts[v] -= 1;
                removed = true;
            }
        }
        if removed && self.live_parts[v] == 0 {
            out[v].push((2 * p + 1, self.open_end[v]));
            self.open_end[v] = u32::MAX;
        }
    }
}
