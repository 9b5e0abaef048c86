//! The PTX front end: lexing, parsing to an AST with source spans, and ptxas-style diagnostics.

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
