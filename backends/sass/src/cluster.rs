//! sm_90 cluster, tensor-map and register-reconfiguration instructions: UCGABAR_ARV/WAIT
//! (`barrier.cluster.arrive/wait`), UTMACCTL.{PF,IV} and UTMACMDFLUSH (`prefetch.tensormap`,
//! `fence.proxy.tensormap::generic.acquire`, after DEPBAR on every scoreboard), USETMAXREG
//! (`setmaxnreg`) and the UISETP that tests for a cluster launch, as ptxas 13.5 writes them.
//! Encodings in `encode_cluster.rs`, text in `print_cluster.rs`.

/// One of the instructions above (operands in the comments).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClusterOp {
    /// `UCGABAR_ARV`: this warp arrives at the cluster barrier.
    BarArrive,
    /// `UCGABAR_WAIT`: waits until every thread of the cluster has arrived.
    BarWait,
    /// `UTMACCTL.PF [s0(UR pair)]` (prefetch) or `UTMACCTL.IV [s0]` (invalidate) of the tensor
    /// map at a generic address.
    TmaCtl { prefetch: bool },
    /// `UTMACMDFLUSH`.
    TmaCmdFlush,
    /// `USETMAXREG.TRY_ALLOC.CTAPOOL d0(UP), count` (`setmaxnreg.inc`: d0 says whether the
    /// registers were granted; ptxas retries until they are) or `USETMAXREG.DEALLOC.CTAPOOL count`
    /// (`setmaxnreg.dec`, d0 None).
    SetMaxReg { inc: bool, count: u32 },
    /// `UISETP.EQ.U32.AND d0(UP), UPT, s0(UR), imm, UPT`: whether s0 equals `imm` (ptxas tests
    /// constant bank 0's cluster-launch word, `c[0x0][0x140] == 1`, so).
    UisetpEq { imm: u32 },
    /// `DEPBAR {5,4,3,2,1,0}`: waits until every scoreboard is clear (before UTMACCTL.IV).
    DepbarAll,
    /// `PLOP3.LUT d0(P), PT, PT, PT, s0(UP), 0x80, 0x0`: a uniform predicate's value as a
    /// predicate (USETMAXREG's answer, for the branch that retries it).
    PredFromUniform,
}

impl ClusterOp {
    /// The result (USETMAXREG.TRY_ALLOC's predicate) arrives after a variable delay.
    pub fn is_variable_latency(self) -> bool {
        matches!(self, ClusterOp::SetMaxReg { inc: true, .. })
    }

    /// The tensor-map address is read after issue.
    pub fn reads_late(self) -> bool {
        matches!(self, ClusterOp::TmaCtl { .. })
    }
}
