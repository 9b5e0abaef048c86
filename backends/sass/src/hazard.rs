//! The hazard checker: walks encoded code with its control bits (decoded from the words, not taken
//! from the IR) and reports any register or predicate access that could see a stale value under the
//! latency model: a fixed-latency result read too early, or a scoreboarded result read (or a
//! late-read source overwritten) without waiting on its scoreboard.
//!
//! Blocks are checked one by one. At a block boundary the checker demands that every fixed-latency
//! result is complete, and it carries into every block the scoreboards left pending at the end of
//! any block (a sound over-approximation of all predecessors). The asynchronous warpgroup MMAs'
//! rule (no use of their registers until the wait that retires them) is `hazard_wgmma.rs`'s.

use std::collections::HashMap;
use std::fmt;

use crate::arch::Sm;
use crate::ir::*;
use crate::latency::{fixed_latency, is_variable_latency, reads_late};

/// One hazard: the instruction (linear index), the register and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    pub index: usize,
    pub reg: String,
    pub message: String,
}

impl fmt::Display for Hazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} (/*{:04x}*/), {}: {}",
            self.index,
            self.index * 16,
            self.reg,
            self.message
        )
    }
}

/// Control bits of the `n`-th word of `code`.
#[derive(Copy, Clone, Debug)]
struct Ctrl {
    stall: u32,
    wr_sb: Option<u8>,
    rd_sb: Option<u8>,
    wait: u8,
}

fn ctrl(code: &[u8], n: usize) -> Option<Ctrl> {
    let hi = u64::from_le_bytes(code.get(n * 16 + 8..n * 16 + 16)?.try_into().ok()?);
    let c = hi >> 41;
    let sb = |v: u64| if v == 7 { None } else { Some(v as u8) };
    Some(Ctrl {
        stall: (c & 0xf) as u32,
        wr_sb: sb((c >> 5) & 7),
        rd_sb: sb((c >> 8) & 7),
        wait: ((c >> 11) & 0x3f) as u8,
    })
}

type PhysReg = (RegFile, u32);

#[derive(Default, Clone)]
struct State {
    ready: HashMap<PhysReg, u32>,
    pending_write: HashMap<PhysReg, u8>,
    pending_read: HashMap<PhysReg, u8>,
    /// Sources a tensor op may still be collecting, until the given cycle.
    held: HashMap<PhysReg, u32>,
}

fn regs_of(r: Reg) -> impl Iterator<Item = PhysReg> {
    (0..r.comps as u32).map(move |k| (r.file, r.idx + k))
}

fn name(p: PhysReg) -> String {
    match p.0 {
        RegFile::Gpr => format!("R{}", p.1),
        RegFile::Pred => format!("P{}", p.1),
        RegFile::UGpr => format!("UR{}", p.1),
        RegFile::UPred => format!("UP{}", p.1),
    }
}

/// Checks an allocated, encoded function. `code` holds one 16-byte word per IR instruction.
pub fn check_hazards(_sm: Sm, f: &Function, code: &[u8]) -> Result<(), Vec<Hazard>> {
    let mut hazards = Vec::new();
    if code.len() != f.num_instrs() * 16 {
        hazards.push(Hazard {
            index: 0,
            reg: "-".into(),
            message: "code length does not match the IR".into(),
        });
        return Err(hazards);
    }
    hazards.extend(crate::hazard_wgmma::check_warpgroup_mmas(f));
    let carried = pending_at_block_ends(f, code);
    let mut index = 0;
    for b in &f.blocks {
        let mut st = State {
            pending_write: carried.clone(),
            ..State::default()
        };
        check_block(b, code, index, &mut st, &mut hazards);
        index += b.instrs.len();
    }
    if hazards.is_empty() {
        Ok(())
    } else {
        Err(hazards)
    }
}

/// Scoreboards pending at the end of any block (first pass, without reporting).
fn pending_at_block_ends(f: &Function, code: &[u8]) -> HashMap<PhysReg, u8> {
    let mut all = HashMap::new();
    let mut index = 0;
    for b in &f.blocks {
        let mut st = State::default();
        let mut ignore = Vec::new();
        check_block(b, code, index, &mut st, &mut ignore);
        all.extend(st.pending_write);
        index += b.instrs.len();
    }
    all
}

fn check_block(b: &Block, code: &[u8], first: usize, st: &mut State, out: &mut Vec<Hazard>) {
    let mut t = 0u32;
    for (k, i) in b.instrs.iter().enumerate() {
        let n = first + k;
        let Some(c) = ctrl(code, n) else { return };
        st.pending_write.retain(|_, sb| c.wait & (1 << *sb) == 0);
        st.pending_read.retain(|_, sb| c.wait & (1 << *sb) == 0);
        if !i.op.names_registers_only() {
            check_operands(i, n, t, st, out);
            record(i, &c, t, st);
        }
        t += c.stall.max(1);
    }
    if let Some(late) = st
        .ready
        .iter()
        .filter(|(_, &r)| r > t)
        .max_by_key(|(_, &r)| r)
    {
        let idx = first + b.instrs.len().saturating_sub(1);
        out.push(Hazard {
            index: idx,
            reg: name(*late.0),
            message: "fixed-latency result still in flight at the end of the block".into(),
        });
    }
}

fn check_operands(i: &Instr, n: usize, t: u32, st: &State, out: &mut Vec<Hazard>) {
    i.visit_regs(|r, a| {
        for p in regs_of(r) {
            if let Some(sb) = st.pending_write.get(&p) {
                out.push(Hazard {
                    index: n,
                    reg: name(p),
                    message: format!("variable-latency result used without waiting on SB{sb}"),
                });
            }
            if let Some(&ready) = st.ready.get(&p) {
                if ready > t && a == Access::Read {
                    out.push(Hazard {
                        index: n,
                        reg: name(p),
                        message: format!("read at cycle {t}, ready at cycle {ready}"),
                    });
                }
            }
            if a == Access::Write {
                if let Some(&until) = st.held.get(&p).filter(|&&u| u > t) {
                    out.push(Hazard {
                        index: n,
                        reg: name(p),
                        message: format!(
                            "tensor-op source overwritten at cycle {t}, held until {until}"
                        ),
                    });
                }
                if let Some(sb) = st.pending_read.get(&p) {
                    out.push(Hazard {
                        index: n,
                        reg: name(p),
                        message: format!("overwritten before its pending read (SB{sb}) completed"),
                    });
                }
            }
        }
    });
}

fn record(i: &Instr, c: &Ctrl, t: u32, st: &mut State) {
    let hold = match i.op {
        Opcode::Mma(m) => Some(m.source_hold()),
        Opcode::MmaSp(m) => Some(m.source_hold()),
        _ => None,
    };
    if let Some(hold) = hold {
        let own: Vec<PhysReg> = i
            .dsts
            .iter()
            .filter_map(Dst::as_reg)
            .flat_map(regs_of)
            .collect();
        for r in i.srcs.iter().filter_map(Src::as_reg) {
            for p in regs_of(r).filter(|p| !own.contains(p)) {
                st.held.insert(p, t + hold);
            }
        }
    }
    if is_variable_latency(&i.op) {
        for r in i.dsts.iter().filter_map(Dst::as_reg) {
            for p in regs_of(r) {
                st.ready.remove(&p);
                st.pending_write.insert(p, c.wr_sb.unwrap_or(u8::MAX));
            }
        }
        if reads_late(&i.op) {
            for r in i.srcs.iter().filter_map(Src::as_reg) {
                regs_of(r).for_each(|p| {
                    st.pending_read.insert(p, c.rd_sb.unwrap_or(u8::MAX));
                });
            }
        }
        return;
    }
    for r in i.dsts.iter().filter_map(Dst::as_reg) {
        let lat = fixed_latency(i, r.file);
        regs_of(r).for_each(|p| {
            st.ready.insert(p, t + lat);
        });
    }
}
