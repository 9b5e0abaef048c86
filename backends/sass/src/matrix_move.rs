//! The warp-wide matrix movers and Volta's quad-pair tensor op (`Opcode::Matrix`): MOVM (0x23a,
//! `movmatrix`), STSM (0x844, `stmatrix`, sm_90) and sm_75's HMMA.884 (0x236, `mma.m8n8k4` with
//! f16 inputs), their encodings and nvdisasm's text.
//!
//! Learned from ptxas 13.5 + nvdisasm: MOVM.16.MT88 d 16..23, a 24..31 (no modifier bits).
//! STSM.16.{M88,MT88}[.2|.4]: address 24..31, data group 32..39, offset 40..63, count 72..73
//! (0, 1, 2 for 1, 2, 4 matrices), bit 78 transposed (LDSM's layout with data for destination).
//! HMMA.884.{F16,F32}.{F16,F32}.STEPn: D 16..23, A 24..31, B 32..39, C 64..71; bit 73 A column-
//! major, bit 74 B column-major, bit 76 f32 D, bit 78 f32 C, step 79..80.

use crate::encode::{EResult, EncodeError, Word};
use crate::ir::*;

/// One matrix mover or quad-pair step; slot conventions on each variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MatrixOp {
    /// `MOVM.16.MT88 d0, s0`: the warp's 8x8 b16 matrix (lane l holds row l/4, columns 2(l%4),
    /// 2(l%4)+1) transposed. Variable latency, reads its source late.
    Movm,
    /// `STSM.16.{M88,MT88}[.2|.4] [s0 + offset], s1(group of `count`)`: stores `count` 8x8 b16
    /// matrices, rows at the addresses of lanes 8j..8j+7 (`trans`: transposed). sm_90.
    Stsm { count: u8, trans: bool, offset: i32 },
    /// `HMMA.884.{F16,F32}.{F16,F32}.STEPn d0(2 regs), s0(A, 2), s1(B, 2), s2(C, 2)` (sm_75):
    /// step `step` of a quad-pair m8n8k4 product. With an f32 D step s writes accumulator
    /// elements 2s, 2s+1; with an f16 D (two steps) elements 4s..4s+3. An f16 C group holds
    /// elements 4(s/2).. (f32 D) or 4s.. (f16 D). Scoreboarded, reads its sources late.
    Hmma884 {
        step: u8,
        a_col: bool,
        b_col: bool,
        f32_d: bool,
        f32_c: bool,
    },
}

impl MatrixOp {
    /// Whether the op runs on `sm` (MOVM from sm_75, STSM from sm_90, HMMA.884 on sm_75 only).
    pub fn runs_on(self, sm: u32) -> bool {
        match self {
            MatrixOp::Movm => sm >= 75,
            MatrixOp::Stsm { .. } => sm >= 90,
            MatrixOp::Hmma884 { .. } => sm == 75,
        }
    }

    /// Whether the op writes memory (kept however its results are used).
    pub fn writes_memory(self) -> bool {
        matches!(self, MatrixOp::Stsm { .. })
    }
}

fn gpr(s: &Src) -> EResult<u64> {
    crate::encode::src_gpr(s)
}

fn dst_reg(i: &Instr) -> EResult<u64> {
    match i.dsts[0] {
        Dst::Reg(r) if r.file == RegFile::Gpr => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("{:?} destination", i.op))),
    }
}

/// Encodes one matrix op.
pub(crate) fn encode_matrix_move(w: &mut Word, i: &Instr, op: MatrixOp) -> EResult<()> {
    match op {
        MatrixOp::Movm => {
            w.set(0, 12, 0x23a);
            w.set(16, 8, dst_reg(i)?);
            w.set(24, 8, gpr(&i.srcs[0])?);
        }
        MatrixOp::Stsm {
            count,
            trans,
            offset,
        } => {
            let code = match count {
                1 => 0,
                2 => 1,
                4 => 2,
                _ => return Err(EncodeError("STSM count".into())),
            };
            w.set(0, 12, 0x844);
            w.set(16, 8, 0);
            w.set(24, 8, gpr(&i.srcs[0])?);
            w.set(32, 8, gpr(&i.srcs[1])?);
            w.set(40, 24, offset as u64);
            w.set(72, 2, code);
            w.set(78, 1, trans as u64);
        }
        MatrixOp::Hmma884 {
            step,
            a_col,
            b_col,
            f32_d,
            f32_c,
        } => {
            if step > 3 || (!f32_d && (step > 1 || f32_c)) {
                return Err(EncodeError(format!("{op:?}")));
            }
            w.set(0, 12, 0x236);
            w.set(16, 8, dst_reg(i)?);
            w.set(24, 8, gpr(&i.srcs[0])?);
            w.set(32, 8, gpr(&i.srcs[1])?);
            w.set(64, 8, gpr(&i.srcs[2])?);
            w.set(73, 1, a_col as u64);
            w.set(74, 1, b_col as u64);
            w.set(76, 1, f32_d as u64);
            w.set(78, 1, f32_c as u64);
            w.set(79, 2, step as u64);
        }
    }
    Ok(())
}

/// nvdisasm's text of one matrix op.
pub(crate) fn matrix_move_body(i: &Instr, op: MatrixOp) -> String {
    use crate::print::{dst, src};
    match op {
        MatrixOp::Movm => format!("MOVM.16.MT88 {}, {}", dst(&i.dsts[0]), src(&i.srcs[0])),
        MatrixOp::Stsm {
            count,
            trans,
            offset,
        } => {
            let off = match offset {
                0 => String::new(),
                o if o > 0 => format!("+{o:#x}"),
                o => format!("+-{:#x}", o.unsigned_abs()),
            };
            format!(
                "STSM.16.{}{} [{}{off}], {}",
                if trans { "MT88" } else { "M88" },
                if count > 1 {
                    format!(".{count}")
                } else {
                    String::new()
                },
                src(&i.srcs[0]),
                src(&i.srcs[1])
            )
        }
        MatrixOp::Hmma884 {
            step,
            a_col,
            b_col,
            f32_d,
            f32_c,
        } => {
            let t = |f: bool| if f { "F32" } else { "F16" };
            let l = |c: bool| if c { "COL" } else { "ROW" };
            format!(
                "HMMA.884.{}.{}.STEP{step} {}, {}.{}, {}.{}, {}",
                t(f32_d),
                t(f32_c),
                dst(&i.dsts[0]),
                src(&i.srcs[0]),
                l(a_col),
                src(&i.srcs[1]),
                l(b_col),
                src(&i.srcs[2])
            )
        }
    }
}
