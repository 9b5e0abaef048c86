//! nvdisasm's text for the warp-level and synchronisation ops (`Opcode::Warp`).

use super::{dst, isrc, join, pdst, pred, src};
use crate::arch::Sm;
use crate::ir::*;
use crate::warp::*;

pub(super) fn print_warp(sm: Sm, i: &Instr, op: WarpOp) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    match op {
        WarpOp::Shfl(mode) => format!(
            "SHFL.{} {}",
            shfl_name(mode),
            join(&[pdst(&i.dsts[1]), d0, src(a), src(b), src(c)])
        ),
        WarpOp::Vote(mode) => {
            let mut parts = Vec::new();
            if let Dst::Reg(_) = i.dsts[0] {
                parts.push(d0);
            }
            parts.extend([pdst(&i.dsts[1]), pred(a)]);
            format!("VOTE.{} {}", vote_name(mode), join(&parts))
        }
        WarpOp::Match { all, wide } => {
            let u64 = if wide { ".U64" } else { "" };
            if all {
                format!("MATCH.ALL{u64} {}", join(&[pdst(&i.dsts[1]), d0, src(a)]))
            } else {
                format!("MATCH.ANY{u64} {}", join(&[d0, src(a)]))
            }
        }
        WarpOp::Redux { op, signed } => {
            let o = match op {
                ReduxOp::And => "",
                ReduxOp::Or => ".OR",
                ReduxOp::Xor => ".XOR",
                ReduxOp::Sum => ".SUM",
                ReduxOp::Min => ".MIN",
                ReduxOp::Max => ".MAX",
            };
            let d = match i.dsts[0] {
                Dst::Reg(r) => format!("UR{}", r.idx),
                Dst::None => "URZ".into(),
            };
            format!(
                "REDUX{o}{} {d}, {}",
                if signed { ".S32" } else { "" },
                src(a)
            )
        }
        WarpOp::Warpsync => match a.val {
            SrcVal::Imm(u32::MAX) if sm.num >= 90 => "WARPSYNC.ALL".into(),
            _ => format!("WARPSYNC {}", src(a)),
        },
        WarpOp::Bar { mode, defer, .. } => {
            let m = match mode {
                BarMode::Sync => "SYNC",
                BarMode::Arrive => "ARV",
                BarMode::RedPopc => "RED.POPC",
                BarMode::RedAnd => "RED.AND",
                BarMode::RedOr => "RED.OR",
            };
            let mut parts = vec![src(a)];
            if b.val != SrcVal::Zero {
                parts.push(src(b));
            }
            if matches!(mode, BarMode::RedPopc | BarMode::RedAnd | BarMode::RedOr) {
                parts.push(pred(c));
            }
            format!(
                "BAR.{m}{} {}",
                if defer { ".DEFER_BLOCKING" } else { "" },
                join(&parts)
            )
        }
        WarpOp::B2rResult => {
            let mut parts = vec![d0];
            if let Dst::Reg(_) = i.dsts[1] {
                parts.push(pdst(&i.dsts[1]));
            }
            format!("B2R.RESULT {}", join(&parts))
        }
        WarpOp::Membar { sc, scope } => {
            let s = match scope {
                Scope::Cta => "CTA",
                Scope::Gpu => "GPU",
                Scope::Sys => "SYS",
            };
            format!("MEMBAR.{}.{s}", if sc { "SC" } else { "ALL" })
        }
        WarpOp::Errbar => "ERRBAR".into(),
        WarpOp::BptTrap => "BPT.TRAP 0x1".into(),
        WarpOp::Pmtrig => format!("PMTRIG {}", isrc(a)),
        WarpOp::Cgaerrbar => "CGAERRBAR".into(),
        WarpOp::CctlIvall => "CCTL.IVALL".into(),
        WarpOp::Nanosleep => format!(
            "NANOSLEEP{} {}",
            if sm.num == 75 { ".WARP" } else { "" },
            isrc(a)
        ),
        WarpOp::Acqbulk => "ACQBULK".into(),
        WarpOp::Preexit => "PREEXIT".into(),
        WarpOp::Elect => crate::print_sync::print_elect(i),
    }
}

fn shfl_name(m: ShflMode) -> &'static str {
    match m {
        ShflMode::Idx => "IDX",
        ShflMode::Up => "UP",
        ShflMode::Down => "DOWN",
        ShflMode::Bfly => "BFLY",
    }
}

fn vote_name(m: VoteMode) -> &'static str {
    match m {
        VoteMode::All => "ALL",
        VoteMode::Any => "ANY",
        VoteMode::Eq => "EQ",
    }
}
