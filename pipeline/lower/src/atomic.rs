//! Atomics and reductions: `atom` and `red` on global memory (ATOMG, or RED when the old value is
//! unused), on shared memory (ATOMS) and on generic addresses (ATOM), with `.cta/.gpu/.sys` scopes; `.relaxed` is the plain
//! access, `.release`/`.acq_rel` put ptxas's releasing fence before it and `.acquire`/`.acq_rel`
//! its acquiring L1 invalidation after it (`ordered.rs`).

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use ptxforge_sass::warp::Scope;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};
use crate::ordered::Ordering;

/// The operation named by the instruction's modifiers.
fn atom_op(i: &Instruction) -> Option<AtomOp> {
    i.mods().iter().find_map(|m| {
        Some(match m.as_str() {
            "add" => AtomOp::Add,
            "min" => AtomOp::Min,
            "max" => AtomOp::Max,
            "inc" => AtomOp::Inc,
            "dec" => AtomOp::Dec,
            "and" => AtomOp::And,
            "or" => AtomOp::Or,
            "xor" => AtomOp::Xor,
            "exch" => AtomOp::Exch,
            "cas" => AtomOp::Cas,
            _ => return None,
        })
    })
}

/// The SASS operand type for a PTX type (bit types behave as unsigned).
fn atom_type(ty: Type) -> Option<AtomType> {
    Some(match ty {
        Type::U32 | Type::B32 => AtomType::U32,
        Type::S32 => AtomType::S32,
        Type::U64 | Type::B64 => AtomType::U64,
        Type::S64 => AtomType::S64,
        Type::F32 => AtomType::F32,
        Type::F64 => AtomType::F64,
        Type::F16x2 => AtomType::F16x2,
        Type::BF16x2 => AtomType::Bf16x2,
        _ => return None,
    })
}

/// `.cta` / `.gpu` (the default) / `.sys`; `None` for scopes not supported yet (`.cluster`).
fn scope(i: &Instruction) -> Option<MemScope> {
    if i.has_mod("cluster") {
        None
    } else if i.has_mod("cta") {
        Some(MemScope::Cta)
    } else if i.has_mod("sys") {
        Some(MemScope::Sys)
    } else {
        Some(MemScope::Gpu)
    }
}

/// An `atom`/`red` without a state space: a generic address (ATOM.E), global or shared.
pub(crate) fn is_generic(i: &Instruction) -> bool {
    matches!(i.opcode(), "atom" | "red")
        && !["global", "shared", "shared::cta", "shared::cluster"]
            .iter()
            .any(|s| i.has_mod(s))
}

/// (release, acquire): the fences an atomic's memory order asks for (`.relaxed` or none: neither).
pub(crate) fn memory_order(i: &Instruction) -> (bool, bool) {
    let acq_rel = i.has_mod("acq_rel");
    (
        acq_rel || i.has_mod("release"),
        acq_rel || i.has_mod("acquire"),
    )
}

/// The fence scope of an atomic's `.STRONG` scope.
pub(crate) fn fence_scope(scope: MemScope) -> Scope {
    match scope {
        MemScope::Cta => Scope::Cta,
        MemScope::Gpu => Scope::Gpu,
        MemScope::Sys => Scope::Sys,
    }
}

/// Whether the hardware has this operation on this type, in shared (`shared`) or global memory.
fn native(op: AtomOp, ty: AtomType, shared: bool) -> bool {
    match ty {
        AtomType::F32 | AtomType::F64 | AtomType::F16x2 | AtomType::Bf16x2 => {
            op == AtomOp::Add && !shared
        }
        AtomType::U64 | AtomType::S64 if shared => matches!(op, AtomOp::Exch | AtomOp::Cas),
        AtomType::U64 => !matches!(op, AtomOp::Inc | AtomOp::Dec),
        AtomType::S64 => matches!(op, AtomOp::Min | AtomOp::Max | AtomOp::Add),
        AtomType::U32 => true,
        AtomType::S32 => matches!(op, AtomOp::Min | AtomOp::Max | AtomOp::Add),
    }
}

impl Ctx<'_> {
    /// `atom` and `red`.
    pub fn lower_atomic(&mut self, i: &Instruction) -> LResult<()> {
        if crate::atomic_loop::is_shared_float_add(i) {
            return self.shared_float_add(i);
        }
        if let Some(done) = self.lower_float_loop_atomic(i) {
            return done;
        }
        if crate::atomic_cas16::is_cas16(i) {
            return self.lower_cas16(i);
        }
        let red = i.opcode() == "red";
        let ordered = i.has_mod("sc");
        let cache_hint = i.mods().iter().any(|m| m.starts_with("L2"));
        let (Some(op), Some(ty), Some(scope)) = (atom_op(i), i.ty().and_then(atom_type), scope(i))
        else {
            return Err(unsupported(i));
        };
        let shared = i.has_mod("shared") || i.has_mod("shared::cta");
        let generic = is_generic(i);
        if ordered
            || cache_hint
            || (red && op == AtomOp::Cas)
            || !(shared || generic || i.has_mod("global"))
            || (generic && ty.is_float())
            || !native(op, ty, shared)
        {
            return Err(unsupported(i));
        }
        let want = match (red, op) {
            (true, _) => 2,
            (false, AtomOp::Cas) => 4,
            (false, _) => 3,
        };
        crate::ctx::operands_exactly(i, want)?;
        let (release, acquire) = memory_order(i);
        let fence_scope = fence_scope(scope);
        if release {
            self.ordering_prologue(Some(Ordering::Release(fence_scope)));
        }
        let (addr, data) = if red {
            (&i.operands[0], &i.operands[1])
        } else {
            (&i.operands[1], &i.operands[2])
        };
        let old = if red {
            Dst::None
        } else {
            Dst::Reg(self.dst(&i.operands[0])?)
        };
        let data = if op == AtomOp::Cas {
            self.cas_values(data, &i.operands[3], ty)?
        } else {
            self.atomic_data(data, ty)?
        };
        if shared {
            let (base, offset) = self.shared_atomic_address(addr)?;
            self.emit(Opcode::Atoms { op, ty, offset }, &[old], &[base, data]);
        } else if generic {
            let (base, offset) = self.global_atomic_address(addr)?;
            let desc = match op {
                AtomOp::Cas => Src::ZERO,
                _ => self.desc.map_or(Src::ZERO, Src::reg),
            };
            let atom = Opcode::Atom {
                op,
                ty,
                scope,
                offset,
            };
            self.emit(atom, &[old], &[base, data, desc]);
        } else {
            let (base, offset) = self.global_atomic_address(addr)?;
            let desc = match op {
                AtomOp::Cas => Src::ZERO,
                _ => self.desc.map_or(Src::ZERO, Src::reg),
            };
            match old {
                Dst::None => self.emit(
                    Opcode::Red {
                        op,
                        ty,
                        scope,
                        offset,
                    },
                    &[],
                    &[base, data, desc],
                ),
                _ => self.emit(
                    Opcode::Atomg {
                        op,
                        ty,
                        scope,
                        offset,
                    },
                    &[old],
                    &[base, data, desc],
                ),
            }
        }
        if acquire {
            self.ordering_epilogue(Some(Ordering::Acquire(fence_scope)));
        }
        Ok(())
    }

    /// CAS's compare and new values moved into one fresh register group (a pair, or a quad for
    /// 64-bit types), the compare value first, which is where the hardware reads them.
    fn cas_values(&mut self, compare: &Operand, new: &Operand, ty: AtomType) -> LResult<Src> {
        let words = ty.words();
        let group = self.f.new_vreg(RegFile::Gpr, 2 * words);
        for (k, op) in [compare, new].into_iter().enumerate() {
            let halves = if ty.is_wide() {
                let (lo, hi) = self.src64(op)?;
                vec![lo, hi]
            } else {
                vec![self.src32(op)?]
            };
            for (h, s) in halves.into_iter().enumerate() {
                let part = group.part(k as u8 * words + h as u8);
                self.emit(Opcode::Mov, &[Dst::Reg(part)], &[s]);
            }
        }
        Ok(Src::reg(group))
    }

    /// The data operand in a register (a pair for 64-bit types; immediates are moved in).
    pub(crate) fn atomic_data(&mut self, op: &Operand, ty: AtomType) -> LResult<Src> {
        if !ty.is_wide() {
            return self.reg_src32(op);
        }
        if let Operand::Reg(n) = op {
            let r = self.vreg(n)?;
            if r.comps == 2 {
                return Ok(Src::reg(r));
            }
        }
        let (lo, hi) = self.src64(op)?;
        let t = self.temp64();
        self.emit(Opcode::Mov, &[Dst::Reg(t.part(0))], &[lo]);
        self.emit(Opcode::Mov, &[Dst::Reg(t.part(1))], &[hi]);
        Ok(Src::reg(t))
    }

    /// `[reg64 + offset]` of a global atomic.
    pub(crate) fn global_atomic_address(&mut self, addr: &Operand) -> LResult<(Src, i32)> {
        let (AddrBase::Reg(base), offset) = self.address(addr)? else {
            return Err("global atomics need a 64-bit register address".into());
        };
        let base = self.vreg(base)?;
        if base.comps != 2 {
            return Err("global addresses must be 64-bit registers".into());
        }
        Ok((Src::reg(base), offset as i32))
    }

    /// `[reg + offset]`, `[var + offset]` or `[imm]` of a shared atomic.
    pub(crate) fn shared_atomic_address(&mut self, addr: &Operand) -> LResult<(Src, i32)> {
        let (base, offset) = self.address(addr)?;
        Ok(match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                (
                    Src::reg(if r.comps == 2 { r.part(0) } else { r }),
                    offset as i32,
                )
            }
            AddrBase::Symbol(s) => {
                let off = *self
                    .shared
                    .get(&**s)
                    .ok_or_else(|| format!("Unknown symbol '{s}'"))?;
                self.shared_operand(off as i32 + offset as i32)
            }
            AddrBase::None => self.shared_operand(offset as i32),
        })
    }
}

/// Atomics whose old value nobody reads: ATOMS writes RZ and ATOMG becomes RED, as ptxas emits them.
pub fn demote_unused_atomics(f: &mut Function) {
    let mut read = vec![false; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Read {
                read[r.idx as usize] = true;
            }
        });
    }
    for i in f.blocks.iter_mut().flat_map(|b| b.instrs.iter_mut()) {
        let Dst::Reg(d) = i.dsts[0] else { continue };
        if read[d.idx as usize] {
            continue;
        }
        match i.op {
            Opcode::Atoms { .. } | Opcode::Atom { .. } => i.dsts[0] = Dst::None,
            Opcode::Atomg {
                op: AtomOp::Cas, ..
            } => i.dsts[0] = Dst::None,
            Opcode::Atomg {
                op,
                ty,
                scope,
                offset,
            } if op != AtomOp::Exch => {
                i.op = Opcode::Red {
                    op,
                    ty,
                    scope,
                    offset,
                };
                i.dsts[0] = Dst::None;
            }
            _ => {}
        }
    }
}
