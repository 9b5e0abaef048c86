//! Module `.global` variables: each has an 8-byte slot in constant bank 4 that the cubin writer
//! relocates (R_CUDA_64) to the variable's address, so `mov.u64 %rd1, table` reads
//! `c[0x4][8 * slot]`, as ptxas compiles it. Slots follow declaration order; the writer lays the
//! variables out from the same list ([`global_variables`]).

use ptxforge_ptx::ast::{self, StateSpace};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// The constant bank holding the variables' addresses.
pub const ADDRESS_BANK: u8 = 4;

/// The module's `.global` variables with storage (an `.extern` array has no length; an extern
/// scalar cannot reach a cubin, as its reference is a link-stage error), in slot order.
pub fn global_variables(module: &ast::Module) -> Vec<&ast::VarDecl> {
    module
        .globals
        .iter()
        .filter(|v| v.space == StateSpace::Global && v.array_len.is_some())
        .collect()
}

/// A variable's bytes for the cubin: its size, alignment and initializer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleGlobal {
    pub name: String,
    pub size: u64,
    pub align: u64,
    /// The initializer's bytes, `None` without an initializer.
    pub init: Option<Vec<u8>>,
}

/// [`global_variables`] as the cubin writer wants them.
pub fn module_globals(module: &ast::Module) -> Vec<ModuleGlobal> {
    global_variables(module)
        .into_iter()
        .map(module_global)
        .collect()
}

/// One module variable's bytes for the cubin.
pub(crate) fn module_global(v: &ast::VarDecl) -> ModuleGlobal {
    let size = v.size_bytes();
    let init = (!v.init.is_empty()).then(|| initializer_bytes(v, size));
    ModuleGlobal {
        name: v.name.clone(),
        size,
        align: v.alignment().max(1) as u64,
        init,
    }
}

/// The initializer's values, each the element type's width, little-endian, zero-padded to `size`.
fn initializer_bytes(v: &ast::VarDecl, size: u64) -> Vec<u8> {
    let width = v.ty.size_bytes() as usize;
    let mut bytes = vec![0u8; size as usize];
    for (k, value) in v.init.iter().enumerate() {
        let at = k * width;
        if at + width > bytes.len() {
            break;
        }
        bytes[at..at + width].copy_from_slice(&(*value as u128).to_le_bytes()[..width]);
    }
    bytes
}

impl Ctx<'_> {
    /// The slot of module variable `name`, if it is one.
    pub fn global_slot(&self, name: &str) -> Option<u32> {
        global_variables(self.module())
            .iter()
            .position(|v| v.name == name)
            .map(|n| n as u32)
    }

    /// The two halves of a module variable's address, read from its constant-bank-4 slot: the
    /// bank operands themselves before sm_90 (ptxas folds them into their users), an LDC.64 from
    /// sm_90 on.
    pub fn global_address(&mut self, slot: u32) -> LResult<(Src, Src)> {
        let offset = u16::try_from(8 * slot).map_err(|_| "too many module variables")?;
        if self.sm.num < 90 {
            return Ok((
                Src::cbuf(ADDRESS_BANK, offset),
                Src::cbuf(ADDRESS_BANK, offset + 4),
            ));
        }
        let t = self.temp64();
        self.emit(
            Opcode::Ldc { wide: true },
            &[Dst::Reg(t)],
            &[Src::cbuf(ADDRESS_BANK, offset)],
        );
        Ok((Src::reg(t.part(0)), Src::reg(t.part(1))))
    }
}
