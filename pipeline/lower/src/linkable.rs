//! What `-c` (relocatable objects, `nvcc -rdc=true`) asks of lowering: calls of functions defined
//! in another object (`.extern .func` without a body here) are left to the linker, and each
//! `.visible` device function is compiled as code of its own that others may call.
//!
//! A linked call is lowered as `syscall.rs` lowers `vprintf` (the pseudo instruction
//! `__extcall`, arguments and results through registers) into a `CallAbs` whose slot is
//! `ptxforge_sass::linked_call::LINKED_SLOT` and whose extern number indexes
//! [`linked_functions`]. A device function is the subroutine `subroutine.rs` makes of it for
//! recursion, alone from the first block: `__subentry`, its body, `__subret`; the back end
//! gives it ptxas's ABI (`ptxforge_sass::linked_call`).

use ptxforge_ptx::ast::{self, Instruction, Statement};
use ptxforge_sass::ir::{Dst, Opcode, Src};

use crate::calls::Inliner;
use crate::ctx::{Ctx, LResult, LowerError, LoweredKernel};
use crate::subroutine::list_regs;

/// The declaration of `name` when it is a function without a body in this module that is not
/// one of the runtime's (`syscall::SYSCALLS`): a call of it is left to the linker. (Without
/// `-c` the front end has refused such a module: "Unresolved extern function".)
pub(crate) fn linked_decl<'m>(module: &'m ast::Module, name: &str) -> Option<&'m ast::Function> {
    // The runtime's functions: `malloc` and `free` are not compiled yet (no relocation of ours
    // may name them in an executable cubin).
    if crate::syscall::SYSCALLS.contains(&name)
        || matches!(name, "malloc" | "free")
        || module
            .functions
            .iter()
            .any(|f| f.name == name && (f.has_body || f.is_entry))
    {
        return None;
    }
    module.functions.iter().find(|f| f.name == name)
}

/// The functions the module calls that the linker resolves, in declaration order: the extern
/// numbers of linked calls.
pub fn linked_functions(module: &ast::Module) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in &module.functions {
        if linked_decl(module, &f.name).is_some() && !out.contains(&f.name) {
            out.push(f.name.clone());
        }
    }
    out
}

impl Ctx<'_> {
    /// `__extcall name, (ret...), (arg...)` of a function the linker resolves.
    pub(crate) fn lower_linked_call(&mut self, name: &str, i: &Instruction) -> LResult<()> {
        let ext = linked_functions(self.module())
            .iter()
            .position(|n| n == name)
            .ok_or("an external function that is neither the runtime's nor linked")?;
        let rets = list_regs(self, i.operands.get(1))?;
        let args = list_regs(self, i.operands.get(2))?;
        if rets.len() > 2 || args.len() > 5 {
            return Err(format!(
                "a 'call' of '{name}' with {} arguments and {} results is not supported yet",
                args.len(),
                rets.len()
            ));
        }
        let dsts: Vec<Dst> = rets.iter().map(|r| Dst::Reg(*r)).collect();
        let srcs: Vec<Src> = args.iter().map(|r| Src::reg(*r)).collect();
        self.emit(
            Opcode::CallAbs {
                slot: ptxforge_sass::linked_call::LINKED_SLOT,
                ext: u16::try_from(ext).map_err(|_| "too many external functions")?,
            },
            &dsts,
            &srcs,
        );
        self.reload_function_constants();
        Ok(())
    }
}

/// Lowers the device function `func` as code of its own (see the module's docs).
pub fn lower_device_function(
    module: &ast::Module,
    func: &ast::Function,
    sm: ptxforge_sass::arch::Sm,
) -> Result<LoweredKernel, Vec<LowerError>> {
    let fail = |message: String| {
        vec![LowerError {
            line: func.line,
            message,
        }]
    };
    if !func.has_body || func.is_entry {
        return Err(fail(format!("'{}' is not a device function", func.name)));
    }
    let mut inliner = Inliner {
        module,
        sites: 0,
        regs: Vec::new(),
        vars: Vec::new(),
        stack: Vec::new(),
        errors: Vec::new(),
        subroutines: Vec::new(),
    };
    let k = inliner.subroutine_number(&func.name);
    let mut body = Vec::new();
    if let Err(message) = inliner.emit_subroutine(k, &func.name, &mut body) {
        return Err(fail(message));
    }
    if !inliner.errors.is_empty() {
        let mut seen = std::collections::HashSet::new();
        let mut errors = inliner.errors;
        errors.retain(|e| seen.insert((e.line, e.message.clone())));
        return Err(errors);
    }
    if inliner.subroutines.len() > 1 || calls_itself(&body) {
        return Err(fail(format!(
            "recursion in the device function '{}' compiled with -c is not supported yet",
            func.name
        )));
    }
    let mut own = ast::Function {
        regs: inliner.regs,
        vars: inliner.vars,
        body,
        params: Vec::new(),
        ret_params: Vec::new(),
        ..func.clone()
    };
    crate::call_params::lower_param_buffers(&mut own)?;
    crate::subroutine::check_subroutine_locals(&own)?;
    let mut cx = Ctx::new(module, &own, sm);
    cx.lower_body();
    let mut kernel = cx.finish()?;
    crate::warp::converge_warp_collectives(&mut kernel.func, sm);
    Ok(kernel)
}

/// Whether the code makes a subroutine call (of itself: the only subroutine it has).
fn calls_itself(body: &[Statement]) -> bool {
    body.iter()
        .filter_map(Statement::as_instr)
        .any(|i| i.opcode() == "__subcall")
}
