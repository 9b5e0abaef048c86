//! The PTX front end: lexing, parsing to an AST with source spans, and ptxas-style diagnostics.
