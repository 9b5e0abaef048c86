//! The warp-wide matrix movers and Volta's quad-pair tensor op: MOVM.16.MT88 (0x23a, an 8x8 b16
//! matrix transposed across the warp), STSM.16.{M88,MT88}[.2|.4] (0x844, sm_90: LDSM's fragments
//! stored back) and sm_75's HMMA.884.{F16,F32}.{F16,F32}.STEPn (0x236, one step of
//! `mma.m8n8k4` with f16 inputs).
//!
//! HMMA.884 (fields learned from ptxas 13.5 + nvdisasm): D 16..23, A 24..31, B 32..39, C 64..71,
//! bit 73 A column-major, 74 B column-major, 76 f32 D, 78 f32 C, step 79..80. Each quad pair
//! (lanes 4q..4q+3 and 4q+16..4q+19, `hi` for the second four, `t = lane % 4`) computes its own
//! 8x8x4 product, in the PTX ISA's m8n8k4 fragment layouts: A row-major: row `t + 4 hi`, column
//! `i`; A column-major: row `i + 4 hi`, column `t`; B row-major: row `t`, column `i + 4 hi`;
//! B column-major: row `i`, column `t + 4 hi`; f16 C/D: row `t + 4 hi`, column `i`; f32 C/D:
//! row `(lane & 1) + (i & 2) + 4 hi`, column `(i & 4) + (lane & 2) + (i & 1)`. With an f32 D step
//! s writes elements 2s, 2s+1 (two registers); with an f16 D elements 4s..4s+3. The C group holds
//! the step's elements (f32 C), or f16 elements 4(s/2).. (f32 D) or 4s.. (f16 D). Numerics as
//! HMMA's (`mma.rs`): exact products summed in f64, plus C, rounded once.

use super::{unsupported, Run, Warp, WARP};
use crate::decode::Inst;
use crate::half::{decode_half, round_half, F16};
use crate::EmuError;

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// `MOVM.16.MT88 Rd, Ra`: lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 of an 8x8 b16
/// matrix; afterwards the same elements of its transpose.
pub(crate) fn movm(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    if exec != u32::MAX {
        return Err(unsupported(i, "MOVM with a partial warp".into()));
    }
    let (a, d) = (i.f(24, 8) as u8, i.f(16, 8) as u8);
    let mut m = [[0u16; 8]; 8];
    for l in 0..WARP {
        let v = w.reg(a, l);
        m[l / 4][2 * (l % 4)] = v as u16;
        m[l / 4][2 * (l % 4) + 1] = (v >> 16) as u16;
    }
    for l in 0..WARP {
        let (r, c) = (l / 4, 2 * (l % 4));
        w.set_reg(d, l, m[c][r] as u32 | (m[c + 1][r] as u32) << 16);
    }
    Ok(())
}

/// Position (row, column) in its quad pair's matrix of element `i` of `lane`'s fragment.
pub(crate) fn volta_pos(frag: Frag, lane: usize, i: usize) -> (usize, usize) {
    let (t, hi) = (lane % 4, 4 * (lane >= 16) as usize);
    match frag {
        Frag::A { col: false } => (t + hi, i),
        Frag::A { col: true } => (i + hi, t),
        Frag::B { col: false } => (t, i + hi),
        Frag::B { col: true } => (i, t + hi),
        Frag::Acc { f32: false } => (t + hi, i),
        Frag::Acc { f32: true } => ((lane & 1) + (i & 2) + hi, (i & 4) + (lane & 2) + (i & 1)),
    }
}

/// The m8n8k4 fragments.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frag {
    A { col: bool },
    B { col: bool },
    Acc { f32: bool },
}

impl Run<'_> {
    /// `STSM.16.{M88,MT88}[.2|.4] [Ra + off], Rb`: matrix j's rows at the addresses of lanes
    /// 8j..8j+7; lane l holds row l/4, columns 2(l%4), 2(l%4)+1 of each matrix in Rb+j (MT88:
    /// of the transposed matrix).
    pub(crate) fn stsm(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        if exec != u32::MAX {
            return Err(unsupported(i, "STSM with a partial warp".into()));
        }
        let count = 1usize << i.f(72, 2);
        let trans = i.bit(78);
        let (a, b) = (i.f(24, 8) as u8, i.f(32, 8) as u8);
        if i.bit(91) {
            return Err(unsupported(
                i,
                "STSM with a uniform-register address".into(),
            ));
        }
        let off = sext(i.f(40, 24) as u64, 24) as u64;
        for j in 0..count {
            let mut m = [[0u16; 8]; 8];
            for l in 0..WARP {
                let v = w.reg(b.saturating_add(j as u8), l);
                let (r, c) = (l / 4, 2 * (l % 4));
                for h in 0..2 {
                    let e = (v >> (16 * h)) as u16;
                    if trans {
                        m[c + h][r] = e;
                    } else {
                        m[r][c + h] = e;
                    }
                }
            }
            for (r, row) in m.iter().enumerate() {
                let lane = 8 * j + r;
                let addr = (w.reg(a, lane) as u64).wrapping_add(off) & 0xffff_ffff;
                let bytes: Vec<u8> = row.iter().flat_map(|e| e.to_le_bytes()).collect();
                self.store("shared", addr, &bytes, i, w, lane)?;
            }
        }
        Ok(())
    }
}

/// One HMMA.884 step over the warp (see the module's comment).
pub(crate) fn hmma884(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    if exec != u32::MAX {
        return Err(unsupported(i, "HMMA.884 with a partial warp".into()));
    }
    let mods = (i.w >> 72) & ((1 << 19) - 1);
    if mods & !(0b1_1101_0110) != 0 {
        return Err(unsupported(i, format!("HMMA.884 modifier bits {mods:#x}")));
    }
    let (a_col, b_col, f32_d, f32_c) = (i.bit(73), i.bit(74), i.bit(76), i.bit(78));
    let step = i.f(79, 2) as usize;
    if !f32_d && (f32_c || step > 1) {
        return Err(unsupported(
            i,
            "HMMA.884 F16 D with F32 C or step above 1".into(),
        ));
    }
    let (d, a, b, c) = (
        i.f(16, 8) as u8,
        i.f(24, 8) as u8,
        i.f(32, 8) as u8,
        i.f(64, 8) as u8,
    );
    let half = |v: u32, k: usize| decode_half((v >> (16 * (k % 2))) as u16, F16, false);
    // The quad pairs' matrices: [quad pair][row][col].
    let mut ma = [[[0f64; 4]; 8]; 4];
    let mut mb = [[[0f64; 8]; 4]; 4];
    let mut mc = [[[0f64; 8]; 8]; 4];
    // The accumulator elements this step reads and writes: (first element, count).
    let (first, n) = if f32_d { (2 * step, 2) } else { (4 * step, 4) };
    // First element of the C group (f16 C with f32 D: the group of elements 4(s/2)..).
    let c_base = match (f32_d, f32_c) {
        (true, true) => first,
        (true, false) => 4 * (step / 2),
        _ => first,
    };
    for l in 0..WARP {
        let q = (l / 4) % 4;
        for k in 0..4 {
            let (r, col) = volta_pos(Frag::A { col: a_col }, l, k);
            ma[q][r][col] = half(w.reg(a.saturating_add((k / 2) as u8), l), k);
            let (r, col) = volta_pos(Frag::B { col: b_col }, l, k);
            mb[q][r][col] = half(w.reg(b.saturating_add((k / 2) as u8), l), k);
        }
        let c_elems = if f32_c { 2 } else { 4 };
        for e in 0..c_elems {
            let (r, col) = volta_pos(Frag::Acc { f32: f32_c }, l, c_base + e);
            mc[q][r][col] = if f32_c {
                f32::from_bits(w.reg(c.saturating_add(e as u8), l)) as f64
            } else {
                half(w.reg(c.saturating_add((e / 2) as u8), l), e)
            };
        }
    }
    let mut out = vec![[0u32; 2]; WARP];
    for (l, o) in out.iter_mut().enumerate() {
        let q = (l / 4) % 4;
        for e in 0..n {
            let (r, col) = volta_pos(Frag::Acc { f32: f32_d }, l, first + e);
            let s: f64 = (0..4).map(|k| ma[q][r][k] * mb[q][k][col]).sum::<f64>() + mc[q][r][col];
            if f32_d {
                o[e] = if s.is_nan() {
                    0x7fff_ffff
                } else {
                    (s as f32).to_bits()
                };
            } else {
                o[e / 2] |= (round_half(s, 0.0, F16, 0) as u32) << (16 * (e % 2));
            }
        }
    }
    for (l, o) in out.iter().enumerate() {
        w.set_reg(d, l, o[0]);
        w.set_reg(d.saturating_add(1), l, o[1]);
    }
    Ok(())
}
