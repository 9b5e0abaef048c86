//! The instruction tables as data: per opcode, the instruction types it allows, the shape of its
//! operands and the `.target`/`.version` its features need. The checks in `checks/` read these
//! tables, so covering more of the ISA means adding rows, not code.
//!
//! - `ops.rs`: the opcode table (`OPS`) and its type sets;
//! - `requirements.rs`: what needs a newer `.target` or `.version`;
//! - `modifiers.rs`: rounding modifiers, the known modifier words, state spaces;
//! - `forms.rs`: the families that come in forms (`FORMS`, `ARCH_SPECIFIC`, `FORM_MODIFIERS`);
//! - `mma.rs`: the `mma` and `wgmma` rows;
//! - `compound.rs`: opcodes read with their first modifiers as one token;
//! - `wmma.rs`: the register fragments of `wmma` (which lane holds which matrix element).

mod compound;
mod forms;
mod mma;
mod modifiers;
mod ops;
mod requirements;
mod wmma;

pub use compound::*;
pub use forms::*;
pub use mma::*;
pub use modifiers::*;
pub use ops::*;
pub use requirements::*;
pub use wmma::*;
