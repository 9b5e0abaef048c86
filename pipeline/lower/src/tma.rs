//! Lowering of sm_90's TMA and bulk copies as ptxas 13.5 writes them: `cp.async.bulk.tensor.{1..5}d`
//! in tile mode (loads to shared memory with `.mbarrier::complete_tx::bytes`, `.multicast::cluster`
//! and `.L2::cache_hint`; stores as a `.bulk_group`), `cp.reduce.async.bulk.tensor` (UTMAREDG),
//! `cp.async.bulk.prefetch.tensor` (UTMAPF.L2), the non-tensor `cp.async.bulk` (UBLKCP: global or
//! a CTA's shared memory to shared memory with an mbarrier, shared to global as a bulk group),
//! `cp.async.bulk.prefetch.L2` (UBLKPF), `cp.async.bulk.commit_group` (UTMACMDFLUSH, counted on
//! SB0 as LDGDEPBAR is) and `cp.async.bulk.wait_group[.read] n` (DEPBAR.LE SB0, n; without
//! `.read` also CCTL.IVALL).
//!
//! Each lane that executes a PTX copy issues its own, so the copy is a loop over the lanes, as in
//! ptxas's code: one of the lanes still waiting is picked (the one whose lane id R2UR of the
//! waiting lanes returns; ptxas uses ELECT), R2UR moves that lane's operands into the
//! instruction's uniform registers, the copy issues once, the lane drops out, and the warp
//! branches back while any lane waits. The test is R2UR of the waiting lanes into a uniform
//! register set to 0 before, so every lane of the warp sees the same answer and the warp
//! branches together (ptxas writes BRA.U.ANY), with no warp collective that would need the
//! lanes converged. A UBLKCP size is in 16-byte units in the low half of its register, the multicast
//! mask in the high half. Guarded copies and im2col mode are not supported yet.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand};
use ptxforge_sass::ir::*;
use ptxforge_sass::tma::{BulkDir, BulkRed, TensorAccess, TmaOp};
use ptxforge_sass::warp::WarpOp;

use crate::ctx::{Ctx, LResult};

/// Blocks a lane loop opens after the current one: the loop and the code after it.
pub(crate) const LOOP_BLOCKS: u32 = 2;

fn unsupported(i: &Instruction) -> String {
    format!(
        "'{}.{}' is not supported yet",
        i.opcode(),
        i.mods().join(".")
    )
}

/// Whether `i` is one of this module's instructions.
fn is_bulk(i: &Instruction) -> bool {
    i.opcode() == "cp" && i.has_mod("bulk") && i.has_mod("async")
}

/// Whether `i` is lowered as a lane loop (counted when labels are numbered, `ctx.rs`).
pub(crate) fn is_lane_loop(i: &Instruction) -> bool {
    is_bulk(i) && !i.has_mod("commit_group") && !i.has_mod("wait_group")
}

/// Modifiers that change nothing in the code (`.tile` is the default mode; the completion
/// mechanism and state spaces are implied by the form).
const PLAIN_MODS: [&str; 14] = [
    "cp",
    "async",
    "bulk",
    "tensor",
    "tile",
    "reduce",
    "mbarrier::complete_tx::bytes",
    "bulk_group",
    "shared::cluster",
    "shared::cta",
    "global",
    "multicast::cluster",
    "L2::cache_hint",
    "prefetch",
];

/// The operands of one copy, as 32-bit words in registers, before the loop moves them to UR.
struct Words {
    /// The register group (s0), word by word.
    group: Vec<Src>,
    /// The second address (s1): a global pair or a shared word.
    second: Vec<Src>,
    /// s2: the size word or the multicast mask.
    third: Option<Src>,
    /// s3: the cache hint's two words.
    hint: Option<[Src; 2]>,
}

impl Ctx<'_> {
    /// `cp.async.bulk...` and `cp.reduce.async.bulk...`; `None` for other instructions.
    pub fn lower_tma(&mut self, i: &Instruction) -> Option<LResult<()>> {
        if !is_bulk(i) {
            return None;
        }
        if self.sm.num < 90 {
            return Some(Err(unsupported(i)));
        }
        Some(self.lower_bulk(i))
    }

    fn lower_bulk(&mut self, i: &Instruction) -> LResult<()> {
        if i.has_mod("commit_group") {
            self.emit(Opcode::Tma(TmaOp::BulkCommit), &[], &[]);
            return Ok(());
        }
        if i.has_mod("wait_group") {
            let n = match i.operands.first() {
                Some(Operand::Imm(n)) if (0..64).contains(n) => *n as u8,
                _ => return Err(unsupported(i)),
            };
            self.emit(Opcode::DepbarLe { pending: n }, &[], &[]);
            if !i.has_mod("read") {
                self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
            }
            return Ok(());
        }
        let red = i.has_mod("reduce");
        let red_op = i.mods().iter().find_map(|m| BulkRed::from_ptx(m));
        let dims = i.mods().iter().find_map(|m| match m.as_str() {
            "1d" => Some(1u8),
            "2d" => Some(2),
            "3d" => Some(3),
            "4d" => Some(4),
            "5d" => Some(5),
            _ => None,
        });
        let known = i.mods().iter().all(|m| {
            PLAIN_MODS.contains(&m.as_str())
                || m == "L2" && i.has_mod("prefetch")
                || red && red_op.is_some_and(|r| r.name().eq_ignore_ascii_case(m))
                || dims.is_some() && m.ends_with('d') && m.len() == 2
        });
        if !known || self.guard != Src::TRUE || red && (red_op.is_none() || dims.is_none()) {
            return Err(unsupported(i));
        }
        let (op, words) = match dims {
            Some(dims) => self.tensor_words(i, dims, red_op.filter(|_| red))?,
            None => self.bulk_words(i)?,
        };
        self.lane_loop(op, words);
        Ok(())
    }

    /// The operands of `cp[.reduce].async.bulk[.prefetch].tensor`.
    fn tensor_words(
        &mut self,
        i: &Instruction,
        dims: u8,
        red: Option<BulkRed>,
    ) -> LResult<(TmaOp, Words)> {
        let o = &i.operands[..];
        let hint = i.has_mod("L2::cache_hint");
        let multicast = i.has_mod("multicast::cluster");
        let prefetch = i.has_mod("prefetch");
        let load = i.mods().iter().any(|m| m == "mbarrier::complete_tx::bytes");
        let access = match (prefetch, load, red) {
            (true, false, None) => TensorAccess::Prefetch,
            (false, true, None) => TensorAccess::Load,
            (false, false, None) if i.has_mod("bulk_group") => TensorAccess::Store,
            (false, false, Some(r)) if i.has_mod("bulk_group") => TensorAccess::Reduce(r),
            _ => return Err(unsupported(i)),
        };
        let want = match access {
            TensorAccess::Load => 3 + multicast as usize,
            TensorAccess::Prefetch => 1,
            _ => 2,
        } + hint as usize;
        if o.len() != want || multicast && access != TensorAccess::Load {
            return Err(unsupported(i));
        }
        let tensor = if access == TensorAccess::Load || access == TensorAccess::Prefetch {
            &o[if prefetch { 0 } else { 1 }]
        } else {
            &o[0]
        };
        let (map, coords) = self.tensor_operand(tensor, dims, i)?;
        let mut group = Vec::new();
        match access {
            TensorAccess::Load => {
                group.push(self.shared_word(&o[0])?);
                group.push(self.shared_word(&o[2])?);
            }
            TensorAccess::Store | TensorAccess::Reduce(_) => group.push(self.shared_word(&o[1])?),
            TensorAccess::Prefetch => {}
        }
        group.extend(coords);
        let third = if multicast {
            let mask = self.reg_src32(&o[3])?;
            Some(self.low_half_with(mask, Src::ZERO))
        } else {
            None
        };
        let hint = match hint {
            true => Some(self.global_words(&o[want - 1])?),
            false => None,
        };
        let op = TmaOp::Tensor { access, dims };
        let words = Words {
            group,
            second: map.to_vec(),
            third,
            hint,
        };
        Ok((op, words))
    }

    /// The operands of the non-tensor `cp.async.bulk` and `cp.async.bulk.prefetch.L2`.
    fn bulk_words(&mut self, i: &Instruction) -> LResult<(TmaOp, Words)> {
        let o = &i.operands[..];
        let hint = i.has_mod("L2::cache_hint");
        let multicast = i.has_mod("multicast::cluster");
        let spaces: Vec<&str> = i
            .mods()
            .iter()
            .map(|m| m.as_str())
            .filter(|m| matches!(*m, "global" | "shared::cluster" | "shared::cta"))
            .collect();
        let (op, want) = match (i.has_mod("prefetch"), &spaces[..]) {
            (true, ["global"]) => (TmaOp::BulkPrefetch, 2),
            (false, ["shared::cluster" | "shared::cta", "global"]) => (
                TmaOp::Bulk {
                    dir: BulkDir::GlobalToShared,
                    multicast,
                },
                4 + multicast as usize,
            ),
            (false, ["shared::cluster", "shared::cta"]) => (
                TmaOp::Bulk {
                    dir: BulkDir::SharedToShared,
                    multicast: false,
                },
                4,
            ),
            (false, ["global", "shared::cta"]) => (
                TmaOp::Bulk {
                    dir: BulkDir::SharedToGlobal,
                    multicast: false,
                },
                3,
            ),
            _ => return Err(unsupported(i)),
        };
        let want = want + hint as usize;
        if o.len() != want || multicast && want - hint as usize != 5 {
            return Err(unsupported(i));
        }
        let hint = match hint {
            true => Some(self.global_words(&o[want - 1])?),
            false => None,
        };
        let (group, second, size) = match op {
            TmaOp::BulkPrefetch => (vec![], self.global_address_words(&o[0])?.to_vec(), &o[1]),
            TmaOp::Bulk { dir, .. } => {
                let second = match dir {
                    BulkDir::GlobalToShared => self.global_address_words(&o[1])?.to_vec(),
                    _ => vec![self.shared_word(&o[1])?],
                };
                let group = match dir {
                    BulkDir::SharedToGlobal => self.global_address_words(&o[0])?.to_vec(),
                    _ => vec![self.shared_word(&o[0])?, self.shared_word(&o[3])?],
                };
                (group, second, &o[2])
            }
            _ => return Err(unsupported(i)),
        };
        let units = self.size_units(size)?;
        let mask = match multicast {
            true => self.reg_src32(&o[4])?,
            false => Src::ZERO,
        };
        let third = Some(self.low_half_with(units, mask));
        let words = Words {
            group,
            second,
            third,
            hint,
        };
        Ok((op, words))
    }

    /// `[tmap, {c0, ...}]`: the tensor map's generic address and the coordinates.
    fn tensor_operand(
        &mut self,
        op: &Operand,
        dims: u8,
        i: &Instruction,
    ) -> LResult<([Src; 2], Vec<Src>)> {
        let Operand::Vector(v) = op else {
            return Err(unsupported(i));
        };
        let coords: Vec<&Operand> = match &v[..] {
            [_, Operand::Vector(c)] => c.iter().collect(),
            [_, c] => vec![c],
            _ => return Err(unsupported(i)),
        };
        if coords.len() != dims as usize {
            return Err(unsupported(i));
        }
        let map = self.global_address_words(&v[0])?;
        let mut words = Vec::new();
        for c in coords {
            words.push(self.reg_src32(c)?);
        }
        Ok((map, words))
    }

    /// A shared-memory address operand (`[%r]`, `[var+off]`) as one word in a register.
    fn shared_word(&mut self, op: &Operand) -> LResult<Src> {
        let (base, offset) = self.address(op)?;
        let base = match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                Src::reg(if r.comps == 2 { r.part(0) } else { r })
            }
            AddrBase::Symbol(s) => self.src32(&Operand::Symbol(s.clone()))?,
            AddrBase::None => self.shared_operand(0).0,
        };
        Ok(self.plus(base, offset as u32))
    }

    /// `base + off` in a register.
    fn plus(&mut self, base: Src, off: u32) -> Src {
        if off == 0 {
            return self.in_reg(base);
        }
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[base, Src::imm(off), Src::ZERO],
        );
        Src::reg(t)
    }

    /// A 64-bit global or generic address operand (`[%rd+off]`) as two words in registers.
    fn global_address_words(&mut self, op: &Operand) -> LResult<[Src; 2]> {
        let (base, offset) = self.address(op)?;
        let base = match base {
            AddrBase::Reg(r) => Operand::Reg(r.clone()),
            AddrBase::Symbol(s) => Operand::Symbol(s.clone()),
            AddrBase::None => Operand::Imm(0),
        };
        let (lo, hi) = self.src64(&base)?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        if offset == 0 {
            return Ok([lo, hi]);
        }
        let t = self.temp64();
        let c = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t.part(0)), Dst::Reg(c)],
            &[lo, Src::imm(offset as u32), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(t.part(1)), Dst::None],
            &[
                hi,
                Src::imm((offset >> 32) as u32),
                Src::ZERO,
                Src::reg(c),
                Src::FALSE,
            ],
        );
        Ok([Src::reg(t.part(0)), Src::reg(t.part(1))])
    }

    /// A 64-bit value operand (the cache hint) as two words in registers.
    fn global_words(&mut self, op: &Operand) -> LResult<[Src; 2]> {
        let (lo, hi) = self.src64(op)?;
        Ok([self.in_reg(lo), self.in_reg(hi)])
    }

    /// A byte count in 16-byte units (`size >> 4`).
    fn size_units(&mut self, op: &Operand) -> LResult<Src> {
        let s = self.src32(op)?;
        if let SrcVal::Imm(v) = s.val {
            return Ok(self.in_reg(Src::imm(v >> 4)));
        }
        let s = self.in_reg(s);
        let t = self.temp();
        self.emit(
            crate::intops::shf(true, false, false, true),
            &[Dst::Reg(t)],
            &[Src::ZERO, Src::imm(4), s],
        );
        Ok(Src::reg(t))
    }

    /// The low half of `lo` with the low half of `hi` above it (`PRMT d, lo, 0x5410, hi`).
    fn low_half_with(&mut self, lo: Src, hi: Src) -> Src {
        let t = self.temp();
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        self.emit(
            Opcode::Prmt {
                mode: PrmtMode::Index,
            },
            &[Dst::Reg(t)],
            &[lo, Src::imm(0x5410), hi],
        );
        Src::reg(t)
    }

    /// Words moved into a new uniform group by `@elected R2UR`.
    fn to_uniform(&mut self, words: &[Src], elected: Reg) -> Reg {
        let u = self.f.new_vreg(RegFile::UGpr, words.len() as u8);
        for (k, w) in words.iter().enumerate() {
            let part = if words.len() == 1 { u } else { u.part(k as u8) };
            let i = Instr::new(Opcode::R2ur, &[Dst::Reg(part)], &[*w]).guarded(Src::reg(elected));
            self.f.blocks.last_mut().unwrap().instrs.push(i);
        }
        u
    }

    /// The loop that issues `op` once for each executing lane (module docs).
    fn lane_loop(&mut self, op: TmaOp, w: Words) {
        let cmp = |cmp| Opcode::Isetp {
            cmp,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        let (waiting, chosen, again) = (self.temp_pred(), self.temp_pred(), self.temp_pred());
        let lane = self.temp();
        self.emit(Opcode::S2r(SpecialReg::LaneId), &[Dst::Reg(lane)], &[]);
        let one = self.in_reg(Src::imm(1));
        let always = [Src::ZERO, Src::ZERO, Src::TRUE];
        self.emit(cmp(IntCmp::Eq), &[Dst::Reg(waiting), Dst::None], &always);
        let loop_block = self.f.blocks.len() as u32;
        self.f.blocks.push(Block::default());
        // The lane: the one whose id R2UR of the waiting lanes' ids gives.
        // Some lane waits on every trip, so `picked` is always written; `chosen` holds in the
        // picked lane, so the operands' R2URs always write too.
        let picked = self.to_uniform(&[Src::reg(lane)], waiting);
        self.f.uniform_writes_happen.push(picked.idx);
        let picked_r = self.temp();
        self.emit(Opcode::Mov, &[Dst::Reg(picked_r)], &[Src::reg(picked)]);
        self.emit(
            cmp(IntCmp::Eq),
            &[Dst::Reg(chosen), Dst::None],
            &[Src::reg(lane), Src::reg(picked_r), Src::reg(waiting)],
        );
        self.guard = Src::reg(chosen);
        self.emit(cmp(IntCmp::Ne), &[Dst::Reg(waiting), Dst::None], &always);
        self.guard = Src::TRUE;
        let mut srcs = [Src::NONE; 4];
        if !w.group.is_empty() {
            srcs[0] = Src::reg(self.to_uniform(&w.group, chosen));
        }
        srcs[1] = Src::reg(self.to_uniform(&w.second, chosen));
        if let Some(t) = w.third {
            srcs[2] = Src::reg(self.to_uniform(&[t], chosen));
        }
        if let Some(h) = w.hint {
            srcs[3] = Src::reg(self.to_uniform(&h, chosen));
        }
        for s in srcs.iter().filter_map(Src::as_reg) {
            self.f.uniform_writes_happen.push(s.idx);
        }
        self.emit(Opcode::Tma(op), &[], &srcs);
        // Again while any lane waits: 1 from R2UR of the waiting lanes, else 0.
        let left = self.f.new_vreg(RegFile::UGpr, 1);
        self.emit(Opcode::Umov, &[Dst::Reg(left)], &[Src::imm(0)]);
        let i = Instr::new(Opcode::R2ur, &[Dst::Reg(left)], &[one]).guarded(Src::reg(waiting));
        self.f.blocks.last_mut().unwrap().instrs.push(i);
        let left_r = self.temp();
        self.emit(Opcode::Mov, &[Dst::Reg(left_r)], &[Src::reg(left)]);
        self.emit(
            cmp(IntCmp::Ne),
            &[Dst::Reg(again), Dst::None],
            &[Src::reg(left_r), Src::ZERO, Src::TRUE],
        );
        self.guard = Src::reg(again);
        self.emit(Opcode::Bra { target: loop_block }, &[], &[]);
        self.guard = Src::TRUE;
        self.f.blocks.push(Block::default());
    }
}
