//! The tensor-core matrix multiply-accumulate ops of the machine IR ([`MmaOp`], carried by
//! `Opcode::Mma`): shape, element types and accumulator as parameters, so HMMA (f16/bf16/tf32),
//! QMMA (e4m3/e5m2) and the integer/f64 units (IMMA, DMMA, BMMA) share one shape. Slots: d0 = the
//! D fragment, s0 = A, s1 = B, s2 = C (or RZ for a zero accumulator); each fragment is one aligned
//! register group of [`MmaOp::a_regs`], [`MmaOp::b_regs`], [`MmaOp::acc_regs`] registers.
//! Encodings live in `encode_mma.rs`, text in `print_mma.rs`.

use crate::arch::Sm;

/// Element types of mma fragments.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MmaElem {
    F16,
    Bf16,
    Tf32,
    E4m3,
    E5m2,
    F32,
    F64,
    S8,
    U8,
    S4,
    U4,
    B1,
    S32,
}

impl MmaElem {
    /// The element's width in bits.
    pub fn bits(self) -> u32 {
        match self {
            MmaElem::F16 | MmaElem::Bf16 => 16,
            MmaElem::Tf32 | MmaElem::F32 | MmaElem::S32 => 32,
            MmaElem::F64 => 64,
            MmaElem::E4m3 | MmaElem::E5m2 | MmaElem::S8 | MmaElem::U8 => 8,
            MmaElem::S4 | MmaElem::U4 => 4,
            MmaElem::B1 => 1,
        }
    }

    /// The PTX type name (`f16`, `e4m3`, ...).
    pub fn parse(name: &str) -> Option<MmaElem> {
        Some(match name {
            "f16" => MmaElem::F16,
            "bf16" => MmaElem::Bf16,
            "tf32" => MmaElem::Tf32,
            "e4m3" => MmaElem::E4m3,
            "e5m2" => MmaElem::E5m2,
            "f32" => MmaElem::F32,
            "f64" => MmaElem::F64,
            "s8" => MmaElem::S8,
            "u8" => MmaElem::U8,
            "s4" => MmaElem::S4,
            "u4" => MmaElem::U4,
            "b1" => MmaElem::B1,
            "s32" => MmaElem::S32,
            _ => return None,
        })
    }
}

/// `m x n x k` of one warp-wide multiply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MmaShape {
    pub m: u16,
    pub n: u16,
    pub k: u16,
}

impl MmaShape {
    /// The shape's digits as SASS prints them (`16816`, `1688`, `884`).
    pub fn digits(self) -> String {
        format!("{}{}{}", self.m, self.n, self.k)
    }
}

/// The tensor unit an op runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MmaUnit {
    /// f16/bf16/tf32 inputs.
    Hmma,
    /// e4m3/e5m2 inputs (sm_89).
    Qmma,
    /// s8/u8/s4/u4 inputs.
    Imma,
    /// f64.
    Dmma,
    /// b1.
    Bmma,
}

/// One `mma.sync` as the hardware runs it: `D = A * B + C`, A row-major, B column-major.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MmaOp {
    pub shape: MmaShape,
    pub a: MmaElem,
    pub b: MmaElem,
    /// The type of C and D (f16 or f32 for HMMA/QMMA; s32 and f64 for the other units).
    pub acc: MmaElem,
    /// `.satfinite` (integer forms).
    pub sat: bool,
    /// The result takes a write scoreboard (variable latency; [`MmaOp::scoreboarded_on`]) rather
    /// than the fixed latency [`MmaOp::fixed_latency`] covered by stalls.
    pub scoreboarded: bool,
}

impl MmaOp {
    pub fn unit(&self) -> MmaUnit {
        match self.a {
            MmaElem::F16 | MmaElem::Bf16 | MmaElem::Tf32 => MmaUnit::Hmma,
            MmaElem::E4m3 | MmaElem::E5m2 => MmaUnit::Qmma,
            MmaElem::F64 | MmaElem::F32 => MmaUnit::Dmma,
            MmaElem::B1 => MmaUnit::Bmma,
            _ => MmaUnit::Imma,
        }
    }

    /// 32-bit registers per lane of a fragment of `rows x cols` elements of `e`.
    fn regs(rows: u16, cols: u16, e: MmaElem) -> u8 {
        (rows as u32 * cols as u32 * e.bits()).div_ceil(32 * 32) as u8
    }

    /// Registers of the A fragment (m x k).
    pub fn a_regs(&self) -> u8 {
        Self::regs(self.shape.m, self.shape.k, self.a)
    }

    /// Registers of the B fragment (k x n).
    pub fn b_regs(&self) -> u8 {
        Self::regs(self.shape.k, self.shape.n, self.b)
    }

    /// Registers of the C and D fragments (m x n).
    pub fn acc_regs(&self) -> u8 {
        Self::regs(self.shape.m, self.shape.n, self.acc)
    }

    /// Whether the hardware runs this op as one instruction on `sm` (ptxas 13.5's choices).
    pub fn is_native(&self, sm: Sm) -> bool {
        let MmaShape { m, n, k } = self.shape;
        let float_acc = matches!(self.acc, MmaElem::F16 | MmaElem::F32);
        match self.unit() {
            MmaUnit::Hmma => {
                float_acc
                    && m == 16
                    && n == 8
                    && match self.a {
                        MmaElem::F16 => k == 8 || (k == 16 && sm.num >= 80),
                        MmaElem::Bf16 => (k == 8 || k == 16) && sm.num >= 80,
                        _ => (k == 4 || k == 8) && sm.num >= 80,
                    }
                    && (self.a != MmaElem::Tf32 && self.a != MmaElem::Bf16
                        || self.acc == MmaElem::F32)
            }
            // sm_90 has no fp8 tensor op: lowering rewrites those forms as ptxas does (F2FP
            // unpacks and HMMA, `ptxforge-lower`'s mma_fp8.rs).
            MmaUnit::Qmma => sm.num == 89 && float_acc && m == 16 && n == 8 && (k == 16 || k == 32),
            _ => false,
        }
    }

    /// Whether the result arrives after a variable delay on `sm` (sm_75's HMMA takes a write
    /// scoreboard; sm_80+ runs it at a fixed latency covered by stalls, as ptxas 13.5 does).
    pub fn scoreboarded_on(sm: Sm) -> bool {
        sm.num < 80
    }

    /// Whether the op collects its operands twice (NVIDIA's "MMA 2x collect" class, as Mesa NAK's
    /// sm_80 tables name it: HMMA.16816, HMMA.1688.F32.TF32, QMMA.16832; the others are "1x").
    fn is_double_collect(&self) -> bool {
        match self.unit() {
            MmaUnit::Hmma => self.shape.k == 16 || (self.a == MmaElem::Tf32 && self.shape.k == 8),
            MmaUnit::Qmma => self.shape.k == 32,
            _ => true,
        }
    }

    /// Cycles from issue to the first reader of D on sm_80+ (read from ptxas 13.5's stalls, and
    /// NVIDIA's tables in Mesa NAK: 24 after the 2x-collect forms, 16 after the 1x ones).
    pub fn fixed_latency(&self) -> u32 {
        if self.is_double_collect() {
            24
        } else {
            16
        }
    }

    /// Cycles from issue before a fixed-latency op may overwrite one of its sources (NAK's sm_80
    /// write-after-read table: 7 after a 2x-collect MMA, 1 after the others).
    pub fn source_hold(&self) -> u32 {
        if self.is_double_collect() {
            7
        } else {
            1
        }
    }
}
