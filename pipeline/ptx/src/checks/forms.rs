//! Checks of the instruction families that come in forms (`mbarrier.init`, `cp.async.bulk`,
//! `fence.proxy`, `wgmma.fence`, `tcgen05.alloc`, `cvt.pack`) against `isa::FORMS`, and of the
//! matrix multiplies (`mma`, `wgmma.mma_async`) against their shape and type tables, with
//! ptxas's messages.

use crate::ast::*;
use crate::checks::instructions::{Findings, Scope};
use crate::checks::typing::register_fits;
use crate::isa::{self, Form, Frag, MmaRow, Typing};

/// Whether this instruction is checked here rather than against `isa::OPS`.
pub fn is_checked_by_form(i: &Instruction) -> bool {
    let first = i.mods().first().map(|m| &**m);
    isa::FORM_OPCODES.contains(&i.opcode())
        || i.opcode() == "mma"
        || (i.opcode() == "cvt" && i.has_mod("pack"))
        || (matches!(i.opcode(), "st" | "red") && first == Some("async"))
        || (i.opcode() == "st" && first == Some("bulk"))
}

pub fn check_form(i: &Instruction, s: &Scope, out: &mut Findings) {
    if i.opcode() == "mma" {
        check_mma(i, s, out);
        return;
    }
    for m in i.mods().iter().filter(|m| !is_form_modifier(m)) {
        out.now(i.line, format!("Unknown modifier '.{}'", &**m));
    }
    let Some(f) = form_of(i) else {
        out.now(
            i.line,
            format!("Not a name of any known instruction: '{}'", i.opcode()),
        );
        return;
    };
    if !f.targets.is_empty() && !f.targets.contains(&s.target) {
        out.now(
            i.line,
            format!(
                "Instruction '{}' not supported on .target '{}'",
                f.name, s.target
            ),
        );
    }
    if !modifiers_fit(i, f, s, out)
        || !types_fit(i, f, out)
        || !space_fits(i, f, s, out)
        || !reduction_fits(i, f, s, out)
    {
        return;
    }
    if f.name == "wgmma.mma_async" {
        if i.has_mod("sp") {
            check_sparse_wgmma(i, s, out);
        } else {
            check_wgmma(i, s, out);
        }
        return;
    }
    if result_is_immediate(i, f.operands) {
        out.now(
            i.line,
            format!("Result register required for instruction '{}'", f.name),
        );
        return;
    }
    if !operands_fit(i, f.operands, s) {
        out.now(
            i.line,
            format!("Arguments mismatch for instruction '{}'", f.name),
        );
        return;
    }
    if check_values(i, f.name, f.values, out) {
        check_vector_counts(i, f.name, out);
        check_steps(i, f, out);
        check_arrive_count(i, f.name, s, out);
        check_relaxed(i, f.name, s, out);
    }
}

/// The modifiers the form needs (`.sync`, `.cta_group::N`, ...) and `fence`'s combinations.
fn modifiers_fit(i: &Instruction, f: &Form, s: &Scope, out: &mut Findings) -> bool {
    if let Some((_, msg)) = f
        .needs
        .iter()
        .find(|(choices, _)| !choices.iter().any(|c| i.has_mod(c)))
    {
        out.now(i.line, format!("{msg} for instruction '{}'", f.name));
        return false;
    }
    if let Some(m) = f.illegal.iter().find(|m| i.has_mod(m)) {
        out.now(
            i.line,
            format!("Illegal modifier '.{m}' for instruction '{}'", f.name),
        );
        return false;
    }
    if let Some((a, b)) = f
        .conflicts
        .iter()
        .find(|(a, b)| i.has_mod(a) && i.has_mod(b))
    {
        out.now(
            i.line,
            format!("Modifier '.{a}' cannot be combined with modifier '.{b}'"),
        );
        return false;
    }
    i.opcode() != "fence" || fence_modifiers_fit(i, s, out)
}

/// A `cp.reduce` form's operation, the type it reduces and `.noftz` (only with `.add`, needed
/// there for the half types; with `.f32` from PTX 9.4).
fn reduction_fits(i: &Instruction, f: &Form, s: &Scope, out: &mut Findings) -> bool {
    let Some(r) = f.reductions else { return true };
    let Some((op, types)) = r.ops.iter().find(|(op, _)| i.has_mod(op)) else {
        out.now(
            i.line,
            format!(
                "Reduction operation is required for instruction '{}'",
                f.name
            ),
        );
        return false;
    };
    let t = type_mods(i, f);
    let noftz = i.has_mod("noftz");
    let message = if !types.contains(&t.as_str()) {
        r.wrong_type
            .replace("{t}", &t)
            .replace("{op}", op)
            .replace("{name}", f.name)
    } else if noftz && *op != "add" {
        format!(
            "Illegal modifier '.noftz' for instruction '{}' with '.{op}'",
            f.name
        )
    } else if !noftz && r.noftz_types.contains(&t.as_str()) {
        format!("Modifier '.noftz' required for instruction '{}' with type '.{t}' and operation '.{op}'", f.name)
    } else if noftz && t == "f32" && s.version < (9, 4) {
        format!(
            "Feature '{} with .noftz and .f32' requires PTX ISA .version 9.4 or later",
            f.name
        )
    } else {
        return true;
    };
    out.now(i.line, message);
    false
}

/// The type modifiers, dot-joined, against the form's list (`["*"]`: any).
fn types_fit(i: &Instruction, f: &Form, out: &mut Findings) -> bool {
    let types = type_mods(i, f);
    let fits = f.types == ["*"]
        || f.types.is_empty() && types.is_empty()
        || f.types.contains(&types.as_str());
    if !fits {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{}'", f.name),
        );
    }
    fits
}

/// `mbarrier.arrive` with a count needs `.noComplete` before sm_90 and PTX 7.8.
fn check_arrive_count(i: &Instruction, name: &str, s: &Scope, out: &mut Findings) {
    if name != "mbarrier.arrive" || i.operands.len() != 3 || i.has_mod("noComplete") {
        return;
    }
    let what = "Feature 'mbarrier.arrive with count argument and without '.noComplete' modifier'";
    if s.target_sm < 90 {
        out.now(i.line, format!("{what} requires .target sm_90 or higher"));
    }
    if s.version < (7, 8) {
        out.now(
            i.line,
            format!("{what} requires PTX ISA .version 7.8 or later"),
        );
    }
}

/// `.relaxed` arrivals and waits on an mbarrier came with PTX 8.6 (`expect_tx`/`complete_tx`
/// had it from 8.0).
fn check_relaxed(i: &Instruction, name: &str, s: &Scope, out: &mut Findings) {
    const FROM_86: &[&str] = &[
        "mbarrier.arrive",
        "mbarrier.arrive_drop",
        "mbarrier.test_wait",
        "mbarrier.try_wait",
    ];
    if i.has_mod("relaxed") && FROM_86.contains(&name) && s.version < (8, 6) {
        out.now(
            i.line,
            format!("Modifier '.relaxed' on '{name}' requires PTX ISA .version 8.6 or later"),
        );
    }
}

/// Vectors whose size the modifiers fix: the coordinates of an N-dimensional tensor copy, the
/// registers of `tcgen05.ld`/`.st` (shape and `.xN`).
fn check_vector_counts(i: &Instruction, name: &str, out: &mut Findings) {
    let at = match name {
        "cp.async.bulk.tensor" | "cp.reduce.async.bulk.tensor" => {
            let Some(dims) = i
                .mods()
                .iter()
                .find_map(|m| m.strip_suffix('d').and_then(|n| n.parse::<usize>().ok()))
            else {
                return;
            };
            // A gather or scatter of four rows names its column and the four rows.
            let dims = if i.has_mod("tile::gather4") || i.has_mod("tile::scatter4") {
                5
            } else {
                dims
            };
            let Some(at) = i.operands.iter().position(|o| matches!(o, Operand::Vector(v) if matches!(v.first(), Some(Operand::Addr { .. })))) else { return };
            let Some(Operand::Vector(v)) = i.operands.get(at) else {
                return;
            };
            match v.get(1) {
                Some(Operand::Vector(coords)) if coords.len() != dims => at + 1,
                _ => return,
            }
        }
        // The disable-output-lane mask: four words per CTA of the group.
        "tcgen05.mma" => {
            let ctas = if i.has_mod("cta_group::2") { 2 } else { 1 };
            match i
                .operands
                .iter()
                .position(|o| matches!(o, Operand::Vector(_)))
            {
                Some(at) if matches!(&i.operands[at], Operand::Vector(v) if v.len() != 4 * ctas) => {
                    out.now(
                        i.line,
                        format!("Argument vector size mismatch for instruction '{name}'"),
                    );
                    return;
                }
                _ => return,
            }
        }
        "tcgen05.ld" | "tcgen05.st" => {
            let per = [
                ("32x32b", 1usize),
                ("16x64b", 1),
                ("16x128b", 2),
                ("16x256b", 4),
                ("16x32bx2", 1),
            ]
            .into_iter()
            .find(|(s, _)| i.has_mod(s))
            .map(|p| p.1);
            let times = i
                .mods()
                .iter()
                .find_map(|m| m.strip_prefix('x').and_then(|n| n.parse::<usize>().ok()));
            let (Some(per), Some(times)) = (per, times) else {
                return;
            };
            match i
                .operands
                .iter()
                .position(|o| matches!(o, Operand::Vector(_)))
            {
                Some(at) if matches!(&i.operands[at], Operand::Vector(v) if Some(v.len()) != per.checked_mul(times)) => {
                    at
                }
                _ => return,
            }
        }
        _ => return,
    };
    out.now(
        i.line,
        format!("Argument {at} of instruction '{name}': Argument vector size mismatch"),
    );
}

/// An immediate counted in steps (`tcgen05.alloc` columns, `setmaxnreg` registers); ptxas
/// numbers the operand from 1 when it is the only one.
fn check_steps(i: &Instruction, f: &Form, out: &mut Findings) {
    let Some((at, step, lo, hi, power_of_two)) = f.steps else {
        return;
    };
    let Some(Operand::Imm(n)) = i.operands.get(at) else {
        return;
    };
    let (name, shown) = (f.name, at.max(1));
    let msg = if n % step != 0 {
        format!("Argument {shown} of instruction '{name}': unexpected value '{n}', expected to be multiple of {step}")
    } else if !(lo..=hi).contains(n) {
        format!("Argument {shown} of instruction '{name}': value '{n}' out of range, expected to be in range [{lo}..{hi}]")
    } else if power_of_two && (*n as u64).count_ones() != 1 {
        format!("Argument {shown} of '{name}' instruction: value must be power of 2")
    } else {
        return;
    };
    out.now(i.line, msg);
}

/// ptxas's advisory warnings about valid forms: `.multicast::cluster` bulk copies outside the
/// targets they were made for, in line order. (Its `mma.sp` advisory is an info:
/// `sparse_advisory.rs`.)
pub fn advisories(m: &Module) -> Vec<(u32, String)> {
    multicast_advisories(m)
}

fn multicast_advisories(m: &Module) -> Vec<(u32, String)> {
    const MULTICAST_TARGETS: &str =
        "sm_90a/sm_100a/sm_100f/sm_103a/sm_103f/sm_107a/sm_107f/sm_110a/sm_110f";
    let target = m.target.as_str();
    if crate::checks::module::target_number(target).is_none_or(|sm| sm < 90)
        || MULTICAST_TARGETS.split('/').any(|t| t == target)
    {
        return Vec::new();
    }
    let multicast = |i: &Instruction| {
        i.opcode() == "cp"
            && i.mods().get(1).is_some_and(|m| m == "bulk")
            && i.has_mod("multicast::cluster")
    };
    let instructions = m
        .functions
        .iter()
        .flat_map(|f| &f.body)
        .filter_map(|s| match s {
            Statement::Instr(i) if multicast(i) => Some(i),
            _ => None,
        });
    let advisory = format!(
        "Advisory: '.multicast::cluster' modifier on instruction 'cp.async.bulk{{.tensor}}' should be used on .target '{MULTICAST_TARGETS}' instead of .target '{target}' as this feature is expected to have substantially reduced performance on some future architectures"
    );
    instructions.map(|i| (i.line, advisory.clone())).collect()
}

/// The opcode with the modifiers that name its form (`mbarrier.try_wait.parity`,
/// `tcgen05.fence` for `tcgen05.fence::before_thread_sync`), as ptxas names features.
pub fn form_name(i: &Instruction) -> String {
    let is_word = |m: &str| {
        isa::FORM_NAME_WORDS.contains(&m)
            || isa::FORMS.iter().any(|f| {
                f.name.starts_with(i.opcode()) && f.name.split('.').skip(1).any(|p| p == m)
            })
    };
    let mut name = i.opcode().to_string();
    for m in i
        .mods()
        .iter()
        .map(|m| m.split("::").next().unwrap_or(""))
        .take_while(|m| is_word(m))
    {
        name.push('.');
        name.push_str(m);
    }
    name
}

/// The first form whose name opens the modifiers and whose `when` holds.
fn form_of(i: &Instruction) -> Option<&'static Form> {
    isa::FORMS.iter().find(|f| {
        let mut parts = f.name.split('.');
        parts.next() == Some(i.opcode())
            && parts.enumerate().all(|(k, p)| {
                i.mods().get(k).is_some_and(|m| {
                    m == p || m.strip_prefix(p).is_some_and(|r| r.starts_with("::"))
                })
            })
            && (f.when.is_empty() || f.when.iter().any(|w| i.has_mod(w)))
    })
}

fn is_form_modifier(m: &str) -> bool {
    isa::FORM_MODIFIERS.contains(&m)
        || isa::MMA_TYPES.contains(&m)
        || isa::KNOWN_MODIFIERS.contains(&m)
        || isa::SPACES.contains(&m)
        || is_wgmma_shape(m)
        || is_other_shape(m)
        || ["L1::", "L2::"].iter().any(|p| m.starts_with(p))
}

/// The type modifiers named in the form's type lists, dot-joined in order.
fn type_mods(i: &Instruction, f: &Form) -> String {
    let is_type = |m: &str| {
        Type::from_mod(m).is_some()
            || f.types.iter().any(|t| t.split('.').any(|p| p == m))
            || matches!(m, "u4" | "s4")
    };
    let names: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| is_type(m))
        .collect();
    names.join(".")
}

/// The state-space modifiers against the form's: an illegal one is named by the address it
/// qualifies when that is a variable.
fn space_fits(i: &Instruction, f: &Form, s: &Scope, out: &mut Findings) -> bool {
    if f.spaces.is_empty() {
        return true;
    }
    let spaces: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| isa::SPACES.contains(m))
        .collect();
    let joined = if spaces.is_empty() {
        "-".to_string()
    } else {
        spaces.join(".")
    };
    if f.spaces.contains(&joined.as_str()) {
        return true;
    }
    // Forms that name a destination and a source space.
    let pairs = f.spaces.iter().all(|p| p.contains('.'));
    if pairs && spaces.len() < 2 {
        out.now(
            i.line,
            format!(
                "Unexpected number of state spaces specified in instruction '{}'",
                f.name
            ),
        );
        return false;
    }
    let var = i.operands.iter().find_map(|o| match o {
        Operand::Addr {
            base: AddrBase::Symbol(v),
            ..
        } if s.vars.contains_key(v) => Some(v),
        _ => None,
    });
    let msg = match var {
        Some(v) if spaces.len() == 1 => format!(
            "Illegal state space for address operand '{v}' with instruction '{}'",
            f.name
        ),
        _ => format!("State space incorrect for instruction '{}'", f.name),
    };
    out.now(i.line, msg);
    false
}

/// An immediate where the form has a result (`d`, `D`, `p`).
fn result_is_immediate(i: &Instruction, kinds: &str) -> bool {
    let kinds = kinds.chars().filter(|k| *k != '?');
    kinds
        .zip(&i.operands)
        .take_while(|(k, _)| *k != '*')
        .any(|(k, o)| matches!(k, 'd' | 'D' | 'p') && matches!(o, Operand::Imm(_)))
}

/// Operands against a form's kinds (see `isa::Form::operands`).
fn operands_fit(i: &Instruction, kinds: &str, s: &Scope) -> bool {
    let mut optional = false;
    let mut k = 0;
    for kind in kinds.chars() {
        match kind {
            '?' => optional = true,
            '*' => return true,
            // Kinds that take no operand here: a sparsity operand without `.sp`, a missing vector.
            's' if !i.has_mod("sp") => {}
            'v' if !matches!(i.operands.get(k), Some(Operand::Vector(_))) => {}
            _ => {
                let Some(o) = i.operands.get(k) else {
                    return optional;
                };
                if !operand_fits(kind, o, s) {
                    return false;
                }
                k += 1;
            }
        }
    }
    k == i.operands.len()
}

fn operand_fits(kind: char, o: &Operand, s: &Scope) -> bool {
    let reg = |r: &str, t: Type| {
        s.regs
            .lookup(r)
            .is_none_or(|have| register_fits(t, have, Typing::Strict))
    };
    match (kind, o) {
        ('m' | 'a', Operand::Addr { .. }) => true,
        ('r', Operand::Reg(_) | Operand::Vector(_) | Operand::Imm(_) | Operand::F32(_) | Operand::F64(_)) => true,
        ('a', Operand::Reg(r)) => reg(r, Type::B64),
        ('t', Operand::Addr { base: AddrBase::Reg(r), .. }) => reg(r, Type::U32),
        ('t' | 'e' | 's', Operand::Addr { base: AddrBase::None, .. }) => true,
        ('e' | 's', Operand::Addr { base: AddrBase::Reg(r), .. }) => reg(r, Type::U32),
        ('e', Operand::Imm(_)) => true,
        ('e', Operand::Reg(r)) => reg(r, Type::B64),
        ('v' | 'V', Operand::Vector(v)) => v.iter().all(|e| matches!(e, Operand::Reg(r) if s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 4))),
        ('T', Operand::Vector(v)) => matches!(&v[..], [Operand::Addr { .. }, Operand::Vector(_)]),
        ('u' | 'w' | 'U' | 'i' | 'q', Operand::Imm(_)) => true,
        ('w', Operand::Reg(r)) => s.regs.lookup(r).is_none_or(|have| register_fits(Type::U32, have, Typing::Relaxed)),
        ('u' | 'd', Operand::Reg(r)) => reg(r, Type::U32),
        ('U' | 'D', Operand::Reg(r)) => reg(r, Type::B64),
        ('D', Operand::Sink) => true,
        ('p' | 'q', Operand::Reg(r)) => reg(r, Type::Pred),
        ('q', Operand::NotReg(r)) => reg(r, Type::Pred),
        _ => false,
    }
}

/// Immediates with a fixed set of values: "unexpected value '8', expected to be 16".
fn check_values(
    i: &Instruction,
    name: &str,
    values: &[(usize, &[i128])],
    out: &mut Findings,
) -> bool {
    for (k, allowed) in values {
        if let Some(Operand::Imm(v)) = i.operands.get(*k) {
            if !allowed.contains(v) {
                let list: Vec<String> = allowed.iter().map(i128::to_string).collect();
                out.now(i.line, format!("Argument {k} of instruction '{name}': unexpected value '{v}', expected to be {}", list.join(" or ")));
                return false;
            }
        }
    }
    true
}

/// `fence`: one scope for a memory-ordering fence, `.mbarrier_init` only as `.release.cluster`,
/// a proxy kind for `fence.proxy`, and the PTX 8.6 `.acquire`/`.release` plain fences.
fn fence_modifiers_fit(i: &Instruction, s: &Scope, out: &mut Findings) -> bool {
    const SCOPES: &[&str] = &["cta", "cluster", "gpu", "sys"];
    let scopes = i
        .mods()
        .iter()
        .filter(|m| SCOPES.contains(&m.as_str()))
        .count();
    if scopes > 1 {
        out.now(i.line, "Multiple scope modifiers specified".into());
        return false;
    }
    match i.mods().first().map(|m| &**m) {
        Some("proxy") => {
            const KINDS: &[&str] = &[
                "alias",
                "async",
                "async::generic",
                "async::global",
                "async::shared::cta",
                "async::shared::cluster",
                "tensormap::generic",
            ];
            if !i.mods().iter().any(|m| KINDS.contains(&m.as_str())) {
                out.now(
                    i.line,
                    ".proxykind modifier required for instruction 'fence.proxy'".into(),
                );
                return false;
            }
            if i.has_mod("tensormap::generic") && s.version < (8, 3) {
                out.now(i.line, "Feature 'fence.proxy with unidirection proxy fence' requires PTX ISA .version 8.3 or later".into());
            }
        }
        Some("mbarrier_init") => {
            if let Some(m) = i.mods()[1..]
                .iter()
                .find(|m| !matches!(m.as_str(), "release" | "cluster"))
            {
                out.now(
                    i.line,
                    format!("Modifier '.mbarrier_init' cannot be combined with modifier '.{m}'"),
                );
                return false;
            }
        }
        _ => {
            let sem = i
                .mods()
                .iter()
                .find(|m| matches!(m.as_str(), "sc" | "acq_rel" | "acquire" | "release"));
            if sem.is_some() && scopes == 0 {
                out.now(
                    i.line,
                    "Scope modifier required for instruction 'fence'".into(),
                );
                return false;
            }
            if let Some(m) = sem.filter(|m| matches!(m.as_str(), "acquire" | "release")) {
                if s.version < (8, 6) {
                    out.now(
                        i.line,
                        format!(
                            "Modifier '.{m}' on 'fence' requires PTX ISA .version 8.6 or later"
                        ),
                    );
                }
            }
        }
    }
    true
}

// ---- mma ------------------------------------------------------------------------------------

/// `mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype.ctype d, a, b, c`.
fn check_mma(i: &Instruction, s: &Scope, out: &mut Findings) {
    let line = i.line;
    if i.mods().iter().any(|m| {
        m.starts_with("kind::") || m.starts_with("block_scale") || m.starts_with("scale_vec::")
    }) {
        check_scaled_mma(i, s, out);
        return;
    }
    let sparse = i
        .mods()
        .first()
        .is_some_and(|m| m == "sp" || m == "sp::ordered_metadata");
    for m in i.mods().iter().filter(|m| !is_mma_modifier(m)) {
        out.now(line, format!("Unknown modifier '.{m}'"));
    }
    for (m, msg) in [
        ("sync", ".sync modifier required"),
        ("aligned", ".aligned modifier required"),
    ] {
        if !i.has_mod(m) {
            out.now(line, format!("{msg} for instruction 'mma'"));
            return;
        }
    }
    let Some(shape) = i.mods().iter().find(|m| MMA_SHAPES.contains(&m.as_str())) else {
        out.now(line, "Shape modifier required for instruction 'mma'".into());
        return;
    };
    if isa::FLOAT_ROUNDING.iter().any(|r| i.has_mod(r)) && !i.has_mod("f64") {
        out.now(
            line,
            "Illegal rounding modifier for instruction 'mma'".into(),
        );
        return;
    }
    let types: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| isa::MMA_TYPES.contains(m))
        .collect();
    let [d, a, b, c] = types[..] else {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    };
    let name = if a == "f64" {
        "mma with double types"
    } else {
        "mma"
    };
    if !layouts_fit(i, shape, a, name, out) {
        return;
    }
    if sparse {
        check_sparse_mma(i, s, shape, [d, a, b, c], out);
        return;
    }
    // Rows of one shape and input type may differ in their accumulators (fp8 with f16 is PTX 8.7).
    let fits =
        |r: &&isa::MmaRow| r.shape == shape.as_str() && r.ab.contains(&a) && r.ab.contains(&b);
    let Some(row) = isa::MMA_ROWS
        .iter()
        .filter(fits)
        .find(|r| r.cd.iter().any(|(n, ..)| *n == d))
        .or_else(|| isa::MMA_ROWS.iter().find(fits))
    else {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    };
    let mixed_float = a != b && row.ab.len() == 1;
    let acc = |t: &str| row.cd.iter().find(|(n, ..)| *n == t).copied();
    let (Some(dk), Some(ck)) = (acc(d), acc(c)) else {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    };
    if mixed_float || i.has_mod("satfinite") && !matches!(a, "s8" | "u8" | "s4" | "u4" | "b1") {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    }
    if a == "b1" {
        if i.has_mod("satfinite") {
            out.now(
                line,
                "Illegal modifier '.satfinite' for instruction 'mma'".into(),
            );
            return;
        }
        if !(i.has_mod("popc") && (i.has_mod("and") || i.has_mod("xor"))) {
            out.now(
                line,
                format!("Unexpected number of operations specified for mma with shape '.{shape}'"),
            );
            return;
        }
    }
    if d != c && shape != "m8n8k4" {
        out.now(line, format!(".dtype must be '.{c}' when .ctype is '.{c}' for 'mma' instruction with shape '.{shape}'"));
        return;
    }
    require_row(i, row, s, out);
    if i.operands.len() != 4 {
        out.now(
            i.line,
            format!("Arguments mismatch for instruction '{name}'"),
        );
        return;
    }
    mma_operands_fit(
        i,
        [(dk.1, dk.2), row.a, row.b, (ck.1, ck.2)],
        name,
        name,
        s,
        out,
    );
}

/// `mma` of narrow floats by kind (`.kind::f8f6f4`; `.kind::mxf8f6f4`/`mxf4`/`mxf4nvf4` with
/// `.block_scale`) against `isa::SCALED_MMA_ROWS`: D, A, B, C, then with block scaling the scale
/// factors of A and B, each a 32-bit register and a vector of two immediates (byte and thread
/// ids, whose values are not checked here). Shapes and types outside the table are left alone.
fn check_scaled_mma(i: &Instruction, s: &Scope, out: &mut Findings) {
    let line = i.line;
    let Some(row) = isa::SCALED_MMA_ROWS.iter().find(|r| i.has_mod(r.kind)) else {
        return;
    };
    scaled_mma_requirements(i, row, s, out);
    let scaled = i.has_mod("block_scale");
    if !row.scales.is_empty() && !scaled {
        out.now(
            line,
            ".block_scale modifier required for instruction 'mma'".into(),
        );
        return;
    }
    const TYPES: &[&str] = &[
        "f16", "f32", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "ue8m0", "ue4m3",
    ];
    let types: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| TYPES.contains(m))
        .collect();
    let (Some(&[d, a, b, c]), scale) = (types.get(..4), types.get(4)) else {
        return;
    };
    let acc = |t: &str| row.cd.iter().find(|(n, ..)| *n == t).copied();
    let (Some(dk), Some(ck)) = (acc(d), acc(c)) else {
        return;
    };
    if !i.has_mod(row.shape) || !row.ab.contains(&a) || !row.ab.contains(&b) {
        return;
    }
    let scale_fits = |k: usize| matches!(i.operands.get(k), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| register_fits(Type::U32, t, Typing::Strict)));
    let wanted = if row.scales.is_empty() { 4 } else { 8 };
    if let Some(t) = scale.filter(|t| !row.scales.is_empty() && !row.scales.contains(t)) {
        out.now(
            line,
            format!(
                "Illegal modifier '.{}' for instruction 'mma' with type '.{t}'",
                row.kind
            ),
        );
        return;
    }
    let scale_type_fits = scale.is_some() != row.scales.is_empty();
    if i.operands.len() != wanted
        || !scale_type_fits
        || (wanted == 8 && !(scale_fits(4) && scale_fits(6)))
    {
        out.now(line, "Arguments mismatch for instruction 'mma'".into());
        return;
    }
    for k in (5..wanted).step_by(2) {
        let Some(Operand::Vector(ids)) = i.operands.get(k) else {
            out.now(line, format!("Vector expected for argument {k}"));
            return;
        };
        if !matches!(ids.len(), 1 | 2 | 4 | 8) {
            out.now(line, format!("Illegal vector size: {}", ids.len()));
            return;
        }
        if ids.len() != 2 || !ids.iter().all(|e| matches!(e, Operand::Imm(_))) {
            out.now(line, "Arguments mismatch for instruction 'mma'".into());
            return;
        }
    }
    mma_operands_fit(
        i,
        [
            (dk.1, dk.2),
            (Frag::B32, row.a),
            (Frag::B32, row.b),
            (ck.1, ck.2),
        ],
        "mma",
        "mma",
        s,
        out,
    );
}

/// What the `mma` kinds need, in ptxas's order and words: block scaling (the `mx` kinds) or FP6/FP4
/// operands, PTX 8.7 and an sm_120 family target; FP8 operands sm_89; the kind itself one of the
/// sm_100..sm_121 architecture-specific targets.
fn scaled_mma_requirements(
    i: &Instruction,
    row: &isa::ScaledMmaRow,
    s: &Scope,
    out: &mut Findings,
) {
    let operand_types = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| isa::MMA_KIND_OPERAND_TYPES.contains(m));
    let (mut fp8, mut fp6_fp4) = (false, false);
    for t in operand_types {
        fp8 |= matches!(t, "e4m3" | "e5m2");
        fp6_fp4 |= matches!(t, "e2m1" | "e3m2" | "e2m3");
    }
    // ptxas's name, its doubled word included.
    let feature = if !row.scales.is_empty() {
        Some("mma with block scale")
    } else {
        fp6_fp4.then_some("mma with with FP6/FP4 floating point type")
    };
    if let Some(what) = feature {
        if s.version < (8, 7) {
            out.now(
                i.line,
                format!("Feature '{what}' requires PTX ISA .version 8.7 or later"),
            );
        }
        if !isa::SM_120_FAMILY.contains(&s.target) {
            out.now(
                i.line,
                format!(
                    "Instruction '{what}' not supported on .target '{}'",
                    s.target
                ),
            );
        }
    }
    if fp8 && s.target_sm < 89 {
        out.now(
            i.line,
            "Feature 'mma with FP8 floating point type' requires .target sm_89 or higher".into(),
        );
    }
    if !isa::MMA_KIND_TARGETS.contains(&s.target) {
        out.now(
            i.line,
            format!(
                "Feature '.{}' not supported on .target '{}'",
                row.kind, s.target
            ),
        );
    }
}

/// The feature every `mma.sp` needs: (name, target, version).
const SPARSE_MMA: (&str, u32, (u32, u32)) = ("Sparse MMA", 80, (7, 1));

/// A feature's version and target, as ptxas names them.
fn require_feature(
    i: &Instruction,
    (what, sm, ptx): (&str, u32, (u32, u32)),
    s: &Scope,
    out: &mut Findings,
) {
    if s.version < ptx {
        out.now(
            i.line,
            format!(
                "Feature '{what}' requires PTX ISA .version {}.{} or later",
                ptx.0, ptx.1
            ),
        );
    }
    if s.target_sm < sm {
        out.now(
            i.line,
            format!("Feature '{what}' requires .target sm_{sm} or higher"),
        );
    }
}

/// `mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c, e, f`
/// against `isa::MMA_SP_ROWS`, in ptxas's order: the type family (with its own feature, FP8, or
/// `.sp::ordered_metadata`'s), the operands' number and kinds (the 32-bit metadata register, an
/// immediate selector), the sparsity feature, the shape, the fragment counts, the selector's range.
fn check_sparse_mma(
    i: &Instruction,
    s: &Scope,
    shape: &str,
    [d, a, b, c]: [&str; 4],
    out: &mut Findings,
) {
    let line = i.line;
    let fits_types = |r: &&isa::MmaRow| r.ab.contains(&a) && r.ab.contains(&b);
    let Some(family) = isa::MMA_SP_ROWS.iter().find(fits_types) else {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    };
    let ordered = i.has_mod("sp::ordered_metadata");
    if ordered {
        require_feature(i, (".sp::ordered_metadata", 80, (8, 5)), s, out);
    } else if family.what != SPARSE_MMA.0 {
        require_feature(i, (family.what, family.sm, family.ptx), s, out);
    }
    let acc = |t: &str| family.cd.iter().find(|(n, ..)| *n == t).copied();
    let satfinite_ok = !i.has_mod("satfinite") || matches!(a, "s8" | "u8" | "s4" | "u4");
    let (Some(dk), Some(ck)) = (acc(d), acc(c)) else {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    };
    if !satfinite_ok || a != b && family.ab.len() == 1 {
        out.now(
            line,
            "Unexpected instruction types specified for 'mma'".into(),
        );
        return;
    }
    if i.operands.len() == 4 {
        out.now(
            line,
            format!("Illegal modifier '.{}' for instruction 'mma'", i.mods()[0]),
        );
        return;
    }
    let metadata = matches!(i.operands.get(4), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| register_fits(Type::U32, t, Typing::Strict)));
    let kinds = [dk.1, family.a.0, family.b.0, ck.1];
    let elements_fit = i
        .operands
        .iter()
        .zip(kinds)
        .enumerate()
        .all(|(k, (o, frag))| match o {
            Operand::Vector(v) => v.iter().all(|e| fragment_fits(e, frag, k == 3, s)),
            _ => true,
        });
    if i.operands.len() != 6
        || !metadata
        || !matches!(i.operands.get(5), Some(Operand::Imm(_)))
        || d != c
        || !elements_fit
    {
        out.now(line, "Arguments mismatch for instruction 'mma'".into());
        return;
    }
    if !ordered {
        require_feature(i, SPARSE_MMA, s, out);
    }
    let Some(row) = isa::MMA_SP_ROWS
        .iter()
        .filter(fits_types)
        .find(|r| r.shape == shape)
    else {
        let message = if matches!(a, "e4m3" | "e5m2") {
            format!("Incorrect instruction type specified for Sparse mma with shape '.{shape}'")
        } else {
            format!("Illegal instruction types specified for 'Sparse mma' with shape '.{shape}'")
        };
        out.now(line, message);
        return;
    };
    if !mma_operands_fit(
        i,
        [(dk.1, dk.2), row.a, row.b, (ck.1, ck.2)],
        "Sparse mma",
        "mma",
        s,
        out,
    ) {
        return;
    }
    let Some(Operand::Imm(selector)) = i.operands.get(5) else {
        return;
    };
    if row.selector == 0 && *selector != 0 {
        out.now(
            line,
            format!(
                "Argument 5 of instruction 'mma': unexpected value '{selector}', expected to be 0"
            ),
        );
    } else if !(0..=row.selector).contains(selector) {
        out.now(line, format!("Argument 6 of instruction 'Sparse mma': value '{selector}' out of range, expected to be in range [0..{}]", row.selector));
    }
}

const MMA_SHAPES: &[&str] = &[
    "m8n8k4",
    "m16n8k4",
    "m16n8k8",
    "m16n8k16",
    "m8n8k16",
    "m16n8k32",
    "m8n8k32",
    "m16n8k64",
    "m8n8k128",
    "m16n8k128",
    "m16n8k256",
];

fn is_mma_modifier(m: &str) -> bool {
    const OTHERS: &[&str] = &[
        "sync",
        "aligned",
        "row",
        "col",
        "satfinite",
        "and",
        "xor",
        "popc",
        "rn",
        "rz",
        "rm",
        "rp",
        "ftz",
        "sp",
        "sp::ordered_metadata",
    ];
    MMA_SHAPES.contains(&m) || isa::MMA_TYPES.contains(&m) || OTHERS.contains(&m)
}

/// `.row.col`, except that `.m8n8k4` with halves takes any layouts.
fn layouts_fit(i: &Instruction, shape: &str, a: &str, name: &str, out: &mut Findings) -> bool {
    let layouts: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| matches!(*m, "row" | "col"))
        .collect();
    let [al, bl] = layouts[..] else {
        out.now(
            i.line,
            format!("'.alayout.blayout' modifier required for instruction '{name}'"),
        );
        return false;
    };
    if shape == "m8n8k4" && a == "f16" {
        return true;
    }
    if al != "row" {
        out.now(
            i.line,
            format!("Illegal alayout '.{al}' for instruction '{name}'"),
        );
        return false;
    }
    if bl != "col" {
        out.now(
            i.line,
            format!("Illegal blayout '.{bl}' for instruction '{name}'"),
        );
        return false;
    }
    true
}

/// The shape's (and type family's) `.target` and `.version`, as ptxas names them.
fn require_row(i: &Instruction, row: &MmaRow, s: &Scope, out: &mut Findings) {
    require_feature(i, (row.what, row.sm, row.ptx), s, out);
}

/// D, A, B, C (the first four operands): vectors of the row's fragment counts and register
/// kinds (C may hold immediates); `sized` names the instruction in size mismatches, `name` in
/// others.
fn mma_operands_fit(
    i: &Instruction,
    frags: [(Frag, usize); 4],
    sized: &str,
    name: &str,
    s: &Scope,
    out: &mut Findings,
) -> bool {
    for (k, o) in i.operands.iter().take(4).enumerate() {
        let Operand::Vector(v) = o else {
            out.now(i.line, format!("Vector expected for argument {k}"));
            return false;
        };
        if !matches!(v.len(), 1 | 2 | 4 | 8) {
            out.now(i.line, format!("Illegal vector size: {}", v.len()));
            return false;
        }
    }
    for (o, (_, count)) in i.operands.iter().zip(frags) {
        if let Operand::Vector(v) = o {
            if v.len() != count {
                out.now(
                    i.line,
                    format!("Argument vector size mismatch for instruction '{sized}'"),
                );
                return false;
            }
        }
    }
    let fits = i
        .operands
        .iter()
        .zip(frags)
        .enumerate()
        .all(|(k, (o, (frag, _)))| match o {
            Operand::Vector(v) => v.iter().all(|e| fragment_fits(e, frag, k == 3, s)),
            _ => false,
        });
    if !fits {
        out.now(
            i.line,
            format!("Arguments mismatch for instruction '{name}'"),
        );
    }
    fits
}

fn fragment_fits(o: &Operand, frag: Frag, may_be_immediate: bool, s: &Scope) -> bool {
    let want = match frag {
        Frag::B32 => Type::U32,
        Frag::F32 => Type::F32,
        Frag::S32 => Type::S32,
        Frag::F64 => Type::F64,
    };
    match o {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_none_or(|have| register_fits(want, have, Typing::Strict)),
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => may_be_immediate,
        _ => false,
    }
}

// ---- wgmma.mma_async ------------------------------------------------------------------------

/// The family of a `wgmma.mma_async`'s D, A, B types.
fn wgmma_row(i: &Instruction) -> Option<&'static isa::WgmmaRow> {
    let types: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| isa::MMA_TYPES.contains(m))
        .collect();
    match types[..] {
        [d, a, b] => isa::WGMMA_ROWS
            .iter()
            .find(|r| r.ab.contains(&a) && r.ab.contains(&b) && r.d.contains(&d)),
        _ => None,
    }
}

/// `wgmma.mma_async.sp.sync.aligned.shape.dtype.atype.btype d, a-desc|{a}, b-desc, sp-meta, sp-sel,
/// scale-d, ...`: PTX 8.2, twice the dense `k`, the dense operands plus a 32-bit metadata register
/// and an immediate selector (0 or 1) after B.
fn check_sparse_wgmma(i: &Instruction, s: &Scope, out: &mut Findings) {
    let line = i.line;
    let Some(row) = wgmma_row(i) else { return };
    let register_a = matches!(i.operands.get(1), Some(Operand::Vector(_)));
    let descriptor = |k: usize| matches!(i.operands.get(k), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 8));
    let metadata = matches!(i.operands.get(3), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| register_fits(Type::U32, t, Typing::Strict)));
    let selector = matches!(i.operands.get(4), Some(Operand::Imm(_)));
    let wanted = 3 + row.operands - usize::from(register_a);
    if !descriptor(2)
        || !(register_a || descriptor(1))
        || !metadata
        || !selector
        || i.operands.len() != wanted
    {
        out.now(
            line,
            "Arguments mismatch for instruction 'wgmma.mma_async'".into(),
        );
        return;
    }
    if s.version < (8, 2) {
        let family = if row.ab.iter().any(|t| matches!(*t, "e4m3" | "e5m2")) {
            "FP8"
        } else {
            row.family
        };
        out.now(
            line,
            format!(
                "Feature 'Sparse WGMMA with {family} types' requires PTX ISA .version 8.2 or later"
            ),
        );
    }
    let name = format!("Sparse wgmma.mma_async with {} types", row.family);
    let Some(shape) = i.mods().iter().find(|m| is_wgmma_shape(m)) else {
        return;
    };
    let (n, k) = shape[4..]
        .split_once('k')
        .map(|(n, k)| {
            (
                n.parse::<usize>().unwrap_or(0),
                k.parse::<u32>().unwrap_or(0),
            )
        })
        .unwrap_or((0, 0));
    if k != 2 * row.k {
        out.now(
            line,
            format!("Illegal instruction types specified for '{name}' with shape '.{shape}'"),
        );
        return;
    }
    let d_count = if wgmma_d_is_f16(i) { n / 4 } else { n / 2 };
    if !matches!(i.operands.first(), Some(Operand::Vector(v)) if v.len() == d_count) {
        out.now(
            line,
            format!("Argument vector size mismatch for instruction '{name}'"),
        );
        return;
    }
    // The selector is 0 or 1 (0 for integers); scale-a and scale-b -1 or 1, the transposes 0 or 1
    // (no trans-a with A in registers).
    let values: &[(usize, &[i128])] = match (row.family, register_a) {
        ("floating point", false) => &[
            (4, &[0, 1]),
            (6, &[-1, 1]),
            (7, &[-1, 1]),
            (8, &[0, 1]),
            (9, &[0, 1]),
        ],
        ("floating point", true) => &[(4, &[0, 1]), (6, &[-1, 1]), (7, &[-1, 1]), (8, &[0, 1])],
        _ => &[(4, &[0])],
    };
    check_values(i, &name, values, out);
}

/// Whether a `wgmma` accumulates in `.f16` (its first type modifier).
fn wgmma_d_is_f16(i: &Instruction) -> bool {
    i.mods()
        .iter()
        .find(|m| isa::MMA_TYPES.contains(&m.as_str()))
        .is_some_and(|m| m == "f16")
}

/// `m64nNkK` with N a multiple of 8 up to 256: a shape `wgmma` knows (its `k` is checked per type;
/// sparse forms take twice the dense `k`).
fn is_wgmma_shape(m: &str) -> bool {
    let Some((n, k)) = m.strip_prefix("m64n").and_then(|r| r.split_once('k')) else {
        return false;
    };
    let (Ok(n), Ok(k)) = (n.parse::<u32>(), k.parse::<u32>()) else {
        return false;
    };
    n % 8 == 0 && (8..=256).contains(&n) && matches!(k, 8 | 16 | 32 | 64 | 256 | 512)
}

/// `wgmma.mma_async.sync.aligned.shape.dtype.atype.btype d, a-desc|{a}, b-desc, scale-d, ...`.
fn check_wgmma(i: &Instruction, s: &Scope, out: &mut Findings) {
    let line = i.line;
    let Some(shape) = i
        .mods()
        .iter()
        .find(|m| is_wgmma_shape(m) || is_other_shape(m))
    else {
        out.now(
            line,
            "Shape modifier required for instruction 'wgmma.mma_async'".into(),
        );
        return;
    };
    let types: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| isa::MMA_TYPES.contains(m))
        .collect();
    let Some(row) = wgmma_row(i) else {
        out.now(
            line,
            "Unexpected instruction types specified for 'wgmma.mma_async'".into(),
        );
        return;
    };
    let name = format!("wgmma.mma_async with {} types", row.family);
    if !is_wgmma_shape(shape) {
        out.now(
            line,
            format!("Illegal matrix shape '.{shape}' for instruction '{name}'"),
        );
        return;
    }
    let (n, k) = shape[4..]
        .split_once('k')
        .map(|(n, k)| {
            (
                n.parse::<usize>().unwrap_or(0),
                k.parse::<u32>().unwrap_or(0),
            )
        })
        .unwrap_or((0, 0));
    if k != row.k {
        out.now(
            line,
            format!("Illegal instruction types specified for '{name}' with shape '.{shape}'"),
        );
        return;
    }
    let mixed_int = row.family == "integer" && types[1] != types[2];
    if mixed_int && s.version < (8, 4) {
        out.now(
            line,
            "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later"
                .into(),
        );
    }
    let d_count = if types[0] == "f16" { n / 4 } else { n / 2 };
    let register_a = matches!(i.operands.get(1), Some(Operand::Vector(_)));
    // A in registers drops trans-a, which only the f16/bf16 forms (seven operands) have.
    let wanted = 1 + row.operands - usize::from(register_a && row.operands == 7);
    let descriptors_fit = matches!(i.operands.get(2), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 8))
        && (register_a
            || matches!(i.operands.get(1), Some(Operand::Reg(r)) if s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 8)));
    if !descriptors_fit {
        out.now(
            line,
            "Arguments mismatch for instruction 'wgmma.mma_async'".into(),
        );
        return;
    }
    if i.operands.len() != wanted {
        out.now(line, format!("Arguments mismatch for instruction '{name}'"));
        return;
    }
    match i.operands.first() {
        Some(Operand::Vector(v)) if v.len() == d_count => {}
        _ => {
            out.now(
                line,
                format!("Argument vector size mismatch for instruction '{name}'"),
            );
            return;
        }
    }
    // scale-a and scale-b are -1 or 1, the transposes 0 or 1 (A in registers has no trans-a).
    let values: &[(usize, &[i128])] = if register_a {
        &[(4, &[-1, 1]), (5, &[-1, 1]), (6, &[0, 1])]
    } else {
        &[(4, &[-1, 1]), (5, &[-1, 1]), (6, &[0, 1]), (7, &[0, 1])]
    };
    if row.family == "floating point" {
        check_values(i, &name, values, out);
    }
}

/// The shapes of `mma` and `wmma`, which `wgmma` knows as shapes but does not take.
fn is_other_shape(m: &str) -> bool {
    MMA_SHAPES.contains(&m)
        || matches!(
            m,
            "m16n16k16" | "m32n8k16" | "m8n32k16" | "m16n16k8" | "m8n8k128"
        )
}
