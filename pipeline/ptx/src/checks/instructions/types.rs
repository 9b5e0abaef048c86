//! Instruction-type checks: the types an opcode takes (`isa::OPS`), type words ptxas knows but
//! the table does not, `.wide` after halves, vector widths, three-input forms.

use super::*;

/// Types outside [`Type`] (`.e4m3x2`, `.tf32`, ...): such instructions' types and operands are not checked.
pub(super) fn has_untabled_type(i: &Instruction) -> bool {
    i.mods().iter().any(|m| is_untabled_type(m))
}

/// A type [`Type`] does not list: narrow floats and their packed forms, `.tf32`, `.f32x2`.
pub(crate) fn is_untabled_type(m: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "ue8m0", "tf32", "s2f6", "b4x", "b6x", "b8x",
        "f32x2", "s16x2", "u16x2",
    ];
    PREFIXES.iter().any(|p| m.starts_with(p))
}

/// A modifier some tabled opcode takes: a type, space, vector size, cache hint or listed word.
pub(crate) fn is_known_modifier(m: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "L1::", "L2::", "level::", "e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "ue8m0", "tf32", "s2f6",
        "b4x", "b6x", "b8x", "f32x2", "s16x2", "u16x2",
    ];
    Type::from_mod(m).is_some()
        || isa::is_listed_modifier(m)
        || isa::SPACES.contains(&m)
        || m.strip_prefix('v')
            .is_some_and(|n| n.parse::<u32>().is_ok())
        || PREFIXES.iter().any(|p| m.starts_with(p))
        || looks_like_type(m)
        || is_shape(m)
}

/// `u33`, `s7`, `f8`: a type-shaped modifier ptxas does not know.
pub(super) fn looks_like_type(m: &str) -> bool {
    let mut c = m.chars();
    matches!(c.next(), Some('u' | 's' | 'b' | 'f')) && m.len() > 1 && c.all(|c| c.is_ascii_digit())
}

/// `.wide` where ptxas does not know it, before it looks at the types: on an opcode other than
/// `mul`/`mad`, or written twice.
pub(super) fn unknown_wide(i: &Instruction) -> bool {
    let wides = i.mods().iter().filter(|m| m.as_str() == "wide").count();
    wides > 1 || (wides == 1 && !matches!(i.opcode(), "mul" | "mad"))
}

/// `.wide` after a `mul`/`mad`'s `.lo`/`.hi`, which ptxas does not know there (the instruction
/// stays of that half).
pub(super) fn wide_after_half(i: &Instruction) -> bool {
    matches!(i.opcode(), "mul" | "mad")
        && i.has_mod("wide")
        && half_modifier(i).is_some_and(|half| half != "wide")
}

/// Instruction-type modifiers: unknown ones, a missing or disallowed type, `.lo`/`.hi` for integers.
/// Returns false when the operands can't be checked.
pub(super) fn check_types(
    i: &Instruction,
    types: &[Type],
    spec: &OpSpec,
    out: &mut Findings,
) -> bool {
    let unexpected = |out: &mut Findings| {
        out.now(
            i.line,
            format!(
                "Unexpected instruction types specified for '{}'",
                display_name(i)
            ),
        )
    };
    if let Some(bad) = i
        .mods()
        .iter()
        .find(|m| looks_like_type(m) && Type::from_mod(m).is_none())
    {
        out.now(i.line, format!("Unknown modifier '.{bad}'"));
        unexpected(out);
        return false;
    }
    if unknown_wide(i) {
        out.now(i.line, "Unknown modifier '.wide'".into());
        return false;
    }
    if wide_after_half(i) {
        out.now(i.line, "Unknown modifier '.wide'".into());
    }
    for m in i.mods().iter().filter(|m| !is_known_modifier(m)) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
    }
    if spec.types.0 == 0 && !types.is_empty() {
        unexpected(out);
        return false;
    }
    if spec.types.0 == 0 || has_untabled_type(i) {
        return true;
    }
    let wanted = match i.opcode() {
        "cvt" if i.has_mod("pack") => 3,
        "cvt" => 2,
        _ => 1,
    };
    // `.wide` doubles a 16- or 32-bit type.
    let too_wide = i.has_mod("wide") && types.first().is_some_and(|t| t.size_bytes() == 8);
    if types.len() != wanted || types.iter().any(|t| !spec.types.contains(*t)) || too_wide {
        unexpected(out);
        return false;
    }
    let int_like = is_int(types[0]) || matches!(types[0], Type::B16 | Type::B32 | Type::B64);
    if spec.needs_lo_hi && !int_like {
        if let Some(m) = ["lo", "hi", "wide"].iter().find(|m| i.has_mod(m)) {
            out.now(
                i.line,
                format!(
                    "Unexpected instruction types specified for '{}.{m}'",
                    i.opcode()
                ),
            );
            return false;
        }
    }
    if spec.needs_lo_hi && int_like && !["lo", "hi", "wide"].iter().any(|m| i.has_mod(m)) {
        unexpected(out);
        return false;
    }
    true
}

/// Vector width from `.v2`/`.v4`/`.v8`; `None` after reporting an illegal one. Of several, the
/// last (after ptxas's message on them).
pub(super) fn vector_width(i: &Instruction, out: &mut Findings) -> Option<u32> {
    let mut width = None;
    for m in i.mods() {
        if let Some(n) = m.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
            if !matches!(n, 2 | 4 | 8) {
                out.now(i.line, format!("Unknown modifier '.{m}'"));
                return None;
            }
            if width.is_some() {
                out.now(i.line, "Multiple vector modifiers specified".into());
            }
            width = Some(n);
        }
    }
    Some(width.unwrap_or(1))
}

/// `min`/`max` with a third input: `.f32` only (sm_100, PTX ISA 8.8), without `.xorsign`.
pub(super) fn check_three_inputs(i: &Instruction, s: &Scope, out: &mut Findings) {
    let op = i.opcode();
    let what = format!("Feature '{op}.f32 with 3 input operands'");
    require(i.line, &what, 100, (8, 8), true, s, out);
    if i.has_mod("xorsign") {
        out.now(
            i.line,
            format!("Illegal modifier '.xorsign' for instruction '{op}'"),
        );
    }
}
