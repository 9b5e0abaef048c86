//! Barriers and warp synchronisation: `membar` levels, `bar.red` and `vote` operand types,
//! barrier numbers, and the sync-less warp instructions ptxas warns about or refuses.

use super::*;

/// `membar` takes exactly one level, `.cta`, `.gl` or `.sys` (or is `membar.proxy`).
pub(super) fn check_membar_level(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "membar" {
        return;
    }
    for m in i
        .mods()
        .iter()
        .filter(|m| matches!(m.as_str(), "gpu" | "cluster"))
    {
        out.now(
            i.line,
            format!("Illegal modifier '.{m}' for instruction 'membar'"),
        );
    }
    match i
        .mods()
        .iter()
        .filter(|m| matches!(m.as_str(), "cta" | "gl" | "sys"))
        .count()
    {
        0 if !i.has_mod("proxy") => out.now(
            i.line,
            "Membar level required for instruction 'membar'".into(),
        ),
        0 | 1 => {}
        _ => out.now(i.line, "Multiple scope modifiers specified".into()),
    }
}

/// `bar.red d, a{, b}, {!}c`: the optional thread count sits before the predicate, which the row's
/// shape (`du*`) leaves to this check.
pub(super) fn bar_red_operands_fit(i: &Instruction, s: &Scope) -> bool {
    if i.opcode() != "bar" || !i.has_mod("red") {
        return true;
    }
    let is_pred = |o: &Operand| match o {
        Operand::Reg(r) | Operand::NotReg(r) => s.regs.lookup(r).is_none_or(|t| t == Type::Pred),
        _ => false,
    };
    let count_fits = |o: &Operand| match o {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_none_or(|t| register_fits(Type::U32, t, Typing::Strict)),
        o => matches!(o, Operand::Imm(_)),
    };
    match &i.operands[..] {
        [_, _, c] => is_pred(c),
        [_, _, b, c] => count_fits(b) && is_pred(c),
        _ => false,
    }
}

/// `bar.red.and`/`.or` reduce predicates, `bar.red.popc` counts into a `.u32`.
pub(super) fn bar_red_type_mismatch(i: &Instruction, ty: Type) -> Option<String> {
    if i.opcode() != "bar" || !i.has_mod("red") {
        return None;
    }
    let want = if i.has_mod("popc") {
        Type::U32
    } else if i.has_mod("and") || i.has_mod("or") {
        Type::Pred
    } else {
        return None;
    };
    let name = if want == Type::U32 { "u32" } else { "pred" };
    (ty != want).then(|| format!("Operation requires .{name} type"))
}

/// `vote.ballot` gives a `.b32`, `vote.all`/`.any`/`.uni` a `.pred`.
pub(super) fn vote_type_mismatch(i: &Instruction, ty: Type) -> Option<String> {
    if i.opcode() != "vote" {
        return None;
    }
    let mode = ["all", "any", "uni", "ballot"]
        .into_iter()
        .find(|m| i.has_mod(m))?;
    let (want, name) = if mode == "ballot" {
        (Type::B32, "b32")
    } else {
        (Type::Pred, "pred")
    };
    (ty != want)
        .then(|| format!("Instruction 'vote' requires '.{name}' type with '.{mode}' modifier."))
}

/// The operand of `bar`/`barrier` that names the barrier (`bar.red` names it after the result).
pub(super) fn barrier_operand(i: &Instruction) -> Option<usize> {
    let numbered =
        matches!(i.opcode(), "bar" | "barrier") && !i.has_mod("warp") && !i.has_mod("cluster");
    numbered.then(|| usize::from(i.has_mod("red")))
}

/// `bar`/`barrier` name barriers 0..15.
pub(super) fn check_barrier_number(i: &Instruction, at: usize, out: &mut Findings) {
    if let Some(Operand::Imm(n)) = i.operands.get(at) {
        if !(0..16).contains(n) {
            out.now(
                i.line,
                format!("Barrier number '{n}' out of range, expected to be in range [0..15]"),
            );
        }
    }
}

/// `shfl` and `vote` without `.sync` are gone from PTX ISA 6.4 on, for `.target sm_70` and later.
pub(super) fn check_sync_form(i: &Instruction, s: &Scope, out: &mut Findings) {
    if is_sync_less_warp_op(i) && sync_less_is_gone(s.version, s.target_sm) {
        let msg = format!("Instruction '{}' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", i.opcode());
        out.now(i.line, msg);
    }
}

pub(super) fn is_sync_less_warp_op(i: &Instruction) -> bool {
    matches!(i.opcode(), "shfl" | "vote") && !i.has_mod("sync")
}

pub(super) fn sync_less_is_gone(version: (u32, u32), target_sm: u32) -> bool {
    version >= (6, 4) && target_sm >= 70
}

/// ptxas's warnings for `shfl` and `vote` without `.sync` where they are still allowed (older
/// `.version` or `.target`): every one may misbehave on the sm_70+ code ptxas makes, and from PTX
/// ISA 6.0 on they are deprecated.
pub fn sync_less_warnings(m: &Module) -> Vec<(u32, String)> {
    let target_sm = crate::checks::module::target_number(&m.target).unwrap_or(u32::MAX);
    if sync_less_is_gone(m.version, target_sm) {
        return Vec::new();
    }
    let instructions = m
        .functions
        .iter()
        .flat_map(|f| &f.body)
        .filter_map(|s| match s {
            Statement::Instr(i) if is_sync_less_warp_op(i) => Some(i),
            _ => None,
        });
    let mut warnings = Vec::new();
    for i in instructions {
        let op = i.opcode();
        warnings.push((i.line, format!("Instruction '{op}' without '.sync' may produce unpredictable results on sm_70 and later architectures")));
        if m.version >= (6, 0) {
            warnings.push((i.line, format!("Instruction '{op}' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a future PTX ISA version")));
        }
    }
    warnings
}
