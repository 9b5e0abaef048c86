//! Semantic validation after parsing: runs the module, declaration and instruction checks and puts
//! their messages in ptxas's order (per function: checks made while reading, then unknown symbols;
//! nothing after the first fatal message).

use crate::ast::*;
use crate::checks::declarations;
use crate::checks::instructions::{
    check_instruction, Findings, Functions, Plans, Scope, VarScope, Variables,
};
use crate::checks::module::{self as cm, Finding};
use crate::checks::order::InSight;
use crate::diag::Diagnostic;

/// Most errors reported for one module (infos, which ptxas prints every one of, aside).
const MAX_DIAGNOSTICS: usize = 100;

/// Every PTX ISA opcode name (through PTX 9.x); anything else is "Not a name of any known instruction".
const OPCODES: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "alloca",
    "and",
    "applypriority",
    "atom",
    "bar",
    "barrier",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "bra",
    "brev",
    "brkpt",
    "brx",
    "call",
    "clusterlaunchcontrol",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cp",
    "createpolicy",
    "cvt",
    "cvta",
    "discard",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "ex2",
    "exit",
    "fence",
    "fma",
    "fns",
    "getctarank",
    "griddepcontrol",
    "isspacep",
    "ld",
    "ldmatrix",
    "ldu",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "mapa",
    "match",
    "max",
    "mbarrier",
    "membar",
    "min",
    "mma",
    "mov",
    "movmatrix",
    "mul",
    "mul24",
    "multimem",
    "nanosleep",
    "neg",
    "not",
    "or",
    "pmevent",
    "popc",
    "prefetch",
    "prefetchu",
    "prmt",
    "rcp",
    "red",
    "redux",
    "rem",
    "ret",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setmaxnreg",
    "setp",
    "shf",
    "shfl",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "st",
    "stackrestore",
    "stacksave",
    "stmatrix",
    "sub",
    "subc",
    "suld",
    "suq",
    "sured",
    "sust",
    "szext",
    "tanh",
    "tcgen05",
    "tensormap",
    "testp",
    "tex",
    "tld4",
    "trap",
    "txq",
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "wgmma",
    "wmma",
    "xor",
    "st.async",
    "red.async",
    "cp.async",
    "ex2",
    "tensormap",
];

pub fn is_known_opcode(op: &str) -> bool {
    static KNOWN: std::sync::OnceLock<FastSet<&'static str>> = std::sync::OnceLock::new();
    KNOWN
        .get_or_init(|| OPCODES.iter().copied().collect())
        .contains(op)
}

/// A message with its place in ptxas's output order: (line, 0 = while reading / 1 = after the function).
struct Placed {
    key: (u32, u8),
    line: u32,
    message: String,
    fatal: bool,
}

/// Warnings about a module's functions: `.minnctapersm` without `.maxntid` or `.reqntid` (at the
/// function's end, as ptxas), then those without a line.
pub fn module_warnings(src: &str, m: &Module, file: &str) -> Vec<Diagnostic> {
    m.functions
        .iter()
        .filter(|f| f.has_body)
        .filter_map(|f| cm::perf_directive_warning(src, f))
        .chain(multiple_returns_warnings(src, m))
        .chain(declarations::unresolved_externs(src, m))
        .chain(crate::checks::forms::advisories(m))
        .chain(crate::checks::instructions::sync_less_warnings(m))
        .map(|(line, message)| Diagnostic::warning(file, line, message))
        .chain(
            crate::checks::sparse_advisory::advisories(m)
                .into_iter()
                .map(|(line, message)| Diagnostic::info(file, line, message)),
        )
        .collect()
}

/// The first function with more than one return value: ptxas gives up its calling convention
/// (ABI) for the whole module, saying so once and without a line (and, for a `.target debug`
/// module, that a debugger may not cope).
fn multiple_returns_warnings(src: &str, m: &Module) -> Vec<(u32, String)> {
    let Some(f) = m.functions.iter().find(|f| f.ret_params.len() > 1) else {
        return Vec::new();
    };
    let mut warnings = vec![(
        0,
        format!(
            "Function '{}' with multiple return values found, disabling ABI",
            f.name
        ),
    )];
    if cm::targets_debug(src) {
        warnings.push((
            0,
            "Program compiled without abi might not work properly under debugger".to_string(),
        ));
    }
    warnings
}

/// Validates a parsed module; `parse_diags` are the parser's. Returns every diagnostic, in order.
pub fn validate_module(
    src: &str,
    m: &Module,
    file: &str,
    parse_diags: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    validate_module_with(src, m, file, parse_diags, || {
        check_functions(src, m, 0..m.functions.len())
    })
}

/// One function's findings: those ptxas makes while reading it, then its unknown symbols
/// (nothing for a declaration without a body).
#[derive(Default)]
pub struct FunctionFindings {
    first: Vec<Finding>,
    later: Vec<Finding>,
    /// Whether an instruction names a symbol plus an offset (see [`function_plus_offset`]).
    offset_symbols: bool,
}

/// The findings of the functions `range` of `m`, in order: the unit that a driver may run in
/// parallel, in chunks, for [`validate_module_with`].
pub fn check_functions(
    src: &str,
    m: &Module,
    range: std::ops::Range<usize>,
) -> Vec<FunctionFindings> {
    let shared = ModuleScope::new(m);
    let mut carried = Carried::default();
    m.functions[range]
        .iter()
        .map(|f| match f.has_body {
            true => function_findings(src, f, m, &shared, &mut carried),
            false => FunctionFindings::default(),
        })
        .collect()
}

/// [`validate_module`] with the functions' findings made by `check_all`: one entry per function
/// of `m`, in order (chunks of [`check_functions`] concatenated). It is called only when the
/// module's header lets the functions be checked.
pub fn validate_module_with(
    src: &str,
    m: &Module,
    file: &str,
    parse_diags: Vec<Diagnostic>,
    check_all: impl FnOnce() -> Vec<FunctionFindings>,
) -> Vec<Diagnostic> {
    let header = cm::check_header(src, m, file);
    let header_fatal = header.iter().any(|f| f.2);
    let mut placed: Vec<Placed> = Vec::new();
    // The parser's messages come first on a line they share with a header finding (a malformed
    // `.version` is ptxas's "Missing .version directive", not an unsupported version).
    for d in parse_diags {
        let fatal = d.severity == crate::Severity::Fatal;
        placed.push(Placed {
            key: (d.line, 0),
            line: d.line,
            message: d.message,
            fatal,
        });
    }
    let mut put = |findings: Vec<Finding>, rank: u8, key_line: Option<u32>| {
        for (line, message, fatal) in findings {
            placed.push(Placed {
                key: (key_line.unwrap_or(line), rank),
                line,
                message,
                fatal,
            });
        }
    };
    // ptxas names a `.target debug` without debug information (line 0), then an unsupported
    // `.target` for the `.version`, after everything else.
    let (late, early): (Vec<Finding>, Vec<Finding>) = header
        .into_iter()
        .partition(|f| f.0 == 0 || f.1.contains(" does not support .target "));
    put(early, 0, None);
    put(late, 2, Some(u32::MAX));
    // Which functions name a symbol plus an offset (all of them, for all that is known, when the
    // functions were not checked).
    let mut offset_symbols = None;
    if !header_fatal {
        let findings = check_all();
        offset_symbols = Some(
            findings
                .iter()
                .map(|f| f.offset_symbols)
                .collect::<Vec<bool>>(),
        );
        module_findings(src, m, findings, &mut put);
    }
    placed.sort_by_key(|p| p.key);
    let mut out = Vec::new();
    let mut errors = 0;
    for p in placed {
        let d = Diagnostic::new(file, p.line, p.message, p.fatal);
        // Infos do not count towards the cap (ptxas prints every one).
        errors += usize::from(d.is_error());
        out.push(d);
        if p.fatal || errors >= MAX_DIAGNOSTICS {
            break;
        }
    }
    if errors == 0 {
        match function_plus_offset(m, offset_symbols.as_deref()) {
            Some((line, message, fatal)) => out.push(Diagnostic::new(file, line, message, fatal)),
            None => out.extend(
                unresolved_symbol(src, m).map(|message| Diagnostic::new(file, 0, message, true)),
            ),
        }
    }
    out
}

/// The first instruction operand that is a function plus an offset (`mov.u64 %rd1, k+4`): ptxas's
/// fatal message without a place, naming the line in its text, made only when nothing else is
/// wrong; of a function declared only later, an unknown symbol on its line. As (line, message,
/// fatal).
/// `offset_symbols` says which functions name a symbol plus an offset at all (None: any may).
fn function_plus_offset(
    m: &Module,
    offset_symbols: Option<&[bool]>,
) -> Option<(u32, String, bool)> {
    let declared = std::cell::OnceCell::new();
    let named = |k: usize| offset_symbols.is_none_or(|named| named.get(k).copied().unwrap_or(true));
    for f in m
        .functions
        .iter()
        .enumerate()
        .filter(|&(k, _)| named(k))
        .map(|(_, f)| f)
    {
        for i in f.body.iter().filter_map(Statement::as_instr) {
            for o in i.operands.iter() {
                let Operand::Symbol(n) = o else { continue };
                let Some((base, _)) = n.split_once('+') else {
                    continue;
                };
                match declared.get_or_init(|| first_declarations(m)).get(base) {
                    Some(&at) if at > i.line => return Some((i.line, format!("Unknown symbol '{base}'"), false)),
                    Some(_) => return Some((0, format!("Line No: {}: Cannot take address of function '{base}' in arithmetic expressions", i.line), true)),
                    None => {}
                }
            }
        }
    }
    None
}

/// The line of each function's first declaration.
fn first_declarations(m: &Module) -> FastMap<&str, u32> {
    let mut declared: FastMap<&str, u32> = FastMap::default();
    for f in &m.functions {
        declared.entry(f.name.as_str()).or_insert(f.line);
    }
    declared
}

/// Functions ptxas provides itself: declaring or calling them needs no definition.
const SYSTEM_FUNCTIONS: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// What linking the module as a whole program (ptxas without `-c`) finds unresolved, as ptxas's
/// fatal message without a line: first an `.extern` `.global`/`.const` array of unknown length,
/// then, in declaration order, a function without a body or an `.alias` that is not `.extern` or
/// that is called.
fn unresolved_symbol(src: &str, m: &Module) -> Option<String> {
    if let Some(v) = declarations::unsized_extern(src, m) {
        return Some(format!("Unresolved extern variable '{}'", v.name));
    }
    let undefined: Vec<&Function> = m
        .functions
        .iter()
        .filter(|f| !f.has_body && !f.is_entry && !SYSTEM_FUNCTIONS.contains(&f.name.as_str()))
        .collect();
    if undefined.is_empty() {
        return None;
    }
    let bodies = m
        .functions
        .iter()
        .filter(|f| f.has_body)
        .map(|f| f.name.as_str());
    let defined: FastSet<&str> = bodies
        .chain(m.aliases.iter().map(|a| a.name.as_str()))
        .collect();
    let called = std::cell::OnceCell::new();
    let is_called = |name: &str| called.get_or_init(|| called_functions(m)).contains(name);
    let unresolved = undefined
        .into_iter()
        .filter(|f| !defined.contains(f.name.as_str()))
        .find(|f| !f.is_extern || is_called(&f.name))?;
    Some(format!("Unresolved extern function '{}'", unresolved.name))
}

/// The names that `call` instructions name.
fn called_functions(m: &Module) -> FastSet<&str> {
    let calls = m
        .functions
        .iter()
        .flat_map(|f| &f.body)
        .filter_map(|s| match s {
            Statement::Instr(i) if i.opcode() == "call" => Some(i),
            _ => None,
        });
    calls
        .flat_map(|i| &i.operands)
        .filter_map(|o| match o {
            Operand::Symbol(n) => Some(n.as_str()),
            _ => None,
        })
        .collect()
}

/// Declarations and functions; each function's unknown symbols come at its end.
fn module_findings(
    src: &str,
    m: &Module,
    functions: Vec<FunctionFindings>,
    put: &mut impl FnMut(Vec<Finding>, u8, Option<u32>),
) {
    put(declarations::check_globals(m), 0, None);
    put(cm::check_file_indexes(m), 0, None);
    put(cm::check_inlined_locations(m), 0, None);
    put(declarations::check_declarations(src, m), 0, None);
    put(declarations::check_duplicate_functions(m), 0, None);
    put(declarations::check_aliases(src, m), 0, None);
    let mut starts: Vec<u32> = m
        .functions
        .iter()
        .map(|f| f.line)
        .chain(m.globals.iter().map(|g| g.line))
        .collect();
    starts.sort_unstable();
    debug_assert_eq!(functions.len(), m.functions.len());
    // A declaration's directives after its prototype (`.func f() .maxnreg 16;`).
    for f in m
        .functions
        .iter()
        .filter(|f| !f.has_body && !src.is_empty())
    {
        put(cm::check_perf_directives(src, f), 0, None);
    }
    for (f, FunctionFindings { first, later, .. }) in m
        .functions
        .iter()
        .zip(functions)
        .filter(|(f, _)| f.has_body)
    {
        put(first, 0, None);
        let next = starts.partition_point(|&l| l <= f.line);
        let end = starts.get(next).map_or(u32::MAX, |l| l - 1);
        put(later, 1, Some(end));
    }
}

/// Checks one function; its diagnostics (checks while reading, then unknown symbols) are appended.
pub fn validate_function(f: &Function, module: &Module, file: &str, diags: &mut Vec<Diagnostic>) {
    let FunctionFindings { first, later, .. } = function_findings(
        "",
        f,
        module,
        &ModuleScope::new(module),
        &mut Carried::default(),
    );
    for (line, msg, fatal) in first.into_iter().chain(later) {
        diags.push(Diagnostic::new(file, line, msg, fatal));
    }
}

/// One function's findings: those ptxas makes while reading (in line order), then unknown symbols.
/// What every function's scope shares: the module's globals and functions by name.
struct ModuleScope<'a> {
    globals: Variables<'a>,
    functions: Functions<'a>,
}

impl<'a> ModuleScope<'a> {
    fn new(m: &'a Module) -> ModuleScope<'a> {
        let mut globals = Variables::default();
        globals.extend(m.globals.iter());
        ModuleScope {
            globals,
            functions: Functions::new(&m.functions),
        }
    }
}

/// What checking functions one after another carries from one to the next: the plans of the
/// opcode and modifier combinations, and the last scope, whose containers the next one reuses.
#[derive(Default)]
struct Carried<'a> {
    plans: Plans,
    scope: Option<Scope<'a>>,
}

fn function_findings<'a>(
    src: &str,
    f: &'a Function,
    m: &'a Module,
    shared: &'a ModuleScope<'a>,
    carried: &mut Carried<'a>,
) -> FunctionFindings {
    let scope = carried.scope.get_or_insert_with(|| empty_scope(m, shared));
    let labels_distinct = fill_scope(scope, f);
    let mut first = declarations::check_duplicate_names(src, f);
    if !labels_distinct {
        first.extend(declarations::check_duplicate_labels(src, f));
    }
    if !src.is_empty() {
        first.extend(cm::check_perf_directives(src, f));
        first.extend(cm::check_directive_conflicts(src, f));
    }
    let mut found = Findings::default();
    let mut forward = Vec::new();
    match &f.declared_late {
        None => {
            for i in f.body.iter().filter_map(Statement::as_instr) {
                check_instruction(i, scope, &mut carried.plans, &mut found);
            }
        }
        Some(blocks) => check_in_order(
            f,
            blocks,
            scope,
            &mut carried.plans,
            &mut found,
            &mut forward,
        ),
    }
    first.extend(found.first.into_iter().map(|(l, msg)| (l, msg, false)));
    first.sort_by_key(|f| f.0);
    let later = found
        .unknown
        .into_iter()
        .enumerate()
        .map(
            |(k, (line, name))| match forward.get(k).copied().unwrap_or(false) {
                true => (
                    line,
                    format!("Label expected for forward reference of '{name}'"),
                    true,
                ),
                false => (line, format!("Unknown symbol '{name}'"), false),
            },
        );
    FunctionFindings {
        first,
        later: later.collect(),
        offset_symbols: found.offset_symbols,
    }
}

/// [`check_instruction`] over a function that declares something after an instruction: each
/// instruction against the declarations in sight where it stands ([`InSight`]). `forward` says
/// of each unknown name found whether it is a forward reference.
fn check_in_order<'a>(
    f: &'a Function,
    blocks: &[Span],
    scope: &mut Scope<'a>,
    plans: &mut Plans,
    found: &mut Findings,
    forward: &mut Vec<bool>,
) {
    let mut sight = InSight::new(f, blocks);
    for i in f.body.iter().filter_map(Statement::as_instr) {
        sight.fill(i.span.start, scope);
        check_instruction(i, scope, plans, found);
        let new = found.unknown[forward.len()..]
            .iter()
            .map(|(_, name)| sight.forward_reference(name, i.span.start));
        forward.extend(new);
    }
}

/// A scope of module `m` with no function's names yet ([`fill_scope`] gives it one's).
fn empty_scope<'a>(m: &'a Module, shared: &'a ModuleScope<'a>) -> Scope<'a> {
    Scope {
        regs: Default::default(),
        labels: Default::default(),
        vars: VarScope {
            globals: &shared.globals,
            locals: Default::default(),
        },
        functions: &shared.functions,
        at: std::cell::Cell::new(0),
        target_sm: cm::target_number(&m.target).unwrap_or(u32::MAX),
        target: m.target.as_str(),
        version: m.version,
    }
}

/// Makes `scope` (another function's of the module, its containers reused in place) the scope
/// of `f`; says whether its labels are all distinct (then none is defined twice: see
/// [`declarations::check_duplicate_labels`]).
fn fill_scope<'a>(scope: &mut Scope<'a>, f: &'a Function) -> bool {
    scope.labels.clear();
    let mut label_count = 0;
    for s in &f.body {
        if let Statement::Label { name, .. } = s {
            label_count += 1;
            scope.labels.insert(name);
        }
    }
    let locals = &mut scope.vars.locals;
    locals.clear();
    locals.extend(
        f.params
            .iter()
            .chain(f.ret_params.iter())
            .chain(f.vars.iter()),
    );
    scope
        .regs
        .fill(&f.regs, f.params.iter().chain(f.ret_params.iter()));
    scope.at.set(0);
    scope.labels.len() == label_count
}

#[cfg(test)]
mod tests {
    /// The plans and operand verdicts kept across a module's functions answer for each function's
    /// own registers: the same instruction fits in one function and not in the next (ptxas's
    /// messages for this module).
    #[test]
    fn kept_verdicts_follow_each_function() {
        let entry = |name: &str, decl: &str, body: &str| {
            format!(".visible .entry {name}()\n{{\n\t{decl}\n{body}\tret;\n}}\n")
        };
        let add = "\tadd.s32 %r1, %r2, %r3;\n";
        let src = [
            ".version 8.0\n.target sm_80\n.address_size 64\n".to_string(),
            entry("a", ".reg .b32 %r<4>;", add),
            entry("b", ".reg .f64 %r<4>;", add),
            entry(
                "c",
                ".reg .b32 %r<4>;",
                &format!("{add}\tadd.s32 %r1, %r2, %r9;\n"),
            ),
        ]
        .concat();
        let diags = crate::parse_module(&src, "t.ptx").unwrap_err();
        let got: Vec<(u32, &str)> = diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        let want = [
            (13, "Arguments mismatch for instruction 'add'"),
            (20, "Arguments mismatch for instruction 'add'"),
            (20, "Unknown symbol '%r9'"),
        ];
        assert_eq!(got, want);
    }

    /// An instruction that the short first walk (`instructions::fits_at_once`) would pass on
    /// its plan and its operands' verdict alone, kept by a valid one before it, still says what
    /// its own operands draw: a bound info, an unmet special register requirement, a variable of
    /// another space (ptxas's messages for this module).
    #[test]
    fn kept_verdicts_leave_each_operands_own_messages() {
        let src = "\
.version 8.0
.target sm_80
.address_size 64

.visible .entry a(
\t.param .u64 p,
\t.param .u32 q
)
{
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<4>;
\tld.param.u64 %rd1, [p];
\tld.param.u64 %rd2, [q];
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r2, %clusterid.x;
\tld.param.u64 %rd1, [p];
\tld.global.u64 %rd3, [%rd1];
\tld.global.u64 %rd3, [p];
\tret;
}
";
        let diags = crate::parse_module(src, "t.ptx").unwrap_err();
        let got: Vec<(u32, &str)> = diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        let want = [
            (13, "Potential out of bound access while accessing symbol 'q' of type '.u32' with instruction type '.u64'."),
            (15, "Feature '%clusterid' requires .target sm_90 or higher"),
            (18, "State space mismatch between instruction and address in instruction 'ld'"),
        ];
        assert_eq!(got, want);
    }
}
