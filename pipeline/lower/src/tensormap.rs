//! Lowering of sm_90's tensor-map edits as ptxas 13.5 writes them: `tensormap.replace.tile.field
//! .{global,shared::cta}.b1024.{b32,b64} [map], [ord,] value` as loads, bit inserts and stores of
//! the 128-byte map's words, and `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic
//! .release.gpu.sync.aligned [dst], [src], 128` as each lane copying its word (LDS at lane * 4,
//! ATOMG.EXCH.STRONG.GPU to the global map, as ptxas's code).
//!
//! The fields, where ptxas's code puts them: the global address (bytes 0..7; bit 21 of word
//! 0x08 is cleared after it); word 0x08: rank 4..6, element type 7..10, interleave 11..12,
//! swizzle 13..14 (bit 22 cleared with it), fill mode 15; word 0x0c + 4k: the low 32 bits of
//! global stride k >> 4, whose bits 32..35 are nibble k of word 0x1c; word 0x20 + 4k: global
//! dimension k minus one; word 0x34: element strides minus one (3 bits each) and box dimension 0
//! minus one (bits 24..31); bytes 0x38..0x3b: box dimensions 1..4 minus one.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

fn unsupported(i: &Instruction) -> String {
    format!(
        "'{}.{}' is not supported yet",
        i.opcode(),
        i.mods().join(".")
    )
}

/// Whether `i` reads or writes global memory here (and so needs the memory descriptor).
pub(crate) fn needs_descriptor(i: &Instruction) -> bool {
    i.opcode() == "tensormap" && i.has_mod("global")
}

/// `(offset, bit position, width, minus one)` of a 32-bit field with ordinal `ord`.
fn field(name: &str, ord: u32) -> Option<(u32, u32, u32, bool)> {
    Some(match name {
        "global_dim" if ord < 5 => (0x20 + 4 * ord, 0, 32, true),
        "box_dim" if ord == 0 => (0x34, 24, 8, true),
        "box_dim" if ord < 5 => (0x38, 8 * (ord - 1), 8, true),
        "element_stride" if ord < 5 => (0x34, 3 * ord, 3, true),
        "rank" => (0x08, 4, 3, false),
        "elemtype" => (0x08, 7, 4, false),
        "interleave_layout" => (0x08, 11, 2, false),
        "swizzle_mode" => (0x08, 13, 2, false),
        "fill_mode" => (0x08, 15, 1, false),
        _ => return None,
    })
}

/// Where the map is: a global pair or a shared word, in registers.
#[derive(Copy, Clone)]
enum Map {
    Global(Reg),
    Shared(Src),
}

impl Ctx<'_> {
    /// `tensormap.replace` and `tensormap.cp_fenceproxy`; `None` for other instructions.
    pub fn lower_tensormap(&mut self, i: &Instruction) -> Option<LResult<()>> {
        if i.opcode() != "tensormap" {
            return None;
        }
        if self.sm.num < 90 || self.guard != Src::TRUE {
            return Some(Err(unsupported(i)));
        }
        Some(if i.has_mod("replace") {
            self.lower_tensormap_replace(i)
        } else if i.has_mod("cp_fenceproxy") {
            self.lower_tensormap_copy(i)
        } else {
            Err(unsupported(i))
        })
    }

    fn map_operand(&mut self, i: &Instruction, op: &Operand, global: bool) -> LResult<Map> {
        let (base, offset) = self.address(op)?;
        let (AddrBase::Reg(r), 0) = (base, offset) else {
            return Err(unsupported(i));
        };
        let r = self.vreg(r)?;
        Ok(match (global, r.comps) {
            (true, 2) => Map::Global(r),
            (false, 2) => Map::Shared(Src::reg(r.part(0))),
            (false, _) => Map::Shared(Src::reg(r)),
            _ => return Err(unsupported(i)),
        })
    }

    fn map_load(&mut self, map: Map, off: u32) -> Reg {
        let d = self.temp();
        match map {
            Map::Global(r) => {
                let desc = self.desc.map_or(Src::ZERO, Src::reg);
                let op = Opcode::Ldg {
                    size: MemSize::B32,
                    constant: false,
                    scope: None,
                    hint: CacheHint::NONE,
                    offset: off as i32,
                };
                self.emit(op, &[Dst::Reg(d)], &[Src::reg(r), desc]);
            }
            Map::Shared(a) => {
                let op = Opcode::Lds {
                    size: MemSize::B32,
                    offset: off as i32,
                };
                self.emit(op, &[Dst::Reg(d)], &[a]);
            }
        }
        d
    }

    fn map_store(&mut self, map: Map, off: u32, v: Src) {
        let v = self.in_reg(v);
        match map {
            Map::Global(r) => {
                let desc = self.desc.map_or(Src::ZERO, Src::reg);
                let op = Opcode::Stg {
                    size: MemSize::B32,
                    scope: None,
                    hint: CacheHint::NONE,
                    offset: off as i32,
                };
                self.emit(op, &[], &[Src::reg(r), v, desc]);
            }
            Map::Shared(a) => {
                let op = Opcode::Sts {
                    size: MemSize::B32,
                    offset: off as i32,
                };
                self.emit(op, &[], &[a, v]);
            }
        }
    }

    /// The word at `off` with `width` bits at `pos` replaced by `v`'s low bits.
    fn map_insert(&mut self, map: Map, off: u32, pos: u32, width: u32, v: Src) {
        let mask = if width == 32 {
            u32::MAX
        } else {
            ((1u32 << width) - 1) << pos
        };
        let shifted = match v.val {
            SrcVal::Imm(x) => Src::imm(x << pos),
            SrcVal::Zero => Src::ZERO,
            _ if pos == 0 => v,
            _ => {
                let t = self.temp();
                self.emit(
                    Opcode::Lea {
                        hi: false,
                        shift: pos as u8,
                    },
                    &[Dst::Reg(t), Dst::None],
                    &[v, Src::ZERO],
                );
                Src::reg(t)
            }
        };
        if width == 32 {
            self.map_store(map, off, shifted);
            return;
        }
        let old = self.map_load(map, off);
        let shifted = self.in_reg(shifted);
        let d = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xe2 },
            &[Dst::Reg(d), Dst::None],
            &[shifted, Src::imm(mask), Src::reg(old), Src::FALSE],
        );
        self.map_store(map, off, Src::reg(d));
    }

    /// `v - 1` (or `v`).
    fn minus_one(&mut self, v: Src, minus: bool) -> Src {
        match (v.val, minus) {
            (_, false) => v,
            (SrcVal::Imm(x), true) => Src::imm(x.wrapping_sub(1)),
            (SrcVal::Zero, true) => Src::imm(u32::MAX),
            _ => {
                let t = self.temp();
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(t), Dst::None],
                    &[v, Src::imm(u32::MAX), Src::ZERO],
                );
                Src::reg(t)
            }
        }
    }

    fn lower_tensormap_replace(&mut self, i: &Instruction) -> LResult<()> {
        let global = i.has_mod("global");
        let known = i.mods().iter().all(|m| {
            matches!(
                m.as_str(),
                "replace" | "tile" | "global" | "shared::cta" | "b1024" | "b32" | "b64"
            ) || field(m, 0).is_some()
                || matches!(m.as_str(), "global_address" | "global_stride")
        });
        let name = i
            .mods()
            .iter()
            .find(|m| field(m, 0).is_some() || *m == "global_address" || *m == "global_stride")
            .cloned();
        let (Some(name), true) = (name, known && (global != i.has_mod("shared::cta"))) else {
            return Err(unsupported(i));
        };
        let o = &i.operands[..];
        let map = self.map_operand(i, &o[0], global)?;
        let ord = match o.len() {
            3 => match &o[1] {
                Operand::Imm(n) if (0..5).contains(n) => *n as u32,
                _ => return Err(unsupported(i)),
            },
            _ => 0,
        };
        let value = o.last().ok_or_else(|| unsupported(i))?;
        match name.as_str() {
            "global_address" if o.len() == 2 => {
                let (lo, hi) = self.src64(value)?;
                self.map_store(map, 0, lo);
                self.map_store(map, 4, hi);
                self.map_insert(map, 0x08, 21, 1, Src::ZERO);
            }
            "global_stride" if o.len() == 3 && ord < 4 => {
                let (lo, hi) = self.src64(value)?;
                let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
                let (units, top) = (self.temp(), self.temp());
                self.emit(
                    crate::intops::shf(true, false, true, false),
                    &[Dst::Reg(units)],
                    &[lo, Src::imm(4), hi],
                );
                self.emit(
                    crate::intops::shf(true, false, false, true),
                    &[Dst::Reg(top)],
                    &[Src::ZERO, Src::imm(4), hi],
                );
                self.map_store(map, 0x0c + 4 * ord, Src::reg(units));
                self.map_insert(map, 0x1c, 4 * ord, 4, Src::reg(top));
            }
            _ => {
                let Some((off, pos, width, minus)) = field(&name, ord) else {
                    return Err(unsupported(i));
                };
                let needs_ord =
                    matches!(name.as_str(), "global_dim" | "box_dim" | "element_stride");
                if (o.len() == 3) != needs_ord {
                    return Err(unsupported(i));
                }
                let v = self.src32(value)?;
                let v = self.minus_one(v, minus);
                self.map_insert(map, off, pos, width, v);
                if name == "swizzle_mode" {
                    self.map_insert(map, 0x08, 22, 1, Src::ZERO);
                }
            }
        }
        Ok(())
    }

    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
    /// [dst], [src], 128`: lane l copies word l (LDS, then ATOMG.EXCH.STRONG.GPU).
    fn lower_tensormap_copy(&mut self, i: &Instruction) -> LResult<()> {
        let ok = i.has_mod("global")
            && i.has_mod("shared::cta")
            && i.has_mod("release")
            && i.has_mod("gpu")
            && matches!(i.operands.get(2), Some(Operand::Imm(128)))
            && i.operands.len() == 3;
        if !ok {
            return Err(unsupported(i));
        }
        let Map::Global(dst) = self.map_operand(i, &i.operands[0], true)? else {
            return Err(unsupported(i));
        };
        let Map::Shared(src) = self.map_operand(i, &i.operands[1], false)? else {
            return Err(unsupported(i));
        };
        let lane = self.temp();
        self.emit(Opcode::S2r(SpecialReg::LaneId), &[Dst::Reg(lane)], &[]);
        let off = self.temp();
        self.emit(
            Opcode::Lea {
                hi: false,
                shift: 2,
            },
            &[Dst::Reg(off), Dst::None],
            &[Src::reg(lane), Src::ZERO],
        );
        let from = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(from), Dst::None],
            &[src, Src::reg(off), Src::ZERO],
        );
        let word = self.temp();
        self.emit(
            Opcode::Lds {
                size: MemSize::B32,
                offset: 0,
            },
            &[Dst::Reg(word)],
            &[Src::reg(from)],
        );
        let to = self.temp64();
        let c = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(to.part(0)), Dst::Reg(c)],
            &[Src::reg(dst.part(0)), Src::reg(off), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(to.part(1)), Dst::None],
            &[
                Src::reg(dst.part(1)),
                Src::ZERO,
                Src::ZERO,
                Src::reg(c),
                Src::FALSE,
            ],
        );
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        let exch = Opcode::Atomg {
            op: AtomOp::Exch,
            ty: AtomType::U32,
            scope: MemScope::Gpu,
            offset: 0,
        };
        let old = self.temp();
        self.emit(
            exch,
            &[Dst::Reg(old)],
            &[Src::reg(to), Src::reg(word), desc],
        );
        Ok(())
    }
}
