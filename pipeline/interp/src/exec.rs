//! Instruction dispatch for one thread: operand reads and writes, control flow, moves, compares and
//! selects; arithmetic, memory and collectives live in their own modules.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::machine::{Cta, Flow, Frame, Wait, CLUSTER_BARRIER};
use crate::prep::{Ins, Kind, Loc, Opnd, Sreg};

/// Bit width of a type (1 for predicates).
pub(crate) fn width(ty: Type) -> u32 {
    if ty == Type::Pred {
        1
    } else {
        ty.size_bytes() * 8
    }
}

/// Mask of the low `w` bits.
pub(crate) fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Sign-extends the low `w` bits of `v`.
pub(crate) fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

/// `v` truncated to `ty` and extended back to 64 bits per its signedness.
pub(crate) fn extend(v: u64, ty: Type) -> u64 {
    let w = width(ty);
    if ty.is_signed() {
        sext(v, w) as u64
    } else {
        v & mask(w)
    }
}

pub(crate) fn unsupported(ins: &Ins, detail: &str) -> SimError {
    let mut name = ins.op.clone();
    for m in &ins.mods {
        name.push('.');
        name.push_str(m);
    }
    SimError::Unsupported {
        opcode: name,
        line: ins.line,
        detail: detail.to_string(),
    }
}

/// The instruction's type, or an `Unsupported` error naming it.
pub(crate) fn ty_of(ins: &Ins) -> Result<Type, SimError> {
    ins.ty.ok_or_else(|| unsupported(ins, "no type modifier"))
}

impl Cta<'_, '_> {
    /// Reads operand `o` as raw bits for an instruction of type `ty`.
    pub(crate) fn read(&self, t: usize, o: &Opnd, ty: Type) -> Result<u64, SimError> {
        let th = &self.threads[t];
        let fr = th.frame();
        Ok(match o {
            Opnd::Reg(r) => fr.regs[*r as usize],
            Opnd::NotReg(r) => !fr.regs[*r as usize] & 1,
            Opnd::Imm(v) => match ty {
                Type::F32 => (*v as f32).to_bits() as u64,
                Type::F64 => (*v as f64).to_bits(),
                _ => *v as u64,
            },
            // ptxas zero-extends a `0f` literal where 64 bits are wanted, and narrows a double
            // literal by value where a 32-bit float is.
            Opnd::F32(b) => *b as u64,
            Opnd::F64(b) => match ty {
                Type::F32 => u64::from(ptxforge_ptx::ast::narrow_f64_literal(*b)),
                _ => *b,
            },
            Opnd::Special(s) => self.special(t, *s),
            Opnd::Sym(loc) => self.sym_addr(t, *loc),
            Opnd::Func(i) => *i as u64,
            Opnd::Sink => 0,
            Opnd::Vec(v) => {
                let lw = width(ty) / v.len().max(1) as u32;
                let mut acc = 0u64;
                for (i, x) in v.iter().enumerate() {
                    let lane_ty = uint_of_width(lw);
                    acc |= (self.read(t, x, lane_ty)? & mask(lw)) << (lw * i as u32);
                }
                acc
            }
            Opnd::Unresolved(n) => {
                return Err(SimError::BadModule(format!("unresolved name '{n}'")))
            }
            Opnd::Mem(..) | Opnd::Pair(..) | Opnd::Label(_) => {
                return Err(SimError::BadModule(
                    "an address, label or predicate pair used as a value".into(),
                ))
            }
        })
    }

    /// Writes `v` to destination `o` (masked to the register's width; vectors are unpacked by `ty`).
    pub(crate) fn write(&mut self, t: usize, o: &Opnd, v: u64, ty: Type) -> Result<(), SimError> {
        match o {
            Opnd::Reg(r) => {
                let f = self.threads[t].frame().func;
                let bits = self.prog.funcs[f].reg_bits[*r as usize] as u32;
                self.threads[t].frame_mut().regs[*r as usize] = v & mask(bits);
            }
            Opnd::Sink => {}
            Opnd::Vec(parts) => {
                let lw = width(ty) / parts.len().max(1) as u32;
                for (i, x) in parts.iter().enumerate() {
                    self.write(t, x, (v >> (lw * i as u32)) & mask(lw), uint_of_width(lw))?;
                }
            }
            Opnd::Pair(p, _) => self.write(t, &Opnd::Reg(*p), v, ty)?,
            _ => {
                return Err(SimError::BadModule(
                    "instruction result written to a non-register".into(),
                ))
            }
        }
        Ok(())
    }

    /// Address value of a variable in its own space (what `mov r, sym` yields).
    pub(crate) fn sym_addr(&self, t: usize, loc: Loc) -> u64 {
        let fr = self.threads[t].frame();
        match loc {
            Loc::Global(a) | Loc::Shared(a) | Loc::Const(a) | Loc::KernelParam(a) => a,
            Loc::FrameParam(o) => fr.param_base + o,
            Loc::Local(o) => fr.local_base + o,
        }
    }

    fn special(&self, t: usize, s: Sreg) -> u64 {
        let th = &self.threads[t];
        let lane = th.lane();
        let info = self.info;
        (match s {
            Sreg::Tid(c) => th.id.tid[c],
            Sreg::Ntid(c) => info.block[c],
            Sreg::Ctaid(c) => th.id.ctaid[c],
            Sreg::Nctaid(c) => info.grid[c],
            Sreg::Laneid => lane,
            Sreg::Warpid => th.warp(),
            Sreg::Nwarpid => (self.threads.len() as u32).div_ceil(32),
            Sreg::LanemaskEq => 1 << lane,
            Sreg::LanemaskLe => (mask(lane + 1)) as u32,
            Sreg::LanemaskLt => mask(lane) as u32,
            Sreg::LanemaskGe => !(mask(lane) as u32),
            Sreg::LanemaskGt => !(mask(lane + 1) as u32),
            Sreg::Clock => 0,
            Sreg::Clock64 => return 0,
            Sreg::DynSmem => info.dyn_smem as u32,
            Sreg::TotalSmem => info.total_smem as u32,
            Sreg::Fixed(v) => return v,
        }) as u64
    }

    /// Executes one instruction (its guard already passed).
    pub(crate) fn exec(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        match ins.kind {
            Kind::Branch => self.branch(t, ins),
            Kind::Ret => Ok(Flow::Ret),
            Kind::Exit => Ok(Flow::Exit),
            Kind::Call => self.call(t, ins),
            Kind::Trap => Err(SimError::Trap {
                thread: self.threads[t].id,
                line: ins.line,
            }),
            Kind::Sleep => Ok(Flow::Block(Wait::Yield { retry: false })),
            Kind::NoEffect => self.no_effect(t, ins),
            Kind::Mov => self.mov(t, ins),
            Kind::Load => self.load(t, ins),
            Kind::Store => self.store(t, ins),
            Kind::Atomic => self.atomic(t, ins),
            Kind::Cvta => self.cvta(t, ins),
            Kind::Mapa => self.mapa(t, ins),
            Kind::Mbarrier => self.mbarrier(t, ins),
            Kind::CpAsync if ins.has("bulk") => self.cp_bulk(t, ins),
            Kind::CpAsync => self.cp_async(t, ins),
            Kind::Isspacep => self.isspacep(t, ins),
            Kind::Cvt => self.convert(t, ins),
            Kind::Setp => self.setp(t, ins),
            Kind::Set => self.set(t, ins),
            Kind::Selp => self.selp(t, ins),
            Kind::Slct => self.slct(t, ins),
            Kind::Testp => self.testp(t, ins),
            Kind::Barrier => self.barrier(t, ins),
            Kind::Warp => self.warp_wait(t, ins),
            Kind::Arith => self.arith(t, ins),
            Kind::Wgmma => self.wgmma(t, ins),
            Kind::Unknown => Err(unsupported(ins, "")),
        }
    }

    fn no_effect(&mut self, _t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.op == "createpolicy" {
            return self.createpolicy(_t, ins);
        }
        Ok(Flow::Next)
    }

    fn branch(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.op == "brx" {
            return Err(unsupported(ins, "indirect branch through a label table"));
        }
        match ins.ops.first() {
            Some(Opnd::Label(i)) => Ok(Flow::Jump(*i)),
            Some(Opnd::Unresolved(n)) => Err(SimError::BadModule(format!(
                "line {}: unknown label '{n}'",
                ins.line
            ))),
            _ => {
                let _ = t;
                Err(unsupported(ins, "branch target is not a label"))
            }
        }
    }

    fn call(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let fpos = ins
            .ops
            .iter()
            .position(|o| !matches!(o, Opnd::Vec(_)))
            .ok_or_else(|| unsupported(ins, "call without a target"))?;
        let Opnd::Func(callee) = ins.ops[fpos] else {
            return Err(unsupported(
                ins,
                "indirect call or call to an undefined function",
            ));
        };
        let rets = if fpos > 0 {
            vec_items(&ins.ops[0])
        } else {
            &[]
        };
        let args = ins.ops.get(fpos + 1).map_or(&[][..], vec_items);
        if self.threads[t].frames.len() as u32 >= self.limits.max_call_depth {
            return Err(SimError::CallDepth {
                thread: self.threads[t].id,
                line: ins.line,
            });
        }
        let prog = self.prog;
        let caller = &prog.funcs[self.threads[t].frame().func];
        let f = &prog.funcs[callee];
        // Argument bytes, read in the caller's frame.
        let mut arg_bytes = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let size = f.params.get(i).map_or(0, |p| p.1) as usize;
            let bytes = match a {
                Opnd::Sym(Loc::FrameParam(o)) => {
                    let at = (self.threads[t].frame().param_base + o) as usize;
                    let n = caller
                        .param_vars
                        .get(o)
                        .map_or(size, |s| *s as usize)
                        .min(size);
                    let mut b = self.threads[t].fparam[at..at + n].to_vec();
                    b.resize(size, 0);
                    b
                }
                _ => self
                    .read(t, a, uint_of_width((size as u32 * 8).clamp(8, 64)))?
                    .to_le_bytes()[..size.min(8)]
                    .to_vec(),
            };
            arg_bytes.push(bytes);
        }
        let mut ret_to = Vec::new();
        for r in rets {
            match r {
                Opnd::Sym(Loc::FrameParam(o)) => {
                    let size = caller.param_vars.get(o).copied().unwrap_or(0);
                    ret_to.push((self.threads[t].frame().param_base + o, size));
                }
                _ => return Err(unsupported(ins, "return value not in a .param variable")),
            }
        }
        if f.external {
            return self.call_external(t, ins, &f.name, &ret_to, &arg_bytes);
        }
        let th = &mut self.threads[t];
        let param_base = th.fparam.len().div_ceil(16) as u64 * 16;
        let local_base = th.local.len().div_ceil(16) as u64 * 16;
        if local_base + f.local_size > self.limits.max_local_bytes {
            return Err(SimError::CallDepth {
                thread: th.id,
                line: ins.line,
            });
        }
        th.fparam.resize((param_base + f.param_size) as usize, 0);
        th.local.resize((local_base + f.local_size) as usize, 0);
        for (bytes, (off, _)) in arg_bytes.iter().zip(&f.params) {
            let at = (param_base + off) as usize;
            th.fparam[at..at + bytes.len()].copy_from_slice(bytes);
        }
        th.frames.push(Frame {
            func: callee,
            pc: 0,
            regs: vec![0; f.reg_bits.len()],
            local_base,
            param_base,
            ret_to,
        });
        Ok(Flow::Call)
    }

    /// Calls to bodiless functions: `vprintf` prints nothing and returns 0; others are unsupported.
    fn call_external(
        &mut self,
        t: usize,
        ins: &Ins,
        name: &str,
        ret_to: &[(u64, u64)],
        args: &[Vec<u8>],
    ) -> Result<Flow, SimError> {
        if !crate::syscall::MODELLED.contains(&name) {
            return Err(unsupported(
                ins,
                &format!("call to external function '{name}'"),
            ));
        }
        let result = self
            .syscall(t, name, args)
            .map_err(|e| crate::syscall::model_error(ins.line, name, e))?;
        for &(at, size) in ret_to {
            let slot = &mut self.threads[t].fparam[at as usize..(at + size) as usize];
            slot.fill(0);
            let n = slot.len().min(4);
            slot[..n].copy_from_slice(&result.to_le_bytes()[..n]);
        }
        Ok(Flow::Next)
    }

    /// `mapa{.shared::cluster}.type d, a, rank`: clusters hold one CTA, so only rank 0 exists and
    /// the address maps to itself.
    fn mapa(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let a = self.read(t, operand(ins, 1)?, ty)?;
        let rank = self.read(t, operand(ins, 2)?, Type::U32)?;
        if rank != 0 {
            return Err(unsupported(
                ins,
                "cluster rank other than 0 (clusters hold one CTA)",
            ));
        }
        self.write(t, operand(ins, 0)?, a, ty)?;
        Ok(Flow::Next)
    }

    fn mov(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let [d, a] = ops2(ins)?;
        let v = self.read(t, a, ty)?;
        self.write(t, d, v, ty)?;
        Ok(Flow::Next)
    }

    fn setp(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let cmp = ins.mods.first().map(String::as_str).unwrap_or("");
        let a = self.read(t, operand(ins, 1)?, ty)?;
        let b = self.read(t, operand(ins, 2)?, ty)?;
        let ftz = ins.has("ftz");
        let cmp_lanes = |shift: u32, lane_ty: Type| {
            compare(cmp, a >> shift & 0xffff, b >> shift & 0xffff, lane_ty, ftz)
                .ok_or_else(|| unsupported(ins, "comparison"))
        };
        let (r, rn) = match ty {
            // Packed halves: p from the low halves, q from the high halves, each combined.
            Type::F16x2 | Type::BF16x2 => {
                let lane_ty = if ty == Type::F16x2 {
                    Type::F16
                } else {
                    Type::BF16
                };
                let lo = self.combine(t, ins, cmp_lanes(0, lane_ty)?, 3)?.0;
                let hi = self.combine(t, ins, cmp_lanes(16, lane_ty)?, 3)?.0;
                (lo, hi)
            }
            _ => {
                let r =
                    compare(cmp, a, b, ty, ftz).ok_or_else(|| unsupported(ins, "comparison"))?;
                self.combine(t, ins, r, 3)?
            }
        };
        match operand(ins, 0)? {
            Opnd::Pair(p, q) => {
                self.write(t, &Opnd::Reg(*p), r as u64, Type::Pred)?;
                self.write(t, &Opnd::Reg(*q), rn as u64, Type::Pred)?;
            }
            d => self.write(t, d, r as u64, Type::Pred)?,
        }
        Ok(Flow::Next)
    }

    /// Applies `.and`/`.or`/`.xor` with the optional predicate operand `ops[idx]`; returns (r, complement).
    fn combine(&self, t: usize, ins: &Ins, r: bool, idx: usize) -> Result<(bool, bool), SimError> {
        let Some(c) = ins.ops.get(idx) else {
            return Ok((r, !r));
        };
        let c = self.read(t, c, Type::Pred)? & 1 != 0;
        let f = |x: bool| {
            if ins.has("and") {
                x && c
            } else if ins.has("or") {
                x || c
            } else if ins.has("xor") {
                x ^ c
            } else {
                x
            }
        };
        Ok((f(r), f(!r)))
    }

    fn set(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let (dty, sty) = two_types(ins)?;
        let cmp = ins.mods.first().map(String::as_str).unwrap_or("");
        let a = self.read(t, operand(ins, 1)?, sty)?;
        let b = self.read(t, operand(ins, 2)?, sty)?;
        if matches!(sty, Type::F16 | Type::BF16 | Type::F16x2 | Type::BF16x2) {
            return self.set_half(t, ins, (dty, sty), (a, b), cmp);
        }
        let r = compare(cmp, a, b, sty, ins.has("ftz"))
            .ok_or_else(|| unsupported(ins, "comparison"))?;
        let (r, _) = self.combine(t, ins, r, 3)?;
        let v = match dty {
            Type::F32 => {
                if r {
                    1.0f32.to_bits() as u64
                } else {
                    0
                }
            }
            _ => {
                if r {
                    mask(width(dty))
                } else {
                    0
                }
            }
        };
        self.write(t, operand(ins, 0)?, v, dty)?;
        Ok(Flow::Next)
    }

    /// `set` on f16/bf16 sources, lane by lane for the x2 types: each lane's result is 1.0 of
    /// the format for a half result, all ones (of the lane, or of the whole integer result for a
    /// scalar source) otherwise.
    fn set_half(
        &mut self,
        t: usize,
        ins: &Ins,
        (dty, sty): (Type, Type),
        (a, b): (u64, u64),
        cmp: &str,
    ) -> Result<Flow, SimError> {
        let bf16 = matches!(sty, Type::BF16 | Type::BF16x2);
        let lane_ty = if bf16 { Type::BF16 } else { Type::F16 };
        let lanes = if matches!(sty, Type::F16x2 | Type::BF16x2) {
            2
        } else {
            1
        };
        let truth = match dty {
            Type::F16 | Type::F16x2 => 0x3c00,
            Type::BF16 | Type::BF16x2 => 0x3f80,
            _ if lanes == 2 => 0xffff,
            _ => mask(width(dty)),
        };
        let mut v = 0;
        for k in 0..lanes {
            let lane = |x: u64| (x >> (16 * k)) & 0xffff;
            let r = compare(cmp, lane(a), lane(b), lane_ty, ins.has("ftz"))
                .ok_or_else(|| unsupported(ins, "comparison"))?;
            if self.combine(t, ins, r, 3)?.0 {
                v |= truth << (16 * k);
            }
        }
        self.write(t, operand(ins, 0)?, v, dty)?;
        Ok(Flow::Next)
    }

    fn selp(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let c = self.read(t, operand(ins, 3)?, Type::Pred)? & 1 != 0;
        let v = self.read(t, operand(ins, if c { 1 } else { 2 })?, ty)?;
        self.write(t, operand(ins, 0)?, v, ty)?;
        Ok(Flow::Next)
    }

    fn slct(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let (dty, cty) = two_types(ins)?;
        let c = self.read(t, operand(ins, 3)?, cty)?;
        let pick_a = if cty == Type::F32 {
            let mut f = f32::from_bits(c as u32);
            if ins.has("ftz") && f.is_subnormal() {
                f = 0.0;
            }
            f >= 0.0
        } else {
            sext(c, 32) >= 0
        };
        let v = self.read(t, operand(ins, if pick_a { 1 } else { 2 })?, dty)?;
        self.write(t, operand(ins, 0)?, v, dty)?;
        Ok(Flow::Next)
    }

    fn testp(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let v = self.read(t, operand(ins, 1)?, ty)?;
        let x = if ty == Type::F32 {
            f32::from_bits(v as u32) as f64
        } else {
            f64::from_bits(v)
        };
        let sub = if ty == Type::F32 {
            f32::from_bits(v as u32).is_subnormal()
        } else {
            x.is_subnormal()
        };
        let r = match ins.mods.first().map(String::as_str) {
            Some("finite") => x.is_finite(),
            Some("infinite") => x.is_infinite(),
            Some("number") => !x.is_nan(),
            Some("notanumber") => x.is_nan(),
            // PTX: positive and negative zero count as normal (ptxas: `|a| == 0 ||` the range).
            Some("normal") => x.is_finite() && !sub,
            Some("subnormal") => sub,
            _ => return Err(unsupported(ins, "test")),
        };
        self.write(t, operand(ins, 0)?, r as u64, Type::Pred)?;
        Ok(Flow::Next)
    }

    /// Warp collectives wait for their member mask.
    fn warp_wait(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let kind = ins.op.clone();
        let mask = match kind.as_str() {
            "activemask" | "mma" | "ldmatrix" | "stmatrix" | "movmatrix" | "wmma" => u32::MAX,
            _ if ins.has("sync") || kind == "elect" => {
                let last = ins
                    .ops
                    .last()
                    .ok_or_else(|| unsupported(ins, "no member mask"))?;
                self.read(t, last, Type::B32)? as u32
            }
            _ => return Err(unsupported(ins, "warp collective without .sync")),
        };
        Ok(Flow::Block(Wait::Warp { kind, mask }))
    }

    fn barrier(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.has("warp") {
            let m = self.read(t, operand(ins, 0)?, Type::B32)? as u32;
            return Ok(Flow::Block(Wait::Warp {
                kind: "bar.warp.sync".into(),
                mask: m,
            }));
        }
        if ins.has("cluster") {
            if ins.has("arrive") {
                self.arrived[CLUSTER_BARRIER as usize] += 1;
                return Ok(Flow::Next);
            }
            return Ok(Flow::Block(Wait::Barrier {
                id: CLUSTER_BARRIER,
                count: None,
            }));
        }
        let is_red = ins.has("red");
        let id_at = if is_red { 1 } else { 0 };
        let id = self.read(t, operand(ins, id_at)?, Type::U32)? as u32;
        if id >= 16 {
            return Err(unsupported(ins, "barrier number above 15"));
        }
        let has_count = if is_red {
            ins.ops.len() == 4
        } else {
            ins.ops.len() >= 2
        };
        let count = if has_count {
            Some(self.read(t, operand(ins, id_at + 1)?, Type::U32)? as u32)
        } else {
            None
        };
        if ins.has("arrive") {
            self.arrived[id as usize] += 1;
            return Ok(Flow::Next);
        }
        Ok(Flow::Block(Wait::Barrier { id, count }))
    }
}

/// The items of a `( ... )` or `{ ... }` list operand.
fn vec_items(o: &Opnd) -> &[Opnd] {
    match o {
        Opnd::Vec(v) => v,
        _ => std::slice::from_ref(o),
    }
}

pub(crate) fn uint_of_width(w: u32) -> Type {
    match w {
        0..=8 => Type::B8,
        9..=16 => Type::B16,
        17..=32 => Type::B32,
        _ => Type::B64,
    }
}

pub(crate) fn operand(ins: &Ins, i: usize) -> Result<&Opnd, SimError> {
    ins.ops
        .get(i)
        .ok_or_else(|| unsupported(ins, "missing operand"))
}

pub(crate) fn ops2(ins: &Ins) -> Result<[&Opnd; 2], SimError> {
    Ok([operand(ins, 0)?, operand(ins, 1)?])
}

/// (destination type, source type) of `cvt`, `set`, `slct`: the first two type modifiers.
pub(crate) fn two_types(ins: &Ins) -> Result<(Type, Type), SimError> {
    match ins.types.as_slice() {
        [d, s, ..] => Ok((*d, *s)),
        _ => Err(unsupported(ins, "needs two types")),
    }
}

/// Evaluates comparison `cmp` on raw operands of type `ty`; `None` for an unknown comparison.
pub(crate) fn compare(cmp: &str, a: u64, b: u64, ty: Type, ftz: bool) -> Option<bool> {
    if ty.is_float() {
        let x = crate::float::to_f64(a, ty, ftz);
        let y = crate::float::to_f64(b, ty, ftz);
        let unordered = x.is_nan() || y.is_nan();
        return Some(match cmp {
            "eq" => x == y,
            "ne" => !unordered && x != y,
            "lt" => x < y,
            "le" => x <= y,
            "gt" => x > y,
            "ge" => x >= y,
            "equ" => unordered || x == y,
            "neu" => unordered || x != y,
            "ltu" => unordered || x < y,
            "leu" => unordered || x <= y,
            "gtu" => unordered || x > y,
            "geu" => unordered || x >= y,
            "num" => !unordered,
            "nan" => unordered,
            _ => return None,
        });
    }
    let w = width(ty);
    let (ua, ub) = (a & mask(w), b & mask(w));
    let (sa, sb) = (sext(a, w), sext(b, w));
    let signed = ty.is_signed();
    Some(match cmp {
        "eq" => ua == ub,
        "ne" => ua != ub,
        "lt" => {
            if signed {
                sa < sb
            } else {
                ua < ub
            }
        }
        "le" => {
            if signed {
                sa <= sb
            } else {
                ua <= ub
            }
        }
        "gt" => {
            if signed {
                sa > sb
            } else {
                ua > ub
            }
        }
        "ge" => {
            if signed {
                sa >= sb
            } else {
                ua >= ub
            }
        }
        "lo" => ua < ub,
        "ls" => ua <= ub,
        "hi" => ua > ub,
        "hs" => ua >= ub,
        _ => return None,
    })
}
