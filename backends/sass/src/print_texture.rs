//! nvdisasm's text for `texture.rs`'s instructions (TLD, TEX, TLD4, TXD, SULD, SUST).

use crate::arch::Sm;
use crate::ir::*;
use crate::print::{dst, src};
use crate::texture::{FetchKind, SurfClamp, TexDim, TexHandle, TexOp};

/// The handle operands: `0x0, 0x58` (constant-bank word) or `UR4, 0x0`.
fn handle(i: &Instr, h: TexHandle) -> String {
    match (h, i.srcs[2].val) {
        (TexHandle::Bank(word), _) => format!("0x0, {word:#x}"),
        (TexHandle::Uniform, SrcVal::Reg(r)) => format!("UR{}, 0x0", r.idx),
        (TexHandle::Uniform, _) => "URZ, 0x0".into(),
    }
}

fn size_suffix(size: MemSize) -> &'static str {
    match size {
        MemSize::U8 => ".U8",
        MemSize::S8 => ".S8",
        MemSize::U16 => ".U16",
        MemSize::S16 => ".S16",
        MemSize::B32 => "",
        MemSize::B64 => ".64",
        MemSize::B128 => ".128",
    }
}

pub(crate) fn print_texture(sm: Sm, i: &Instr, op: TexOp) -> String {
    match op {
        TexOp::Fetch {
            kind,
            dim,
            handle: h,
            mask,
        } => {
            let scr = matches!(h, TexHandle::Bank(_)) && dim != TexDim::ArrayCube;
            let scr = if scr { ".SCR" } else { "" };
            let name = match kind {
                FetchKind::TldLz => format!("TLD{scr}.LZ"),
                FetchKind::TexLl => format!("TEX{scr}.LL"),
                FetchKind::Tld4 { comp } => {
                    format!("TLD4{scr}.{}", ["R", "G", "B", "A"][comp as usize & 3])
                }
                FetchKind::Txd => "TXD".into(),
            };
            let rb = match i.srcs[1].val {
                SrcVal::Zero => String::new(),
                _ => format!("{}, ", src(&i.srcs[1])),
            };
            let mask = if mask == 0xf {
                String::new()
            } else {
                format!(", {mask:#x}")
            };
            format!(
                "{name} {}, {}, {}, {rb}{}, {}{mask}",
                dst(&i.dsts[1]),
                dst(&i.dsts[0]),
                src(&i.srcs[0]),
                handle(i, h),
                dim.name()
            )
        }
        TexOp::SuLd {
            dim,
            size,
            clamp,
            handle: h,
        }
        | TexOp::SuSt {
            dim,
            size,
            clamp,
            handle: h,
        } => {
            let scope = if sm.num == 75 { "CTA" } else { "SM" };
            let mode = match clamp {
                SurfClamp::Trap => ".TRAP",
                SurfClamp::Clamp => "",
                SurfClamp::Zero => ".IGN",
            };
            let mods = format!(
                "D.BA.{}{}.STRONG.{scope}{mode}",
                dim.name(),
                size_suffix(size)
            );
            match op {
                TexOp::SuLd { .. } => format!(
                    "SULD.{mods} {}, [{}], {}",
                    dst(&i.dsts[0]),
                    src(&i.srcs[0]),
                    handle(i, h)
                ),
                _ => format!(
                    "SUST.{mods} [{}], {}, {}",
                    src(&i.srcs[0]),
                    src(&i.srcs[1]),
                    handle(i, h)
                ),
            }
        }
    }
}
