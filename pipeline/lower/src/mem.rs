//! Loads and stores: kernel parameters (constant bank 0), global (LDG/STG), generic (LD/ST) and
//! shared memory (LDS/STS), scalar and `.v2`/`.v4` vectors.
//!
//! A vector of 32- or 64-bit elements is one wide access (`.64`/`.128`) through a register group
//! that the elements are copied out of (loads) or into (stores); copy propagation then reads the
//! loaded parts in place. Vectors of narrower elements, and parameter vectors, are split into one
//! access per element, as ptxas does for parameters.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::cache_ops::AccessOrder;
use crate::ctx::{Ctx, LResult};
use crate::param_addr::ParamSlot;

pub(crate) fn mem_size(ty: Type) -> MemSize {
    match (ty.size_bytes(), ty.is_signed()) {
        (1, true) => MemSize::S8,
        (1, false) => MemSize::U8,
        (2, true) => MemSize::S16,
        (2, false) => MemSize::U16,
        (8, _) => MemSize::B64,
        (16, _) => MemSize::B128,
        _ => MemSize::B32,
    }
}

/// The access size of `regs` consecutive 32-bit registers.
fn group_size(regs: u8) -> MemSize {
    match regs {
        2 => MemSize::B64,
        4 => MemSize::B128,
        _ => MemSize::B32,
    }
}

/// The state space an `ld`/`st` addresses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    Global {
        nc: bool,
    },
    Generic,
    Shared,
    /// This thread's local memory (LDL/STL, 32-bit addresses).
    Local,
}

/// Whether the instruction names the CTA's shared memory: `.shared`, or `.shared::cta` as LLVM
/// NVPTX and Triton's inline asm write it (the same window and addresses).
pub(crate) fn cta_shared(i: &Instruction) -> bool {
    i.has_mod("shared") || i.has_mod("shared::cta")
}

/// Whether the instruction reads or writes global memory through a 64-bit address (and so needs
/// the sm_80+ memory descriptor).
pub fn needs_descriptor(i: &Instruction) -> bool {
    crate::atomic::is_generic(i)
        || crate::tensormap::needs_descriptor(i)
        || (i.opcode() == "wmma" && !i.has_mod("mma") && !cta_shared(i))
        || (i.opcode() == "cp" && i.has_mod("async") && !i.has_mod("bulk") && i.has_mod("global"))
        || matches!(i.opcode(), "ld" | "st" | "ldu")
            && (i.has_mod("global")
                || ![
                    "param",
                    "shared",
                    "shared::cta",
                    "shared::cluster",
                    "local",
                    "const",
                ]
                .iter()
                .any(|s| i.has_mod(s)))
}

/// `.v2` / `.v4` (1 for scalars).
fn vector_width(i: &Instruction) -> LResult<usize> {
    match i
        .mods()
        .iter()
        .find(|m| m.starts_with('v') && m[1..].parse::<u32>().is_ok())
        .map(|m| m.as_str())
    {
        None => Ok(1),
        Some("v2") => Ok(2),
        Some("v4") => Ok(4),
        Some(v) => Err(format!("vector '{}.{v}' is not supported yet", i.opcode())),
    }
}

/// The `.STRONG` scope of an ordered access (`.relaxed.<scope>`, `.volatile`, and the access of
/// `.acquire`/`.release`, whose fences `ordered.rs` adds).
fn order_scope(i: &Instruction, space: Space) -> LResult<Option<MemScope>> {
    let ordering = crate::ordered::ordering(i)?;
    if matches!(space, Space::Shared | Space::Local) {
        return Ok(None);
    }
    if let Some(crate::ordered::Ordering::Acquire(s) | crate::ordered::Ordering::Release(s)) =
        ordering
    {
        return Ok(Some(crate::ordered::strong_scope(s)));
    }
    if i.has_mod("volatile") {
        return Ok(Some(MemScope::Sys));
    }
    if !i.has_mod("relaxed") {
        return Ok(None);
    }
    match () {
        _ if i.has_mod("cta") => Ok(Some(MemScope::Cta)),
        _ if i.has_mod("gpu") => Ok(Some(MemScope::Gpu)),
        _ if i.has_mod("sys") => Ok(Some(MemScope::Sys)),
        _ => Err(format!(
            "'{}.{}' is not supported yet",
            i.opcode(),
            i.mods().join(".")
        )),
    }
}

impl Ctx<'_> {
    /// `prefetch.global.L2 [a]`: CCTL.E.PF2, as ptxas emits it.
    pub fn lower_prefetch(&mut self, i: &Instruction) -> LResult<()> {
        if !(i.has_mod("global") && i.has_mod("L2")) || i.mods().len() != 2 || i.operands.len() != 1
        {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let (base, offset) = self.mem_address(Space::Global { nc: false }, &i.operands[0])?;
        self.emit(Opcode::CctlPf2 { offset }, &[], &[base]);
        Ok(())
    }

    pub fn lower_mem(&mut self, i: &Instruction) -> LResult<()> {
        // `.L2::cache_hint` takes a cache policy operand after the others.
        let hinted = i.has_mod("L2::cache_hint");
        crate::ctx::operands_exactly(i, 2 + usize::from(hinted))?;
        let width = vector_width(i)?;
        let ty = i.ty().ok_or("ld/st needs a type")?;
        let load = i.opcode() != "st";
        let (val, addr) = if load {
            (&i.operands[0], &i.operands[1])
        } else {
            (&i.operands[1], &i.operands[0])
        };
        let elems: Vec<&Operand> = match val {
            Operand::Vector(v) if v.len() == width && width > 1 => v.iter().collect(),
            _ if width == 1 => vec![val],
            _ => {
                return Err(format!(
                    "expected a vector of {width} elements, found {val:?}"
                ))
            }
        };
        if i.has_mod("param") {
            if !load {
                return Err(
                    "'st.param' is not supported yet (it passes a call's arguments: 'call' is not supported yet)".into(),
                );
            }
            for (k, e) in elems.iter().enumerate() {
                self.load_param(e, addr, ty, k as u32 * ty.size_bytes())?;
            }
            return Ok(());
        }
        let space = if cta_shared(i) {
            Space::Shared
        } else if i.has_mod("shared::cluster") {
            return Err(format!(
                "'{}.{}' (another CTA's shared memory) is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        } else if i.has_mod("global") {
            Space::Global {
                nc: i.has_mod("nc") || i.opcode() == "ldu",
            }
        } else if i.has_mod("local") {
            Space::Local
        } else if i.has_mod("const") && load && !i.has_mod("param") {
            return self.lower_ld_const(&elems, addr, ty);
        } else if i.has_mod("const") {
            return Err(format!(
                "'{}.{}' (generic or other state space) is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        } else {
            Space::Generic
        };
        let order = AccessOrder {
            scope: order_scope(i, space)?,
            hint: CacheHint::NONE,
        };
        let mut order = self.cache_policy.apply(i, space, order)?;
        order.hint.policy = hinted;
        let ordering = crate::ordered::ordering(i)?;
        let (base, offset) = self.mem_address(space, addr)?;
        let descriptor = self.desc;
        if hinted {
            if !matches!(space, Space::Global { .. } | Space::Generic) {
                return Err(crate::ctx::unsupported(i));
            }
            self.desc = Some(self.policy_descriptor(&i.operands[2])?);
        }
        self.ordering_prologue(ordering);
        let lowered = self.lower_access(i, space, order, base, offset, &elems, ty);
        self.desc = descriptor;
        lowered?;
        self.ordering_epilogue(ordering);
        Ok(())
    }

    /// The access of `lower_mem` itself, after its address is known.
    #[allow(clippy::too_many_arguments)]
    fn lower_access(
        &mut self,
        i: &Instruction,
        space: Space,
        order: AccessOrder,
        base: Src,
        offset: i32,
        elems: &[&Operand],
        ty: Type,
    ) -> LResult<()> {
        let load = i.opcode() != "st";
        let width = elems.len();
        let elem_regs = ty.size_bytes() / 4;
        if width > 1 && (elem_regs == 1 || elem_regs == 2) && width as u32 * elem_regs <= 4 {
            let regs = (width as u32 * elem_regs) as u8;
            return if load {
                self.load_vector(space, order, base, offset, elems, ty, regs)
            } else {
                self.store_vector(space, order, base, offset, elems, ty, regs)
            };
        }
        if width > 1 && ty.size_bytes() > 2 {
            return Err(format!(
                "vector '{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        for (k, e) in elems.iter().enumerate() {
            let off = offset + k as i32 * ty.size_bytes() as i32;
            if load {
                self.load_scalar(space, order, base, off, e, ty)?;
            } else {
                self.store_scalar(space, order, base, off, e, ty)?;
            }
        }
        Ok(())
    }

    /// `[base + offset]` of a global, generic or shared access.
    pub(crate) fn mem_address(&mut self, space: Space, addr: &Operand) -> LResult<(Src, i32)> {
        let (base, offset) = self.address(addr)?;
        let offset = offset as i32;
        if space == Space::Local {
            return self.local_mem_address(base, offset);
        }
        if space != Space::Shared {
            if let Some(base) = self.global_symbol_base(base) {
                return Ok((base?, offset));
            }
            let AddrBase::Reg(base) = base else {
                return Err("global accesses need a 64-bit register address".into());
            };
            let base = self.vreg(base)?;
            if base.comps != 2 {
                return Err("global addresses must be 64-bit registers".into());
            }
            return Ok((Src::reg(base), offset));
        }
        Ok(match base {
            AddrBase::Reg(r) => (Src::reg(self.vreg(r)?), offset),
            AddrBase::Symbol(s) => {
                let off = *self
                    .shared
                    .get(s.as_str())
                    .ok_or_else(|| format!("Unknown symbol '{s}'"))?;
                self.shared_operand(off as i32 + offset)
            }
            AddrBase::None => self.shared_operand(offset),
        })
    }

    /// `[base + offset]` of a local access: a register's low 32 bits, or a `.local` variable.
    fn local_mem_address(&mut self, base: &AddrBase, offset: i32) -> LResult<(Src, i32)> {
        match base {
            AddrBase::Reg(r) => {
                let r = self.vreg(r)?;
                Ok((Src::reg(if r.comps == 2 { r.part(0) } else { r }), offset))
            }
            AddrBase::Symbol(s) => {
                let off = self
                    .local_variable(s)
                    .ok_or_else(|| format!("'{s}' is not a .local variable of this function"))?;
                Ok(self.frame_operand(off as i32 + offset))
            }
            AddrBase::None => Ok((Src::ZERO, offset)),
        }
    }

    /// Emits the load or store of `size` at `[base + offset]` in `space`.
    pub(crate) fn emit_access(
        &mut self,
        space: Space,
        order: AccessOrder,
        size: MemSize,
        base: Src,
        offset: i32,
        load: Option<Reg>,
        data: Src,
    ) {
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        match (space, load) {
            (Space::Global { nc }, Some(d)) => self.emit(
                Opcode::Ldg {
                    size,
                    constant: nc,
                    scope: order.scope,
                    hint: order.hint,
                    offset,
                },
                &[Dst::Reg(d)],
                &[base, desc],
            ),
            (Space::Generic, Some(d)) => self.emit(
                Opcode::Ld {
                    size,
                    scope: order.scope,
                    hint: order.hint,
                    offset,
                },
                &[Dst::Reg(d)],
                &[base, desc],
            ),
            (Space::Shared, Some(d)) => {
                self.emit(Opcode::Lds { size, offset }, &[Dst::Reg(d)], &[base])
            }
            (Space::Global { .. }, None) => self.emit(
                Opcode::Stg {
                    size,
                    scope: order.scope,
                    hint: order.hint,
                    offset,
                },
                &[],
                &[base, data, desc],
            ),
            (Space::Generic, None) => self.emit(
                Opcode::St {
                    size,
                    scope: order.scope,
                    hint: order.hint,
                    offset,
                },
                &[],
                &[base, data, desc],
            ),
            (Space::Shared, None) => self.emit(Opcode::Sts { size, offset }, &[], &[base, data]),
            (Space::Local, Some(d)) => {
                self.emit(Opcode::Ldl { size, offset }, &[Dst::Reg(d)], &[base])
            }
            (Space::Local, None) => self.emit(Opcode::Stl { size, offset }, &[], &[base, data]),
        }
    }

    fn load_scalar(
        &mut self,
        space: Space,
        order: AccessOrder,
        base: Src,
        offset: i32,
        val: &Operand,
        ty: Type,
    ) -> LResult<()> {
        if *val == Operand::Sink {
            return Ok(());
        }
        let d = self.dst(val)?;
        let size = mem_size(ty);
        let narrow = self.narrow_target(d, size);
        self.emit_access(space, order, size, base, offset, Some(narrow), Src::NONE);
        self.widen_loaded(d, narrow, ty);
        Ok(())
    }

    fn store_scalar(
        &mut self,
        space: Space,
        order: AccessOrder,
        base: Src,
        offset: i32,
        val: &Operand,
        ty: Type,
    ) -> LResult<()> {
        let size = mem_size(ty);
        let data = self.store_data(val, size)?;
        self.emit_access(space, order, size, base, offset, None, data);
        Ok(())
    }

    /// One wide load into a fresh group of `regs` registers, then a copy of each element out of it.
    #[allow(clippy::too_many_arguments)]
    fn load_vector(
        &mut self,
        space: Space,
        order: AccessOrder,
        base: Src,
        offset: i32,
        elems: &[&Operand],
        ty: Type,
        regs: u8,
    ) -> LResult<()> {
        let group = self.f.new_vreg(RegFile::Gpr, regs);
        self.emit_access(
            space,
            order,
            group_size(regs),
            base,
            offset,
            Some(group),
            Src::NONE,
        );
        let per = regs / elems.len() as u8;
        for (k, e) in elems.iter().enumerate() {
            if **e == Operand::Sink {
                continue;
            }
            let d = self.dst(e)?;
            let first = k as u8 * per;
            if per == 2 {
                if d.comps != 2 {
                    return Err(format!("expected a 64-bit register, found {e:?}"));
                }
                self.emit(
                    Opcode::Mov,
                    &[Dst::Reg(d.part(0))],
                    &[Src::reg(group.part(first))],
                );
                self.emit(
                    Opcode::Mov,
                    &[Dst::Reg(d.part(1))],
                    &[Src::reg(group.part(first + 1))],
                );
            } else {
                let narrow = if d.comps == 2 { d.part(0) } else { d };
                self.emit(
                    Opcode::Mov,
                    &[Dst::Reg(narrow)],
                    &[Src::reg(group.part(first))],
                );
                self.widen_loaded(d, narrow, ty);
            }
        }
        Ok(())
    }

    /// Copies of each element into a fresh group of `regs` registers, then one wide store.
    #[allow(clippy::too_many_arguments)]
    fn store_vector(
        &mut self,
        space: Space,
        order: AccessOrder,
        base: Src,
        offset: i32,
        elems: &[&Operand],
        ty: Type,
        regs: u8,
    ) -> LResult<()> {
        let group = self.f.new_vreg(RegFile::Gpr, regs);
        let per = regs / elems.len() as u8;
        for (k, e) in elems.iter().enumerate() {
            let first = k as u8 * per;
            let parts = if per == 2 {
                let (lo, hi) = self.src64(e)?;
                vec![lo, hi]
            } else {
                vec![self.vector_element32(e, ty)?]
            };
            for (j, s) in parts.into_iter().enumerate() {
                self.emit(Opcode::Mov, &[Dst::Reg(group.part(first + j as u8))], &[s]);
            }
        }
        self.emit_access(
            space,
            order,
            group_size(regs),
            base,
            offset,
            None,
            Src::reg(group),
        );
        Ok(())
    }

    /// A 32-bit (or narrower) element of a stored vector of type `ty`: a double literal gives its
    /// low word unless `ty` is `.f32` (ptxas takes a literal's bits where no float is wanted).
    fn vector_element32(&mut self, e: &Operand, ty: Type) -> LResult<Src> {
        match e {
            Operand::F64(bits) if ty != Type::F32 => Ok(Src::imm(*bits as u32)),
            _ => self.src32(e),
        }
    }

    /// `ld.param` of one element at `elem_offset` bytes past the address.
    fn load_param(
        &mut self,
        val: &Operand,
        addr: &Operand,
        ty: Type,
        elem_offset: u32,
    ) -> LResult<()> {
        if *val == Operand::Sink {
            return Ok(());
        }
        let offset = match self.param_slot(addr, elem_offset)? {
            ParamSlot::Fixed(at) => at,
            ParamSlot::Indexed(index, at) => {
                let d = self.dst(val)?;
                let size = mem_size(ty);
                let narrow = self.narrow_target(d, size);
                self.emit(
                    Opcode::LdcIndexed { size },
                    &[Dst::Reg(narrow)],
                    &[Src::cbuf(0, at as u16), Src::reg(index)],
                );
                self.widen_loaded(d, narrow, ty);
                return Ok(());
            }
        };
        let d = self.dst(val)?;
        if ty.size_bytes() == 8 {
            if self.sm.num >= 90 {
                self.emit(
                    Opcode::Ldc { wide: true },
                    &[Dst::Reg(d)],
                    &[Src::cbuf(0, offset as u16)],
                );
            } else {
                self.emit(
                    Opcode::Mov,
                    &[Dst::Reg(d.part(0))],
                    &[Src::cbuf(0, offset as u16)],
                );
                self.emit(
                    Opcode::Mov,
                    &[Dst::Reg(d.part(1))],
                    &[Src::cbuf(0, offset as u16 + 4)],
                );
            }
        } else if ty.size_bytes() == 4 {
            let narrow = if d.comps == 2 { d.part(0) } else { d };
            self.load_const(narrow, offset);
            self.widen_loaded(d, narrow, ty);
        } else {
            // A byte or half: ULDC.U8/S8/U16/S16 (uniform, so never under a thread guard), then MOV.
            let u = self.f.new_vreg(RegFile::UGpr, 1);
            let guard = std::mem::replace(&mut self.guard, Src::TRUE);
            self.emit(
                Opcode::UldcNarrow { size: mem_size(ty) },
                &[Dst::Reg(u)],
                &[Src::cbuf(0, offset as u16)],
            );
            self.guard = guard;
            let narrow = if d.comps == 2 { d.part(0) } else { d };
            self.emit(Opcode::Mov, &[Dst::Reg(narrow)], &[Src::reg(u)]);
            self.widen_loaded(d, narrow, ty);
        }
        Ok(())
    }

    /// Where a load of `size` lands: the low half when a value narrower than 64 bits is loaded into
    /// a 64-bit register (`ld.global.s32 %rd1, [..]`), else the register itself.
    pub(crate) fn narrow_target(&self, d: Reg, size: MemSize) -> Reg {
        if d.comps == 2 && !matches!(size, MemSize::B64 | MemSize::B128) {
            d.part(0)
        } else {
            d
        }
    }

    /// Completes a narrow load into a 64-bit register: the high half is the sign (signed types) or zero.
    pub(crate) fn widen_loaded(&mut self, d: Reg, narrow: Reg, ty: Type) {
        if narrow == d {
            return;
        }
        if ty.is_signed() {
            let shf = Opcode::Shf {
                right: true,
                signed: true,
                wide: false,
                hi: true,
            };
            self.emit(
                shf,
                &[Dst::Reg(d.part(1))],
                &[Src::ZERO, Src::imm(31), Src::reg(narrow)],
            );
        } else {
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::ZERO]);
        }
    }

    /// The register a store writes from (immediates are moved to a register first).
    fn store_data(&mut self, val: &Operand, size: MemSize) -> LResult<Src> {
        if size == MemSize::B64 {
            return match val {
                Operand::Reg(n) => Ok(Src::reg(self.vreg(n)?)),
                _ => {
                    let (low, high) = self.src64(val)?;
                    Ok(Src::reg(self.pair_of([low, high])))
                }
            };
        }
        let s = self.src32(val)?;
        Ok(self.in_reg(s))
    }
}
