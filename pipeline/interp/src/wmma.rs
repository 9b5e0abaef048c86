//! The WMMA instructions: `wmma.load.{a,b,c}`, `wmma.store.d` and `wmma.mma` (f16, bf16, tf32,
//! f64, s8/u8, s4/u4 and b1 `.xor.popc`/`.and.popc`), executed once the whole warp waits.
//!
//! Which lane holds which matrix element is `ptxforge_ptx::isa::wmma_fragment` (ptxas's layout;
//! the PTX ISA leaves it unspecified), read for the module's `.target`. Loads and stores reach
//! element (row, column) at `row * stride + column` (`.row`) or `column * stride + row` (`.col`)
//! elements from the address, the stride defaulting to the leading dimension; sub-byte elements
//! are packed from the low bits of each byte up. `wmma.mma` reads the distinct registers of each
//! fragment (an f16 A or B fragment repeats its registers) and computes as `mma.rs` does: exact
//! integer sums (wrapping, or clamped with `.satfinite`), b1 popcounts of AND/XOR, float products
//! summed with C in f64 and rounded once to D's type.

use ptxforge_ptx::ast::Type;
use ptxforge_ptx::isa::{wmma_dims, wmma_fragment, FragmentLayout, WmmaMatrix};

use crate::error::SimError;
use crate::exec::{mask, operand, sext, unsupported};
use crate::float::{self, Rnd};
use crate::machine::Cta;
use crate::mma::Elem;
use crate::prep::{Ins, Opnd};

fn items(o: &Opnd) -> &[Opnd] {
    match o {
        Opnd::Vec(v) => v,
        _ => std::slice::from_ref(o),
    }
}

/// The shape modifier of `ins` with its dimensions.
fn shape(ins: &Ins) -> Result<(&str, (u32, u32, u32)), SimError> {
    ins.mods
        .iter()
        .find_map(|m| Some((m.as_str(), wmma_dims(m)?)))
        .ok_or_else(|| unsupported(ins, "wmma shape"))
}

/// The register width of a fragment's elements.
fn reg_type(l: &FragmentLayout) -> Type {
    if l.elem_bits == 64 {
        Type::B64
    } else {
        Type::B32
    }
}

impl Cta<'_, '_> {
    pub(crate) fn wmma(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        if group.len() != 32 {
            return Err(unsupported(ins, "wmma needs a full warp"));
        }
        match ins.mods.first().map(String::as_str) {
            Some("load") => self.wmma_access(group, ins, false),
            Some("store") => self.wmma_access(group, ins, true),
            Some("mma") => self.wmma_mma(group, ins),
            _ => Err(unsupported(ins, "wmma operation")),
        }
    }

    /// `wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride}` and
    /// `wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride}`.
    fn wmma_access(&mut self, group: &[usize], ins: &Ins, store: bool) -> Result<(), SimError> {
        let matrix = match ins.mods.get(1).map(String::as_str) {
            Some("a") if !store => WmmaMatrix::A,
            Some("b") if !store => WmmaMatrix::B,
            Some("c") if !store => WmmaMatrix::C,
            Some("d") if store => WmmaMatrix::C,
            _ => return Err(unsupported(ins, "wmma matrix")),
        };
        let (shape, (m, n, k)) = shape(ins)?;
        let elem = ins
            .mods
            .last()
            .ok_or_else(|| unsupported(ins, "wmma type"))?;
        let layout = wmma_fragment(matrix, shape, elem, self.prog.sm)
            .ok_or_else(|| unsupported(ins, "wmma shape and type"))?;
        let col_major = ins.has("col");
        if !col_major && !ins.has("row") {
            return Err(unsupported(ins, "wmma layout"));
        }
        let (rows, cols) = match matrix {
            WmmaMatrix::A => (m, k),
            WmmaMatrix::B => (k, n),
            WmmaMatrix::C => (m, n),
        };
        let (frag_at, addr_at) = if store { (1, 0) } else { (0, 1) };
        let bits = layout.elem_bits as u64;
        for &t in group {
            let lane = self.threads[t].lane();
            let frag = items(operand(ins, frag_at)?).to_vec();
            if frag.len() != layout.regs {
                return Err(unsupported(ins, "wmma fragment size"));
            }
            let stride = match ins.ops.get(2) {
                Some(s) => self.read(t, s, Type::U32)? & 0xffff_ffff,
                None if col_major => rows as u64,
                None => cols as u64,
            };
            let (region, base) = self.mem_address(t, ins, operand(ins, addr_at)?)?;
            for (r, o) in frag.iter().enumerate() {
                let mut word = if store {
                    self.read(t, o, reg_type(&layout))?
                } else {
                    0
                };
                for e in 0..layout.per_reg {
                    let (i, j) = layout.position(lane, r, e);
                    let (major, minor) = if col_major { (j, i) } else { (i, j) };
                    let bit = (major as u64 * stride + minor as u64) * bits;
                    let addr = base.wrapping_add(bit / 8);
                    let size = bits.div_ceil(8);
                    let shift = e * layout.elem_bits;
                    let bytes = self.mem_access(t, ins, region, addr, size)?;
                    let mut raw = [0u8; 8];
                    raw[..size as usize].copy_from_slice(bytes);
                    let old = u64::from_le_bytes(raw);
                    if store {
                        let v = (word >> shift) & mask(layout.elem_bits);
                        let new = if bits < 8 {
                            let at = bit % 8;
                            (old & !(mask(bits as u32) << at)) | v << at
                        } else {
                            v
                        };
                        bytes.copy_from_slice(&new.to_le_bytes()[..size as usize]);
                    } else {
                        let v = (old >> (bit % 8)) & mask(layout.elem_bits);
                        word |= v << shift;
                    }
                }
                if !store {
                    self.write(t, o, word, reg_type(&layout))?;
                }
            }
        }
        Ok(())
    }

    /// The matrix of `rows` x `cols` elements a fragment operand holds over the warp (each
    /// element from its first register).
    fn wmma_gather(
        &self,
        group: &[usize],
        ins: &Ins,
        at: usize,
        layout: &FragmentLayout,
        elem: Elem,
        (rows, cols): (u32, u32),
    ) -> Result<Vec<Vec<u64>>, SimError> {
        let mut out = vec![vec![0u64; cols as usize]; rows as usize];
        for &t in group {
            let lane = self.threads[t].lane();
            let frag = items(operand(ins, at)?);
            if frag.len() != layout.regs {
                return Err(unsupported(ins, "wmma fragment size"));
            }
            for (r, o) in frag.iter().enumerate().take(layout.distinct()) {
                let word = self.read(t, o, reg_type(layout))?;
                for e in 0..layout.per_reg {
                    let (i, j) = layout.position(lane, r, e);
                    let raw = (word >> (e * layout.elem_bits)) & mask(elem.bits());
                    out[i as usize][j as usize] = raw;
                }
            }
        }
        Ok(out)
    }

    /// `wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape{.rnd}.types{.satfinite} d, a, b, c`.
    fn wmma_mma(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        let (shape, (m, n, k)) = shape(ins)?;
        let names: Vec<&str> = ins
            .mods
            .iter()
            .map(String::as_str)
            .filter(|x| Elem::parse(x).is_some())
            .collect();
        // The f16 form names D and C only.
        let [d_t, a_t, b_t, c_t] = match names[..] {
            [d, c] => [d, "f16", "f16", c],
            [d, a, b, c] => [d, a, b, c],
            _ => return Err(unsupported(ins, "wmma types")),
        };
        let rounding = ins
            .mods
            .iter()
            .any(|x| matches!(x.as_str(), "rz" | "rm" | "rp"));
        let float_sat = ins.has("satfinite") && !Elem::parse(a_t).is_some_and(Elem::is_int);
        if rounding || float_sat {
            return Err(unsupported(ins, "wmma rounding or saturation"));
        }
        let sm = self.prog.sm;
        let frag = |mx, t: &str| {
            wmma_fragment(mx, shape, t, sm).ok_or_else(|| unsupported(ins, "wmma shape and type"))
        };
        let (la, lb) = (frag(WmmaMatrix::A, a_t)?, frag(WmmaMatrix::B, b_t)?);
        let (lc, ld) = (frag(WmmaMatrix::C, c_t)?, frag(WmmaMatrix::C, d_t)?);
        let elem = |t: &str| Elem::parse(t).ok_or_else(|| unsupported(ins, "wmma types"));
        let (ea, eb, ec, ed) = (elem(a_t)?, elem(b_t)?, elem(c_t)?, elem(d_t)?);
        let a = self.wmma_gather(group, ins, 1, &la, ea, (m, k))?;
        let b = self.wmma_gather(group, ins, 2, &lb, eb, (k, n))?;
        let c = self.wmma_gather(group, ins, 3, &lc, ec, (m, n))?;
        if ea == Elem::B1 && !ins.has("popc") {
            return Err(unsupported(ins, "b1 wmma without .popc"));
        }
        let and = ins.has("and");
        let sat = ins.has("satfinite");
        let result = |i: usize, j: usize| -> u64 {
            if ed.is_int() {
                let s: i64 = (0..k as usize)
                    .map(|x| {
                        let (p, q) = (a[i][x], b[x][j]);
                        match ea {
                            Elem::B1 if and => (p & q) as i64,
                            Elem::B1 => (p ^ q) as i64,
                            _ => ea.decode(p) as i64 * eb.decode(q) as i64,
                        }
                    })
                    .sum::<i64>()
                    + sext(c[i][j], 32);
                let s = if sat {
                    s.clamp(i32::MIN as i64, i32::MAX as i64)
                } else {
                    s as i32 as i64
                };
                s as u32 as u64
            } else {
                let s: f64 = (0..k as usize)
                    .map(|x| ea.decode(a[i][x]) * eb.decode(b[x][j]))
                    .sum::<f64>()
                    + ec.decode(c[i][j]);
                match ed {
                    Elem::F64 => s.to_bits(),
                    Elem::F16 => float::round_to(s, 0, Rnd::Rn, float::F16),
                    _ => float::round_to(s, 0, Rnd::Rn, float::F32),
                }
            }
        };
        let dims = (m as usize, n as usize);
        let d: Vec<Vec<u64>> = (0..dims.0)
            .map(|i| (0..dims.1).map(|j| result(i, j)).collect())
            .collect();
        for &t in group {
            let lane = self.threads[t].lane();
            let dst = items(operand(ins, 0)?).to_vec();
            if dst.len() != ld.regs {
                return Err(unsupported(ins, "wmma fragment size"));
            }
            for (r, o) in dst.iter().enumerate() {
                let mut word = 0u64;
                for e in 0..ld.per_reg {
                    let (i, j) = ld.position(lane, r, e);
                    word |= d[i as usize][j as usize] << (e * ld.elem_bits);
                }
                self.write(t, o, word, reg_type(&ld))?;
            }
        }
        Ok(())
    }
}
