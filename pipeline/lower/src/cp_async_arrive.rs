//! `cp.async.mbarrier.arrive[.noinc].shared{::cta}.b64 [addr]` (sm_80 on): an arrive on the
//! mbarrier that fires when the thread's earlier `cp.async` copies have landed, as ARRIVES.
//! LDGSTSBAR.64 (`ptxforge_sass::arrives`).
//!
//! ARRIVES takes its address in a uniform register, so, as ptxas does for a register address,
//! the address goes through a loop that serves one address per round: R2UR takes one lane's
//! address and sets P in the lanes whose address differs; the others arrive and leave the loop;
//! the lanes left branch back (ptxas's sm_80 shape without its BSSY/BSYNC: the lanes served go on
//! ahead, as after any divergent branch here; ptxas's sm_90 code keeps the warp together with
//! `BRA.U.ANY`). Every address takes this loop (a uniform one runs it once).
//! Without `.noinc` the arrival must not count against the phase: ptxas's sm_90 code adds one
//! expected transaction first (SYNCS.ARRIVE.TRANS64.RED.A0T1) that ARRIVES' `.TRANSCNT`
//! completes; its sm_80 code adds the arrivals back to the pending count with ATOMS.ADD on the
//! barrier's high word (here one per thread, before the loop; `.noinc` arrivals count, `.ARVCNT`
//! on sm_90).
//! A barrier at a known address the same in every thread (a shared variable plus a constant,
//! directly or through registers written once) takes no loop: `ARRIVES [URZ+offset]` on
//! sm_80..89, the window address in a uniform register (S2UR, ULEA) on sm_90, as ptxas writes it.
//! Only a thread-varying address needs the loop, still refused (below).

use ptxforge_ptx::ast::{AddrBase, Instruction};
use ptxforge_sass::arrives::ArrivesCount;
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::{ArriveMode, SyncsOp};

use crate::ctx::{Ctx, LResult};

/// Whether the loop is used: not yet. The uniform register it fills is the warp's, shared by
/// every group of its lanes: where the warp is split (this back end does not reconverge after a
/// divergent branch; ptxas's code does, with BSSY/BSYNC), another group's R2UR can overwrite it
/// between this group's R2UR and ARRIVES. The emulator shows exactly that on
/// `pipeline/sim/tests/kernels/cp_async_arrive.ptx`, where thread 0 alone initialises the
/// barriers: lane 0 arrives on an odd lane's barrier and the kernel never finishes. With a
/// converged warp the loop agrees three ways (rounds 1 and 2 of that kernel). Until the loop is
/// kept to converged code, the instruction is refused.
const LOOP_CHECKED: bool = false;

/// Blocks the loop opens after the current one: the loop and the code after it.
pub(crate) const LOOP_BLOCKS: u32 = 2;

/// Whether `i` is a `cp.async.mbarrier.arrive` (lowered through the loop of `LOOP_BLOCKS`).
pub(crate) fn opens_loop(i: &Instruction) -> bool {
    i.opcode() == "cp" && i.has_mod("async") && i.has_mod("mbarrier")
}

fn unsupported(i: &Instruction) -> String {
    format!(
        "'{}.{}' is not supported yet",
        i.opcode(),
        i.mods().join(".")
    )
}

impl Ctx<'_> {
    /// Lowers `cp.async.mbarrier.arrive`; `None` for other instructions.
    pub fn lower_cp_async_arrive(&mut self, i: &Instruction) -> Option<LResult<()>> {
        opens_loop(i).then(|| self.cp_async_arrive(i))
    }

    fn cp_async_arrive(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| {
            matches!(
                m,
                "async" | "mbarrier" | "arrive" | "noinc" | "shared" | "shared::cta" | "b64"
            )
        };
        let ok = self.sm.num >= 80
            && i.has_mod("arrive")
            && i.mods().iter().all(|m| known(m))
            && i.operands.len() == 1
            && self.guard == Src::TRUE;
        if !ok {
            return Err(unsupported(i));
        }
        let noinc = i.has_mod("noinc");
        if let Some(offset) = self.uniform_shared_offset(&i.operands[0]) {
            self.arrive_at_known_address(offset, noinc);
            // The blocks the label numbering reserved for the loop, left empty.
            for _ in 0..LOOP_BLOCKS {
                self.f.blocks.push(Block::default());
            }
            return Ok(());
        }
        if !LOOP_CHECKED {
            return Err(format!(
                "{} with a thread-varying address",
                unsupported(i).trim_end_matches(" is not supported yet")
            ) + " is not supported yet");
        }
        let addr = self.arrive_address(i)?;
        if !noinc && self.sm.num < 90 {
            // One more pending arrival per thread (the barrier's high word counts down).
            let minus_one = self.temp();
            self.emit(Opcode::Mov, &[Dst::Reg(minus_one)], &[Src::imm(u32::MAX)]);
            let add = Opcode::Atoms {
                op: AtomOp::Add,
                ty: AtomType::S32,
                offset: 4,
            };
            self.emit(add, &[Dst::None], &[Src::reg(addr), Src::reg(minus_one)]);
        }
        self.uniform_address_loop(addr, noinc);
        Ok(())
    }

    /// The arrive on a barrier whose address is the same in every thread and known (`offset` in
    /// the shared window), without the loop, as ptxas writes it: on sm_80..89 `ARRIVES [URZ+offset]`
    /// (before it, without `.noinc`, one more pending arrival per thread: ATOMS.ADD of -1 on the
    /// barrier's high word); on sm_90 the barrier's window address built in a uniform register as
    /// for `mbarrier.init` (S2UR, ULEA), then `ARRIVES.ARVCNT [UR]`, or without `.noinc`
    /// `SYNCS.ARRIVE.TRANS64.RED.A0T1 [UR]` and `ARRIVES.TRANSCNT [UR]`.
    fn arrive_at_known_address(&mut self, offset: u32, noinc: bool) {
        if self.sm.num < 90 {
            if !noinc {
                let minus_one = self.temp();
                self.emit(Opcode::Mov, &[Dst::Reg(minus_one)], &[Src::imm(u32::MAX)]);
                let add = Opcode::Atoms {
                    op: AtomOp::Add,
                    ty: AtomType::S32,
                    offset: offset as i32 + 4,
                };
                self.emit(add, &[Dst::None], &[Src::ZERO, Src::reg(minus_one)]);
            }
            let off = if offset == 0 {
                Src::NONE
            } else {
                Src::imm(offset)
            };
            self.emit(
                Opcode::Syncs(SyncsOp::Arrives(ArrivesCount::Plain)),
                &[],
                &[Src::ZERO, Src::NONE, off],
            );
            return;
        }
        let (rank, window, ur) = (
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
            &[Dst::Reg(ur)],
            &[Src::reg(rank), Src::reg(window)],
        );
        let count = if noinc {
            ArrivesCount::ArvCnt
        } else {
            let a0t1 = SyncsOp::Arrive {
                mode: ArriveMode::A0T1,
                red: true,
                optout: false,
            };
            self.emit(
                Opcode::Syncs(a0t1),
                &[Dst::None],
                &[Src::reg(ur), Src::ZERO, Src::NONE],
            );
            ArrivesCount::TransCnt
        };
        self.emit(
            Opcode::Syncs(SyncsOp::Arrives(count)),
            &[],
            &[Src::reg(ur), Src::NONE, Src::NONE],
        );
    }

    /// The barrier's shared address in a register.
    fn arrive_address(&mut self, i: &Instruction) -> LResult<Reg> {
        let (base, offset) = self.address(&i.operands[0])?;
        let (src, off) = match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                if r.comps != 1 {
                    return Err(format!("{} with a 64-bit address", unsupported(i)));
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
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[src, Src::imm(off as u32), Src::ZERO],
        );
        Ok(t)
    }

    /// The loop of the module comment around the arrive on the address in `addr`.
    fn uniform_address_loop(&mut self, addr: Reg, noinc: bool) {
        let differs = self.temp_pred();
        let ur = self.f.new_vreg(RegFile::UGpr, 1);
        let loop_block = self.f.blocks.len() as u32;
        self.f.blocks.push(Block::default());
        // ptxas's sm_90 code reads R2UR's results after fixed stalls; its sm_80 code scoreboards it.
        let r2ur = if self.sm.num >= 90 {
            Opcode::R2ur
        } else {
            Opcode::R2urPred
        };
        self.emit(r2ur, &[Dst::Reg(ur), Dst::Reg(differs)], &[Src::reg(addr)]);
        self.guard = Src::reg(differs).negated();
        let count = match (self.sm.num >= 90, noinc) {
            (false, _) => ArrivesCount::Plain,
            (true, true) => ArrivesCount::ArvCnt,
            (true, false) => {
                let a0t1 = SyncsOp::Arrive {
                    mode: ArriveMode::A0T1,
                    red: true,
                    optout: false,
                };
                self.emit(
                    Opcode::Syncs(a0t1),
                    &[Dst::None],
                    &[Src::reg(ur), Src::ZERO, Src::NONE],
                );
                ArrivesCount::TransCnt
            }
        };
        self.emit(
            Opcode::Syncs(SyncsOp::Arrives(count)),
            &[],
            &[Src::reg(ur), Src::NONE, Src::NONE],
        );
        self.guard = Src::reg(differs);
        self.emit(Opcode::Bra { target: loop_block }, &[], &[]);
        self.guard = Src::TRUE;
        self.f.blocks.push(Block::default());
    }
}
