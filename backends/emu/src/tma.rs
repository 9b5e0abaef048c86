//! sm_90's TMA and bulk copies, run at once: UTMALDG (tile mode, global to shared memory, its
//! bytes completed on the mbarrier), UTMASTG (shared to global), UBLKCP (S.G, G.S, S.S), and the
//! prefetches UTMAPF / UBLKPF (no architectural effect). Each is a uniform instruction: it issues
//! once for the warp with the uniform registers' values.
//!
//! The tensor map is the 128-byte object at the generic address in the map's register pair, read
//! from global memory and decoded by `ptxforge_device::tensor_map` (its layout, and what is
//! modelled: anything else is reported as unsupported). Out-of-bounds elements load as zero and
//! are not stored. Clusters are of one CTA: a multicast mask must name only CTA 0.

use super::{unsupported, Run, Warp, WARP};
use crate::decode::tma_decode::{dims, group_len};
use crate::decode::{Inst, Op, Operand};
use crate::EmuError;
use ptxforge_device::tensor_map::TensorMap;

impl Run<'_> {
    /// A shared address from a uniform register: its CTA-rank bits (24 and up) must name CTA 0.
    fn cta_shared(&self, i: &Inst, a: u32) -> Result<u64, EmuError> {
        if a >> 24 != 0 {
            return Err(unsupported(i, "shared memory of another CTA".into()));
        }
        Ok(a as u64)
    }

    /// The 128 bytes of the tensor map at the generic address in URb, URb+1.
    fn tensor_map(&mut self, w: &Warp, i: &Inst, l: usize) -> Result<[u8; 128], EmuError> {
        let Operand::Ur(b) = i.b else {
            unreachable!("a tensor op has a map register")
        };
        let addr = w.ureg(b) as u64 | (w.ureg(b + 1) as u64) << 32;
        let mut m = [0u8; 128];
        for k in 0..8 {
            let part = self.load("global", addr + 16 * k as u64, 16, i, w, l)?;
            m[16 * k..16 * k + 16].copy_from_slice(&part);
        }
        Ok(m)
    }

    /// UTMALDG, UTMASTG, UTMAPF, UBLKCP, UBLKPF (module docs).
    pub(crate) fn tma(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        let Some(l) = (0..WARP).find(|&l| exec >> l & 1 == 1) else {
            return Ok(());
        };
        if let (true, Operand::Ur(c)) = (i.bit(75), i.c) {
            let mask = if i.op == Op::Ublkcp {
                w.ureg(c) >> 16
            } else {
                w.ureg(c) & 0xffff
            };
            if mask != 1 {
                return Err(unsupported(i, format!("multicast mask {mask:#x}")));
            }
        }
        match i.op {
            Op::Utmapf | Op::Ublkpf => Ok(()),
            Op::Ublkcp => self.bulk_copy(w, i, l),
            _ => self.tensor_copy(w, i, l),
        }
    }

    fn bulk_copy(&mut self, w: &mut Warp, i: &Inst, l: usize) -> Result<(), EmuError> {
        let (Operand::Ur(a), Operand::Ur(b), Operand::Ur(c)) = (i.a, i.b, i.c) else {
            unreachable!("UBLKCP has three uniform operands")
        };
        let bytes = ((w.ureg(c) & 0xffff) as u64) << 4;
        let pair = |r: u8| w.ureg(r) as u64 | (w.ureg(r + 1) as u64) << 32;
        let (dst, src, to_shared, from_shared) = match i.f(73, 2) {
            1 => (self.cta_shared(i, w.ureg(a))?, pair(b), true, false),
            2 => (pair(a), self.cta_shared(i, w.ureg(b))?, false, true),
            _ => (
                self.cta_shared(i, w.ureg(a))?,
                self.cta_shared(i, w.ureg(b))?,
                true,
                true,
            ),
        };
        let spaces = |shared| if shared { "shared" } else { "global" };
        for k in (0..bytes).step_by(16) {
            let v = self.load(spaces(from_shared), src + k, 16, i, w, l)?;
            self.store(spaces(to_shared), dst + k, &v, i, w, l)?;
        }
        if to_shared {
            let bar = self.cta_shared(i, w.ureg(a + 1))?;
            self.complete_tx_bytes(bar, bytes, i, w, l)?;
        }
        Ok(())
    }

    fn tensor_copy(&mut self, w: &mut Warp, i: &Inst, l: usize) -> Result<(), EmuError> {
        let Operand::Ur(g) = i.a else {
            unreachable!("a tensor op has a register group")
        };
        let rank = dims(i) as usize;
        let load = i.op == Op::Utmaldg;
        let map = self.tensor_map(w, i, l)?;
        let t = TensorMap::parse(&map, rank).map_err(|what| unsupported(i, what))?;
        let smem = self.cta_shared(i, w.ureg(g))?;
        let first = (group_len(i) as usize - rank) as u8;
        let coords: Vec<i64> = (0..rank)
            .map(|k| w.ureg(g + first + k as u8) as i32 as i64)
            .collect();
        let n: u64 = t.boxes[..rank].iter().product();
        let esize = t.esize as usize;
        for e in 0..n {
            let (mut rest, mut addr, mut inside) = (e, t.base as i64, true);
            for k in 0..rank {
                let x = coords[k] + (rest % t.boxes[k]) as i64;
                rest /= t.boxes[k];
                inside &= x >= 0 && (x as u64) < t.dims[k];
                addr += x * t.strides[k] as i64;
            }
            let at = smem + e * t.esize;
            if load {
                let v = match inside {
                    true => self.load("global", addr as u64, esize, i, w, l)?,
                    false => [0; 16],
                };
                self.store("shared", at, &v[..esize], i, w, l)?;
            } else if inside {
                let v = self.load("shared", at, esize, i, w, l)?;
                self.store("global", addr as u64, &v[..esize], i, w, l)?;
            }
        }
        if load {
            let bar = self.cta_shared(i, w.ureg(g + 1))?;
            self.complete_tx_bytes(bar, n * t.esize, i, w, l)?;
        }
        Ok(())
    }
}
