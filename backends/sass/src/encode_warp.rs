//! Encodings of the warp-level and synchronisation ops (`Opcode::Warp`), learned from ptxas 13.5's
//! output for the same PTX and checked with nvdisasm on sm_75..sm_90.

use super::{err, pred_dst, set_cbuf, set_pred, src_gpr, udst, EResult, Word, PT, RZ};
use crate::arch::Sm;
use crate::ir::*;
use crate::warp::*;

/// Encodes one warp op (destination fields included).
pub(super) fn encode_warp(sm: Sm, w: &mut Word, i: &Instr, op: WarpOp) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    match op {
        WarpOp::Shfl(mode) => encode_shfl(w, i, mode)?,
        WarpOp::Vote(mode) => {
            w.set(0, 12, 0x806);
            w.set(16, 8, gpr_dst(i)?);
            w.set(72, 2, vote_mode_code(mode));
            w.set(81, 3, pred_dst(&i.dsts[1])?);
            set_pred(w, 87, a)?;
        }
        WarpOp::Redux { op, signed } => {
            w.set(0, 12, 0x3c4);
            w.set(16, 8, udst(i)?);
            w.set(24, 8, src_gpr(a)?);
            w.set(73, 1, signed as u64);
            w.set(78, 3, redux_op_code(op));
        }
        WarpOp::Warpsync => {
            match a.val {
                // sm_90's immediate form is WARPSYNC.ALL whatever the bits: a partial mask must
                // come from a register there (the warp pass puts it in one).
                SrcVal::Imm(mask) if sm.num >= 90 && mask != u32::MAX => {
                    let why = format!(
                        "WARPSYNC {mask:#x}: sm_90 takes a partial mask only in a register"
                    );
                    return err(i, &why);
                }
                SrcVal::Imm(mask) => {
                    w.set(0, 12, 0x948);
                    w.set(32, 32, if sm.num >= 90 { 0 } else { mask as u64 });
                }
                _ => {
                    w.set(0, 12, 0x348);
                    w.set(if sm.num >= 90 { 24 } else { 32 }, 8, src_gpr(a)?);
                }
            }
            w.set(87, 3, PT);
        }
        WarpOp::Bar { mode, defer, .. } => encode_bar(w, i, mode, defer)?,
        WarpOp::B2rResult => {
            w.set(0, 12, 0x31c);
            w.set(16, 8, gpr_dst(i)?);
            w.set(78, 1, 1);
            w.set(81, 3, pred_dst(&i.dsts[1])?);
        }
        WarpOp::Membar { sc, scope } => {
            w.set(0, 12, 0x992);
            w.set(76, 2, scope_code(scope));
            w.set(78, 2, if sc { 0 } else { 2 });
        }
        WarpOp::Errbar => w.set(0, 12, 0x9ab),
        // PMTRIG 0x801: the event mask at 32..63, PT in the predicate field at 87..89.
        WarpOp::Pmtrig => {
            let SrcVal::Imm(mask) = a.val else {
                return Err(crate::encode::EncodeError(
                    "PMTRIG takes an immediate mask".into(),
                ));
            };
            w.set(0, 12, 0x801);
            w.set(32, 32, mask as u64);
            w.set(87, 3, 7);
        }
        // BPT 0x95c: the code 0x1 at 34..53, the mode (3 = TRAP) at 84..86.
        WarpOp::BptTrap => {
            w.set(0, 12, 0x95c);
            w.set(34, 20, 1);
            w.set(84, 3, 3);
        }
        WarpOp::Cgaerrbar => w.set(0, 12, 0x5ab),
        WarpOp::CctlIvall => {
            w.set(0, 12, 0x98f);
            w.set(24, 8, RZ);
            w.set(89, 1, 1);
        }
        WarpOp::Nanosleep => {
            match a.val {
                SrcVal::Imm(v) => {
                    w.set(0, 12, 0x95d);
                    w.set(32, 32, v as u64);
                }
                SrcVal::CBuf { bank, offset } => {
                    w.set(0, 12, 0xb5d);
                    set_cbuf(w, bank, offset);
                }
                _ => {
                    w.set(0, 12, 0x35d);
                    w.set(32, 8, src_gpr(a)?);
                }
            }
            w.set(85, 1, (sm.num == 75) as u64);
            w.set(87, 3, PT);
        }
        WarpOp::Acqbulk => w.set(0, 12, 0x82e),
        WarpOp::Preexit => w.set(0, 12, 0x82d),
        WarpOp::Elect => crate::encode_sync::encode_elect(w, i)?,
        WarpOp::Match { all, wide } => encode_match(w, i, all, wide)?,
    }
    let _ = (b, c);
    Ok(())
}

/// A GPR destination in d0 (RZ when absent).
fn gpr_dst(i: &Instr) -> EResult<u64> {
    match i.dsts[0] {
        Dst::None => Ok(RZ),
        Dst::Reg(r) if r.file == RegFile::Gpr && r.idx < 255 => Ok(r.idx as u64),
        _ => err(i, "GPR destination"),
    }
}

/// SHFL: 0x389 (lane and clamp in registers), 0x589 (clamp immediate), 0x989 (lane immediate),
/// 0xf89 (both immediate). Lane register 32..39 or immediate 53..57; clamp immediate 40..52 or
/// register 64..71; mode 58..59; predicate result 81..83.
fn encode_shfl(w: &mut Word, i: &Instr, mode: ShflMode) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    match b.val {
        SrcVal::Imm(v) => w.set(53, 5, v as u64),
        _ => w.set(32, 8, src_gpr(b)?),
    }
    match c.val {
        SrcVal::Imm(v) => w.set(40, 13, v as u64),
        _ => w.set(64, 8, src_gpr(c)?),
    }
    let form = match (b.val, c.val) {
        (SrcVal::Imm(_), SrcVal::Imm(_)) => 0xf89,
        (SrcVal::Imm(_), _) => 0x989,
        (_, SrcVal::Imm(_)) => 0x589,
        _ => 0x389,
    };
    w.set(0, 12, form);
    w.set(16, 8, gpr_dst(i)?);
    w.set(24, 8, src_gpr(a)?);
    w.set(58, 2, shfl_mode_code(mode));
    w.set(81, 3, pred_dst(&i.dsts[1])?);
    Ok(())
}

/// MATCH: 0x3a1 on sm_75..sm_90; destination 16..23, value (or the low register of a pair)
/// 24..31, .U64 at bit 73, ANY at bit 79 (ALL without it), ALL's predicate result 81..83 (PT for
/// ANY).
fn encode_match(w: &mut Word, i: &Instr, all: bool, wide: bool) -> EResult<()> {
    w.set(0, 12, 0x3a1);
    w.set(16, 8, gpr_dst(i)?);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(73, 1, wide as u64);
    w.set(79, 1, !all as u64);
    let p = if all { pred_dst(&i.dsts[1])? } else { PT };
    w.set(81, 3, p);
    Ok(())
}

/// BAR: 0xb1d with an immediate id (54..57) and count (42..53), 0x51d with the id in a register
/// (32..39); mode 77..78, reduction 74..75, its predicate 87..90, DEFER_BLOCKING 80.
fn encode_bar(w: &mut Word, i: &Instr, mode: BarMode, defer: bool) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    match (a.val, b.val) {
        (SrcVal::Imm(id), SrcVal::Imm(count)) => {
            w.set(0, 12, 0xb1d);
            w.set(54, 4, id as u64);
            w.set(42, 12, count as u64);
        }
        (SrcVal::Imm(id), SrcVal::Zero) => {
            w.set(0, 12, 0xb1d);
            w.set(54, 4, id as u64);
        }
        (SrcVal::Reg(_), SrcVal::Zero) => {
            w.set(0, 12, 0x51d);
            w.set(32, 8, src_gpr(a)?);
        }
        (SrcVal::Reg(_), SrcVal::Imm(count)) => {
            w.set(0, 12, 0x51d);
            w.set(32, 8, src_gpr(a)?);
            w.set(42, 12, count as u64);
        }
        (SrcVal::Imm(id), SrcVal::Reg(_)) => {
            w.set(0, 12, 0x91d);
            w.set(54, 4, id as u64);
            w.set(32, 8, src_gpr(b)?);
        }
        // A register id and count packed in one register (count at 16..27), read at 32..39.
        (SrcVal::Reg(ra), SrcVal::Reg(rb)) if ra == rb => {
            w.set(0, 12, 0x31d);
            w.set(32, 8, src_gpr(a)?);
        }
        _ => {
            return err(
                i,
                "BAR id and count forms other than imm/imm, imm, reg, reg/imm, imm/reg, packed reg",
            )
        }
    }
    let (m, red) = match mode {
        BarMode::Sync => (0, 0),
        BarMode::Arrive => (1, 0),
        BarMode::RedPopc => (2, 0),
        BarMode::RedAnd => (2, 1),
        BarMode::RedOr => (2, 2),
    };
    w.set(77, 2, m);
    w.set(74, 2, red);
    w.set(80, 1, defer as u64);
    if m == 2 {
        set_pred(w, 87, c)?;
    }
    Ok(())
}

fn shfl_mode_code(m: ShflMode) -> u64 {
    match m {
        ShflMode::Idx => 0,
        ShflMode::Up => 1,
        ShflMode::Down => 2,
        ShflMode::Bfly => 3,
    }
}

fn vote_mode_code(m: VoteMode) -> u64 {
    match m {
        VoteMode::All => 0,
        VoteMode::Any => 1,
        VoteMode::Eq => 2,
    }
}

fn redux_op_code(op: ReduxOp) -> u64 {
    match op {
        ReduxOp::And => 0,
        ReduxOp::Or => 1,
        ReduxOp::Xor => 2,
        ReduxOp::Sum => 3,
        ReduxOp::Min => 4,
        ReduxOp::Max => 5,
    }
}

fn scope_code(s: Scope) -> u64 {
    match s {
        Scope::Cta => 0,
        Scope::Gpu => 2,
        Scope::Sys => 3,
    }
}
