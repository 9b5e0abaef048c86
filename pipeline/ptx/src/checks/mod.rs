//! Validating a parsed module as ptxas does: the module's directives and declarations, each
//! function's instructions and operands, and the diagnostics in ptxas's order and wording.

pub(crate) mod bounds;
pub mod declarations;
pub mod forms;
pub mod instructions;
pub(crate) mod mods;
pub mod module;
pub mod order;
pub mod resolve;
pub mod scopes;
pub mod sparse_advisory;
pub mod typing;
pub mod validate;
pub(crate) mod vectors;
