//! `mbarrier.*` on sm_80..89, where the barrier is a 64-bit word in shared memory that plain
//! shared-memory atomics update, as ptxas 13.5 builds it (sm_90's SYNCS unit: `hopper_sync.rs`).
//!
//! The word (learned from ptxas's sm_80/86/89 code; the emulator's model is
//! `backends/emu/src/barrier80.rs`): the low word holds `2^30 - expected`, the high word the
//! phase in bit 31 and `2^31 - pending` below it. So, as ptxas writes each form:
//! - `init [a], n`: `STS.64 [a], {2^30 - n, 2^31 - n}`;
//! - `arrive[.release.cta] d, [a]`: `MEMBAR.ALL.CTA; ATOMS.ARRIVE.64 d, [a]` (the state is the
//!   word before the arrival);
//! - `arrive.noComplete d, [a], c`: `MEMBAR.ALL.CTA; ATOMS.ADD h, [a+4], c` (c arrivals that may
//!   not complete the phase), the state `{h, h}`;
//! - `arrive_drop d, [a]`: `MEMBAR.ALL.CTA; ATOMS.POPC.INC.32 [a]; ATOMS.ARRIVE.64 d, [a]`, and
//!   with `.noComplete` and a count `ATOMS.ADD [a], c; ATOMS.ADD h, [a+4], c`;
//! - `test_wait p, [a], state`: `LDS x, [a+4]`, p = bit 31 of `x ^ state.hi` (LOP3's predicate);
//!   `.parity` compares bit 31 of x with the parity the other way round (p = the phase bit
//!   differs from the parity);
//! - `pending_count d, state`: `2^31 - (state.hi & 0x7fffffff)`;
//! - `inval`: nothing.
//!
//! Only `.shared{::cta}` barriers (generic addresses: ptxas's ATOM.E.ARRIVE, not yet).

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand};
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::SyncsOp;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// Modifiers an sm_80 mbarrier form may carry (the verb, the space, the type, `.cta`
/// semantics); anything else (`.cluster`, `.expect_tx`, `.relaxed`: sm_90's) is refused.
fn known_modifier(m: &str) -> bool {
    matches!(
        m,
        "init"
            | "inval"
            | "arrive"
            | "arrive_drop"
            | "test_wait"
            | "pending_count"
            | "parity"
            | "noComplete"
            | "shared"
            | "shared::cta"
            | "b64"
            | "release"
            | "acquire"
            | "cta"
    )
}

fn with_reason(i: &Instruction, why: &str) -> String {
    format!(
        "{} {why}",
        unsupported(i).trim_end_matches(" is not supported yet")
    ) + " is not supported yet"
}

impl Ctx<'_> {
    /// Lowers one `mbarrier.*` instruction on sm_80..89 (see the module comment).
    pub(crate) fn lower_mbarrier80(&mut self, i: &Instruction) -> LResult<()> {
        if !i.mods().iter().all(|m| known_modifier(m)) {
            return Err(unsupported(i));
        }
        let verb = i.mods().first().map(|m| m.to_string()).unwrap_or_default();
        if verb == "pending_count" {
            return self.pending_count80(i);
        }
        if !i.has_mod("shared") && !i.has_mod("shared::cta") {
            return Err(with_reason(i, "with a generic address"));
        }
        match verb.as_str() {
            "init" => self.init80(i),
            "inval" => Ok(()),
            "arrive" | "arrive_drop" => self.arrive80(i, verb == "arrive_drop"),
            "test_wait" => self.test_wait80(i),
            _ => Err(unsupported(i)),
        }
    }

    /// The barrier's shared address (operand `n`): a register or Zero, and a byte offset.
    pub(crate) fn barrier80_address(&mut self, i: &Instruction, n: usize) -> LResult<(Src, i32)> {
        let (base, offset) = self.address(&i.operands[n])?;
        let (src, off) = match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                if r.comps != 1 {
                    return Err(with_reason(i, "with a 64-bit address"));
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
        if (-(1 << 23)..(1 << 23) - 8).contains(&off) {
            return Ok((src, off));
        }
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[src, Src::imm(off as u32), Src::ZERO],
        );
        Ok((Src::reg(t), 0))
    }

    /// `mbarrier.init [a], n`: STS.64 of `{2^30 - n, 2^31 - n}`.
    fn init80(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let (base, off) = self.barrier80_address(i, 0)?;
        let word = self.temp64();
        match self.constant_of(&i.operands[1]) {
            Some(n) => {
                let lo = 0x4000_0000u32.wrapping_sub(n);
                let hi = 0x8000_0000u32.wrapping_sub(n);
                self.set_pair(word, Src::imm(lo), Src::imm(hi));
            }
            None => {
                let n = self.reg_src32(&i.operands[1])?;
                for (half, top) in [(0, 0x4000_0000u32), (1, 0x8000_0000)] {
                    self.emit(
                        Opcode::Iadd3 { x: false },
                        &[Dst::Reg(word.part(half)), Dst::None],
                        &[n.negated(), Src::imm(top), Src::ZERO],
                    );
                }
            }
        }
        let sts = Opcode::Sts {
            size: MemSize::B64,
            offset: off,
        };
        self.emit(sts, &[], &[base, Src::reg(word)]);
        Ok(())
    }

    /// `mbarrier.arrive[_drop][.noComplete] d, [a][, count]` (see the module comment).
    fn arrive80(&mut self, i: &Instruction, drop: bool) -> LResult<()> {
        let (state, rest) = match i.operands.first() {
            Some(Operand::Addr { .. }) => (None, 0),
            Some(o) => (Some(o.clone()), 1),
            None => return Err(unsupported(i)),
        };
        let count = i.operands.get(rest + 1);
        if count.is_some() != i.has_mod("noComplete") || i.operands.len() > rest + 2 {
            return Err(unsupported(i));
        }
        let d = match state {
            Some(Operand::Sink) | None => None,
            Some(o) => {
                let r = self.dst(&o)?;
                if r.comps != 2 {
                    return Err(unsupported(i));
                }
                Some(r)
            }
        };
        let (base, off) = self.barrier80_address(i, rest)?;
        let membar = WarpOp::Membar {
            sc: false,
            scope: Scope::Cta,
        };
        self.emit(Opcode::Warp(membar), &[], &[]);
        let Some(count) = count else {
            let at = [base, Src::NONE, offset_src(off)];
            if drop {
                self.emit(Opcode::Syncs(SyncsOp::AtomsPopcInc), &[Dst::None], &at);
            }
            let d = d.map_or(Dst::None, Dst::Reg);
            self.emit(Opcode::Syncs(SyncsOp::AtomsArrive), &[d], &at);
            return Ok(());
        };
        let count = self.reg_src32(count)?;
        let add = |offset| Opcode::Atoms {
            op: AtomOp::Add,
            ty: AtomType::U32,
            offset,
        };
        if drop {
            self.emit(add(off), &[Dst::None], &[base, count]);
        }
        match d {
            Some(d) => {
                let old = self.temp();
                self.emit(add(off + 4), &[Dst::Reg(old)], &[base, count]);
                self.set_pair(d, Src::reg(old), Src::reg(old));
            }
            None => self.emit(add(off + 4), &[Dst::None], &[base, count]),
        }
        Ok(())
    }

    /// `mbarrier.test_wait[.parity] p, [a], state|parity`: the phase bit of the barrier's high
    /// word against the state's (or the parity), in LOP3's predicate.
    fn test_wait80(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 3 {
            return Err(unsupported(i));
        }
        let p = self.dst(&i.operands[0])?;
        if p.file != RegFile::Pred {
            return Err(unsupported(i));
        }
        let (base, off) = self.barrier80_address(i, 1)?;
        let word = self.temp();
        let lds = Opcode::Lds {
            size: MemSize::B32,
            offset: off + 4,
        };
        self.emit(lds, &[Dst::Reg(word)], &[base]);
        let (lut, other) = if i.has_mod("parity") {
            match self.src32(&i.operands[2])?.val {
                // p = bit 31 of x is set (parity 0) or clear (parity 1).
                SrcVal::Imm(v) if v & 1 == 0 => (0xc0, Src::ZERO),
                SrcVal::Imm(_) => (0x0c, Src::ZERO),
                _ => {
                    let k = self.reg_src32(&i.operands[2])?;
                    let t = self.temp();
                    let shl = Opcode::Shf {
                        right: false,
                        signed: false,
                        wide: false,
                        hi: false,
                    };
                    self.emit(shl, &[Dst::Reg(t)], &[k, Src::imm(31), Src::ZERO]);
                    (0x48, Src::reg(t))
                }
            }
        } else {
            let (_, hi) = self.src64(&i.operands[2])?;
            (0x48, self.in_reg(hi))
        };
        // LOP3.LUT p, RZ, x, 0x80000000, other, lut: 0xc0 = x & b, 0x0c = ~x & b, 0x48 =
        // (x ^ other) & b.
        self.emit(
            Opcode::Lop3 { lut },
            &[Dst::None, Dst::Reg(p)],
            &[Src::reg(word), Src::imm(0x8000_0000), other, Src::FALSE],
        );
        Ok(())
    }

    /// `mbarrier.pending_count.b64 d, state`: `2^31 - (state.hi & 0x7fffffff)`.
    fn pending_count80(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(unsupported(i));
        }
        let d = self.dst(&i.operands[0])?;
        let (_, hi) = self.src64(&i.operands[1])?;
        let hi = self.in_reg(hi);
        let t = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(t), Dst::None],
            &[hi, Src::imm(0x7fff_ffff), Src::ZERO, Src::FALSE],
        );
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(t).negated(), Src::imm(0x8000_0000), Src::ZERO],
        );
        Ok(())
    }
}

/// An address offset as the SYNCS-style slot takes it (Zero for none).
fn offset_src(off: i32) -> Src {
    if off == 0 {
        Src::NONE
    } else {
        Src::imm(off as u32)
    }
}
