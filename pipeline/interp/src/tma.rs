//! The bulk copies of sm_90, done at once: `cp.async.bulk.tensor.{1..5}d` in tile mode (loads to
//! shared memory completing their bytes on the mbarrier, stores to global memory),
//! `cp.async.bulk` (global or shared to shared memory with an mbarrier, shared to global), the
//! prefetches (no effect) and `commit_group` / `wait_group` (no-ops: every copy is complete
//! before them). Clusters are of one CTA: a multicast mask must name only CTA 0.
//!
//! The tensor map is decoded by `ptxforge_device::tensor_map` (the layout and what is modelled);
//! elements out of the tensor load as zero and are not stored.

use ptxforge_device::tensor_map::TensorMap;
use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, unsupported};
use crate::machine::{Cta, Flow};
use crate::memory::{resolve_generic, Region};
use crate::prep::{Ins, MemBase, Opnd};

impl Cta<'_, '_> {
    /// The value of a memory operand's base plus its offset.
    fn raw_address(&self, t: usize, ins: &Ins, o: &Opnd) -> Result<u64, SimError> {
        let Opnd::Mem(base, off) = o else {
            return Err(unsupported(ins, "expected an address operand"));
        };
        let v = match base {
            MemBase::Reg(r) => self.threads[t].frame().regs[*r as usize],
            MemBase::Sym(l) => self.sym_addr(t, *l),
            MemBase::Abs => 0,
        };
        Ok(v.wrapping_add(*off as u64))
    }

    /// A shared-memory operand (a shared-window offset, or a generic address in the window).
    fn shared_operand(&self, t: usize, ins: &Ins, o: &Opnd) -> Result<u64, SimError> {
        let a = self.raw_address(t, ins, o)?;
        match resolve_generic(a) {
            (Region::Shared, off) => Ok(off),
            _ => Ok(a),
        }
    }

    /// Copies `n` bytes between regions, byte by byte.
    fn copy_bytes(
        &mut self,
        t: usize,
        ins: &Ins,
        from: (Region, u64),
        to: (Region, u64),
        n: u64,
    ) -> Result<(), SimError> {
        for k in 0..n {
            let b = self.mem_access(t, ins, from.0, from.1 + k, 1)?[0];
            self.mem_access(t, ins, to.0, to.1 + k, 1)?[0] = b;
        }
        Ok(())
    }

    /// Whether a multicast operand names only this CTA.
    fn check_multicast(&self, t: usize, ins: &Ins, o: &Opnd) -> Result<(), SimError> {
        if self.read(t, o, Type::U16)? & 0xffff != 1 {
            return Err(unsupported(ins, "multicast to other CTAs"));
        }
        Ok(())
    }

    /// `cp[.reduce].async.bulk...` (module docs).
    pub(crate) fn cp_bulk(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let prefetch = ins.has("prefetch");
        if ins.has("commit_group") || ins.has("wait_group") || prefetch {
            return Ok(Flow::Next);
        }
        if ins.op != "cp" || ins.has("reduce") || ins.mods.iter().any(|m| m.starts_with("im2col")) {
            return Err(unsupported(ins, "bulk reductions and im2col"));
        }
        let multicast = ins.has("multicast::cluster");
        let load = ins.has("mbarrier::complete_tx::bytes");
        if multicast {
            self.check_multicast(t, ins, operand(ins, if ins.has("tensor") { 3 } else { 4 })?)?;
        }
        if ins.has("tensor") {
            return self.tensor_copy(t, ins, load);
        }
        let size = self.read(t, operand(ins, 2)?, Type::U32)?;
        let dst = operand(ins, 0)?;
        let src = operand(ins, 1)?;
        if !load {
            let from = (Region::Shared, self.shared_operand(t, ins, src)?);
            let to = resolve_generic(self.raw_address(t, ins, dst)?);
            self.copy_bytes(t, ins, from, to, size)?;
            return Ok(Flow::Next);
        }
        let from = match ins.has("global") {
            true => resolve_generic(self.raw_address(t, ins, src)?),
            false => (Region::Shared, self.shared_operand(t, ins, src)?),
        };
        let to = (Region::Shared, self.shared_operand(t, ins, dst)?);
        self.copy_bytes(t, ins, from, to, size)?;
        let bar = self.shared_operand(t, ins, operand(ins, 3)?)?;
        self.mbar_complete_tx(t, ins, Region::Shared, bar, size)?;
        Ok(Flow::Next)
    }

    fn tensor_copy(&mut self, t: usize, ins: &Ins, load: bool) -> Result<Flow, SimError> {
        let rank = ins
            .mods
            .iter()
            .find_map(|m| m.strip_suffix('d').and_then(|n| n.parse::<usize>().ok()))
            .filter(|r| (1..=5).contains(r))
            .ok_or_else(|| unsupported(ins, "tensor rank"))?;
        let tensor = operand(ins, if load { 1 } else { 0 })?;
        let Opnd::Vec(v) = tensor else {
            return Err(unsupported(ins, "tensor operand"));
        };
        let coords: Vec<&Opnd> = match &v[..] {
            [_, Opnd::Vec(c)] => c.iter().collect(),
            [_, c] => vec![c],
            _ => return Err(unsupported(ins, "tensor coordinates")),
        };
        if coords.len() != rank {
            return Err(unsupported(ins, "tensor coordinates"));
        }
        let mut xs = Vec::new();
        for c in coords {
            xs.push(self.read(t, c, Type::S32)? as u32 as i32 as i64);
        }
        let map_at = resolve_generic(self.raw_address(t, ins, &v[0])?);
        let mut m = [0u8; 128];
        for (k, b) in m.iter_mut().enumerate() {
            *b = self.mem_access(t, ins, map_at.0, map_at.1 + k as u64, 1)?[0];
        }
        let tm = TensorMap::parse(&m, rank).map_err(|what| unsupported(ins, &what))?;
        let smem = self.shared_operand(t, ins, operand(ins, if load { 0 } else { 1 })?)?;
        let n: u64 = tm.boxes[..rank].iter().product();
        for e in 0..n {
            let (mut rest, mut addr, mut inside) = (e, tm.base as i64, true);
            for k in 0..rank {
                let x = xs[k] + (rest % tm.boxes[k]) as i64;
                rest /= tm.boxes[k];
                inside &= x >= 0 && (x as u64) < tm.dims[k];
                addr += x * tm.strides[k] as i64;
            }
            let at = (Region::Shared, smem + e * tm.esize);
            let global = resolve_generic(addr as u64);
            match (load, inside) {
                (true, true) => self.copy_bytes(t, ins, global, at, tm.esize)?,
                (true, false) => self.mem_access(t, ins, at.0, at.1, tm.esize)?.fill(0),
                (false, true) => self.copy_bytes(t, ins, at, global, tm.esize)?,
                (false, false) => {}
            }
        }
        if load {
            let bar = self.shared_operand(t, ins, operand(ins, 2)?)?;
            self.mbar_complete_tx(t, ins, Region::Shared, bar, n * tm.esize)?;
        }
        Ok(Flow::Next)
    }
}
