//! ELECT and the sm_90 mbarrier unit: SYNCS.EXCH.64 (init), SYNCS.ARRIVE.TRANS64 (arrive,
//! expect_tx, complete_tx, arrive_drop), SYNCS.PHASECHK.TRANS64 (test_wait/try_wait),
//! SYNCS.CCTL.IV (inval) and FENCE.VIEW.ASYNC, run on a barrier object in the CTA's shared memory.
//!
//! The object's 64 bits, as ptxas's code builds and reads them (its init writes `(2^20 - n) << 1`
//! in the low word and `(2^20 - n) << 11` in the high word; its `pending_count` is
//! `2^20 - ((hi >> 11) & 0xfffff)` of the state an arrive returned; its waits compare bit 31 of
//! the high word): bits 1..20 the arrivals each phase expects and bits 43..62 the arrivals still
//! pending, both stored as `2^20 - count` (an arrival adds one); bit 63 the phase parity. Where
//! the transaction count lives is not visible to ptxas's code; this model keeps it in bits
//! 21..42 (22-bit two's complement). A phase completes when no arrival and no transaction byte
//! is pending: the parity flips and the pending count reloads. Unchecked against hardware: which
//! state an arrive returns (here the one before it, as the PTX ISA describes).

use super::{unsupported, Run, Warp, WARP};
use crate::decode::{Inst, Operand};
use crate::EmuError;

const FIELD: u64 = (1 << 20) - 1;
const TX_BITS: u32 = 22;
const TX_MASK: u64 = (1 << TX_BITS) - 1;

/// The barrier object's fields.
#[derive(Copy, Clone, Debug)]
struct Barrier {
    expected: u64,
    pending: u64,
    tx: i64,
    phase: u64,
    /// Bit 0, which this model leaves as it found it.
    low_bit: u64,
}

impl Barrier {
    fn decode(w: u64) -> Barrier {
        let tx = ((w >> 21) & TX_MASK) as i64;
        Barrier {
            expected: (1 << 20) - ((w >> 1) & FIELD) & FIELD,
            pending: ((1 << 20) - ((w >> 43) & FIELD)) & FIELD,
            tx: (tx << (64 - TX_BITS)) >> (64 - TX_BITS),
            phase: w >> 63,
            low_bit: w & 1,
        }
    }

    fn encode(self) -> u64 {
        let neg = |n: u64| ((1 << 20) - n) & FIELD;
        self.low_bit
            | neg(self.expected) << 1
            | (self.tx as u64 & TX_MASK) << 21
            | neg(self.pending) << 43
            | self.phase << 63
    }

    /// Completes the phase when every arrival and transaction byte is in.
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.pending = self.expected;
        }
    }
}

/// The signed address offset of a SYNCS op (bits 40..63: `[UR10+0x8]`, `[R12+URZ+0x8]`).
fn offset(i: &Inst) -> u32 {
    crate::decode::sext(i.f(40, 24) as u64, 24) as u32
}

impl Run<'_> {
    /// ELECT Pd, URd, Ps: the lowest executing lane whose Ps holds is elected; Pd is true in it
    /// alone and URd holds its index.
    pub(crate) fn elect(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        let ps = i.pred(87);
        let pd = i.f(81, 3) as u8;
        let candidates = (0..WARP)
            .filter(|&l| exec >> l & 1 == 1 && w.pred(ps, l))
            .fold(0u32, |m, l| m | 1 << l);
        let leader = candidates.trailing_zeros() as usize;
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            w.set_pred(pd, l, l == leader);
        }
        if exec != 0 {
            super::set_ureg(w, i.f(16, 6) as u8, leader as u32);
        }
        Ok(())
    }

    /// The shared-memory byte address `[Ra+URc+offset]` of lane `l` (the offset signed in
    /// 40..63, `[R12+URZ+0x8]`): the CTA-rank bits above bit 24 must name this CTA (rank 0:
    /// clusters are not modelled).
    pub(super) fn barrier_address(&self, w: &Warp, i: &Inst, l: usize) -> Result<u64, EmuError> {
        let ur = match i.c {
            Operand::Ur(u) => w.ureg(u),
            _ => 0,
        };
        let addr = w
            .reg(i.f(24, 8) as u8, l)
            .wrapping_add(ur)
            .wrapping_add(offset(i));
        if addr >> 24 != 0 {
            return Err(unsupported(
                i,
                "an mbarrier of another CTA in the cluster".into(),
            ));
        }
        Ok(addr as u64)
    }

    pub(super) fn barrier_word(
        &mut self,
        addr: u64,
        i: &Inst,
        w: &Warp,
        l: usize,
    ) -> Result<u64, EmuError> {
        let b = self.load("shared", addr, 8, i, w, l)?;
        Ok(u64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
    }

    /// SYNCS.EXCH.64, ARRIVE, PHASECHK and CCTL.IV, lane by lane (EXCH once per warp: its
    /// operands are uniform).
    pub(crate) fn syncs(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        use crate::decode::Op;
        if i.op == Op::SyncsExch {
            let Some(l) = (0..WARP).find(|&l| exec >> l & 1 == 1) else {
                return Ok(());
            };
            let (Operand::Ur(a), Operand::Ur(b)) = (i.a, i.b) else {
                unreachable!("SYNCS.EXCH has uniform operands")
            };
            let addr = (w.ureg(a).wrapping_add(offset(i)) & 0xff_ffff) as u64;
            let new = w.ureg(b) as u64 | (w.ureg(b + 1) as u64) << 32;
            let old = self.barrier_word(addr, i, w, l)?;
            self.store("shared", addr, &new.to_le_bytes(), i, w, l)?;
            let d = i.f(16, 6) as u8;
            super::set_ureg(w, d, old as u32);
            super::set_ureg(w, d.saturating_add(1), (old >> 32) as u32);
            return Ok(());
        }
        let mut passed = false;
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            let addr = self.barrier_address(w, i, l)?;
            match i.op {
                Op::SyncsArrive => self.arrive(w, i, l, addr)?,
                Op::SyncsPhasechk => {
                    let bar = Barrier::decode(self.barrier_word(addr, i, w, l)?);
                    let Operand::R(b) = i.b else {
                        unreachable!("PHASECHK has a register operand")
                    };
                    let waited = (w.reg(b, l) >> 31) as u64;
                    passed |= bar.phase != waited;
                    w.set_pred(i.f(81, 3) as u8, l, bar.phase != waited);
                }
                _ => self.store("shared", addr, &[0; 8], i, w, l)?,
            }
        }
        // A check that failed in every lane lets the warp's other groups issue first.
        if let (Op::SyncsPhasechk, Some(l)) = (i.op, (0..WARP).find(|&l| exec >> l & 1 == 1)) {
            w.spinning = (!passed).then_some(w.group[l]);
        }
        Ok(())
    }

    /// One lane's SYNCS.ARRIVE.TRANS64: mode 84..86 (A1TR 0, A1T0 1, A0T1 2, A0TR 3, A0TX 4, ART0 5),
    /// `.OPTOUT` (75) also drops the arrivals from later phases; Rd gets the state before.
    fn arrive(&mut self, w: &mut Warp, i: &Inst, l: usize, addr: u64) -> Result<(), EmuError> {
        let old = self.barrier_word(addr, i, w, l)?;
        let mut bar = Barrier::decode(old);
        let Operand::R(b) = i.b else {
            unreachable!("ARRIVE has a register operand")
        };
        let n = w.reg(b, l) as u64;
        let (arrivals, tx) = match i.f(84, 3) {
            0 => (1, n as i64),
            1 => (1, 0),
            // A0T1 (cp.async.mbarrier.arrive, arrives.rs): one more expected transaction.
            2 => (0, 1),
            3 => (0, n as i64),
            4 => (0, -(n as i64)),
            _ => (n, 0),
        };
        if i.bit(75) {
            bar.expected = bar.expected.saturating_sub(arrivals);
        }
        bar.pending = bar.pending.saturating_sub(arrivals);
        bar.tx += tx;
        // expect_tx alone (A0TR, A0T1) completes nothing.
        if !matches!(i.f(84, 3), 2 | 3) {
            bar.settle();
        }
        self.store("shared", addr, &bar.encode().to_le_bytes(), i, w, l)?;
        let d = i.dst();
        w.set_reg(d, l, old as u32);
        if d != crate::decode::RZ {
            w.set_reg(d + 1, l, (old >> 32) as u32);
        }
        Ok(())
    }
}

impl Run<'_> {
    /// Completes `bytes` transaction bytes on the mbarrier at shared address `addr` (a TMA or
    /// bulk copy's `.mbarrier::complete_tx::bytes`), as SYNCS.ARRIVE.TRANS64.A0TX does.
    pub(crate) fn complete_tx_bytes(
        &mut self,
        addr: u64,
        bytes: u64,
        i: &Inst,
        w: &mut Warp,
        l: usize,
    ) -> Result<(), EmuError> {
        let mut bar = Barrier::decode(self.barrier_word(addr, i, w, l)?);
        bar.tx -= bytes as i64;
        bar.settle();
        self.store("shared", addr, &bar.encode().to_le_bytes(), i, w, l)
    }
}

/// An sm_90 barrier word after `arrivals` arrivals and `tx` more expected transactions (negative:
/// completed ones), the phase completing when nothing is pending (ARRIVES, `arrives.rs`).
pub(super) fn arrive_on(word: u64, arrivals: u64, tx: i64) -> u64 {
    let mut bar = Barrier::decode(word);
    bar.pending = bar.pending.saturating_sub(arrivals);
    bar.tx += tx;
    bar.settle();
    bar.encode()
}
