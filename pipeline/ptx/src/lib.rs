//! The PTX front end: lexing, parsing to an AST with source spans, and ptxas-style diagnostics.
//!
//! ## What lives where
//!
//! `syntax/lexer.rs` (logos), `syntax/parser.rs` (and `syntax/parser/`) (recursive descent to
//! `ast.rs`, byte spans, error recovery at `;`), `syntax/parser/const_expr.rs` (an address's offset
//! as the C constant expression ptxas reads after `base+` or alone: `[%rd1+4*2]`, `[g+(8-4)]`,
//! 64-bit wrapping), `syntax/fast_path.rs` (the parser's byte-level reader of runs of labels and
//! common instruction shapes, of one-line `.reg` declarations, variable declarations (`.shared
//! .align 4 .b8 buf[1024];`) and `.pragma "nounroll";` among them, of parameter lists of the common
//! shape (`.param [.align N] .type name[N]`, lines included), and of flat integer initializer
//! lists; anything else, including a statement that runs past its line, goes back to the token
//! parser untouched, and `tests/fast_path.rs` checks both give the same tree and diagnostics; it
//! counts lines as it skips between statements, finds a recent form by the first word of the
//! statement in a small direct-mapped cache before the form table, reads a short `%` register name
//! with one 16-byte load (which also tells a plain register such as `%rd3` from a special one) and
//! cuts any other name of under sixteen bytes out the same way, reads registers, short decimals and
//! addresses in the operand loop itself, and hands the byte after each piece on so that space is
//! skipped once; `syntax/wide.rs` holds its SIMD (x86_64 only, with byte-wise fallbacks): name-byte
//! tests, the short `%` name reader, the first-word key (its second half looked at only for words
//! of sixteen bytes or more), line ends for skipping `//` comments, a name's low bytes),
//! `syntax/sections.rs` (split a module at top-level function boundaries; sections parse in
//! parallel on the driver's executor and merge to exactly the serial result), `checks/resolve.rs`
//! (bare register names, zero-padded numbers; `Registers`, the checks' register lookup: a memo of
//! recent answers keyed by the name's prefix and number (a fixed table of slots, a name's length
//! taken from its tag), kept across functions that declare the same ranges, and on a miss a
//! word-wise answer for short `%r12`-like names from the range prefixes, with names declared alone
//! (`%p1`, `%SP`) in a short list, looked through only when one ends in the name's last byte;
//! `Labels`, a function's labels, those of up to 15 bytes kept by their inline words),
//! `checks/validate.rs` (drives the checks; `check_functions` checks a range of functions, the unit
//! the driver runs in parallel, and `validate_module_with` puts every finding in ptxas's order,
//! ending with the whole-program checks ptxas makes when nothing else is wrong: a function's
//! address plus an offset, looked for only in the functions whose check saw a symbol plus an
//! offset, and unresolved extern functions and variables; the driver checks `.target` against
//! `-arch` before reporting these link-stage fatals, as ptxas), `checks/module.rs`
//! (`.version`/`.target` and its options, declarations, directives; `.file` indexes and `.loc ...
//! inlined_at` locations, from the module's `files`/`locs` lists that the parser records and the
//! section merge joins; for a `.target debug` module, `.loc` `function_name` labels that no
//! `.section` declares (`Module::section_labels`), which `ptxforge_ptx::debug_information_errors`
//! reports after everything else and the driver prints as place-less errors without ptxas's
//! "aborted" line (`report::Severity::LateError`); texture, sampler and surface reference
//! initializer fields and values; `.texref`/`.samplerref`/`.surfref` are read as 64-bit handles,
//! with ptxas's texmode rule), `checks/declarations.rs` (declarations: a statement of several
//! declarators gives one `VarDecl` each, sharing the statement's specifiers,
//! `VarDecl::specifiers`/`declarator`; initializer literals and shapes against types, duplicate and
//! inconsistent redefinitions (of functions, through one map of each name's first and latest
//! declaration), `.extern` rules, `.alias`), `checks/instructions.rs` (and `checks/instructions/`)
//! (per-instruction checks; modifier-only checks planned once per opcode+modifiers (plans by
//! reference, through a direct-mapped cache of recent forms), operand checks once per operand
//! summary; an instruction whose plan says nothing for valid code (quiet, one table row, a scalar
//! access) and whose operands have a cached verdict returns at once, the commonest through
//! `fits_at_once`, one short walk inlined in `check_instruction` before any other check (the whole
//! check out of line) (a declared predicate as guard; declared registers, numbers and labels as
//! operands, and `quiet_operand_code` for the others that say nothing of their own in valid code:
//! negated predicates, floats, known symbols, special registers whose `.target`/`.version`
//! requirement is met, a variable's address in the access's space and no narrower than the access);
//! a first walk tells which operand kinds an instruction has, so checks for symbols, special
//! registers and symbol addresses run only where there are some; a symbol operand's name is looked
//! up once for its code (label, variable, function, offset), and a symbol address's variable once
//! for the space and bound checks; `Variables`, a scope's variables by name (a function's first few
//! in a list looked through, no hashing) with range-named ones (`.shared .b32 %r<4>`) resolving
//! their members; `Functions`, the module's functions, each known from its first declaration on, as
//! ptxas reads a module in order (one hash of each name to build)) + `isa/` (the instruction table:
//! types, operand shapes, state spaces, minimum PTX version and target per opcode and modifier,
//! with `target_first`/`without` for rows where ptxas names the target first or a modifier is
//! exempt; `FORMS`, `MMA_ROWS`, `WGMMA_ROWS` for the families that come in forms: mbarrier,
//! cp.async(.bulk/.tensor), fence, wgmma, tcgen05, mma, sm_90a/sm_100a-only rows) +
//! `checks/forms.rs` + `checks/mods.rs` (modifiers an opcode does not take, named by kind as ptxas
//! names them: state space, vector width, comparison, rounding, its general modifiers, or unknown
//! there; per opcode the words it takes) + `checks/typing.rs` (ptxas's operand-type rules) +
//! `checks/vectors.rs` (vector expressions as ptxas reads them: undeclared elements, elements of
//! another size, no element to type them by, before the instruction's other messages but after its
//! guard's and unknown modifiers'; how the register vectors of `ld`/`st`/`ldu` data and of `mov`
//! are typed, and neighbouring elements of different kinds; `checks::instructions` runs it only
//! when its operand summary saw a vector that is not all registers of one declared type),
//! `checks/bounds.rs` (ptxas's info on an `ld`/`st` wider than the scalar variable it addresses,
//! "Potential out of bound access ...": `checks::instructions` asks for it only where an operand is
//! a symbol's address, once the instruction's types are checked, and puts it after the
//! instruction's guard and modifier messages; an info is a finding whose message
//! `diag::info_message` marks, which `Diagnostic::new` makes a `Severity::Info`: it never rejects a
//! module, goes with a valid module's warnings, and the CLI prints it under `-w` and leaves it an
//! info under `-Werror`), `checks/order.rs` (functions that declare something after an instruction,
//! which the parser marks `Function::declared_late`: each instruction is checked against the
//! declarations in sight where it stands, and an unknown name that a later declaration of an
//! enclosing block names is ptxas's fatal "Label expected for forward reference"), `syntax/name.rs`
//! (`ast::Name`, the 16-byte inline string for opcodes, modifiers and operand names: a tag byte,
//! the length of an inline name or a heap mark, then the bytes or a pointer, built and moved as two
//! words; the tree's node sizes are pinned by a test, since its memory is much of the front end's
//! time), `diag.rs` (ptxas-format diagnostics). Instructions stay generic: a form (opcode +
//! modifiers, `ast::Form`) + operands. A function's operands (each instruction's guard predicate
//! first, then its operands) live in one block (`ast::Operands`, a slice-like view into an
//! `Arc<[Operand]>` per function, read with `i.operands[..]` and `i.guard()`), so an instruction is
//! 48 bytes and costs no allocation of its own; the parser resolves bare register names and
//! zero-padded numbers in its operand buffer before the block is made. Each distinct form is built
//! once per thread (`syntax/forms.rs`, by its text; a thread's parsers pass the table on from
//! section to section) and shared behind an `Arc` by every instruction written alike, so an
//! instruction carries no modifier list; the fast path finds a known form by its text, and
//! `checks::instructions`'s plans are kept per form. `../../fuzz/` holds the cargo-fuzz target on
//! the parser.

pub mod ast;
pub mod checks;
pub mod diag;
pub mod isa;
pub mod syntax;

pub use checks::{module as check_module, validate};
pub use diag::{Diagnostic, Severity};
pub use syntax::{lexer, sections};

/// Parses and validates a module; `Err` holds every diagnostic found (up to a cap). Warnings
/// and infos about a valid module come back in [`ast::Module::warnings`].
pub fn parse_module(src: &str, file_name: &str) -> Result<ast::Module, Vec<Diagnostic>> {
    let (module, diags) = parse_syntax(src, file_name);
    finish_module(src, file_name, module, diags)
}

/// Lexes and parses `src` without validating it: the module (bare register names resolved) and
/// the syntax diagnostics. [`sections`] gives the same result from sections parsed in parallel.
pub fn parse_syntax(src: &str, file_name: &str) -> (ast::Module, Vec<Diagnostic>) {
    parse_syntax_with(src, file_name, true)
}

/// [`parse_syntax`], with or without the parser's byte-level fast path for common instructions
/// (tests check that both readers give the same tree and diagnostics).
pub fn parse_syntax_with(
    src: &str,
    file_name: &str,
    fast_path: bool,
) -> (ast::Module, Vec<Diagnostic>) {
    let mut p = syntax::parser::Parser::new(src, file_name);
    p.fast_path = fast_path;
    let module = p.parse_module();
    (module, std::mem::take(&mut p.diags))
}

/// Validates a parsed module together with its syntax diagnostics: the module with its warnings,
/// or every error (and the warnings, unless a fatal error ends the list).
pub fn finish_module(
    src: &str,
    file_name: &str,
    module: ast::Module,
    syntax: Vec<Diagnostic>,
) -> Result<ast::Module, Vec<Diagnostic>> {
    let module = finish_module_with(src, file_name, module, syntax, |m| {
        validate::check_functions(src, m, 0..m.functions.len())
    })?;
    debug_information_errors(src, file_name, module)
}

/// What ptxas finds generating the debug information of a valid `.target debug` module: labels
/// that `.loc` directives name but no `.section` declares, as errors without a place after the
/// module's warnings. A driver makes this check itself, after its own notes on the debug sections
/// (see [`check_module::unresolved_function_names`]).
pub fn debug_information_errors(
    src: &str,
    file_name: &str,
    module: ast::Module,
) -> Result<ast::Module, Vec<Diagnostic>> {
    let unresolved = match check_module::targets_debug(src) {
        true => check_module::unresolved_function_names(&module),
        false => Vec::new(),
    };
    if unresolved.is_empty() {
        return Ok(module);
    }
    let errors = unresolved
        .into_iter()
        .map(|message| Diagnostic::new(file_name, 0, message, false));
    Err(module.warnings.into_iter().chain(errors).collect())
}

/// [`finish_module`] with the functions' checks made by `check_all` (see
/// [`validate::validate_module_with`]; a driver runs chunks of [`validate::check_functions`] in
/// parallel there).
pub fn finish_module_with(
    src: &str,
    file_name: &str,
    mut module: ast::Module,
    syntax: Vec<Diagnostic>,
    check_all: impl FnOnce(&ast::Module) -> Vec<validate::FunctionFindings>,
) -> Result<ast::Module, Vec<Diagnostic>> {
    let (mut warnings, syntax): (Vec<Diagnostic>, Vec<Diagnostic>) = syntax
        .into_iter()
        .partition(|d| d.severity == Severity::Warning);
    let mut diags =
        validate::validate_module_with(src, &module, file_name, syntax, || check_all(&module));
    warnings.extend(validate::module_warnings(src, &module, file_name));
    let valid = !diags.iter().any(Diagnostic::is_error);
    if valid {
        // Infos go with the warnings of a valid module, all in line order.
        warnings.append(&mut diags);
    }
    warnings.sort_by_key(|w| (w.line == 0, w.line));
    if valid {
        module.warnings = warnings;
        return Ok(module);
    }
    // ptxas matches operands and types before it advises: an instruction that fails there gets
    // no info (the `mma.sp` advisory); one rejected later (shape, layout, vector size) keeps it.
    let early = |d: &Diagnostic| {
        d.is_error()
            && (d.message.starts_with("Arguments mismatch")
                || d.message.starts_with("Unexpected instruction types"))
    };
    warnings.retain(|w| {
        w.severity != Severity::Info || !diags.iter().any(|d| early(d) && d.line == w.line)
    });
    Err(place_warnings(diags, warnings))
}

/// The warnings of a rejected module among its errors, as ptxas prints them: before a link-stage
/// fatal (which has no line and comes only when nothing else is wrong); after other errors, only
/// those with a line; none after a fatal error of the text itself.
fn place_warnings(mut diags: Vec<Diagnostic>, warnings: Vec<Diagnostic>) -> Vec<Diagnostic> {
    match diags.last() {
        Some(d) if d.severity == Severity::Fatal && d.line == 0 => {
            let fatal = diags.pop();
            diags.extend(warnings);
            diags.extend(fatal);
        }
        Some(d) if d.severity != Severity::Fatal => {
            diags.extend(warnings.into_iter().filter(|w| w.line != 0))
        }
        _ => {}
    }
    diags
}
