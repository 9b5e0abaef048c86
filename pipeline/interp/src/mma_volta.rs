//! Volta's quad-pair `mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}` and
//! `movmatrix.sync.aligned.m8n8.trans.b16`, executed once the whole warp waits.
//!
//! m8n8k4 with f16 inputs (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f16 floating point
//! type"): each quad pair, lanes 4q..4q+3 and 4q+16..4q+19, multiplies its own 8x4 A by 4x8 B.
//! With `hi` = 4 for lanes 16 and up (else 0), `t = lane % 4` and element `i` of the fragment:
//! A row-major: row `t + hi`, column `i`; A column-major: row `i + hi`, column `t`;
//! B row-major: row `t`, column `i + hi`; B column-major: row `i`, column `t + hi`;
//! f16 C/D: row `t + hi`, column `i`; f32 C/D: row `(lane & 1) + (i & 2) + hi`, column
//! `(i & 4) + (lane & 2) + (i & 1)`. Numerics as `mma.rs`: exact products summed in f64 with C,
//! rounded once.
//!
//! movmatrix: lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 of an 8x8 b16 matrix; the result
//! holds the same elements of its transpose.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, unsupported};
use crate::float::{self, Rnd};
use crate::machine::Cta;
use crate::prep::{Ins, Opnd};

/// Which m8n8k4 fragment.
#[derive(Copy, Clone)]
enum Frag {
    A { col: bool },
    B { col: bool },
    Acc { f32: bool },
}

/// Row and column, in the lane's quad pair's matrix, of element `i` of its fragment.
fn position(frag: Frag, lane: usize, i: usize) -> (usize, usize) {
    let (t, hi) = (lane % 4, 4 * (lane >= 16) as usize);
    match frag {
        Frag::A { col: false } | Frag::Acc { f32: false } => (t + hi, i),
        Frag::A { col: true } => (i + hi, t),
        Frag::B { col: false } => (t, i + hi),
        Frag::B { col: true } => (i, t + hi),
        Frag::Acc { f32: true } => ((lane & 1) + (i & 2) + hi, (i & 4) + (lane & 2) + (i & 1)),
    }
}

fn items(o: &Opnd) -> &[Opnd] {
    match o {
        Opnd::Vec(v) => v,
        _ => std::slice::from_ref(o),
    }
}

/// Element `i` of an f16 (two per register) or f32 fragment, as a value.
fn element(regs: &[u64], f32_elems: bool, i: usize) -> f64 {
    if f32_elems {
        f32::from_bits(regs.get(i).copied().unwrap_or(0) as u32) as f64
    } else {
        let r = regs.get(i / 2).copied().unwrap_or(0);
        float::decode((r >> (16 * (i % 2))) & 0xffff, float::F16)
    }
}

impl Cta<'_, '_> {
    /// Whether `ins` is the quad-pair m8n8k4 form with f16 inputs.
    pub(crate) fn is_volta_mma(ins: &Ins) -> bool {
        ins.has("m8n8k4") && ins.mods.iter().filter(|m| *m == "f16").count() >= 2
    }

    fn regs_of(&self, t: usize, o: &Opnd) -> Result<Vec<u64>, SimError> {
        items(o)
            .iter()
            .map(|x| self.read(t, x, Type::B32))
            .collect()
    }

    /// `mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype d, a, b, c`.
    pub(crate) fn mma_volta(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        if group.len() != 32 || ins.has("sp") {
            return Err(unsupported(ins, "m8n8k4 mma needs a full warp"));
        }
        let layouts: Vec<bool> = ins
            .mods
            .iter()
            .filter_map(|m| match m.as_str() {
                "row" => Some(false),
                "col" => Some(true),
                _ => None,
            })
            .collect();
        let types: Vec<&str> = ins
            .mods
            .iter()
            .map(|m| m.as_str())
            .filter(|m| matches!(*m, "f16" | "f32"))
            .collect();
        let (&[a_col, b_col], &[d_t, "f16", "f16", c_t]) = (&layouts[..], &types[..]) else {
            return Err(unsupported(ins, "m8n8k4 mma layouts and types"));
        };
        let (f32_d, f32_c) = (d_t == "f32", c_t == "f32");
        let mut ma = [[[0f64; 4]; 8]; 4];
        let mut mb = [[[0f64; 8]; 4]; 4];
        let mut mc = [[[0f64; 8]; 8]; 4];
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let q = (lane / 4) % 4;
            let fa = self.regs_of(t, operand(ins, 1)?)?;
            let fb = self.regs_of(t, operand(ins, 2)?)?;
            let fc = self.regs_of(t, operand(ins, 3)?)?;
            for i in 0..4 {
                let (r, c) = position(Frag::A { col: a_col }, lane, i);
                ma[q][r][c] = element(&fa, false, i);
                let (r, c) = position(Frag::B { col: b_col }, lane, i);
                mb[q][r][c] = element(&fb, false, i);
            }
            for i in 0..8 {
                let (r, c) = position(Frag::Acc { f32: f32_c }, lane, i);
                mc[q][r][c] = element(&fc, f32_c, i);
            }
        }
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let q = (lane / 4) % 4;
            let dst = items(operand(ins, 0)?).to_vec();
            let mut regs = vec![0u64; if f32_d { 8 } else { 4 }];
            for i in 0..8 {
                let (r, c) = position(Frag::Acc { f32: f32_d }, lane, i);
                let s: f64 = (0..4).map(|k| ma[q][r][k] * mb[q][k][c]).sum::<f64>() + mc[q][r][c];
                if f32_d {
                    regs[i] = float::round_to(s, 0, Rnd::Rn, float::F32);
                } else {
                    regs[i / 2] |= float::round_to(s, 0, Rnd::Rn, float::F16) << (16 * (i % 2));
                }
            }
            for (o, v) in dst.iter().zip(regs) {
                self.write(t, o, v, Type::B32)?;
            }
        }
        Ok(())
    }

    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`.
    pub(crate) fn movmatrix(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        if group.len() != 32 || !ins.has("trans") || !ins.has("m8n8") {
            return Err(unsupported(
                ins,
                "movmatrix other than m8n8.trans with a full warp",
            ));
        }
        let mut m = [[0u16; 8]; 8];
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let v = self.read(t, operand(ins, 1)?, Type::B32)?;
            m[lane / 4][2 * (lane % 4)] = v as u16;
            m[lane / 4][2 * (lane % 4) + 1] = (v >> 16) as u16;
        }
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let (r, c) = (lane / 4, 2 * (lane % 4));
            let v = m[c][r] as u64 | (m[c + 1][r] as u64) << 16;
            self.write(t, operand(ins, 0)?, v, Type::B32)?;
        }
        Ok(())
    }
}
