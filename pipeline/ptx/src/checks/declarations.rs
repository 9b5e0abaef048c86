//! Declaration checks with ptxas's messages: one linkage directive, module variables declared
//! again (`.extern` ones may repeat), initializer entry counts, shapes and literals against the
//! variable's type (read from the declaration's source text, since the tree keeps only their
//! values), names in initializers, no initializer for `.f16` variables, external symbols or
//! parameters, `.pred` only in scalar registers, no module-scoped `.local`/`.param`, `.common` only
//! in `.global`, `[]` only for external variables, `.b128` from PTX 8.3, parameter lists and their
//! state spaces, no body for an `.extern` function, and `.alias` prototypes; functions defined twice,
//! initializers where the state space allows none. Every declaration check is here:
//! `declarations/initializers.rs` reads initializers against their declarations and
//! `declarations/names.rs` finds names declared twice within a function.

use crate::ast::*;
use crate::checks::module::Finding;
use std::collections::HashMap;

mod initializers;
mod names;

use initializers::*;
pub use names::*;

pub fn check_declarations(src: &str, m: &Module) -> Vec<Finding> {
    let mut out = Vec::new();
    // The module's names, hashed the first time an initializer names something.
    let names = std::cell::OnceCell::<FastMap<&str, (u32, Named)>>::new();
    let declared = || names.get_or_init(|| first_declarations(m));
    // A name as declared before byte `at` (a variable may name itself).
    let module_name = |n: &str, at: u32| match declared().get(n) {
        Some(&(start, named)) if start <= at => named,
        _ => Named::Unknown,
    };
    for (k, v) in m.globals.iter().enumerate() {
        let opens_statement = opens_statement(&m.globals, k);
        if let Some(finding) = repeated_linkage(src, v.specifiers()) {
            out.extend(opens_statement.then_some(finding));
            continue;
        }
        out.extend(vector_shape(src, v).filter(|_| opens_statement));
        out.extend(
            b128_version(m, v.type_line, v.ty).filter(|_| opens_statement && !is_array(src, v)),
        );
        out.extend(variable_kind(src, v));
        out.extend(incomplete_type(src, v));
        if linkage_of(src, v.specifiers()).any(|(_, word)| word == ".common")
            && v.space != StateSpace::Global
        {
            out.push((
                v.line,
                ".common variables must be declared in .global space".into(),
                false,
            ));
        }
        if v.space == StateSpace::Local {
            out.push((
                v.line,
                "Module-scoped variables in .local state space are not allowed with ABI".into(),
                false,
            ));
        }
        if v.space == StateSpace::Param {
            out.push((
                v.line,
                "Parameter variables may not be declared at module scope".into(),
                false,
            ));
        }
        if check_initializer_space(v).is_none() {
            check_variable(src, v, &|n| module_name(n, v.name_at), &mut out);
        }
    }
    // After each variable's own findings (a line with both gives those first).
    out.extend(redeclared_globals(src, m));
    let globals = m
        .globals
        .iter()
        .map(|v| (variable_key(v).0, v.range, v.line));
    out.extend(members_declared_again(globals));
    for f in &m.functions {
        out.extend(repeated_linkage(src, f.span));
        for v in f.params.iter().chain(&f.ret_params) {
            out.extend(vector_shape(src, v));
            out.extend(b128_version(m, v.type_line, v.ty).filter(|_| !is_array(src, v)));
            out.extend(predicate_in_memory(v));
        }
        // One finding per `.reg` statement (its names, one after another, share the span).
        let statements = f
            .regs
            .iter()
            .enumerate()
            .filter(|&(k, r)| k == 0 || f.regs[k - 1].span.start != r.span.start);
        for (_, r) in statements {
            out.extend(vector_shape_of(src, r.span, r.line, r.ty, r.vector));
            out.extend(b128_version(m, r.line, r.ty));
        }
        out.extend(prototype_findings(src, f));
        for (k, v) in f.vars.iter().enumerate() {
            let opens_statement = opens_statement(&f.vars, k);
            let local = |n: &str| match f
                .vars
                .iter()
                .find(|w| w.name == n && w.name_at <= v.name_at)
            {
                Some(w) => Named::Variable(w.space),
                None => module_name(n, v.name_at),
            };
            out.extend(vector_shape(src, v).filter(|_| opens_statement));
            out.extend(
                b128_version(m, v.type_line, v.ty).filter(|_| opens_statement && !is_array(src, v)),
            );
            // A space that takes no initializer: ptxas says so, and reads no further.
            let misplaced_initializer = check_initializer_space(v);
            let checks_initializer = misplaced_initializer.is_none();
            out.extend(misplaced_initializer);
            out.extend(variable_kind(src, v));
            out.extend(incomplete_type(src, v));
            if checks_initializer {
                check_variable(src, v, &local, &mut out);
            }
        }
        if f.is_extern && f.has_body {
            let line = line_at(src, f.span.end.saturating_sub(1) as usize).unwrap_or(f.line);
            out.push((
                line,
                format!(
                    "Function definition conflicts with '.extern' declaration for function '{}'",
                    f.name
                ),
                false,
            ));
        }
    }
    out.extend(extern_redefinitions(src, m));
    out
}

/// The first declaration of each module-scope name: where it starts, and what it is.
fn first_declarations(m: &Module) -> FastMap<&str, (u32, Named)> {
    let mut first: FastMap<&str, (u32, Named)> = FastMap::default();
    let variables = m
        .globals
        .iter()
        .map(|g| (g.name.as_str(), g.name_at, Named::Variable(g.space)));
    let functions = m
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.span.start, Named::Function));
    for (name, start, named) in variables.chain(functions) {
        let slot = first.entry(name).or_insert((start, named));
        if start < slot.0 {
            *slot = (start, named);
        }
    }
    first
}

/// Module variables declared more than once. `.extern` declarations may repeat and may precede
/// or follow the definition, of the same type ("Inconsistent redefinition" otherwise), which an
/// earlier `.extern` one needs to be `.visible`, `.weak` or `.common` (not "static"); two
/// definitions are a "Duplicate definition".
fn redeclared_globals(src: &str, m: &Module) -> Vec<Finding> {
    let mut out = Vec::new();
    // Per name: its first declaration, and whether one was a definition.
    let mut seen: FastMap<&str, (&VarDecl, bool)> = FastMap::default();
    for v in &m.globals {
        let linkage: Vec<&str> = linkage_of(src, v.specifiers())
            .map(|(_, word)| word)
            .collect();
        let is_extern = linkage.contains(&".extern");
        let Some((first, defined)) = seen.get_mut(v.name.as_str()) else {
            seen.insert(v.name.as_str(), (v, !is_extern));
            continue;
        };
        let error = |message: &str| (v.line, format!("{message} '{}'", v.name), false);
        // Type, vector width, and array or not (two known lengths must agree).
        let lengths_differ = first
            .array_len
            .zip(v.array_len)
            .is_some_and(|(a, b)| a != b);
        if (first.ty, first.vector, is_array(src, first)) != (v.ty, v.vector, is_array(src, v))
            || lengths_differ
        {
            out.push(error("Inconsistent redefinition of variable"));
        }
        // (Every earlier one being a definition, `defined` holds.)
        if !is_extern && *defined {
            out.push(error("Duplicate definition of variable"));
            continue;
        }
        if !is_extern && linkage.is_empty() {
            out.push((
                v.line,
                format!(
                    "'.extern' variable '{}' cannot be resolved by a '.static'",
                    v.name
                ),
                false,
            ));
        }
        *defined |= !is_extern;
    }
    out
}

/// Variables first declared `.extern` (`.global`, `.const` or `.shared`) that some declaration
/// gives a size (`.extern .global .u32 a[]; .visible .global .u32 a[4];` too): ptxas's warning,
/// without a line, that nothing in one module resolves them. (Those of `.global`/`.const` that
/// none sizes are the link-stage fatal instead, [`unsized_extern`].)
pub fn unresolved_externs(src: &str, m: &Module) -> Vec<(u32, String)> {
    let sized = sized_names(src, m);
    let mut named = FastSet::default();
    m.globals
        .iter()
        .filter(|v| named.insert(v.name.as_str()))
        .filter(|v| matches!(v.space, StateSpace::Global | StateSpace::Const | StateSpace::Shared))
        .filter(|v| is_extern(src, v) && sized.contains(v.name.as_str()))
        .map(|v| (0, format!("Unresolved extern variable '{}' in whole program compilation, ignoring extern qualifier", v.name)))
        .collect()
}

/// The first `.extern` `.global`/`.const` array of open length that no declaration of its name
/// sizes: linking the module as a whole program cannot place it.
pub fn unsized_extern<'m>(src: &str, m: &'m Module) -> Option<&'m VarDecl> {
    let sized = sized_names(src, m);
    m.globals.iter().find(|v| {
        matches!(v.space, StateSpace::Global | StateSpace::Const)
            && v.array_len.is_none()
            && is_extern(src, v)
            && !sized.contains(v.name.as_str())
    })
}

/// The module variables some declaration of which has a known size.
fn sized_names<'m>(src: &str, m: &'m Module) -> FastSet<&'m str> {
    m.globals
        .iter()
        .filter(|v| is_sized(src, v))
        .map(|v| v.name.as_str())
        .collect()
}

/// Whether a declaration gives its variable a size: a scalar, a length, or an initializer with an
/// element (`{}` has none; `{{}}` one, of an array of arrays or vectors).
fn is_sized(src: &str, v: &VarDecl) -> bool {
    v.array_len.is_some()
        || !v.init.is_empty()
        || src
            .get(v.declarator().start as usize..v.span.end as usize)
            .is_some_and(|t| t.matches('{').count() > 1)
}

/// A function declared `.extern` and defined in the module: the definition is inconsistent (at
/// its `{`), or, defined first, the `.extern` declaration duplicates it (at its `;`).
fn extern_redefinitions(src: &str, m: &Module) -> Vec<Finding> {
    let mut out = Vec::new();
    // The first and the latest function of each name, found by hashing (a scan per function is
    // quadratic).
    let mut first_and_last: FastMap<&str, (usize, usize)> = FastMap::default();
    first_and_last.reserve(m.functions.len());
    for (k, f) in m.functions.iter().enumerate() {
        let (first, last) = match first_and_last.entry(f.name.as_str()) {
            std::collections::hash_map::Entry::Occupied(mut seen) => {
                let (first, last) = *seen.get();
                seen.insert((first, k));
                (first, last)
            }
            std::collections::hash_map::Entry::Vacant(new) => {
                new.insert((k, k));
                continue;
            }
        };
        let earlier = &m.functions[first];
        let previous = &m.functions[last];
        let body_line = || {
            let at = src.get(f.span.start as usize..)?.find('{')?;
            line_at(src, f.span.start as usize + at)
        };
        let end_line = || line_at(src, f.span.end.saturating_sub(1) as usize).unwrap_or(f.line);
        let redefined = || format!("Inconsistent redefinition of variable '{}'", f.name);
        let mut conflict = None;
        if earlier.is_extern && !earlier.has_body && f.has_body && !f.is_extern {
            out.push((body_line().unwrap_or(f.line), redefined(), false));
            // The definition takes the declaration's `.extern` (at its closing `}`).
            conflict = Some((
                end_line(),
                format!(
                    "Function definition conflicts with '.extern' declaration for function '{}'",
                    f.name
                ),
                false,
            ));
        } else if earlier.has_body && f.is_extern && !f.has_body {
            out.push((
                end_line(),
                format!("Duplicate definition of function '{}'", f.name),
                false,
            ));
            out.push((end_line(), redefined(), false));
        }
        let line = if f.has_body {
            body_line()
        } else {
            Some(end_line())
        };
        let line = line.unwrap_or(f.line);
        out.extend(prototype_differences(previous, f).map(|what| {
            (
                line,
                format!("Inconsistent prototypes of '{}', {what}", f.name),
                false,
            )
        }));
        out.extend(conflict);
    }
    out
}

/// How a function's prototype differs from its previous declaration's, as ptxas says it: the
/// number of parameters, then for each parameter both have (return parameters first) its type
/// (with vector width and array length), alignment and state space.
fn prototype_differences<'f>(
    previous: &'f Function,
    f: &'f Function,
) -> impl Iterator<Item = &'static str> + 'f {
    let count_differs =
        previous.params.len() != f.params.len() || previous.ret_params.len() != f.ret_params.len();
    let pairs = previous
        .ret_params
        .iter()
        .zip(&f.ret_params)
        .chain(previous.params.iter().zip(&f.params));
    let alignment = |v: &VarDecl| {
        if v.align > 0 {
            v.align
        } else {
            v.ty.size_bytes() as u32 * v.vector
        }
    };
    let differences = pairs.flat_map(move |(a, b)| {
        let types = (a.ty, a.vector, a.array_len) != (b.ty, b.vector, b.array_len);
        [
            (types, "parameter types differ"),
            (alignment(a) != alignment(b), "parameter alignment differ"),
            (a.space != b.space, "parameter state space differ"),
        ]
    });
    count_differs
        .then_some("number of parameters differ")
        .into_iter()
        .chain(
            differences
                .filter(|(differ, _)| *differ)
                .map(|(_, what)| what),
        )
}

/// A variable statement's `.vN` (read from its first declarator), as [`vector_shape_of`] checks it.
fn vector_shape(src: &str, v: &VarDecl) -> Option<Finding> {
    vector_shape_of(src, v.specifiers(), v.type_line, v.ty, v.vector)
}

/// A declaration's `.vN` in its specifiers' text `span`: only `.v2` and `.v4` (others are ptxas's
/// syntax error at the modifier), at most 128 bits (at `line`, the type's).
fn vector_shape_of(src: &str, span: Span, line: u32, ty: Type, vector: u32) -> Option<Finding> {
    let text = src.get(span.start as usize..span.end as usize)?;
    // `contains` first: a vectorized search, while most declarations (and initializers of
    // thousands of values) hold no `.v1` at all.
    let written_v1 = || {
        text.contains(".v1")
            && text
                .match_indices(".v1")
                .any(|(at, _)| !text[at + 3..].starts_with(|c: char| c.is_ascii_digit()))
    };
    if !matches!(vector, 1 | 2 | 4) || vector == 1 && written_v1() {
        let modifier = format!(".v{vector}");
        let at = text.find(&modifier)?;
        let line = line_at(src, span.start as usize + at).unwrap_or(line);
        return Some((
            line,
            format!("Parsing error near '{modifier}': syntax error"),
            true,
        ));
    }
    (ty.size_bytes() * vector > 16).then(|| {
        (
            line,
            "Vector type too large, exceeds 128 bit limit".into(),
            false,
        )
    })
}

/// The linkage directives (`.visible`, `.extern`, `.weak`, `.common`) a declaration opens with,
/// with their byte offsets.
fn linkage_of(src: &str, span: Span) -> impl Iterator<Item = (usize, &str)> {
    let text = src
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let mut rest = text;
    // Word by word as `split_whitespace` would cut them, but only as far as the words are
    // linkage directives (a declaration's text runs on for its whole initializer or body).
    std::iter::from_fn(move || {
        let word = rest.trim_start();
        // Most words are no linkage directive by their first three bytes (`.shared`, `.entry`).
        if !matches!(
            word.as_bytes(),
            [b'.', b'v', b'i', ..]
                | [b'.', b'e', b'x', ..]
                | [b'.', b'w', b'e', ..]
                | [b'.', b'c', b'o', ..]
        ) {
            return None;
        }
        // A directive ends at white space or at the next directive's dot (`.visible.visible`).
        let whole = |d: &&str| {
            word.starts_with(d)
                && word[d.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || c == '.')
        };
        let directive = [".visible", ".extern", ".weak", ".common"]
            .into_iter()
            .find(whole)?;
        rest = &word[directive.len()..];
        Some((
            span.start as usize + word.as_ptr() as usize - text.as_ptr() as usize,
            &word[..directive.len()],
        ))
    })
}

/// ptxas takes one linkage directive per declaration; a second is a syntax error.
fn repeated_linkage(src: &str, span: Span) -> Option<Finding> {
    let (at, word) = linkage_of(src, span).nth(1)?;
    Some((
        line_at(src, at)?,
        format!("Parsing error near '{word}': syntax error"),
        true,
    ))
}

/// Whether the `k`th of these variables is the first declarator of its statement (the others of
/// a statement share its start).
fn opens_statement(vars: &[VarDecl], k: usize) -> bool {
    k == 0 || vars[k - 1].span.start != vars[k].span.start
}

/// Whether a variable is declared `.extern`.
pub(crate) fn is_extern(src: &str, v: &VarDecl) -> bool {
    linkage_of(src, v.specifiers()).any(|(_, word)| word == ".extern")
}

/// Whether a declarator names an array (`x[4]`, `x[]`).
fn is_array(src: &str, v: &VarDecl) -> bool {
    src.get(v.name_at as usize..v.span.end as usize)
        .is_some_and(|t| t.split('=').next().is_some_and(|d| d.contains('[')))
}

/// `[]` without an initializer to size it: only for `.extern` variables.
fn incomplete_type(src: &str, v: &VarDecl) -> Option<Finding> {
    let is_extern = is_extern(src, v);
    (!is_sized(src, v) && !is_extern).then(|| {
        (
            v.line,
            format!("Non-external variable '{}' has incomplete type", v.name),
            false,
        )
    })
}

/// A function's parameter lists as ptxas checks them: no initializer (a syntax error), `.ptr` (a
/// kernel parameter attribute) only on `.entry` parameters, no incomplete array as a return parameter (at the token after it), and
/// several return parameters only in registers (at the `{` or `;` ending the prototype).
fn prototype_findings(src: &str, f: &Function) -> Vec<Finding> {
    let mut out: Vec<Finding> = f
        .params
        .iter()
        .chain(&f.ret_params)
        .flat_map(|v| parameter_space(src, f, v))
        .collect();
    let text_of = |v: &VarDecl| {
        src.get(v.span.start as usize..v.span.end as usize)
            .unwrap_or("")
    };
    for v in f.params.iter().chain(&f.ret_params).filter(|_| !f.is_entry) {
        if let Some(at) = text_of(v).find(".ptr") {
            let line = line_at(src, v.span.start as usize + at).unwrap_or(v.line);
            out.push((
                line,
                "Illegal placement of kernel parameter attribute".into(),
                false,
            ));
        }
    }
    for v in f.params.iter().chain(&f.ret_params) {
        if let Some(at) = text_of(v).find('=') {
            let line = line_at(src, v.span.start as usize + at).unwrap_or(v.line);
            out.push((line, "Parsing error near '=': syntax error".into(), true));
        }
    }
    for v in f.ret_params.iter().filter(|v| v.array_len.is_none()) {
        let after = src
            .get(v.span.end as usize..)
            .map_or(0, |rest| rest.len() - rest.trim_start().len());
        let line = line_at(src, v.span.end as usize + after).unwrap_or(v.line);
        out.push((
            line,
            "Output parameter cannot be an incomplete array.".into(),
            false,
        ));
    }
    if f.ret_params.len() > 1 && f.ret_params.iter().any(|v| v.space != StateSpace::Reg) {
        let body = f
            .has_body
            .then(|| {
                src.get(f.span.start as usize..)?
                    .find('{')
                    .and_then(|at| line_at(src, f.span.start as usize + at))
            })
            .flatten();
        let line = body
            .or_else(|| line_at(src, f.span.end.saturating_sub(1) as usize))
            .unwrap_or(f.line);
        out.push((
            line,
            "Multiple return parameters require .register state space".into(),
            false,
        ));
    }
    out
}

/// A parameter's state space, written (the parser takes none as `.param`): `.param` for a kernel's,
/// `.param` or `.reg` for a function's, and an incomplete array only in `.param`.
fn parameter_space(src: &str, f: &Function, v: &VarDecl) -> Vec<Finding> {
    let error = |message: String| (v.line, message, false);
    let specifiers = src
        .get(v.specifiers().start as usize..v.specifiers().end as usize)
        .unwrap_or("");
    let written = [".param", ".reg", ".shared", ".global", ".const", ".local"]
        .iter()
        .any(|d| specifiers.starts_with(d));
    let param = v.space == StateSpace::Param && written;
    let mut out = Vec::new();
    if v.array_len.is_none() && !param {
        out.push(error(
            "Incomplete array parameters must be in '.param' space".into(),
        ));
    }
    match v.space {
        _ if param && v.ty == Type::F16x2 => out.push(error(format!(
            "Variable '{}' cannot be allocated in .param state space",
            v.name
        ))),
        _ if param => {}
        _ if f.is_entry => out.push(error(format!(
            "Entry parameter '{}' must have .param state space",
            v.name
        ))),
        StateSpace::Reg if v.array_len.is_none() => out.push(error(format!(
            "Variable '{}' cannot be allocated into a register",
            v.name
        ))),
        StateSpace::Reg => {}
        _ => out.push(error(format!(
            "Function parameter '{}' has illegal state space",
            v.name
        ))),
    }
    out
}

/// Scalar `.b128` declarations need PTX 8.3 (arrays do not).
fn b128_version(m: &Module, line: u32, ty: Type) -> Option<Finding> {
    (ty == Type::B128 && m.version < (8, 3)).then(|| {
        (
            line,
            "Feature 'Type .b128' requires PTX ISA .version 8.3 or later".into(),
            false,
        )
    })
}

/// What ptxas says about a variable before its place (scope and state space) is checked: an
/// initializer on an external symbol, a predicate outside registers.
fn variable_kind(src: &str, v: &VarDecl) -> impl Iterator<Item = Finding> {
    let initialized = src
        .get(v.declarator().start as usize..v.span.end as usize)
        .is_some_and(|t| t.contains('='));
    let is_extern = is_extern(src, v);
    let extern_init = (initialized && is_extern).then(|| {
        (
            v.line,
            format!(
                "No initial value is allowed for external symbol '{}'",
                v.name
            ),
            false,
        )
    });
    extern_init.into_iter().chain(predicate_in_memory(v))
}

/// What a name in an initializer refers to, among the declarations before the variable.
#[derive(Copy, Clone, PartialEq)]
enum Named {
    Variable(StateSpace),
    Function,
    Unknown,
}

/// A variable's initializer, entry by entry as ptxas checks it: none for `.f16`, no braces on a
/// scalar, braces on an array or vector, shaped as its dimensions and vector
/// ([`initializer_shape`]); literals of the variable's type; names declared before it, variables
/// only from `.global`/`.const`; `generic(var)` only of a variable; addresses only in
/// `.u32`/`.u64`. ptxas names the line of the token after the entry at fault.
fn check_variable(src: &str, v: &VarDecl, named: &dyn Fn(&str) -> Named, out: &mut Vec<Finding>) {
    let Some(text) = src.get(v.declarator().start as usize..v.span.end as usize) else {
        return;
    };
    let Some((declarator, init)) = text.split_once('=') else {
        return;
    };
    let init_at = v.declarator().start as usize + declarator.len() + 1;
    // The line after the entry at byte `at` of `init`: its `,` or `}`, or what follows the
    // declarator.
    let after_entry = |at: usize| match init[at..].find([',', '}']) {
        Some(k) => line_at(src, init_at + at + k),
        None => next_token_line(src, v.span.end as usize),
    };
    let fatal =
        |at: usize, message: &str| (after_entry(at).unwrap_or(v.line), message.to_string(), true);
    if v.ty == Type::F16 {
        let first = init
            .find(|c: char| !c.is_whitespace() && c != '{')
            .unwrap_or(0);
        out.push(fatal(first, "No initial value is allowed for .f16 type"));
        return;
    }
    let scalar = v.vector == 1 && !declarator.contains('[');
    if scalar && init.trim_start().starts_with('{') {
        out.push(fatal(
            init.rfind('}').unwrap_or(0),
            "Initial value type mismatch",
        ));
        return;
    }
    // Decimal integers only (curand's tables: a third of the corpus's bytes): no entry can be
    // at fault unless the type wants floats, so the entries need not be read one by one.
    let entries_fit = !matches!(v.ty, Type::F32 | Type::F64) && decimal_only(init);
    let entry_problem = |entry: std::ops::Range<usize>| {
        if entries_fit {
            None
        } else {
            entry_problem(v, &init[entry.clone()], named).map(|(at, m)| (entry.start + at, m))
        }
    };
    let problem = if init.trim_start().starts_with('{') {
        let levels = initializer_levels(v, declarator);
        initializer_shape(&levels, init, v.init.len() as u64, &entry_problem)
    } else if v.vector > 1 || declarator.contains('[') {
        // (ptxas 13.5 crashes on an array of open length given a value without braces, `.u32
        // a[] = 5`: refused here as any other array is.)
        Some((0, "Initial value type mismatch".to_string()))
    } else {
        entry_problem(0..init.len())
    };
    if let Some((at, message)) = problem {
        out.push(fatal(at, &message));
    }
}

/// What one scalar entry of an initializer (`1.5`, `sym`, `generic(sym)+4`) holds that the
/// variable cannot take, with the byte of `entry` where it starts.
fn entry_problem(
    v: &VarDecl,
    entry: &str,
    named: &dyn Fn(&str) -> Named,
) -> Option<(usize, String)> {
    // Tokens are ASCII, so bytes find the same places as chars would.
    let in_token = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'%');
    let mut generic = false;
    let mut at = 0;
    while let Some(start) = entry[at..]
        .bytes()
        .position(|b| in_token(&b))
        .map(|k| at + k)
    {
        let len = entry.as_bytes()[start..]
            .iter()
            .position(|b| !in_token(b))
            .unwrap_or(entry.len() - start);
        let token = &entry[start..start + len];
        at = start + len;
        let first = token.as_bytes()[0];
        let problem = if first.is_ascii_digit() || first == b'.' {
            literal_mismatch(v.ty, token).then(|| "Initial value type mismatch".to_string())
        } else if token == "generic" && !generic && entry[at..].trim_start().starts_with('(') {
            generic = true;
            continue;
        } else {
            let problem = address_problem(token, named(token), std::mem::take(&mut generic));
            problem.or_else(|| {
                (!matches!(v.ty, Type::U32 | Type::U64))
                    .then(|| "Initial value type mismatch".to_string())
            })
        };
        if let Some(message) = problem {
            return Some((start, message));
        }
    }
    None
}

/// The 1-based line of byte `at`.
fn line_at(src: &str, at: usize) -> Option<u32> {
    let before = src.get(..at)?;
    Some(1 + before.bytes().filter(|&b| b == b'\n').count() as u32)
}

/// `.alias fAlias, fAliasee;` as ptxas checks it: PTX 6.3, both names declared earlier, the alias
/// not defined (with a body) before, not itself, neither an entry, the aliasee not a variable, one
/// alias per name, the same prototype (parameter count, then each parameter's type, alignment and
/// state space, return parameters last), and the aliasee neither `.extern` nor `.weak` (as first
/// declared, read from `src`). ptxas goes on after each of these messages but the first four.
pub fn check_aliases(src: &str, m: &Module) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut aliased: HashMap<&str, &str> = HashMap::new();
    for a in &m.aliases {
        if m.version < (6, 3) {
            out.push((
                a.line,
                "Feature '.alias' requires PTX ISA .version 6.3 or later".to_string(),
                false,
            ));
        }
        let earlier_fn = |n: &str| m.functions.iter().find(|f| f.name == n && f.line < a.line);
        let Some(alias) = earlier_fn(&a.name) else {
            out.push((a.line, format!("Unknown symbol '{}'", a.name), false));
            continue;
        };
        if m.globals
            .iter()
            .any(|g| g.name == a.aliasee && g.line < a.line)
        {
            out.push((
                a.line,
                format!("Cannot define alias to variable object '{}'", a.aliasee),
                false,
            ));
            continue;
        }
        let Some(target) = earlier_fn(&a.aliasee) else {
            out.push((a.line, format!("Unknown symbol '{}'", a.aliasee), false));
            continue;
        };
        if a.name == a.aliasee {
            out.push((a.line, "Cannot alias a function to itself".into(), false));
            continue;
        }
        if m.functions
            .iter()
            .any(|f| f.name == a.name && f.line < a.line && f.has_body)
        {
            out.push((
                a.line,
                format!("Illegal redefinition of function '{}' as alias", a.name),
                false,
            ));
        }
        for entry in [alias, target].into_iter().filter(|f| f.is_entry) {
            out.push((
                a.line,
                format!("Cannot define alias to entry function '{}'", entry.name),
                false,
            ));
        }
        if let Some(previous) = aliased.get(a.name.as_str()) {
            out.push((
                a.line,
                format!(
                    "'{}' is already aliased to '{previous}' and cannot be redefined",
                    a.name
                ),
                false,
            ));
        }
        let mismatch = |what: &str| {
            (
                a.line,
                format!(
                    "Mismatch in prototype of alias '{}' and aliasee '{}'. {what} differ(s)",
                    a.name, a.aliasee
                ),
                false,
            )
        };
        if alias.params.len() != target.params.len()
            || alias.ret_params.len() != target.ret_params.len()
        {
            out.push(mismatch("number of parameters"));
        } else {
            let pairs = alias
                .params
                .iter()
                .zip(&target.params)
                .chain(alias.ret_params.iter().zip(&target.ret_params));
            out.extend(
                pairs
                    .flat_map(|(p, q)| parameter_differences(p, q))
                    .map(mismatch),
            );
        }
        if target.is_extern {
            out.push((
                a.line,
                format!(
                    "Function '{}' with .extern scope cannot be aliased",
                    a.aliasee
                ),
                false,
            ));
        }
        if src
            .get(target.span.start as usize..target.span.end as usize)
            .is_some_and(|t| t.trim_start().starts_with(".weak"))
        {
            out.push((
                a.line,
                format!(
                    "Function '{}' with .weak scope cannot be aliased",
                    a.aliasee
                ),
                false,
            ));
        }
        aliased.entry(a.name.as_str()).or_insert(a.aliasee.as_str());
    }
    out
}

/// What differs between two parameters, in ptxas's order: type (with vector width and array
/// length), alignment, state space.
fn parameter_differences(p: &VarDecl, q: &VarDecl) -> impl Iterator<Item = &'static str> {
    let types = (p.ty, p.vector, p.array_len) != (q.ty, q.vector, q.array_len);
    [
        (types, "parameter types"),
        (p.alignment() != q.alignment(), "parameter alignment"),
        (p.space != q.space, "parameter state space"),
    ]
    .into_iter()
    .filter_map(|(differs, what)| differs.then_some(what))
}

/// Functions defined twice (a declaration followed by its definition is fine).
pub fn check_duplicate_functions(m: &Module) -> Vec<Finding> {
    let mut seen = FastSet::default();
    m.functions
        .iter()
        .filter(|f| f.has_body && !seen.insert(f.name.as_str()))
        .map(|f| {
            (
                f.line,
                format!("Duplicate definition of function '{}'", f.name),
                false,
            )
        })
        .collect()
}

/// Module variables: initializers where none is allowed (names declared twice:
/// `declarations::redeclared_globals`, which reads their linkage).
pub fn check_globals(m: &Module) -> Vec<Finding> {
    m.globals
        .iter()
        .filter_map(check_initializer_space)
        .collect()
}

/// `.shared` and `.local` variables take no initializer.
pub fn check_initializer_space(v: &VarDecl) -> Option<Finding> {
    let uninitialized = matches!(
        v.space,
        StateSpace::Shared | StateSpace::Local | StateSpace::Param
    );
    (uninitialized && !v.init.is_empty()).then(|| {
        (
            v.line,
            format!(
                "No initial value is allowed for '{}' in this state space",
                v.name
            ),
            false,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each declarator of a statement is a declaration of its own: the statement's specifiers
    /// (read for `.extern` and friends) and its own name, length and initializer (read for the
    /// initializer checks), on the line of the token after its name.
    #[test]
    fn declarators_share_specifiers_and_keep_their_own_text() {
        let src = ".version 8.0\n.target sm_80\n.address_size 64\n.extern .shared .align 8 .b8 x[16],\n  y[];\n.global .u32 a = 1, b[2] = {2, 3};\n";
        let (m, diags) = crate::parse_syntax(src, "t.ptx");
        assert!(diags.is_empty(), "{diags:?}");
        let text = |s: Span| &src[s.start as usize..s.end as usize];
        let got: Vec<_> = m
            .globals
            .iter()
            .map(|v| {
                (
                    v.name.as_str(),
                    v.space,
                    v.align,
                    v.array_len,
                    v.line,
                    text(v.specifiers()),
                    text(v.declarator()),
                    v.init.clone(),
                )
            })
            .collect();
        let want = vec![
            (
                "x",
                StateSpace::Shared,
                8,
                Some(16),
                4,
                ".extern .shared .align 8 .b8",
                "x[16]",
                vec![],
            ),
            (
                "y",
                StateSpace::Shared,
                8,
                None,
                5,
                ".extern .shared .align 8 .b8",
                "y[]",
                vec![],
            ),
            (
                "a",
                StateSpace::Global,
                0,
                Some(1),
                6,
                ".global .u32",
                "a = 1",
                vec![1],
            ),
            (
                "b",
                StateSpace::Global,
                0,
                Some(2),
                6,
                ".global .u32",
                "b[2] = {2, 3}",
                vec![2, 3],
            ),
        ];
        assert_eq!(got, want);
        assert!(m
            .globals
            .iter()
            .all(|v| linkage_of(src, v.specifiers()).count()
                == usize::from(v.space == StateSpace::Shared)));
    }
}
