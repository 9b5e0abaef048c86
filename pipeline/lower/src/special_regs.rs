//! The special registers beyond `%tid`/`%ctaid`/`%laneid`/`%lanemask_*`, read as ptxas reads them
//! on each architecture: the clocks and global timer by CS2R (`.32` for one half, the pair for the
//! 64-bit forms), `%smid` by S2R SR_VIRTUALSMID, `%warpid` and sm_90's `%nwarpid` from the fields at
//! bit 8 of SR_VIRTID / SR_VIRTCFG, the SM count, shared sizes and cluster shape from constant bank
//! 0 (`%envreg0..31` too, at 0x88 before sm_90 and 0x40 on it), `%total_smem_size` as SR_SMEMSZ less the reserved `c[0x0][0x114]`, and on sm_90 the cluster
//! registers: `%cluster_ctarank` is SR_CgaCtaId, `%cluster_ctaid`/`%clusterid` the remainder and
//! quotient of `%ctaid` by the cluster's CTA counts.

use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Where constant bank 0 holds the launch facts these registers read.
mod cbank {
    /// `%dynamic_smem_size`.
    pub const DYNAMIC_SMEM: u32 = 0x2c;
    /// `%nsmid`.
    pub const NSMID: u32 = 0x10c;
    /// The reserved shared memory that SR_SMEMSZ counts and `%total_smem_size` does not.
    pub const RESERVED_SMEM: u32 = 0x114;
    /// `%cluster_nctaid.{x,y,z}`.
    pub const CLUSTER_NCTAID: u32 = 0x144;
    /// `%nclusterid.{x,y,z}`.
    pub const NCLUSTERID: u32 = 0x15c;
    /// `%cluster_nctarank`.
    pub const CLUSTER_NCTARANK: u32 = 0x188;
    /// `%envreg0` (`%envregN` is 4 N bytes on), sm_75..sm_89 and sm_90.
    pub const ENVREG: u32 = 0x88;
    pub const ENVREG_SM90: u32 = 0x40;
}

/// Where constant bank 0 holds `%envreg<n>` (n in 0..32) on `sm`.
fn envreg_offset(sm: u32, n: u32) -> u32 {
    let base = if sm >= 90 {
        cbank::ENVREG_SM90
    } else {
        cbank::ENVREG
    };
    base + 4 * n
}

/// `%nwarpid` before sm_90, where ptxas writes it as a constant: the most warps an SM holds.
fn max_warps_per_sm(sm: u32) -> u32 {
    match sm {
        75 => 32,
        86 | 87 | 89 => 48,
        _ => 64,
    }
}

/// The PTX spelling of a special register, for messages.
fn spelled(name: &str, comp: Option<char>) -> String {
    match comp {
        Some(c) => format!("{name}.{c}"),
        None => name.to_string(),
    }
}

impl Ctx<'_> {
    /// A 32-bit special register that `ctx.rs`'s own list does not read (`axis` from `.x/.y/.z`).
    pub(crate) fn other_special_reg(
        &mut self,
        name: &str,
        comp: Option<char>,
        axis: u32,
    ) -> LResult<Reg> {
        let t = self.temp();
        let cluster = name.starts_with("%cluster") || name.ends_with("clusterid");
        if cluster && self.sm.num < 90 {
            return Err(format!(
                "Feature '{}' requires .target sm_90 or higher",
                spelled(name, None)
            ));
        }
        let cs2r = |sr| Opcode::Cs2r { sr, wide: false };
        match name {
            "%clock" => self.emit(cs2r(SpecialReg::ClockLo), &[Dst::Reg(t)], &[]),
            "%clock_hi" => self.emit(cs2r(SpecialReg::ClockHi), &[Dst::Reg(t)], &[]),
            "%globaltimer_lo" => self.emit(cs2r(SpecialReg::GlobalTimerLo), &[Dst::Reg(t)], &[]),
            "%globaltimer_hi" => self.emit(cs2r(SpecialReg::GlobalTimerHi), &[Dst::Reg(t)], &[]),
            "%smid" => self.emit(Opcode::S2r(SpecialReg::VirtualSmId), &[Dst::Reg(t)], &[]),
            "%nsmid" => self.load_const(t, cbank::NSMID),
            "%warpid" => return Ok(self.virtual_field(SpecialReg::VirtId, 0x7f)),
            "%nwarpid" if self.sm.num >= 90 => {
                return Ok(self.virtual_field(SpecialReg::VirtCfg, 0xff))
            }
            "%nwarpid" => {
                let n = max_warps_per_sm(self.sm.num);
                self.emit(Opcode::Mov, &[Dst::Reg(t)], &[Src::imm(n)]);
            }
            "%dynamic_smem_size" => self.load_const(t, cbank::DYNAMIC_SMEM),
            "%total_smem_size" => return Ok(self.total_smem_size()),
            "%cluster_ctarank" => self.emit(Opcode::S2r(SpecialReg::CgaCtaId), &[Dst::Reg(t)], &[]),
            "%cluster_nctarank" => self.load_const(t, cbank::CLUSTER_NCTARANK),
            "%cluster_nctaid" => self.load_const(t, cbank::CLUSTER_NCTAID + 4 * axis),
            "%nclusterid" => self.load_const(t, cbank::NCLUSTERID + 4 * axis),
            "%cluster_ctaid" => return Ok(self.ctaid_by_cluster(axis, true)),
            "%clusterid" => return Ok(self.ctaid_by_cluster(axis, false)),
            _ if envreg_index(name).is_some() => {
                let n = envreg_index(name).unwrap_or(0);
                self.load_const(t, envreg_offset(self.sm.num, n));
            }
            _ => {
                return Err(format!(
                    "special register '{}' is not supported yet",
                    spelled(name, comp)
                ))
            }
        }
        Ok(t)
    }

    /// A 64-bit special register: `%clock64` and `%globaltimer` as CS2R of the register pair.
    pub(crate) fn special_reg64(&mut self, name: &str, comp: Option<char>) -> LResult<(Src, Src)> {
        let sr = match name {
            "%clock64" => SpecialReg::ClockLo,
            "%globaltimer" => SpecialReg::GlobalTimerLo,
            _ => {
                return Err(format!(
                    "64-bit read of special register '{}' is not supported yet",
                    spelled(name, comp)
                ))
            }
        };
        let t = self.temp64();
        self.emit(Opcode::Cs2r { sr, wide: true }, &[Dst::Reg(t)], &[]);
        Ok((Src::reg(t.part(0)), Src::reg(t.part(1))))
    }

    /// `(SR >> 8) & mask`: the warp's slot (SR_VIRTID) or the SM's warp count (SR_VIRTCFG).
    fn virtual_field(&mut self, sr: SpecialReg, mask: u32) -> Reg {
        let raw = self.temp();
        self.emit(Opcode::S2r(sr), &[Dst::Reg(raw)], &[]);
        let shifted = self.temp();
        let shr = Opcode::Shf {
            right: true,
            signed: false,
            wide: false,
            hi: true,
        };
        self.emit(
            shr,
            &[Dst::Reg(shifted)],
            &[Src::ZERO, Src::imm(8), Src::reg(raw)],
        );
        let t = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(t), Dst::None],
            &[Src::reg(shifted), Src::imm(mask), Src::ZERO, Src::FALSE],
        );
        t
    }

    /// SR_SMEMSZ less the reserved shared memory.
    fn total_smem_size(&mut self) -> Reg {
        let raw = self.temp();
        self.emit(Opcode::S2r(SpecialReg::SmemSz), &[Dst::Reg(raw)], &[]);
        let reserved = self.temp();
        self.load_const(reserved, cbank::RESERVED_SMEM);
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[Src::reg(raw), Src::reg(reserved).negated(), Src::ZERO],
        );
        t
    }

    /// `%ctaid` on `axis` by the cluster's CTA count there: the remainder is the CTA's place in its
    /// cluster (`%cluster_ctaid`), the quotient the cluster's place in the grid (`%clusterid`).
    fn ctaid_by_cluster(&mut self, axis: u32, rem: bool) -> Reg {
        let ctaid = self.temp();
        let sr = [SpecialReg::CtaIdX, SpecialReg::CtaIdY, SpecialReg::CtaIdZ][axis as usize];
        self.emit(Opcode::S2r(sr), &[Dst::Reg(ctaid)], &[]);
        let n = self.temp();
        self.load_const(n, cbank::CLUSTER_NCTAID + 4 * axis);
        self.divide32(Src::reg(ctaid), Src::reg(n), false, rem)
    }
}

/// `n` of `%envreg<n>` (0..31).
fn envreg_index(name: &str) -> Option<u32> {
    name.strip_prefix("%envreg")?
        .parse()
        .ok()
        .filter(|&n| n < 32)
}
