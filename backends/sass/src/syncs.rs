//! The sm_90 transaction-barrier (mbarrier) and asynchronous-proxy fence instructions: SYNCS.*,
//! FENCE.VIEW.ASYNC and CGAERRBAR, as ptxas 13.5 writes them for `mbarrier.*`, `fence.proxy.async`
//! and the cluster-scoped fences.

/// What a `SYNCS.ARRIVE.TRANS64` does to the barrier: the arrival count (A1 = one arrival, A0 =
/// none) and the transaction count (T0 = unchanged, TR = add the count register to the expected
/// bytes, TX = subtract it as completed bytes). The mode field is bits 84..86.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArriveMode {
    /// `mbarrier.arrive.expect_tx` (printed without a suffix): one arrival, expect s2 bytes.
    A1Tr,
    /// `mbarrier.arrive` (count 1): one arrival, no transaction bytes.
    A1T0,
    /// `mbarrier.expect_tx`: no arrival, expect s2 bytes (with `.RED`).
    A0Tr,
    /// `mbarrier.complete_tx`: no arrival, s2 bytes completed (with `.RED`).
    A0Tx,
    /// `mbarrier.arrive` with a count: s2 arrivals, no transaction bytes.
    ArT0,
    /// `cp.async.mbarrier.arrive` (with `.RED`, before ARRIVES.LDGSTSBAR.64.TRANSCNT): no
    /// arrival, one more expected transaction per thread (`arrives.rs`).
    A0T1,
}

impl ArriveMode {
    pub fn code(self) -> u64 {
        match self {
            ArriveMode::A1Tr => 0,
            ArriveMode::A1T0 => 1,
            ArriveMode::A0Tr => 3,
            ArriveMode::A0Tx => 4,
            ArriveMode::ArT0 => 5,
            ArriveMode::A0T1 => 2,
        }
    }
    pub fn suffix(self) -> &'static str {
        match self {
            ArriveMode::A1Tr => "",
            ArriveMode::A1T0 => ".A1T0",
            ArriveMode::A0Tr => ".A0TR",
            ArriveMode::A0Tx => ".A0TX",
            ArriveMode::ArT0 => ".ART0",
            ArriveMode::A0T1 => ".A0T1",
        }
    }
}

/// The SYNCS family and the fences around it (operands in the comments; `[UR]` is a shared
/// address in a uniform register, the form ptxas picks for a barrier at a known address). The
/// ARRIVE, PHASECHK and CCTL.IV addresses take an immediate byte offset in s2 (Zero for none).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SyncsOp {
    /// `SYNCS.EXCH.64 d0(UR or URZ), [s0(UR)], s1(UR pair)`: stores s1 as the barrier's 64-bit
    /// state (`mbarrier.init`; ptxas builds the initial state in s1).
    Exch64,
    /// `SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT]<mode> d0(R pair or RZ: the state before), [s0(R or
    /// UR)], s1(R or RZ: the count)`. `.OPTOUT` (`mbarrier.arrive_drop`) also takes the arrivals
    /// out of the expected count of later phases.
    Arrive {
        mode: ArriveMode,
        red: bool,
        optout: bool,
    },
    /// `SYNCS.PHASECHK.TRANS64[.TRYWAIT] d0(P), [s0(R or UR)], s1(R: the parity in bit 31, or the
    /// state's high word)`: whether the phase has completed (`mbarrier.test_wait` /
    /// `try_wait`; TRYWAIT may suspend the warp for a while before answering).
    PhaseChk { trywait: bool },
    /// `SYNCS.CCTL.IV [s0(R or UR)]`: invalidates the barrier (`mbarrier.inval`).
    CctlIv,
    /// `FENCE.VIEW.ASYNC.{S,G}`: orders generic-proxy accesses to shared (S) or global (G)
    /// memory before later asynchronous-proxy ones (`fence.proxy.async[.shared::cta|.global]`).
    FenceViewAsync { global: bool },
    /// `CGAERRBAR`: the cluster-scope error barrier ptxas puts after cluster-scope fences.
    CgaErrbar,
    /// `ARRIVES.LDGSTSBAR.64[count] [s0(UR or Zero)+s2(offset)]`: an arrive that fires when the
    /// thread's earlier LDGSTS copies have landed (`cp.async.mbarrier.arrive`; sm_80 on, the
    /// count forms sm_90: `arrives.rs`).
    Arrives(crate::arrives::ArrivesCount),
    /// `ATOMS.ARRIVE.64 d0(R pair or RZ: the word before), [s0(R or Zero)+URZ+s2(offset)]`: one
    /// arrival on an sm_80..89 barrier word (`mbarrier80.rs`).
    AtomsArrive,
    /// `ATOMS.POPC.INC.32 RZ, [s0(R or Zero)+URZ+s2(offset)]`: one fewer expected arrival on an
    /// sm_80..89 barrier word (`mbarrier.arrive_drop`, `mbarrier80.rs`).
    AtomsPopcInc,
}

impl SyncsOp {
    /// The barrier operations (not the fences): results under a write scoreboard and sources
    /// read after issue, as the shared-memory ops (ptxas gives ARRIVE and PHASECHK scoreboards).
    pub fn is_memory_op(self) -> bool {
        matches!(
            self,
            SyncsOp::Exch64
                | SyncsOp::Arrive { .. }
                | SyncsOp::PhaseChk { .. }
                | SyncsOp::CctlIv
                | SyncsOp::Arrives(_)
                | SyncsOp::AtomsArrive
                | SyncsOp::AtomsPopcInc
        )
    }
}
