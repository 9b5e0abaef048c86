//! sm_90's tensor-memory-accelerator and bulk-copy instructions as ptxas 13.5 writes them:
//! UTMALDG / UTMASTG / UTMAREDG / UTMAPF (`cp.async.bulk.tensor` tile mode, `cp.reduce.async.bulk
//! .tensor`, `cp.async.bulk.prefetch.tensor`), UBLKCP / UBLKPF (`cp.async.bulk`,
//! `cp.async.bulk.prefetch`) and UTMACMDFLUSH closing a bulk group. Lowering issues each in a
//! loop over the lanes (`ptxforge-lower`'s `tma.rs`). Encodings in `encode_tma.rs`, text in
//! `print_tma.rs`.

/// The reduction of UTMAREDG (bits 87..89).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BulkRed {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
}

impl BulkRed {
    pub const ALL: [BulkRed; 8] = [
        BulkRed::Add,
        BulkRed::Min,
        BulkRed::Max,
        BulkRed::Inc,
        BulkRed::Dec,
        BulkRed::And,
        BulkRed::Or,
        BulkRed::Xor,
    ];

    /// The field value (bits 87..89).
    pub fn code(self) -> u64 {
        Self::ALL.iter().position(|&r| r == self).unwrap_or(0) as u64
    }

    /// From PTX's `.redOp` (`add`, `min`, ...).
    pub fn from_ptx(s: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|r| r.name().eq_ignore_ascii_case(s))
    }

    /// nvdisasm's suffix without the dot (`ADD`).
    pub fn name(self) -> &'static str {
        match self {
            BulkRed::Add => "ADD",
            BulkRed::Min => "MIN",
            BulkRed::Max => "MAX",
            BulkRed::Inc => "INC",
            BulkRed::Dec => "DEC",
            BulkRed::And => "AND",
            BulkRed::Or => "OR",
            BulkRed::Xor => "XOR",
        }
    }
}

/// What a tensor instruction does with the tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TensorAccess {
    /// UTMALDG: global to shared memory, completing bytes on the mbarrier.
    Load,
    /// UTMASTG: shared to global memory (a bulk group).
    Store,
    /// UTMAREDG.op: shared reduced into global memory (a bulk group).
    Reduce(BulkRed),
    /// UTMAPF.L2: the tile into L2.
    Prefetch,
}

/// The direction of UBLKCP (bits 73..74).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BulkDir {
    /// `.S.G`: global to shared memory (mbarrier completion).
    GlobalToShared,
    /// `.G.S`: shared to global memory (a bulk group).
    SharedToGlobal,
    /// `.S.S`: this CTA's shared memory to a cluster peer's (mbarrier completion).
    SharedToShared,
}

impl BulkDir {
    pub fn code(self) -> u64 {
        match self {
            BulkDir::GlobalToShared => 1,
            BulkDir::SharedToGlobal => 2,
            BulkDir::SharedToShared => 3,
        }
    }
    pub fn suffix(self) -> &'static str {
        match self {
            BulkDir::GlobalToShared => ".S.G",
            BulkDir::SharedToGlobal => ".G.S",
            BulkDir::SharedToShared => ".S.S",
        }
    }
    /// Whether the destination is shared memory (its UR group holds the mbarrier after it).
    pub fn to_shared(self) -> bool {
        self != BulkDir::SharedToGlobal
    }
}

/// The instructions (operands in the comments; `desc[s3]`, the L2 cache hint as a uniform pair,
/// is optional everywhere: Src::NONE when absent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TmaOp {
    /// `UTMALDG.nD[.MULTICAST] [s0], [s1][, s2][, desc[s3]]` (and UTMASTG, UTMAREDG, UTMAPF.L2):
    /// s0 is a group of uniform registers: the shared address, the mbarrier's (loads only), then
    /// the `dims` coordinates; s1 the tensor map's generic address (pair); s2 the multicast CTA
    /// mask (loads only; Src::NONE for none). A prefetch's group holds only the coordinates.
    Tensor { access: TensorAccess, dims: u8 },
    /// `UBLKCP.dir[.MULTICAST] [s0], [s1], s2[, desc[s3]]`: s0 the destination (a group of shared
    /// address and mbarrier when it is shared memory, else a global pair), s1 the source, s2 the
    /// size in 16-byte units (bits 0..15) and the multicast mask (bits 16..31).
    Bulk { dir: BulkDir, multicast: bool },
    /// `UBLKPF.L2 [s1], s2[, desc[s3]]`: a global range (s2 in 16-byte units) into L2.
    BulkPrefetch,
    /// `UTMACMDFLUSH` of `cp.async.bulk.commit_group`: closes the bulk group of the stores and
    /// reductions issued since the last one; the group counts on SB0 (read scoreboard, as ptxas
    /// sets it) until their sources are read, and DEPBAR.LE SB0 waits for it.
    BulkCommit,
}

impl TmaOp {
    /// The copies and prefetches read their uniform registers after issue.
    pub fn reads_late(self) -> bool {
        self != TmaOp::BulkCommit
    }

    /// The copies take a read scoreboard (they have no results).
    pub fn is_variable_latency(self) -> bool {
        self.reads_late()
    }
}

/// Whether the op counts an asynchronous copy group on SB0 (LDGDEPBAR, the bulk UTMACMDFLUSH),
/// which DEPBAR.LE SB0 waits for.
pub fn counts_async_group(op: &crate::ir::Opcode) -> bool {
    matches!(
        op,
        crate::ir::Opcode::Ldgdepbar | crate::ir::Opcode::Tma(TmaOp::BulkCommit)
    )
}
