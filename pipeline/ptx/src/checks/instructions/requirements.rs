//! `.target`/`.version` requirements of opcodes, modifiers and special registers
//! (`isa::REQUIREMENTS`, `isa::SPECIAL_REQUIREMENTS`), in ptxas's wording.

use super::*;

/// Opcodes, modifiers and types that need a newer `.target` or `.version`.
pub(super) fn modifier_requirements(i: &Instruction, s: &Scope, out: &mut Findings) {
    for r in isa::requirements_for(i.opcode()) {
        let opcode_ok = r.opcode.is_empty() || r.opcode == i.opcode();
        let met = s.version >= r.ptx && s.target_sm >= r.sm;
        let with_ok =
            (r.with.is_empty() || i.has_mod(r.with)) && !r.without.iter().any(|m| i.has_mod(m));
        if !met && opcode_ok && with_ok && (r.modifier.is_empty() || i.has_mod(r.modifier)) {
            let what = r
                .what
                .replace("{m0}", i.mods().first().map_or("", Name::as_str))
                .replace("{mods}", &i.mods().join("."));
            let what = what
                .replace("{form}", &crate::checks::forms::form_name(i))
                .replace("{types}", &type_names(i));
            require(i.line, &what, r.sm, r.ptx, r.target_first, s, out);
        }
    }
    for (_, _, what, targets) in isa::ARCH_SPECIFIC
        .iter()
        .filter(|(op, m, ..)| *op == i.opcode() && i.has_mod(m))
    {
        if !targets.contains(&s.target) {
            out.now(
                i.line,
                format!("{what} not supported on .target '{}'", s.target),
            );
        }
    }
    let wide_vector = i.has_mod("v4") && i.ty().is_some_and(|t| t.size_bytes() == 8);
    if is_memory_access(i) && wide_vector {
        require(
            i.line,
            "Feature '256 bit wide load/store'",
            100,
            (8, 8),
            false,
            s,
            out,
        );
    }
}

/// Special registers that need a newer `.target` or `.version`.
pub(super) fn special_register_requirements(i: &Instruction, s: &Scope, out: &mut Findings) {
    for o in &i.operands {
        if let Operand::SpecialReg { name, .. } = o {
            if let Some((_, sm, ptx)) = isa::SPECIAL_REQUIREMENTS.iter().find(|(n, ..)| n == name) {
                require(
                    i.line,
                    &format!("Feature '{name}'"),
                    *sm,
                    *ptx,
                    false,
                    s,
                    out,
                );
            }
        }
    }
}

pub(super) fn require(
    line: u32,
    what: &str,
    sm: u32,
    ptx: (u32, u32),
    target_first: bool,
    s: &Scope,
    out: &mut Findings,
) {
    let version = (s.version < ptx).then(|| {
        format!(
            "{what} requires PTX ISA .version {}.{} or later",
            ptx.0, ptx.1
        )
    });
    let target = (s.target_sm < sm).then(|| format!("{what} requires .target sm_{sm} or higher"));
    let (a, b) = if target_first {
        (target, version)
    } else {
        (version, target)
    };
    for m in [a, b].into_iter().flatten() {
        out.now(line, m);
    }
}
