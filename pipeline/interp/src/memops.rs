//! Memory instructions: address resolution per state space and generic windows, `ld`/`st` (vectors
//! included), `atom`/`red`, `cvta` and `isspacep`.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{extend, operand, ty_of, unsupported, width};
use crate::float;
use crate::machine::{Cta, Flow};
use crate::memory::{resolve_generic, Region, WINDOW_SIZE};
use crate::prep::{Ins, Loc, MemBase, Opnd};

/// The state space an instruction names, `None` for generic.
fn named_region(ins: &Ins) -> Option<Region> {
    ins.mods.iter().find_map(|m| match m.as_str() {
        "global" => Some(Region::Global),
        "shared" | "shared::cta" | "shared::cluster" => Some(Region::Shared),
        "local" => Some(Region::Local),
        "const" => Some(Region::Const),
        "param" | "param::entry" | "param::func" => Some(Region::FrameParam),
        _ => None,
    })
}

fn loc_region(l: Loc) -> Region {
    match l {
        Loc::Global(_) => Region::Global,
        Loc::Shared(_) => Region::Shared,
        Loc::Const(_) => Region::Const,
        Loc::KernelParam(_) => Region::KernelParam,
        Loc::FrameParam(_) => Region::FrameParam,
        Loc::Local(_) => Region::Local,
    }
}

/// Vector width from `.v2`/`.v4`/`.v8`.
fn vector_len(ins: &Ins) -> usize {
    ins.mods
        .iter()
        .find_map(|m| m.strip_prefix('v').and_then(|n| n.parse::<usize>().ok()))
        .unwrap_or(1)
        .clamp(1, 8)
}

impl Cta<'_, '_> {
    /// Resolves a memory operand to (region, address in region).
    fn address(&self, t: usize, ins: &Ins, o: &Opnd) -> Result<(Region, u64), SimError> {
        let Opnd::Mem(base, off) = o else {
            return Err(unsupported(ins, "expected an address operand"));
        };
        let named = named_region(ins);
        let in_entry = self.prog.funcs[self.threads[t].frame().func].is_entry;
        let (base_region, base_val) = match base {
            MemBase::Reg(r) => (None, self.threads[t].frame().regs[*r as usize]),
            MemBase::Sym(l) => (Some(loc_region(*l)), self.sym_addr(t, *l)),
            MemBase::Abs => (None, 0),
        };
        let addr = base_val.wrapping_add(*off as u64);
        Ok(match (named, base_region) {
            (Some(Region::FrameParam), Some(r)) => (r, addr),
            (Some(Region::FrameParam), None) => (
                if in_entry {
                    Region::KernelParam
                } else {
                    Region::FrameParam
                },
                addr,
            ),
            (Some(r), _) => (r, addr),
            (None, Some(r)) => (r, addr),
            (None, None) => resolve_generic(addr),
        })
    }

    /// The bytes of an access, with bounds and alignment checked.
    fn access(
        &mut self,
        t: usize,
        ins: &Ins,
        region: Region,
        addr: u64,
        size: u64,
    ) -> Result<&mut [u8], SimError> {
        let thread = self.threads[t].id;
        let space = region.space();
        let misaligned = !addr.is_multiple_of(size.clamp(1, 16));
        let th = &mut self.threads[t];
        let bytes = self
            .mem
            .bytes(&mut th.local, &mut th.fparam, region, addr, size);
        let generic_addr = addr.wrapping_add(region.window());
        match bytes {
            None => Err(SimError::OutOfBounds {
                space,
                addr: generic_addr,
                size: size as u32,
                thread,
                line: ins.line,
            }),
            Some(_) if misaligned => Err(SimError::Misaligned {
                space,
                addr: generic_addr,
                size: size as u32,
                thread,
                line: ins.line,
            }),
            Some(b) => Ok(b),
        }
    }

    /// Records this thread as the last writer of the watched global address, when the write covers it.
    fn note_write(&mut self, t: usize, region: Region, addr: u64, size: u64) {
        if let (Region::Global, Some(w)) = (region, self.mem.watch) {
            if w >= addr && w - addr < size {
                self.mem.last_writer = Some(self.threads[t].id);
            }
        }
    }

    /// (region, address) of a memory operand, for other modules.
    pub(crate) fn mem_address(
        &self,
        t: usize,
        ins: &Ins,
        o: &Opnd,
    ) -> Result<(Region, u64), SimError> {
        self.address(t, ins, o)
    }

    /// The checked bytes of an access, for other modules.
    pub(crate) fn mem_access(
        &mut self,
        t: usize,
        ins: &Ins,
        region: Region,
        addr: u64,
        size: u64,
    ) -> Result<&mut [u8], SimError> {
        self.access(t, ins, region, addr, size)
    }

    /// The shared-space address of a memory operand (generic addresses in the shared window too).
    pub(crate) fn region_address(&self, t: usize, ins: &Ins, o: &Opnd) -> Result<u64, SimError> {
        let (region, a) = self.address(t, ins, o)?;
        if region != Region::Shared {
            return Err(unsupported(ins, "matrix rows outside shared memory"));
        }
        Ok(a)
    }

    /// The 16 bytes of one matrix row in shared memory.
    pub(crate) fn shared_bytes(
        &mut self,
        t: usize,
        ins: &Ins,
        addr: u64,
    ) -> Result<&mut [u8], SimError> {
        self.access(t, ins, Region::Shared, addr, 16)
    }

    pub(crate) fn load(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let n = vector_len(ins);
        let (region, addr) = self.address(t, ins, operand(ins, 1)?)?;
        let esz = ty.size_bytes() as u64;
        if esz > 8 {
            return Err(unsupported(ins, "128-bit load"));
        }
        let bytes = self.access(t, ins, region, addr, esz * n as u64)?;
        let mut vals = [0u64; 8];
        for (v, c) in vals.iter_mut().zip(bytes.chunks(esz as usize)) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            *v = extend(u64::from_le_bytes(b), ty);
        }
        let d = operand(ins, 0)?;
        match d {
            Opnd::Vec(parts) if n > 1 => {
                for (p, v) in parts.iter().zip(vals) {
                    self.write(t, p, v, ty)?;
                }
            }
            _ => self.write(t, d, vals[0], ty)?,
        }
        Ok(Flow::Next)
    }

    pub(crate) fn store(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let n = vector_len(ins);
        let (region, addr) = self.address(t, ins, operand(ins, 0)?)?;
        if matches!(region, Region::Const | Region::KernelParam) {
            return Err(unsupported(ins, "store to a read-only space"));
        }
        let esz = ty.size_bytes() as usize;
        if esz > 8 {
            return Err(unsupported(ins, "128-bit store"));
        }
        let src = operand(ins, 1)?;
        let vals: Vec<u64> = match src {
            Opnd::Vec(parts) if n > 1 => parts
                .iter()
                .map(|p| self.read(t, p, ty))
                .collect::<Result<_, _>>()?,
            _ => vec![self.read(t, src, ty)?],
        };
        self.note_write(t, region, addr, (esz * n) as u64);
        let bytes = self.access(t, ins, region, addr, (esz * n) as u64)?;
        for (i, v) in vals.iter().enumerate() {
            bytes[i * esz..(i + 1) * esz].copy_from_slice(&v.to_le_bytes()[..esz]);
        }
        Ok(Flow::Next)
    }

    pub(crate) fn atomic(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        if vector_len(ins) > 1 {
            return Err(unsupported(ins, "vector atomic"));
        }
        let is_red = ins.op == "red";
        let base = if is_red { 0 } else { 1 };
        let (region, addr) = self.address(t, ins, operand(ins, base)?)?;
        let b = self.read(t, operand(ins, base + 1)?, ty)?;
        let c = match ins.ops.get(base + 2) {
            Some(o) => self.read(t, o, ty)?,
            None => 0,
        };
        let size = ty.size_bytes() as u64;
        if size > 8 {
            return Err(unsupported(ins, "128-bit atomic"));
        }
        let op = ins
            .mods
            .iter()
            .find(|m| {
                matches!(
                    m.as_str(),
                    "and" | "or" | "xor" | "cas" | "exch" | "add" | "inc" | "dec" | "min" | "max"
                )
            })
            .cloned()
            .ok_or_else(|| unsupported(ins, "atomic operation"))?;
        self.note_write(t, region, addr, size);
        let bytes = self.access(t, ins, region, addr, size)?;
        let mut raw = [0u8; 8];
        raw[..size as usize].copy_from_slice(bytes);
        let old = u64::from_le_bytes(raw);
        // An f32 add on global memory flushes subnormal operands and results to zero of their
        // sign (ATOMG/RED .ADD.F32.FTZ.RN); on shared memory it keeps them.
        let ftz = op == "add" && ty == Type::F32 && region == Region::Global;
        let new = if ftz {
            atomic_result(&op, flush_f32(old), flush_f32(b), c, ty).map(flush_f32)
        } else {
            atomic_result(&op, old, b, c, ty)
        }
        .ok_or_else(|| unsupported(ins, "atomic type"))?;
        bytes.copy_from_slice(&new.to_le_bytes()[..size as usize]);
        if !is_red {
            self.write(t, operand(ins, 0)?, extend(old, ty), ty)?;
        }
        Ok(Flow::Next)
    }

    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}`: copied at once (the copy is
    /// complete before any `cp.async.wait_*`, which are no-ops); bytes past `src_size` are zeroed.
    pub(crate) fn cp_async(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.has("commit_group") || ins.has("wait_group") || ins.has("wait_all") {
            return Ok(Flow::Next);
        }
        if ins.has("mbarrier") {
            return self.cp_async_arrive(t, ins);
        }
        if !(ins.has("shared") && ins.has("global")) || ins.has("bulk") {
            return Err(unsupported(ins, "only cp.async.{ca,cg}.shared.global"));
        }
        let size = self.read(t, operand(ins, 2)?, Type::U32)?;
        let src_size = match ins.ops.get(3) {
            Some(o @ (Opnd::Imm(_) | Opnd::Reg(_))) => self.read(t, o, Type::U32)?.min(size),
            _ => size,
        };
        let dst = operand(ins, 0)?;
        let src = operand(ins, 1)?;
        let (_, d) = self.address(t, ins, dst)?;
        let Opnd::Mem(base, off) = src else {
            return Err(unsupported(ins, "source address"));
        };
        let s = match base {
            MemBase::Reg(r) => self.threads[t].frame().regs[*r as usize],
            MemBase::Sym(l) => self.sym_addr(t, *l),
            MemBase::Abs => 0,
        }
        .wrapping_add(*off as u64);
        let mut data = vec![0u8; size as usize];
        if size != 0 && s % size as u64 != 0 {
            // The source is aligned to the copy size: the access reports the misalignment.
            self.access(t, ins, Region::Global, s, size)?;
        }
        // Only `src_size` bytes are read (byte by byte: a partial copy need not be aligned to
        // its own length, nor the bytes past it be in bounds).
        for (k, b) in data.iter_mut().enumerate().take(src_size as usize) {
            *b = self.access(t, ins, Region::Global, s + k as u64, 1)?[0];
        }
        self.access(t, ins, Region::Shared, d, size)?
            .copy_from_slice(&data);
        Ok(Flow::Next)
    }

    pub(crate) fn cvta(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        let region = named_region(ins).ok_or_else(|| unsupported(ins, "cvta without a space"))?;
        let region = if region == Region::FrameParam {
            Region::KernelParam
        } else {
            region
        };
        let a = self.read(t, operand(ins, 1)?, ty)?;
        let w = region.window();
        let v = if ins.has("to") {
            a.wrapping_sub(w)
        } else {
            a.wrapping_add(w)
        };
        self.write(t, operand(ins, 0)?, v, ty)?;
        Ok(crate::machine::Flow::Next)
    }

    pub(crate) fn isspacep(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let region =
            named_region(ins).ok_or_else(|| unsupported(ins, "isspacep without a space"))?;
        let a = self.read(t, operand(ins, 1)?, Type::B64)?;
        let (r, _) = resolve_generic(a);
        let r = if r == Region::KernelParam {
            Region::FrameParam
        } else {
            r
        };
        let yes = r == region
            && (region != Region::Global
                || a.wrapping_sub(region.window()) < u64::MAX - WINDOW_SIZE);
        self.write(t, operand(ins, 0)?, yes as u64, Type::Pred)?;
        Ok(Flow::Next)
    }
}

/// The new memory value of an atomic `op` on `old` with operands `b` (and `c` for `cas`).
/// An f32's bits with a subnormal value replaced by zero of its sign.
fn flush_f32(bits: u64) -> u64 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

fn atomic_result(op: &str, old: u64, b: u64, c: u64, ty: Type) -> Option<u64> {
    let w = width(ty);
    let m = crate::exec::mask(w);
    let (o, bb) = (old & m, b & m);
    let signed = ty.is_signed();
    Some(match op {
        "and" => o & bb,
        "or" => o | bb,
        "xor" => o ^ bb,
        "exch" => bb,
        "cas" => {
            if o == bb {
                c & m
            } else {
                o
            }
        }
        "inc" => {
            if o >= bb {
                0
            } else {
                o + 1
            }
        }
        "dec" => {
            if o == 0 || o > bb {
                bb
            } else {
                o - 1
            }
        }
        "add" if ty.is_float() => float::atomic_add(o, bb, ty)?,
        "add" => o.wrapping_add(bb) & m,
        "min" | "max" if ty.is_float() => float::atomic_minmax(op == "min", o, bb, ty)?,
        "min" | "max" => {
            let lt = if signed {
                crate::exec::sext(o, w) < crate::exec::sext(bb, w)
            } else {
                o < bb
            };
            if (op == "min") == lt {
                o
            } else {
                bb
            }
        }
        _ => return None,
    })
}
