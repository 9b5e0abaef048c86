//! What to tell the user when register allocation fails: which register file ran out, how many
//! registers' values are live where, and against which budget (a `setmaxnreg` region's, the
//! kernel's), instead of a bare "out of registers".
//!
//! GPRs fail only after the last spill round has moved every value it may to the stack: what is
//! left are values that cannot be spilled (warpgroup MMA operands between the MMA and its wait,
//! values a branch or a guard-writing instruction writes, spill temporaries) or register groups
//! that do not fit side by side. Uniform registers and predicates beyond the seven are not
//! spilled at all yet.

use crate::ir::*;
use crate::liveness::LiveRanges;
use crate::reg_regions::GprBudget;

/// The register file's name as the message gives it.
fn file_name(file: RegFile) -> &'static str {
    match file {
        RegFile::Gpr => "registers",
        RegFile::Pred => "predicates",
        RegFile::UGpr => "uniform registers",
        RegFile::UPred => "uniform predicates",
    }
}

/// The first slot where more words of `file` are live than `limit(slot)`, with how many are.
fn first_overflow(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    file: RegFile,
    limit: impl Fn(u32) -> usize,
) -> Option<(u32, usize)> {
    let mut events: Vec<(u32, bool, usize)> = Vec::new();
    for v in (0..f.vreg_comps.len()).filter(|&v| files[v] == file) {
        for &(s, e) in lr.of(v) {
            events.push((s, true, f.vreg_comps[v] as usize));
            events.push((e, false, f.vreg_comps[v] as usize));
        }
    }
    events.sort_unstable_by_key(|&(at, starts, _)| (at, starts));
    let mut live = 0usize;
    for (at, starts, n) in events {
        if !starts {
            live -= n;
            continue;
        }
        live += n;
        if live > limit(at) {
            return Some((at, live));
        }
    }
    None
}

/// The opcode's name (its variant, without fields) of the instruction at `slot`.
fn instr_at(f: &Function, slot: u32) -> String {
    let op = f
        .instrs()
        .nth(slot as usize / 2)
        .map(|i| format!("{:?}", i.op));
    let op = op.unwrap_or_default();
    let name = op
        .split([' ', '{', '('])
        .next()
        .unwrap_or("")
        .to_uppercase();
    format!("instruction {} ({name})", slot / 2)
}

/// The message for a failure in `file`; `budget` is the GPR budget the scan had.
pub(crate) fn explain(
    f: &Function,
    lr: &LiveRanges,
    files: &[RegFile],
    file: RegFile,
    budget: &GprBudget,
) -> String {
    let what = file_name(file);
    if file != RegFile::Gpr {
        let usable = match file {
            RegFile::UGpr => 59,
            _ => 7,
        };
        let at = first_overflow(f, lr, files, file, |_| usable);
        let place = at.map_or(String::new(), |(slot, n)| {
            format!(": {n} {what} are live at {}", instr_at(f, slot))
        });
        return format!(
            "out of {what} ({usable} usable){place}; spilling {what} is not supported yet"
        );
    }
    if !f.fixed.is_empty() {
        return "out of registers where values are bound to a subroutine call's registers: \
                spilling around subroutine calls is not supported yet"
            .into();
    }
    // R1 holds the stack pointer once values are spilled.
    let reserve = usize::from(f.frame.stack_ptr.is_some());
    let region = |slot: u32| {
        if budget.varies() {
            " (in a setmaxnreg region)"
        } else {
            ""
        }
        .to_string()
            + &format!(" where {} are usable", budget.at(slot) - reserve)
    };
    match first_overflow(f, lr, files, file, |slot| budget.at(slot) - reserve) {
        Some((slot, n)) => format!(
            "out of registers after spilling every value that may be spilled: {n} registers of \
             values that stay in registers (warpgroup MMA operands between the MMA and its \
             wait, values written by a branch or under the guard they write) are live at {}{}",
            instr_at(f, slot),
            region(slot)
        ),
        None => format!(
            "out of registers after spilling every value that may be spilled: the register \
             groups (64-bit pairs, quads, warpgroup MMA accumulators) do not fit side by side \
             within {} registers",
            budget.highest() - reserve
        ),
    }
}
