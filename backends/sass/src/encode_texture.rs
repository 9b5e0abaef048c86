//! Encodings of `texture.rs`'s instructions, learned from ptxas 13.5 (nvdisasm -hex) on sm_75,
//! sm_80, sm_86, sm_89 and sm_90 for nvcc's texture- and surface-object code.
//!
//! TLD 0xb66, TEX 0xb60, TLD4 0xb63, TXD 0xb6c, SULD 0xb99, SUST 0xb9d (bit 10 set when the
//! handle is a uniform register). Rd 16..23, Ra 24..31, Rb (SUST: data) 32..39; the handle's
//! parameter word 40..53, or its uniform register 40..47 with bit 91; the dimension 61..63.
//! Fetches: `.SCR` bit 60 (set with a constant-bank handle), Rd2 64..71, write mask 72..75, the
//! residency predicate 81..83 (PT) with bit 84, the level mode 87..88 (LZ 1, LL 3) or TLD4's
//! component there. Surfaces: `.TRAP` bit 60, clamp bit 59 (neither: `.IGN`), bit 72 (`.D.BA`),
//! size 73..75, ordering 76..80 (sm_75 `.STRONG.CTA` 0x10, sm_80+ `.STRONG.SM` 0x0a), SULD's
//! predicate 81..83 (PT), bit 84.

use crate::arch::Sm;
use crate::encode::{mem_size_code, EResult, EncodeError, Word};
use crate::ir::*;
use crate::texture::{FetchKind, SurfClamp, TexDim, TexHandle, TexOp};

fn reg8(r: Option<Reg>) -> u64 {
    match r {
        Some(r) if r.file == RegFile::Gpr => r.idx as u64,
        _ => 255,
    }
}

fn gpr_src(s: &Src, what: &str) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::Gpr => Ok(r.idx as u64),
        SrcVal::Zero => Ok(255),
        _ => Err(EncodeError(format!("{what}: register operand {s:?}"))),
    }
}

fn set_handle(w: &mut Word, i: &Instr, handle: TexHandle) -> EResult<()> {
    match handle {
        TexHandle::Bank(word) => w.set(40, 14, word as u64),
        TexHandle::Uniform => match i.srcs[2].val {
            SrcVal::Reg(r) if r.file == RegFile::UGpr => {
                w.set(10, 1, 1);
                w.set(40, 8, r.idx as u64);
                w.set(91, 1, 1);
            }
            _ => {
                return Err(EncodeError(
                    "texture handle without a uniform register".into(),
                ))
            }
        },
    }
    Ok(())
}

pub(crate) fn encode_texture(sm: Sm, w: &mut Word, i: &Instr, op: TexOp) -> EResult<()> {
    match op {
        TexOp::Fetch {
            kind,
            dim,
            handle,
            mask,
        } => {
            let (opcode, level) = match kind {
                FetchKind::TldLz => (0xb66, 1),
                FetchKind::TexLl => (0xb60, 3),
                FetchKind::Tld4 { comp } => (0xb63, comp as u64),
                FetchKind::Txd => (0xb6c, 0),
            };
            w.set(0, 12, opcode);
            w.set(16, 8, reg8(i.dsts[0].as_reg()));
            w.set(24, 8, gpr_src(&i.srcs[0], "texture coordinates")?);
            w.set(32, 8, gpr_src(&i.srcs[1], "texture coordinates")?);
            set_handle(w, i, handle)?;
            let scr = matches!(handle, TexHandle::Bank(_)) && dim != TexDim::ArrayCube;
            w.set(60, 1, scr as u64);
            w.set(61, 3, dim.code());
            w.set(64, 8, reg8(i.dsts[1].as_reg()));
            w.set(72, 4, mask as u64);
            w.set(81, 3, 7);
            w.set(84, 1, 1);
            w.set(87, 2, level);
        }
        TexOp::SuLd {
            dim,
            size,
            clamp,
            handle,
        }
        | TexOp::SuSt {
            dim,
            size,
            clamp,
            handle,
        } => {
            let load = matches!(op, TexOp::SuLd { .. });
            w.set(0, 12, if load { 0xb99 } else { 0xb9d });
            if load {
                w.set(16, 8, reg8(i.dsts[0].as_reg()));
                w.set(32, 8, 0);
            } else {
                w.set(32, 8, gpr_src(&i.srcs[1], "surface data")?);
            }
            w.set(24, 8, gpr_src(&i.srcs[0], "surface coordinates")?);
            set_handle(w, i, handle)?;
            match clamp {
                SurfClamp::Trap => w.set(60, 1, 1),
                SurfClamp::Clamp => w.set(59, 1, 1),
                SurfClamp::Zero => {}
            }
            w.set(61, 3, dim.code());
            w.set(72, 1, 1);
            w.set(73, 3, mem_size_code(size));
            w.set(76, 5, if sm.num == 75 { 0x10 } else { 0x0a });
            if load {
                w.set(81, 3, 7);
            }
            w.set(84, 1, 1);
        }
    }
    Ok(())
}
