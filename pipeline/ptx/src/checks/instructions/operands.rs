//! Operand checks: each operand's kind against the opcode's operand shape (`isa::OPS`), register
//! and immediate types, special registers, `mov` and memory vectors, result registers, and unknown
//! symbols.

use super::*;

/// The type of a result of operand kind `kind`: `.pred` for a predicate result (`setp`'s),
/// else the instruction's first type.
pub(super) fn result_type(i: &Instruction, kind: Option<char>) -> Option<Type> {
    match kind {
        Some('P') => Some(Type::Pred),
        _ => i.types().first().copied(),
    }
}

/// Whether `o`, written where a label goes, is something else ptxas names as such: an integer
/// register (a floating or predicate one is a mismatch), or a known name that is no label.
pub(super) fn stands_for_no_label(o: &Operand, s: &Scope) -> bool {
    match o {
        Operand::Reg(n) => s
            .regs
            .lookup(n)
            .is_some_and(|t| !is_float(t) && t != Type::Pred),
        Operand::Symbol(n) => !s.labels.contains_name(n) && is_known_name(symbol_base(n), s),
        _ => false,
    }
}

/// Whether `o`, written where a result goes, is no register: an immediate that fits the result's
/// type `ty` (one of another kind is a type mismatch first), a vector with a literal element, or a
/// variable or register plus an offset.
pub(super) fn stands_for_no_register(o: &Operand, ty: Option<Type>, s: &Scope) -> bool {
    match o {
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => immediate_fits(o, ty),
        Operand::Vector(v) => v
            .iter()
            .any(|e| matches!(e, Operand::Imm(_) | Operand::F32(_) | Operand::F64(_))),
        Operand::Symbol(n) => is_variable_plus_offset(n, s) || is_register_plus_offset(n, s),
        _ => false,
    }
}

/// Operand forms ptxas rejects before looking at types: an immediate or special register as a
/// result, an address or a variable where a register belongs,
/// an address through an unknown name, a vector of an illegal size. False if any was reported.
pub(super) fn check_operand_forms(
    i: &Instruction,
    spec: &OpSpec,
    p: &Plan,
    s: &Scope,
    out: &mut Findings,
) -> bool {
    let mut ok = true;
    let mut kinds = spec.shape.chars().filter(|c| !matches!(c, '?' | '*'));
    for (k, o) in i.operands.iter().enumerate() {
        let kind = kinds.next();
        let is_dest = kind.is_some_and(|c| matches!(c, 'd' | 'D' | 'E' | 'w' | 'U' | 'P'))
            || (kind == Some('V') && k == 0);
        match o {
            _ if is_dest && stands_for_no_register(o, result_type(i, kind), s) => {
                out.now(
                    i.line,
                    format!(
                        "Result register required for instruction '{}'",
                        display_name(i)
                    ),
                );
                ok = false;
            }
            Operand::SpecialReg { name, comp }
                if is_dest || special_not_allowed(i, name, *comp) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Special register argument not allowed for instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            // `mov.v4` takes one whole (`mov.v4.u32 {%r1, %r2, %r3, %r4}, %tid`).
            Operand::SpecialReg { name, comp: None } | Operand::Reg(name)
                if is_vector_special(name)
                    && s.regs.lookup(name).is_none()
                    && !(p.is_mov && p.width == 4) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Argument vector size mismatch for instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            Operand::Addr { .. } if kind.is_some_and(|c| c != 'm') => {
                out.now(
                    i.line,
                    format!(
                        "Argument {k} of instruction '{}': must be register",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            // An unknown base, unless an undeclared register stands elsewhere (then ptxas's
            // arguments mismatch).
            Operand::Addr {
                base: AddrBase::Reg(n) | AddrBase::Symbol(n),
                ..
            } if !is_known_name(n, s) && !undeclared_register_operand(i, s) => {
                out.now(
                    i.line,
                    format!("Illegal operand type to instruction '{}'", i.opcode()),
                );
                ok = false;
            }
            _ if kind == Some('l') && stands_for_no_label(o, s) => {
                out.now(
                    i.line,
                    format!(
                        "Label expected for argument {k} of instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            Operand::Symbol(n)
                if kind.is_some_and(|c| !matches!(c, 'm' | 'l'))
                    && !(p.takes_address && k > 0)
                    && s.vars.contains_key(n) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Argument {k} of instruction '{}': must be register",
                        display_name(i)
                    ),
                );
                ok = false;
            }
            _ => {}
        }
    }
    ok
}

/// The sizes of the types ptxas reads a special register as, one bit each (bit 1: 16 bits, 2: 32,
/// 3: 64):
/// a `%tid`-like component 16 or 32 bits, `%clock64`, `%globaltimer`, `%pm0_64`..,
/// `%current_graph_exec` 64, `%gridid` 32 or 64, the others 32.
pub(crate) fn special_register_sizes(name: &str, comp: Option<char>) -> u8 {
    const SIXTY_FOUR: &[&str] = &["%clock64", "%globaltimer", "%current_graph_exec"];
    if comp.is_some() {
        1 << 1 | 1 << 2
    } else if SIXTY_FOUR.contains(&name) || (name.starts_with("%pm") && name.ends_with("_64")) {
        1 << 3
    } else if name == "%gridid" {
        1 << 2 | 1 << 3
    } else {
        1 << 2
    }
}

/// Whether a special register may stand where a value of type `ty` is read (by size).
pub(super) fn special_register_fits(name: &str, comp: Option<char>, ty: Type) -> bool {
    special_register_sizes(name, comp) & (1 << ty.size_bytes().trailing_zeros()) != 0
}

/// A special register as a source where ptxas takes none: in `cvt` with a floating type, in an
/// instruction of a floating type of its size (another size is a mismatch), a 64-bit one in an
/// instruction other than `mov` and `cvt`.
pub(super) fn special_not_allowed(i: &Instruction, name: &str, comp: Option<char>) -> bool {
    if i.opcode() == "cvt" {
        return i.types().iter().any(|&t| is_float(t));
    }
    let Some(ty) = i.ty() else { return false };
    special_register_fits(name, comp, ty)
        && (is_float(ty) || (ty.size_bytes() == 8 && i.opcode() != "mov"))
}

/// Whether an operand (not an address) is a register no declaration names.
pub(super) fn undeclared_register_operand(i: &Instruction, s: &Scope) -> bool {
    i.operands.iter().any(|o| {
        matches!(o, Operand::Reg(r)
            if r != "_" && !is_vector_special(r) && s.regs.lookup(r).is_none() && !s.vars.contains_key(r))
    })
}

/// Special registers with `.x`/`.y`/`.z` components, named whole.
pub(super) fn is_vector_special(name: &str) -> bool {
    // Registers end in a digit; these names don't.
    !name.ends_with(|c: char| c.is_ascii_digit())
        && matches!(
            name,
            "%tid"
                | "%ntid"
                | "%ctaid"
                | "%nctaid"
                | "%clusterid"
                | "%nclusterid"
                | "%cluster_ctaid"
                | "%cluster_nctaid"
        )
}

pub(super) fn is_known_name(n: &str, s: &Scope) -> bool {
    s.vars.contains_key(n)
        || s.knows_function(n)
        || n.starts_with("__")
        || s.regs.lookup(n).is_some()
}

/// Operand kinds and register types against the row's shape; false on a mismatch.
pub(super) fn check_operands(
    i: &Instruction,
    p: &Plan,
    spec: &OpSpec,
    width: u32,
    s: &Scope,
) -> bool {
    if p.skip_operand_types {
        return true;
    }
    // A third input to `min`/`max` is for `.f32` only.
    if i.operands.len() == 4 && matches!(i.opcode(), "min" | "max") && p.ty != Some(Type::F32) {
        return false;
    }
    // A cache policy (`.L2::cache_hint`) follows the operands the shape describes: a 64-bit
    // register or immediate.
    let operands = match i.has_mod("L2::cache_hint") {
        true => match i.operands.split_last() {
            Some((policy, rest)) if policy_fits(policy, s) => rest,
            _ => return false,
        },
        false => &i.operands[..],
    };
    let mut ok = true;
    let mut optional = false;
    let mut idx = 0;
    for kind in spec.shape.chars() {
        match kind {
            '?' => {
                // `.sync` forms (`shfl`, `vote`) take the member mask their plain forms lack.
                optional = !p.mask_required;
                continue;
            }
            '*' => return ok,
            _ => {}
        }
        let Some(o) = operands.get(idx) else {
            return ok && optional;
        };
        let t = if idx == 0 { p.ty } else { p.src_ty };
        ok &= match o {
            Operand::Vector(v)
                if p.data == Some(idx)
                    && width > 1
                    && crate::checks::vectors::is_data_vector(v, i.opcode() == "st", s) =>
            {
                crate::checks::vectors::data_vector_fits(v, t, spec.typing, s)
            }
            // `.vN` data element by element; a scalar access's data in braces (`{%r1}`) alike.
            Operand::Vector(v) if p.data == Some(idx) && (width > 1 || v.len() == 1) => {
                v.iter().all(|e| operand_fits(kind, e, t, spec, s, p))
            }
            _ => operand_fits(kind, o, t, spec, s, p),
        };
        idx += 1;
    }
    ok && idx == operands.len()
}

/// A cache policy operand: a 64-bit register (undeclared ones are reported apart) or an immediate.
fn policy_fits(o: &Operand, s: &Scope) -> bool {
    match o {
        Operand::Reg(r) => s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 8),
        Operand::Imm(_) => true,
        _ => false,
    }
}

pub(super) fn is_memory_access(i: &Instruction) -> bool {
    matches!(i.opcode(), "ld" | "st" | "ldu")
}

/// Which operand holds the loaded or stored value.
pub(super) fn data_index(i: &Instruction) -> usize {
    usize::from(i.opcode() == "st")
}

/// `.vN` (`width`: `None` when illegal) against the data operand (operand `at`): a `{...}` of exactly N
/// elements, or a scalar without `.vN`. Returns the width, or `None` after reporting a mismatch
/// (`ld` reports it twice, as ptxas does).
#[inline]
pub(super) fn check_memory_vector(
    i: &Instruction,
    at: usize,
    width: Option<u32>,
    out: &mut Findings,
) -> Option<u32> {
    let data = i.operands.get(at);
    // A scalar without `.vN` (the usual access) has nothing to say; nor has a scalar in braces
    // (`ld.global.b32 {%r1}, [a]`, as LLVM's NVPTX back end writes it), which ptxas reads alike.
    if width == Some(1) && !matches!(data, Some(Operand::Vector(v)) if v.len() != 1) {
        return width;
    }
    check_vector_access(i, data, width, out)
}

/// [`check_memory_vector`] past a scalar access.
#[inline(never)]
pub(super) fn check_vector_access(
    i: &Instruction,
    data: Option<&Operand>,
    width: Option<u32>,
    out: &mut Findings,
) -> Option<u32> {
    if let Some(Operand::Vector(v)) = data {
        if !matches!(v.len(), 1 | 2 | 4 | 8) {
            out.now(i.line, format!("Illegal vector size: {}", v.len()));
        }
    }
    let fits = match (width, data) {
        (Some(w), Some(Operand::Vector(v))) => w > 1 && v.len() as u32 == w,
        (Some(w), _) => w == 1,
        (None, _) => false,
    };
    if fits {
        return width;
    }
    let vector_form = width.is_some_and(|w| w > 1);
    if vector_form && i.opcode() != "st" && result_register_findings(i, data, out) == Some(true) {
        return None;
    }
    if vector_form && i.opcode() != "st" && !matches!(data, Some(Operand::Vector(_))) {
        out.now(i.line, "Result vector expected".into());
    }
    let times = if vector_form && i.opcode() != "st" {
        2
    } else {
        1
    };
    for _ in 0..times {
        out.now(
            i.line,
            format!(
                "Argument vector size mismatch for instruction '{}'",
                i.opcode()
            ),
        );
    }
    None
}

/// ptxas's message on a literal or special register as the result of a vector `ld`/`mov`
/// (`ld.global.v2.u32 1, [%rd1]`): no register. `Some(true)` for a special register (nothing
/// more is said), `Some(false)` for a literal (its vector messages follow).
pub(super) fn result_register_findings(
    i: &Instruction,
    data: Option<&Operand>,
    out: &mut Findings,
) -> Option<bool> {
    let (message, special) = match data? {
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => (
            format!(
                "Result register required for instruction '{}'",
                display_name(i)
            ),
            false,
        ),
        Operand::SpecialReg { .. } => (
            format!(
                "Special register argument not allowed for instruction '{}'",
                i.opcode()
            ),
            true,
        ),
        Operand::Reg(r) if is_vector_special(r) => (
            format!(
                "Special register argument not allowed for instruction '{}'",
                i.opcode()
            ),
            true,
        ),
        _ => return None,
    };
    out.now(i.line, message);
    Some(special)
}

pub(super) fn operand_fits(
    kind: char,
    o: &Operand,
    ty: Option<Type>,
    spec: &OpSpec,
    s: &Scope,
    p: &Plan,
) -> bool {
    let reg_fits =
        |name: &str, want: Option<Type>, typing: Typing| match (s.regs.lookup(name), want) {
            (None, _) | (_, None) => true, // undeclared: reported as an unknown symbol
            (Some(r), Some(w)) => register_fits(w, r, typing),
        };
    if p.packed_f32 {
        return matches!(o, Operand::Reg(r) if s.regs.lookup(r).is_none_or(|t| t == Type::B64));
    }
    match kind {
        'd' | 'w' | 'U' => {
            let want = match kind {
                'd' => ty,
                'w' if p.wide => ty.and_then(widened),
                'w' => ty,
                _ => Some(Type::U32),
            };
            match o {
                Operand::Reg(r) => reg_fits(r, want, spec.typing),
                Operand::Sink => true,
                Operand::Vector(v) => p.is_mov && mov_vector_fits(v, want, spec.typing, p, s),
                _ => false,
            }
        }
        'a' | 'u' | 'c' => {
            let want = match kind {
                'u' => Some(Type::U32),
                'c' if p.wide => ty.and_then(widened),
                _ => ty,
            };
            let typing = if kind == 'u' { Typing::Strict } else { spec.typing };
            match o {
                Operand::Reg(r) => reg_fits(r, want, typing),
                Operand::Imm(_) => want.is_none_or(int_immediate_fits),
                Operand::F32(_) | Operand::F64(_) => kind == 'a' && want.is_none_or(|t| float_literal_fits(o, t)),
                Operand::SpecialReg { name, comp } => want.is_none_or(|t| !is_float(t) && t != Type::Pred && special_register_fits(name, *comp, t)),
                Operand::Symbol(name) if is_variable_plus_offset(name, s) => p.takes_address || want.is_none_or(int_immediate_fits),
                // An unknown name plus an offset is only ptxas's unknown symbol, no mismatch.
                Operand::Symbol(name) if symbol_base(name) != name.as_str() && !names_anything(symbol_base(name), s) => true,
                Operand::Symbol(name) => p.takes_address && symbol_is_address(name, s),
                Operand::Vector(v) => p.is_mov && mov_vector_fits(v, want, spec.typing, p, s),
                Operand::NotReg(r) => want == Some(Type::Pred) && reg_fits(r, want, typing),
                _ => false,
            }
        }
        'D' => match o {
            Operand::Reg(r) => reg_fits(r, ty, spec.typing),
            Operand::PredPair(pair) => reg_fits(&pair.0, ty, spec.typing) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        'E' => match o {
            Operand::PredPair(pair) => reg_fits(&pair.0, Some(Type::U32), Typing::Strict) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        // A matrix fragment: 32-bit registers of any type, or (as ptxas takes them) predicates.
        'V' => match o {
            Operand::Vector(v) => v.iter().all(|e| matches!(e, Operand::Reg(r) if s.regs.lookup(r).is_none_or(|t| t == Type::Pred || t.size_bytes() == 4))),
            _ => false,
        },
        'P' => match o {
            Operand::Reg(r) => reg_fits(r, Some(Type::Pred), Typing::Strict),
            Operand::PredPair(pair) => reg_fits(&pair.0, Some(Type::Pred), Typing::Strict) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            Operand::Sink => true,
            _ => false,
        },
        'q' => match o {
            Operand::Reg(r) | Operand::NotReg(r) => reg_fits(r, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        'A' => match o {
            Operand::Reg(r) => s.regs.lookup(r).is_none_or(|t| !is_float(t) && matches!(t.size_bytes(), 4 | 8)),
            Operand::Imm(_) => true,
            Operand::Symbol(name) => symbol_base(name) != name.as_str() && (is_variable_plus_offset(name, s) || !names_anything(symbol_base(name), s)),
            _ => false,
        },
        'm' => matches!(o, Operand::Addr { .. }),
        'l' => matches!(o, Operand::Symbol(_)),
        'i' => matches!(o, Operand::Imm(_)),
        _ => true,
    }
}

/// A `mov` vector of registers against the type (see [`crate::checks::vectors::mov_vector_fits`]);
/// others are taken as they are. With a vector width, the elements against the type
/// ([`crate::checks::vectors::mov_elements_fit`]).
pub(super) fn mov_vector_fits(
    v: &[Operand],
    ty: Option<Type>,
    typing: Typing,
    p: &Plan,
    s: &Scope,
) -> bool {
    if p.width > 1 {
        return crate::checks::vectors::mov_elements_fit(v, ty, typing, s);
    }
    !crate::checks::vectors::is_register_vector(v, s)
        || crate::checks::vectors::mov_vector_fits(v, ty, s)
}

/// A variable plus an offset (`g+4`, also `g+0`), which ptxas takes as an integer constant
/// wherever one may stand (`add.u64 %rd1, %rd1, g+4`; `g` alone is no value there). A function
/// plus an offset reads alike here; ptxas refuses it later (`validate::function_plus_offset`).
pub(super) fn is_variable_plus_offset(name: &str, s: &Scope) -> bool {
    let base = symbol_base(name);
    base != name && (s.vars.contains_key(base) || s.knows_function(base))
}

/// Whether `name` is a label, variable, function or register of the scope.
pub(super) fn names_anything(name: &str, s: &Scope) -> bool {
    s.labels.contains(name)
        || s.vars.contains_key(name)
        || s.knows_function(name)
        || s.regs.lookup(name).is_some()
}

/// Whether a name used as a value is a variable or function (its address), not a label.
pub(super) fn symbol_is_address(name: &str, s: &Scope) -> bool {
    let name = symbol_base(name);
    s.vars.contains_key(name)
        || s.knows_function(name)
        || (name.starts_with("__") && !s.labels.contains(name))
}

/// The register type of two packed narrow floats: one byte for `.e2m1x2`, two for the others.
pub(super) fn narrow_register(m: &str) -> Option<Type> {
    match m {
        "e2m1x2" => Some(Type::B8),
        "e2m3x2" | "e3m2x2" | "e4m3x2" | "e5m2x2" | "ue8m0x2" => Some(Type::B16),
        _ => None,
    }
}

/// The exact register types of a `cvt`'s destination and source where they hold packed narrow
/// floats (the first and second type modifiers).
pub(super) fn narrow_registers(i: &Instruction) -> [Option<Type>; 2] {
    let mut types = i
        .mods()
        .iter()
        .filter(|m| Type::from_mod(m).is_some() || narrow_register(m).is_some());
    let mut next = || types.next().and_then(|m| narrow_register(m));
    [next(), next()]
}

/// The destination and source registers against [`narrow_registers`] (undeclared ones are
/// reported as unknown symbols).
pub(super) fn narrow_registers_fit(i: &Instruction, p: &Plan, s: &Scope) -> bool {
    p.narrow_registers
        .iter()
        .zip(&i.operands)
        .all(|(want, o)| match (want, o) {
            (None, _) => true,
            (Some(t), Operand::Reg(r)) => s.regs.lookup(r).is_none_or(|r| r == *t),
            (Some(_), _) => false,
        })
}

/// Undeclared registers and unknown names, reported after the function; true if a register is unknown.
/// Cold: valid code names none.
#[cold]
#[inline(never)]
pub(super) fn unknown_symbols(i: &Instruction, s: &Scope, out: &mut Findings) -> bool {
    let mut unknown = Vec::new();
    i.operands
        .iter()
        .for_each(|o| collect_unknown(o, s, &mut unknown));
    // An undeclared register also makes the operands mismatch; an unknown label alone does not,
    // nor an unknown `%`-named symbol plus offset (`%g+4`). A bare name read as a register (one
    // declared only after this instruction: `checks::order`) is a register too.
    let offset_symbol = |u: &str| {
        i.operands
            .iter()
            .any(|o| matches!(o, Operand::Symbol(n) if symbol_base(n) == u))
    };
    let bare_register = |u: &str| {
        i.operands
            .iter()
            .any(|o| matches!(o, Operand::Reg(n) if n.as_str() == u))
    };
    let any_register = unknown
        .iter()
        .any(|u| (u.starts_with('%') && !offset_symbol(u)) || bare_register(u));
    if let Some((_, p)) = i.guard() {
        if s.regs.lookup(p).is_none() {
            unknown.insert(0, p.to_string());
        }
    }
    for u in unknown {
        out.unknown.push((i.line, u));
    }
    any_register
}

pub(super) fn collect_unknown(op: &Operand, s: &Scope, out: &mut Vec<String>) {
    let mut reg = |name: &str| {
        if name != "_" && s.regs.lookup(name).is_none() {
            out.push(name.to_string());
        }
    };
    match op {
        Operand::Reg(r) if is_vector_special(r) => {}
        Operand::Reg(r) | Operand::NotReg(r) => reg(r),
        Operand::PredPair(pair) => {
            reg(&pair.0);
            reg(&pair.1);
        }
        Operand::Addr {
            base: AddrBase::Reg(r),
            ..
        } => reg(r),
        Operand::Addr {
            base: AddrBase::Symbol(n),
            ..
        }
        | Operand::Symbol(n) => {
            let n = symbol_base(n);
            if !names_anything(n, s) && !n.starts_with("__") && n != "_" {
                out.push(n.to_string());
            }
        }
        Operand::Vector(v) => v.iter().for_each(|o| collect_unknown(o, s, out)),
        _ => {}
    }
}
