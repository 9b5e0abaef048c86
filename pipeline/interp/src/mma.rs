//! Warp-wide matrix instructions: `mma.sync` (m16n8kK and m8n8kK shapes over f16, bf16, tf32, f64,
//! s8/u8, s4/u4 and b1) and `ldmatrix`/`stmatrix` (m8n8 .b16), executed once the whole warp waits.
//!
//! Fragment layouts follow the PTX ISA's formulas, which share one shape: with `g = lane >> 2`,
//! `t = lane % 4`, `E` elements per register and element `i` in register `r = i / E`:
//! A (m16): row `g + 8 (r & 1)`, column `t E + i % E + 4 E (r >> 1)`; A (m8): row `g`, column `t E + i % E`;
//! B: row `t E + i % E + 4 E r`, column `g`; C/D (m16): row `g + 8 (i >> 1)`, column `2 t + (i & 1)`;
//! C/D (m8): row `g`, column `2 t + i`.
//!
//! Numerics: integer products and sums are exact (wrapping in s32, clamped with `.satfinite`); b1
//! adds the population count of A AND/XOR B (`.and.popc`, `.xor.popc`); float
//! products are exact and each output element sums `c + sum(a * b)` in f64 then rounds once to the
//! result type. Hardware adds in its own order and precision, so f16/bf16/tf32 results can differ
//! in the last bits (f64 `m8n8k4` matches an fma chain over k only to within that rounding too).

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{mask, operand, sext, unsupported};
use crate::float::{self, Rnd};
use crate::machine::Cta;
use crate::prep::{Ins, Opnd};

/// Element kinds of mma operands.
#[derive(Copy, Clone, PartialEq, Debug)]
pub(crate) enum Elem {
    F16,
    BF16,
    Tf32,
    E4m3,
    E5m2,
    F32,
    F64,
    S8,
    U8,
    S4,
    U4,
    B1,
    S32,
}

impl Elem {
    pub(crate) fn parse(m: &str) -> Option<Elem> {
        Some(match m {
            "f16" => Elem::F16,
            "bf16" => Elem::BF16,
            "tf32" => Elem::Tf32,
            "e4m3" => Elem::E4m3,
            "e5m2" => Elem::E5m2,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            "s8" => Elem::S8,
            "u8" => Elem::U8,
            "s4" => Elem::S4,
            "u4" => Elem::U4,
            "b1" => Elem::B1,
            "s32" => Elem::S32,
            _ => return None,
        })
    }
    pub(crate) fn bits(self) -> u32 {
        match self {
            Elem::F16 | Elem::BF16 => 16,
            Elem::Tf32 | Elem::F32 | Elem::S32 => 32,
            Elem::F64 => 64,
            Elem::S8 | Elem::U8 | Elem::E4m3 | Elem::E5m2 => 8,
            Elem::S4 | Elem::U4 => 4,
            Elem::B1 => 1,
        }
    }
    /// Elements per register (64-bit registers for f64).
    fn per_reg(self) -> usize {
        if self == Elem::F64 {
            1
        } else {
            (32 / self.bits()) as usize
        }
    }
    pub(crate) fn is_int(self) -> bool {
        matches!(
            self,
            Elem::S8 | Elem::U8 | Elem::S4 | Elem::U4 | Elem::B1 | Elem::S32
        )
    }
    pub(crate) fn decode(self, raw: u64) -> f64 {
        match self {
            Elem::F16 => float::decode(raw, float::F16),
            Elem::BF16 => float::decode(raw, float::BF16),
            // tf32 operands use the f32 encoding; the hardware ignores the low 13 mantissa bits.
            Elem::Tf32 => f32::from_bits(raw as u32 & 0xffff_e000) as f64,
            Elem::F32 => f32::from_bits(raw as u32) as f64,
            Elem::F64 => f64::from_bits(raw),
            Elem::E4m3 => crate::fp8::decode(raw as u8, true),
            Elem::E5m2 => crate::fp8::decode(raw as u8, false),
            Elem::S8 | Elem::S4 | Elem::S32 => sext(raw, self.bits()) as f64,
            Elem::U8 | Elem::U4 | Elem::B1 => raw as f64,
        }
    }
}

/// Element `i` of a fragment held in `regs`.
pub(crate) fn element(regs: &[u64], e: Elem, i: usize) -> u64 {
    let per = e.per_reg();
    let r = regs.get(i / per).copied().unwrap_or(0);
    (r >> ((i % per) as u32 * e.bits())) & mask(e.bits())
}

pub(crate) fn items(o: &Opnd) -> &[Opnd] {
    match o {
        Opnd::Vec(v) => v,
        _ => std::slice::from_ref(o),
    }
}

impl Cta<'_, '_> {
    fn fragment(&self, t: usize, o: &Opnd) -> Result<Vec<u64>, SimError> {
        items(o)
            .iter()
            .map(|x| self.read(t, x, Type::B64))
            .collect()
    }

    pub(crate) fn mma(&mut self, group: &[usize], ins: &Ins) -> Result<(), SimError> {
        if group.len() != 32 {
            return Err(unsupported(ins, "mma needs a full warp"));
        }
        if ins.mods.iter().any(|m| m == "sp" || m.starts_with("sp::")) {
            return self.mma_sparse(group, ins);
        }
        let shape = ins
            .mods
            .iter()
            .find(|m| m.starts_with('m') && m.contains('n') && m.contains('k'))
            .cloned()
            .unwrap_or_default();
        let dims: Vec<usize> = shape
            .get(1..)
            .unwrap_or("")
            .split(['n', 'k'])
            .filter_map(|x| x.parse().ok())
            .collect();
        let [m, n, k] = dims[..] else {
            return Err(unsupported(ins, "mma shape"));
        };
        let elems: Vec<Elem> = ins.mods.iter().filter_map(|x| Elem::parse(x)).collect();
        let (d_e, a_e, b_e, c_e) = match elems[..] {
            [d, a, b, c] => (d, a, b, c),
            _ => return Err(unsupported(ins, "mma types")),
        };
        let known_shape = n == 8 && (m == 16 || m == 8);
        // m8n8k4 with f16 is Volta's quad-pair form, which has another fragment layout.
        let volta_form = m == 8 && k == 4 && a_e == Elem::F16;
        if !known_shape || ins.has("sp") || volta_form {
            return Err(unsupported(ins, "mma shape"));
        }
        if k == 0 || k > 256 || m * k % 32 != 0 || k * n % 32 != 0 {
            return Err(unsupported(ins, "mma shape"));
        }
        let mut a = vec![vec![0f64; k]; m];
        let mut b = vec![vec![0f64; n]; k];
        let mut c = vec![vec![0f64; n]; m];
        let per_a = a_e.per_reg();
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let (g, tq) = (lane >> 2, lane % 4);
            let fa = self.fragment(t, operand(ins, 1)?)?;
            let fb = self.fragment(t, operand(ins, 2)?)?;
            let fc = self.fragment(t, operand(ins, 3)?)?;
            for i in 0..m * k / 32 {
                let r = i / per_a;
                let (row, col) = if m == 16 {
                    (
                        g + 8 * (r & 1),
                        tq * per_a + i % per_a + 4 * per_a * (r >> 1),
                    )
                } else {
                    (g, tq * per_a + i % per_a)
                };
                *a.get_mut(row)
                    .and_then(|x| x.get_mut(col))
                    .ok_or_else(|| unsupported(ins, "mma shape and type"))? =
                    a_e.decode(element(&fa, a_e, i));
            }
            let per_b = b_e.per_reg();
            for i in 0..k * n / 32 {
                let r = i / per_b;
                let row = tq * per_b + i % per_b + 4 * per_b * r;
                *b.get_mut(row)
                    .and_then(|x| x.get_mut(g))
                    .ok_or_else(|| unsupported(ins, "mma shape and type"))? =
                    b_e.decode(element(&fb, b_e, i));
            }
            for i in 0..m * n / 32 {
                let (row, col) = if m == 16 {
                    (g + 8 * (i >> 1), 2 * tq + (i & 1))
                } else {
                    (g, 2 * tq + i)
                };
                c[row][col] = c_e.decode(element(&fc, c_e, i));
            }
        }
        let sat = ins.has("satfinite");
        // b1: `.and.popc` / `.xor.popc` (Some(true) for AND).
        let popc = (a_e == Elem::B1).then(|| ins.has("and"));
        if a_e == Elem::B1 && !ins.has("popc") {
            return Err(unsupported(ins, "b1 mma without .popc"));
        }
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let (g, tq) = (lane >> 2, lane % 4);
            let dst = items(operand(ins, 0)?).to_vec();
            let per_d = d_e.per_reg();
            let mut regs = vec![0u64; dst.len()];
            for i in 0..m * n / 32 {
                let (row, col) = if m == 16 {
                    (g + 8 * (i >> 1), 2 * tq + (i & 1))
                } else {
                    (g, 2 * tq + i)
                };
                let raw = if d_e.is_int() {
                    let s: i64 = (0..k)
                        .map(|x| {
                            let (p, q) = (a[row][x] as i64, b[x][col] as i64);
                            match popc {
                                Some(true) => p & q,
                                Some(false) => p ^ q,
                                None => p * q,
                            }
                        })
                        .sum::<i64>()
                        + c[row][col] as i64;
                    (if sat {
                        s.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        s as i32 as i64
                    }) as u32 as u64
                } else {
                    let s: f64 = (0..k).map(|x| a[row][x] * b[x][col]).sum::<f64>() + c[row][col];
                    match d_e {
                        Elem::F64 => s.to_bits(),
                        Elem::F16 => float::round_to(s, 0, Rnd::Rn, float::F16),
                        Elem::BF16 => float::round_to(s, 0, Rnd::Rn, float::BF16),
                        _ => float::round_to(s, 0, Rnd::Rn, float::F32),
                    }
                };
                if let Some(reg) = regs.get_mut(i / per_d) {
                    *reg |= raw << ((i % per_d) as u32 * d_e.bits());
                }
            }
            for (o, v) in dst.iter().zip(regs) {
                self.write(
                    t,
                    o,
                    v,
                    if d_e == Elem::F64 {
                        Type::B64
                    } else {
                        Type::B32
                    },
                )?;
            }
        }
        Ok(())
    }

    /// `ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16`: lanes 8j..8j+7 give the row addresses of
    /// matrix j; lane `l` receives in register j the elements at row `l / 4`, columns `2 (l % 4)` and
    /// `2 (l % 4) + 1` (transposed: rows `2 (l % 4)`, `2 (l % 4) + 1` of column `l / 4`).
    /// `stmatrix` stores the same fragments back.
    pub(crate) fn ldmatrix(
        &mut self,
        group: &[usize],
        ins: &Ins,
        store: bool,
    ) -> Result<(), SimError> {
        if group.len() != 32 || !ins.has("m8n8") {
            return Err(unsupported(ins, "only m8n8 b16 with a full warp"));
        }
        let count: usize = ins
            .mods
            .iter()
            .find_map(|m| m.strip_prefix('x').and_then(|n| n.parse().ok()))
            .unwrap_or(1);
        if ![1, 2, 4].contains(&count) {
            return Err(unsupported(ins, "ldmatrix count"));
        }
        let trans = ins.has("trans");
        let (addr_op, frag_op) = if store { (0, 1) } else { (1, 0) };
        let mut rows = vec![0u64; 8 * count];
        for (j, row) in rows.iter_mut().enumerate() {
            let t = group[j];
            *row = self.region_address(t, ins, operand(ins, addr_op)?)?;
        }
        // m[mat][r][c] of b16 elements.
        let mut m = vec![[[0u16; 8]; 8]; count];
        if store {
            for &t in group {
                let lane = self.threads[t].lane() as usize;
                let regs = self.fragment(t, operand(ins, frag_op)?)?;
                for (mat, reg) in regs.iter().enumerate().take(count) {
                    for h in 0..2 {
                        let v = (reg >> (16 * h)) as u16;
                        let (r, c) = if trans {
                            (2 * (lane % 4) + h, lane / 4)
                        } else {
                            (lane / 4, 2 * (lane % 4) + h)
                        };
                        m[mat][r][c] = v;
                    }
                }
            }
            for (j, &a) in rows.iter().enumerate() {
                let bytes: Vec<u8> = m[j / 8][j % 8]
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect();
                self.shared_bytes(group[j], ins, a)?.copy_from_slice(&bytes);
            }
            return Ok(());
        }
        for (j, &a) in rows.iter().enumerate() {
            let b = self.shared_bytes(group[j], ins, a)?.to_vec();
            for c in 0..8 {
                m[j / 8][j % 8][c] = u16::from_le_bytes([b[2 * c], b[2 * c + 1]]);
            }
        }
        for &t in group {
            let lane = self.threads[t].lane() as usize;
            let dst = items(operand(ins, frag_op)?).to_vec();
            for (mat, o) in dst.iter().enumerate().take(count) {
                let el = |h: usize| {
                    if trans {
                        m[mat][2 * (lane % 4) + h][lane / 4]
                    } else {
                        m[mat][lane / 4][2 * (lane % 4) + h]
                    }
                };
                let v = el(0) as u64 | (el(1) as u64) << 16;
                self.write(t, o, v, Type::B32)?;
            }
        }
        Ok(())
    }
}
