//! The latency model shared by the scheduler and the hazard checker.
//!
//! Fixed-latency results are covered by stall counts; variable-latency results (memory, S2R, LDC)
//! by scoreboards. The numbers are deliberately conservative: NVIDIA's tables (as published in Mesa
//! NAK for sm_75/sm_80) give 4-6 cycles for ALU/FMA results and 13 for a predicate read as a guard;
//! sm_90 has no public table, so the same upper bounds are used there.

use crate::ir::{Instr, Opcode, RegFile};

/// Cycles from issue of a fixed-latency GPR producer to issue of any reader.
pub const GPR_LATENCY: u32 = 6;
/// IMAD variants (the high half of IMAD.WIDE lands later).
pub const IMAD_LATENCY: u32 = 8;
/// A predicate written by ISETP/FSETP before any reader (guard, SEL, accumulator).
pub const PRED_LATENCY: u32 = 13;
/// A uniform register written by ULDC before any reader.
pub const UNIFORM_LATENCY: u32 = 12;
/// The longest stall one instruction can encode.
pub const MAX_STALL: u32 = 15;

/// Whether the op's results arrive after a variable delay (and so need a scoreboard).
pub fn is_variable_latency(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::S2r(_)
            | Opcode::S2ur(_)
            | Opcode::I2f { .. }
            | Opcode::F2i { .. }
            | Opcode::Ldg { .. }
            | Opcode::Lds { .. }
            | Opcode::Ldl { .. }
            | Opcode::Stl { .. }
            | Opcode::Ldc { .. }
            | Opcode::LdcIndexed { .. }
            | Opcode::Stg { .. }
            | Opcode::Sts { .. }
            | Opcode::Ld { .. }
            | Opcode::St { .. }
            | Opcode::Flo { .. }
            | Opcode::Popc
            | Opcode::Brev
            | Opcode::Atoms { .. }
            | Opcode::Atomg { .. }
            | Opcode::Atom { .. }
            | Opcode::Red { .. }
            | Opcode::I2fRp { .. }
            | Opcode::MufuRcp
            | Opcode::Ldgsts { .. }
            | Opcode::Ldsm { .. }
            | Opcode::MufuRsq
            | Opcode::Frnd { .. }
            | Opcode::FrndHalf { .. }
            | Opcode::Mufu { .. }
            | Opcode::R2urPred
    ) || is_fp64(op)
        || is_matrix(op)
        || matches!(op, Opcode::Warp(w) if w.is_variable_latency())
        || matches!(op, Opcode::Mma(m) if m.scoreboarded)
        || matches!(op, Opcode::Syncs(s) if s.is_memory_op())
        || matches!(op, Opcode::Cluster(c) if c.is_variable_latency())
        || matches!(op, Opcode::Tma(t) if t.is_variable_latency())
        || matches!(op, Opcode::Texture(t) if t.is_variable_latency())
        || matches!(op, Opcode::Matrix(_))
}

/// The FP64 unit's instructions and the conversions with a 64-bit side: scoreboarded results,
/// and sources read after issue.
pub fn is_fp64(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Dadd { .. }
            | Opcode::Dmul { .. }
            | Opcode::Dfma { .. }
            | Opcode::Dsetp { .. }
            | Opcode::I2fWide { .. }
            | Opcode::F2iWide { .. }
            | Opcode::F2f { .. }
            | Opcode::FrndF64 { .. }
    )
}

/// Whether a variable-latency op reads its register sources after issue (so an overwriter of
/// those registers must wait on its read scoreboard).
/// Conversions on the decoupled unit are treated the same way (conservatively, as Mesa NAK does).
pub fn reads_late(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Ldg { .. }
            | Opcode::Lds { .. }
            | Opcode::Stg { .. }
            | Opcode::Sts { .. }
            | Opcode::Ldl { .. }
            | Opcode::Stl { .. }
            | Opcode::I2f { .. }
            | Opcode::F2i { .. }
            | Opcode::Ld { .. }
            | Opcode::St { .. }
            | Opcode::Atoms { .. }
            | Opcode::Atomg { .. }
            | Opcode::Atom { .. }
            | Opcode::Red { .. }
            | Opcode::I2fRp { .. }
            | Opcode::Ldgsts { .. }
            | Opcode::Ldsm { .. }
            | Opcode::Frnd { .. }
            | Opcode::FrndHalf { .. }
    ) || is_fp64(op)
        || is_matrix(op)
        || matches!(op, Opcode::Warp(w) if w.reads_late())
        || matches!(op, Opcode::Cluster(c) if c.reads_late())
        || matches!(op, Opcode::Tma(t) if t.reads_late())
        || matches!(op, Opcode::Texture(_))
        || matches!(op, Opcode::Syncs(s) if s.is_memory_op())
        || matches!(op, Opcode::Matrix(_))
}

/// The integer, single-bit and f64 tensor-core ops under a scoreboard (DMMA everywhere, IMMA and
/// BMMA on sm_75; `crate::imma` has the fixed latencies of the others).
pub fn is_matrix(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Dmma { .. }
            | Opcode::Imma {
                scoreboarded: true,
                ..
            }
            | Opcode::Bmma {
                scoreboarded: true,
                ..
            }
    )
}

/// Cycles before a fixed-latency result in `file` written by `producer` may be read.
pub fn fixed_latency(producer: &Instr, file: RegFile) -> u32 {
    match file {
        RegFile::Pred | RegFile::UPred => PRED_LATENCY,
        // ptxas's sm_90 code reads an R2UR result 13 cycles after it (mbarrier.init's count).
        RegFile::UGpr if producer.op == Opcode::R2ur => UNIFORM_LATENCY.max(13),
        RegFile::UGpr => UNIFORM_LATENCY,
        RegFile::Gpr => match producer.op {
            Opcode::Imad { .. } | Opcode::Idp { .. } => IMAD_LATENCY,
            Opcode::Mma(m) => m.fixed_latency(),
            Opcode::MmaSp(m) => m.fixed_latency(),
            Opcode::Imma { .. } | Opcode::Bmma { .. } => {
                crate::imma::matrix_fixed_latency(&producer.op).unwrap_or(GPR_LATENCY)
            }
            _ => GPR_LATENCY,
        },
    }
}
