//! Memory accesses: the state space an access names against its variable's, writable spaces, and
//! `atom`/`red` types and operations.

use super::*;

/// The state space a memory access (`ld`, `st`, `ldu`, `atom`, `red`) names, if any.
pub(super) fn access_space(i: &Instruction) -> Option<StateSpace> {
    if !is_access(i) {
        return None;
    }
    let space = i
        .mods()
        .iter()
        .find(|m| isa::SPACES.contains(&m.as_str()))?;
    Some(match space.split("::").next().unwrap_or("") {
        "global" => StateSpace::Global,
        "shared" => StateSpace::Shared,
        "local" => StateSpace::Local,
        "param" => StateSpace::Param,
        _ => StateSpace::Const,
    })
}

pub(super) fn writes_memory(i: &Instruction) -> bool {
    matches!(i.opcode(), "st" | "atom" | "red")
}

/// No writes to `.const`.
pub(super) fn check_space_writable(i: &Instruction, out: &mut Findings) {
    if writes_memory(i) && access_space(i) == Some(StateSpace::Const) {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{}'", i.opcode()),
        );
    }
}

/// An instruction that reads or writes memory through an address operand.
/// Whether a variable of space `var` fits an access to `space` (`generic`: one naming none).
pub(super) fn space_fits(var: &StateSpace, space: Option<StateSpace>, generic: bool) -> bool {
    match space {
        Some(space) => *var == space,
        None => !generic || !matches!(var, StateSpace::Param | StateSpace::Const),
    }
}

pub(super) fn is_access(i: &Instruction) -> bool {
    matches!(i.opcode(), "ld" | "st" | "ldu" | "atom" | "red")
}

/// State space of the instruction (`space`: what it names, unless it writes `.const`) against the
/// variable it addresses; a generic access (`generic`) reaches no `.param` or `.const` variable.
/// Returns the declaration of that variable.
pub(super) fn check_space<'s>(
    i: &Instruction,
    addressed: Option<&'s VarDecl>,
    space: Option<StateSpace>,
    generic: bool,
    out: &mut Findings,
) -> Option<&'s VarDecl> {
    let var = addressed.map(|v| &v.space);
    if var.is_some_and(|v| !space_fits(v, space, generic)) {
        out.now(
            i.line,
            format!(
                "State space mismatch between instruction and address in instruction '{}'",
                i.opcode()
            ),
        );
    }
    addressed
}

/// `atom`/`red`: the operation against its types (`.and` only on bit types, `.inc` only on `.u32`,
/// no `red.cas` or `red.exch`), `.noftz` (required by the half types, allowed on `.f32`), the
/// vector forms (`.v2`/`.v4` of `.f32`, `.f16x2`, `.bf16x2`, also `.v8` of `.f16`, `.bf16`; in
/// `.global` only, sm_90 and PTX 8.1), half-type `.min`/`.max` (vectors only) and `.bf16` `.add`
/// (sm_90), in ptxas's order.
pub(super) fn check_atom_types(i: &Instruction, s: &Scope, out: &mut Findings) {
    let is_red = i.opcode() == "red";
    if i.opcode() != "atom" && !is_red {
        return;
    }
    let opcode = i.opcode();
    if i.has_mod("ftz") {
        out.now(
            i.line,
            format!("Illegal modifier '.ftz' for instruction '{opcode}'"),
        );
        return;
    }
    let vectors: Vec<&str> = i
        .mods()
        .iter()
        .map(Name::as_str)
        .filter(|m| {
            m.strip_prefix('v')
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    if let Some(m) = vectors.iter().find(|m| !matches!(**m, "v2" | "v4" | "v8")) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
        return;
    }
    if vectors.len() > 1 {
        out.now(i.line, "Multiple vector modifiers specified".into());
        return;
    }
    let width = vectors.first().and_then(|m| m[1..].parse::<u32>().ok());
    let Some((op, types)) = isa::ATOM_OPERATIONS.iter().find(|(op, _)| i.has_mod(op)) else {
        return;
    };
    let cas = *op == "cas";
    let ty = i.ty();
    // The type as written (`bf16x2`), for the messages.
    let ty_name = i
        .mods()
        .iter()
        .rev()
        .map(Name::as_str)
        .find(|m| Type::from_mod(m).is_some())
        .unwrap_or("");
    let space = i
        .mods()
        .iter()
        .map(Name::as_str)
        .find(|m| isa::SPACES.contains(m));
    let place = space.map_or(" with generic state space".to_string(), |m| format!(".{m}"));
    let noftz = i.has_mod("noftz");
    let half = ty.is_some_and(|t| matches!(t, Type::F16 | Type::BF16 | Type::F16x2 | Type::BF16x2));
    let vector_type = half || ty == Some(Type::F32);
    let bf16 = matches!(ty, Some(Type::BF16 | Type::BF16x2));
    let half_min_max = half && matches!(*op, "min" | "max");
    if half_min_max || bf16 && *op == "add" {
        let ptx = if half_min_max { (8, 1) } else { (7, 8) };
        require(
            i.line,
            &format!("Instruction '{opcode}.{op}.{ty_name}{place}'"),
            90,
            ptx,
            true,
            s,
            out,
        );
    }
    let with_vectors = format!("{opcode} instruction with vector types");
    if width.is_some() {
        require(
            i.line,
            &format!("Feature '{with_vectors}'"),
            90,
            (8, 1),
            true,
            s,
            out,
        );
    }
    if space.is_some_and(|m| !m.starts_with("shared") && m != "global") {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{opcode}'"),
        );
        return;
    }
    if is_red && cas {
        out.now(
            i.line,
            "Illegal modifier '.cas' for instruction 'red'".into(),
        );
        return;
    }
    if cas && i.has_mod("L2::cache_hint") {
        out.now(
            i.line,
            format!("Illegal modifier '.L2::cache_hint' for instruction '{opcode}'"),
        );
        return;
    }
    if noftz && !vector_type {
        out.now(
            i.line,
            format!("Illegal modifier '.noftz' for instruction '{opcode}'"),
        );
    }
    if width.is_some() && !vector_type {
        out.now(
            i.line,
            format!("Vector qualifier is not allowed for instruction '{opcode}'"),
        );
    }
    if is_red && *op == "exch" {
        out.now(
            i.line,
            "Illegal operation '.exch' for instruction 'red'".into(),
        );
        return;
    }
    if half && !noftz {
        out.now(
            i.line,
            format!("'.noftz' modifier required for instruction '{opcode}' with type '.{ty_name}'"),
        );
    }
    let Some(ty) = ty else { return };
    // Types no operation takes are "Unexpected instruction types", reported with the row.
    let wrong_type = isa::op_spec(opcode).is_some_and(|s| s.types.contains(ty))
        && !types.iter().any(|t| Type::from_mod(t) == Some(ty));
    if wrong_type {
        let msg = if cas {
            format!("Unexpected instruction types specified for '{opcode}'")
        } else {
            let names: Vec<String> = types.iter().map(|t| format!(".{t}")).collect();
            format!(
                "Operation .{op} requires {} type for instruction '{opcode}'",
                names.join(" or ")
            )
        };
        out.now(i.line, msg);
    }
    match width {
        Some(width) if !wrong_type => {
            if space.is_some_and(|m| m.starts_with("shared")) {
                out.now(
                    i.line,
                    format!("State space incorrect for feature '{with_vectors}'"),
                );
            }
            if !vector_type {
                out.now(
                    i.line,
                    format!("Unexpected instruction types specified for '{with_vectors}'"),
                );
            }
            if !matches!(ty, Type::F16 | Type::BF16) && (width == 8 || !vector_type) {
                out.now(i.line, format!("Only .v2 or .v4 vector modifier supported with type .{ty_name} on .{op} operation for {with_vectors}"));
            }
        }
        None if half_min_max && !wrong_type => out.now(
            i.line,
            format!("Vector modifier required for instruction '{opcode}.{op}.{ty_name}{place}'"),
        ),
        _ => {}
    }
    if noftz && ty == Type::F32 {
        require(
            i.line,
            &format!("Feature '{opcode} with .noftz and .f32'"),
            0,
            (9, 4),
            false,
            s,
            out,
        );
        if *op != "add" {
            out.now(
                i.line,
                format!("Illegal modifier '.noftz' for instruction '{opcode}' with '.{op}'"),
            );
        }
    }
    if is_red && i.has_mod("acq_rel") {
        out.now(
            i.line,
            "Illegal modifier '.acq_rel' for instruction 'red'".into(),
        );
    }
}

/// How many operands an `atom`/`red` with an operation takes (`cas` and a cache hint add one).
/// `red.cas` takes what it has: ptxas names only the illegal modifier.
pub(super) fn atom_operand_count(i: &Instruction) -> usize {
    let is_red = i.opcode() == "red";
    let cas = isa::ATOM_OPERATIONS
        .iter()
        .find(|(op, _)| i.has_mod(op))
        .is_some_and(|(op, _)| *op == "cas");
    if is_red && cas {
        return i.operands.len();
    }
    2 + usize::from(!is_red) + usize::from(cas) + usize::from(i.has_mod("L2::cache_hint"))
}
