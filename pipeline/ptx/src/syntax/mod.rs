//! Reading PTX text: the lexer, the parser (with its byte-level fast path and the parallel
//! section reader), and the names and instruction forms the parser interns.

pub(crate) mod fast_path;
pub(crate) mod forms;
pub mod lexer;
pub mod name;
pub mod parser;
pub mod sections;
pub(crate) mod wide;
