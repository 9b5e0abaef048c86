//! The sm_80 asynchronous copies and matrix loads: LDGSTS (copied at issue, so LDGDEPBAR and
//! DEPBAR.LE SB0 have nothing left to wait for) and LDSM (8x8 b16 matrices spread over the warp).

use super::{access_bytes, unsupported, Run, Warp, WARP};
use crate::decode::Inst;
use crate::EmuError;

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

impl Run<'_> {
    /// `LDGSTS[.ZFILL] [Rs + off], [Ra.64 + off][, P]` for one lane: `size` bytes from global
    /// memory to shared; with ZFILL the address's low bits count the bytes zeroed at the end (all
    /// of them when P is false).
    pub(crate) fn ldgsts(&mut self, w: &mut Warp, i: &Inst, l: usize) -> Result<(), EmuError> {
        let size = access_bytes(i.f(73, 3)) as u64;
        let a = i.f(24, 8) as u8;
        let s = i.f(16, 8) as u8;
        let src = (w.reg(a, l) as u64 | (w.reg(a.saturating_add(1), l) as u64) << 32)
            .wrapping_add(sext(i.f(32, 12) as u64, 12) as u64);
        let dst =
            (w.reg(s, l) as u64).wrapping_add(sext(i.f(44, 20) as u64, 20) as u64) & 0xffff_ffff;
        let mut data = vec![0u8; size as usize];
        let read = if !i.bit(82) {
            size
        } else if w.pred(i.pred(87), l) {
            size - (src & (size - 1))
        } else {
            0
        };
        // A partial copy reads its bytes one by one (they need not be aligned to their count).
        let from = src & !(size - 1);
        for (k, b) in data.iter_mut().enumerate().take(read as usize) {
            *b = self.load("global", from + k as u64, 1, i, w, l)?[0];
        }
        self.store("shared", dst, &data, i, w, l)
    }

    /// `LDSM.16.{M88,MT88}[.2|.4] Rd, [Ra + off]`: matrix j's rows at the addresses of lanes
    /// 8j..8j+7; lane l gets row l/4, columns 2(l%4) and 2(l%4)+1 of each matrix into Rd+j (with
    /// MT88 the transposed matrix's).
    pub(crate) fn ldsm(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        if exec != u32::MAX {
            return Err(unsupported(i, "LDSM with a partial warp".into()));
        }
        let count = 1usize << i.f(72, 2);
        let trans = i.bit(78);
        let (a, d) = (i.f(24, 8) as u8, i.f(16, 8) as u8);
        // With bit 91 a uniform register is added (`[R2+UR4]`, sm_90's shared window base).
        let ur = if i.bit(91) {
            w.ureg(i.f(32, 6) as u8) as u64
        } else {
            0
        };
        let off = (sext(i.f(40, 24) as u64, 24) as u64).wrapping_add(ur);
        let mut out = vec![[0u32; 4]; WARP];
        for j in 0..count {
            let mut m = [[0u16; 8]; 8];
            for (r, row) in m.iter_mut().enumerate() {
                let lane = 8 * j + r;
                let addr = (w.reg(a, lane) as u64).wrapping_add(off) & 0xffff_ffff;
                let bytes = self.load("shared", addr, 16, i, w, lane)?;
                for (c, e) in row.iter_mut().enumerate() {
                    *e = u16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]);
                }
            }
            for (l, o) in out.iter_mut().enumerate() {
                let (r, c) = (l / 4, 2 * (l % 4));
                let (lo, hi) = if trans {
                    (m[c][r], m[c + 1][r])
                } else {
                    (m[r][c], m[r][c + 1])
                };
                o[j] = lo as u32 | (hi as u32) << 16;
            }
        }
        for (l, o) in out.iter().enumerate() {
            for (j, v) in o.iter().enumerate().take(count) {
                w.set_reg(d.saturating_add(j as u8), l, *v);
            }
        }
        Ok(())
    }
}
