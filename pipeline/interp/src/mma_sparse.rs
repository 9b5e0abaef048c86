//! `mma.sp` and `mma.sp::ordered_metadata` (m16n8k shapes over f16, bf16, tf32, e4m3/e5m2, s8/u8
//! and s4/u4): the sparse A rebuilt from its compressed fragment and the metadata as the PTX ISA's
//! "sparse matrix storage" section lays them out, then multiplied as the dense `mma` does.
//!
//! Every row of the logical 16 x k A keeps 2 units of each chunk of 4 (a unit: 16 bits for
//! f16/bf16/tf32, so tf32 keeps 1 element of 2 with metadata 0b0100 or 0b1110; 8 bits for the
//! 8-bit types; a pair of elements for the 4-bit ones, which the ISA calls 4:8 sparsity with
//! two-element sub-chunks). With `g = lane >> 2`, `t = lane % 4`, `E` elements per register,
//! register `r` holds the kept units, in order, of row `g + 8 (r & 1)`, columns
//! `2 E t + 8 E (r >> 1)` .. `+ 2 E`. A chunk's metadata nibble holds the positions of its two
//! kept units (low 2 bits: the first). Group `g`'s metadata lies in lanes `4 g + P f + j`, where
//! `P` (1, 2 or 4) is how many threads a group needs and `f` the sparsity selector: lane `j`
//! holds chunks `4 j .. 4 j + 3` of row `g` in bits 0..15 and of row `g + 8` in bits 16..31, one
//! nibble each, lowest first. B, C and D are the dense layouts of the logical shape.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, unsupported};
use crate::float::{self, Rnd};
use crate::machine::Cta;
use crate::mma::{element, items, Elem};
use crate::prep::Ins;

/// The 32-bit registers of a fragment operand.
fn words(cta: &Cta<'_, '_>, t: usize, ins: &Ins, n: usize) -> Result<Vec<u64>, SimError> {
    items(operand(ins, n)?)
        .iter()
        .map(|x| cta.read(t, x, Type::B32))
        .collect()
}

impl Cta<'_, '_> {
    pub(crate) fn mma_sparse(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        let bad = |what: &str| unsupported(ins, what);
        if group.len() != 32 {
            return Err(bad("mma.sp needs a full warp"));
        }
        let k: usize = ins
            .mods
            .iter()
            .find_map(|m| m.strip_prefix("m16n8k").and_then(|k| k.parse().ok()))
            .ok_or_else(|| bad("mma.sp shape"))?;
        let elems: Vec<Elem> = ins.mods.iter().filter_map(|x| Elem::parse(x)).collect();
        let [d_e, a_e, b_e, c_e] = elems[..] else {
            return Err(bad("mma.sp types"));
        };
        let bits = a_e.bits() as usize;
        if !matches!(bits, 4 | 8 | 16 | 32) || b_e.bits() as usize != bits || k * bits < 256 {
            return Err(bad("mma.sp types"));
        }
        let unit = if bits >= 16 { 16 } else { 8 };
        let per = 32 / bits;
        let chunks_per_row = k * bits / unit / 4;
        let lanes_per_group = (chunks_per_row / 4).max(1);
        let a_regs = 16 * k * bits / 2048;
        let lane_of = |t: usize| self.threads[t].lane() as usize;
        let mut meta = [0u32; 32];
        let mut selector = 0usize;
        for &t in group {
            meta[lane_of(t)] = self.read(t, operand(ins, 4)?, Type::B32)? as u32;
            selector = self.read(t, operand(ins, 5)?, Type::B32)? as usize;
        }
        if selector * lanes_per_group >= 4 {
            return Err(bad("mma.sp sparsity selector out of range"));
        }
        let mut a = vec![vec![0f64; k]; 16];
        let mut b = vec![vec![0f64; 8]; k];
        let mut c = vec![vec![0f64; 8]; 16];
        for &t in group {
            let lane = lane_of(t);
            let (g, tq) = (lane >> 2, lane % 4);
            let fa = words(self, t, ins, 1)?;
            if fa.len() != a_regs {
                return Err(bad("mma.sp A fragment size"));
            }
            for (r, &word) in fa.iter().enumerate() {
                let row = g + 8 * (r & 1);
                let first = 2 * per * tq + 8 * per * (r >> 1);
                let mut segment = 0u64;
                for ch in 0..32 / unit / 2 {
                    let q = first * bits / unit / 4 + ch;
                    let src = 4 * g + lanes_per_group * selector + q / 4;
                    let nibble = (meta[src] >> (16 * (row / 8) + 4 * (q % 4))) & 0xf;
                    for h in 0..2 {
                        let pos = 4 * ch + ((nibble >> (2 * h)) & 3) as usize;
                        let v = (word >> ((2 * ch + h) * unit)) & ((1 << unit) - 1);
                        segment |= v << (pos * unit);
                    }
                }
                for e in 0..2 * per {
                    let raw = (segment >> (e * bits)) & ((1u64 << bits) - 1);
                    a[row][first + e] = a_e.decode(raw);
                }
            }
            let fb = words(self, t, ins, 2)?;
            let per_b = 32 / bits;
            for i in 0..k * 8 / 32 {
                let row = tq * per_b + i % per_b + 4 * per_b * (i / per_b);
                *b.get_mut(row)
                    .and_then(|x| x.get_mut(g))
                    .ok_or_else(|| bad("mma.sp B fragment size"))? =
                    b_e.decode(element(&fb, b_e, i));
            }
            let fc = words(self, t, ins, 3)?;
            for i in 0..4 {
                c[g + 8 * (i >> 1)][2 * tq + (i & 1)] = c_e.decode(element(&fc, c_e, i));
            }
        }
        let sat = ins.has("satfinite");
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let (g, tq) = (lane >> 2, lane % 4);
            let dst = items(operand(ins, 0)?).to_vec();
            let per_d = (32 / d_e.bits()) as usize;
            let mut regs = vec![0u64; dst.len()];
            for i in 0..4 {
                let (row, col) = (g + 8 * (i >> 1), 2 * tq + (i & 1));
                let raw = if d_e.is_int() {
                    let p: i64 = (0..k).map(|x| a[row][x] as i64 * b[x][col] as i64).sum();
                    let s = p + c[row][col] as i64;
                    (if sat {
                        s.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        s as i32 as i64
                    }) as u32 as u64
                } else {
                    let s: f64 = (0..k).map(|x| a[row][x] * b[x][col]).sum::<f64>() + c[row][col];
                    match d_e {
                        Elem::F16 => float::round_to(s, 0, Rnd::Rn, float::F16),
                        _ => float::round_to(s, 0, Rnd::Rn, float::F32),
                    }
                };
                if let Some(reg) = regs.get_mut(i / per_d) {
                    *reg |= raw << ((i % per_d) as u32 * d_e.bits());
                }
            }
            for (o, v) in dst.iter().zip(regs) {
                self.write(t, o, v, Type::B32)?;
            }
        }
        Ok(())
    }
}
