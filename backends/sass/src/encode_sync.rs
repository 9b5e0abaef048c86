//! Encodings of the sm_90 SYNCS family and asynchronous-proxy fences (`syncs.rs`).
//!
//! Fields learned from ptxas 13.5's output for sm_90a (nvdisasm -hex). SYNCS.EXCH.64 (0x5b2):
//! destination UR 16..23, address UR 24..31, data UR 32..39, bit 72 (.64), bit 91. ARRIVE.TRANS64
//! (0x9a7): destination 16..23, address register 24..31 (RZ here), count 32..39, address UR
//! 64..69, .RED 74, mode 84..86, bit 91. PHASECHK.TRANS64 (0x5a7): address register 24..31,
//! operand 32..39, address UR 64..69, bit 70, TRYWAIT 72, predicate destination 81..83, bit 91.
//! CCTL.IV (0x9b1): address register 24..31, UR 64..69, bit 91. FENCE.VIEW.ASYNC (0x3c6): .G 72.
//! CGAERRBAR (0x5ab). The address offset (`[R12+URZ+0x8]`) is bits 40..63. ARRIVE.TRANS64.OPTOUT (`mbarrier.arrive_drop`): bit 75. The address of
//! ARRIVE, PHASECHK and CCTL.IV is `[R+UR]`: ptxas writes `[R11+URZ]` for a barrier whose address
//! is in a register, `[UR6]` (RZ) for one in a uniform register.
//! R2UR (0x2ca on sm_90, 0x3c2 on sm_80..89): UR destination 16..21, register 24..31, predicate
//! destination 81..83 (PT unless the uniform-address loop of `arrives.rs` reads it). ELECT (0x82f, `elect.sync`): UR destination 16..21, predicate destination 81..83, source
//! predicate 87..89 (negation 90).

use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::ir::*;
use crate::syncs::SyncsOp;

const RZ: u64 = 255;
const URZ: u64 = 63;
const PT: u64 = 7;

fn ur_src(s: &Src) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => Ok(r.idx as u64),
        SrcVal::Zero => Ok(URZ),
        _ => Err(EncodeError(format!("SYNCS: uniform source {s:?}"))),
    }
}

fn ur_dst(d: &Dst) -> EResult<u64> {
    match d {
        Dst::None => Ok(URZ),
        Dst::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("SYNCS: uniform destination {d:?}"))),
    }
}

fn gpr_dst(d: &Dst) -> EResult<u64> {
    match d {
        Dst::None => Ok(RZ),
        Dst::Reg(r) if r.file == RegFile::Gpr && r.idx < 255 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("SYNCS: destination {d:?}"))),
    }
}

/// The `[R+UR+offset]` address of a SYNCS operand: a GPR (with URZ) or a uniform register
/// (with RZ), and the immediate offset of slot `off` (bits 40..63; Zero for none).
fn set_address(w: &mut Word, s: &Src, off: &Src) -> EResult<()> {
    match off.val {
        SrcVal::Imm(v) if (v as i32) < 1 << 23 && (v as i32) >= -(1 << 23) => {
            w.set(40, 24, v as u64 & 0xff_ffff)
        }
        SrcVal::Zero => {}
        _ => return Err(EncodeError(format!("SYNCS: address offset {off:?}"))),
    }
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::Gpr => {
            w.set(24, 8, src_gpr(s)?);
            w.set(64, 6, URZ);
        }
        _ => {
            w.set(24, 8, RZ);
            w.set(64, 6, ur_src(s)?);
        }
    }
    Ok(())
}

fn pred_dst(d: &Dst) -> EResult<u64> {
    match d {
        Dst::None => Ok(PT),
        Dst::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("SYNCS: predicate destination {d:?}"))),
    }
}

/// Encodes one SYNCS-family instruction (guard and control bits are the caller's).
pub(crate) fn encode_syncs(w: &mut Word, i: &Instr, op: SyncsOp) -> EResult<()> {
    match op {
        SyncsOp::Exch64 => {
            w.set(0, 12, 0x5b2);
            w.set(16, 8, ur_dst(&i.dsts[0])?);
            w.set(24, 8, ur_src(&i.srcs[0])?);
            w.set(32, 8, ur_src(&i.srcs[1])?);
            w.set(72, 1, 1);
            w.set(91, 1, 1);
        }
        SyncsOp::Arrive { mode, red, optout } => {
            w.set(0, 12, 0x9a7);
            w.set(16, 8, gpr_dst(&i.dsts[0])?);
            set_address(w, &i.srcs[0], &i.srcs[2])?;
            w.set(32, 8, src_gpr(&i.srcs[1])?);
            w.set(74, 1, red as u64);
            w.set(75, 1, optout as u64);
            w.set(84, 3, mode.code());
            w.set(91, 1, 1);
        }
        SyncsOp::PhaseChk { trywait } => {
            w.set(0, 12, 0x5a7);
            set_address(w, &i.srcs[0], &i.srcs[2])?;
            w.set(32, 8, src_gpr(&i.srcs[1])?);
            w.set(70, 1, 1);
            w.set(72, 1, trywait as u64);
            w.set(81, 3, pred_dst(&i.dsts[0])?);
            w.set(91, 1, 1);
        }
        SyncsOp::CctlIv => {
            w.set(0, 12, 0x9b1);
            set_address(w, &i.srcs[0], &i.srcs[2])?;
            w.set(91, 1, 1);
        }
        SyncsOp::FenceViewAsync { global } => {
            w.set(0, 12, 0x3c6);
            w.set(72, 1, global as u64);
        }
        SyncsOp::CgaErrbar => w.set(0, 12, 0x5ab),
        SyncsOp::Arrives(count) => crate::arrives::encode_arrives(w, i, count)?,
        SyncsOp::AtomsArrive | SyncsOp::AtomsPopcInc => {
            set_address(w, &i.srcs[0], &i.srcs[2])?;
            let popc_inc = op == SyncsOp::AtomsPopcInc;
            crate::mbarrier80::encode_atoms_mbarrier(w, i, popc_inc)?;
        }
    }
    Ok(())
}

/// Encodes `ELECT d0(P), d1(UR), s0(P)` (guard and control bits are the caller's).
pub(crate) fn encode_elect(w: &mut Word, i: &Instr) -> EResult<()> {
    w.set(0, 12, 0x82f);
    w.set(16, 6, ur_dst(&i.dsts[1])?);
    w.set(81, 3, pred_dst(&i.dsts[0])?);
    let (p, neg) = match i.srcs[0].val {
        SrcVal::True | SrcVal::Zero => (PT, false),
        SrcVal::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => (r.idx as u64, i.srcs[0].neg),
        _ => {
            return Err(EncodeError(format!(
                "ELECT: predicate source {:?}",
                i.srcs[0]
            )))
        }
    };
    w.set(87, 3, p);
    w.set(90, 1, neg as u64);
    Ok(())
}

/// Encodes `R2UR [d1(P),] d0(UR), s0(R)` (0x2ca on sm_90, 0x3c2 on sm_80..89; fields alike). With
/// a predicate destination (ptxas's uniform-address loops) the predicate is set in the lanes whose
/// register differs from the value taken.
pub(crate) fn encode_r2ur(sm: crate::arch::Sm, w: &mut Word, i: &Instr) -> EResult<()> {
    if sm.num < 80 {
        return Err(EncodeError("R2UR before sm_80".into()));
    }
    w.set(0, 12, if sm.num >= 90 { 0x2ca } else { 0x3c2 });
    w.set(16, 6, ur_dst(&i.dsts[0])?);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(81, 3, pred_dst(&i.dsts[1])?);
    Ok(())
}
