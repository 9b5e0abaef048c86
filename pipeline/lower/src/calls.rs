//! Device functions (`.func`) called from an entry: each direct call is inlined before lowering
//! (the callee's body copied to the call site with its own registers, labels and locals), and
//! the `.param` buffers that carry arguments and results are then made registers or frame slots
//! (`call_params.rs`).
//!
//! ## What ptxas 13.5 does (whole-program, -O3, sm_80 and sm_90; learned from its cubins)
//! - It keeps nvcc's `__noinline__` functions as subroutines, even tiny ones: each call site is
//!   `MOV Rk, <return offset>` then `CALL.REL.NOINC <callee>`; the callee ends `RET.REL.NODEC R2`
//!   with the return address moved into the R2/R3 pair (R3 = 0). In a whole-program compile the
//!   convention is its own per program, not the ABI: arguments, results and the return address
//!   sit in whatever registers its interprocedural allocation picked (R5, R6 in, R10 out, the
//!   return address in R7, R8...), and the callees (one copy each) follow the entry's `EXIT` in
//!   the entry's own `.text.<entry>`, in ptxas's order (not the PTX's).
//! - The cubin then carries a LOCAL FUNC symbol `$<entry>$<func>` per kept function (value its
//!   offset in `.text.<entry>`, size its code), `.nv.info` EIATTR_FRAME_SIZE / MIN_STACK_SIZE /
//!   MAX_STACK_SIZE records for each function, a `.nv.callgraph` (CUDA_CALLGRAPH) section, a
//!   `.nv.rel.action` section and `.debug_frame` with its `.rel.debug_frame`; `-v` prints
//!   "Function properties for <func>" with its stack frame and spills after the entry's lines.
//!
//! ## What we do instead
//! Every call is inlined but recursive ones: the code computes the same values, but is larger
//! where a function is called from many sites. A call of a function already being inlined
//! (recursion) calls a subroutine, the function's code kept once after the entry's
//! (`subroutine.rs`). Calls of `vprintf` and `__assertfail` (declared without a body) call the
//! runtime's function through its `.nv.constant4` slot (`syscall.rs`). Indirect calls (through a
//! register and a prototype) and calls of other functions without a body (`malloc`, ...) are "not
//! supported yet" at the call's line.

use std::collections::HashMap;
use std::sync::Arc;

use ptxforge_ptx::ast::{
    self, AddrBase, Form, Instruction, Name, Operand, Operands, StateSpace, Statement, Type,
};

use crate::ctx::LowerError;

/// `func` with every call inlined, or `None` when it makes no call.
pub fn inline_calls(
    module: &ast::Module,
    func: &ast::Function,
) -> Result<Option<ast::Function>, Vec<LowerError>> {
    if !func
        .body
        .iter()
        .any(|s| s.as_instr().is_some_and(|i| i.opcode() == "call"))
    {
        return Ok(None);
    }
    let (body, vars) = scoped_params(func);
    let mut inliner = Inliner {
        module,
        sites: 0,
        regs: func.regs.clone(),
        vars,
        stack: vec![func.name.clone()],
        errors: Vec::new(),
        subroutines: Vec::new(),
    };
    let mut out_body = Vec::with_capacity(body.len());
    inliner.expand(&body, &mut out_body);
    inliner.append_subroutines(&mut out_body);
    if !inliner.errors.is_empty() {
        // A callee's error once, not once per site that inlines it.
        let mut seen = std::collections::HashSet::new();
        let mut errors = inliner.errors;
        errors.retain(|e| seen.insert((e.line, e.message.clone())));
        return Err(errors);
    }
    let mut out = ast::Function {
        regs: inliner.regs,
        vars: inliner.vars,
        body: out_body,
        ..func.clone()
    };
    crate::call_params::lower_param_buffers(&mut out)?;
    crate::subroutine::check_subroutine_locals(&out)?;
    Ok(Some(out))
}

pub(crate) struct Inliner<'m> {
    pub(crate) module: &'m ast::Module,
    /// Call sites inlined so far: the number that makes each copy's names its own.
    pub(crate) sites: u32,
    pub(crate) regs: Vec<ast::RegDecl>,
    pub(crate) vars: Vec<ast::VarDecl>,
    /// The functions being inlined, outermost first (a callee already here is recursion).
    pub(crate) stack: Vec<String>,
    pub(crate) errors: Vec<LowerError>,
    /// The recursive functions kept as subroutines (`subroutine.rs`), in order of first call,
    /// and how many of them have their code emitted.
    pub(crate) subroutines: Vec<String>,
}

/// A call's parts: results, target, arguments.
pub(crate) struct CallSite<'a> {
    pub(crate) rets: &'a [Operand],
    pub(crate) target: &'a str,
    pub(crate) args: &'a [Operand],
}

pub(crate) fn call_site(ins: &Instruction) -> Result<CallSite<'_>, String> {
    let ops = &ins.operands[..];
    let fpos = ops
        .iter()
        .position(|o| !matches!(o, Operand::Vector(_)))
        .ok_or("'call' without a target is not supported yet")?;
    fn items(o: Option<&Operand>) -> &[Operand] {
        match o {
            Some(Operand::Vector(v)) => &v[..],
            _ => &[],
        }
    }
    let target = match &ops[fpos] {
        Operand::Symbol(n) if ops.len() <= fpos + 2 => n.as_str(),
        _ => return Err("indirect 'call' (through a register) is not supported yet".into()),
    };
    Ok(CallSite {
        rets: if fpos > 0 { items(ops.first()) } else { &[] },
        target,
        args: items(ops.get(fpos + 1)),
    })
}

impl<'m> Inliner<'m> {
    pub(crate) fn expand(&mut self, body: &[Statement], out: &mut Vec<Statement>) {
        for s in body {
            match s.as_instr() {
                Some(ins) if ins.opcode() == "call" => {
                    if let Err(message) = self.inline_site(ins, out) {
                        self.errors.push(LowerError {
                            line: ins.line,
                            message,
                        });
                    }
                }
                _ => out.push(s.clone()),
            }
        }
    }

    pub(crate) fn callee(&self, name: &str) -> Result<&'m ast::Function, String> {
        let mut found = self.module.functions.iter().filter(|f| f.name == name);
        if let Some(f) = found.clone().find(|f| f.has_body) {
            if f.is_entry {
                return Err(format!("'call' of the entry '{name}' is not supported yet"));
            }
            return Ok(f);
        }
        match found.next() {
            Some(_) => Err(format!(
                "'call' of the external function '{name}' is not supported yet"
            )),
            None => Err(format!(
                "'call' of the unknown function '{name}' is not supported yet"
            )),
        }
    }

    fn inline_site(&mut self, ins: &Instruction, out: &mut Vec<Statement>) -> Result<(), String> {
        let site = call_site(ins)?;
        if let Some(decl) = crate::syscall::extern_decl(self.module, site.target) {
            return self.extern_call(ins, &site, decl, out);
        }
        if let Some(decl) = crate::linkable::linked_decl(self.module, site.target) {
            return self.extern_call(ins, &site, decl, out);
        }
        let callee = self.callee(site.target)?;
        if self.stack.iter().any(|f| f == site.target) {
            // Recursion: a call of the function's own code.
            return self.subroutine_call(ins, &site, callee, out);
        }
        if site.args.len() != callee.params.len() || site.rets.len() != callee.ret_params.len() {
            return Err(format!(
                "'call' of '{}' with {} arguments and {} results for its {} and {} is not supported yet",
                site.target,
                site.args.len(),
                site.rets.len(),
                callee.params.len(),
                callee.ret_params.len()
            ));
        }
        let n = self.sites;
        self.sites += 1;
        let mut names = Renaming::new(n);
        let line = ins.line;
        for (decl, arg) in callee
            .params
            .iter()
            .zip(site.args)
            .chain(callee.ret_params.iter().zip(site.rets))
        {
            names.bind(decl, arg)?;
        }
        let (callee_body, callee_vars) = scoped_params(callee);
        for v in &callee_vars {
            if !matches!(v.space, StateSpace::Local | StateSpace::Param) {
                return Err(format!(
                    "'call' of '{}', which declares the {} variable '{}', is not supported yet",
                    site.target,
                    space_name(v.space),
                    v.name
                ));
            }
            let renamed = names.local(&v.name);
            self.vars.push(ast::VarDecl {
                name: renamed,
                ..v.clone()
            });
        }
        for s in &callee_body {
            if let Statement::Label { name, .. } = s {
                names.local(name);
            }
        }
        for r in &callee.regs {
            self.regs.push(ast::RegDecl {
                name: names.reg(&r.name),
                ..r.clone()
            });
        }
        let end = Name::new(&format!("$L__inl{n}_return"));
        let skip = ins.guard().map(|(negated, p)| (!negated, p.clone()));
        let mut copy = Vec::with_capacity(callee.body.len() + 4);
        if let Some(g) = &skip {
            copy.push(branch(Some(g.clone()), &end, line));
        }
        let body = &callee_body;
        for (k, s) in body.iter().enumerate() {
            copy.push(match s {
                Statement::Label { name, line, span } => Statement::Label {
                    name: Name::new(&names.symbol(name)),
                    line: *line,
                    span: *span,
                },
                Statement::Instr(i) if i.opcode() == "ret" => {
                    let guard = i.guard().map(|(neg, p)| (neg, Name::new(&names.reg(p))));
                    if guard.is_none() && k + 1 == body.len() {
                        continue;
                    }
                    branch(guard, &end, i.line)
                }
                Statement::Instr(i) => Statement::Instr(names.instruction(i)),
            });
        }
        copy.push(Statement::Label {
            name: end,
            line,
            span: ins.span,
        });
        self.stack.push(site.target.to_string());
        self.expand(&copy, out);
        self.stack.pop();
        Ok(())
    }
}

pub(crate) fn space_name(s: StateSpace) -> &'static str {
    match s {
        StateSpace::Shared => ".shared",
        StateSpace::Const => ".const",
        StateSpace::Global => ".global",
        StateSpace::Local => ".local",
        StateSpace::Param => ".param",
        StateSpace::Reg => ".reg",
    }
}

/// `[@g] bra target;`
pub(crate) fn branch(guard: Option<(bool, Name)>, target: &Name, line: u32) -> Statement {
    Statement::Instr(instruction(
        "bra",
        &[],
        guard,
        vec![Operand::Symbol(target.clone())],
        line,
    ))
}

/// A new instruction `opcode.mods operands`.
pub(crate) fn instruction(
    opcode: &str,
    mods: &[&str],
    guard: Option<(bool, Name)>,
    operands: Vec<Operand>,
    line: u32,
) -> Instruction {
    Instruction {
        form: Arc::new(Form {
            opcode: Name::new(opcode),
            mods: mods.iter().map(|m| Name::new(m)).collect(),
        }),
        operands: Operands::new(guard, operands),
        line,
        span: ast::Span::default(),
    }
}

/// The names of one inlined copy: registers get a prefix of their own (`%r5` → `%__inl3_r5`, so
/// that `%r<9>` ranges stay ranges), labels and variables a suffix; the callee's `.param`
/// parameters become the caller's argument buffers.
pub(crate) struct Renaming {
    site: u32,
    pub(crate) symbols: HashMap<String, String>,
}

impl Renaming {
    pub(crate) fn new(site: u32) -> Renaming {
        Renaming {
            site,
            symbols: HashMap::new(),
        }
    }

    pub(crate) fn reg(&self, name: &str) -> String {
        format!("%__inl{}_{}", self.site, name.trim_start_matches('%'))
    }

    /// Gives the callee's label or variable `name` a name of this copy's own.
    pub(crate) fn local(&mut self, name: &str) -> String {
        let renamed = format!("{name}__inl{}", self.site);
        self.symbols.insert(name.to_string(), renamed.clone());
        renamed
    }

    /// Passes `arg` to the parameter (or result) `decl`: a `.param` parameter becomes the
    /// caller's buffer. (`.reg` parameters, which the interpreter does not run yet, are refused.)
    fn bind(&mut self, decl: &ast::VarDecl, arg: &Operand) -> Result<(), String> {
        match (decl.space, arg) {
            (StateSpace::Param, Operand::Symbol(buffer)) => {
                self.symbols
                    .insert(decl.name.clone(), buffer.as_str().to_string());
                Ok(())
            }
            _ => Err(format!(
                "passing '{}' ({} parameter, argument not a .param variable) in a 'call' is not supported yet",
                decl.name,
                space_name(decl.space)
            )),
        }
    }

    pub(crate) fn symbol(&self, name: &str) -> String {
        let base = ast::symbol_base(name);
        match self.symbols.get(base) {
            Some(new) => format!("{new}{}", &name[base.len()..]),
            None => name.to_string(),
        }
    }

    pub(crate) fn instruction(&self, i: &Instruction) -> Instruction {
        let guard = i.guard().map(|(neg, p)| (neg, Name::new(&self.reg(p))));
        let ops = i.operands.iter().map(|o| self.operand(o)).collect();
        Instruction {
            form: i.form.clone(),
            operands: Operands::new(guard, ops),
            line: i.line,
            span: i.span,
        }
    }

    fn operand(&self, o: &Operand) -> Operand {
        let reg = |n: &Name| Name::new(&self.reg(n));
        match o {
            Operand::Reg(n) => Operand::Reg(reg(n)),
            Operand::NotReg(n) => Operand::NotReg(reg(n)),
            Operand::PredPair(p) => Operand::PredPair(Box::new((reg(&p.0), reg(&p.1)))),
            Operand::Vector(v) => Operand::Vector(v.iter().map(|x| self.operand(x)).collect()),
            Operand::Symbol(n) => Operand::Symbol(Name::new(&self.symbol(n))),
            Operand::Addr { base, offset } => Operand::Addr {
                base: match base {
                    AddrBase::Reg(n) => AddrBase::Reg(reg(n)),
                    AddrBase::Symbol(n) => AddrBase::Symbol(Name::new(&self.symbol(n))),
                    AddrBase::None => AddrBase::None,
                },
                offset: *offset,
            },
            other => other.clone(),
        }
    }
}

/// The `mov` type that copies a value of type `t` bit for bit.
pub(crate) fn mov_type(t: Type) -> &'static str {
    match t.size_bytes() {
        2 => "b16",
        8 => "b64",
        _ => "b32",
    }
}

/// `f`'s body and variables with each `.param` variable declared in the body given a name of its
/// own declaration (`param0` → `param0__d3`): the tree keeps no `{ }` scopes and nvcc declares
/// `param0` in every call's block, so each use names the latest declaration before it (by
/// position in the text), as the block it lies in does. Distinct buffers per call keep the
/// registers they become written once, which copy propagation then removes.
pub(crate) fn scoped_params(f: &ast::Function) -> (Vec<Statement>, Vec<ast::VarDecl>) {
    let mut decls: HashMap<&str, Vec<(u32, String)>> = HashMap::new();
    let mut vars = f.vars.clone();
    for (k, v) in vars.iter_mut().enumerate() {
        if v.space == StateSpace::Param {
            let renamed = format!("{}__d{k}", v.name);
            let list = decls.entry(f.vars[k].name.as_str()).or_default();
            list.push((v.span.start, renamed.clone()));
            v.name = renamed;
        }
    }
    if decls.is_empty() {
        return (f.body.clone(), vars);
    }
    let latest = |name: &str, at: u32| -> Option<String> {
        let list = decls.get(name)?;
        let before = list.iter().rev().find(|(start, _)| *start <= at);
        Some(before.unwrap_or(&list[0]).1.clone())
    };
    let body = f
        .body
        .iter()
        .map(|s| match s {
            Statement::Instr(i) if i.operands.iter().any(|o| names_symbol(o)) => {
                let at = i.span.start;
                let ops = i
                    .operands
                    .iter()
                    .map(|o| rename_symbols(o, &|n| latest(n, at)))
                    .collect();
                let guard = i.guard().map(|(neg, p)| (neg, p.clone()));
                Statement::Instr(Instruction {
                    form: i.form.clone(),
                    operands: Operands::new(guard, ops),
                    line: i.line,
                    span: i.span,
                })
            }
            s => s.clone(),
        })
        .collect();
    (body, vars)
}

fn names_symbol(o: &Operand) -> bool {
    match o {
        Operand::Symbol(_)
        | Operand::Addr {
            base: AddrBase::Symbol(_),
            ..
        } => true,
        Operand::Vector(v) => v.iter().any(names_symbol),
        _ => false,
    }
}

/// `o` with each symbol whose base `rename` maps renamed (its `+offset` kept).
fn rename_symbols(o: &Operand, rename: &dyn Fn(&str) -> Option<String>) -> Operand {
    let new = |n: &Name| {
        let base = ast::symbol_base(n);
        rename(base).map_or_else(
            || n.clone(),
            |r| Name::new(&format!("{r}{}", &n[base.len()..])),
        )
    };
    match o {
        Operand::Symbol(n) => Operand::Symbol(new(n)),
        Operand::Addr {
            base: AddrBase::Symbol(n),
            offset,
        } => Operand::Addr {
            base: AddrBase::Symbol(new(n)),
            offset: *offset,
        },
        Operand::Vector(v) => {
            Operand::Vector(v.iter().map(|x| rename_symbols(x, rename)).collect())
        }
        other => other.clone(),
    }
}
