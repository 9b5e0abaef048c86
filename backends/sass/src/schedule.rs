//! Scheduling: sets every instruction's control bits (stalls, scoreboards, waits) so the code is
//! hazard-free under the latency model, then appends ptxas's trailer (self-branch and NOP padding).
//!
//! `list_schedule.rs` first reorders each block's movable instructions; then, within a block, a forward pass tracks when each fixed-latency
//! result is ready and which scoreboard guards each variable-latency result; the previous
//! instruction's stall covers fixed latencies, and wait masks cover scoreboards. Block boundaries
//! are made clean: the last instruction of a block stalls until its fixed results are ready, and the
//! first instruction of every block waits on all scoreboards (free when they are idle).

use crate::fast_hash::FastMap as HashMap;

use crate::arch::Sm;
use crate::ir::*;
use crate::latency::{fixed_latency, is_variable_latency, reads_late, MAX_STALL};

/// Scoreboards used for results (0..=4) and for late source reads (5).
const WRITE_SBS: u8 = 5;
const READ_SB: u8 = 5;
const ALL_SBS: u8 = 0x3f;
/// The scoreboard LDGDEPBAR counts asynchronous copy groups on, which DEPBAR.LE SB0 reads: no other
/// result may use it in a function that has one.
const ASYNC_GROUP_SB: u8 = 0;

/// One 32-bit register of one file.
type PhysReg = (RegFile, u32);

fn phys_regs(r: Reg) -> impl Iterator<Item = PhysReg> {
    (0..r.comps as u32).map(move |k| (r.file, r.idx + k))
}

#[derive(Default)]
struct BlockState {
    /// Cycle (relative to block start) at which a fixed-latency result can be read.
    ready: HashMap<PhysReg, u32>,
    /// Scoreboard guarding a pending variable-latency result.
    pending_write: HashMap<PhysReg, u8>,
    /// Scoreboard guarding a pending late read of a source.
    pending_read: HashMap<PhysReg, u8>,
    /// Cycle before which a source of a tensor op (still collecting its operands) may not be
    /// overwritten.
    held: HashMap<PhysReg, u32>,
    next_sb: u8,
    /// The first write scoreboard of the rotation: 1 where LDGDEPBAR counts copy groups on SB0.
    first_sb: u8,
    /// Cycle from which the next fixed-latency IMMA/BMMA may issue (`imma::matrix_issue_gap`).
    matrix_free: u32,
}

impl BlockState {
    /// Scoreboards the instruction must wait on.
    fn waits_for(&self, i: &Instr) -> u8 {
        let mut mask = 0u8;
        i.visit_regs(|r, a| {
            for p in phys_regs(r) {
                if let Some(sb) = self.pending_write.get(&p) {
                    mask |= 1 << sb;
                }
                if a == Access::Write {
                    if let Some(sb) = self.pending_read.get(&p) {
                        mask |= 1 << sb;
                    }
                }
            }
        });
        mask
    }

    fn clear_waited(&mut self, mask: u8) {
        self.pending_write.retain(|_, sb| mask & (1 << *sb) == 0);
        self.pending_read.retain(|_, sb| mask & (1 << *sb) == 0);
    }

    /// Earliest cycle the instruction may issue given fixed-latency producers.
    fn earliest(&self, i: &Instr) -> u32 {
        let mut t = 0;
        if crate::imma::matrix_issue_gap(&i.op).is_some() {
            t = self.matrix_free;
        }
        i.visit_regs(|r, a| {
            for p in phys_regs(r) {
                t = t.max(self.ready.get(&p).copied().unwrap_or(0));
                if a == Access::Write {
                    t = t.max(self.held.get(&p).copied().unwrap_or(0));
                }
            }
        });
        t
    }

    /// Records the instruction's results issued at cycle `t`.
    fn record(&mut self, i: &mut Instr, t: u32) {
        if let Some(gap) = crate::imma::matrix_issue_gap(&i.op) {
            self.matrix_free = t + gap;
        }
        let hold = match i.op {
            Opcode::Mma(m) => Some(m.source_hold()),
            Opcode::MmaSp(m) => Some(m.source_hold()),
            _ => crate::imma::matrix_source_hold(&i.op),
        };
        if let Some(hold) = hold {
            for r in i.srcs.iter().filter_map(Src::as_reg) {
                phys_regs(r).for_each(|p| {
                    let until = self.held.entry(p).or_insert(0);
                    *until = (*until).max(t + hold);
                });
            }
        }
        if i.op == Opcode::Ldgdepbar {
            i.deps.wr_sb = Some(ASYNC_GROUP_SB);
            return;
        }
        if crate::tma::counts_async_group(&i.op) {
            i.deps.rd_sb = Some(ASYNC_GROUP_SB);
            return;
        }
        if is_variable_latency(&i.op) {
            if i.dsts.iter().any(|d| d.as_reg().is_some()) {
                let sb = self.next_sb.max(self.first_sb);
                self.next_sb = (sb + 1) % WRITE_SBS;
                i.deps.wr_sb = Some(sb);
                for r in i.dsts.iter().filter_map(Dst::as_reg) {
                    phys_regs(r).for_each(|p| {
                        self.pending_write.insert(p, sb);
                        self.ready.remove(&p);
                    });
                }
            }
            if reads_late(&i.op) {
                i.deps.rd_sb = Some(READ_SB);
                let srcs: Vec<Reg> = i.srcs.iter().filter_map(Src::as_reg).collect();
                for r in srcs {
                    phys_regs(r).for_each(|p| {
                        self.pending_read.insert(p, READ_SB);
                    });
                }
            }
            return;
        }
        let producer = *i;
        for r in i.dsts.iter().filter_map(Dst::as_reg) {
            let lat = fixed_latency(&producer, r.file);
            phys_regs(r).for_each(|p| {
                self.ready.insert(p, t + lat);
                self.pending_write.remove(&p);
            });
        }
    }

    fn last_ready(&self) -> u32 {
        self.ready.values().copied().max().unwrap_or(0)
    }
}

/// Sets the control bits of every instruction of an allocated function.
pub fn schedule(f: &mut Function, _sm: Sm) {
    f.blocks
        .iter_mut()
        .for_each(crate::list_schedule::reorder_block);
    pad_async_copies(f);
    let async_groups = f.instrs().any(|i| crate::tma::counts_async_group(&i.op));
    for b in &mut f.blocks {
        schedule_block(b, async_groups);
    }
}

/// ptxas puts three never-executed `@!PT LDS RZ, [RZ]` before an LDGSTS that follows a shared
/// memory access (LDS, STS, ATOMS, LDSM), a barrier or WARPSYNC since the previous LDGSTS, however
/// far back, or after a join (learned from ptxas 13.5 on sm_80..90; LDGDEPBAR, DEPBAR, SHFL,
/// MEMBAR and global accesses do not count). Here every block but the entry starts as a join.
fn pad_async_copies(f: &mut Function) {
    if !f.instrs().any(|i| matches!(i.op, Opcode::Ldgsts { .. })) {
        return;
    }
    let pad = Instr {
        guard: Src::FALSE,
        ..Instr::new(
            Opcode::Lds {
                size: MemSize::B32,
                offset: 0,
            },
            &[],
            &[Src::ZERO],
        )
    };
    for (n, b) in f.blocks.iter_mut().enumerate() {
        let mut since_copy = n > 0;
        let mut out = Vec::with_capacity(b.instrs.len() + 3);
        for i in b.instrs.drain(..) {
            if matches!(i.op, Opcode::Ldgsts { .. }) {
                if since_copy {
                    out.extend([pad; 3]);
                }
                since_copy = false;
            } else if orders_async_copies(&i.op) {
                since_copy = true;
            }
            out.push(i);
        }
        b.instrs = out;
    }
}

/// The instructions after which ptxas pads the next LDGSTS.
fn orders_async_copies(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Lds { .. }
            | Opcode::Sts { .. }
            | Opcode::Atoms { .. }
            | Opcode::Ldsm { .. }
            | Opcode::BarSync { .. }
            | Opcode::Warp(WarpOp::Bar { .. } | WarpOp::Warpsync)
    )
}

/// Schedules one block; with `async_groups` SB0 is left to LDGDEPBAR (and a block's first
/// instruction does not wait on it: no register depends on a copy group).
fn schedule_block(b: &mut Block, async_groups: bool) {
    let mut st = BlockState {
        first_sb: async_groups as u8,
        ..BlockState::default()
    };
    let all_sbs = if async_groups {
        ALL_SBS & !(1 << ASYNC_GROUP_SB)
    } else {
        ALL_SBS
    };
    let mut t = 0u32;
    let mut wait_all_next = false;
    let input = std::mem::take(&mut b.instrs);
    let n = input.len();
    let mut out: Vec<Instr> = Vec::with_capacity(n);
    for (k, mut i) in input.into_iter().enumerate() {
        // WARPGROUP.DEPBAR's operands name the accumulators in flight (for liveness): it reads
        // and writes no register itself, so nothing orders it but the stall before it.
        // (It cannot wait on scoreboards either: nvdisasm rejects WARPGROUP.DEPBAR with wait bits,
        // so a block's wait for everything moves to the next instruction.)
        let fictional = i.op.names_registers_only();
        let mut wait = if fictional { 0 } else { st.waits_for(&i) };
        // WARPGROUP.ARRIVE makes every register written before it visible to the warpgroup
        // MMAs after it, which read their sources late: nothing may be in flight (as ptxas).
        if fictional || ((k == 0 || wait_all_next) && waits_for_nothing(&i)) {
            wait_all_next |= k == 0;
        } else if k == 0
            || wait_all_next
            || i.op == Opcode::WarpgroupArrive
            || matches!(i.op, Opcode::CallAbs { .. })
        {
            wait = all_sbs;
            wait_all_next = false;
        }
        st.clear_waited(wait);
        if let Some(prev) = out.last() {
            let floor = min_stall_after(prev);
            let earliest = if fictional { 0 } else { st.earliest(&i) };
            let mut need = earliest.saturating_sub(t).max(floor).max(1);
            if k == n - 1 && i.is_terminator() {
                // Nothing can follow a branch or EXIT in the block: results still in flight
                // must land within its own stall.
                need = need.max(st.last_ready().saturating_sub(t + MAX_STALL));
            }
            t += pad_stall(&mut out, need);
        }
        i.deps = Deps {
            stall: 1,
            yld: true,
            wr_sb: None,
            rd_sb: None,
            wait,
            reuse: 0,
        };
        if !fictional {
            st.record(&mut i, t);
        }
        out.push(i);
    }
    if let Some(last) = out.last() {
        let need = st.last_ready().saturating_sub(t).max(1);
        if last.is_terminator() {
            set_stall(out.last_mut().unwrap(), need.min(MAX_STALL));
        } else {
            pad_stall(&mut out, need);
        }
    }
    b.instrs = out;
}

/// Instructions that need no scoreboard waited before them even at a block's start, where
/// everything in flight is otherwise waited for: the error barriers (they read no register; ptxas
/// gives `ERRBAR` and `CGAERRBAR` no wait) and an unguarded `EXIT` (nothing of the thread runs
/// after it; ptxas's `EXIT` waits on nothing either). The block's wait for everything moves to
/// the next instruction.
fn waits_for_nothing(i: &Instr) -> bool {
    matches!(
        i.op,
        Opcode::Warp(crate::warp::WarpOp::Errbar | crate::warp::WarpOp::Cgaerrbar)
    ) || (i.op == Opcode::Exit && i.guard == Src::TRUE)
}

/// Gives the last instruction of `out` a stall of `need` cycles, appending NOPs that stall in turn
/// where `need` is more than one instruction can encode (ptxas pads HMMA results the same way).
/// Returns the cycles added.
fn pad_stall(out: &mut Vec<Instr>, need: u32) -> u32 {
    let mut left = need;
    while left > MAX_STALL {
        let step = (left - MAX_STALL).clamp(1, 11);
        set_stall(out.last_mut().unwrap(), step);
        left -= step;
        let mut nop = Instr::new(Opcode::Nop, &[], &[]);
        nop.deps = Deps {
            stall: 1,
            yld: true,
            wr_sb: None,
            rd_sb: None,
            wait: 0,
            reuse: 0,
        };
        out.push(nop);
    }
    set_stall(out.last_mut().unwrap(), left);
    need
}

/// Minimum cycles after an instruction regardless of dependences (ptxas waits 6 after a barrier).
fn min_stall_after(i: &Instr) -> u32 {
    match i.op {
        Opcode::BarSync { .. } => 6,
        Opcode::Warp(w) => w.min_stall_after(),
        _ => 1,
    }
}

/// Stall with ptxas's legal yield pattern: bit 109 set only for stalls 1..=11.
fn set_stall(i: &mut Instr, stall: u32) {
    i.deps.stall = stall as u8;
    i.deps.yld = (1..=11).contains(&stall);
}

/// Appends `BRA` to itself and NOPs up to a multiple of 8 instructions (128 bytes), as ptxas does.
pub fn append_trailer(f: &mut Function) {
    let target = f.blocks.len() as u32;
    let quiet = Deps {
        stall: 0,
        yld: false,
        wr_sb: None,
        rd_sb: None,
        wait: 0,
        reuse: 0,
    };
    let mut block = Block::default();
    let mut bra = Instr::new(Opcode::Bra { target }, &[], &[]);
    bra.deps = quiet;
    block.instrs.push(bra);
    while (f.num_instrs() + block.instrs.len()) % 8 != 0 {
        let mut nop = Instr::new(Opcode::Nop, &[], &[]);
        nop.deps = quiet;
        block.instrs.push(nop);
    }
    f.blocks.push(block);
}
