//! `mbarrier` objects in shared memory: init, arrive (with drop and expect_tx), expect_tx,
//! complete_tx, test_wait/try_wait (phase token or parity), pending_count, inval, and
//! `cp.async.mbarrier.arrive[.noinc]`.
//!
//! The 8-byte object holds: bits 0..20 pending arrivals, 20..40 expected arrivals, 40..63 the
//! pending transaction bytes (23-bit two's complement), bit 63 the current phase. A wait that
//! would fail yields (the thread retries after the others ran), so spin loops on `try_wait` cost
//! one step per round instead of spinning to the step limit; a `test_wait` answers at once (a
//! failed one then yields, the answer kept). An
//! arrive's state token holds the phase (bit 63) and the pending count before the arrival.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, unsupported};
use crate::machine::{Cta, Flow, Wait};
use crate::prep::{Ins, Opnd};

const FIELD: u64 = (1 << 20) - 1;
const TX_MASK: u64 = (1 << 23) - 1;

#[derive(Copy, Clone)]
struct State {
    pending: u64,
    expected: u64,
    tx: i64,
    phase: u64,
}

impl State {
    fn decode(w: u64) -> State {
        let tx = ((w >> 40) & TX_MASK) as i64;
        let tx = if tx & (1 << 22) != 0 {
            tx - (1 << 23)
        } else {
            tx
        };
        State {
            pending: w & FIELD,
            expected: (w >> 20) & FIELD,
            tx,
            phase: w >> 63,
        }
    }
    fn encode(self) -> u64 {
        (self.pending & FIELD)
            | (self.expected & FIELD) << 20
            | ((self.tx as u64) & TX_MASK) << 40
            | self.phase << 63
    }
    /// Completes the phase when every arrival and transaction is in.
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.pending = self.expected;
        }
    }
}

impl Cta<'_, '_> {
    fn mbar_word(
        &mut self,
        t: usize,
        ins: &Ins,
        o: &Opnd,
    ) -> Result<(crate::memory::Region, u64, State), SimError> {
        let (region, addr) = self.mem_address(t, ins, o)?;
        let bytes = self.mem_access(t, ins, region, addr, 8)?;
        let w = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        Ok((region, addr, State::decode(w)))
    }

    fn mbar_store(
        &mut self,
        t: usize,
        ins: &Ins,
        region: crate::memory::Region,
        addr: u64,
        s: State,
    ) -> Result<(), SimError> {
        self.mem_access(t, ins, region, addr, 8)?
            .copy_from_slice(&s.encode().to_le_bytes());
        Ok(())
    }

    pub(crate) fn mbarrier(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let verb = ins.mods.first().map(String::as_str).unwrap_or("");
        match verb {
            "init" => {
                let n = self.read(t, operand(ins, 1)?, Type::U32)? & FIELD;
                let (region, addr, _) = self.mbar_word(t, ins, operand(ins, 0)?)?;
                self.mbar_store(
                    t,
                    ins,
                    region,
                    addr,
                    State {
                        pending: n,
                        expected: n,
                        tx: 0,
                        phase: 0,
                    },
                )?;
            }
            "inval" => {
                let (region, addr, _) = self.mbar_word(t, ins, operand(ins, 0)?)?;
                self.mbar_store(
                    t,
                    ins,
                    region,
                    addr,
                    State {
                        pending: 0,
                        expected: 0,
                        tx: 0,
                        phase: 0,
                    },
                )?;
            }
            "arrive" | "arrive_drop" => {
                let (region, addr, mut s) = self.mbar_word(t, ins, operand(ins, 1)?)?;
                let extra = match ins.ops.get(2) {
                    Some(o) => self.read(t, o, Type::U32)?,
                    None => 1,
                };
                let count = if ins.has("expect_tx") {
                    s.tx += extra as i64;
                    1
                } else {
                    extra
                };
                // The state before this arrival: its phase and its pending count (what
                // `pending_count` reads back).
                let token = s.phase << 63 | s.pending;
                if verb == "arrive_drop" {
                    s.expected = s.expected.saturating_sub(count);
                }
                s.pending = s.pending.saturating_sub(count);
                s.settle();
                self.mbar_store(t, ins, region, addr, s)?;
                self.write(t, operand(ins, 0)?, token, Type::B64)?;
            }
            "expect_tx" | "complete_tx" => {
                let (region, addr, mut s) = self.mbar_word(t, ins, operand(ins, 0)?)?;
                let n = self.read(t, operand(ins, 1)?, Type::U32)? as i64;
                s.tx += if verb == "expect_tx" { n } else { -n };
                if verb == "complete_tx" {
                    s.settle();
                }
                self.mbar_store(t, ins, region, addr, s)?;
            }
            "test_wait" | "try_wait" => {
                let (_, _, s) = self.mbar_word(t, ins, operand(ins, 1)?)?;
                let arg = self.read(t, operand(ins, 2)?, Type::B64)?;
                let waited_phase = if ins.has("parity") {
                    arg & 1
                } else {
                    arg >> 63
                };
                let done = s.phase != waited_phase;
                // try_wait may suspend the thread until the phase completes; test_wait answers
                // at once.
                if !done && verb == "try_wait" {
                    return Ok(Flow::Block(Wait::Yield { retry: true }));
                }
                self.write(t, operand(ins, 0)?, done as u64, Type::Pred)?;
                // A failed test_wait answers false and lets the other threads run before this
                // one goes on (a spin loop on it, as the __mbarrier_test_wait primitives write,
                // would otherwise never let the arrivals it waits for happen).
                if !done {
                    return Ok(Flow::Block(Wait::Yield { retry: false }));
                }
            }
            "pending_count" => {
                let token = self.read(t, operand(ins, 1)?, Type::B64)?;
                self.write(t, operand(ins, 0)?, token & FIELD, Type::U32)?;
            }
            _ => return Err(unsupported(ins, "mbarrier operation")),
        }
        Ok(Flow::Next)
    }
}

impl Cta<'_, '_> {
    /// Completes `bytes` transaction bytes on the mbarrier at `addr` (a bulk copy's
    /// `.mbarrier::complete_tx::bytes`), as `mbarrier.complete_tx` does.
    pub(crate) fn mbar_complete_tx(
        &mut self,
        t: usize,
        ins: &Ins,
        region: crate::memory::Region,
        addr: u64,
        bytes: u64,
    ) -> Result<(), SimError> {
        let w = self.mem_access(t, ins, region, addr, 8)?;
        let mut s = State::decode(u64::from_le_bytes(w[..8].try_into().expect("8 bytes")));
        s.tx -= bytes as i64;
        s.settle();
        self.mbar_store(t, ins, region, addr, s)
    }

    /// `cp.async.mbarrier.arrive[.noinc].shared{::cta}.b64 [addr]`: an arrival when the thread's
    /// earlier `cp.async` copies are done, which here they are (they copy at once). Without
    /// `.noinc` the pending count is raised by one first, so the phase's count is unchanged.
    pub(crate) fn cp_async_arrive(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if !ins.has("arrive") {
            return Err(unsupported(ins, "cp.async.mbarrier operation"));
        }
        if !ins.has("noinc") {
            return Ok(Flow::Next);
        }
        let (region, addr, mut s) = self.mbar_word(t, ins, operand(ins, 0)?)?;
        s.pending = s.pending.saturating_sub(1);
        s.settle();
        self.mbar_store(t, ins, region, addr, s)?;
        Ok(Flow::Next)
    }
}
