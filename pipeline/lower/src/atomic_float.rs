//! Float atomic adds that need a loop.
//!
//! Generic addresses (`atom/red.add{.noftz}.{f32,f64,f16x2,bf16x2}` without a state space): the
//! hardware's generic float add (ATOM.E.ADD.<type> P, d, [a], v) works on global memory only and
//! says so in its predicate. ptxas 13.5 then asks QSPC whether the address is shared and loops
//! there with ATOMS.CAST.SPIN (or local: a plain load, add, store). Here the fallback is one loop
//! for every window the hardware's generic compare-and-swap reaches: load the word (LD.E), add,
//! ATOM.E.CAS, again until the swap found the value the sum was computed from. (Local memory is
//! no atomic's window: the PTX ISA leaves atomics on it undefined.) The sum rounds as ptxas's
//! shared-memory loop does: FADD without .FTZ, DADD, HADD2 / HADD2.BF16_V2, to nearest.
//!
//! Scalar halves (`atom/red.add.noftz.{f16,bf16}`, generic, global or shared): no 16-bit atomic
//! add exists, so, as ptxas does, a compare-and-swap loop on the aligned 32-bit word holding the
//! half: HADD2 adds the value to both halves, PRMT keeps the other half of the word as it was.
//!
//! Both open blocks after the current one (`extra_blocks`, counted when labels are numbered).

use ptxforge_ptx::ast::{Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};
use crate::ordered::Ordering;

/// The aligned 32-bit word a half add swaps: its address, and the global descriptor for loads
/// of global and generic words (shared words have none).
pub(crate) struct Word {
    pub(crate) base: Src,
    desc: Option<Src>,
}

impl Word {
    /// The sources of the word's load.
    pub(crate) fn load_srcs(&self) -> Vec<Src> {
        match self.desc {
            Some(desc) => vec![self.base, desc],
            None => vec![self.base],
        }
    }
}

/// Which loop an atomic needs.
#[derive(Copy, Clone, PartialEq, Eq)]
enum FloatLoop {
    /// A generic-address add of f32/f64/f16x2/bf16x2: the hardware add, then the CAS fallback.
    Generic,
    /// A scalar f16/bf16 add: a CAS loop on the containing word.
    Half,
}

/// The address space of a scalar half add.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Space {
    Generic,
    Global,
    Shared,
}

pub(crate) fn space(i: &Instruction) -> Option<Space> {
    if i.has_mod("global") {
        Some(Space::Global)
    } else if i.has_mod("shared") || i.has_mod("shared::cta") {
        Some(Space::Shared)
    } else if crate::atomic::is_generic(i) && !i.has_mod("shared::cluster") {
        Some(Space::Generic)
    } else {
        None
    }
}

/// The loop `i` is lowered with, if any: an unguarded `atom`/`red` add without a cache hint or
/// `.cluster` scope (a memory order puts its fences around the loop).
fn float_loop(i: &Instruction) -> Option<FloatLoop> {
    if !matches!(i.opcode(), "atom" | "red") || !i.has_mod("add") || i.guard().is_some() {
        return None;
    }
    let plain = !i
        .mods()
        .iter()
        .any(|m| matches!(m.as_str(), "sc" | "cluster" | "shared::cluster") || m.starts_with("L2"));
    if !plain {
        return None;
    }
    match (i.ty()?, space(i)?) {
        (Type::F32 | Type::F64 | Type::F16x2 | Type::BF16x2, Space::Generic) => {
            Some(FloatLoop::Generic)
        }
        (Type::F16 | Type::BF16, _) => Some(FloatLoop::Half),
        _ => None,
    }
}

/// Blocks the lowering of `i` opens after the current one (0 when it is not lowered here).
pub(crate) fn extra_blocks(i: &Instruction) -> u32 {
    match float_loop(i) {
        Some(FloatLoop::Generic) => 3,
        Some(FloatLoop::Half) => 2,
        None => 0,
    }
}

/// The atomic type and the add of the loop for a PTX float type.
/// Scalar halves take the value's low half in both lanes (`.H0_H0`).
fn add_of(ty: Type) -> Option<(AtomType, Opcode)> {
    let scalar = matches!(ty, Type::F16 | Type::BF16);
    let half2 = |bf16| Opcode::Half2 {
        op: HalfOp::Add,
        bf16,
        ftz: false,
        sat: false,
        relu: false,
        f32_out: false,
        swz: [
            HalfSwizzle::H1H0,
            if scalar {
                HalfSwizzle::H0H0
            } else {
                HalfSwizzle::H1H0
            },
            HalfSwizzle::H1H0,
        ],
    };
    Some(match ty {
        Type::F32 => (
            AtomType::F32,
            Opcode::Fadd {
                ftz: false,
                rnd: Round::Rn,
            },
        ),
        Type::F64 => (AtomType::F64, Opcode::Dadd { rnd: Round::Rn }),
        Type::F16x2 | Type::F16 => (AtomType::F16x2, half2(false)),
        Type::BF16x2 | Type::BF16 => (AtomType::Bf16x2, half2(true)),
        _ => return None,
    })
}

pub(crate) fn memory_scope(i: &Instruction) -> MemScope {
    if i.has_mod("cta") {
        MemScope::Cta
    } else if i.has_mod("sys") {
        MemScope::Sys
    } else {
        MemScope::Gpu
    }
}

impl Ctx<'_> {
    /// Lowers `i` when it needs a float-add loop; `None` otherwise.
    /// `.release`/`.acq_rel` put ptxas's releasing fence before the loop, `.acquire`/`.acq_rel`
    /// its L1 invalidation after the loop's join, as for the other atomics (`ordered.rs`).
    pub(crate) fn lower_float_loop_atomic(&mut self, i: &Instruction) -> Option<LResult<()>> {
        let kind = float_loop(i)?;
        let (release, acquire) = crate::atomic::memory_order(i);
        let scope = crate::atomic::fence_scope(memory_scope(i));
        if release {
            self.ordering_prologue(Some(Ordering::Release(scope)));
        }
        let lowered = match kind {
            FloatLoop::Generic => self.generic_float_add(i),
            FloatLoop::Half => self.half_add(i),
        };
        if acquire && lowered.is_ok() {
            self.ordering_epilogue(Some(Ordering::Acquire(scope)));
        }
        Some(lowered)
    }

    /// (destination, address, value) operands of `atom d, [a], v` / `red [a], v`.
    fn add_operands<'i>(
        &mut self,
        i: &'i Instruction,
    ) -> LResult<(Option<&'i Operand>, &'i Operand, &'i Operand)> {
        let red = i.opcode() == "red";
        let ops = crate::ctx::operands_exactly(i, if red { 2 } else { 3 })?;
        Ok(if red {
            (None, &ops[0], &ops[1])
        } else {
            (Some(&ops[0]), &ops[1], &ops[2])
        })
    }

    /// `ATOM.E.ADD P, old, [a], v; @P BRA after; LD.E old, [a]; loop: sum = old + v;
    /// found = ATOM.E.CAS [a], old, sum; old = found; @(found != old) BRA loop; after: d = old`.
    fn generic_float_add(&mut self, i: &Instruction) -> LResult<()> {
        let ty = i.ty().ok_or("atom without a type")?;
        let (aty, add) = add_of(ty).ok_or("no float add for this type")?;
        let (d, addr, data) = self.add_operands(i)?;
        let wide = ty == Type::F64;
        let (base, offset) = self.global_atomic_address(addr)?;
        let v = self.atomic_data(data, aty)?;
        let scope = memory_scope(i);
        let old = if wide { self.temp64() } else { self.temp() };
        let done = self.temp_pred();
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        let atom = Opcode::Atom {
            op: AtomOp::Add,
            ty: aty,
            scope,
            offset,
        };
        self.emit(atom, &[Dst::Reg(old), Dst::Reg(done)], &[base, v, desc]);
        let first = self.f.blocks.len() as u32;
        let after = first + 2;
        self.branch_if(Src::reg(done), after);
        self.f.blocks.push(Block::default());
        let size = if wide { MemSize::B64 } else { MemSize::B32 };
        let load = Opcode::Ld {
            size,
            scope: None,
            hint: CacheHint::NONE,
            offset,
        };
        self.emit(load, &[Dst::Reg(old)], &[base, desc]);
        self.f.blocks.push(Block::default());
        let cas = Opcode::Atom {
            op: AtomOp::Cas,
            ty: if wide { AtomType::U64 } else { AtomType::U32 },
            scope,
            offset,
        };
        self.cas_loop(old, wide, cas, base, |cx, old| {
            let sum = if wide { cx.temp64() } else { cx.temp() };
            // HADD2's third source is its (unused) C; FADD and DADD take two.
            let srcs = match add {
                Opcode::Half2 { .. } => vec![Src::reg(old), v, Src::ZERO],
                _ => vec![Src::reg(old), v],
            };
            cx.emit(add, &[Dst::Reg(sum)], &srcs);
            sum
        });
        self.f.blocks.push(Block::default());
        self.result_to(d, old, wide)
    }

    /// `high_half = (low & 2) != 0`: whether the half at address `low` is the word's high half.
    pub(crate) fn is_high_half(&mut self, low: Src) -> Reg {
        let bit = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(bit), Dst::None],
            &[low, Src::imm(2), Src::ZERO, Src::FALSE],
        );
        let high_half = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Ne,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(high_half), Dst::None],
            &[Src::reg(bit), Src::ZERO, Src::TRUE],
        );
        high_half
    }

    /// `high ? hi : lo`, the two immediates (PRMT selectors).
    pub(crate) fn select_imm(&mut self, high: Reg, hi: u32, lo: u32) -> Reg {
        let d = self.temp();
        let hi = self.in_reg(Src::imm(hi));
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[hi, Src::imm(lo), Src::reg(high)],
        );
        d
    }

    /// `PRMT d, a, sel, c`.
    pub(crate) fn permute_bytes(&mut self, a: Src, sel: Reg, c: Src) -> Reg {
        let d = self.temp();
        let mode = PrmtMode::Index;
        self.emit(
            Opcode::Prmt { mode },
            &[Dst::Reg(d)],
            &[a, Src::reg(sel), c],
        );
        d
    }

    /// A scalar f16/bf16 add: the word `w = a & ~3`, its half at bit `s = (a & 2) * 8`;
    /// `old = load w; loop: sum = HADD2(old, v.H0_H0); new = PRMT(old, keep, sum);
    /// found = CAS [w], old, new; ...; d = the half of old` (a PRMT with zero bytes above).
    fn half_add(&mut self, i: &Instruction) -> LResult<()> {
        let ty = i.ty().ok_or("atom without a type")?;
        let (_, add) = add_of(ty).ok_or("no float add for this type")?;
        let sp = space(i).ok_or("atom without an address space")?;
        let (d, addr, data) = self.add_operands(i)?;
        let scope = memory_scope(i);
        // The add takes the value's low half in both lanes; the PRMT keeps the other half.
        let v = self.reg_src32(data)?;
        let (word, low) = self.half_word_address(sp, addr)?;
        let high_half = self.is_high_half(low);
        // PRMT selectors: the sum's low half with the word's high half, or the reverse.
        let keep = self.select_imm(high_half, 0x7610, 0x3254);
        let old = self.temp();
        let (load, cas) = self.half_word_ops(sp, scope);
        self.emit(load, &[Dst::Reg(old)], &word.load_srcs());
        self.f.blocks.push(Block::default());
        self.cas_loop(old, false, cas, word.base, |cx, old| {
            let sum = cx.temp();
            cx.emit(add, &[Dst::Reg(sum)], &[Src::reg(old), v, Src::ZERO]);
            cx.permute_bytes(Src::reg(old), keep, Src::reg(sum))
        });
        self.f.blocks.push(Block::default());
        let Some(d) = d else { return Ok(()) };
        // The old half, zero-extended: bytes 2, 3 or 0, 1 of the word, then zero bytes of RZ.
        let pick = self.select_imm(high_half, 0x7732, 0x7710);
        let half = self.permute_bytes(Src::reg(old), pick, Src::ZERO);
        let d = self.dst(d)?;
        self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(half)]);
        Ok(())
    }

    /// The aligned word holding a half at `addr`, and the address's low 32 bits.
    pub(crate) fn half_word_address(&mut self, sp: Space, addr: &Operand) -> LResult<(Word, Src)> {
        if sp == Space::Shared {
            let (base, offset) = self.shared_atomic_address(addr)?;
            let a = self.temp();
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(a), Dst::None],
                &[base, Src::imm(offset as u32), Src::ZERO],
            );
            let w = self.temp();
            self.emit(
                Opcode::Lop3 { lut: 0xc0 },
                &[Dst::Reg(w), Dst::None],
                &[Src::reg(a), Src::imm(!3), Src::ZERO, Src::FALSE],
            );
            let word = Word {
                base: Src::reg(w),
                desc: None,
            };
            return Ok((word, Src::reg(a)));
        }
        let (base, offset) = self.global_atomic_address(addr)?;
        let SrcVal::Reg(b) = base.val else {
            return Err("global atomics need a 64-bit register address".into());
        };
        let a = self.temp64();
        let carry = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(a.part(0)), Dst::Reg(carry)],
            &[Src::reg(b.part(0)), Src::imm(offset as u32), Src::ZERO],
        );
        let high = if offset < 0 {
            Src::imm(u32::MAX)
        } else {
            Src::ZERO
        };
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(a.part(1)), Dst::None],
            &[
                Src::reg(b.part(1)),
                high,
                Src::ZERO,
                Src::reg(carry),
                Src::FALSE,
            ],
        );
        let w = self.temp64();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(w.part(0)), Dst::None],
            &[Src::reg(a.part(0)), Src::imm(!3), Src::ZERO, Src::FALSE],
        );
        self.emit(Opcode::Mov, &[Dst::Reg(w.part(1))], &[Src::reg(a.part(1))]);
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        let word = Word {
            base: Src::reg(w),
            desc: Some(desc),
        };
        Ok((word, Src::reg(a.part(0))))
    }

    /// The word load and the 32-bit compare-and-swap of a half add's space.
    pub(crate) fn half_word_ops(&self, sp: Space, scope: MemScope) -> (Opcode, Opcode) {
        let (size, offset) = (MemSize::B32, 0);
        let (op, ty) = (AtomOp::Cas, AtomType::U32);
        match sp {
            Space::Shared => (
                Opcode::Lds { size, offset },
                Opcode::Atoms { op, ty, offset },
            ),
            Space::Global => (
                Opcode::Ldg {
                    size,
                    constant: false,
                    scope: None,
                    hint: CacheHint::NONE,
                    offset,
                },
                Opcode::Atomg {
                    op,
                    ty,
                    scope,
                    offset,
                },
            ),
            Space::Generic => (
                Opcode::Ld {
                    size,
                    scope: None,
                    hint: CacheHint::NONE,
                    offset,
                },
                Opcode::Atom {
                    op,
                    ty,
                    scope,
                    offset,
                },
            ),
        }
    }

    /// The loop block (the current one): `new = step(old); found = CAS [base + off], {old, new};
    /// again = found != old; old = found; @again BRA loop`. `cas` carries the offset.
    fn cas_loop(
        &mut self,
        old: Reg,
        wide: bool,
        cas: Opcode,
        base: Src,
        step: impl FnOnce(&mut Self, Reg) -> Reg,
    ) {
        let loop_block = self.f.blocks.len() as u32 - 1;
        let new = step(self, old);
        let words = if wide { 2 } else { 1 };
        let group = self.f.new_vreg(RegFile::Gpr, 2 * words);
        for (k, value) in [old, new].into_iter().enumerate() {
            for w in 0..words {
                let part = if wide { value.part(w) } else { value };
                let to = group.part(k as u8 * words + w);
                self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(part)]);
            }
        }
        let found = if wide { self.temp64() } else { self.temp() };
        self.emit(cas, &[Dst::Reg(found)], &[base, Src::reg(group), Src::ZERO]);
        let again = self.differs(found, old, wide);
        for w in 0..words {
            let (to, from) = if wide {
                (old.part(w), found.part(w))
            } else {
                (old, found)
            };
            self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(from)]);
        }
        self.branch_if(again, loop_block);
    }

    /// `@p BRA target`, ending the current block.
    pub(crate) fn branch_if(&mut self, p: Src, target: u32) {
        self.emit(Opcode::Bra { target }, &[], &[]);
        if let Some(b) = self.f.blocks.last_mut().and_then(|b| b.instrs.last_mut()) {
            b.guard = p;
        }
    }

    /// `d = old` for an `atom` (nothing for `red`).
    fn result_to(&mut self, d: Option<&Operand>, old: Reg, wide: bool) -> LResult<()> {
        let Some(d) = d else { return Ok(()) };
        let d = self.dst(d)?;
        for w in 0..if wide { 2 } else { 1 } {
            let (to, from) = if wide {
                (d.part(w), old.part(w))
            } else {
                (d, old)
            };
            self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(from)]);
        }
        Ok(())
    }
}
