//! Encodings of `tma.rs`'s instructions, learned from ptxas 13.5's sm_90a output (nvdisasm -hex).
//! UTMALDG 0x5b4 (0x3b4 with .MULTICAST), UTMASTG 0x3b5, UTMAREDG 0x3b6 (the reduction in
//! 87..89), UTMAPF.L2 0x5b8: the register group in 32..37, the tensor map's pair in 24..29, the
//! dimension count minus one in 79..81, the multicast mask's UR in 64..69 with bit 75, the cache
//! hint's pair in 40..45 with bit 76. UBLKCP 0x3ba: destination 32..37, source 24..29, size UR
//! 64..69, direction 73..74 (1 S.G, 2 G.S, 3 S.S), bit 75 .MULTICAST, hint as above; UBLKPF.L2
//! 0x3bc: source 24..29, size 64..69. All set bit 91. UTMACMDFLUSH 0x9b7.

use crate::encode::{EResult, EncodeError, Word};
use crate::ir::*;
use crate::tma::{TensorAccess, TmaOp};

fn ur(s: &Src, what: &str) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("{what}: uniform register {s:?}"))),
    }
}

/// The optional cache-hint pair (slot 3).
fn set_hint(w: &mut Word, i: &Instr, what: &str) -> EResult<()> {
    if i.srcs[3].as_reg().is_some() {
        w.set(40, 6, ur(&i.srcs[3], what)?);
        w.set(76, 1, 1);
    }
    Ok(())
}

pub(crate) fn encode_tma(w: &mut Word, i: &Instr, op: TmaOp) -> EResult<()> {
    match op {
        TmaOp::Tensor { access, dims } => {
            if !(1..=5).contains(&dims) {
                return Err(EncodeError(format!("UTMA: {dims} dimensions")));
            }
            let multicast = i.srcs[2].as_reg().is_some();
            let opc = match access {
                TensorAccess::Load if multicast => 0x3b4,
                TensorAccess::Load => 0x5b4,
                TensorAccess::Store => 0x3b5,
                TensorAccess::Reduce(_) => 0x3b6,
                TensorAccess::Prefetch => 0x5b8,
            };
            if multicast && access != TensorAccess::Load {
                return Err(EncodeError("UTMA: multicast other than a load".into()));
            }
            w.set(0, 12, opc);
            w.set(32, 6, ur(&i.srcs[0], "UTMA group")?);
            w.set(24, 6, ur(&i.srcs[1], "UTMA tensor map")?);
            if multicast {
                w.set(64, 6, ur(&i.srcs[2], "UTMA multicast")?);
                w.set(75, 1, 1);
            }
            if let TensorAccess::Reduce(r) = access {
                w.set(87, 3, r.code());
            }
            w.set(79, 3, dims as u64 - 1);
            set_hint(w, i, "UTMA")?;
        }
        TmaOp::Bulk { dir, multicast } => {
            w.set(0, 12, 0x3ba);
            w.set(32, 6, ur(&i.srcs[0], "UBLKCP destination")?);
            w.set(24, 6, ur(&i.srcs[1], "UBLKCP source")?);
            w.set(64, 6, ur(&i.srcs[2], "UBLKCP size")?);
            w.set(73, 2, dir.code());
            w.set(75, 1, multicast as u64);
            set_hint(w, i, "UBLKCP")?;
        }
        TmaOp::BulkPrefetch => {
            w.set(0, 12, 0x3bc);
            w.set(24, 6, ur(&i.srcs[1], "UBLKPF source")?);
            w.set(64, 6, ur(&i.srcs[2], "UBLKPF size")?);
            set_hint(w, i, "UBLKPF")?;
        }
        TmaOp::BulkCommit => {
            w.set(0, 12, 0x9b7);
            return Ok(());
        }
    }
    w.set(91, 1, 1);
    Ok(())
}
