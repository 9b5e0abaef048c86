//! The GPR budget per program point: `setmaxnreg` (USETMAXREG) changes how many registers a warp
//! holds, so the register allocator's limit is not one number for the whole kernel.
//!
//! ptxas 13.5's rule, measured with `ptxas -v` and its SASS on kernels that need more registers
//! than a region holds: after `setmaxnreg.{inc,dec} N` the code uses R0..R(N-3) (two below the
//! count, as the kernel-wide budget: a 40-register producer region uses up to R37, a 232-register
//! consumer region up to R229, a 104 region up to R101) and spills beyond that; before any
//! `setmaxnreg` the kernel's entry budget holds (168 for 384 threads, one CTA per SM), and the
//! kernel reports that entry budget as its register count. A value live across `setmaxnreg.dec`
//! must sit below the new count (the registers above it are given back) and one live across
//! `.inc` below the old one (the registers above it arrive undefined): both follow from giving each
//! value the smallest budget over its live range.
//!
//! The count in effect is a forward dataflow over the blocks: the entry block starts at the entry
//! count, each USETMAXREG sets its count, and where paths meet the smallest count holds (a
//! region's code below the join runs on either path). An instruction's budget is the smaller of
//! the counts before and after it.

use crate::cluster::ClusterOp;
use crate::ir::*;
use crate::regalloc::successors;

/// GPRs usable (R0 up to this, exclusive) where the register count is `count`: ptxas counts two
/// beyond the highest register used.
pub fn usable_gprs(count: u32) -> usize {
    (count.clamp(16, 255) as usize).saturating_sub(2).max(8)
}

/// The usable GPRs of every instruction of a function, with range-minimum queries over slots
/// (instruction `p` reads at slot `2p` and writes at `2p + 1`, as `liveness.rs`).
#[derive(Clone, Debug)]
pub struct GprBudget {
    /// `levels[k][p]`: the smallest budget of instructions `p .. p + 2^k`; `levels[0]` is per
    /// instruction. Empty when the budget is the same everywhere (`uniform`).
    levels: Vec<Vec<u16>>,
    uniform: usize,
    highest: usize,
}

impl GprBudget {
    /// The same budget everywhere.
    pub fn uniform(usable: usize) -> GprBudget {
        GprBudget {
            levels: Vec::new(),
            uniform: usable,
            highest: usable,
        }
    }

    /// The budget of `f` whose register count at entry is `entry_count`: uniform unless `f`
    /// reconfigures its registers.
    pub fn of(f: &Function, entry_count: u32) -> GprBudget {
        let has_setmaxnreg = f.instrs().any(|i| set_count(i).is_some());
        if !has_setmaxnreg {
            return GprBudget::uniform(usable_gprs(entry_count));
        }
        let per_instr: Vec<u16> = counts_per_instr(f, entry_count)
            .into_iter()
            .map(|c| usable_gprs(c) as u16)
            .collect();
        let highest = per_instr.iter().copied().max().unwrap_or(0) as usize;
        let mut levels = vec![per_instr];
        while 1 << levels.len() <= levels[0].len() {
            let prev = levels.last().unwrap();
            let half = 1 << (levels.len() - 1);
            let next = (0..prev.len() - half)
                .map(|p| prev[p].min(prev[p + half]))
                .collect();
            levels.push(next);
        }
        GprBudget {
            levels,
            uniform: usable_gprs(entry_count),
            highest,
        }
    }

    /// This budget less `n` registers everywhere (R1 once it holds the stack pointer).
    pub fn minus(&self, n: usize) -> GprBudget {
        GprBudget {
            levels: (self.levels.iter())
                .map(|l| l.iter().map(|&u| u.saturating_sub(n as u16)).collect())
                .collect(),
            uniform: self.uniform.saturating_sub(n),
            highest: self.highest.saturating_sub(n),
        }
    }

    /// Whether the budget differs between program points.
    pub fn varies(&self) -> bool {
        !self.levels.is_empty()
    }

    /// The largest budget anywhere: the register file the scan works over.
    pub fn highest(&self) -> usize {
        self.highest
    }

    /// The smallest budget anywhere.
    pub fn lowest(&self) -> usize {
        self.levels.last().map_or(self.uniform, |l| {
            l.iter().copied().min().unwrap_or(0) as usize
        })
    }

    /// The budget at the instruction of slot `slot`.
    pub fn at(&self, slot: u32) -> usize {
        match self.levels.first() {
            None => self.uniform,
            Some(l) => l
                .get(slot as usize / 2)
                .map_or(self.uniform, |&u| u as usize),
        }
    }

    /// The smallest budget over the half-open slot segments `segs` (a live range).
    pub fn over(&self, segs: &[(u32, u32)]) -> usize {
        if self.levels.is_empty() {
            return self.uniform;
        }
        let n = self.levels[0].len();
        segs.iter()
            .filter(|&&(s, e)| e > s && (s as usize / 2) < n)
            .map(|&(s, e)| {
                let (a, b) = (s as usize / 2, ((e as usize - 1) / 2).min(n - 1) + 1);
                let k = (usize::BITS - 1 - (b - a).leading_zeros()) as usize;
                self.levels[k][a].min(self.levels[k][b - (1 << k)]) as usize
            })
            .min()
            .unwrap_or(self.highest)
    }

    /// The distinct budgets, ascending.
    pub fn levels(&self) -> Vec<usize> {
        let Some(l) = self.levels.first() else {
            return vec![self.uniform];
        };
        let mut v: Vec<usize> = l.iter().map(|&u| u as usize).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// The register count a USETMAXREG sets.
fn set_count(i: &Instr) -> Option<u32> {
    match i.op {
        Opcode::Cluster(ClusterOp::SetMaxReg { count, .. }) => Some(count),
        _ => None,
    }
}

/// The register count in effect over each instruction (the smaller of before and after it).
fn counts_per_instr(f: &Function, entry_count: u32) -> Vec<u32> {
    let nb = f.blocks.len();
    let mut count_in: Vec<Option<u32>> = vec![None; nb];
    if nb > 0 {
        count_in[0] = Some(entry_count);
    }
    let mut work: Vec<usize> = (0..nb.min(1)).collect();
    while let Some(b) = work.pop() {
        let mut c = count_in[b].unwrap();
        for i in &f.blocks[b].instrs {
            c = set_count(i).unwrap_or(c);
        }
        for s in successors(f, b) {
            let merged = count_in[s].map_or(c, |old| old.min(c));
            if count_in[s] != Some(merged) {
                count_in[s] = Some(merged);
                work.push(s);
            }
        }
    }
    let mut out = Vec::with_capacity(f.num_instrs());
    for (b, block) in f.blocks.iter().enumerate() {
        // Code no path reaches runs never; it keeps the entry count.
        let mut c = count_in[b].unwrap_or(entry_count);
        for i in &block.instrs {
            let after = set_count(i).unwrap_or(c);
            out.push(c.min(after));
            c = after;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(inc: bool, count: u32) -> Instr {
        let op = Opcode::Cluster(ClusterOp::SetMaxReg { inc, count });
        Instr::new(op, &[], &[])
    }

    fn nop() -> Instr {
        Instr::new(Opcode::Nop, &[], &[])
    }

    /// entry: nop, bra P | consumer: inc 232, nop, exit | P: dec 40, nop, nop
    fn two_regions() -> Function {
        let mut f = Function::default();
        let exit = Instr::new(Opcode::Exit, &[], &[]);
        let p = f.new_vreg(RegFile::Pred, 1);
        let bra = Instr::new(Opcode::Bra { target: 2 }, &[], &[]).guarded(Src::reg(p));
        let block = |instrs| Block { instrs };
        f.blocks = vec![
            block(vec![nop(), bra]),
            block(vec![set(true, 232), nop(), exit]),
            block(vec![set(false, 40), nop(), nop()]),
        ];
        f
    }

    #[test]
    fn each_region_has_its_count_and_setmaxnreg_the_smaller_of_two() {
        let f = two_regions();
        assert_eq!(
            counts_per_instr(&f, 168),
            vec![168, 168, 168, 232, 232, 40, 40, 40]
        );
        let b = GprBudget::of(&f, 168);
        assert!(b.varies());
        assert_eq!(b.highest(), 230);
        assert_eq!(b.at(2 * 4), 230);
        assert_eq!(b.at(2 * 6 + 1), 38);
        // A value live from the entry into the consumer region keeps the entry budget; one
        // live into the producer region gets the producer's.
        assert_eq!(b.over(&[(2, 9)]), 166);
        assert_eq!(b.over(&[(7, 9)]), 230);
        assert_eq!(b.over(&[(2, 3), (12, 14)]), 38);
        assert_eq!(b.levels(), vec![38, 166, 230]);
        assert_eq!((b.lowest(), b.minus(1).levels()), (38, vec![37, 165, 229]));
    }

    #[test]
    fn without_setmaxnreg_the_budget_is_uniform() {
        let mut f = Function::default();
        f.blocks = vec![Block {
            instrs: vec![nop(), nop()],
        }];
        let b = GprBudget::of(&f, 64);
        assert!(!b.varies());
        assert_eq!((b.at(3), b.over(&[(0, 4)]), b.highest()), (62, 62, 62));
        assert_eq!(b.levels(), vec![62]);
    }
}
