//! The hazard checker's rule for the asynchronous warpgroup MMAs: from an HGMMA/IGMMA/QGMMA until
//! the WARPGROUP.DEPBAR that retires its group (a group ends at an MMA with `gsb0`;
//! `WARPGROUP.DEPBAR.LE gsb0, n` leaves the newest n closed groups in flight), no other
//! instruction may read or write its accumulator, and none may write its register A fragment or
//! sparse metadata register (read and written by the tensor unit at its own pace). MMAs chained on the same
//! accumulator are allowed, as the hardware orders them. The DEPBAR's own operands only name the
//! accumulators (`Opcode::names_registers_only`). Each block is checked from an empty state;
//! MMAs still in flight at a block's end are reported only where a later instruction of the same
//! block touches them.

use crate::hazard::Hazard;
use crate::ir::*;

/// Registers of the MMAs in flight: (first register, count, whether reads are allowed).
#[derive(Default)]
struct InFlight {
    open: Vec<(u32, u32, bool)>,
    closed: Vec<Vec<(u32, u32, bool)>>,
}

impl InFlight {
    /// Whether an access to GPR `r` (a write when `write`) meets a register in flight.
    fn blocks(&self, r: u32, write: bool) -> bool {
        self.open
            .iter()
            .chain(self.closed.iter().flatten())
            .any(|&(base, n, readable)| (base..base + n).contains(&r) && (write || !readable))
    }
}

/// The hazards of the warpgroup MMAs of an allocated function (instruction indices are linear).
pub(crate) fn check_warpgroup_mmas(f: &Function) -> Vec<Hazard> {
    let mut out = Vec::new();
    let mut index = 0;
    for b in &f.blocks {
        let mut st = InFlight::default();
        for i in &b.instrs {
            check_one(i, index, &mut st, &mut out);
            index += 1;
        }
    }
    out
}

fn check_one(i: &Instr, index: usize, st: &mut InFlight, out: &mut Vec<Hazard>) {
    match i.op {
        Opcode::Wgmma(op) => {
            if let Some(d) = i.dsts[0].as_reg() {
                st.open.push((d.idx, d.comps as u32, false));
            }
            if let Some(a) = i.srcs[0].as_reg().filter(|_| op.reg_a) {
                st.open.push((a.idx, a.comps as u32, true));
            }
            if let Some(m) = i.srcs[4].as_reg().filter(|_| op.sparse.is_some()) {
                st.open.push((m.idx, 1, true));
            }
            if op.closes_group {
                let group = std::mem::take(&mut st.open);
                st.closed.push(group);
            }
        }
        Opcode::WarpgroupDepbar { pending } => {
            let n = st.closed.len();
            st.closed.drain(..n.saturating_sub(pending as usize));
        }
        _ => i.visit_regs(|r, a| {
            if r.file != RegFile::Gpr {
                return;
            }
            for k in 0..r.comps as u32 {
                if st.blocks(r.idx + k, a == Access::Write) {
                    out.push(Hazard {
                        index,
                        reg: format!("R{}", r.idx + k),
                        message: "used while a warpgroup MMA that reads or writes it is in flight"
                            .into(),
                    });
                }
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wgmma::{GmmaAcc, GmmaElem, WgmmaOp};

    fn mma(closes_group: bool) -> Instr {
        let op = WgmmaOp {
            n: 8,
            a: GmmaElem::F16,
            b: GmmaElem::F16,
            acc: GmmaAcc::F32,
            neg_a: false,
            neg_b: false,
            tnsp_a: false,
            tnsp_b: false,
            sat: false,
            reg_a: false,
            closes_group,
            sparse: None,
        };
        let d = Reg {
            comps: 4,
            ..Reg::gpr(24)
        };
        Instr::new(
            Opcode::Wgmma(op),
            &[Dst::Reg(d)],
            &[Src::reg(Reg::ugpr(4, 4)), Src::NONE, Src::reg(d), Src::TRUE],
        )
    }

    fn read_r26() -> Instr {
        Instr::new(
            Opcode::Mov,
            &[Dst::Reg(Reg::gpr(2))],
            &[Src::reg(Reg::gpr(26))],
        )
    }

    fn hazards(instrs: Vec<Instr>) -> Vec<usize> {
        let f = Function {
            blocks: vec![Block { instrs }],
            ..Function::default()
        };
        check_warpgroup_mmas(&f).iter().map(|h| h.index).collect()
    }

    #[test]
    fn accumulators_are_untouchable_until_their_group_retires() {
        let wait = |pending| Instr::new(Opcode::WarpgroupDepbar { pending }, &[], &[]);
        // Read before the wait: a hazard; after it: none.
        assert_eq!(
            hazards(vec![mma(true), read_r26(), wait(0), read_r26()]),
            [1]
        );
        // Two groups, the wait leaves the newer one in flight: its registers stay untouchable.
        assert_eq!(
            hazards(vec![mma(true), mma(true), wait(1), read_r26()]),
            [3]
        );
        // An open group (no gsb0 yet) is not retired by a wait.
        assert_eq!(hazards(vec![mma(false), wait(0), read_r26()]), [2]);
        // Chained MMAs on one accumulator are allowed.
        assert!(hazards(vec![mma(false), mma(true), wait(0)]).is_empty());
    }
}
