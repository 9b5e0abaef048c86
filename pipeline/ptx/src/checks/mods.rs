//! Modifiers written on an opcode that does not take them (`and.ftz.b32`, `mov.rn.u32`,
//! `ld.global.sat.u32`), each named as ptxas names its kind: a state space, a vector width, a
//! comparison, a rounding mode, one of the modifiers ptxas knows on every opcode, or (on an opcode
//! that takes none but its type) a modifier it does not know there.

use crate::ast::{Instruction, Type};
use crate::checks::instructions::Scope;
use crate::checks::typing::is_int;
use crate::isa;

/// Opcodes that take no modifier but their type.
const BARE: &[&str] = &[
    "and", "or", "xor", "not", "cnot", "popc", "clz", "brev", "bfe", "bfi", "shl", "shr", "selp",
    "mov",
];

/// Opcodes with modifiers of their own, and those of the kinds checked here that they take
/// (every state space, comparison or rounding mode when its kind is named, `v` for widths).
/// Arithmetic takes the float rounding modes and `.ftz` on any type here: on integers they are
/// `instructions::check_qualifiers`'s.
const TAKES: &[(&str, &[&str])] = &[
    ("add", &["rn", "rz", "rm", "rp", "ftz", "sat", "cc"]),
    ("sub", &["rn", "rz", "rm", "rp", "ftz", "sat", "cc"]),
    (
        "mul",
        &["lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat"],
    ),
    (
        "mad",
        &[
            "lo", "hi", "wide", "rn", "rz", "rm", "rp", "ftz", "sat", "cc",
        ],
    ),
    ("fma", &["rn", "rz", "rm", "rp", "ftz", "sat", "relu"]),
    ("div", &["rn", "rz", "rm", "rp", "ftz", "approx", "full"]),
    ("rem", &[]),
    ("abs", &["ftz"]),
    ("neg", &["ftz"]),
    ("min", &["ftz", "NaN", "xorsign", "relu"]),
    ("max", &["ftz", "NaN", "xorsign", "relu"]),
    ("mul24", &["lo", "hi"]),
    ("mad24", &["lo", "hi", "sat"]),
    (
        "ld",
        &[
            "space", "v", "ca", "cg", "cs", "lu", "cv", "volatile", "relaxed", "acquire", "weak",
            "cta", "cluster", "gpu", "sys", "nc",
        ],
    ),
    (
        "st",
        &[
            "space", "v", "wb", "cg", "cs", "wt", "volatile", "relaxed", "release", "weak", "cta",
            "cluster", "gpu", "sys",
        ],
    ),
    ("cvt", &["rounding", "ftz", "sat", "relu", "satfinite"]),
    ("cvta", &["space", "to"]),
    ("setp", &["comparison", "and", "or", "xor", "ftz"]),
    ("bra", &["uni"]),
];

/// Comparison operators (`setp`'s); on these opcodes, also checked against the type.
pub(crate) const COMPARISONS: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu",
    "geu", "num", "nan",
];

/// Modifiers ptxas reads on any opcode and then calls illegal where they do not belong, in the
/// order it reports them when there are several.
const GENERAL: &[&str] = &[
    "sat",
    "ftz",
    "uni",
    "cc",
    "nc",
    "approx",
    "sync",
    "volatile",
    "min",
    "max",
    "cs",
    "acquire",
    "sys",
    "sp",
    "m8n8",
    "popc",
    "relaxed",
    "ballot",
    "down",
    "trans",
    "lu",
    "cv",
    "cg",
    "ca",
    "wb",
    "wt",
    "all",
    "any",
    "up",
    "x4",
    "weak",
    "cta",
    "bfly",
    "idx",
    "shiftamt",
    "mbarrier",
    "xor",
    "noftz",
    "add",
    "and",
    "or",
    "satfinite",
    "release",
    "gpu",
    "cluster",
    "relu",
    "xorsign",
    "cas",
    "aligned",
    "NaN",
];

/// Modifiers whose misuse another check names (a reduction operation, a clamp or permute mode,
/// a vector component, a feature that needs a newer target or version).
const NAMED_ELSEWHERE: &[&str] = &[
    "inc", "dec", "exch", "clamp", "wrap", "b4e", "f4e", "rc8", "ecl", "ecr", "rc16", "r", "oob",
    "async", "abs", "mmio", "unified",
];

/// ptxas's messages for the modifiers `i` (of type `ty`) should not have, in its order: more than
/// one rounding mode, those it does not know here, then state spaces, vector widths, comparisons, its general modifiers, and
/// rounding modes. Nothing for an opcode neither in [`BARE`] nor in [`TAKES`].
pub(crate) fn misplaced_modifiers(i: &Instruction, ty: Option<Type>) -> Vec<String> {
    let op = i.opcode();
    let Some(takes) = TAKES
        .iter()
        .find(|(o, _)| *o == op)
        .map(|(_, takes)| *takes)
        .or(BARE.contains(&op).then_some(&[][..]))
    else {
        return Vec::new();
    };
    let op = crate::checks::instructions::display_name(i);
    let extra: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| m.as_str())
        .filter(|m| {
            Type::from_mod(m).is_none() && !crate::checks::instructions::is_untabled_type(m)
        })
        .collect();
    let misplaced = |kind: &str, set: &[&str]| {
        !takes.contains(&kind) && extra.iter().any(|m| set.contains(m) && !takes.contains(m))
    };
    let mut said = Vec::new();
    let rounding = |m: &&&str| isa::FLOAT_ROUNDING.contains(m) || isa::INT_ROUNDING.contains(m);
    if extra.iter().filter(rounding).count() > 1 {
        said.push("Multiple rounding modifiers specified".to_string());
    }
    said.extend(repeated_modifiers(i, &extra));
    for m in extra.iter().filter(|m| is_unknown_here(m, takes)) {
        said.push(format!("Unknown modifier '.{m}'"));
    }
    if misplaced("space", isa::SPACES) {
        said.push(format!(
            "No state space qualifier expected for instruction '{op}'"
        ));
    }
    if extra.iter().filter(|m| isa::SPACES.contains(m)).count() > 1 {
        said.push(format!(
            "Unexpected number of state spaces specified in instruction '{op}'"
        ));
    }
    if op != "mov" && misplaced("v", &["v2", "v4", "v8"]) {
        said.push(format!(
            "Vector qualifier is not allowed for instruction '{op}'"
        ));
    }
    // The first `.lo`/`.hi`/`.wide` of `mul`-like opcodes is their half; a later `.lo`/`.hi` is a
    // comparison.
    let mut rest = extra.clone();
    if let Some(at) = crate::checks::instructions::half_modifier(i)
        .and_then(|half| rest.iter().position(|m| *m == half))
    {
        rest.remove(at);
    }
    let comparisons = rest.iter().filter(|m| COMPARISONS.contains(m));
    let second_half = rest.iter().any(|m| matches!(*m, "lo" | "hi")) && extra.len() > rest.len();
    if misplaced("comparison", COMPARISONS) || second_half {
        if comparisons.clone().count() > 1 {
            said.push("Multiple comparisons set".into());
        }
        said.push(format!(
            "Comparison qualifier is not allowed for instruction '{op}'"
        ));
        if ty
            .is_some_and(|t| !crate::checks::instructions::comparisons_fit(comparisons.copied(), t))
        {
            said.push("Mismatch between instruction type and comparison qualifier".into());
        }
    }
    for m in GENERAL
        .iter()
        .filter(|m| extra.contains(m) && !takes.contains(m))
    {
        said.push(format!("Illegal modifier '.{m}' for instruction '{op}'"));
    }
    if misplaced("rounding", isa::FLOAT_ROUNDING) || misplaced("rounding", isa::INT_ROUNDING) {
        said.push(format!("Illegal rounding modifier for instruction '{op}'"));
    }
    said
}

/// A modifier ptxas knows on other opcodes only (`.wide`, `.to`), where the opcode `takes` no such
/// modifier; one it knows nowhere is reported with the types (`instructions::check_types`), and
/// the `L1::`-like hints are another check's.
fn is_unknown_here(m: &str, takes: &[&str]) -> bool {
    let classified = [
        GENERAL,
        NAMED_ELSEWHERE,
        COMPARISONS,
        isa::SPACES,
        isa::FLOAT_ROUNDING,
        isa::INT_ROUNDING,
        takes,
    ];
    crate::checks::instructions::is_known_modifier(m)
        && !classified.iter().any(|set| set.contains(&m))
        && !matches!(m, "v2" | "v4" | "v8")
        && !m.contains("::")
}

/// Targets with `add.sat` on `.u32` (PTX ISA 9.2).
const UNSIGNED_ADD_SAT_TARGETS: &[&str] = &["sm_120a", "sm_121a", "sm_120f", "sm_121f"];

/// ptxas's messages for `.sat` on integer `add`/`sub`/`mul`/`mad` of type `ty`: it saturates
/// `add`/`sub`/`mad.hi` of `.s32` only (and `add` of `.u32` on a few targets from PTX ISA 9.2),
/// never with `.cc`; on `mul` and on `mad.lo`/`mad.wide` it is an illegal modifier.
pub(crate) fn integer_saturation(i: &Instruction, ty: Type, s: &Scope) -> Option<String> {
    let op = i.opcode();
    if !i.has_mod("sat") || !matches!(op, "add" | "sub" | "mul" | "mad") || !is_int(ty) {
        return None;
    }
    if i.has_mod("cc") {
        return Some("Modifier '.cc' cannot be combined with modifier '.sat'".into());
    }
    if op == "mul" || (op == "mad" && !i.has_mod("hi")) {
        let name = crate::checks::instructions::display_name(i);
        return Some(format!("Illegal modifier '.sat' for instruction '{name}'"));
    }
    match ty {
        Type::S32 => None,
        Type::U32 if op == "add" && s.version < (9, 2) => {
            Some("Feature 'add.sat' requires PTX ISA .version 9.2 or later".into())
        }
        Type::U32 if op == "add" && !UNSIGNED_ADD_SAT_TARGETS.contains(&s.target) => Some(format!(
            "Feature 'add.sat' not supported on .target '{}'",
            s.target
        )),
        Type::U32 if op == "add" => None,
        _ => Some(format!(
            "Modifier '.sat' does not apply to '.{}' type",
            ty.name()
        )),
    }
}

/// Modifiers ptxas names when written twice.
const NAMED_WHEN_REPEATED: &[&str] = &["ftz", "nc", "volatile", "relaxed"];

/// Cache operators of `ld`/`st`, of which an access takes one.
const CACHE_OPERATIONS: &[&str] = &["ca", "cg", "cs", "lu", "cv", "wb", "wt"];

/// ptxas's messages for modifiers written more than once (`add.ftz.ftz`), for two cache
/// operators and for two L1 eviction priorities; `extra` are the modifiers that are no types.
fn repeated_modifiers(i: &Instruction, extra: &[&str]) -> Vec<String> {
    let count = |m: &str| extra.iter().filter(|e| **e == m).count();
    let mut said: Vec<String> = NAMED_WHEN_REPEATED
        .iter()
        .filter(|m| count(m) > 1)
        .map(|m| format!("Duplicate .{m} modifier"))
        .collect();
    if extra
        .iter()
        .filter(|m| CACHE_OPERATIONS.contains(m))
        .count()
        > 1
    {
        said.push("Multiple cache operation modifiers specified".into());
    }
    if extra.iter().filter(|m| m.starts_with("L1::evict_")).count() > 1 {
        said.push(format!(
            "Duplicate '.L1::eviction_priority' modifier specified for instruction '{}'",
            i.opcode()
        ));
    }
    said
}

/// `cvt.sat` between integer types whose destination holds every source value (`cvt.sat.u64.u32`,
/// `cvt.sat.s32.s16`): ptxas refuses the `.sat` that could never clamp.
pub(crate) fn sat_that_cannot_clamp(i: &Instruction, types: &[Type]) -> Option<String> {
    let [dt, st] = types[..] else {
        return None;
    };
    let ints = crate::checks::typing::is_int(dt) && crate::checks::typing::is_int(st);
    if i.opcode() != "cvt" || !i.has_mod("sat") || !ints {
        return None;
    }
    let range = |t: Type| {
        let bits = 8 * t.size_bytes() as i32;
        match t.is_signed() {
            true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            false => (0, (1i128 << bits) - 1),
        }
    };
    let ((dlo, dhi), (slo, shi)) = (range(dt), range(st));
    (dlo <= slo && dhi >= shi).then(|| "Illegal modifier '.sat' for instruction 'cvt'".into())
}
