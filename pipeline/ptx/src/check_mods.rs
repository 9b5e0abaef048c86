//! Modifiers written on an opcode that takes none besides its type (`and.ftz.b32`, `mov.rn.u32`),
//! each named as ptxas names its kind: a state space, a vector width, a comparison, a rounding
//! mode, one of the modifiers ptxas knows on every opcode, or a modifier it does not know there.

use crate::ast::{Instruction, Type};
use crate::isa;

/// Opcodes that take no modifier but their type: the only ones checked here.
const BARE: &[&str] = &["and", "or", "xor", "not", "cnot", "popc", "clz", "brev", "bfe", "bfi", "shl", "shr", "selp", "mov"];

/// Comparison operators (`setp`'s); on these opcodes, also checked against the type.
pub(crate) const COMPARISONS: &[&str] =
    &["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];

/// Modifiers ptxas reads on any opcode and then calls illegal where they do not belong, in the
/// order it reports them when there are several.
const GENERAL: &[&str] = &[
    "sat", "ftz", "uni", "cc", "nc", "approx", "sync", "volatile", "min", "max", "cs", "acquire", "sys", "sp", "m8n8", "popc",
    "relaxed", "ballot", "down", "trans", "lu", "cv", "cg", "ca", "wb", "wt", "all", "any", "up", "x4", "weak", "cta", "bfly",
    "idx", "shiftamt", "mbarrier", "xor", "noftz", "add", "and", "or", "satfinite", "release", "gpu", "cluster", "relu",
    "xorsign", "cas", "aligned",
];

/// Modifiers whose misuse another check names (a reduction operation, a clamp or permute mode,
/// a vector component, a feature that needs a newer target or version).
const NAMED_ELSEWHERE: &[&str] = &[
    "inc", "dec", "exch", "clamp", "wrap", "b4e", "f4e", "rc8", "ecl", "ecr", "rc16", "r", "oob", "async", "abs", "mmio", "unified",
];

/// ptxas's messages for the modifiers `i` (of type `ty`) should not have, in its order: those it
/// does not know here, then state spaces, vector widths, comparisons, its general modifiers, and
/// rounding modes. Nothing for an opcode not in [`BARE`].
pub(crate) fn misplaced_modifiers(i: &Instruction, ty: Option<Type>) -> Vec<String> {
    let op = i.opcode();
    if !BARE.contains(&op) {
        return Vec::new();
    }
    let extra: Vec<&str> = i.mods().iter().map(|m| m.as_str()).filter(|m| Type::from_mod(m).is_none()).collect();
    let has = |set: &[&str]| extra.iter().any(|m| set.contains(m));
    let mut said = Vec::new();
    for m in extra.iter().filter(|m| is_unknown_here(m)) {
        said.push(format!("Unknown modifier '.{m}'"));
    }
    if has(isa::SPACES) {
        said.push(format!("No state space qualifier expected for instruction '{op}'"));
    }
    if op != "mov" && extra.iter().any(|m| matches!(*m, "v2" | "v4" | "v8")) {
        said.push(format!("Vector qualifier is not allowed for instruction '{op}'"));
    }
    if has(COMPARISONS) {
        said.push(format!("Comparison qualifier is not allowed for instruction '{op}'"));
        if ty.is_some_and(|t| !crate::check_instr::comparison_fits(i, t)) {
            said.push("Mismatch between instruction type and comparison qualifier".into());
        }
    }
    for m in GENERAL.iter().filter(|m| extra.contains(m)) {
        said.push(format!("Illegal modifier '.{m}' for instruction '{op}'"));
    }
    if has(isa::FLOAT_ROUNDING) || has(isa::INT_ROUNDING) {
        said.push(format!("Illegal rounding modifier for instruction '{op}'"));
    }
    said
}

/// A modifier ptxas knows on other opcodes only (`.wide`, `.to`); one it knows nowhere is
/// reported with the types (`check_instr::check_types`).
fn is_unknown_here(m: &str) -> bool {
    let classified = [GENERAL, NAMED_ELSEWHERE, COMPARISONS, isa::SPACES, isa::FLOAT_ROUNDING, isa::INT_ROUNDING];
    crate::check_instr::is_known_modifier(m) && !classified.iter().any(|set| set.contains(&m)) && !matches!(m, "v2" | "v4" | "v8")
}
