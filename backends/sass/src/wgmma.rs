//! The warpgroup tensor-core ops of sm_90a (`wgmma.*`): HGMMA, IGMMA and QGMMA with their shapes
//! and element types as data, and the warpgroup synchronisation around them.
//!
//! Slot conventions of [`Opcode::Wgmma`](crate::ir::Opcode::Wgmma): d0 the accumulator group D
//! (`acc_regs` consecutive GPRs); with shared-memory A, s0 the descriptor group (four uniform
//! registers: A's descriptor in the low pair, B's in the high pair, `gdesc[URx]`); with register
//! A, s0 A's group (four GPRs) and s1 the descriptor group (only its high pair, B's descriptor,
//! is read); s2 C (D's group, or RZ where the accumulator starts from zero); s3 the scale-d
//! predicate (a uniform predicate, `UPT`/`!UPT` for the immediates 1/0). D is written
//! asynchronously: `WARPGROUP.DEPBAR.LE gsb0, n` is where the values land, and
//! [`Opcode::WarpgroupDepbar`](crate::ir::Opcode::WarpgroupDepbar) names the accumulators in flight
//! as its sources and destinations (kept live and in place, encoded nowhere).

/// The element types of a warpgroup MMA's A and B operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GmmaElem {
    F16,
    Bf16,
    Tf32,
    E4m3,
    E5m2,
    S8,
    U8,
}

impl GmmaElem {
    /// The PTX type name's element (`f16`, `e4m3`, ...).
    pub fn parse(s: &str) -> Option<GmmaElem> {
        Some(match s {
            "f16" => GmmaElem::F16,
            "bf16" => GmmaElem::Bf16,
            "tf32" => GmmaElem::Tf32,
            "e4m3" => GmmaElem::E4m3,
            "e5m2" => GmmaElem::E5m2,
            "s8" => GmmaElem::S8,
            "u8" => GmmaElem::U8,
            _ => return None,
        })
    }

    /// Bits of one element.
    pub fn bits(self) -> u32 {
        match self {
            GmmaElem::F16 | GmmaElem::Bf16 => 16,
            GmmaElem::Tf32 => 32,
            _ => 8,
        }
    }

    /// The K of every shape of this type: 32 bytes of K per row.
    pub fn k(self) -> u32 {
        256 / self.bits()
    }

    /// nvdisasm's name of the type.
    pub fn name(self) -> &'static str {
        match self {
            GmmaElem::F16 => "F16",
            GmmaElem::Bf16 => "BF16",
            GmmaElem::Tf32 => "TF32",
            GmmaElem::E4m3 => "E4M3",
            GmmaElem::E5m2 => "E5M2",
            GmmaElem::S8 => "S8",
            GmmaElem::U8 => "U8",
        }
    }
}

/// The accumulator type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GmmaAcc {
    F16,
    F32,
    S32,
}

/// Which unit (and opcode) a warpgroup MMA of these element types runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GmmaUnit {
    /// f16, bf16, tf32 (opcode 0x9f0, 0xdf0 with register A).
    H,
    /// s8, u8 (0x9f1 / 0xdf1).
    I,
    /// e4m3, e5m2 (0x9f3 / 0xdf3).
    Q,
}

/// One `wgmma.mma_async` as the hardware runs it: `m64nNk*` with A and B types, accumulator,
/// negations (`imm-scale-a/b == -1`), transposes, and where A comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaOp {
    pub n: u16,
    pub a: GmmaElem,
    pub b: GmmaElem,
    pub acc: GmmaAcc,
    pub neg_a: bool,
    pub neg_b: bool,
    pub tnsp_a: bool,
    pub tnsp_b: bool,
    /// `.satfinite` of the integer forms (`.SAT`).
    pub sat: bool,
    /// A in registers (s0) rather than in shared memory.
    pub reg_a: bool,
    /// The last op of a commit group (`gsb0`): `WARPGROUP.DEPBAR` counts groups closed so.
    pub closes_group: bool,
    /// The sparse form (`.sp`, `.SP`) with its sparsity selector; its metadata register is s4.
    pub sparse: Option<u8>,
}

impl WgmmaOp {
    pub fn unit(&self) -> GmmaUnit {
        match self.a {
            GmmaElem::F16 | GmmaElem::Bf16 | GmmaElem::Tf32 => GmmaUnit::H,
            GmmaElem::S8 | GmmaElem::U8 => GmmaUnit::I,
            GmmaElem::E4m3 | GmmaElem::E5m2 => GmmaUnit::Q,
        }
    }

    /// K: 32 bytes per row, twice that for the sparse forms.
    pub fn k(&self) -> u32 {
        self.a.k() * if self.sparse.is_some() { 2 } else { 1 }
    }

    /// Whether the shape and types are a form PTX defines: N a multiple of 8 up to 256 (of 16
    /// for the integer forms, and 24 too), A and B of one family, accumulators that family takes.
    pub fn is_valid(&self) -> bool {
        // Sparse forms: shared-memory A only here; the selector is 0 for 8-bit types.
        let sparse_ok = match self.sparse {
            None => true,
            Some(sel) => !self.reg_a && sel < if self.a.bits() == 8 { 1 } else { 2 },
        };
        let n_ok = sparse_ok && self.n >= 8 && self.n <= 256 && self.n.is_multiple_of(8);
        let int_n_ok = matches!(self.n, 8 | 16 | 24) || self.n.is_multiple_of(16);
        match self.unit() {
            GmmaUnit::H => {
                n_ok && self.a == self.b
                    && (self.acc == GmmaAcc::F32
                        || self.acc == GmmaAcc::F16 && self.a == GmmaElem::F16)
            }
            GmmaUnit::Q => {
                n_ok && matches!(self.b, GmmaElem::E4m3 | GmmaElem::E5m2)
                    && self.acc != GmmaAcc::S32
            }
            GmmaUnit::I => {
                n_ok && int_n_ok
                    && matches!(self.b, GmmaElem::S8 | GmmaElem::U8)
                    && self.acc == GmmaAcc::S32
            }
        }
    }

    /// 32-bit registers of D per thread: 64 x N values over 128 threads, two f16 per register.
    pub fn acc_regs(&self) -> u8 {
        let per_thread = self.n as u32 / 2;
        (if self.acc == GmmaAcc::F16 {
            per_thread / 2
        } else {
            per_thread
        }) as u8
    }

    /// 32-bit registers of a register A fragment per thread (64 x 32 bytes over 128 threads).
    pub const A_REGS: u8 = 4;
}

impl crate::ir::Opcode {
    /// Whether the instruction's register operands only name values for liveness (the
    /// accumulators a WARPGROUP.DEPBAR waits for) and are neither read nor written by it.
    pub fn names_registers_only(&self) -> bool {
        matches!(self, crate::ir::Opcode::WarpgroupDepbar { .. })
    }
}
