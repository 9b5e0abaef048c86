//! Tensor-core ops: HMMA (0x23c: f16, bf16, tf32 inputs) and QMMA (0x27a: e4m3/e5m2 inputs,
//! sm_89), their forms decoded from the modifier bits and their warp-wide product computed from
//! the register fragments.
//!
//! Fields (learned from ptxas 13.5 + nvdisasm): D 16..23, A 24..31, B 32..39, C 64..71 (RZ: zero).
//! HMMA: bit 75 = k16, 76 = f32 accumulator, 78 = k4 (tf32), 82 = bf16, 83 = tf32 inputs (else
//! m16n8k8 f16). QMMA: bit 74 set, 75 = k32 (else k16), 77 = f32 accumulator, 78/79 = A/B e5m2.
//!
//! Fragments are the PTX ISA's mma layouts (the hardware's registers hold exactly them): with
//! `g = lane / 4`, `t = lane % 4`, `E` elements per register, element `i` in register `r = i / E`:
//! A row `g + 8 (r % 2)`, column `t E + i % E + (k / 2)(r / 2)`; B row `t E + i % E + (k / 2) r`,
//! column `g`; C/D row `g + 8 (i / 2)`, column `2 t + i % 2`.
//!
//! Numerics: each element of D is `sum over k of a * b` added up in f64 in k order, plus C, then
//! rounded once to nearest into the accumulator type (f32 NaN 0x7fffffff, f16 NaN 0x7fff) — the
//! PTX interpreter's definition, so the two agree bit for bit. The hardware's own order and
//! internal precision are not published; this model is exact for products (f16/bf16/tf32/fp8
//! products fit f64) and for sums whose terms lie within 2^53 of each other.

use crate::half::{decode_half, round_half, BF16, F16};

/// Element types of the inputs and accumulators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    F16,
    Bf16,
    Tf32,
    E4m3,
    E5m2,
    F32,
}

impl Elem {
    fn bits(self) -> usize {
        match self {
            Elem::F16 | Elem::Bf16 => 16,
            Elem::Tf32 | Elem::F32 => 32,
            Elem::E4m3 | Elem::E5m2 => 8,
        }
    }

    fn per_reg(self) -> usize {
        32 / self.bits()
    }

    /// The value of an element's bits.
    pub(crate) fn value(self, raw: u32) -> f64 {
        match self {
            Elem::F16 => decode_half(raw as u16, F16, false),
            Elem::Bf16 => decode_half(raw as u16, BF16, false),
            // The tensor unit ignores a tf32 operand's low 13 mantissa bits.
            Elem::Tf32 => f32::from_bits(raw & 0xffff_e000) as f64,
            Elem::F32 => f32::from_bits(raw) as f64,
            // e5m2 is the high byte of an f16.
            Elem::E5m2 => decode_half((raw as u16) << 8, F16, false),
            Elem::E4m3 => e4m3_value(raw as u8),
        }
    }
}

/// e4m3: bias 7, no infinities, NaN only at S.1111.111.
fn e4m3_value(code: u8) -> f64 {
    if code & 0x7f == 0x7f {
        return f64::NAN;
    }
    let e = ((code >> 3) & 0xf) as i32;
    let m = (code & 7) as f64;
    let mag = if e == 0 {
        m * 2f64.powi(-9)
    } else {
        (8.0 + m) * 2f64.powi(e - 10)
    };
    if code & 0x80 != 0 {
        -mag
    } else {
        mag
    }
}

/// One HMMA/QMMA form: `m16 n8 k`, input and accumulator types.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Form {
    pub k: usize,
    pub a: Elem,
    pub b: Elem,
    pub acc: Elem,
}

const M: usize = 16;
const N: usize = 8;

impl Form {
    /// The form of an HMMA (`qmma` false) or QMMA word; `Err` for modifier bits not learned.
    pub fn decode(w: u128, qmma: bool) -> Result<Form, String> {
        let bit = |p: u32| (w >> p) & 1 == 1;
        let mods = ((w >> 72) & ((1 << 19) - 1)) as u32;
        let known: &[u32] = if qmma {
            &[74, 75, 77, 78, 79]
        } else {
            &[75, 76, 78, 82, 83]
        };
        let unknown = known.iter().fold(mods, |m, p| m & !(1 << (p - 72)));
        if unknown != 0 {
            return Err(format!("modifier bits {:#x} above bit 72", unknown));
        }
        let form = if qmma {
            let fp8 = |e5m2: bool| if e5m2 { Elem::E5m2 } else { Elem::E4m3 };
            if !bit(74) {
                return Err("QMMA without bit 74".into());
            }
            Form {
                k: if bit(75) { 32 } else { 16 },
                a: fp8(bit(78)),
                b: fp8(bit(79)),
                acc: if bit(77) { Elem::F32 } else { Elem::F16 },
            }
        } else {
            let input = match (bit(82), bit(83)) {
                (false, false) => Elem::F16,
                (true, false) => Elem::Bf16,
                (false, true) => Elem::Tf32,
                _ => return Err("HMMA input type".into()),
            };
            let k = match (bit(75), bit(78), input) {
                (false, false, _) => 8,
                (true, false, Elem::F16 | Elem::Bf16) => 16,
                (false, true, Elem::Tf32) => 4,
                _ => return Err("HMMA shape".into()),
            };
            let acc = if bit(76) { Elem::F32 } else { Elem::F16 };
            if input != Elem::F16 && acc != Elem::F32 {
                return Err("HMMA bf16/tf32 with an f16 accumulator".into());
            }
            Form {
                k,
                a: input,
                b: input,
                acc,
            }
        };
        Ok(form)
    }

    pub fn a_regs(&self) -> usize {
        M * self.k * self.a.bits() / 1024
    }

    pub fn b_regs(&self) -> usize {
        self.k * N * self.b.bits() / 1024
    }

    pub fn acc_regs(&self) -> usize {
        M * N * self.acc.bits() / 1024
    }

    /// Cycles after issue during which the op may still collect its sources, so that a
    /// fixed-latency overwrite of one is a hazard (NVIDIA's write-after-read table in Mesa NAK:
    /// 7 after the 2x-collect forms, 1 after the others).
    pub fn source_hold(&self) -> u64 {
        if self.fixed_latency() == 23 {
            7
        } else {
            1
        }
    }

    /// Cycles from issue before D may be read where the op is not scoreboarded (sm_80+): the
    /// shortest distance ptxas 13.5's code leaves (23 after the full-size forms, 15 after the
    /// half-size ones).
    pub fn fixed_latency(&self) -> u64 {
        let full = match self.a {
            Elem::F16 | Elem::Bf16 => self.k == 16,
            Elem::Tf32 => self.k == 8,
            _ => self.k == 32,
        };
        if full {
            23
        } else {
            15
        }
    }
}

/// Element `i` of a lane's fragment `regs`.
fn element(regs: &[u32], e: Elem, i: usize) -> u32 {
    let per = e.per_reg();
    let bits = e.bits() as u32;
    let r = regs[i / per];
    if bits == 32 {
        r
    } else {
        (r >> ((i % per) as u32 * bits)) & ((1 << bits) - 1)
    }
}

/// Row and column of C/D element `i` of lane `(g, t)`.
fn acc_pos(g: usize, t: usize, i: usize) -> (usize, usize) {
    (g + 8 * (i >> 1), 2 * t + (i & 1))
}

/// `D = A B + C` over a warp: `a`, `b`, `c` are each lane's fragment registers (zeros where the
/// instruction names RZ); returns each lane's D registers.
pub fn multiply(f: &Form, a: &[Vec<u32>], b: &[Vec<u32>], c: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let k = f.k;
    let mut ma = vec![vec![0f64; k]; M];
    let mut mb = vec![vec![0f64; N]; k];
    let mut mc = vec![vec![0f64; N]; M];
    let (pa, pb) = (f.a.per_reg(), f.b.per_reg());
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..M * k / 32 {
            let r = i / pa;
            let (row, col) = (g + 8 * (r & 1), t * pa + i % pa + (k / 2) * (r >> 1));
            ma[row][col] = f.a.value(element(&a[lane], f.a, i));
        }
        for i in 0..k * N / 32 {
            let row = t * pb + i % pb + (k / 2) * (i / pb);
            mb[row][g] = f.b.value(element(&b[lane], f.b, i));
        }
        for i in 0..M * N / 32 {
            let (row, col) = acc_pos(g, t, i);
            mc[row][col] = f.acc.value(element(&c[lane], f.acc, i));
        }
    }
    (0..32)
        .map(|lane| {
            let (g, t) = (lane / 4, lane % 4);
            let mut out = vec![0u32; f.acc_regs()];
            for i in 0..M * N / 32 {
                let (row, col) = acc_pos(g, t, i);
                let s: f64 = (0..k).map(|x| ma[row][x] * mb[x][col]).sum::<f64>() + mc[row][col];
                let per = f.acc.per_reg();
                let raw = round_acc(s, f.acc);
                out[i / per] |= raw << ((i % per) as u32 * f.acc.bits() as u32);
            }
            out
        })
        .collect()
}

/// `s` rounded to nearest into the accumulator type.
pub(crate) fn round_acc(s: f64, acc: Elem) -> u32 {
    match acc {
        Elem::F16 => round_half(s, 0.0, F16, 0) as u32,
        _ if s.is_nan() => 0x7fff_ffff,
        _ => (s as f32).to_bits(),
    }
}
