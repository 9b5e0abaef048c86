//! Lowering of sm_90's synchronisation instructions as ptxas 13.5 writes them: `elect.sync`
//! (ELECT), the `mbarrier.*` family on shared memory (SYNCS.EXCH.64, SYNCS.ARRIVE.TRANS64,
//! SYNCS.PHASECHK.TRANS64, SYNCS.CCTL.IV), `fence.proxy.async[.shared::cta|.shared::cluster|
//! .global]` (FENCE.VIEW.ASYNC), `fence.mbarrier_init.release.cluster` (nothing: ptxas writes a
//! NOP) and the cluster-scope fences `fence.{sc,acq_rel}.cluster` (as `.gpu`).
//!
//! The barrier object's encoding is the hardware's: `mbarrier.init` stores `(2^20 - n) << 1` in
//! the low word and `(2^20 - n) << 11` in the high word (ptxas's own initial value; a count in a
//! register reaches the uniform registers by R2UR, as in ptxas's code), an arrive's
//! state is the object before it, `pending_count` reads bits 11..30 of the state's high word and
//! the waits compare its bit 31 (the phase) or the parity shifted there. `mbarrier.init` needs
//! the barrier's address in uniform registers: a shared variable plus a constant offset (directly
//! or through registers written once by `mov`/`add`), as CUTLASS and nvcc write it; a
//! thread-varying address (ptxas's R2UR loop) is not supported yet. sm_80..89 (where ptxas
//! builds mbarriers from shared-memory atomics): `mbarrier80.rs`.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand, Statement};
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::{ArriveMode, SyncsOp};

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// The scope an mbarrier operation's memory semantics reach (`.cta` unless `.cluster`).
fn cluster_scope(i: &Instruction) -> bool {
    i.has_mod("cluster")
}

impl Ctx<'_> {
    /// Dispatches `elect`, `mbarrier` and the sm_90 fences; `None` for other instructions.
    pub fn lower_hopper_sync(&mut self, i: &Instruction) -> Option<LResult<()>> {
        let ours = match i.opcode() {
            "elect" | "mbarrier" => true,
            // barrier.cluster (UCGABAR_ARV/UCGABAR_WAIT, or BAR.SYNC where c[0x0][0x140] says
            // the cluster is one CTA, in ptxas's code) is not lowered yet.
            "barrier" if i.has_mod("cluster") => return Some(Err(unsupported(i))),
            "fence" => {
                i.has_mod("proxy") && i.has_mod("async")
                    || i.has_mod("mbarrier_init")
                    || i.has_mod("cluster") && (i.has_mod("sc") || i.has_mod("acq_rel"))
            }
            _ => false,
        };
        if !ours {
            return None;
        }
        if self.sm.num < 90 && i.opcode() == "mbarrier" && self.sm.num >= 80 {
            return Some(self.lower_mbarrier80(i));
        }
        if self.sm.num < 90 {
            return Some(Err(format!(
                "{} on sm_{}",
                unsupported(i).trim_end_matches(" is not supported yet"),
                self.sm.num
            ) + " is not supported yet"));
        }
        Some(match i.opcode() {
            "elect" => self.lower_elect(i),
            "mbarrier" => self.lower_mbarrier(i),
            _ => self.lower_sm90_fence(i),
        })
    }

    /// `elect.sync d|p, membermask` → `ELECT p, URd, PT` and a move of URd into d (either
    /// destination may be `_`). The member mask goes to the warp pass as for the other
    /// collectives (a WARPSYNC where the warp is not provably converged).
    fn lower_elect(&mut self, i: &Instruction) -> LResult<()> {
        if !i.has_mod("sync") || i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let (d, p) = match &i.operands[0] {
            Operand::PredPair(pair) => (pair.0.to_string(), pair.1.to_string()),
            _ => return Err(unsupported(i)),
        };
        let pd = if p == "_" {
            Dst::None
        } else {
            Dst::Reg(self.vreg(&p)?)
        };
        let mask = self.src32(&i.operands[1])?;
        let u = self.f.new_vreg(RegFile::UGpr, 1);
        let ud = if d == "_" { Dst::None } else { Dst::Reg(u) };
        self.emit(
            Opcode::Warp(WarpOp::Elect),
            &[pd, ud],
            &[Src::TRUE, Src::NONE, Src::NONE, Src::NONE, mask],
        );
        if d != "_" {
            let dr = self.vreg(&d)?;
            self.emit(Opcode::Mov, &[Dst::Reg(dr)], &[Src::reg(u)]);
        }
        Ok(())
    }

    fn lower_mbarrier(&mut self, i: &Instruction) -> LResult<()> {
        let verb = i.mods().first().map(|m| m.to_string()).unwrap_or_default();
        let generic = !["shared", "shared::cta", "shared::cluster"]
            .iter()
            .any(|s| i.has_mod(s));
        if generic && verb != "pending_count" {
            return Err(format!(
                "{} with a generic address",
                unsupported(i).trim_end_matches(" is not supported yet")
            ) + " is not supported yet");
        }
        match verb.as_str() {
            "init" => self.lower_mbarrier_init(i),
            "arrive" | "arrive_drop" => self.lower_mbarrier_arrive(i, verb == "arrive_drop"),
            "expect_tx" | "complete_tx" => self.lower_mbarrier_tx(i, verb == "expect_tx"),
            "test_wait" | "try_wait" => self.lower_mbarrier_wait(i, verb == "try_wait"),
            "pending_count" => self.lower_pending_count(i),
            "inval" => {
                let (a, off) = self.barrier_address(i, 0)?;
                self.emit(Opcode::Syncs(SyncsOp::CctlIv), &[], &[a, Src::NONE, off]);
                Ok(())
            }
            _ => Err(unsupported(i)),
        }
    }

    /// The barrier's shared address (operand `n`): a register and an immediate byte offset (the
    /// SYNCS offset field, `[R12+URZ+0x8]`, as ptxas folds it).
    fn barrier_address(&mut self, i: &Instruction, n: usize) -> LResult<(Src, Src)> {
        let (base, offset) = self.address(&i.operands[n])?;
        let (src, off) = match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                if r.comps != 1 {
                    return Err(format!(
                        "{} with a 64-bit address",
                        unsupported(i).trim_end_matches(" is not supported yet")
                    ) + " is not supported yet");
                }
                (Src::reg(r), offset as i32)
            }
            AddrBase::Symbol(s) => {
                let off = *self
                    .shared
                    .get(&**s)
                    .ok_or_else(|| format!("Unknown symbol '{s}'"))?;
                self.shared_operand(off as i32 + offset as i32)
            }
            AddrBase::None => self.shared_operand(offset as i32),
        };
        let offset = if off == 0 {
            Src::NONE
        } else {
            Src::imm(off as u32)
        };
        if matches!(src.val, SrcVal::Reg(_)) && (-(1 << 23)..1 << 23).contains(&off) {
            return Ok((src, offset));
        }
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[src, Src::imm(off as u32), Src::ZERO],
        );
        Ok((Src::reg(t), Src::NONE))
    }

    /// The fences ptxas puts before a `.release.cluster` arrive.
    fn cluster_release_fences(&mut self) {
        for scope in [Scope::Cta, Scope::Gpu] {
            self.emit(Opcode::Warp(WarpOp::Membar { sc: false, scope }), &[], &[]);
        }
        self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
        self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
    }

    /// `mbarrier.arrive[.expect_tx]` and `mbarrier.arrive_drop[.expect_tx]` with or without a
    /// state (`_`), a count or transaction bytes; `.shared::cluster` arrives do not return the
    /// state (SYNCS.ARRIVE.TRANS64.RED).
    fn lower_mbarrier_arrive(&mut self, i: &Instruction, drop: bool) -> LResult<()> {
        if i.has_mod("noComplete") || i.has_mod("noinc") {
            return Err(unsupported(i));
        }
        let (state, rest) = match i.operands.first() {
            Some(Operand::Addr { .. }) => (None, 0),
            Some(o) => (Some(o.clone()), 1),
            None => return Err(unsupported(i)),
        };
        let (addr, off) = self.barrier_address(i, rest)?;
        let count = match i.operands.get(rest + 1) {
            Some(o) => Some(self.reg_src32(o)?),
            None => None,
        };
        let expect_tx = i.has_mod("expect_tx");
        let mode = match (expect_tx, count.is_some()) {
            (true, true) => ArriveMode::A1Tr,
            (true, false) => return Err(unsupported(i)),
            (false, true) => ArriveMode::ArT0,
            (false, false) => ArriveMode::A1T0,
        };
        let red = i.has_mod("shared::cluster");
        let d = match state {
            Some(Operand::Sink) | None => Dst::None,
            Some(o) if !red => {
                let r = self.dst(&o)?;
                if r.comps != 2 {
                    return Err(unsupported(i));
                }
                Dst::Reg(r)
            }
            Some(_) => return Err(unsupported(i)),
        };
        if cluster_scope(i) && i.has_mod("release") {
            self.cluster_release_fences();
        }
        self.emit(
            Opcode::Syncs(SyncsOp::Arrive {
                mode,
                red,
                optout: drop,
            }),
            &[d],
            &[addr, count.unwrap_or(Src::ZERO), off],
        );
        Ok(())
    }

    /// `mbarrier.expect_tx` / `complete_tx [addr], bytes`: SYNCS.ARRIVE.TRANS64.RED.A0TR / A0TX.
    fn lower_mbarrier_tx(&mut self, i: &Instruction, expect: bool) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let (addr, off) = self.barrier_address(i, 0)?;
        let bytes = self.reg_src32(&i.operands[1])?;
        let mode = if expect {
            ArriveMode::A0Tr
        } else {
            ArriveMode::A0Tx
        };
        self.emit(
            Opcode::Syncs(SyncsOp::Arrive {
                mode,
                red: true,
                optout: false,
            }),
            &[Dst::None],
            &[addr, bytes, off],
        );
        Ok(())
    }

    /// `mbarrier.{test,try}_wait[.parity] p, [addr], state|parity[, suspendTimeHint]`:
    /// SYNCS.PHASECHK.TRANS64[.TRYWAIT] on the state's high word (the phase in bit 31) or the
    /// parity shifted there. With a hint (unguarded), ptxas's shape: a failed TRYWAIT sleeps for
    /// the hint and checks once more. `.acquire.cluster` invalidates L1 when the phase completed.
    fn lower_mbarrier_wait(&mut self, i: &Instruction, try_wait: bool) -> LResult<()> {
        let n = i.operands.len();
        if !(3..=4).contains(&n) || (!try_wait && n == 4) {
            return Err(unsupported(i));
        }
        let p = self.dst(&i.operands[0])?;
        if p.file != RegFile::Pred {
            return Err(unsupported(i));
        }
        let (addr, off) = self.barrier_address(i, 1)?;
        let phase = if i.has_mod("parity") {
            match self.src32(&i.operands[2])?.val {
                SrcVal::Imm(v) => Src::imm((v & 1) << 31),
                _ => {
                    let a = self.reg_src32(&i.operands[2])?;
                    let t = self.temp();
                    let shl = Opcode::Shf {
                        right: false,
                        signed: false,
                        wide: false,
                        hi: false,
                    };
                    self.emit(shl, &[Dst::Reg(t)], &[a, Src::imm(31), Src::ZERO]);
                    Src::reg(t)
                }
            }
        } else {
            let (_, hi) = self.src64(&i.operands[2])?;
            hi
        };
        let phase = self.in_reg(phase);
        self.emit(
            Opcode::Syncs(SyncsOp::PhaseChk { trywait: try_wait }),
            &[Dst::Reg(p)],
            &[addr, phase, off],
        );
        if n == 4 && self.guard == Src::TRUE {
            let hint = self.src32(&i.operands[3])?;
            self.guard = Src {
                neg: true,
                ..Src::reg(p)
            };
            self.emit(Opcode::Warp(WarpOp::Nanosleep), &[], &[hint]);
            self.emit(
                Opcode::Syncs(SyncsOp::PhaseChk { trywait: false }),
                &[Dst::Reg(p)],
                &[addr, phase, off],
            );
            self.guard = Src::TRUE;
        }
        if cluster_scope(i) && !i.has_mod("relaxed") {
            let saved = self.guard;
            if saved == Src::TRUE {
                self.guard = Src::reg(p);
                self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
                self.guard = saved;
            } else {
                self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
            }
        }
        Ok(())
    }

    /// `mbarrier.pending_count.b64 d, state`: `2^20 - ((hi >> 11) & 0xfffff)`.
    fn lower_pending_count(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let d = self.dst(&i.operands[0])?;
        let (_, hi) = self.src64(&i.operands[1])?;
        let hi = self.in_reg(hi);
        let (t, u) = (self.temp(), self.temp());
        let shr = Opcode::Shf {
            right: true,
            signed: false,
            wide: false,
            hi: true,
        };
        self.emit(shr, &[Dst::Reg(t)], &[Src::ZERO, Src::imm(11), hi]);
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(u), Dst::None],
            &[Src::reg(t), Src::imm(0xfffff), Src::ZERO, Src::FALSE],
        );
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(u).negated(), Src::imm(0x100000), Src::ZERO],
        );
        Ok(())
    }

    /// `mbarrier.init [addr], count` → `FENCE.VIEW.ASYNC.S; SYNCS.EXCH.64 URZ, [UR], UR pair`
    /// with the address and the initial state in uniform registers (see the module comment).
    fn lower_mbarrier_init(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let Some(offset) = self.uniform_shared_offset(&i.operands[0]) else {
            return Err(format!(
                "{} with a thread-varying address",
                unsupported(i).trim_end_matches(" is not supported yet")
            ) + " is not supported yet");
        };
        let data = self.initial_state(&i.operands[1])?;
        let (rank, window, addr) = (
            self.f.new_vreg(RegFile::UGpr, 1),
            self.f.new_vreg(RegFile::UGpr, 1),
            self.f.new_vreg(RegFile::UGpr, 1),
        );
        self.emit(Opcode::S2ur(SpecialReg::CgaCtaId), &[Dst::Reg(rank)], &[]);
        self.emit(
            Opcode::Umov,
            &[Dst::Reg(window)],
            &[Src::imm(0x400u32.wrapping_add(offset))],
        );
        self.emit(
            Opcode::Ulea { shift: 0x18 },
            &[Dst::Reg(addr)],
            &[Src::reg(rank), Src::reg(window)],
        );
        self.emit(
            Opcode::Syncs(SyncsOp::FenceViewAsync { global: false }),
            &[],
            &[],
        );
        self.emit(
            Opcode::Syncs(SyncsOp::Exch64),
            &[Dst::None],
            &[Src::reg(addr), Src::reg(data)],
        );
        Ok(())
    }

    /// The barrier's initial state for `count` arrivals in a uniform register pair: `(2^20 -
    /// count) << 1` and `<< 11`, moved in as constants, or computed from a register and moved
    /// over with R2UR (the lowest executing lane's count: lanes initialising one barrier with
    /// different counts race in PTX, and ptxas's code does the same).
    fn initial_state(&mut self, count: &Operand) -> LResult<Reg> {
        let data = self.f.new_vreg(RegFile::UGpr, 2);
        if let Some(n) = self.constant_of(count) {
            let neg = 0x100000u32.wrapping_sub(n) & 0xfffff;
            for (half, shift) in [(0, 1), (1, 11)] {
                self.emit(
                    Opcode::Umov,
                    &[Dst::Reg(data.part(half))],
                    &[Src::imm(neg << shift)],
                );
            }
            return Ok(data);
        }
        let n = self.reg_src32(count)?;
        let neg = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(neg), Dst::None],
            &[n.negated(), Src::imm(0x100000), Src::ZERO],
        );
        let shl = Opcode::Shf {
            right: false,
            signed: false,
            wide: false,
            hi: false,
        };
        for (half, shift) in [(0, 1), (1, 11)] {
            let t = self.temp();
            self.emit(
                shl,
                &[Dst::Reg(t)],
                &[Src::reg(neg), Src::imm(shift), Src::ZERO],
            );
            self.emit(Opcode::R2ur, &[Dst::Reg(data.part(half))], &[Src::reg(t)]);
        }
        Ok(data)
    }

    /// The offset in the shared window of an address operand that is the same in every thread:
    /// `[var+k]`, `[k]`, or `[%r+k]` where `%r` is written once, by `mov %r, var` or by
    /// `add %r, %s, k'` of such a register.
    pub(crate) fn uniform_shared_offset(&self, op: &Operand) -> Option<u32> {
        let (base, offset) = self.address(op).ok()?;
        let base_offset = match base {
            AddrBase::Symbol(s) => *self.shared.get(&**s)?,
            AddrBase::None => 0,
            AddrBase::Reg(r) => self.uniform_register_offset(r, 8)?,
        };
        Some(base_offset.wrapping_add(offset as u32))
    }

    fn uniform_register_offset(&self, name: &str, depth: u32) -> Option<u32> {
        let def = self.single_definition(name)?;
        if def.guard().is_some() || def.operands.len() < 2 || depth == 0 {
            return None;
        }
        match (def.opcode(), &def.operands[1..]) {
            ("mov", [Operand::Symbol(s)]) => self.shared.get(&**s).copied(),
            ("add", [Operand::Reg(r), Operand::Imm(k)])
            | ("add", [Operand::Imm(k), Operand::Reg(r)])
                if def.ty().is_some_and(|t| t.size_bytes() == 4) =>
            {
                Some(
                    self.uniform_register_offset(r, depth - 1)?
                        .wrapping_add(*k as u32),
                )
            }
            _ => None,
        }
    }

    /// The one instruction of the function that writes register `name`, if exactly one does.
    fn single_definition(&self, name: &str) -> Option<&Instruction> {
        let mut found = None;
        for s in &self.ptx_function().body {
            let Statement::Instr(i) = s else { continue };
            let writes = match i.operands.first() {
                Some(Operand::Reg(d)) => &**d == name,
                Some(Operand::PredPair(pair)) => &*pair.0 == name || &*pair.1 == name,
                Some(Operand::Vector(v)) => v
                    .iter()
                    .any(|x| matches!(x, Operand::Reg(d) if &**d == name)),
                _ => false,
            };
            if !writes || i.opcode().starts_with("st") || i.opcode() == "bra" {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
        found
    }

    /// `fence.proxy.async[.shared::cta|.shared::cluster|.global]`,
    /// `fence.mbarrier_init.release.cluster` and `fence.{sc,acq_rel}.cluster`, as ptxas.
    fn lower_sm90_fence(&mut self, i: &Instruction) -> LResult<()> {
        if !i.operands.is_empty() {
            return Err(unsupported(i));
        }
        let view = |global| Opcode::Syncs(SyncsOp::FenceViewAsync { global });
        let membar = |sc, scope| Opcode::Warp(WarpOp::Membar { sc, scope });
        if i.has_mod("mbarrier_init") {
            // ptxas writes nothing but a NOP: SYNCS.EXCH is ordered before later arrivals.
            return if i.has_mod("release") {
                Ok(())
            } else {
                Err(unsupported(i))
            };
        }
        if i.has_mod("proxy") {
            if i.has_mod("global") {
                self.emit(view(true), &[], &[]);
            } else if i.has_mod("shared::cta") {
                self.emit(membar(false, Scope::Cta), &[], &[]);
                self.emit(view(false), &[], &[]);
            } else if i.mods().len() == 2 || i.has_mod("shared::cluster") {
                self.emit(membar(false, Scope::Gpu), &[], &[]);
                self.emit(view(false), &[], &[]);
            } else {
                return Err(unsupported(i));
            }
            return Ok(());
        }
        if i.mods().len() != 2 {
            return Err(unsupported(i));
        }
        self.emit(membar(i.has_mod("sc"), Scope::Gpu), &[], &[]);
        self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
        self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
        self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
        Ok(())
    }
}
