//! Warpgroup MMAs (`wgmma.*`, sm_90a): `wgmma.mma_async` with A and B in shared memory, computed
//! by each thread for its own accumulator elements when it issues (`fence`, `commit_group` and
//! `wait_group` have nothing left to order).
//!
//! D's layout (PTX ISA, wgmma m64nNk*): warp `w` of the warpgroup holds rows `16 w..16 w + 15`;
//! with `g = lane / 4`, `t = lane % 4`, accumulator element `i` is row `16 w + g + 8 ((i / 2) % 2)`,
//! column `8 (i / 4) + 2 t + i % 2` (two elements per register for f16 accumulators).
//!
//! Shared-memory operands are read through their matrix descriptors (start address 0..13, leading
//! dimension byte offset 16..29, stride dimension byte offset 32..45, each in 16-byte units, base
//! offset 49..51, swizzle mode 62..63). The K-major no-swizzle ("interleave") layout is modelled:
//! 8-row by 16-byte core matrices, each 128 contiguous bytes (row r at 16 r), core matrices
//! adjacent in K `LBO` bytes apart and adjacent in M (N for B) `SBO` bytes apart. Swizzled
//! layouts, transposed (MN-major) operands, a base offset and register A are reported as not
//! supported, never computed wrongly. Numerics are `mma.rs`'s: exact products, the sum in f64,
//! one rounding.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, unsupported};
use crate::float::{self, Rnd};
use crate::machine::{Cta, Flow};
use crate::mma::Elem;
use crate::prep::{Ins, Opnd};

/// A K-major, unswizzled shared-memory operand as its descriptor gives it.
struct Desc {
    start: u64,
    lbo: u64,
    sbo: u64,
}

impl Desc {
    fn decode(d: u64, ins: &Ins) -> Result<Desc, SimError> {
        if d >> 62 != 0 {
            return Err(unsupported(ins, "swizzled shared-memory layout"));
        }
        if (d >> 49) & 7 != 0 {
            return Err(unsupported(ins, "matrix base offset"));
        }
        let field = |pos: u32| ((d >> pos) & 0x3fff) << 4;
        Ok(Desc {
            start: field(0),
            lbo: field(16),
            sbo: field(32),
        })
    }

    /// The address of the byte `kb` of K in row `r` (of M for A, of N for B).
    fn addr(&self, r: u64, kb: u64) -> u64 {
        self.start + (r / 8) * self.sbo + (kb / 16) * self.lbo + (r % 8) * 16 + kb % 16
    }
}

impl Cta<'_, '_> {
    /// `wgmma.fence`, `commit_group`, `wait_group` (nothing to do) and `mma_async`.
    pub(crate) fn wgmma(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.has("mma_async") {
            self.wgmma_mma(t, ins)?;
        }
        Ok(Flow::Next)
    }

    /// One value of operand `op` (A: rows of M, B: rows of N) at `row`, K index `k`.
    fn wgmma_elem(
        &mut self,
        t: usize,
        ins: &Ins,
        desc: &Desc,
        e: Elem,
        row: u64,
        k: u64,
    ) -> Result<f64, SimError> {
        let bits = e.bits() as u64;
        let kb = k * bits / 8;
        let bytes = self.shared_bytes(t, ins, desc.addr(row, kb) & !15)?;
        let off = (desc.addr(row, kb) % 16) as usize;
        let mut raw = 0u64;
        for (n, b) in bytes[off..off + (bits / 8) as usize].iter().enumerate() {
            raw |= (*b as u64) << (8 * n);
        }
        Ok(e.decode(raw))
    }

    fn wgmma_mma(&mut self, t: usize, ins: &Ins) -> Result<(), SimError> {
        if ins.has("sp") {
            return Err(unsupported(ins, "sparse wgmma"));
        }
        let shape = ins
            .mods
            .iter()
            .find_map(|m| m.strip_prefix("m64n"))
            .and_then(|r| r.split_once('k'))
            .and_then(|(n, k)| Some((n.parse::<u64>().ok()?, k.parse::<u64>().ok()?)));
        let Some((n, k)) = shape else {
            return Err(unsupported(ins, "wgmma shape"));
        };
        let elems: Vec<Elem> = ins.mods.iter().filter_map(|m| Elem::parse(m)).collect();
        let [d_e, a_e, b_e] = elems[..] else {
            return Err(unsupported(ins, "wgmma types"));
        };
        if matches!(operand(ins, 1)?, Opnd::Vec(_)) {
            return Err(unsupported(ins, "wgmma with A in registers"));
        }
        let imm = |i: usize| match ins.ops.get(i) {
            Some(Opnd::Imm(v)) => Some(*v as i64),
            _ => None,
        };
        let floating = !d_e.is_int();
        let neg_a = floating && imm(4) == Some(-1);
        let neg_b = floating && imm(5) == Some(-1);
        let transposed =
            matches!(a_e, Elem::F16 | Elem::BF16) && (imm(6) == Some(1) || imm(7) == Some(1));
        if transposed {
            return Err(unsupported(ins, "transposed (MN-major) wgmma operand"));
        }
        let da = Desc::decode(self.read(t, operand(ins, 1)?, Type::B64)?, ins)?;
        let db = Desc::decode(self.read(t, operand(ins, 2)?, Type::B64)?, ins)?;
        let scale_d = self.read(t, operand(ins, 3)?, Type::Pred)? != 0;
        let dst = match operand(ins, 0)? {
            Opnd::Vec(v) => v.clone(),
            _ => return Err(unsupported(ins, "wgmma accumulator")),
        };
        let per = (32 / d_e.bits()) as usize;
        if dst.len() * per != n as usize / 2 {
            return Err(unsupported(ins, "wgmma accumulator size"));
        }
        let th = &self.threads[t];
        let (w, lane) = (th.warp() as u64 % 4, th.lane() as u64);
        let (g, tq) = (lane / 4, lane % 4);
        let mut regs = vec![0u64; dst.len()];
        for (r, o) in dst.iter().enumerate() {
            let c = self.read(t, o, Type::B32)?;
            for h in 0..per {
                let i = (r * per + h) as u64;
                let (row, col) = (16 * w + g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * tq + i % 2);
                let c = (c >> (h as u32 * d_e.bits())) & ((1u64 << d_e.bits()) - 1);
                // Products summed in k order, then C (as `mma.rs` and the emulator add).
                let (mut sum, mut isum) = (0f64, 0i64);
                for kk in 0..k {
                    let a = self.wgmma_elem(t, ins, &da, a_e, row, kk)?;
                    let b = self.wgmma_elem(t, ins, &db, b_e, col, kk)?;
                    if floating {
                        let (a, b) = (if neg_a { -a } else { a }, if neg_b { -b } else { b });
                        sum += a * b;
                    } else {
                        isum += a as i64 * b as i64;
                    }
                }
                if scale_d {
                    sum += d_e.decode(c);
                    isum += d_e.decode(c) as i64;
                }
                let raw = if !floating {
                    (if ins.has("satfinite") {
                        isum.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        isum as i32 as i64
                    }) as u32 as u64
                } else if d_e == Elem::F16 {
                    float::round_to(sum, 0, Rnd::Rn, float::F16)
                } else {
                    float::round_to(sum, 0, Rnd::Rn, float::F32)
                };
                regs[r] |= raw << (h as u32 * d_e.bits());
            }
        }
        for (o, v) in dst.iter().zip(regs) {
            self.write(t, o, v, Type::B32)?;
        }
        Ok(())
    }
}
