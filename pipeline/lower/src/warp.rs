//! Lowering of warp-level and synchronisation instructions (`shfl.sync`, `vote`, `redux.sync`,
//! `activemask`, `bar.warp.sync`, `bar`/`barrier` with ids, counts and reductions, `membar`,
//! `fence`, `nanosleep`, `griddepcontrol`), and the warp pass that runs after lowering
//! ([`converge_warp_collectives`]).
//!
//! Convergence. Our code has no BSSY/BSYNC, so after a branch on a thread-varying predicate the
//! lanes of a warp may stay split (the hardware guarantees nothing more). A warp collective needs
//! the lanes of its member mask together, so the pass tracks, per program point, whether the warp
//! is provably converged (no thread-varying branch since the kernel started or since the last
//! `WARPSYNC` of the full mask) and puts `WARPSYNC mask` before every collective where it is not.
//! Where it is, the collective runs as is, as ptxas's code does.

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;
use ptxforge_sass::latency::is_variable_latency;
use ptxforge_sass::regalloc::successors;

use crate::ctx::{Ctx, LResult};

/// The member mask of every lane.
const FULL_MASK: u32 = u32::MAX;
/// Slot of a collective's member mask until the warp pass has used it.
const MASK_SLOT: usize = 4;

use crate::ctx::operands_exactly as operands;
use crate::ctx::unsupported;

impl Ctx<'_> {
    /// Dispatches the warp-level and synchronisation opcodes; `None` for other opcodes.
    pub fn lower_warp(&mut self, i: &Instruction) -> Option<LResult<()>> {
        Some(match i.opcode() {
            "shfl" => self.lower_shfl(i),
            "vote" => self.lower_vote(i),
            "redux" => self.lower_redux(i),
            "match" => self.lower_match(i),
            "activemask" => self.lower_activemask(i),
            "bar" if i.has_mod("warp") => self.lower_warp_sync(i),
            "bar" | "barrier" => self.lower_bar(i),
            "membar" | "fence" => self.lower_fence(i),
            "nanosleep" => self.lower_nanosleep(i),
            "griddepcontrol" => self.lower_griddepcontrol(i),
            _ => return None,
        })
    }

    /// `shfl.sync.{up,down,idx,bfly}.b32 d[|p], a, b, c, membermask`.
    fn lower_shfl(&mut self, i: &Instruction) -> LResult<()> {
        if !i.has_mod("sync") {
            return Err(unsupported(i));
        }
        let mode = if i.has_mod("up") {
            ShflMode::Up
        } else if i.has_mod("down") {
            ShflMode::Down
        } else if i.has_mod("bfly") {
            ShflMode::Bfly
        } else if i.has_mod("idx") {
            ShflMode::Idx
        } else {
            return Err(unsupported(i));
        };
        let o = operands(i, 5)?;
        let (d, p) = self.value_and_pred_dsts(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let b = match b.val {
            SrcVal::Imm(v) => Src::imm(v & 0x1f),
            _ => b,
        };
        let c = self.src32(&o[3])?;
        let c = match c.val {
            SrcVal::Imm(v) => Src::imm(v & 0x1f1f),
            _ => c,
        };
        let mask = self.src32(&o[4])?;
        self.emit(
            Opcode::Warp(WarpOp::Shfl(mode)),
            &[d, p],
            &[a, b, c, Src::NONE, mask],
        );
        Ok(())
    }

    /// `d` or `d|p` of a shuffle.
    fn value_and_pred_dsts(&mut self, op: &Operand) -> LResult<(Dst, Dst)> {
        match op {
            Operand::PredPair(pair) => {
                Ok((Dst::Reg(self.vreg(&pair.0)?), Dst::Reg(self.vreg(&pair.1)?)))
            }
            _ => Ok((Dst::Reg(self.dst(op)?), Dst::None)),
        }
    }

    /// `vote.sync.{all,any,uni}.pred d, {!}a, mask`, `vote.sync.ballot.b32 d, {!}a, mask` and the
    /// old spelling `vote.ballot.sync.b32`.
    fn lower_vote(&mut self, i: &Instruction) -> LResult<()> {
        if !i.has_mod("sync") {
            return Err(unsupported(i));
        }
        let o = operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let a = self.pred_src(&o[1])?;
        let mask = self.src32(&o[2])?;
        let (op, dsts) = if i.has_mod("ballot") {
            (VoteMode::Any, [Dst::Reg(d), Dst::None])
        } else if i.has_mod("any") {
            (VoteMode::Any, [Dst::None, Dst::Reg(d)])
        } else if i.has_mod("all") {
            (VoteMode::All, [Dst::None, Dst::Reg(d)])
        } else if i.has_mod("uni") {
            (VoteMode::Eq, [Dst::None, Dst::Reg(d)])
        } else {
            return Err(unsupported(i));
        };
        self.emit(
            Opcode::Warp(WarpOp::Vote(op)),
            &dsts,
            &[a, Src::NONE, Src::NONE, Src::NONE, mask],
        );
        Ok(())
    }

    /// `redux.sync.{add,min,max,and,or,xor}.type d, a, membermask` → REDUX into a uniform register
    /// and a MOV back (sm_80+). REDUX reduces over the executing lanes: with any member mask, as
    /// ptxas 13.5 does (it drops the mask), since a well-defined program runs it with exactly the
    /// mask's lanes; the warp pass puts `WARPSYNC mask` before it where the warp may have diverged.
    fn lower_redux(&mut self, i: &Instruction) -> LResult<()> {
        let ty = i.ty().ok_or_else(|| unsupported(i))?;
        if !i.has_mod("sync") || ty.is_float() || ty.size_bytes() != 4 {
            return Err(unsupported(i));
        }
        let op = [
            ("add", ReduxOp::Sum),
            ("min", ReduxOp::Min),
            ("max", ReduxOp::Max),
            ("and", ReduxOp::And),
            ("or", ReduxOp::Or),
            ("xor", ReduxOp::Xor),
        ]
        .into_iter()
        .find(|(m, _)| i.has_mod(m))
        .map(|(_, op)| op)
        .ok_or_else(|| unsupported(i))?;
        let o = operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let mask = self.src32(&o[2])?;
        let u = self.f.new_vreg(RegFile::UGpr, 1);
        let signed = ty.is_signed() && matches!(op, ReduxOp::Sum | ReduxOp::Min | ReduxOp::Max);
        self.emit(
            Opcode::Warp(WarpOp::Redux { op, signed }),
            &[Dst::Reg(u)],
            &[a, Src::NONE, Src::NONE, Src::NONE, mask],
        );
        self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(u)]);
        Ok(())
    }

    /// `activemask.b32 d` → `VOTE.ANY d, PT, PT`.
    fn lower_activemask(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 1)?;
        let d = self.dst(&o[0])?;
        self.emit(
            Opcode::Warp(WarpOp::Vote(VoteMode::Any)),
            &[Dst::Reg(d), Dst::None],
            &[Src::TRUE],
        );
        Ok(())
    }

    /// `bar.warp.sync mask`: a WARPSYNC that the warp pass keeps or drops.
    fn lower_warp_sync(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 1)?;
        let mask = self.src32(&o[0])?;
        self.emit(Opcode::Warp(WarpOp::Warpsync), &[], &[mask]);
        Ok(())
    }

    /// `bar{.cta}.sync`, `barrier{.cta}.sync{.aligned}`, `bar.arrive`, `barrier.arrive`,
    /// `bar.red.{popc,and,or}`: ids and thread counts as immediates or registers.
    fn lower_bar(&mut self, i: &Instruction) -> LResult<()> {
        let mode = if i.has_mod("red") {
            if i.has_mod("popc") {
                BarMode::RedPopc
            } else if i.has_mod("and") {
                BarMode::RedAnd
            } else if i.has_mod("or") {
                BarMode::RedOr
            } else {
                return Err(unsupported(i));
            }
        } else if i.has_mod("arrive") {
            BarMode::Arrive
        } else if i.has_mod("sync") || i.mods().iter().all(|m| m == "cta" || m == "aligned") {
            BarMode::Sync
        } else {
            return Err(unsupported(i));
        };
        let reduces = !matches!(mode, BarMode::Sync | BarMode::Arrive);
        let (dst, rest) = if reduces {
            (i.operands.first(), &i.operands[1.min(i.operands.len())..])
        } else {
            (None, &i.operands[..])
        };
        let (id, count, pred) = match (reduces, rest) {
            (false, [id]) => (id, None, None),
            (false, [id, count]) => (id, Some(count), None),
            (true, [id, pred]) => (id, None, Some(pred)),
            (true, [id, count, pred]) => (id, Some(count), Some(pred)),
            _ => {
                return Err(format!(
                    "Arguments mismatch for instruction '{}'",
                    i.opcode()
                ))
            }
        };
        let id = match self.src32(id)? {
            Src {
                val: SrcVal::Imm(v),
                ..
            } if v >= 16 => return Err("barrier id must be in 0..15".into()),
            s => s,
        };
        let count = match count {
            Some(c) => self.src32(c)?,
            None => Src::ZERO,
        };
        self.uses_barrier = true;
        let aligned = i.opcode() == "bar" || i.has_mod("aligned");
        if mode == BarMode::Sync && count == Src::ZERO && aligned {
            if let SrcVal::Imm(v) = id.val {
                self.emit(Opcode::BarSync { id: v }, &[], &[]);
                return Ok(());
            }
        }
        let defer = mode != BarMode::Arrive && (self.sm.num >= 90 || self.sm.num >= 80 && aligned);
        let p = match pred {
            Some(p) => self.pred_src(p)?,
            None => Src::TRUE,
        };
        let (id, count) = match (id.val, count.val) {
            (SrcVal::Reg(_), SrcVal::Reg(_)) => self.packed_barrier(id, count),
            _ => (id, self.in_reg_unless_imm_or_zero(count)?),
        };
        self.emit(
            Opcode::Warp(WarpOp::Bar {
                mode,
                defer,
                aligned,
            }),
            &[],
            &[id, count, p],
        );
        if let Some(d) = dst {
            let d = self.dst(d)?;
            let dsts = if mode == BarMode::RedPopc {
                [Dst::Reg(d), Dst::None]
            } else {
                [Dst::None, Dst::Reg(d)]
            };
            self.emit(Opcode::Warp(WarpOp::B2rResult), &dsts, &[]);
        }
        Ok(())
    }

    /// A register id and a register count in the one register BAR reads for both, as ptxas
    /// packs them: the count's low 12 bits at 16..27, the id's other bits kept
    /// (`LOP3.LUT R, count << 16, 0xfff0000, id, 0xe2`); both operands name it.
    fn packed_barrier(&mut self, id: Src, count: Src) -> (Src, Src) {
        let (shifted, packed) = (self.temp(), self.temp());
        let shl = crate::intops::shf(false, false, false, false);
        self.emit(shl, &[Dst::Reg(shifted)], &[count, Src::imm(16), Src::ZERO]);
        self.emit(
            Opcode::Lop3 { lut: 0xe2 },
            &[Dst::Reg(packed), Dst::None],
            &[Src::reg(shifted), Src::imm(0x0fff_0000), id, Src::FALSE],
        );
        (Src::reg(packed), Src::reg(packed))
    }

    /// BAR's count: an immediate below 4096, or a register (with an immediate id).
    fn in_reg_unless_imm_or_zero(&mut self, s: Src) -> LResult<Src> {
        match s.val {
            SrcVal::Imm(v) if v < 4096 => Ok(s),
            SrcVal::Zero | SrcVal::Reg(_) => Ok(s),
            _ => Err(
                "barrier thread counts other than immediates below 4096 are not supported yet"
                    .into(),
            ),
        }
    }

    /// `membar.{cta,gl,sys}`, `fence.{sc,acq_rel}.{cta,gpu,sys}` as ptxas emits them: MEMBAR, and
    /// beyond the CTA also ERRBAR (CGAERRBAR on sm_90) and an L1 invalidation.
    fn lower_fence(&mut self, i: &Instruction) -> LResult<()> {
        let scope = if i.has_mod("cta") {
            Scope::Cta
        } else if i.has_mod("gl") || i.has_mod("gpu") {
            Scope::Gpu
        } else if i.has_mod("sys") {
            Scope::Sys
        } else {
            return Err(unsupported(i));
        };
        let sc = match i.opcode() {
            "membar" => i.mods().len() == 1,
            _ if i.mods().len() == 2 && i.has_mod("sc") => true,
            _ if i.mods().len() == 2 && i.has_mod("acq_rel") => false,
            _ => return Err(unsupported(i)),
        };
        if !i.operands.is_empty() {
            return Err(format!(
                "Arguments mismatch for instruction '{}'",
                i.opcode()
            ));
        }
        self.emit(Opcode::Warp(WarpOp::Membar { sc, scope }), &[], &[]);
        if scope != Scope::Cta {
            self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
            if self.sm.num >= 90 {
                self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
            }
            self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
        }
        Ok(())
    }

    /// `nanosleep.u32 t` (immediate or register).
    fn lower_nanosleep(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 1)?;
        let t = self.src32(&o[0])?;
        self.emit(Opcode::Warp(WarpOp::Nanosleep), &[], &[t]);
        Ok(())
    }

    /// `griddepcontrol.wait` → ACQBULK, `griddepcontrol.launch_dependents` → PREEXIT (sm_90).
    fn lower_griddepcontrol(&mut self, i: &Instruction) -> LResult<()> {
        let op = if i.has_mod("wait") {
            WarpOp::Acqbulk
        } else if i.has_mod("launch_dependents") {
            WarpOp::Preexit
        } else {
            return Err(unsupported(i));
        };
        operands(i, 0)?;
        if self.sm.num < 90 {
            return Err(format!(
                "'{}.{}' requires sm_90 or higher",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        self.emit(Opcode::Warp(op), &[], &[]);
        Ok(())
    }

    /// The 32-bit value of an immediate, or of a register the function writes only with one `mov`
    /// of an immediate.
    pub(crate) fn constant_of(&self, op: &Operand) -> Option<u32> {
        match op {
            Operand::Imm(v) => Some(*v as u32),
            Operand::Reg(name) => {
                let mut value = None;
                for s in &self.ptx_function().body {
                    let ptxforge_ptx::ast::Statement::Instr(i) = s else {
                        continue;
                    };
                    let writes = match i.operands.first() {
                        Some(Operand::Reg(d)) => d == name,
                        Some(Operand::PredPair(pair)) => &pair.0 == name || &pair.1 == name,
                        Some(Operand::Vector(v)) => {
                            v.iter().any(|x| matches!(x, Operand::Reg(d) if d == name))
                        }
                        _ => false,
                    };
                    if !writes || i.opcode().starts_with("st") || i.opcode() == "bra" {
                        continue;
                    }
                    match (i.opcode(), i.guard().is_none(), i.operands.get(1), value) {
                        ("mov", true, Some(Operand::Imm(v)), None) if i.operands.len() == 2 => {
                            value = Some(*v as u32)
                        }
                        _ => return None,
                    }
                }
                value
            }
            _ => None,
        }
    }
}

/// After lowering: reads immediates into SHFL/NANOSLEEP/BAR operand slots where a register holds
/// a single-definition constant, then makes every warp collective run converged (see the module
/// documentation).
pub fn converge_warp_collectives(f: &mut Function, sm: Sm) {
    // Only warp operations are folded, synced or dropped: a function without any is left as it is.
    let has_warp_op = |b: &Block| {
        b.instrs
            .iter()
            .any(|i| matches!(i.op, Opcode::Warp(_) | Opcode::WarpgroupArrive))
    };
    if !f.blocks.iter().any(has_warp_op) {
        return;
    }
    let consts = single_def_constants(f);
    let constant = |s: &Src| -> Option<u32> {
        match s.val {
            SrcVal::Imm(v) => Some(v),
            SrcVal::Reg(r) if r.comps == 1 => consts.get(r.idx, r.comp),
            _ => None,
        }
    };
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            fold_constant_operands(i, &constant);
        }
    }
    let converged_in = converged_at_entry(f);
    for (b, block) in f.blocks.iter_mut().enumerate() {
        if !has_warp_op(block) {
            continue;
        }
        let mut converged = converged_in[b];
        let mut out = Vec::with_capacity(block.instrs.len());
        for mut i in block.instrs.drain(..) {
            match i.op {
                Opcode::Warp(WarpOp::Warpsync) => {
                    let mask = constant(&i.srcs[0]);
                    match mask {
                        // ptxas keeps an explicit full-warp sync from sm_80 on and drops it on sm_75
                        // in converged code; it drops one with a register mask.
                        Some(m) if !converged || sm.num >= 80 => {
                            i.srcs[0] = Src::imm(m);
                            out.push(i);
                        }
                        Some(_) => {}
                        None if converged => {}
                        None => out.push(i),
                    }
                    converged |= mask == Some(FULL_MASK);
                    continue;
                }
                // The warpgroup MMAs after WARPGROUP.ARRIVE (`wgmma.*.sync.aligned`) run with the
                // whole warp.
                Opcode::WarpgroupArrive if !converged => {
                    out.push(Instr::new(
                        Opcode::Warp(WarpOp::Warpsync),
                        &[],
                        &[Src::imm(FULL_MASK)],
                    ));
                    converged = true;
                }
                // activemask's VOTE (no member mask) reads which lanes run: nothing to sync.
                Opcode::Warp(op) if op.is_collective() && i.srcs[MASK_SLOT] != Src::NONE => {
                    if !converged {
                        // WARPSYNC takes the mask as an immediate when it is known, else from its
                        // register (each lane waits for the lanes of its own mask).
                        let mask = constant(&i.srcs[MASK_SLOT]).map_or(i.srcs[MASK_SLOT], Src::imm);
                        out.push(
                            Instr::new(Opcode::Warp(WarpOp::Warpsync), &[], &[mask])
                                .guarded(i.guard),
                        );
                        converged = mask == Src::imm(FULL_MASK) && i.guard == Src::TRUE;
                    }
                    i.srcs[MASK_SLOT] = Src::NONE;
                }
                _ => {}
            }
            out.push(i);
        }
        block.instrs = out;
    }
    match sm.num {
        ..80 => masks_in_registers(f, |_| true),
        90.. => masks_in_registers(f, |m| m != FULL_MASK),
        _ => {}
    }
}

/// WARPSYNC takes its mask from a register (`MOV R, mask; WARPSYNC R`) where the target has no
/// immediate form for it: every mask on sm_75 (as ptxas's code does), partial masks on sm_90
/// (whose immediate form means the whole warp).
fn masks_in_registers(f: &mut Function, needs_register: impl Fn(u32) -> bool) {
    for b in 0..f.blocks.len() {
        let instrs = std::mem::take(&mut f.blocks[b].instrs);
        let mut out = Vec::with_capacity(instrs.len());
        for mut i in instrs {
            if let (Opcode::Warp(WarpOp::Warpsync), SrcVal::Imm(m)) = (i.op, i.srcs[0].val) {
                if !needs_register(m) {
                    out.push(i);
                    continue;
                }
                let r = f.new_vreg(RegFile::Gpr, 1);
                out.push(Instr::new(Opcode::Mov, &[Dst::Reg(r)], &[Src::imm(m)]).guarded(i.guard));
                i.srcs[0] = Src::reg(r);
            }
            out.push(i);
        }
        f.blocks[b].instrs = out;
    }
}

/// The 32-bit parts written exactly once, by an unguarded `MOV r, imm`, with their values: a table
/// indexed by `vreg * width + part`.
struct SingleDefConstants {
    width: usize,
    value: Vec<Option<u32>>,
}

impl SingleDefConstants {
    fn get(&self, idx: u32, comp: u8) -> Option<u32> {
        let k = idx as usize * self.width + comp as usize;
        self.value.get(k).copied().flatten()
    }
}

/// `(vreg, part) -> value` for 32-bit parts written exactly once, by an unguarded `MOV r, imm`.
fn single_def_constants(f: &Function) -> SingleDefConstants {
    let (mut regs, mut width) = (0usize, 1usize);
    for i in f.instrs() {
        i.visit_regs(|r, _| {
            regs = regs.max(r.idx as usize + 1);
            width = width.max(r.comp as usize + r.comps as usize);
        });
    }
    // Writes per part, saturating at 2 (only "exactly once" matters).
    let mut writes = vec![0u8; regs * width];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                for c in r.comp..r.comp + r.comps {
                    let n = &mut writes[r.idx as usize * width + c as usize];
                    *n = (*n + 1).min(2);
                }
            }
        });
    }
    let mut value = vec![None; regs * width];
    for i in f.instrs() {
        let v = match (i.op, i.dsts[0], i.srcs[0].val) {
            (Opcode::Mov, Dst::Reg(d), SrcVal::Imm(v)) => (d, v),
            (Opcode::Mov, Dst::Reg(d), SrcVal::Zero) => (d, 0),
            _ => continue,
        };
        let (d, v) = v;
        let k = d.idx as usize * width + d.comp as usize;
        if i.guard == Src::TRUE && d.comps == 1 && d.file == RegFile::Gpr && writes[k] == 1 {
            value[k] = Some(v);
        }
    }
    SingleDefConstants { width, value }
}

/// SHFL lane and clamp, NANOSLEEP's time and BAR's id and count as immediates where known.
fn fold_constant_operands(i: &mut Instr, constant: &impl Fn(&Src) -> Option<u32>) {
    let Opcode::Warp(op) = i.op else { return };
    let slots: &[(usize, u32)] = match op {
        WarpOp::Shfl(_) => &[(1, 0x1f), (2, 0x1f1f)],
        WarpOp::Nanosleep => &[(0, u32::MAX)],
        WarpOp::Bar { .. } if matches!(i.srcs[1].val, SrcVal::Zero | SrcVal::Imm(_)) => &[(0, 0xf)],
        _ => &[],
    };
    for &(slot, bits) in slots {
        if let (SrcVal::Reg(_), Some(v)) = (i.srcs[slot].val, constant(&i.srcs[slot])) {
            i.srcs[slot] = Src::imm(v & bits);
        }
    }
}

/// Per block: whether every lane of the warp arrives together (no thread-varying branch on any
/// path from the entry since the last full-mask WARPSYNC).
fn converged_at_entry(f: &Function) -> Vec<bool> {
    let varying = varying_vregs(f);
    let n = f.blocks.len();
    let mut conv = vec![true; n];
    let mut changed = true;
    while changed {
        changed = false;
        let mut next = vec![true; n];
        for (b, block) in f.blocks.iter().enumerate() {
            let mut c = conv[b];
            for i in &block.instrs {
                match (i.op, i.guard.as_reg()) {
                    (Opcode::Bra { target }, g) => {
                        let diverges = g.is_some_and(|p| varying[p.idx as usize]);
                        c &= !diverges;
                        next[target as usize] &= c;
                    }
                    (Opcode::Warp(WarpOp::Warpsync), None)
                        if i.srcs[0].val == SrcVal::Imm(FULL_MASK) =>
                    {
                        c = true
                    }
                    _ => {}
                }
            }
            for s in successors(f, b) {
                if s == b + 1 {
                    next[s] &= c;
                }
            }
        }
        for b in 0..n {
            if next[b] != conv[b] && !next[b] {
                conv[b] = false;
                changed = true;
            }
        }
    }
    conv
}

/// Virtual registers whose value may differ between the lanes of a warp: everything computed from
/// thread ids, lane masks, loads, atomics, shuffles or other variable-latency results (or written
/// under such a guard).
fn varying_vregs(f: &Function) -> Vec<bool> {
    crate::divergence::varying_from(f, |i| match i.op {
        Opcode::S2r(sr) => !matches!(
            sr,
            SpecialReg::CtaIdX
                | SpecialReg::CtaIdY
                | SpecialReg::CtaIdZ
                | SpecialReg::CgaCtaId
                | SpecialReg::SharedWindowHi
        ),
        // Constant-bank loads, conversions and warp-wide results vary only with their sources.
        Opcode::Ldc { .. }
        | Opcode::LdcIndexed { .. }
        | Opcode::S2ur(_)
        | Opcode::I2f { .. }
        | Opcode::F2i { .. } => false,
        Opcode::Warp(WarpOp::Redux { .. } | WarpOp::B2rResult | WarpOp::Vote(_)) => false,
        // Each lane receives its own elements of the product.
        Opcode::Mma(_) | Opcode::MmaSp(_) => true,
        Opcode::Imma { .. } | Opcode::Bmma { .. } | Opcode::Dmma { .. } => true,
        // Loads, atomics, shuffles: every other result of variable latency may differ per lane.
        op => is_variable_latency(&op),
    })
}
