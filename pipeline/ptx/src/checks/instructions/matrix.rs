//! `ldmatrix`/`stmatrix`-style matrix modifiers: shapes, formats and fragment counts.

use super::*;

/// `ldmatrix`/`stmatrix`: `.sync`, a shape and a `.xN` count, shared memory only. False when the
/// operands can't be checked further.
pub(super) fn check_matrix_modifiers(i: &Instruction, out: &mut Findings) -> bool {
    matrix_modifiers(i, out).is_some()
}

/// `ldmatrix`/`stmatrix` whose modifiers fit: the registers its fragment vector holds, and where.
pub(super) fn matrix_fragments(i: &Instruction) -> Option<(usize, usize)> {
    matrix_modifiers(i, &mut Findings::default()).flatten()
}

/// `ldmatrix`'s format conversions (`.b8x16.b6x16_p32`: packed 6-bit elements widened to bytes).
pub(super) const MATRIX_FORMATS: &[&str] = &["b8x16", "b6x16_p32", "b4x16_p64"];

/// The fragment (count, operand index) of a matrix access, `Some(None)` for other opcodes, `None`
/// after reporting modifiers that don't fit. What the shape takes is checked after the fragment
/// ([`matrix_form_fits`]), as ptxas does.
pub(super) fn matrix_modifiers(
    i: &Instruction,
    out: &mut Findings,
) -> Option<Option<(usize, usize)>> {
    let op = i.opcode();
    if op != "ldmatrix" && op != "stmatrix" {
        return Some(None);
    }
    let narrow = |m: &&Name| ["b4x", "b6x", "b8x"].iter().any(|p| m.starts_with(p));
    let other_count = |m: &&Name| {
        m.strip_prefix('x')
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
            && !matches!(m.as_str(), "x1" | "x2" | "x4")
    };
    let unknown = |m: &&Name| narrow(m) && !MATRIX_FORMATS.contains(&m.as_str()) || other_count(m);
    if let Some(m) = i.mods().iter().find(unknown) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
        return None;
    }
    if !i.has_mod("sync") {
        let times = if op == "ldmatrix" { 2 } else { 1 };
        (0..times).for_each(|_| {
            out.now(
                i.line,
                format!(".sync modifier required for instruction '{op}'"),
            )
        });
        return None;
    }
    if !i.has_mod("aligned") {
        out.now(
            i.line,
            format!(".aligned modifier required for instruction '{op}'"),
        );
        return None;
    }
    let repeated = |what: &str, of: &dyn Fn(&str) -> bool| {
        (i.mods().iter().filter(|m| of(m)).count() > 1)
            .then(|| format!("Multiple {what} modifiers specified"))
    };
    let counts = |m: &str| matches!(m, "x1" | "x2" | "x4");
    let twice = repeated("matrix shape", &is_shape)
        .or_else(|| repeated(".num", &counts))
        .or_else(|| repeated(".trans", &|m| m == "trans"));
    if let Some(message) = twice {
        out.now(i.line, message);
        return None;
    }
    let Some(shape) = i.mods().iter().map(Name::as_str).find(|m| is_shape(m)) else {
        out.now(
            i.line,
            format!("Shape modifier required for instruction '{op}'"),
        );
        return None;
    };
    let Some(count) = i.mods().iter().find_map(|m| {
        m.strip_prefix('x')
            .filter(|_| counts(m))
            .and_then(|n| n.parse::<usize>().ok())
    }) else {
        out.now(
            i.line,
            format!(".num modifier required for instruction '{op}'"),
        );
        return None;
    };
    let space_ok = i
        .mods()
        .iter()
        .filter(|m| isa::SPACES.contains(&m.as_str()))
        .all(|m| m == "shared" || m == "shared::cta");
    if !space_ok {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{op}'"),
        );
        return None;
    }
    if op == "ldmatrix" && shape == "m16n16" && count == 4 {
        out.now(
            i.line,
            format!("Incorrect no. of matrix: 4 for ldmatrix with shape '.{shape}'"),
        );
        return None;
    }
    // One type, `.b8` or `.b16` (`stmatrix` has no format conversions), before the fragment.
    let types = i.types();
    let odd_types = types.len() > 1 || types.iter().any(|t| !matches!(t, Type::B8 | Type::B16));
    if odd_types || op == "stmatrix" && i.mods().iter().any(|m| narrow(&m)) {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{op}'"),
        );
        return None;
    }
    // A 16x16 matrix of bytes takes two registers per matrix.
    let count = if op == "ldmatrix" && shape == "m16n16" {
        2 * count
    } else {
        count
    };
    Some(Some((count, usize::from(op == "stmatrix"))))
}

/// What a matrix access's shape takes, as [`matrix_form_problem`] finds it. False after
/// reporting a problem.
pub(super) fn matrix_form_fits(i: &Instruction, out: &mut Findings) -> bool {
    let problem = matrix_form_problem(i);
    problem
        .iter()
        .for_each(|message| out.now(i.line, message.clone()));
    problem.is_none()
}

/// What is wrong with the types and `.trans` of a matrix access for its shape: `.m8n8` holds
/// `.b16`; `stmatrix.m16n8` and `ldmatrix.m16n16` hold `.b8` and need `.trans`; `ldmatrix.m8n16`
/// and `ldmatrix.m16n16` also take a format conversion (`.b8x16` and a packed source format, in
/// that order), `.m8n16` without `.trans`; `stmatrix` has no other shape, `ldmatrix` not `.m16n8`.
pub(super) fn matrix_form_problem(i: &Instruction) -> Option<String> {
    let op = i.opcode();
    let shape = i.mods().iter().map(Name::as_str).find(|m| is_shape(m))?;
    let b8_shape = match (op, shape) {
        (_, "m8n8") => false,
        ("stmatrix", "m16n8") | ("ldmatrix", "m16n16" | "m8n16") => true,
        ("stmatrix", _) | ("ldmatrix", "m16n8") => {
            return Some(format!(
                "Illegal matrix shape '.{shape}' for instruction '{op}'"
            ))
        }
        _ => return None,
    };
    let types = i.types();
    let formats: Vec<&str> = i
        .mods()
        .iter()
        .map(Name::as_str)
        .filter(|m| MATRIX_FORMATS.contains(m))
        .collect();
    let type_count = match shape {
        "m8n8" => types.len() != 1 || !formats.is_empty(),
        "m8n16" => !types.is_empty(),
        _ => !types.is_empty() && !formats.is_empty(),
    };
    if type_count {
        return Some(format!(
            "Unexpected number of instruction types specified for {op} with shape '.{shape}'"
        ));
    }
    let trans = i.has_mod("trans");
    if shape == "m8n16" && trans {
        return Some("Modifier .trans not allowed for shape '.m8n16'".into());
    }
    let needs_trans = b8_shape && shape != "m8n16" && !trans;
    let trans_required = || {
        Some(format!(
            "Modifier '.trans' require for instruction {op} with shape '.{shape}'"
        ))
    };
    match (&types[..], &formats[..]) {
        ([], _) if needs_trans => trans_required(),
        ([], ["b8x16", from]) if *from != "b8x16" => None,
        ([], [a, b]) => Some(format!(
            "Illegal modifier '.{a}.{b}' for instruction '{op}'"
        )),
        ([], _) => Some("Unexpected number of 'format conversion' modifiers specified".into()),
        ([t @ (Type::B8 | Type::B16)], _) if (*t == Type::B8) != b8_shape => Some(format!(
            "Incorrect instruction type specified for {op} with shape '.{shape}'"
        )),
        ([Type::B8 | Type::B16], _) if needs_trans => trans_required(),
        _ => None,
    }
}

/// The fragment vector of a matrix access against its count, then what its shape takes. False
/// when the operands can't be checked further.
pub(super) fn check_matrix_fragments(
    i: &Instruction,
    (count, at): (usize, usize),
    out: &mut Findings,
) -> bool {
    let op = i.opcode();
    match i.operands.get(at) {
        Some(Operand::Vector(v)) if v.len() == count => matrix_form_fits(i, out),
        Some(Operand::Vector(v)) if !matches!(v.len(), 1 | 2 | 4 | 8) => {
            out.now(i.line, format!("Illegal vector size: {}", v.len()));
            false
        }
        Some(_) => {
            out.now(
                i.line,
                format!(
                    "Vector of size {count} is expected for argument {at} of instruction '{op}'"
                ),
            );
            if matches!(i.operands.get(at), Some(Operand::Vector(v)) if v.len() < count) {
                out.now(
                    i.line,
                    format!("Argument vector size mismatch for instruction '{op}'"),
                );
            }
            false
        }
        None => matrix_form_fits(i, out),
    }
}

/// A matrix shape modifier (`m8n8`, `m16n8k16`).
pub(super) fn is_shape(m: &str) -> bool {
    let mut rest = m;
    for letter in ['m', 'n'] {
        let Some(r) = rest.strip_prefix(letter) else {
            return false;
        };
        let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if digits == 0 {
            return false;
        }
        rest = &r[digits..];
    }
    rest.is_empty()
        || rest
            .strip_prefix('k')
            .is_some_and(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()))
}
