//! The PTX front end: lexing, parsing to an AST with source spans, and ptxas-style diagnostics.

pub mod ast;
pub mod diag;
pub mod lexer;
pub mod parser;
pub mod resolve;
pub mod validate;

pub use diag::{Diagnostic, Severity};

/// Parses and validates a module; `Err` holds every diagnostic found (up to a cap).
pub fn parse_module(src: &str, file_name: &str) -> Result<ast::Module, Vec<Diagnostic>> {
    let mut p = parser::Parser::new(src, file_name);
    let mut module = p.parse_module();
    for f in &mut module.functions {
        resolve::register_symbols(f);
    }
    let mut diags = std::mem::take(&mut p.diags);
    if diags.is_empty() {
        for f in module.functions.iter().filter(|f| f.has_body) {
            validate::validate_function(f, &module, file_name, &mut diags);
        }
    }
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(diags)
    }
}
