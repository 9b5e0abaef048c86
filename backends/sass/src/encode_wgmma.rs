//! Encodings of the warpgroup MMA family (`wgmma.rs`), VOTEU.ANY and the warpgroup barriers.
//!
//! Fields learned from ptxas 13.5's sm_90a output and nvdisasm's decoding of varied words:
//! HGMMA 0x9f0, IGMMA 0x9f1, QGMMA 0x9f3 (0xdf0/0xdf1/0xdf3 with A in registers). D 16..23; the
//! descriptor group's uniform register 24..29 (register A: A 24..31, descriptors 32..37); shape
//! 53..59 (`shape_field`); sparse forms: .SP 73, metadata register 40..47, selector 48..49; tnspA 61, tnspB 62, negB 63; C 64..71;
//! negA 72; F32 accumulator 75 (`.SAT` on IGMMA); A's type 76..77 (HGMMA: 0 f16, 1 bf16, 2 tf32;
//! QGMMA bit 76 A e5m2, 77 B e5m2; IGMMA bit 76 A signed), IGMMA bit 82 B signed; the group
//! scoreboard 84..86 (0 = gsb0, 7 = none); the scale-d uniform predicate 87..89 stored as
//! `7 - index` (UPT = 0), its negation 90; bit 91 set. WARPGROUP.ARRIVE 0x9c5; WARPGROUP.DEPBAR.LE
//! 0x9c5 with bit 47 (gsb0), bit 80 and the count at 72..74. VOTEU.ANY 0x886: UR destination 16..21
//! (URZ), uniform predicate destination 81..83, mode 72..73 (1 = ANY), source predicate 87..89
//! (negation 90).

use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::ir::*;
use crate::wgmma::{GmmaAcc, GmmaElem, GmmaUnit, WgmmaOp};

const RZ: u64 = 255;

fn gpr_dst(d: &Dst) -> EResult<u64> {
    match d {
        Dst::Reg(r) if r.file == RegFile::Gpr && r.idx < 255 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("GMMA: destination {d:?}"))),
    }
}

fn desc_group(s: &Src) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("GMMA: descriptor group {s:?}"))),
    }
}

/// A uniform predicate source: (index field, negation); UPT is index 7.
pub(crate) fn upred_src(s: &Src) -> EResult<(u64, bool)> {
    match s.val {
        SrcVal::True => Ok((7, s.neg)),
        SrcVal::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => Ok((r.idx as u64, s.neg)),
        _ => Err(EncodeError(format!("uniform predicate {s:?}"))),
    }
}

fn pred_src(s: &Src) -> EResult<(u64, bool)> {
    match s.val {
        SrcVal::True => Ok((7, s.neg)),
        SrcVal::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => Ok((r.idx as u64, s.neg)),
        _ => Err(EncodeError(format!("predicate {s:?}"))),
    }
}

/// The type bits 75..77 and 82 of a warpgroup MMA.
fn type_bits(w: &mut Word, op: &WgmmaOp) {
    match op.unit() {
        GmmaUnit::H => {
            w.set(75, 1, (op.acc == GmmaAcc::F32) as u64);
            let t = match op.a {
                GmmaElem::Bf16 => 1,
                GmmaElem::Tf32 => 2,
                _ => 0,
            };
            w.set(76, 2, t);
        }
        GmmaUnit::Q => {
            w.set(75, 1, (op.acc == GmmaAcc::F32) as u64);
            w.set(76, 1, (op.a == GmmaElem::E5m2) as u64);
            w.set(77, 1, (op.b == GmmaElem::E5m2) as u64);
        }
        GmmaUnit::I => {
            w.set(75, 1, op.sat as u64);
            w.set(76, 1, (op.a == GmmaElem::S8) as u64);
            w.set(82, 1, (op.b == GmmaElem::S8) as u64);
        }
    }
}

/// The shape field (53..59): N/8 - 1 on HGMMA and QGMMA (plus 32 for tf32's dense k8 shapes and
/// QGMMA's sparse ones, 64 for the sparse f16/bf16 ones); on IGMMA three times the index of N among
/// 8, 16, 24, 32, 48, 64, ..., 256, plus one for the sparse forms.
fn shape_field(op: &WgmmaOp) -> u64 {
    let n = op.n as u64;
    let sparse = op.sparse.is_some() as u64;
    match op.unit() {
        GmmaUnit::I => 3 * if n <= 32 { n / 8 - 1 } else { n / 16 + 1 } + sparse,
        GmmaUnit::Q => (n / 8 - 1) + 32 * sparse,
        // Dense tf32 (k8) at 32, sparse f16/bf16 (k32) at 64; dense f16 and sparse tf32 (k16) at 0.
        GmmaUnit::H => {
            (n / 8 - 1)
                + match (op.a == GmmaElem::Tf32, op.sparse.is_some()) {
                    (true, false) => 32,
                    (false, true) => 64,
                    _ => 0,
                }
        }
    }
}

/// Encodes HGMMA/IGMMA/QGMMA (guard and control bits are the caller's).
pub(crate) fn encode_wgmma(w: &mut Word, i: &Instr, op: WgmmaOp) -> EResult<()> {
    if !op.is_valid() {
        return Err(EncodeError(format!("GMMA form {op:?}")));
    }
    let base = match op.unit() {
        GmmaUnit::H => 0x9f0,
        GmmaUnit::I => 0x9f1,
        GmmaUnit::Q => 0x9f3,
    };
    w.set(0, 12, base | if op.reg_a { 0x400 } else { 0 });
    w.set(16, 8, gpr_dst(&i.dsts[0])?);
    if op.reg_a {
        w.set(24, 8, src_gpr(&i.srcs[0])?);
        w.set(32, 6, desc_group(&i.srcs[1])?);
    } else {
        w.set(24, 6, desc_group(&i.srcs[0])?);
    }
    let shape = shape_field(&op);
    w.set(53, 7, shape);
    if let Some(sel) = op.sparse {
        w.set(73, 1, 1);
        w.set(40, 8, src_gpr(&i.srcs[4])?);
        w.set(48, 2, sel as u64);
    }
    w.set(61, 1, op.tnsp_a as u64);
    w.set(62, 1, op.tnsp_b as u64);
    w.set(63, 1, op.neg_b as u64);
    w.set(64, 8, src_gpr(&i.srcs[2])?);
    w.set(72, 1, op.neg_a as u64);
    type_bits(w, &op);
    w.set(84, 3, if op.closes_group { 0 } else { 7 });
    let (p, neg) = upred_src(&i.srcs[3])?;
    w.set(87, 3, 7 - p);
    w.set(90, 1, neg as u64);
    w.set(91, 1, 1);
    Ok(())
}

/// `WARPGROUP.ARRIVE`.
pub(crate) fn encode_warpgroup_arrive(w: &mut Word) {
    w.set(0, 12, 0x9c5);
}

/// `WARPGROUP.DEPBAR.LE gsb0, pending`.
pub(crate) fn encode_warpgroup_depbar(w: &mut Word, pending: u8) -> EResult<()> {
    if pending > 7 {
        return Err(EncodeError(format!("WARPGROUP.DEPBAR count {pending}")));
    }
    w.set(0, 12, 0x9c5);
    w.set(47, 1, 1);
    w.set(72, 3, pending as u64);
    w.set(80, 1, 1);
    Ok(())
}

/// `VOTEU.ANY UPd, Ps`.
pub(crate) fn encode_voteu_any(w: &mut Word, i: &Instr) -> EResult<()> {
    w.set(0, 12, 0x886);
    w.set(16, 6, 63);
    let d = match i.dsts[0] {
        Dst::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => r.idx as u64,
        Dst::None => 7,
        d => return Err(EncodeError(format!("VOTEU destination {d:?}"))),
    };
    w.set(81, 3, d);
    w.set(72, 2, 1);
    let (p, neg) = pred_src(&i.srcs[0])?;
    w.set(87, 3, p);
    w.set(90, 1, neg as u64);
    let _ = RZ;
    Ok(())
}
