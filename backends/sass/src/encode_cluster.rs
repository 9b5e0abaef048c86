//! Encodings of `cluster.rs`'s instructions, learned from ptxas 13.5's sm_90a output (nvdisasm
//! -hex). UCGABAR_ARV 0x9c7, UCGABAR_WAIT 0xdc7; UTMACCTL 0x9b9 with the address UR in 24..29 and
//! .PF bit 82; UTMACMDFLUSH 0x9b7; USETMAXREG 0x9c8 with the count in 32..39, the mode in 72..73
//! (1 DEALLOC, 2 TRY_ALLOC), .CTAPOOL bit 74 and the UP destination in 81..83 (UPT: none).
//! UISETP's immediate form 0x88c: UR 24..29, immediate 32..63, bits 64..95 as ptxas's
//! `.EQ.U32.AND UPd, UPT, UR, imm, UPT` (0x0bf02070) with UPd in 81..83. DEPBAR 0x91a with the
//! scoreboard mask in 32..37. PLOP3 (0x81c) from a uniform predicate: bits 64..95 as ptxas's
//! `PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0` (0x03f0f008), UP 68..70, P 81..83. All but
//! UTMACMDFLUSH, DEPBAR and PLOP3 set bit 91.

use crate::cluster::ClusterOp;
use crate::encode::{EResult, EncodeError, Word};
use crate::ir::*;

const UPT: u64 = 7;

pub(crate) fn encode_cluster(w: &mut Word, i: &Instr, op: ClusterOp) -> EResult<()> {
    match op {
        ClusterOp::BarArrive => w.set(0, 12, 0x9c7),
        ClusterOp::BarWait => w.set(0, 12, 0xdc7),
        ClusterOp::TmaCtl { prefetch } => {
            w.set(0, 12, 0x9b9);
            match i.srcs[0].val {
                SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 && r.idx % 2 == 0 => {
                    w.set(24, 6, r.idx as u64)
                }
                _ => return Err(EncodeError(format!("UTMACCTL: address {:?}", i.srcs[0]))),
            }
            w.set(82, 1, prefetch as u64);
        }
        ClusterOp::TmaCmdFlush => {
            w.set(0, 12, 0x9b7);
            return Ok(());
        }
        ClusterOp::SetMaxReg { inc, count } => {
            w.set(0, 12, 0x9c8);
            if !(24..=256).contains(&count) || count % 8 != 0 {
                return Err(EncodeError(format!("USETMAXREG: count {count}")));
            }
            w.set(32, 8, count as u64 & 0xff);
            w.set(72, 2, if inc { 2 } else { 1 });
            w.set(74, 1, 1);
            let up = match i.dsts[0] {
                Dst::None => UPT,
                Dst::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => r.idx as u64,
                d => return Err(EncodeError(format!("USETMAXREG: destination {d:?}"))),
            };
            w.set(81, 3, up);
        }
        ClusterOp::UisetpEq { imm } => {
            w.set(0, 12, 0x88c);
            match i.srcs[0].val {
                SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => {
                    w.set(24, 6, r.idx as u64)
                }
                _ => return Err(EncodeError(format!("UISETP: source {:?}", i.srcs[0]))),
            }
            w.set(32, 32, imm as u64);
            w.set(64, 32, 0x0bf0_2070);
            match i.dsts[0] {
                Dst::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => w.set(81, 3, r.idx as u64),
                d => return Err(EncodeError(format!("UISETP: destination {d:?}"))),
            }
        }
        ClusterOp::PredFromUniform => {
            w.set(0, 12, 0x81c);
            w.set(64, 32, 0x03f0_f008);
            let up = match i.srcs[0].val {
                SrcVal::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => r.idx as u64,
                _ => return Err(EncodeError(format!("PLOP3: source {:?}", i.srcs[0]))),
            };
            w.set(68, 3, up);
            w.set(71, 1, i.srcs[0].neg as u64);
            match i.dsts[0] {
                Dst::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => w.set(81, 3, r.idx as u64),
                d => return Err(EncodeError(format!("PLOP3: destination {d:?}"))),
            }
            return Ok(());
        }
        ClusterOp::DepbarAll => {
            w.set(0, 12, 0x91a);
            w.set(32, 6, 0x3f);
            return Ok(());
        }
    }
    w.set(91, 1, 1);
    Ok(())
}
