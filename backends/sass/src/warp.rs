//! Warp-level and synchronisation instructions of the machine IR ([`WarpOp`], carried by
//! `Opcode::Warp`): shuffles, votes, reductions, WARPSYNC, barriers with ids/counts/reductions,
//! memory barriers, NANOSLEEP and grid dependency control, with their slot conventions and timing
//! class, and the facts the cubin records about them. Their encodings live in `encode_warp.rs`,
//! their text in `print_warp.rs`.

use crate::ir::{Function, Opcode, SrcVal};

/// SHFL modes (bits 58..59).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

/// VOTE modes (bits 72..73).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    All,
    Any,
    /// `vote.uni`: the predicate is the same in every active lane.
    Eq,
}

/// REDUX operations (bits 78..80).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    And,
    Or,
    Xor,
    Sum,
    Min,
    Max,
}

/// Memory-barrier scopes (MEMBAR bits 76..77).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Cta,
    Gpu,
    Sys,
}

/// What a BAR does (bits 77..78) and, for reductions, how (bits 74..75).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BarMode {
    Sync,
    Arrive,
    RedPopc,
    RedAnd,
    RedOr,
}

/// Warp-level and synchronisation opcodes. Slot conventions (`d` = dsts, `s` = srcs):
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WarpOp {
    /// `SHFL.mode d1(P, None=PT), d0, s0(value), s1(lane: reg or imm), s2(clamp/segment: reg or imm)`.
    /// Before the warp pass runs, s4 holds the PTX member mask (register or immediate).
    Shfl(ShflMode),
    /// `VOTE.mode d0(ballot R, None=RZ), d1(P, None=PT), s0(P)`. s4: member mask, as for SHFL.
    Vote(VoteMode),
    /// `REDUX[.op][.S32] d0(UR), s0(R)`: reduction over the active lanes. s4: member mask.
    Redux { op: ReduxOp, signed: bool },
    /// `WARPSYNC s0(mask: imm, or reg as on sm_75)`: waits until every non-exited lane of the mask
    /// arrives.
    Warpsync,
    /// `BAR.mode[.DEFER_BLOCKING] s0(id: reg or imm), s1(thread count: reg or imm; Zero = all)`,
    /// s2(P) for reductions (the result is read with B2R.RESULT). `aligned`: every thread of the
    /// warp executes it together (`bar`, `barrier.*.aligned`).
    Bar {
        mode: BarMode,
        defer: bool,
        aligned: bool,
    },
    /// `B2R.RESULT d0(R, None=RZ), d1(P, None=PT)`: the result of the last BAR.RED.
    B2rResult,
    /// `MEMBAR.{SC,ALL}.scope`.
    Membar { sc: bool, scope: Scope },
    /// `ERRBAR`.
    Errbar,
    /// `CGAERRBAR` (sm_90).
    Cgaerrbar,
    /// `CCTL.IVALL`: invalidates the L1 cache.
    CctlIvall,
    /// `NANOSLEEP[.WARP] s0(reg, imm or cbuf)` (`.WARP` on sm_75).
    Nanosleep,
    /// `ACQBULK` (griddepcontrol.wait, sm_90).
    Acqbulk,
    /// `PREEXIT` (griddepcontrol.launch_dependents, sm_90).
    Preexit,
    /// `ELECT d0(P, None=PT), d1(UR, None=URZ), s0(P: lanes that may be elected, TRUE)` (sm_90,
    /// `elect.sync`): d0 true in the lowest executing lane, d1 that lane's index. s4: member mask,
    /// as for SHFL. Fixed latency (encoding and text in `encode_sync.rs`/`print_sync.rs`).
    Elect,
    /// `BPT.TRAP 0x1`: stops the grid with an error (PTX `trap` and `brkpt`, as ptxas 13.5 writes
    /// both; ptxas never predicates it, so the lowering only takes an unguarded one).
    BptTrap,
    /// `MATCH.ANY[.U64] d0(R), s0(R, or a pair for .U64)` and `MATCH.ALL[.U64] d1(P, None=PT),
    /// d0(R), s0`: the lanes whose value equals this lane's (ANY), or every executing lane when
    /// all values agree and 0 otherwise (ALL, with the agreement in d1). s4: member mask, as for
    /// SHFL.
    Match { all: bool, wide: bool },
    /// `PMTRIG s0(imm mask)`: raises the performance-monitor events of the mask (PTX `pmevent`;
    /// `pmevent n` is the mask `1 << n`).
    Pmtrig,
}

impl WarpOp {
    /// Results arrive after a variable delay (a write scoreboard), as ptxas treats them.
    pub fn is_variable_latency(self) -> bool {
        matches!(
            self,
            WarpOp::Shfl(_) | WarpOp::Redux { .. } | WarpOp::B2rResult | WarpOp::Match { .. }
        )
    }

    /// Sources are read after issue (an overwriter waits on the read scoreboard).
    pub fn reads_late(self) -> bool {
        matches!(
            self,
            WarpOp::Shfl(_) | WarpOp::Redux { .. } | WarpOp::Match { .. }
        )
    }

    /// Cycles the next instruction waits after this one regardless of dependences (ptxas: 6 after
    /// barriers and memory barriers, 5 after WARPSYNC).
    pub fn min_stall_after(self) -> u32 {
        match self {
            WarpOp::Bar { .. } | WarpOp::Membar { .. } | WarpOp::Cgaerrbar | WarpOp::Warpsync => 6,
            _ => 1,
        }
    }

    /// A warp collective: its lanes must run converged (the warp pass puts WARPSYNC before it when
    /// that is not provable).
    pub fn is_collective(self) -> bool {
        matches!(
            self,
            WarpOp::Shfl(_)
                | WarpOp::Vote(_)
                | WarpOp::Redux { .. }
                | WarpOp::Elect
                | WarpOp::Match { .. }
        )
    }

    /// Has an effect besides its register results (never removed as dead code).
    pub fn has_side_effect(self) -> bool {
        !matches!(
            self,
            WarpOp::Shfl(_)
                | WarpOp::Vote(_)
                | WarpOp::Redux { .. }
                | WarpOp::B2rResult
                | WarpOp::Elect
                | WarpOp::Match { .. }
        )
    }
}

/// Named barriers as ptxas counts them (EIATTR_NUM_BARRIERS, `-v`): the highest immediate id + 1,
/// all 16 when an id is in a register, 0 without barriers.
pub fn barriers_used(f: &Function) -> u32 {
    f.instrs()
        .map(|i| match i.op {
            Opcode::BarSync { id } => id + 1,
            Opcode::Warp(WarpOp::Bar { .. }) => match i.srcs[0].val {
                SrcVal::Imm(id) => id + 1,
                _ => 16,
            },
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Byte offsets of the warp-synchronous instructions (EIATTR_COOP_GROUP_INSTR_OFFSETS): SHFL,
/// VOTE (not the active-mask form, whose predicate is PT), REDUX, MATCH and non-aligned barriers.
pub fn coop_group_offsets(f: &Function) -> Vec<u32> {
    f.instrs()
        .enumerate()
        .filter(|(_, i)| match i.op {
            Opcode::Warp(WarpOp::Shfl(_) | WarpOp::Redux { .. } | WarpOp::Match { .. }) => true,
            Opcode::Warp(WarpOp::Vote(_)) => i.srcs[0].val != SrcVal::True || i.srcs[0].neg,
            Opcode::Warp(WarpOp::Bar { aligned, .. }) => !aligned,
            _ => false,
        })
        .map(|(n, _)| (n * 16) as u32)
        .collect()
}

/// Whether the kernel signals dependent grids (PREEXIT, EIATTR_PREEXIT_USED).
pub fn uses_preexit(f: &Function) -> bool {
    f.instrs().any(|i| i.op == Opcode::Warp(WarpOp::Preexit))
}
