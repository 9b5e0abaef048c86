//! The lowering context: blocks, PTX register → virtual register mapping, operands, and dispatch.

use std::collections::HashMap;

use ptxforge_ptx::ast::{self, AddrBase, Operand, RegTable, Statement, Type};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

/// A kernel parameter's place in constant bank 0 (offset relative to `Sm::param_base`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamLayout {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub align: u32,
    /// `.ptr`: what the parameter points to.
    pub pointee: Option<ast::Pointee>,
}

/// The result of lowering one kernel.
#[derive(Clone, Debug)]
pub struct LoweredKernel {
    pub func: Function,
    pub params: Vec<ParamLayout>,
    pub param_bytes: u32,
    pub shared_bytes: u32,
    /// Alignment of the `.nv.shared.<kernel>` section (0: the kernel has none).
    pub shared_align: u32,
    /// The kernel names a shared variable (or has its own).
    pub uses_shared: bool,
    pub uses_barrier: bool,
    /// A loop branches back on a thread-varying condition (ptxas then records a CRS stack).
    pub divergent_loop: bool,
}

/// An instruction lowering could not handle, with its PTX line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub line: u32,
    pub message: String,
}

pub type LResult<T> = Result<T, String>;

pub struct Ctx<'a> {
    pub sm: Sm,
    module: &'a ast::Module,
    func: &'a ast::Function,
    regs: RegTable<'a>,
    pub f: Function,
    vregs: ptxforge_sass::fast_hash::FastMap<String, Reg>,
    params: HashMap<String, ParamLayout>,
    param_list: Vec<ParamLayout>,
    pub shared: HashMap<String, u32>,
    /// Registers holding a parameter's address, only used by `ld.param` and to derive others
    /// (`param_addr::param_address_regs`).
    pub param_regs: HashMap<String, crate::param_addr::ParamAddr>,
    /// The 32-bit offset registers of the indexed ones.
    pub param_index: HashMap<String, Reg>,
    /// Escaping parameter-address registers of a known offset (`param_addr::fixed_address_regs`).
    pub param_fixed: HashMap<String, i64>,
    shared_bytes: u32,
    shared_align: u32,
    labels: HashMap<String, u32>,
    /// Memory descriptor (sm_80+), loaded once in the entry block.
    pub desc: Option<Reg>,
    /// sm_90: start of this CTA's shared-memory window, `(SR_CgaCtaId << 24) + 0x400`.
    pub shared_base: Option<Reg>,
    /// Guard of the PTX instruction being lowered; applied to every instruction emitted for it.
    pub guard: Src,
    pub uses_barrier: bool,
    /// The command line's cache operators (`--def-load-cache` and friends).
    pub cache_policy: crate::cache_ops::CachePolicy,
    errors: Vec<LowerError>,
}

impl<'a> Ctx<'a> {
    pub fn new(module: &'a ast::Module, func: &'a ast::Function, sm: Sm) -> Ctx<'a> {
        let (param_list, _) = layout_params(&func.params, sm.param_base());
        let params = param_list
            .iter()
            .map(|p| (p.name.clone(), p.clone()))
            .collect();
        let crate::shared_layout::SharedLayout {
            offsets: shared,
            bytes: shared_bytes,
            align: shared_align,
        } = crate::shared_layout::layout(module, func);
        let param_regs = crate::param_addr::param_address_regs(func, |name| {
            param_list
                .iter()
                .find(|p| p.name.as_str() == name)
                .map(|p| p.offset)
        });
        let param_fixed = crate::param_addr::fixed_address_regs(func, |name| {
            param_list
                .iter()
                .find(|p| p.name.as_str() == name)
                .map(|p| p.offset)
        });
        let mut f = Function {
            name: func.name.clone(),
            ..Function::default()
        };
        f.blocks.push(Block::default());
        crate::local::lay_out_locals(&mut f, func);
        Ctx {
            sm,
            module,
            func,
            regs: RegTable::new(&func.regs),
            f,
            vregs: Default::default(),
            params,
            param_list,
            shared,
            shared_bytes,
            shared_align,
            param_regs,
            param_index: HashMap::new(),
            param_fixed,
            labels: HashMap::new(),
            desc: None,
            shared_base: None,
            guard: Src::TRUE,
            uses_barrier: false,
            cache_policy: Default::default(),
            errors: Vec::new(),
        }
    }

    /// Lowers every statement; errors are collected per instruction.
    pub fn lower_body(&mut self) {
        self.assign_labels();
        self.set_up_frame();
        self.load_descriptor();
        self.load_shared_base();
        self.bind_fragments();
        let mut after_branch = false;
        let loop_starts = loop_block_starts(&self.func.body);
        for (n, s) in self.func.body.iter().enumerate() {
            match s {
                Statement::Label { name, .. } => {
                    let b = self.labels[name.as_str()];
                    self.switch_to(b);
                    after_branch = false;
                }
                Statement::Instr(i) => {
                    if after_branch || loop_starts[n] {
                        self.new_block();
                    }
                    let from = crate::srcloc::position(&self.f);
                    if let Err(message) = self.lower_instr(i) {
                        self.errors.push(LowerError {
                            line: i.line,
                            message,
                        });
                    }
                    crate::srcloc::stamp_since(&mut self.f, from, i.line);
                    after_branch = ends_block(i);
                }
            }
        }
        if self.f.blocks.last().is_some_and(|b| b.instrs.is_empty()) && self.f.blocks.len() > 1 {
            let last = self.f.blocks.len() as u32 - 1;
            if !self.labels.values().any(|&b| b == last) {
                self.f.blocks.pop();
            }
        }
    }

    pub fn finish(self) -> Result<LoweredKernel, Vec<LowerError>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let param_bytes = self
            .param_list
            .iter()
            .map(|p| p.offset + p.size)
            .max()
            .unwrap_or(0);
        let divergent_loop = crate::divergence::has_divergent_backward_branch(&self.f);
        Ok(LoweredKernel {
            divergent_loop,
            func: self.f,
            params: self.param_list,
            param_bytes,
            shared_bytes: self.shared_bytes,
            shared_align: self.shared_align,
            uses_shared: !self.shared.is_empty()
                && crate::shared_layout::names_shared(self.func, &self.shared),
            uses_barrier: self.uses_barrier,
        })
    }

    /// Block numbers for labels, mirroring how `lower_body` cuts blocks.
    fn assign_labels(&mut self) {
        let mut block = 0u32;
        let mut block_empty = true;
        let mut after_branch = false;
        let loop_starts = loop_block_starts(&self.func.body);
        for (n, s) in self.func.body.iter().enumerate() {
            match s {
                Statement::Label { name, .. } => {
                    if !block_empty || after_branch {
                        block += 1;
                    }
                    self.labels.insert(name.to_string(), block);
                    block_empty = true;
                    after_branch = false;
                }
                Statement::Instr(i) => {
                    if after_branch || loop_starts[n] {
                        block += 1;
                    }
                    if crate::atomic_loop::is_shared_float_add(i) {
                        block += crate::atomic_loop::LOOP_BLOCKS;
                    }
                    if crate::tma::is_lane_loop(i) {
                        block += crate::tma::LOOP_BLOCKS;
                    }
                    block += crate::atomic_float::extra_blocks(i);
                    block += crate::atomic_cas16::extra_blocks(i);
                    if crate::cp_async_arrive::opens_loop(i) {
                        block += crate::cp_async_arrive::LOOP_BLOCKS;
                    }
                    if crate::trap::is_guarded_trap(i) {
                        block += crate::trap::TRAP_BLOCKS;
                    }
                    block_empty = false;
                    after_branch = ends_block(i);
                }
            }
        }
        let _ = block;
    }

    /// Continues emission in block `b` (creating blocks up to it).
    fn switch_to(&mut self, b: u32) {
        while self.f.blocks.len() <= b as usize {
            self.f.blocks.push(Block::default());
        }
    }

    fn new_block(&mut self) {
        self.f.blocks.push(Block::default());
    }

    fn load_descriptor(&mut self) {
        let Some(off) = self.sm.global_desc_offset() else {
            return;
        };
        let uses_global = self.func.body.iter().any(|s| {
            matches!(s, Statement::Instr(i) if matches!(i.opcode(), "ld" | "st" | "atom" | "red") && i.has_mod("global") || crate::mem::needs_descriptor(i))
        });
        if uses_global {
            let r = self.f.new_vreg(RegFile::UGpr, 2);
            let saved = self.guard;
            self.guard = Src::TRUE;
            self.emit(
                Opcode::Uldc { wide: true },
                &[Dst::Reg(r)],
                &[Src::cbuf(0, off as u16)],
            );
            self.guard = saved;
            self.desc = Some(r);
        }
    }

    /// At a subroutine's start: the descriptor and shared window again, its own (`subroutine.rs`).
    pub(crate) fn reload_function_constants(&mut self) {
        if self.desc.take().is_some() {
            self.load_descriptor();
        }
        if self.shared_base.take().is_some() {
            self.load_shared_base();
        }
    }

    /// On sm_90 shared addresses live in the cluster's window: compute this CTA's base once.
    fn load_shared_base(&mut self) {
        let uses_shared = self.func.body.iter().any(|s| {
            matches!(s, Statement::Instr(i) if matches!(i.opcode(), "ld" | "st" | "atom" | "red" | "wmma") && crate::mem::cta_shared(i))
        }) || !self.shared.is_empty();
        if self.sm.num < 90 || !uses_shared {
            return;
        }
        let (rank, window, base) = (
            self.f.new_vreg(RegFile::UGpr, 1),
            self.f.new_vreg(RegFile::UGpr, 1),
            self.f.new_vreg(RegFile::UGpr, 1),
        );
        let r = self.temp();
        self.emit(Opcode::S2ur(SpecialReg::CgaCtaId), &[Dst::Reg(rank)], &[]);
        self.emit(Opcode::Umov, &[Dst::Reg(window)], &[Src::imm(0x400)]);
        self.emit(
            Opcode::Ulea { shift: 0x18 },
            &[Dst::Reg(base)],
            &[Src::reg(rank), Src::reg(window)],
        );
        self.emit(Opcode::Mov, &[Dst::Reg(r)], &[Src::reg(base)]);
        self.shared_base = Some(r);
    }

    /// `[base + offset]` of a shared address given as an offset from the start of the window.
    pub fn shared_operand(&self, offset: i32) -> (Src, i32) {
        match self.shared_base {
            Some(b) => (Src::reg(b), offset),
            None => (Src::ZERO, offset),
        }
    }

    pub fn block_of(&self, label: &str) -> LResult<u32> {
        self.labels
            .get(label)
            .copied()
            .ok_or_else(|| format!("Unknown label '{label}'"))
    }

    /// Appends an instruction (with the current guard) to the current block.
    pub fn emit(&mut self, op: Opcode, dsts: &[Dst], srcs: &[Src]) {
        let i = Instr::new(op, dsts, srcs).guarded(self.guard);
        self.f.blocks.last_mut().unwrap().instrs.push(i);
    }

    pub fn temp(&mut self) -> Reg {
        self.f.new_vreg(RegFile::Gpr, 1)
    }

    pub fn temp64(&mut self) -> Reg {
        self.f.new_vreg(RegFile::Gpr, 2)
    }

    /// A new register pair with the 32-bit `halves` (low first) moved in.
    pub fn pair_of(&mut self, halves: [Src; 2]) -> Reg {
        let t = self.temp64();
        for (half, word) in [0, 1].into_iter().zip(halves) {
            self.emit(Opcode::Mov, &[Dst::Reg(t.part(half))], &[word]);
        }
        t
    }

    /// The declared type of a PTX register.
    pub(crate) fn reg_type(&self, name: &str) -> Option<Type> {
        self.regs.lookup(name)
    }

    /// Binds a PTX register, not used yet, to `r` (a register of a group; `mma.rs`).
    pub(crate) fn bind_vreg(&mut self, name: &str, r: Reg) {
        self.vregs.entry(name.to_string()).or_insert(r);
    }

    /// The register a PTX register is bound to, if it has been used or bound.
    pub(crate) fn bound_vreg(&self, name: &str) -> Option<Reg> {
        self.vregs.get(name).copied()
    }

    pub fn temp_pred(&mut self) -> Reg {
        self.f.new_vreg(RegFile::Pred, 1)
    }

    /// The virtual register of a PTX register (created on first use, sized by its declared type).
    pub fn vreg(&mut self, name: &str) -> LResult<Reg> {
        if let Some(r) = self.vregs.get(name) {
            return Ok(*r);
        }
        let ty = self
            .regs
            .lookup(name)
            .ok_or_else(|| format!("Unknown symbol '{name}'"))?;
        let r = match ty {
            Type::Pred => self.f.new_vreg(RegFile::Pred, 1),
            t if t.size_bytes() == 8 => self.f.new_vreg(RegFile::Gpr, 2),
            t if t.size_bytes() > 8 => {
                return Err(format!("registers of type {t:?} are not supported yet"))
            }
            _ => self.f.new_vreg(RegFile::Gpr, 1),
        };
        self.vregs.insert(name.to_string(), r);
        Ok(r)
    }

    pub fn dst(&mut self, op: &Operand) -> LResult<Reg> {
        match op {
            Operand::Reg(n) => self.vreg(n),
            _ => Err(format!("expected a register destination, found {op:?}")),
        }
    }

    /// A 32-bit source: register, immediate, special register, or a shared variable's address; a
    /// double-precision literal is narrowed by value, as ptxas does where a 32-bit float is wanted.
    pub fn src32(&mut self, op: &Operand) -> LResult<Src> {
        match op {
            Operand::Reg(n) => {
                let r = self.vreg(n)?;
                Ok(Src::reg(if r.comps == 2 { r.part(0) } else { r }))
            }
            Operand::Imm(v) => Ok(Src::imm(*v as u32)),
            Operand::F32(bits) => Ok(Src::imm(*bits)),
            Operand::F64(bits) => Ok(Src::imm(ast::narrow_f64_literal(*bits))),
            Operand::SpecialReg { name, comp } => self.special_reg(name, *comp).map(Src::reg),
            Operand::Symbol(s) if self.local_variable(s).is_some() => {
                let off = self.local_variable(s).unwrap_or(0);
                Ok(self.local_address(off))
            }
            Operand::Symbol(s) => match self.shared.get(s.as_str()).copied() {
                Some(off) => Ok(self.shared_address(off)),
                // A register plus an offset (`%r2+4`), which ptxas reads as the register.
                None if s.starts_with('%') && s.contains('+') => Err(format!(
                    "register plus offset operand '{s}' is not supported yet"
                )),
                None => Err(format!("Unknown symbol '{s}'")),
            },
            _ => Err(format!("unsupported operand {op:?}")),
        }
    }

    /// The two 32-bit halves of a 64-bit source.
    pub fn src64(&mut self, op: &Operand) -> LResult<(Src, Src)> {
        match op {
            Operand::Reg(n) => {
                let r = self.vreg(n)?;
                if r.comps != 2 {
                    return Err(format!("'{n}' is not a 64-bit register"));
                }
                Ok((Src::reg(r.part(0)), Src::reg(r.part(1))))
            }
            Operand::Imm(v) => Ok((
                Src::imm(*v as u64 as u32),
                Src::imm((*v as u64 >> 32) as u32),
            )),
            Operand::F64(bits) => Ok((Src::imm(*bits as u32), Src::imm((*bits >> 32) as u32))),
            // ptxas zero-extends a `0f` literal's bits where 64 bits are wanted.
            Operand::F32(bits) => Ok((Src::imm(*bits), Src::ZERO)),
            // A `.local` variable's address (`mov.u64 %SPL, __local_depot0`): 32 bits, high half 0.
            Operand::Symbol(s) if self.local_variable(s).is_some() => {
                let off = self.local_variable(s).unwrap_or(0);
                Ok((self.local_address(off), Src::ZERO))
            }
            Operand::SpecialReg { name, comp } => self.special_reg64(name, *comp),
            // A `.shared` variable's address (`mov.u64 %rd, tile`): 32 bits, high half 0.
            Operand::Symbol(s) if self.shared.contains_key(s.as_str()) => {
                let off = self.shared[s.as_str()];
                Ok((self.shared_address(off), Src::ZERO))
            }
            // A `.const` variable's address is its offset in constant bank 3 (`consts.rs`).
            Operand::Symbol(s) if self.const_offset(s).is_some() => {
                Ok((Src::imm(self.const_offset(s).unwrap_or(0)), Src::ZERO))
            }
            // A kernel parameter's address (`mov.b64 %rd, k_param_0`) that escapes the
            // `ld.param`-only analysis: its offset in the parameter block (`param_window.rs`).
            Operand::Symbol(s) if self.params.contains_key(s.as_str()) => {
                self.param_space_address(s)
            }
            Operand::Symbol(s) => match self.global_slot(s) {
                Some(slot) => self.global_address(slot),
                None => Err(format!("unsupported 64-bit operand {op:?}")),
            },
            _ => Err(format!("unsupported 64-bit operand {op:?}")),
        }
    }

    /// A source that must be a register: immediates are moved into a temporary.
    pub fn reg_src32(&mut self, op: &Operand) -> LResult<Src> {
        let s = self.src32(op)?;
        Ok(self.in_reg(s))
    }

    pub fn in_reg(&mut self, s: Src) -> Src {
        match s.val {
            SrcVal::Reg(_) | SrcVal::Zero => s,
            SrcVal::Imm(0) => Src::ZERO,
            _ => {
                let t = self.temp();
                self.emit(Opcode::Mov, &[Dst::Reg(t)], &[s]);
                Src::reg(t)
            }
        }
    }

    /// A predicate source (`%p`, `!%p`).
    pub fn pred_src(&mut self, op: &Operand) -> LResult<Src> {
        match op {
            Operand::Reg(n) => Ok(Src::reg(self.vreg(n)?)),
            Operand::NotReg(n) => Ok(Src::reg(self.vreg(n)?).negated()),
            Operand::Imm(v) => Ok(if *v != 0 { Src::TRUE } else { Src::FALSE }),
            _ => Err(format!("expected a predicate, found {op:?}")),
        }
    }

    /// Reads `%tid.x` and friends.
    fn special_reg(&mut self, name: &str, comp: Option<char>) -> LResult<Reg> {
        let axis = match comp {
            Some('x') | None => 0,
            Some('y') => 1,
            Some('z') => 2,
            Some(c) => return Err(format!("unsupported special register {name}.{c}")),
        };
        let t = self.temp();
        let sr = |x: [SpecialReg; 3]| x[axis];
        match name {
            "%tid" => self.emit(
                Opcode::S2r(sr([SpecialReg::TidX, SpecialReg::TidY, SpecialReg::TidZ])),
                &[Dst::Reg(t)],
                &[],
            ),
            "%ctaid" => self.emit(
                Opcode::S2r(sr([
                    SpecialReg::CtaIdX,
                    SpecialReg::CtaIdY,
                    SpecialReg::CtaIdZ,
                ])),
                &[Dst::Reg(t)],
                &[],
            ),
            "%laneid" => self.emit(Opcode::S2r(SpecialReg::LaneId), &[Dst::Reg(t)], &[]),
            "%lanemask_eq" => self.emit(Opcode::S2r(SpecialReg::LaneMaskEq), &[Dst::Reg(t)], &[]),
            "%lanemask_lt" => self.emit(Opcode::S2r(SpecialReg::LaneMaskLt), &[Dst::Reg(t)], &[]),
            "%lanemask_le" => self.emit(Opcode::S2r(SpecialReg::LaneMaskLe), &[Dst::Reg(t)], &[]),
            "%lanemask_gt" => self.emit(Opcode::S2r(SpecialReg::LaneMaskGt), &[Dst::Reg(t)], &[]),
            "%lanemask_ge" => self.emit(Opcode::S2r(SpecialReg::LaneMaskGe), &[Dst::Reg(t)], &[]),
            "%ntid" => self.load_const(t, 4 * axis as u32),
            "%nctaid" => self.load_const(t, 0xc + 4 * axis as u32),
            _ => return self.other_special_reg(name, comp, axis as u32),
        }
        Ok(t)
    }

    /// `t = c[0x0][offset]`: a MOV before sm_90, an LDC from sm_90 on.
    pub fn load_const(&mut self, t: Reg, offset: u32) {
        let op = if self.sm.num >= 90 {
            Opcode::Ldc { wide: false }
        } else {
            Opcode::Mov
        };
        self.emit(op, &[Dst::Reg(t)], &[Src::cbuf(0, offset as u16)]);
    }

    pub fn param(&self, name: &str) -> LResult<ParamLayout> {
        self.params
            .get(name)
            .cloned()
            .ok_or_else(|| format!("Unknown symbol '{name}'"))
    }

    /// The address of a shared variable at `offset`: an immediate, or base + offset on sm_90.
    fn shared_address(&mut self, offset: u32) -> Src {
        match self.shared_base {
            Some(b) if offset == 0 => Src::reg(b),
            Some(b) => {
                let t = self.temp();
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(t), Dst::None],
                    &[Src::reg(b), Src::imm(offset), Src::ZERO],
                );
                Src::reg(t)
            }
            None => Src::imm(offset),
        }
    }

    /// `[base+off]` of a memory operand.
    pub fn address<'o>(&self, op: &'o Operand) -> LResult<(&'o AddrBase, i64)> {
        match op {
            Operand::Addr { base, offset } => Ok((base, *offset)),
            _ => Err(format!("expected an address, found {op:?}")),
        }
    }

    /// Dispatches one PTX instruction (a one-element vector operand, `{%r1}`, as its element).
    fn lower_instr(&mut self, i: &ast::Instruction) -> LResult<()> {
        if let Some(scalar) = without_one_element_vectors(i) {
            return self.lower_instr(&scalar);
        }
        self.guard = match i.guard() {
            Some((neg, p)) => {
                let r = self.vreg(p)?;
                Src { neg, ..Src::reg(r) }
            }
            None => Src::TRUE,
        };
        if let Some(r) = self.lower_cluster(i) {
            return r;
        }
        if let Some(r) = self.lower_tma(i) {
            return r;
        }
        if let Some(r) = self.lower_tensormap(i) {
            return r;
        }
        if let Some(r) = self.lower_hopper_sync(i) {
            return r;
        }
        if let Some(r) = self.lower_wgmma(i) {
            return r;
        }
        if let Some(r) = self.lower_warp(i) {
            return r;
        }
        if let Some(r) = self.lower_cp_async_arrive(i) {
            return r;
        }
        if let Some(r) = self.lower_async(i) {
            return r;
        }
        if let Some(r) = self.lower_matrix_move(i) {
            return r;
        }
        if let Some(r) = self.lower_texture(i) {
            return r;
        }
        if let Some(r) = self.lower_legacy_int(i) {
            return r;
        }
        match i.opcode() {
            "ld" | "st" | "ldu" => self.lower_mem(i),
            "atom" | "red" => self.lower_atomic(i),
            "mma" if crate::mma_sparse::is_sparse(i) => self.lower_mma_sparse(i),
            "mma" if crate::mma_int::is_int_form(i) => self.lower_mma_int(i),
            "mma" if crate::mma_volta::is_volta_form(i) => self.lower_mma_volta(i),
            "cvt" if i.has_mod("pack") => self.lower_cvt_pack(i),
            "cvt" if crate::fp8_cvt::is_fp8_cvt(i) => self.lower_cvt_fp8(i),
            "cvt" if crate::tf32_cvt::is_tf32_cvt(i) => self.lower_cvt_tf32(i),
            "mma" => self.lower_mma(i),
            "wmma" => self.lower_wmma(i),
            _ if self.is_param_address_def(i) => self.lower_param_address_def(i),
            "prefetch" => self.lower_prefetch(i),
            "createpolicy" => self.lower_createpolicy(i),
            "vabsdiff4" if crate::video::is_vabsdiff4_u8(i) => self.lower_vabsdiff4(i),
            "vabsdiff2" if crate::video::is_vabsdiff2(i) => self.lower_vabsdiff2(i),
            _ if crate::pack::is_vector_mov(i) => self.lower_vector_mov(i),
            "bra" => {
                let target = match i.operands.first() {
                    Some(Operand::Symbol(l)) => self.block_of(l)?,
                    _ => return Err("bra needs a label".into()),
                };
                self.emit(Opcode::Bra { target }, &[], &[]);
                Ok(())
            }
            "__subentry" | "__subcall" | "__subret" => self.lower_subroutine_op(i),
            "__extcall" => self.lower_extern_call(i),
            "ret" | "exit" => {
                self.emit(Opcode::Exit, &[], &[]);
                Ok(())
            }
            // ptxas branches around a trap rather than predicate BPT (`trap.rs`).
            "trap" | "brkpt" if i.guard().is_some() => self.lower_guarded_trap(),
            "trap" | "brkpt" => {
                self.emit(Opcode::Warp(WarpOp::BptTrap), &[], &[]);
                Ok(())
            }
            "pmevent" => match i.operands.first() {
                Some(Operand::Imm(n)) => {
                    let mask = if i.has_mod("mask") {
                        *n
                    } else {
                        1 << (*n & 15)
                    };
                    self.emit(Opcode::Warp(WarpOp::Pmtrig), &[], &[Src::imm(mask as u32)]);
                    Ok(())
                }
                _ => Err(unsupported(i)),
            },
            _ if is_float_op(i) => self.lower_float(i),
            _ => self.lower_int(i),
        }
    }

    /// The PTX module of the function being lowered.
    pub(crate) fn module(&self) -> &'a ast::Module {
        self.module
    }

    /// The PTX function being lowered.
    pub(crate) fn ptx_function(&self) -> &'a ast::Function {
        self.func
    }
}

/// The message for an instruction form the back end does not lower yet: `'opcode.mods' is not
/// supported yet`, as ptxforge reports it in ptxas's diagnostic format.
pub(crate) fn unsupported(i: &ast::Instruction) -> String {
    format!(
        "'{}{}{}' is not supported yet",
        i.opcode(),
        if i.mods().is_empty() { "" } else { "." },
        i.mods().join(".")
    )
}

/// `i`'s operands when there are exactly `n`; otherwise ptxas's "Arguments mismatch" message.
pub(crate) fn operands_exactly(i: &ast::Instruction, n: usize) -> LResult<&[Operand]> {
    if i.operands.len() == n {
        Ok(&i.operands)
    } else {
        Err(format!(
            "Arguments mismatch for instruction '{}'",
            i.opcode()
        ))
    }
}

/// `i` with every one-element vector operand (`ld.global.b32 {%r1}, [a]`, as LLVM writes a
/// scalar access) replaced by its element, which is how ptxas reads it; `None` when it has none.
fn without_one_element_vectors(i: &ast::Instruction) -> Option<ast::Instruction> {
    let single = |o: &Operand| matches!(o, Operand::Vector(v) if v.len() == 1);
    if !i.operands.iter().any(single) {
        return None;
    }
    let operands = i
        .operands
        .iter()
        .map(|o| match o {
            Operand::Vector(v) if v.len() == 1 => v[0].clone(),
            _ => o.clone(),
        })
        .collect();
    let guard = i.guard().map(|(negated, p)| (negated, p.clone()));
    Some(ast::Instruction {
        operands: ast::Operands::new(guard, operands),
        ..i.clone()
    })
}

/// Whether the instruction ends a basic block.
fn ends_block(i: &ast::Instruction) -> bool {
    matches!(
        i.opcode(),
        "bra" | "ret" | "exit" | "__subcall" | "__subret"
    ) || starts_block(i)
}

/// `setmaxnreg.inc` is a retry loop of its own (`cluster.rs`): a block that branches to itself.
fn starts_block(i: &ast::Instruction) -> bool {
    i.opcode() == "setmaxnreg" && i.has_mod("inc")
}

/// For each statement, whether it opens a block of its own as [`starts_block`] asks: where its
/// block already holds instructions, or is the entry block (which holds the prologue).
fn loop_block_starts(body: &[Statement]) -> Vec<bool> {
    let mut out = vec![false; body.len()];
    let (mut block_empty, mut entry, mut after_branch) = (true, true, false);
    for (n, s) in body.iter().enumerate() {
        match s {
            Statement::Label { .. } => {
                entry &= block_empty && !after_branch;
                block_empty = true;
                after_branch = false;
            }
            Statement::Instr(i) => {
                if after_branch {
                    (entry, block_empty) = (false, true);
                }
                if starts_block(i) && (!block_empty || entry) {
                    out[n] = true;
                    entry = false;
                }
                block_empty = false;
                after_branch = ends_block(i);
            }
        }
    }
    out
}

fn is_float_op(i: &ast::Instruction) -> bool {
    !matches!(i.opcode(), "mov" | "selp" | "set" | "setp" | "ld" | "cvt")
        && i.ty().is_some_and(|t| t.is_float())
        || (i.opcode() == "setp" && i.types().last().is_some_and(|t| t.is_float()))
}

/// Parameter offsets, in declaration order. Lays the parameters out as ptxas does: each one aligned in constant bank 0 itself (its offset
/// plus `base`), so that a `.align 128` parameter's generic address is 128-byte aligned too.
fn layout_params(params: &[ast::VarDecl], base: u32) -> (Vec<ParamLayout>, u32) {
    let mut off = 0u32;
    let mut v = Vec::new();
    for p in params {
        let align = p.alignment().max(1);
        off = (base + off).div_ceil(align) * align - base;
        let size = p.size_bytes() as u32;
        v.push(ParamLayout {
            name: p.name.clone(),
            offset: off,
            size,
            align,
            pointee: p.pointee,
        });
        off += size;
    }
    (v, off)
}
