//! The WMMA API's instructions: `wmma.load.{a,b,c}` and `wmma.store.d` as per-lane loads and
//! stores, `wmma.mma` as the `mma.sync` tiles ptxas runs it as (HMMA/IMMA/BMMA/DMMA, lowered by
//! `mma.rs` and `mma_int.rs`).
//!
//! Fragments are laid out as `ptxforge_ptx::isa::wmma_fragment` says (ptxas's layout: each
//! fragment is its tiles' `mma.sync` fragments one after another). A lane's element (row, col)
//! sits `row * stride + col` elements (`.row`; `.col`: `col * stride + row`) from the address: the
//! lane's part `g * g_step + t * t_step` (`g = laneid / 4`, `t = laneid % 4`) is computed once,
//! each register's origin is an immediate offset (a constant stride) or one more multiply-add per
//! origin row (a register stride). A register whose elements lie next to each other in memory is
//! one 32-bit (f64: 64-bit) access, and consecutive registers next to each other one 64- or
//! 128-bit access where the PTX ISA's alignment rules (the address and the stride in bytes are
//! multiples of the fragment's size) make it aligned; the others are accessed element by element
//! and packed with PRMT (unpacked with SHF). Registers past a fragment's distinct ones (f16 A and
//! B repeat theirs) are copies.
//!
//! `wmma.mma` on sm_80+: m16n16k16 is two m16n8k16 tiles side by side, m32n8k16 two stacked, and
//! m8n32k16 is m32n8k16 transposed (B^T A^T: B's registers as A and A's as B); s8/u8 likewise with
//! IMMA.16816, tf32 m16n16k8 two m16n8k8 tiles, f64 m8n8k4, s4/u4 m8n8k32 and b1 m8n8k128 one
//! `mma` each. sm_75 has neither HMMA.16816 nor IMMA.16816: f16 tiles are two m16n8k8 k-steps
//! and s8/u8 tiles m8n8k16 ones (m8n32k16's s32 C is then four m8n8 tiles side by side).

use crate::cache_ops::AccessOrder;
use ptxforge_ptx::ast::{Instruction, Name, Operand};
use ptxforge_ptx::isa::{wmma_dims, wmma_fragment, FragmentLayout, WmmaMatrix};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};
use crate::mem::Space;

/// The modifiers a wmma form may carry besides its shape and types.
fn is_plain(m: &str) -> bool {
    matches!(
        m,
        "load"
            | "store"
            | "mma"
            | "a"
            | "b"
            | "c"
            | "d"
            | "sync"
            | "aligned"
            | "row"
            | "col"
            | "global"
            | "shared"
            | "shared::cta"
    )
}

fn unsupported(i: &Instruction) -> String {
    format!("'wmma.{}' is not supported yet", i.mods().join("."))
}

/// (major, minor) memory coordinates of a matrix (row, col): rows first for `.row`.
fn in_memory((r, c): (u32, u32), col_major: bool) -> (u32, u32) {
    if col_major {
        (c, r)
    } else {
        (r, c)
    }
}

/// The stride: a constant or a register.
#[derive(Copy, Clone)]
enum Stride {
    Const(u32),
    Reg(Src),
}

/// One access of a wmma load or store: `regs` consecutive distinct registers from `first`, or
/// one register element by element (`split`).
struct Access {
    first: usize,
    regs: usize,
    split: bool,
}

impl Ctx<'_> {
    /// `wmma.load.*`, `wmma.store.d`, `wmma.mma`.
    pub fn lower_wmma(&mut self, i: &Instruction) -> LResult<()> {
        match i.mods().first().map(Name::as_str) {
            Some("load") => self.lower_wmma_access(i, false),
            Some("store") => self.lower_wmma_access(i, true),
            Some("mma") => self.lower_wmma_mma(i),
            _ => Err(unsupported(i)),
        }
    }

    fn lower_wmma_access(&mut self, i: &Instruction, store: bool) -> LResult<()> {
        let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
        let matrix = match mods.get(1) {
            Some(&"a") if !store => WmmaMatrix::A,
            Some(&"b") if !store => WmmaMatrix::B,
            Some(&"c") if !store => WmmaMatrix::C,
            Some(&"d") if store => WmmaMatrix::C,
            _ => return Err(unsupported(i)),
        };
        let shape = *mods
            .iter()
            .find(|m| wmma_dims(m).is_some())
            .ok_or_else(|| unsupported(i))?;
        let (m, n, k) = wmma_dims(shape).ok_or_else(|| unsupported(i))?;
        let elem = *mods.last().ok_or_else(|| unsupported(i))?;
        let known = mods
            .iter()
            .all(|x| is_plain(x) || *x == shape || *x == elem);
        let layout = wmma_fragment(matrix, shape, elem, self.sm.num)
            .filter(|_| known && i.has_mod("sync") && i.has_mod("aligned"))
            .ok_or_else(|| unsupported(i))?;
        let col_major = i.has_mod("col");
        if col_major == i.has_mod("row") {
            return Err(unsupported(i));
        }
        let space = if crate::mem::cta_shared(i) {
            Space::Shared
        } else if i.has_mod("global") {
            Space::Global { nc: false }
        } else {
            Space::Generic
        };
        let (frag_at, addr_at) = if store { (1, 0) } else { (0, 1) };
        if !(2..=3).contains(&i.operands.len()) {
            return Err(format!("Arguments mismatch for instruction 'wmma'"));
        }
        let frag = Self::fragment_elems(&i.operands[frag_at]).to_vec();
        if frag.len() != layout.regs {
            return Err(format!(
                "wmma fragment of {} elements, expected {}",
                frag.len(),
                layout.regs
            ));
        }
        let (rows, cols) = match matrix {
            WmmaMatrix::A => (m, k),
            WmmaMatrix::B => (k, n),
            WmmaMatrix::C => (m, n),
        };
        let stride = match i.operands.get(2) {
            Some(s) => match self.constant_of(s) {
                Some(c) => Stride::Const(c),
                None => {
                    let r = self.src32(s)?;
                    Stride::Reg(self.in_reg(r))
                }
            },
            None => Stride::Const(if col_major { rows } else { cols }),
        };
        let (base, offset) = self.mem_address(space, &i.operands[addr_at])?;
        let lane_addr = self.wmma_lane_address(space, &layout, col_major, stride, base)?;
        let plan = access_plan(&layout, col_major, stride);
        for a in &plan {
            self.wmma_move(
                space, &layout, col_major, stride, lane_addr, offset, a, &frag, store,
            )?;
        }
        if !store {
            // Copies of the distinct registers.
            for r in layout.distinct()..layout.regs {
                let (from, to) = (&frag[r % layout.distinct()], &frag[r]);
                if *to == Operand::Sink {
                    continue;
                }
                let src = self.dst(from)?;
                let d = self.dst(to)?;
                for p in 0..d.comps.min(src.comps) {
                    let (dp, sp) = if d.comps == 1 {
                        (d, src)
                    } else {
                        (d.part(p), src.part(p))
                    };
                    self.emit(Opcode::Mov, &[Dst::Reg(dp)], &[Src::reg(sp)]);
                }
            }
        }
        Ok(())
    }

    /// The lane's address: `base + (major * stride + minor) * bits / 8` with (major, minor) the
    /// lane's part of every element's position.
    fn wmma_lane_address(
        &mut self,
        space: Space,
        l: &FragmentLayout,
        col_major: bool,
        stride: Stride,
        base: Src,
    ) -> LResult<Src> {
        let lane = self.temp();
        self.emit(Opcode::S2r(SpecialReg::LaneId), &[Dst::Reg(lane)], &[]);
        let g = self.temp();
        self.emit(
            crate::intops::shf(true, false, false, true),
            &[Dst::Reg(g)],
            &[Src::ZERO, Src::imm(2), Src::reg(lane)],
        );
        let t = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(t), Dst::None],
            &[Src::reg(lane), Src::imm(3), Src::ZERO, Src::FALSE],
        );
        let (gm, gn) = in_memory(l.g_step, col_major);
        let (tm, tn) = in_memory(l.t_step, col_major);
        // Element offset of the lane, in elements.
        let elems = match stride {
            Stride::Const(s) => {
                let x = self.imad(g, Src::imm(gm * s + gn), Src::ZERO);
                self.imad(t, Src::imm(tm * s + tn), Src::reg(x))
            }
            Stride::Reg(s) => {
                let major = self.imad(g, Src::imm(gm), Src::ZERO);
                let major = self.imad(t, Src::imm(tm), Src::reg(major));
                let minor = self.imad(g, Src::imm(gn), Src::ZERO);
                let minor = self.imad(t, Src::imm(tn), Src::reg(minor));
                self.imad(major, s, Src::reg(minor))
            }
        };
        let bytes = self.elems_to_bytes(Src::reg(elems), l.elem_bits);
        Ok(self.wmma_add_offset(space, base, bytes))
    }

    /// `a * b + c` in a new register.
    fn imad(&mut self, a: Reg, b: Src, c: Src) -> Reg {
        let d = self.temp();
        let op = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: false,
            x: false,
        };
        self.emit(op, &[Dst::Reg(d)], &[Src::reg(a), b, c]);
        d
    }

    /// A count of `bits`-bit elements in bytes (sub-byte counts are whole bytes by the PTX ISA's
    /// alignment rules).
    fn elems_to_bytes(&mut self, n: Src, bits: u32) -> Src {
        let d = self.temp();
        if bits >= 8 {
            let op = Opcode::Imad {
                mode: ImadMode::Lo,
                signed: false,
                x: false,
            };
            let n = self.in_reg(n);
            self.emit(op, &[Dst::Reg(d)], &[n, Src::imm(bits / 8), Src::ZERO]);
        } else {
            let shift = 8u32.trailing_zeros() - bits.trailing_zeros();
            let n = self.in_reg(n);
            self.emit(
                crate::intops::shf(true, false, false, true),
                &[Dst::Reg(d)],
                &[Src::ZERO, Src::imm(shift), n],
            );
        }
        Src::reg(d)
    }

    /// `base + bytes`: a 64-bit address (global, generic) or a 32-bit one (shared).
    fn wmma_add_offset(&mut self, space: Space, base: Src, bytes: Src) -> Src {
        let wide = Opcode::Imad {
            mode: ImadMode::Wide,
            signed: false,
            x: false,
        };
        match space {
            Space::Shared => {
                let d = self.temp();
                let base = match base.as_reg() {
                    Some(r) if r.comps == 2 => Src::reg(r.part(0)),
                    _ => base,
                };
                let op = Opcode::Iadd3 { x: false };
                self.emit(op, &[Dst::Reg(d), Dst::None], &[bytes, base, Src::ZERO]);
                Src::reg(d)
            }
            _ => {
                let d = self.temp64();
                self.emit(wide, &[Dst::Reg(d)], &[bytes, Src::imm(1), base]);
                Src::reg(d)
            }
        }
    }

    /// One access of the plan: the address of its first element's origin, then the load or
    /// store.
    #[allow(clippy::too_many_arguments)]
    fn wmma_move(
        &mut self,
        space: Space,
        l: &FragmentLayout,
        col_major: bool,
        stride: Stride,
        lane_addr: Src,
        offset: i32,
        a: &Access,
        frag: &[Operand],
        store: bool,
    ) -> LResult<()> {
        let words = if l.elem_bits == 64 { 2 } else { 1 };
        let elem_bytes = l.elem_bits.div_ceil(8);
        let origin = |e: u32| {
            let (r0, c0) = l.origins[a.first];
            let pos = (r0 + e * l.elem_step.0, c0 + e * l.elem_step.1);
            in_memory(pos, col_major)
        };
        // Address and immediate offset of element `e` of the access's first register.
        let at = |ctx: &mut Self, e: u32| -> (Src, i32) {
            let (major, minor) = origin(e);
            let minor_bytes = (minor * l.elem_bits / 8) as i32;
            match stride {
                Stride::Const(s) => (
                    lane_addr,
                    offset + ((major * s) * l.elem_bits / 8) as i32 + minor_bytes,
                ),
                Stride::Reg(_) if major == 0 => (lane_addr, offset + minor_bytes),
                Stride::Reg(s) => {
                    let rows = ctx.imad_src(s, Src::imm(major));
                    let bytes = ctx.elems_to_bytes(Src::reg(rows), l.elem_bits);
                    (
                        ctx.wmma_add_offset(space, lane_addr, bytes),
                        offset + minor_bytes,
                    )
                }
            }
        };
        if a.split {
            let e_size = if elem_bytes == 2 {
                MemSize::U16
            } else {
                MemSize::U8
            };
            let mut parts = Vec::new();
            let word = if store {
                Some(self.wmma_src_word(&frag[a.first])?)
            } else {
                None
            };
            for e in 0..l.per_reg {
                let (addr, off) = at(self, e);
                if let Some(w) = word {
                    let v = self.temp();
                    self.emit(
                        crate::intops::shf(true, false, false, true),
                        &[Dst::Reg(v)],
                        &[Src::ZERO, Src::imm(e * l.elem_bits), w],
                    );
                    self.emit_access(
                        space,
                        AccessOrder::WEAK,
                        e_size,
                        addr,
                        off,
                        None,
                        Src::reg(v),
                    );
                } else {
                    let v = self.temp();
                    self.emit_access(
                        space,
                        AccessOrder::WEAK,
                        e_size,
                        addr,
                        off,
                        Some(v),
                        Src::ZERO,
                    );
                    parts.push(Src::reg(v));
                }
            }
            if !store {
                let packed = self.wmma_pack(&parts, l.elem_bits);
                let d = self.dst(&frag[a.first])?;
                self.emit(Opcode::Mov, &[Dst::Reg(d)], &[packed]);
            }
            return Ok(());
        }
        let n_words = a.regs * words;
        let size = match n_words {
            1 => MemSize::B32,
            2 => MemSize::B64,
            4 => MemSize::B128,
            _ => return Err("wmma access of an odd size".into()),
        };
        let (addr, off) = at(self, 0);
        // Registers bound to a group (`mma.rs`'s bind_fragments), or a single one, in place.
        let regs = &frag[a.first..a.first + a.regs];
        let in_place = match regs {
            [e] if *e != Operand::Sink => {
                let r = self.dst(e)?;
                (r.comps as usize == words).then_some(r)
            }
            _ if words == 1 => self.bound_fragment(&Operand::Vector(regs.to_vec()), a.regs as u8),
            _ => None,
        };
        if let Some(r) = in_place {
            let (load, data) = if store {
                (None, Src::reg(r))
            } else {
                (Some(r), Src::ZERO)
            };
            self.emit_access(space, AccessOrder::WEAK, size, addr, off, load, data);
            return Ok(());
        }
        let group = self.f.new_vreg(RegFile::Gpr, n_words as u8);
        if store {
            for r in 0..a.regs {
                let e = &frag[a.first + r];
                for w in 0..words {
                    let s = if words == 2 {
                        let (lo, hi) = self.src64(e)?;
                        [lo, hi][w]
                    } else {
                        self.src32(e)?
                    };
                    let part = group.part((r * words + w) as u8);
                    self.emit(Opcode::Mov, &[Dst::Reg(part)], &[s]);
                }
            }
            self.emit_access(
                space,
                AccessOrder::WEAK,
                size,
                addr,
                off,
                None,
                Src::reg(group),
            );
            return Ok(());
        }
        self.emit_access(
            space,
            AccessOrder::WEAK,
            size,
            addr,
            off,
            Some(group),
            Src::ZERO,
        );
        for r in 0..a.regs {
            let e = &frag[a.first + r];
            if *e == Operand::Sink {
                continue;
            }
            let d = self.dst(e)?;
            if d.comps as usize != words {
                return Err("wmma fragment element of the wrong width".into());
            }
            for w in 0..words {
                let part = group.part((r * words + w) as u8);
                let dp = if words == 2 { d.part(w as u8) } else { d };
                self.emit(Opcode::Mov, &[Dst::Reg(dp)], &[Src::reg(part)]);
            }
        }
        Ok(())
    }

    /// `a * b` in a new register (`b` an immediate).
    fn imad_src(&mut self, a: Src, b: Src) -> Reg {
        let d = self.temp();
        let op = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: false,
            x: false,
        };
        self.emit(op, &[Dst::Reg(d)], &[a, b, Src::ZERO]);
        d
    }

    /// The 32-bit register a stored fragment element is in.
    fn wmma_src_word(&mut self, e: &Operand) -> LResult<Src> {
        let s = self.src32(e)?;
        Ok(self.in_reg(s))
    }

    /// One register of narrow loaded elements (zero-extended, lowest first).
    fn wmma_pack(&mut self, parts: &[Src], bits: u32) -> Src {
        let prmt = |ctx: &mut Self, a: Src, sel: u32, b: Src| {
            let d = ctx.temp();
            ctx.emit(
                Opcode::Prmt {
                    mode: PrmtMode::Index,
                },
                &[Dst::Reg(d)],
                &[a, Src::imm(sel), b],
            );
            Src::reg(d)
        };
        match (bits, parts) {
            (16, [lo, hi]) => prmt(self, *lo, 0x5410, *hi),
            (8, [b0, b1, b2, b3]) => {
                let lo = prmt(self, *b0, 0x0040, *b1);
                let hi = prmt(self, *b2, 0x0040, *b3);
                prmt(self, lo, 0x5410, hi)
            }
            _ => parts.first().copied().unwrap_or(Src::ZERO),
        }
    }
}

/// How a fragment's distinct registers are accessed: registers whose elements are adjacent in
/// memory whole, merged with the next ones where those follow in memory and the wider access is
/// aligned; the others element by element.
fn access_plan(l: &FragmentLayout, col_major: bool, stride: Stride) -> Vec<Access> {
    let words = if l.elem_bits == 64 { 2 } else { 1 };
    let reg_bytes = 4 * words as u32;
    let frag_bytes = l.regs as u32 * reg_bytes;
    let elem_step = in_memory(l.elem_step, col_major);
    let whole = l.per_reg == 1 || elem_step == (0, 1);
    let (gm, gn) = in_memory(l.g_step, col_major);
    let (tm, tn) = in_memory(l.t_step, col_major);
    // Whether every lane's element `minor` bytes into a row is `width`-aligned, rows being too.
    let aligned = |minor: u32, width: u32| {
        let rows_ok = match stride {
            Stride::Const(s) => (s * l.elem_bits / 8).is_multiple_of(width),
            Stride::Reg(_) => width <= frag_bytes,
        };
        let lanes_ok = (0..32u32).all(|lane| {
            let (g, t) = (lane / 4, lane % 4);
            let lane_minor = g * gn + t * tn;
            let _ = (gm, tm);
            ((lane_minor + minor) * l.elem_bits / 8).is_multiple_of(width)
        });
        rows_ok && lanes_ok && width <= frag_bytes && width <= 16
    };
    let mut plan = Vec::new();
    let mut r = 0;
    while r < l.distinct() {
        if !whole {
            plan.push(Access {
                first: r,
                regs: 1,
                split: true,
            });
            r += 1;
            continue;
        }
        let (major, minor) = in_memory(l.origins[r], col_major);
        let mut n = 1;
        for cand in [4usize, 2] {
            if r + cand > l.distinct() || cand * words > 4 {
                continue;
            }
            let follows = (1..cand).all(|q| {
                in_memory(l.origins[r + q], col_major) == (major, minor + q as u32 * l.per_reg)
            });
            if follows && aligned(minor, cand as u32 * reg_bytes) {
                n = cand;
                break;
            }
        }
        plan.push(Access {
            first: r,
            regs: n,
            split: false,
        });
        r += n;
    }
    plan
}
