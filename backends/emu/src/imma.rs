//! The integer, single-bit and f64 tensor-core ops: IMMA (0x237), BMMA (0x23d) and DMMA (0x23f),
//! executed once for the whole warp (every lane must be active).
//!
//! Each lane holds fragments of A (M x K, row-major), B (K x N, column-major), C and D (M x N) in
//! aligned register groups, laid out as the PTX ISA's `mma` fragments: with `g = lane / 4`,
//! `t = lane % 4` and `E` elements per 32-bit register (one f64 per register pair), element `i`
//! of register `r = i / E`: A row `g + 8 (r % 2)` (m16; `g` for m8), column `t E + i % E +
//! 4 E (r / 2)`; B row `t E + i % E + 4 E r`, column `g`; C/D row `g + 8 (i / 2)` (m16; `g` for
//! m8), column `2 t + i % 2`. Fields as in ptxforge-sass's `imma.rs`.
//!
//! Numerics: IMMA sums exactly, wrapping in s32 or clamped with `.SAT`; BMMA adds the population
//! count of A AND/XOR B; DMMA adds the products to C one fused multiply-add at a time in K order
//! (the hardware's order is not documented; the tests use exactly representable sums).

use super::{unsupported, Warp, WARP};
use crate::decode::{Inst, Op};
use crate::EmuError;

/// A matrix op's geometry: M, K, the bits of A's and B's elements and whether they are signed,
/// and the register counts of A, B and C/D.
pub(crate) struct Geometry {
    m: usize,
    k: usize,
    bits: u32,
    signed: [bool; 2],
    pub regs: [u8; 3],
}

/// The geometry of IMMA, BMMA or DMMA from its modifier bits.
pub(crate) fn geometry(i: &Inst) -> Result<Geometry, String> {
    let (m, k, bits, signed) = match i.op {
        Op::Imma => {
            let four = [i.bit(83), i.bit(84)];
            if four[0] != four[1] {
                return Err("IMMA mixing 4- and 8-bit operands".into());
            }
            let (m, k8) = match (i.bit(75), i.bit(85), i.bit(86)) {
                (false, false, false) => (8, 16),
                (false, true, false) => (8, 32),
                (false, false, true) => (16, 16),
                (true, false, true) => (16, 32),
                (false, true, true) => (16, 64),
                _ => return Err("IMMA shape".into()),
            };
            // The 4-bit shapes name K for 4-bit elements (8832, 16832 and 16864 with S4/U4).
            let bits = if four[0] { 4 } else { 8 };
            let k = if four[0] && m == 16 && k8 == 16 {
                return Err("IMMA.16816 with 4-bit operands".into());
            } else {
                k8
            };
            (m, k, bits, [i.bit(76), i.bit(78)])
        }
        Op::Bmma => {
            let (m, k) = match i.f(75, 2) {
                0 => (8, 128),
                1 => (16, 128),
                2 => (16, 256),
                _ => return Err("BMMA shape".into()),
            };
            if !i.bit(80) {
                return Err("BMMA without .POPC".into());
            }
            (m, k, 1, [false; 2])
        }
        Op::Dmma => {
            let (m, k) = [(8, 4), (16, 4), (16, 8), (16, 16)][i.f(76, 2) as usize];
            if i.f(72, 4) != 0 || i.f(78, 2) != 0 {
                return Err("DMMA with operand modifiers or a rounding mode".into());
            }
            (m, k, 64, [true; 2])
        }
        _ => return Err("not a matrix op".into()),
    };
    if i.f(72, 2) != 0 && i.op != Op::Dmma || i.op != Op::Dmma && !i.bit(74) {
        return Err("matrix layouts other than ROW.COL, or sparse".into());
    }
    let regs = |elems: usize| (elems * bits as usize / (32 * WARP)) as u8;
    let cd = if i.op == Op::Dmma {
        2 * m * 8 / WARP
    } else {
        m * 8 / WARP
    };
    Ok(Geometry {
        m,
        k,
        bits,
        signed,
        regs: [regs(m * k), regs(k * 8), cd as u8],
    })
}

/// Element `e` of `bits` bits of a fragment (f64 elements span a register pair).
fn element(frag: &[u32], bits: u32, e: usize, signed: bool) -> i128 {
    if bits == 64 {
        return (frag[2 * e] as u64 | (frag[2 * e + 1] as u64) << 32) as i128;
    }
    let per = (32 / bits) as usize;
    let raw = (frag[e / per] >> ((e % per) as u32 * bits)) as u64 & ((1u64 << bits) - 1);
    if signed {
        (((raw << (64 - bits)) as i64) >> (64 - bits)) as i128
    } else {
        raw as i128
    }
}

impl Geometry {
    /// M K bits: what the fixed latency of an unscoreboarded IMMA/BMMA grows with.
    pub(crate) fn work(&self) -> u32 {
        (self.m * self.k) as u32 * self.bits
    }
    /// Elements per register (one f64 per pair counts as one).
    fn per(&self) -> usize {
        if self.bits == 64 {
            1
        } else {
            (32 / self.bits) as usize
        }
    }
    fn a_place(&self, lane: usize, e: usize) -> (usize, usize) {
        let (g, t, per) = (lane / 4, lane % 4, self.per());
        let r = e / per;
        let row = if self.m == 16 { g + 8 * (r % 2) } else { g };
        (row, t * per + e % per + 4 * per * (r / 2))
    }
    fn b_place(&self, lane: usize, e: usize) -> (usize, usize) {
        let (g, t, per) = (lane / 4, lane % 4, self.per());
        (t * per + e % per + 4 * per * (e / per), g)
    }
    fn cd_place(&self, lane: usize, e: usize) -> (usize, usize) {
        let (g, t) = (lane / 4, lane % 4);
        let row = if self.m == 16 { g + 8 * (e / 2) } else { g };
        (row, 2 * t + e % 2)
    }
}

/// Reads `n` registers from `first` for every lane.
fn fragments(w: &Warp, first: u8, n: u8) -> Vec<Vec<u32>> {
    (0..WARP)
        .map(|l| (0..n).map(|k| w.reg(first.saturating_add(k), l)).collect())
        .collect()
}

/// Runs IMMA, BMMA or DMMA for the whole warp.
pub(crate) fn matrix(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    if exec != u32::MAX {
        return Err(unsupported(i, "a matrix op with a partial warp".into()));
    }
    let geo = geometry(i).map_err(|e| unsupported(i, e))?;
    let [na, nb, nc] = geo.regs;
    let (fa, fb) = (
        fragments(w, i.f(24, 8) as u8, na),
        fragments(w, i.f(32, 8) as u8, nb),
    );
    let fc = fragments(w, i.f(64, 8) as u8, nc);
    let (m, k) = (geo.m, geo.k);
    let mut a = vec![vec![0i128; k]; m];
    let mut b = vec![vec![0i128; 8]; k];
    let mut c = vec![vec![0i128; 8]; m];
    let elems = |regs: u8| regs as usize * 32 / geo.bits as usize;
    for l in 0..WARP {
        for e in 0..elems(na) {
            let (r, col) = geo.a_place(l, e);
            a[r][col] = element(&fa[l], geo.bits, e, geo.signed[0]);
        }
        for e in 0..elems(nb) {
            let (r, col) = geo.b_place(l, e);
            b[r][col] = element(&fb[l], geo.bits, e, geo.signed[1]);
        }
        let cbits = if i.op == Op::Dmma { 64 } else { 32 };
        for e in 0..m * 8 / WARP {
            let (r, col) = geo.cd_place(l, e);
            c[r][col] = element(&fc[l], cbits, e, true);
        }
    }
    let sat = i.op == Op::Imma && i.bit(82);
    let and = i.bit(78);
    let value = |r: usize, col: usize| -> u64 {
        match i.op {
            Op::Dmma => {
                let mut d = f64::from_bits(c[r][col] as u64);
                for x in 0..k {
                    let (p, q) = (a[r][x] as u64, b[x][col] as u64);
                    d = f64::from_bits(p).mul_add(f64::from_bits(q), d);
                }
                d.to_bits()
            }
            Op::Bmma => {
                let ones: i128 = (0..k)
                    .map(|x| {
                        if and {
                            a[r][x] & b[x][col]
                        } else {
                            a[r][x] ^ b[x][col]
                        }
                    })
                    .sum();
                (c[r][col] + ones) as i32 as u32 as u64
            }
            _ => {
                let s: i128 = c[r][col] + (0..k).map(|x| a[r][x] * b[x][col]).sum::<i128>();
                let s = if sat {
                    s.clamp(i32::MIN as i128, i32::MAX as i128)
                } else {
                    s
                };
                s as i32 as u32 as u64
            }
        }
    };
    let d = i.f(16, 8) as u8;
    let mut out = vec![Vec::new(); WARP];
    for (l, o) in out.iter_mut().enumerate() {
        for e in 0..m * 8 / WARP {
            let (r, col) = geo.cd_place(l, e);
            let v = value(r, col);
            if i.op == Op::Dmma {
                o.extend([v as u32, (v >> 32) as u32]);
            } else {
                o.push(v as u32);
            }
        }
    }
    for (l, o) in out.iter().enumerate() {
        for (k, v) in o.iter().enumerate() {
            w.set_reg(d.saturating_add(k as u8), l, *v);
        }
    }
    Ok(())
}
