//! The warpgroup MMAs of sm_90a: HGMMA (0x9f0), IGMMA (0x9f1), QGMMA (0x9f3) with A and B in
//! shared memory, and WARPGROUP.ARRIVE / WARPGROUP.DEPBAR.LE gsb0 (0x9c5).
//!
//! Each warp computes its own 16 rows of the 64-row D when the MMA issues (warp `w % 4` of the
//! warpgroup, rows `16 (w % 4)..`), so the warpgroup needs no rendezvous. The asynchrony is
//! checked instead: from an MMA until the WARPGROUP.DEPBAR that retires its group (groups end at
//! an MMA with `gsb0`; DEPBAR.LE n leaves the newest n closed groups in flight), no other
//! instruction may read or write its accumulator registers.
//!
//! Fields (learned from ptxas 13.5 and nvdisasm, as `ptxforge-sass`'s `encode_wgmma.rs`): D 16..23,
//! descriptor group UR 24..29 (A's descriptor in URx, URx+1; B's in URx+2, URx+3), shape 53..58,
//! tnspA 61, tnspB 62, negB 63, C 64..71 (RZ: none), negA 72, F32 accumulator 75 (`.SAT` on IGMMA),
//! types 76..77 and 82, group end 84..86 (0 = gsb0), scale-d uniform predicate 87..89 stored as
//! `7 - index`, its negation 90. Descriptors: start address 0..13, leading dimension byte offset
//! 16..29, stride dimension byte offset 32..45 (16-byte units), base offset 49..51, swizzle 62..63.
//! Modelled: the K-major no-swizzle layout (8-row by 16-byte core matrices of 128 contiguous
//! bytes, LBO apart along K and SBO apart along M or N). Swizzled layouts, transposes, a base
//! offset and A in registers are reported as unsupported. Numerics as HMMA's (`mma.rs`): exact
//! products summed in f64 in k order, then C, one rounding.

use super::{unsupported, Run, Warp, WARP};
use crate::decode::{Inst, Op, RegRange};
use crate::mma::Elem;
use crate::EmuError;

/// The accumulator registers of MMAs still in flight: the open group and the closed ones, oldest
/// first.
#[derive(Clone, Debug, Default)]
pub(crate) struct InFlight {
    open: Vec<(u8, u8)>,
    closed: Vec<Vec<(u8, u8)>>,
}

impl InFlight {
    fn holds(&self, r: u8) -> bool {
        self.open
            .iter()
            .chain(self.closed.iter().flatten())
            .any(|&(base, n)| (base..base.saturating_add(n)).contains(&r))
    }
}

/// An element type of a warpgroup MMA's A or B.
#[derive(Copy, Clone, PartialEq, Debug)]
enum In {
    Float(Elem),
    Int { signed: bool },
}

impl In {
    fn bytes(self) -> usize {
        match self {
            In::Float(Elem::F16 | Elem::Bf16) => 2,
            In::Float(Elem::Tf32 | Elem::F32) => 4,
            _ => 1,
        }
    }

    fn value(self, raw: u32) -> f64 {
        match self {
            In::Float(e) => e.value(raw),
            In::Int { signed: true } => raw as u8 as i8 as f64,
            In::Int { signed: false } => raw as u8 as f64,
        }
    }
}

/// What an HGMMA/IGMMA/QGMMA word says.
struct Form {
    n: usize,
    k: usize,
    a: In,
    b: In,
    /// The accumulator: f16, f32 or (None) s32.
    acc: Option<Elem>,
    sat: bool,
    neg_a: bool,
    neg_b: bool,
}

fn form(i: &Inst) -> Result<Form, String> {
    if i.bit(61) || i.bit(62) {
        return Err("transposed (MN-major) operand".into());
    }
    if i.f(0, 12) & 0x400 != 0 {
        return Err("A in registers".into());
    }
    if i.bit(73) {
        return Err("sparse form".into());
    }
    let shape = i.f(53, 6) as usize;
    let f32_acc = i.bit(75);
    let acc = if f32_acc { Elem::F32 } else { Elem::F16 };
    let (a, b, k, n, acc, sat) = match i.op {
        Op::Hgmma => {
            let e = match i.f(76, 2) {
                0 => Elem::F16,
                1 => Elem::Bf16,
                2 => Elem::Tf32,
                _ => return Err("HGMMA type".into()),
            };
            let k = if shape >= 32 { 8 } else { 16 };
            (
                In::Float(e),
                In::Float(e),
                k,
                8 * (shape % 32 + 1),
                Some(acc),
                false,
            )
        }
        Op::Qgmma => {
            let e = |bit| if i.bit(bit) { Elem::E5m2 } else { Elem::E4m3 };
            (
                In::Float(e(76)),
                In::Float(e(77)),
                32,
                8 * (shape + 1),
                Some(acc),
                false,
            )
        }
        _ => {
            if shape % 3 != 0 {
                return Err("IGMMA shape".into());
            }
            let idx = shape / 3;
            let n = if idx <= 3 {
                8 * (idx + 1)
            } else {
                16 * (idx - 1)
            };
            let (a, b) = (In::Int { signed: i.bit(76) }, In::Int { signed: i.bit(82) });
            (a, b, 32, n, None, f32_acc)
        }
    };
    if n > 256 || (k == 8 && a != In::Float(Elem::Tf32)) {
        return Err("GMMA shape".into());
    }
    Ok(Form {
        n,
        k,
        a,
        b,
        acc,
        sat,
        neg_a: i.bit(72),
        neg_b: i.bit(63),
    })
}

impl Form {
    fn acc_regs(&self) -> usize {
        if self.acc == Some(Elem::F16) {
            self.n / 4
        } else {
            self.n / 2
        }
    }
}

/// The reads and writes of a warpgroup MMA for the decoder: C, the descriptor group and the
/// scale-d predicate are read; D is left to [`check_in_flight`], which knows when it lands.
pub(crate) fn operands(i: &Inst) -> Result<(Vec<RegRange>, (u8, bool)), String> {
    let f = form(i)?;
    let mut reads = Vec::new();
    let c = i.f(64, 8) as u8;
    if c != crate::decode::RZ {
        reads.push(RegRange {
            file: crate::decode::File::R,
            idx: c,
            n: f.acc_regs() as u8,
        });
    }
    let ur = i.f(24, 6) as u8;
    if ur != crate::decode::URZ {
        reads.push(RegRange {
            file: crate::decode::File::Ur,
            idx: ur,
            n: 4,
        });
    }
    Ok((reads, (7 - i.f(87, 3) as u8, i.bit(90))))
}

/// A K-major unswizzled operand's descriptor.
struct Desc {
    start: u64,
    lbo: u64,
    sbo: u64,
}

impl Desc {
    fn decode(d: u64) -> Result<Desc, String> {
        if d >> 62 != 0 {
            return Err("swizzled shared-memory layout".into());
        }
        if (d >> 49) & 7 != 0 {
            return Err("matrix base offset".into());
        }
        let field = |pos: u32| ((d >> pos) & 0x3fff) << 4;
        Ok(Desc {
            start: field(0),
            lbo: field(16),
            sbo: field(32),
        })
    }

    fn addr(&self, r: u64, kb: u64) -> u64 {
        self.start + (r / 8) * self.sbo + (kb / 16) * self.lbo + (r % 8) * 16 + kb % 16
    }
}

/// Fails when `i` touches an accumulator still in flight; records the MMA groups and retires
/// them at WARPGROUP.DEPBAR.
pub(crate) fn check_in_flight(w: &mut Warp, i: &Inst) -> Result<(), EmuError> {
    let gmma = matches!(i.op, Op::Hgmma | Op::Igmma | Op::Qgmma);
    if !gmma && i.op != Op::Warpgroup {
        let touched = i
            .reads
            .iter()
            .chain(&i.writes)
            .filter(|r| r.file == crate::decode::File::R)
            .flat_map(|r| (0..r.n).map(move |k| r.idx.wrapping_add(k)))
            .find(|&r| w.gmma.holds(r));
        if let Some(r) = touched {
            return Err(unsupported(
                i,
                format!("R{r} used while a warpgroup MMA writing it is in flight (hazard)"),
            ));
        }
    }
    if gmma {
        let f = form(i).map_err(|e| unsupported(i, e))?;
        w.gmma.open.push((i.f(16, 8) as u8, f.acc_regs() as u8));
        if i.f(84, 3) == 0 {
            let group = std::mem::take(&mut w.gmma.open);
            w.gmma.closed.push(group);
        }
    } else if i.op == Op::Warpgroup && i.bit(80) {
        let keep = i.f(72, 3) as usize;
        let n = w.gmma.closed.len();
        w.gmma.closed.drain(..n.saturating_sub(keep));
    }
    Ok(())
}

impl Run<'_> {
    /// HGMMA/IGMMA/QGMMA for one warp of the warpgroup (see the module's comment).
    pub(crate) fn gmma(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        if exec == 0 {
            return Ok(());
        }
        if exec != u32::MAX {
            return Err(unsupported(i, "warpgroup MMA with a partial warp".into()));
        }
        let f = form(i).map_err(|e| unsupported(i, e))?;
        let ur = i.f(24, 6) as u8;
        let desc = |k: u8| w.ureg(ur + k) as u64 | (w.ureg(ur + k + 1) as u64) << 32;
        let da = Desc::decode(desc(0)).map_err(|e| unsupported(i, e))?;
        let db = Desc::decode(desc(2)).map_err(|e| unsupported(i, e))?;
        let (p, neg) = (7 - i.f(87, 3) as usize, i.bit(90));
        let scale_d = w.up[p & 7] != neg;
        let (c, d) = (i.f(64, 8) as u8, i.f(16, 8) as u8);
        let warp = w.index as u64 % 4;
        // This warp's 16 rows of A and all N rows of B, as values.
        let load = |run: &mut Self, desc: &Desc, e: In, rows: std::ops::Range<u64>| {
            let mut m = Vec::new();
            for r in rows {
                let mut row = Vec::with_capacity(f.k);
                for kk in 0..f.k as u64 {
                    let kb = kk * e.bytes() as u64;
                    let bytes = run.load("shared", desc.addr(r, kb), e.bytes(), i, w, 0)?;
                    let raw = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                    let raw = if e.bytes() == 4 {
                        raw
                    } else {
                        raw & ((1 << (8 * e.bytes())) - 1)
                    };
                    row.push(e.value(raw));
                }
                m.push(row);
            }
            Ok::<_, EmuError>(m)
        };
        let a = load(self, &da, f.a, 16 * warp..16 * warp + 16)?;
        let b = load(self, &db, f.b, 0..f.n as u64)?;
        let per = if f.acc == Some(Elem::F16) { 2 } else { 1 };
        for l in 0..WARP {
            let (g, t) = (l / 4, l % 4);
            for r in 0..f.acc_regs() {
                let old = if c == crate::decode::RZ {
                    0
                } else {
                    w.reg(c + r as u8, l)
                };
                let mut out = 0u32;
                for h in 0..per {
                    let e = r * per + h;
                    let (row, col) = (g + 8 * ((e / 2) % 2), 8 * (e / 4) + 2 * t + e % 2);
                    let bits = 32 / per;
                    let craw = if per == 2 {
                        old >> (16 * h) & 0xffff
                    } else {
                        old
                    };
                    out |= self.gmma_element(&f, &a[row], &b, col, craw, scale_d) << (bits * h);
                }
                w.set_reg(d + r as u8, l, out);
            }
        }
        Ok(())
    }

    /// One element of D: `sum over k of a b` in k order, plus C when scale-d holds, rounded once.
    fn gmma_element(
        &self,
        f: &Form,
        a: &[f64],
        b: &[Vec<f64>],
        col: usize,
        c: u32,
        scale_d: bool,
    ) -> u32 {
        match f.acc {
            Some(acc) => {
                let mut s = 0f64;
                for (k, av) in a.iter().enumerate() {
                    let (x, y) = (if f.neg_a { -av } else { *av }, b[col][k]);
                    s += x * if f.neg_b { -y } else { y };
                }
                if scale_d {
                    s += acc.value(c);
                }
                crate::mma::round_acc(s, acc)
            }
            None => {
                let mut s: i64 = a
                    .iter()
                    .zip(&b[col])
                    .map(|(x, y)| *x as i64 * *y as i64)
                    .sum();
                if scale_d {
                    s += c as i32 as i64;
                }
                (if f.sat {
                    s.clamp(i32::MIN as i64, i32::MAX as i64)
                } else {
                    s as i32 as i64
                }) as u32
            }
        }
    }
}
