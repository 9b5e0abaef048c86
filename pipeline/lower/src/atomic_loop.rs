//! `atom/red.shared.add.{f32,f64}`: shared memory has no float atomic add, so ptxas loops: load
//! the word, add, compare-and-store (ATOMS.CAST.SPIN), again until the store found the value it
//! loaded. Here the compare-and-store is ATOMS.CAS, which returns the word it found: the loop
//! ends when that is the value the sum was computed from, and it is the next attempt's start
//! otherwise. The add is ptxas's (FADD without `.FTZ`, DADD), rounding to nearest. The loop adds
//! two blocks after the current one (`LOOP_BLOCKS`, counted when labels are numbered).

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Blocks a shared float add opens: the loop and the code after it.
pub(crate) const LOOP_BLOCKS: u32 = 2;

/// Whether `i` is lowered as a compare-and-store loop: an unguarded `atom`/`red` on shared memory
/// adding f32 or f64, without a memory order or cache hint.
pub(crate) fn is_shared_float_add(i: &Instruction) -> bool {
    matches!(i.opcode(), "atom" | "red")
        && (i.has_mod("shared") || i.has_mod("shared::cta"))
        && i.has_mod("add")
        && matches!(i.ty(), Some(Type::F32 | Type::F64))
        && i.guard().is_none()
        && !i.mods().iter().any(|m| {
            matches!(
                m.as_str(),
                "sc" | "acquire" | "release" | "acq_rel" | "noftz"
            ) || m.starts_with("L2")
        })
}

impl Ctx<'_> {
    /// The loop of `atom/red.shared.add.{f32,f64} [d,] [a], v`.
    pub(crate) fn shared_float_add(&mut self, i: &Instruction) -> LResult<()> {
        let red = i.opcode() == "red";
        crate::ctx::operands_exactly(i, if red { 2 } else { 3 })?;
        let (addr, data) = if red {
            (&i.operands[0], &i.operands[1])
        } else {
            (&i.operands[1], &i.operands[2])
        };
        let wide = i.ty() == Some(Type::F64);
        let (base, offset) = self.shared_atomic_address(addr)?;
        let v = if wide {
            self.double_src(data)?
        } else {
            self.reg_src32(data)?
        };
        let old = if wide { self.temp64() } else { self.temp() };
        let size = if wide { MemSize::B64 } else { MemSize::B32 };
        self.emit(Opcode::Lds { size, offset }, &[Dst::Reg(old)], &[base]);
        let loop_block = self.f.blocks.len() as u32;
        self.f.blocks.push(Block::default());
        let sum = if wide { self.temp64() } else { self.temp() };
        let add = if wide {
            Opcode::Dadd { rnd: Round::Rn }
        } else {
            Opcode::Fadd {
                ftz: false,
                rnd: Round::Rn,
            }
        };
        self.emit(add, &[Dst::Reg(sum)], &[Src::reg(old), v]);
        let words = if wide { 2 } else { 1 };
        let group = self.f.new_vreg(RegFile::Gpr, 2 * words);
        for (k, value) in [old, sum].into_iter().enumerate() {
            for w in 0..words {
                let part = if wide { value.part(w) } else { value };
                let to = group.part(k as u8 * words + w);
                self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(part)]);
            }
        }
        let found = if wide { self.temp64() } else { self.temp() };
        let ty = if wide { AtomType::U64 } else { AtomType::U32 };
        let cas = Opcode::Atoms {
            op: AtomOp::Cas,
            ty,
            offset,
        };
        self.emit(cas, &[Dst::Reg(found)], &[base, Src::reg(group)]);
        let again = self.differs(found, old, wide);
        for w in 0..words {
            let (to, from) = if wide {
                (old.part(w), found.part(w))
            } else {
                (old, found)
            };
            self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(from)]);
        }
        self.emit(Opcode::Bra { target: loop_block }, &[], &[]);
        if let Some(b) = self.f.blocks.last_mut().and_then(|b| b.instrs.last_mut()) {
            b.guard = again;
        }
        self.f.blocks.push(Block::default());
        if !red {
            let d = self.dst(&i.operands[0])?;
            for w in 0..words {
                let (to, from) = if wide {
                    (d.part(w), old.part(w))
                } else {
                    (d, old)
                };
                self.emit(Opcode::Mov, &[Dst::Reg(to)], &[Src::reg(from)]);
            }
        }
        Ok(())
    }

    /// The predicate `found != old` (both words for f64).
    pub(crate) fn differs(&mut self, found: Reg, old: Reg, wide: bool) -> Src {
        let ne = |combine| Opcode::Isetp {
            cmp: IntCmp::Ne,
            signed: false,
            combine,
            ex: false,
        };
        let p = self.temp_pred();
        if !wide {
            let srcs = [Src::reg(found), Src::reg(old), Src::TRUE];
            self.emit(ne(BoolOp::And), &[Dst::Reg(p), Dst::None], &srcs);
            return Src::reg(p);
        }
        let lo = [Src::reg(found.part(0)), Src::reg(old.part(0)), Src::TRUE];
        self.emit(ne(BoolOp::And), &[Dst::Reg(p), Dst::None], &lo);
        let q = self.temp_pred();
        let hi = [Src::reg(found.part(1)), Src::reg(old.part(1)), Src::reg(p)];
        self.emit(ne(BoolOp::Or), &[Dst::Reg(q), Dst::None], &hi);
        Src::reg(q)
    }
}
