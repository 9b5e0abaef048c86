//! Calls of the external functions the CUDA runtime provides (`vprintf`, what `printf` compiles
//! to, and `__assertfail`, what a failed `assert` calls): as ptxas compiles them, a call through
//! the function's address in a `.nv.constant4` slot (after the module's `.global` variables' slots)
//! with the ABI's registers (`ptxforge_sass::extern_call`).
//!
//! Before lowering, the call becomes the pseudo instruction `__extcall name, (ret...), (arg...)`
//! whose operands are registers, as `subroutine.rs` does for recursive calls: the `.param`
//! buffers are moved to and from them with `ld.param`/`st.param` of the parameter's width.

use crate::subroutine::check_arity;
use ptxforge_ptx::ast::{self, Instruction, Name, Operand, Statement};
use ptxforge_sass::ir::{Dst, Opcode, Src};

use crate::calls::{branch, CallSite, Inliner};
use crate::ctx::{Ctx, LResult};
use crate::subroutine::{list_regs, param_move, pseudo, reg_decl, regs_operand, scalar_bits};

/// The external functions compiled as calls.
pub const SYSCALLS: [&str; 2] = ["vprintf", "__assertfail"];

/// The declaration of `name` when it is one of [`SYSCALLS`] declared without a body.
pub(crate) fn extern_decl<'m>(module: &'m ast::Module, name: &str) -> Option<&'m ast::Function> {
    if !SYSCALLS.contains(&name)
        || module
            .functions
            .iter()
            .any(|f| f.name == name && f.has_body)
    {
        return None;
    }
    module.functions.iter().find(|f| f.name == name)
}

/// Whether some function of `module` calls `name`.
fn called(module: &ast::Module, name: &str) -> bool {
    module.functions.iter().any(|f| {
        f.body.iter().filter_map(|s| s.as_instr()).any(|i| {
            i.opcode() == "call"
                && i.operands
                    .iter()
                    .any(|o| matches!(o, Operand::Symbol(n) if n.as_str() == name))
        })
    })
}

/// The external functions the module calls, in declaration order: their addresses take the
/// `.nv.constant4` slots after the `.global` variables'.
pub fn extern_functions(module: &ast::Module) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in &module.functions {
        if extern_decl(module, &f.name).is_some()
            && !out.contains(&f.name)
            && called(module, &f.name)
        {
            out.push(f.name.clone());
        }
    }
    out
}

impl<'m> Inliner<'m> {
    /// A call of an external function: arguments from their buffers to registers, `__extcall`,
    /// results back (a guarded call is branched around).
    pub(crate) fn extern_call(
        &mut self,
        ins: &Instruction,
        site: &CallSite,
        callee: &ast::Function,
        out: &mut Vec<Statement>,
    ) -> Result<(), String> {
        check_arity(site, callee)?;
        let n = self.sites;
        self.sites += 1;
        let line = ins.line;
        let skip = Name::new(&format!("$L__ec{n}_skip"));
        let guard = ins.guard().map(|(negated, p)| (!negated, p.clone()));
        let mut moved = |decls: &[ast::VarDecl], ops: &[Operand], what: &str| {
            let mut list = Vec::new();
            for (j, (decl, op)) in decls.iter().zip(ops).enumerate() {
                let bits = scalar_bits(site.target, decl)?;
                let Operand::Symbol(buffer) = op else {
                    return Err(format!(
                        "passing '{}' (argument not a .param variable) in a 'call' is not supported yet",
                        decl.name
                    ));
                };
                let reg = format!("%__ec{n}_{what}{j}");
                self.regs.push(reg_decl(&reg, bits));
                list.push((reg, bits, buffer.as_str().to_string()));
            }
            Ok::<_, String>(list)
        };
        let args = moved(&callee.params, site.args, "a")?;
        let rets = moved(&callee.ret_params, site.rets, "r")?;
        if let Some(g) = &guard {
            out.push(branch(Some(g.clone()), &skip, line));
        }
        for (reg, bits, buffer) in &args {
            out.push(param_move(true, *bits, reg, buffer, line));
        }
        let names = |l: &[(String, u32, String)]| l.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        out.push(pseudo(
            "__extcall",
            vec![
                Operand::Symbol(Name::new(site.target)),
                regs_operand(&names(&rets)),
                regs_operand(&names(&args)),
            ],
            line,
        ));
        for (reg, bits, buffer) in &rets {
            out.push(param_move(false, *bits, reg, buffer, line));
        }
        if guard.is_some() {
            out.push(Statement::Label {
                name: skip,
                line,
                span: ins.span,
            });
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// `__extcall name, (ret...), (arg...)`: a `CallAbs` through the function's slot; the
    /// function-wide uniform constants are loaded again after it (the callee may overwrite them).
    pub(crate) fn lower_extern_call(&mut self, i: &Instruction) -> LResult<()> {
        let Some(Operand::Symbol(name)) = i.operands.first() else {
            return Err("__extcall needs a function".into());
        };
        let externs = extern_functions(self.module());
        let Some(ext) = externs.iter().position(|n| n == name.as_str()) else {
            return self.lower_linked_call(name.as_str(), i);
        };
        let globals = crate::globals::global_variables(self.module()).len();
        let rets = list_regs(self, i.operands.get(1))?;
        let args = list_regs(self, i.operands.get(2))?;
        if rets.len() > 2 || args.len() > 5 {
            return Err(format!(
                "a 'call' of '{name}' with {} arguments and {} results is not supported yet",
                args.len(),
                rets.len()
            ));
        }
        let slot = u16::try_from(globals + ext).map_err(|_| "too many module variables")?;
        let dsts: Vec<Dst> = rets.iter().map(|r| Dst::Reg(*r)).collect();
        let srcs: Vec<Src> = args.iter().map(|r| Src::reg(*r)).collect();
        self.emit(
            Opcode::CallAbs {
                slot,
                ext: ext as u16,
            },
            &dsts,
            &srcs,
        );
        self.reload_function_constants();
        Ok(())
    }
}
