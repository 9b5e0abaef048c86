//! The hazard check: a cycle model of one warp's issue stream driven by the control bits.
//!
//! Each issued instruction waits for the scoreboards in its wait mask, then issues at cycle `t`;
//! the next instruction of the warp issues `max(stall, 1)` cycles later. Fixed-latency results
//! become readable a pipe-dependent number of cycles after issue; variable-latency results only
//! after a wait on their write scoreboard (or, for conversions, a wait covering a later conversion:
//! that queue completes in order, and ptxas relies on it). A late-reading op's sources may not be
//! overwritten before a wait on its read scoreboard.
//!
//! Registers are per thread: an entry remembers the lanes of the group that issued it, and only a
//! later instruction of a group sharing one of those lanes can conflict with it (divergent groups
//! interleave freely). Uniform registers belong to the whole warp.
//!
//! The latencies are the shortest that NVIDIA's hardware gives (Mesa NAK's tables for sm_75..89,
//! from NVIDIA), lowered where ptxas's own code shows a shorter distance is safe: every cubin ptxas
//! writes for the filetests must run with zero hazards.

use crate::decode::{File, Inst, Op, Queue, Timing, PT};
use crate::{EmuError, HazardKind};

/// GPR result of the ALU pipe read by an ALU-pipe or uniform op.
const ALU_TO_ALU: u64 = 4;
/// Results crossing between the ALU and FMA pipes (NAK: 5 both ways).
const CROSS_PIPE: u64 = 5;
/// Results crossing between the ALU and FMA pipes on sm_90: ptxas's code reads IMAD.WIDE's low
/// word in an ISETP, and an SHF result as IMAD.WIDE's high addend word, 3 cycles later.
const CROSS_PIPE_SM90: u64 = 3;
/// FMA pipe result read by an FMA-pipe op.
const FMA_TO_FMA: u64 = 4;
/// A predicate written by a fixed-latency op, used as a guard or branch condition (sm_80+;
/// ptxas's sm_75 code shows 12).
const PRED_TO_GUARD: u64 = 13;
const PRED_TO_GUARD_SM75: u64 = 12;
/// The result of a uniform move (ULDC, UMOV, VOTEU), read by any op: ptxas's code reads ULDC's and
/// VOTEU's 2 cycles later on every architecture, and UMOV's 2 cycles later on sm_90.
const ULDC_TO_ANY: u64 = 2;
/// An IMMA/BMMA result without a scoreboard (sm_80+), by the op's work (M K bits): ptxas's code
/// reads it 12 cycles after issue for 1024 (IMMA.8816, IMMA.8832, BMMA.88128), 15 for 2048 and 23
/// for 4096 (IMMA.16832 with 8-bit elements, IMMA.16864, BMMA.168256).
fn matrix_latency(i: &Inst) -> u64 {
    match crate::machine::matrix_geometry(i).map(|g| g.work()) {
        Ok(..=1024) => 12,
        Ok(..=2048) => 15,
        _ => 23,
    }
}
/// A predicate read as an ordinary operand (SEL, carry in, accumulator).
const PRED_TO_OPERAND: u64 = 4;
/// A uniform register read by a uniform op.
const UNIFORM_TO_UNIFORM: u64 = 4;
/// A uniform register read by a per-thread op.
const UNIFORM_TO_VECTOR: u64 = 6;

/// Earliest completion of a variable-latency op after issue. A scoreboard wait only guarantees
/// this much delay, so it must not hide a fixed-latency hazard: the model takes the minimum.
const VAR_MIN_LATENCY: u64 = 2;
/// Cycles after issue before a variable-latency op writes its result registers, against the
/// unguarded reads of earlier late-reading ops (calibrated: ptxas's code issues an LDS into an
/// STG's data register, the STG having no read scoreboard, 4 cycles after the STG).
const VAR_WRITE_DELAY: u64 = 10;
/// Cycles after issue during which a late-reading op without a read scoreboard may still read its
/// GPR sources: overwriting one sooner is a hazard. (Calibrated: ptxas's code overwrites such a
/// source 14 cycles after issue; uniform-register sources are read at issue.)
const UNGUARDED_READ_WINDOW: u64 = 14;
/// The same window for a store's single 32-bit register (its data word), shorter (calibrated:
/// ptxas's spill code overwrites an STL's data register without a read scoreboard 6 cycles after
/// the STL issued, and an STG's 3 cycles after, sm_75..sm_90).
const WORD_STORE_READ_WINDOW: u64 = 2;

#[derive(Copy, Clone)]
struct Fixed {
    issued: u64,
    op: Op,
    lanes: u32,
    /// The producer's own latency where its form decides it (tensor ops).
    latency: Option<u64>,
}

/// A source register a late-reading op may still read.
#[derive(Copy, Clone)]
struct PendingRead {
    /// Its read scoreboard: a wait on it ends the read.
    rd_sb: Option<u8>,
    /// Its write scoreboard: once its result is back, its sources were read.
    wr_sb: Option<u8>,
    /// Without a read scoreboard, the read is over by this cycle.
    until: u64,
    pc: u32,
    /// The op's queue and issue order: a later op of an in-order queue reads and writes after it.
    queue: Queue,
    seq: u64,
    lanes: u32,
    /// The reading op (loads read their addresses in issue order).
    op: Op,
}

#[derive(Copy, Clone)]
struct Pending {
    sb: Option<u8>,
    /// Another scoreboard whose wait also delivers the result: ATOM.E's predicate (whether a
    /// generic float add found a global address) comes back with its read scoreboard (ptxas's
    /// sm_90 code branches on it after waiting on that one only).
    early_sb: Option<u8>,
    seq: u64,
    queue: Queue,
    pc: u32,
    lanes: u32,
    /// The producing op (FP64 results land in issue order).
    op: Op,
}

const SLOTS: usize = 4 * 256;

fn slot(file: File, idx: u8) -> usize {
    (file as usize) * 256 + idx as usize
}

fn file_of(s: usize) -> (File, u8) {
    let f = match s / 256 {
        0 => File::R,
        1 => File::Ur,
        2 => File::P,
        _ => File::Up,
    };
    (f, (s % 256) as u8)
}

/// Per-warp state of the cycle model.
pub struct HazardModel {
    sm: u32,
    /// Issue cycle of the next instruction.
    pub t: u64,
    seq: u64,
    fixed: Vec<Option<Fixed>>,
    pending_write: Vec<Option<Pending>>,
    /// Sources of late-reading ops: (read scoreboard or None, cycle until which the read may be
    /// pending without one, the op's address).
    pending_read: Vec<Option<PendingRead>>,
    sb_done: [u64; 6],
    /// The last BitOps-queue op that took each scoreboard (read or write), by issue order.
    bit_ops_sb: [Option<u64>; 6],
    /// The lanes of the group issuing the current instruction.
    lanes: u32,
}

impl HazardModel {
    pub fn new(sm: u32) -> Self {
        HazardModel {
            sm,
            t: 0,
            seq: 0,
            fixed: vec![None; SLOTS],
            pending_write: vec![None; SLOTS],
            pending_read: vec![None; SLOTS],
            sb_done: [0; 6],
            bit_ops_sb: [None; 6],
            lanes: u32::MAX,
        }
    }

    /// The lanes an entry for slot `s` covers: the issuing group's, or the whole warp's for
    /// uniform registers.
    fn lanes_of(&self, s: usize) -> u32 {
        match file_of(s).0 {
            File::R | File::P => self.lanes,
            File::Ur | File::Up => u32::MAX,
        }
    }
}

/// Whether two queues complete in one order: I2F/F2I and MUFU share one (ptxas's integer division
/// reads an unscoreboarded I2F.RP result after waiting only on a later MUFU.RCP, sm_75 and sm_90).
fn same_order(a: Queue, b: Queue) -> bool {
    a == b
        || matches!(
            (a, b),
            (Queue::Conversion, Queue::Transcendental) | (Queue::Transcendental, Queue::Conversion)
        )
}

fn hazard(i: &Inst, s: usize, kind: HazardKind, detail: String) -> EmuError {
    let (f, idx) = file_of(s);
    EmuError::Hazard {
        pc: i.pc,
        reg: crate::decode::RegRange::name(f, idx),
        kind,
        detail,
    }
}

/// Cycles after issue at which `i` reads register `idx` of `file`, when later than at issue: on
/// sm_90 IMAD.WIDE reads the high word of its 64-bit addend 2 cycles late (ptxas's code writes it
/// with an IMAD.U32 2 cycles before), and so does IMAD.HI (ptxas's sm_90 64-bit division writes
/// it with an IMAD.MOV 2 cycles before); R2UR.OR's predicate as below.
fn read_delay(sm: u32, i: &Inst, file: File, idx: u8) -> u64 {
    match (i.op, i.c) {
        (Op::ImadWide | Op::ImadHi, crate::decode::Operand::R(c))
            if sm >= 90 && file == File::R && idx == c.wrapping_add(1) =>
        {
            2
        }
        // R2UR.OR reads the predicate it ors into 2 cycles late: ptxas's sm_90 TMA store loops
        // write it with PLOP3 2 cycles before.
        (Op::R2ur, _) if file == File::P => 2,
        _ => 0,
    }
}

/// Cycles after a fixed-latency producer's issue before `consumer` may read it.
fn raw_latency(sm: u32, producer: Op, file: File, consumer: Timing, as_guard: bool) -> u64 {
    let pipe = producer.timing();
    match file {
        _ if matches!(producer, Op::Uldc | Op::Umov | Op::Voteu) => ULDC_TO_ANY,
        // ELECT's uniform register and predicate: ptxas's sm_90 code reads both 2 cycles later.
        _ if producer == Op::Elect => ULDC_TO_ANY,
        File::P | File::Up if as_guard && sm == 75 => PRED_TO_GUARD_SM75,
        File::P | File::Up if as_guard => PRED_TO_GUARD,
        File::P | File::Up => PRED_TO_OPERAND,
        File::Ur if consumer == Timing::Uniform => UNIFORM_TO_UNIFORM,
        File::Ur => UNIFORM_TO_VECTOR,
        File::R => match (pipe, consumer) {
            // ptxas's code converts an FMUL or IMAD.X result with F2I/I2F 4 cycles later (sm_80, sm_90).
            (Timing::Fma, Timing::Fma | Timing::Var { .. }) => FMA_TO_FMA,
            // ptxas returns from its division and square-root subroutines (sm_80..sm_90) and from
            // its sm_90 4-bit integer and b1 .xor mma helpers with RET.REL.NODEC reading an
            // IMAD.MOV result 4 cycles after it.
            (Timing::Fma, Timing::Control) => FMA_TO_FMA,
            (Timing::Fma, Timing::Alu) | (Timing::Alu, Timing::Fma) if sm >= 90 => CROSS_PIPE_SM90,
            (Timing::Alu, Timing::Fma) | (Timing::Fma, _) => CROSS_PIPE,
            _ => ALU_TO_ALU,
        },
    }
}

impl HazardModel {
    /// Accounts for one issued instruction; `Err` reports the first hazard it finds.
    /// `lanes`: the group of lanes issuing it.
    pub fn issue(&mut self, i: &Inst, lanes: u32) -> Result<(), EmuError> {
        self.lanes = lanes;
        self.wait(i.ctrl.wait);
        if i.op == Op::Depbar && !i.bit(47) {
            // DEPBAR {5,4,3,2,1,0}: waits for every scoreboard of the mask (bits 32..37).
            self.wait(i.f(32, 6) as u8);
        } else if i.op == Op::Depbar && i.f(38, 6) == 0 {
            // DEPBAR.LE SBn, 0x0 waits for everything on SBn.
            self.wait(1 << i.f(44, 3));
        }
        self.check_reads(i)?;
        self.check_writes(i)?;
        self.record(i);
        self.t += i.ctrl.stall.max(1) as u64;
        Ok(())
    }

    /// Waits on the scoreboards of `mask`, resolving what they cover.
    fn wait(&mut self, mask: u8) {
        for sb in 0..6u8 {
            if mask & (1 << sb) == 0 {
                continue;
            }
            self.t = self.t.max(self.sb_done[sb as usize]);
            // In-order queues: a wait covering a later op of the queue covers the earlier ones too.
            let covered = |queue: Queue| {
                let last = self
                    .pending_write
                    .iter()
                    .flatten()
                    .filter(|p| p.sb == Some(sb) && same_order(p.queue, queue))
                    .map(|p| p.seq)
                    .max();
                let last = if queue == Queue::BitOps {
                    last.max(self.bit_ops_sb[sb as usize])
                } else {
                    last
                };
                last.filter(|_| queue != Queue::Unordered)
            };
            let last = [
                Queue::Conversion,
                Queue::BitOps,
                Queue::Transcendental,
                Queue::Shared,
                Queue::UniformSpecial,
                Queue::Unordered,
            ]
            .map(|q| (q, covered(q)));
            let covers = |queue: Queue, seq: u64| {
                last.iter()
                    .any(|&(q, c)| q == queue && c.is_some_and(|c| seq <= c))
            };
            for p in self.pending_write.iter_mut() {
                if matches!(p, Some(q) if q.sb == Some(sb) || q.early_sb == Some(sb) || covers(q.queue, q.seq))
                {
                    *p = None;
                }
            }
            // A read is over once the op's own scoreboards, or a later op of its queue, complete.
            for r in self.pending_read.iter_mut() {
                if matches!(r, Some(p) if p.rd_sb == Some(sb) || p.wr_sb == Some(sb) || covers(p.queue, p.seq))
                {
                    *r = None;
                }
            }
        }
    }

    fn check_reads(&self, i: &Inst) -> Result<(), EmuError> {
        let consumer = i.op.timing();
        // A branch's predicate input decides the branch as its guard does.
        let branch_pred =
            (i.op == Op::Bra && i.f(87, 3) != PT as u32).then(|| slot(File::P, i.f(87, 3) as u8));
        let guard_slot = (i.guard.idx != PT).then(|| slot(File::P, i.guard.idx));
        for r in &i.reads {
            for k in 0..r.n {
                let s = slot(r.file, r.idx.wrapping_add(k));
                if let Some(p) = self.pending_write[s].filter(|p| p.lanes & self.lanes != 0) {
                    let why = match p.sb {
                        Some(sb) => {
                            format!("result of /*{:04x}*/ read without waiting on SB{sb}", p.pc)
                        }
                        None => format!(
                            "result of /*{:04x}*/ (no scoreboard) read before a covering wait",
                            p.pc
                        ),
                    };
                    return Err(hazard(i, s, HazardKind::MissingWait, why));
                }
                if let Some(f) = self.fixed[s].filter(|f| f.lanes & self.lanes != 0) {
                    let need = f.latency.unwrap_or_else(|| {
                        raw_latency(
                            self.sm,
                            f.op,
                            r.file,
                            consumer,
                            (guard_slot == Some(s) || branch_pred == Some(s)) && r.file == File::P,
                        )
                    });
                    let need =
                        need.saturating_sub(read_delay(self.sm, i, r.file, r.idx.wrapping_add(k)));
                    if self.t < f.issued + need {
                        let why = format!(
                            "read at cycle {}, {} cycles after its producer; needs {need}",
                            self.t,
                            self.t - f.issued
                        );
                        return Err(hazard(i, s, HazardKind::ReadTooEarly, why));
                    }
                }
            }
        }
        Ok(())
    }

    fn check_writes(&self, i: &Inst) -> Result<(), EmuError> {
        for r in &i.writes {
            for k in 0..r.n {
                let s = slot(r.file, r.idx.wrapping_add(k));
                // A later shared-memory op writes after an earlier one read (ptxas's sm_90 code
                // loads into an STS.64 source under its read scoreboard without waiting).
                // Likewise an LDL writes after an earlier global or local memory op read its
                // sources (ptxas's sm_90 spill code overwrites an LDG's address with an LDL.LU
                // before waiting on the LDG's read scoreboard; it does wait before an LDG does).
                // And on sm_90 an LDG writes after an earlier global or local load read its
                // address (ptxas's code: LDG.E.64 R10, [R8.64+0x98] then LDG.E.64 R8,
                // [R8.64+0xa0] with no wait on the first one's read scoreboard).
                let same_queue = |p: &PendingRead| {
                    (p.queue == Queue::Shared && i.op.timing() == Timing::Var { queue: p.queue })
                        || (p.queue == Queue::Unordered && i.op == Op::Ldl)
                        || (self.sm >= 90 && i.op == Op::Ldg && is_load(p.op))
                };
                let lands = self.t
                    + if matches!(i.op.timing(), Timing::Var { .. }) {
                        VAR_WRITE_DELAY
                    } else {
                        0
                    };
                match self.pending_read[s].filter(|p| !same_queue(p) && p.lanes & self.lanes != 0) {
                    Some(PendingRead {
                        rd_sb: Some(sb),
                        pc,
                        ..
                    }) => {
                        let why = format!("source of /*{pc:04x}*/ overwritten before waiting on its read scoreboard SB{sb}");
                        return Err(hazard(i, s, HazardKind::OverwriteBeforeRead, why));
                    }
                    Some(PendingRead {
                        rd_sb: None,
                        until,
                        pc,
                        ..
                    }) if lands < until => {
                        let why = format!("source of /*{pc:04x}*/ (no read scoreboard) overwritten before cycle {until}, at {}", self.t);
                        return Err(hazard(i, s, HazardKind::OverwriteBeforeRead, why));
                    }
                    _ => {}
                }
                // A later op of the same in-order queue writes after the pending one: no hazard.
                // So does a later FP64 op after an FP64 one (ptxas's sm_80 code writes P2 with
                // two DSETPs in a row, the second without waiting on the first).
                let same_queue = |p: &Pending| {
                    (p.queue != Queue::Unordered && i.op.timing() == Timing::Var { queue: p.queue })
                        || (p.op.is_fp64() && i.op.is_fp64())
                };
                if let Some(p) =
                    self.pending_write[s].filter(|p| !same_queue(p) && p.lanes & self.lanes != 0)
                {
                    let why = format!(
                        "pending result of /*{:04x}*/ may land after this write",
                        p.pc
                    );
                    return Err(hazard(i, s, HazardKind::OverwritePendingWrite, why));
                }
            }
        }
        Ok(())
    }

    /// A tensor op's GPR sources (other than its own result) may not be overwritten by a
    /// fixed-latency write for `hold` cycles after issue: it is still collecting them.
    fn hold_mma_sources(&mut self, i: &Inst, hold: u64) {
        for r in i.reads.iter().filter(|r| r.file == File::R) {
            for k in 0..r.n {
                let idx = r.idx.wrapping_add(k);
                let own_result = i.writes.iter().any(|w| {
                    w.file == File::R && (w.idx..w.idx.saturating_add(w.n)).contains(&idx)
                });
                let s = slot(File::R, idx);
                // A pending read under a scoreboard, or one lasting longer, stays the stronger one.
                let weaker = self.pending_read[s].is_none_or(|p| {
                    p.rd_sb.is_none() && p.wr_sb.is_none() && p.until < self.t + hold
                });
                if !own_result && weaker {
                    self.pending_read[s] = Some(PendingRead {
                        rd_sb: None,
                        wr_sb: None,
                        until: self.t + hold,
                        pc: i.pc,
                        queue: Queue::Unordered,
                        seq: self.seq,
                        lanes: self.lanes_of(s),
                        op: i.op,
                    });
                }
            }
        }
    }

    fn record(&mut self, i: &Inst) {
        self.seq += 1;
        // sm_75's HMMA.884 steps issue in pairs: ptxas puts the write scoreboard on the odd step
        // only, and it covers the even step's results too.
        if let (Op::Hmma884, Some(sb)) = (i.op, i.ctrl.wr_sb) {
            for p in self.pending_write.iter_mut().flatten() {
                if p.op == Op::Hmma884 && p.sb.is_none() {
                    p.sb = Some(sb);
                }
            }
        }
        let pipe = i.op.timing();
        let fixed_fp64 = (i.op.is_fp64() || i.op.is_mma() || i.op.is_matrix() || i.op == Op::R2ur)
            && i.ctrl.wr_sb.is_none();
        if let (Timing::Var { queue }, false) = (pipe, fixed_fp64) {
            for r in &i.writes {
                for k in 0..r.n {
                    let s = slot(r.file, r.idx.wrapping_add(k));
                    self.fixed[s] = None;
                    let early = i.op == Op::Atom && r.file == File::P;
                    self.pending_write[s] = Some(Pending {
                        sb: i.ctrl.wr_sb,
                        early_sb: i.ctrl.rd_sb.filter(|&sb| early && sb < 6),
                        seq: self.seq,
                        queue,
                        pc: i.pc,
                        lanes: self.lanes_of(s),
                        op: i.op,
                    });
                }
            }
            if let Some(sb) = i.ctrl.wr_sb.filter(|&s| s < 6) {
                self.sb_done[sb as usize] = self.sb_done[sb as usize].max(self.t + VAR_MIN_LATENCY);
            }
            let rd_sb = i.ctrl.rd_sb.filter(|&s| s < 6);
            if let Some(sb) = rd_sb {
                self.sb_done[sb as usize] = self.sb_done[sb as usize].max(self.t + 2);
            }
            if queue == Queue::BitOps {
                for sb in [i.ctrl.wr_sb, rd_sb]
                    .into_iter()
                    .flatten()
                    .filter(|&s| s < 6)
                {
                    self.bit_ops_sb[sb as usize] = Some(self.seq);
                }
            }
            if i.op.reads_late() {
                for r in i
                    .reads
                    .iter()
                    .filter(|r| matches!(r.file, File::R | File::Ur))
                {
                    let word_store = matches!(i.op, Op::Stl | Op::Stg) && r.n == 1;
                    let until = self.t
                        + if word_store {
                            WORD_STORE_READ_WINDOW
                        } else {
                            UNGUARDED_READ_WINDOW
                        };
                    for k in 0..r.n {
                        let s = slot(r.file, r.idx.wrapping_add(k));
                        // The op's own result overwrites its source only after reading it.
                        let own_result = i.writes.iter().any(|w| {
                            w.file == r.file
                                && (w.idx..w.idx.saturating_add(w.n))
                                    .contains(&r.idx.wrapping_add(k))
                        });
                        // FP64 ops read late only under a read scoreboard (ptxas's sm_75 code overwrites a
                        // DADD source 4 cycles after issue). Uniform sources are read at issue even
                        // under one (ptxas's sm_90 code overwrites an STS's UR offset with a UMOV
                        // before waiting on the STS's read scoreboard).
                        if !own_result && r.file == File::R && (rd_sb.is_some() || !i.op.is_fp64())
                        {
                            // An earlier read of the register under the same read scoreboard is
                            // still pending: this op's result coming back does not end that
                            // one, so only the read scoreboard ends both.
                            let shared_rd = self.pending_read[s].is_some_and(|p| {
                                rd_sb.is_some() && p.rd_sb == rd_sb && p.lanes & self.lanes != 0
                            });
                            self.pending_read[s] = Some(PendingRead {
                                rd_sb,
                                wr_sb: if shared_rd { None } else { i.ctrl.wr_sb },
                                until,
                                pc: i.pc,
                                queue,
                                seq: self.seq,
                                lanes: self.lanes_of(s),
                                op: i.op,
                            });
                        }
                    }
                }
            }
            return;
        }
        let form =
            i.op.is_mma()
                .then(|| crate::mma::Form::decode(i.w, i.op == Op::Qmma))
                .and_then(Result::ok);
        let mut latency = form.map(|f| f.fixed_latency());
        if let Some(f) = form {
            self.hold_mma_sources(i, f.source_hold());
        }
        if let Some(Ok(f)) = crate::machine::sparse_form(i) {
            latency = Some(f.fixed_latency());
            self.hold_mma_sources(i, f.source_hold());
        }
        if i.op.is_matrix() && crate::machine::sparse_form(i).is_none() {
            // IMMA/BMMA: the largest forms collect their sources twice, as HMMA.16816 does.
            let l = matrix_latency(i);
            latency = Some(l);
            self.hold_mma_sources(i, if l == 23 { 7 } else { 1 });
        }
        for r in &i.writes {
            for k in 0..r.n {
                let s = slot(r.file, r.idx.wrapping_add(k));
                self.fixed[s] = Some(Fixed {
                    issued: self.t,
                    op: i.op,
                    lanes: self.lanes_of(s),
                    latency,
                });
            }
        }
    }
}

/// Global, generic and local loads, which read only their address registers, in issue order.
fn is_load(op: Op) -> bool {
    matches!(op, Op::Ldg | Op::Ld | Op::Ldl)
}
