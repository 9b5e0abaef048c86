//! `LEPC` and `CALL.ABS.NOINC`, and the models of the undefined functions a cubin calls through
//! them (`vprintf`, `__assertfail`), which have no code here: the call records what it would
//! print (`ptxforge_device::syscall`, the records the PTX interpreter makes too), gives its
//! result in R4, overwrites the registers ptxas's code treats as the callee's (the argument
//! registers R4..R15, the return address R20:R21, every predicate, UR0..UR35: code that kept a
//! value there across the call reads garbage; ptxas keeps values in R2 and R16 up across such a
//! call), and returns to the address in R20:R21. `__assertfail` records and returns (on a GPU it stops the
//! launch with an error).
//!
//! Code lives at address 0 of its own space: LEPC gives an instruction's offset.

use ptxforge_device::syscall::{self, SysCallRecord};

use super::*;

/// What the callee leaves in the registers it may overwrite.
const CLOBBER: u32 = 0xdead_0000;

impl Run<'_> {
    /// `LEPC Rd`: the instruction's own address (sm_90's form: the address its offset names,
    /// bytes from the next instruction at 24..55; ptxas writes 0x10, the instruction after the
    /// CALL that follows).
    pub(super) fn lepc(&mut self, w: &mut Warp, i: &Inst, exec: u32) {
        let at = if i.f(0, 12) == 0x94e {
            let bytes = sext(field(i.w, 24, 32), 32);
            (i.pc as i64 + 16 + bytes) as u64
        } else {
            i.pc as u64
        };
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            w.set_reg(i.dst(), l, at as u32);
            w.set_reg(i.dst() + 1, l, (at >> 32) as u32);
        }
    }

    /// `CALL.ABS.NOINC Ra`: runs the model of the undefined function at the address in Ra.
    pub(super) fn call_abs(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        let Operand::R(a) = i.a else {
            return Err(self.unsupported(i, "CALL.ABS without a register"));
        };
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            let pair = |r: u8| w.reg(r, l) as u64 | (w.reg(r + 1, l) as u64) << 32;
            let target = pair(a);
            let Some((_, name)) = self.k.externs.iter().find(|(addr, _)| *addr == target) else {
                return Err(self.unsupported(i, "a call of code at an absolute address"));
            };
            let name = name.clone();
            let (record, result) = self.model(&name, w, l, i)?;
            self.syscalls.push(SysCallRecord {
                key: syscall::record_key(self.cta, self.grid, w.tid[l], self.block),
                bytes: record,
            });
            let back = pair(20);
            for r in (4..16).chain([20, 21]) {
                w.set_reg(r, l, CLOBBER | r as u32);
            }
            w.set_reg(4, l, result);
            w.pc[l] = back as u32;
        }
        if exec != 0 {
            for p in 0..7 {
                w.p[p] = !w.p[p];
            }
            for u in 0..36 {
                w.ur[u] = CLOBBER | 0x100 | u as u32;
            }
        }
        Ok(())
    }

    /// The record of the call of `name` by lane `l` and its result.
    fn model(
        &mut self,
        name: &str,
        w: &Warp,
        l: usize,
        i: &Inst,
    ) -> Result<(Vec<u8>, u32), EmuError> {
        let pair = |r: u8| w.reg(r, l) as u64 | (w.reg(r + 1, l) as u64) << 32;
        let buffers = &*self.buffers;
        let vars = &self.vars;
        let mut read = |addr: u64, n: usize| -> Option<Vec<u8>> {
            if (LOCAL_WINDOW..LOCAL_WINDOW + (1 << 32)).contains(&addr) {
                return w
                    .local_range(l, addr - LOCAL_WINDOW, n)
                    .map(|r| w.local[r].to_vec());
            }
            match find_buffer(buffers, addr, n) {
                Some((b, o)) => Some(buffers[b].bytes[o..o + n].to_vec()),
                None => find_buffer(vars, addr, n).map(|(b, o)| vars[b].bytes[o..o + n].to_vec()),
            }
        };
        let made = match name {
            "vprintf" => syscall::vprintf_record(&mut read, pair(4), pair(6)),
            "__assertfail" => syscall::assertfail_record(
                &mut read,
                pair(4),
                pair(6),
                w.reg(8, l),
                pair(10),
                pair(12),
            )
            .map(|r| (r, 0)),
            _ => return Err(self.unsupported(i, &format!("a call of '{name}'"))),
        };
        made.map_err(|e| self.unsupported(i, &format!("'{name}': {e}")))
    }

    fn unsupported(&self, i: &Inst, what: &str) -> EmuError {
        EmuError::Unsupported {
            pc: i.pc,
            opcode: i.f(0, 12) as u32,
            what: what.to_string(),
        }
    }
}
