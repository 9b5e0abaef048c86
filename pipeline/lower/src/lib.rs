//! Lowering of parsed PTX functions to SASS machine IR with virtual registers.
//!
//! [`lower_function`] walks the PTX body once: labels and branches cut blocks, and each PTX
//! instruction becomes a short sequence of SASS instructions (`int.rs`, `float.rs`, `mem.rs`,
//! `control.rs`). Register views (`Reg::part`) name the halves of 64-bit values.

mod async_copy;
mod atomic;
mod bits;
mod convert;
mod ctx;
mod divergence;
mod divide;
mod double;
mod float;
mod fold;
mod globals;
mod half;
mod int;
mod local;
mod mem;
mod opt;
mod pack;
mod param_addr;
mod planted;
mod shared_layout;
mod shared_window;
mod sqrt;
mod warp;

pub use ctx::{LowerError, LoweredKernel, ParamLayout};
pub use globals::{global_variables as global_variable_decls, module_globals, ModuleGlobal};
pub use opt::optimize;

use ptxforge_ptx::ast;
use ptxforge_sass::arch::Sm;

/// Lowers one `.entry` to machine IR (virtual registers, blocks in layout order).
pub fn lower_function(
    module: &ast::Module,
    func: &ast::Function,
    sm: Sm,
) -> Result<LoweredKernel, Vec<LowerError>> {
    if !func.is_entry {
        return Err(vec![LowerError {
            line: func.line,
            message: "device functions (.func) are not supported yet".into(),
        }]);
    }
    let mut cx = ctx::Ctx::new(module, func, sm);
    cx.lower_body();
    let mut kernel = cx.finish()?;
    warp::converge_warp_collectives(&mut kernel.func, sm);
    Ok(kernel)
}
