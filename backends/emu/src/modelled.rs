//! Modelled cycles: a per-warp issue clock that, unlike the hazard model's (whose scoreboards
//! complete as early as possible), gives every variable-latency result a nominal latency by its
//! kind, so that a wait on a scoreboard costs the time until that result is ready. It is a
//! figure of merit for comparing two cubins of the same PTX (ours and ptxas's) under one model,
//! not a timing of any GPU: caches, bandwidth, issue-slot sharing between warps and DEPBAR
//! counts are not modelled.
//!
//! The clock advances by each instruction's stall (at least 1), waits on the scoreboards of its
//! wait mask (and DEPBAR's full waits), and a scoreboarded op sets its write scoreboard ready
//! `nominal_latency` cycles after issue, its read scoreboard when its sources are read
//! (`SOURCE_READ` cycles, or its result latency when shorter).
//!
//! The nominal latencies are Mesa NAK's scheduler estimates (`estimate_variable_latency`, taken
//! from Jia et al., "Dissecting the NVidia Turing T4 GPU via Microbenchmarking", 2019,
//! arXiv:1903.07486): L1-hit memory 32 cycles, constant loads 4, MUFU, conversions, bit counts,
//! shuffles and R2UR 15, special registers and other control-unit results 16, tensor ops 22,
//! FP64 add/multiply 48 and FMA/compare 54; shared memory 19 (the same paper's shared-memory
//! load latency on Turing and Volta).

use crate::decode::{Inst, Op};

/// Global, local and generic memory (an L1 hit).
pub const MEMORY_LATENCY: u64 = 32;
/// Shared memory loads, stores and atomics (and LDSM).
pub const SHARED_LATENCY: u64 = 19;
/// Constant-bank loads (LDC).
pub const CONSTANT_LATENCY: u64 = 4;
/// MUFU, conversions, POPC/FLO/BREV, SHFL, REDUX, MATCH, R2UR.
pub const UNIT_LATENCY: u64 = 15;
/// Special registers (S2R, S2UR) and other control-unit results.
pub const CONTROL_LATENCY: u64 = 16;
/// Scoreboarded tensor-core ops (HMMA/IMMA/BMMA on sm_75, DMMA).
pub const TENSOR_LATENCY: u64 = 22;
/// DADD, DMUL.
pub const FP64_ALU_LATENCY: u64 = 48;
/// DFMA, DSETP.
pub const FP64_FMA_LATENCY: u64 = 54;
/// Cycles after issue by which a late-reading op has read its register sources (the hazard
/// model's calibrated window, `hazard::UNGUARDED_READ_WINDOW`).
pub const SOURCE_READ: u64 = 14;

/// The nominal latency of a scoreboarded result of `op`.
pub fn nominal_latency(op: Op) -> u64 {
    use Op::*;
    match op {
        Ldg | Ld | Ldl | Stg | St | Stl | Atomg | Atom | Red | Ldgsts | Ldgdepbar | Utmaldg
        | Utmastg | Utmapf | Ublkcp | Ublkpf | SyncsExch | SyncsArrive | SyncsPhasechk => {
            MEMORY_LATENCY
        }
        Lds | Sts | Atoms | Ldsm | Stsm | Movm => SHARED_LATENCY,
        Ldc => CONSTANT_LATENCY,
        Mufu | Fchk | I2f | F2i | I2f64 | F2i64 | F2f | Frnd | Popc | Flo | Brev | Shfl | Redux
        | Match | R2ur => UNIT_LATENCY,
        Hmma | Hmma884 | Qmma | Imma | Bmma | Dmma => TENSOR_LATENCY,
        Dadd | Dmul => FP64_ALU_LATENCY,
        Dfma | Dsetp => FP64_FMA_LATENCY,
        _ => CONTROL_LATENCY,
    }
}

/// One warp's modelled clock.
#[derive(Clone, Debug, Default)]
pub struct ModelledClock {
    /// Issue cycle of the next instruction.
    pub t: u64,
    /// Cycle at which everything under each scoreboard is nominally done.
    sb_ready: [u64; 6],
}

impl ModelledClock {
    /// Accounts for one issued instruction.
    pub fn issue(&mut self, i: &Inst) {
        self.wait(i.ctrl.wait);
        if i.op == Op::Depbar && !i.bit(47) {
            self.wait(i.f(32, 6) as u8);
        } else if i.op == Op::Depbar && i.f(38, 6) == 0 {
            self.wait(1 << i.f(44, 3));
        }
        let latency = nominal_latency(i.op);
        if let Some(sb) = i.ctrl.wr_sb.filter(|&s| s < 6) {
            let ready = &mut self.sb_ready[sb as usize];
            *ready = (*ready).max(self.t + latency);
        }
        if let Some(sb) = i.ctrl.rd_sb.filter(|&s| s < 6) {
            let ready = &mut self.sb_ready[sb as usize];
            *ready = (*ready).max(self.t + latency.min(SOURCE_READ));
        }
        self.t += i.ctrl.stall.max(1) as u64;
    }

    fn wait(&mut self, mask: u8) {
        for sb in 0..6 {
            if mask & (1 << sb) != 0 {
                self.t = self.t.max(self.sb_ready[sb]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_outlasts_shared_and_constant_loads() {
        assert!(nominal_latency(Op::Ldg) > nominal_latency(Op::Lds));
        assert!(nominal_latency(Op::Lds) > nominal_latency(Op::Ldc));
        assert_eq!(nominal_latency(Op::Mufu), UNIT_LATENCY);
        assert_eq!(nominal_latency(Op::Dfma), FP64_FMA_LATENCY);
    }
}
