//! Sparse tensor-core ops: HMMA.SP (0x23c with bit 73), IMMA.SP (0x237 with bit 72) and QMMA.SP
//! (0x27a with bit 76), the `mma.sp` / `mma.sp::ordered_metadata` forms of sm_80..sm_90.
//!
//! Fields (ptxforge-sass's `mma_sparse.rs`): D 16..23, A 24..31, B 32..39, metadata 40..47,
//! selector 48..49, C 64..71. HMMA.SP: 76 = f32 accumulator, 82 = bf16, 83 = tf32, k from bits
//! 75/78 (f16/bf16: 16 or 32 with 78; tf32: 8 or 16 with 75). IMMA.SP: 76/78 = A/B signed, 82 =
//! `.SAT`, 83/84 = 4-bit, shape (75, 85, 86) = 16832 (1,0,1), 16864 (0,1,1), 168128 (1,1,1).
//! QMMA.SP: 16864.F32 with 78/79 = A/B e5m2.
//!
//! A is the PTX ISA's sparse layout: the logical 16 x k A has 2 non-zero units in every chunk of 4
//! (a unit is 16 bits for f16/bf16/tf32, so tf32 keeps 1 element of 2; 8 bits for the 8-bit types
//! and a pair of elements for the 4-bit ones). With `g = lane / 4`, `t = lane % 4`, `E` elements
//! per register, register `r` of a lane holds the non-zero units, in order, of row `g + 8 (r % 2)`,
//! columns `2 E t + 8 E (r / 2)` .. `+ 2 E`. Each chunk's 4-bit metadata gives the positions of
//! its two units (low 2 bits: the first). The metadata of group `g` lies in the lanes
//! `4 g + P s + j` (`P` = 1, 2 or 4 lanes per group, `s` the selector): lane `j` holds chunks
//! `4 j .. 4 j + 3` of row `g` in bits 0..15 and of row `g + 8` in bits 16..31, one nibble per
//! chunk, the lowest first. B, C and D are the dense `mma` layouts of the logical shape.
//!
//! Numerics as dense HMMA/QMMA/IMMA (`mma.rs`, `imma.rs`): float sums in f64 in k order plus C,
//! rounded once; integer sums exact, wrapping or clamped with `.SAT`.

use super::{unsupported, Warp, WARP};
use crate::decode::{Inst, Op, RZ};
use crate::mma::{round_acc, Elem};
use crate::EmuError;

/// An element type of A or B.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    Float(Elem),
    Int { bits: u32, signed: bool },
}

impl Input {
    fn bits(self) -> u32 {
        match self {
            Input::Float(Elem::F16 | Elem::Bf16) => 16,
            Input::Float(Elem::Tf32 | Elem::F32) => 32,
            Input::Float(_) => 8,
            Input::Int { bits, .. } => bits,
        }
    }

    /// The element's value (integers exactly, as f64 never loses them here).
    fn value(self, raw: u32) -> f64 {
        match self {
            Input::Float(e) => e.value(raw),
            Input::Int { bits, signed } => {
                if signed {
                    (((raw as u64) << (64 - bits)) as i64 >> (64 - bits)) as f64
                } else {
                    raw as f64
                }
            }
        }
    }
}

/// One sparse form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SparseForm {
    pub k: usize,
    pub a: Input,
    pub b: Input,
    /// `None`: an s32 accumulator.
    pub acc: Option<Elem>,
    pub sat: bool,
    pub selector: usize,
}

/// The sparse form of an HMMA, QMMA or IMMA word, `None` where it is dense.
pub(crate) fn sparse_form(i: &Inst) -> Option<Result<SparseForm, String>> {
    let sparse = match i.op {
        Op::Hmma => i.bit(73),
        Op::Qmma => i.bit(76),
        Op::Imma => i.bit(72),
        _ => false,
    };
    sparse.then(|| decode(i))
}

fn decode(i: &Inst) -> Result<SparseForm, String> {
    let selector = i.f(48, 2) as usize;
    let f = match i.op {
        Op::Hmma => {
            let input = match (i.bit(82), i.bit(83)) {
                (false, false) => Elem::F16,
                (true, false) => Elem::Bf16,
                (false, true) => Elem::Tf32,
                _ => return Err("HMMA.SP input type".into()),
            };
            let k = match (input, i.bit(75), i.bit(78)) {
                (Elem::Tf32, false, false) => 8,
                (Elem::Tf32, true, false) => 16,
                (_, true, false) => 16,
                (_, true, true) => 32,
                _ => return Err("HMMA.SP shape".into()),
            };
            SparseForm {
                k,
                a: Input::Float(input),
                b: Input::Float(input),
                acc: Some(if i.bit(76) { Elem::F32 } else { Elem::F16 }),
                sat: false,
                selector,
            }
        }
        Op::Qmma => {
            if !(i.bit(74) && i.bit(77) && i.bit(80)) || i.bit(75) {
                return Err("QMMA.SP form".into());
            }
            let fp8 = |e5m2: bool| Input::Float(if e5m2 { Elem::E5m2 } else { Elem::E4m3 });
            SparseForm {
                k: 64,
                a: fp8(i.bit(78)),
                b: fp8(i.bit(79)),
                acc: Some(Elem::F32),
                sat: false,
                selector,
            }
        }
        _ => {
            let four = [i.bit(83), i.bit(84)];
            if four[0] != four[1] || !i.bit(74) {
                return Err("IMMA.SP operand types".into());
            }
            let bits = if four[0] { 4 } else { 8 };
            let k = match (i.bit(75), i.bit(85), i.bit(86), bits) {
                (true, false, true, 8) => 32,
                (false, true, true, 8) => 64,
                (false, true, true, 4) => 64,
                (true, true, true, 4) => 128,
                _ => return Err("IMMA.SP shape".into()),
            };
            let int = |signed| Input::Int { bits, signed };
            SparseForm {
                k,
                a: int(i.bit(76)),
                b: int(i.bit(78)),
                acc: None,
                sat: i.bit(82),
                selector,
            }
        }
    };
    Ok(f)
}

impl SparseForm {
    pub(crate) fn a_regs(&self) -> usize {
        16 * self.k * self.a.bits() as usize / 2048
    }

    pub(crate) fn b_regs(&self) -> usize {
        self.k * 8 * self.b.bits() as usize / 1024
    }

    fn acc_bits(&self) -> u32 {
        match self.acc {
            Some(Elem::F16) => 16,
            _ => 32,
        }
    }

    /// The forms with 4 registers of A collect their operands twice (as HMMA.16816).
    fn is_double_collect(&self) -> bool {
        self.a_regs() == 4
    }

    /// Cycles from issue before D may be read (the dense forms' figures, by size: the shortest
    /// distance ptxas 13.5's code leaves).
    pub(crate) fn fixed_latency(&self) -> u64 {
        if self.is_double_collect() {
            23
        } else {
            15
        }
    }

    pub(crate) fn source_hold(&self) -> u64 {
        if self.is_double_collect() {
            7
        } else {
            1
        }
    }
}

/// The register count of D for the accumulator type.
fn d_regs(f: &SparseForm) -> usize {
    4 * f.acc_bits() as usize / 32
}

/// The logical A (16 x k) from each lane's compressed fragment and metadata register.
fn decompress(f: &SparseForm, a: &[Vec<u32>], meta: &[u32]) -> Vec<Vec<f64>> {
    let bits = f.a.bits() as usize;
    let per = 32 / bits;
    let unit = if bits >= 16 { 16 } else { 8 };
    let chunks_per_row = f.k * bits / unit / 4;
    let lanes_per_group = (2 * chunks_per_row * 4 / 32).max(1);
    let mut m = vec![vec![0f64; f.k]; 16];
    for lane in 0..WARP {
        let (g, t) = (lane / 4, lane % 4);
        for (r, &word) in a[lane].iter().enumerate() {
            let row = g + 8 * (r % 2);
            let first = 2 * per * t + 8 * per * (r / 2);
            // The 2 E elements of the row segment as 64 bits, units placed by the metadata.
            let units_in_reg = 32 / unit;
            let mut segment = 0u64;
            for c in 0..units_in_reg / 2 {
                let q = first * bits / unit / 4 + c;
                let src = 4 * g + lanes_per_group * f.selector + q / 4;
                let shift = 16 * (row / 8) + 4 * (q % 4);
                let nibble = (meta[src] >> shift) & 0xf;
                for h in 0..2 {
                    let pos = 4 * c + ((nibble >> (2 * h)) & 3) as usize;
                    let v = (word as u64 >> ((2 * c + h) * unit)) & ((1 << unit) - 1);
                    segment |= v << (pos * unit);
                }
            }
            for e in 0..2 * per {
                let raw = (segment >> (e * bits)) & ((1u64 << bits) - 1);
                m[row][first + e] = f.a.value(raw as u32);
            }
        }
    }
    m
}

/// `D = A B + C` over a warp for a sparse form.
pub(crate) fn multiply(
    f: &SparseForm,
    a: &[Vec<u32>],
    b: &[Vec<u32>],
    c: &[Vec<u32>],
    meta: &[u32],
) -> Vec<Vec<u32>> {
    let ma = decompress(f, a, meta);
    let k = f.k;
    let pb = 32 / f.b.bits() as usize;
    let mut mb = vec![vec![0f64; 8]; k];
    for lane in 0..WARP {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..k * 8 / 32 {
            let raw = (b[lane][i / pb] as u64 >> ((i % pb) as u32 * f.b.bits())) as u32;
            let raw = raw & (((1u64 << f.b.bits()) - 1) as u32);
            mb[t * pb + i % pb + 4 * pb * (i / pb)][g] = f.b.value(raw);
        }
    }
    let acc_bits = f.acc_bits();
    let per_acc = (32 / acc_bits) as usize;
    (0..WARP)
        .map(|lane| {
            let (g, t) = (lane / 4, lane % 4);
            let mut out = vec![0u32; d_regs(f)];
            for i in 0..4 {
                let (row, col) = (g + 8 * (i >> 1), 2 * t + (i & 1));
                let craw = (c[lane][i / per_acc] >> ((i % per_acc) as u32 * acc_bits)) as u64
                    & ((1u64 << acc_bits) - 1);
                let raw = match f.acc {
                    Some(e) => {
                        let s: f64 = (0..k).map(|x| ma[row][x] * mb[x][col]).sum::<f64>()
                            + e.value(craw as u32);
                        round_acc(s, e)
                    }
                    None => {
                        let p: i128 = (0..k)
                            .map(|x| ma[row][x] as i128 * mb[x][col] as i128)
                            .sum();
                        let s = p + craw as u32 as i32 as i128;
                        let s = if f.sat {
                            s.clamp(i32::MIN as i128, i32::MAX as i128)
                        } else {
                            s
                        };
                        s as i32 as u32
                    }
                };
                out[i / per_acc] |= raw << ((i % per_acc) as u32 * acc_bits);
            }
            out
        })
        .collect()
}

/// Runs a sparse HMMA/QMMA/IMMA for the whole warp.
pub(crate) fn run(w: &mut Warp, i: &Inst, exec: u32, f: &SparseForm) -> Result<(), EmuError> {
    if exec != u32::MAX {
        return Err(unsupported(
            i,
            "sparse tensor op with a partial warp".into(),
        ));
    }
    let frag = |w: &Warp, base: u32, n: usize| -> Vec<Vec<u32>> {
        (0..WARP)
            .map(|l| {
                if base as u8 == RZ {
                    vec![0; n]
                } else {
                    (0..n).map(|k| w.reg(base as u8 + k as u8, l)).collect()
                }
            })
            .collect()
    };
    let a = frag(w, i.f(24, 8), f.a_regs());
    let b = frag(w, i.f(32, 8), f.b_regs());
    let c = frag(w, i.f(64, 8), d_regs(f));
    let meta: Vec<u32> = frag(w, i.f(40, 8), 1).into_iter().map(|v| v[0]).collect();
    let d = multiply(f, &a, &b, &c, &meta);
    let base = i.f(16, 8) as u8;
    for (l, regs) in d.iter().enumerate() {
        for (k, v) in regs.iter().enumerate() {
            w.set_reg(base.saturating_add(k as u8), l, *v);
        }
    }
    Ok(())
}

/// The register groups a sparse op reads (A, B, C, metadata) and writes (D), with sizes.
pub(crate) fn operand_regs(f: &SparseForm) -> [u8; 4] {
    [f.a_regs() as u8, f.b_regs() as u8, d_regs(f) as u8, 1]
}
