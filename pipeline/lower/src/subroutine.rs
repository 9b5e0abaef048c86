//! Recursive device functions kept as subroutines: where inlining meets a call of a function it
//! is already inlining (recursion, direct or mutual), the call becomes a call of the function's
//! code, which is emitted once after the entry's (and inlines in turn whatever it calls that is
//! not recursive).
//!
//! In the PTX tree (before lowering) three pseudo instructions stand for the convention that
//! `ptxforge_sass::subroutine` implements: `__subentry name, (in...)` where a subroutine starts
//! and its arguments arrive, `__subcall (ret...), label, (arg...)` and `__subret (out...)`. Their
//! operands are registers: each side moves its `.param` buffers (nvcc's `param0`, `retval0` and
//! the callee's parameters) to and from them with `ld.param`/`st.param` of the parameter's width,
//! so that `call_params.rs` makes the buffers registers. Parameters of 4 or 8 bytes only; a
//! subroutine may not use local memory (its stack pointer is not the entry's).

use ptxforge_ptx::ast::{self, AddrBase, Instruction, Name, Operand, StateSpace, Statement, Type};
use ptxforge_sass::ir::{Dst, Opcode, Src};

use crate::calls::{branch, instruction, scoped_params, space_name, CallSite, Inliner, Renaming};
use crate::ctx::{Ctx, LResult, LowerError};

/// The label where the code of subroutine `k` starts.
fn entry_label(k: usize) -> String {
    format!("$__sub{k}_entry")
}

/// The width in bits of a parameter passed in registers, or why it cannot be.
pub(crate) fn scalar_bits(func: &str, decl: &ast::VarDecl) -> Result<u32, String> {
    let bytes = decl.ty.size_bytes();
    if decl.space == StateSpace::Param
        && !decl.is_array
        && decl.vector == 1
        && matches!(bytes, 4 | 8)
    {
        return Ok(bytes * 8);
    }
    let what = if decl.is_array || decl.vector > 1 {
        "an array or vector".to_string()
    } else {
        format!("{bytes} bytes")
    };
    Err(format!(
        "the parameter '{}' of the recursive function '{func}' ({what}) is not supported yet",
        decl.name
    ))
}

pub(crate) fn reg_decl(name: &str, bits: u32) -> ast::RegDecl {
    ast::RegDecl {
        name: name.to_string(),
        ty: if bits == 64 { Type::B64 } else { Type::B32 },
        vector: 1,
        count: None,
        line: 0,
        span: ast::Span::default(),
        scoped: true,
    }
}

/// `ld.param.bN reg, [buffer]` or `st.param.bN [buffer], reg`.
pub(crate) fn param_move(load: bool, bits: u32, reg: &str, buffer: &str, line: u32) -> Statement {
    let ty = if bits == 64 { "b64" } else { "b32" };
    let addr = Operand::Addr {
        base: AddrBase::Symbol(Name::new(buffer)),
        offset: 0,
    };
    let r = Operand::Reg(Name::new(reg));
    let (op, ops) = if load {
        ("ld", vec![r, addr])
    } else {
        ("st", vec![addr, r])
    };
    Statement::Instr(instruction(op, &["param", ty], None, ops, line))
}

pub(crate) fn regs_operand(names: &[String]) -> Operand {
    Operand::Vector(names.iter().map(|n| Operand::Reg(Name::new(n))).collect())
}

pub(crate) fn pseudo(opcode: &str, operands: Vec<Operand>, line: u32) -> Statement {
    Statement::Instr(instruction(opcode, &[], None, operands, line))
}

impl<'m> Inliner<'m> {
    /// The number of subroutine `name`, which is emitted later if it is new.
    pub(crate) fn subroutine_number(&mut self, name: &str) -> usize {
        match self.subroutines.iter().position(|s| s == name) {
            Some(k) => k,
            None => {
                self.subroutines.push(name.to_string());
                self.subroutines.len() - 1
            }
        }
    }

    /// A recursive call: arguments from their buffers to registers, `__subcall`, results back.
    pub(crate) fn subroutine_call(
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
        let skip = Name::new(&format!("$L__sc{n}_skip"));
        let guard = ins.guard().map(|(negated, p)| (!negated, p.clone()));
        if let Some(g) = &guard {
            out.push(branch(Some(g.clone()), &skip, line));
        }
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
                let reg = format!("%__sc{n}_{what}{j}");
                self.regs.push(reg_decl(&reg, bits));
                list.push((reg, bits, buffer.as_str().to_string()));
            }
            Ok::<_, String>(list)
        };
        let args = moved(&callee.params, site.args, "a")?;
        let rets = moved(&callee.ret_params, site.rets, "r")?;
        let k = self.subroutine_number(site.target);
        for (reg, bits, buffer) in &args {
            out.push(param_move(true, *bits, reg, buffer, line));
        }
        let names = |l: &[(String, u32, String)]| l.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        out.push(pseudo(
            "__subcall",
            vec![
                Operand::Symbol(Name::new(&entry_label(k))),
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

    /// Emits the code of every subroutine called (those it calls in turn too) after `out`.
    pub(crate) fn append_subroutines(&mut self, out: &mut Vec<Statement>) {
        if self.subroutines.is_empty() {
            return;
        }
        let ends = out
            .last()
            .and_then(|s| s.as_instr())
            .is_some_and(|i| i.guard().is_none() && matches!(i.opcode(), "ret" | "exit" | "bra"));
        if !ends {
            out.push(Statement::Instr(instruction("ret", &[], None, vec![], 0)));
        }
        let mut k = 0;
        while k < self.subroutines.len() {
            let name = self.subroutines[k].clone();
            if let Err(message) = self.emit_subroutine(k, &name, out) {
                let line = self.callee(&name).map_or(0, |f| f.line);
                self.errors.push(LowerError { line, message });
            }
            k += 1;
        }
    }

    /// The code of subroutine `k` (the function `name`): `__subentry`, its parameters stored to
    /// their buffers, its body (every `ret` a branch to the end), its results loaded, `__subret`.
    pub(crate) fn emit_subroutine(
        &mut self,
        k: usize,
        name: &str,
        out: &mut Vec<Statement>,
    ) -> Result<(), String> {
        let callee = self.callee(name)?;
        let n = self.sites;
        self.sites += 1;
        let line = callee.line;
        let mut names = Renaming::new(n);
        let mut side = |decls: &[ast::VarDecl], what: &str, names: &mut Renaming| {
            let mut list = Vec::new();
            for (j, decl) in decls.iter().enumerate() {
                let bits = scalar_bits(name, decl)?;
                let buffer = format!("__sub{n}_{what}buf{j}");
                names.symbols.insert(decl.name.clone(), buffer.clone());
                self.vars.push(ast::VarDecl {
                    name: buffer.clone(),
                    ..decl.clone()
                });
                let reg = format!("%__sub{n}_{what}{j}");
                self.regs.push(reg_decl(&reg, bits));
                list.push((reg, bits, buffer));
            }
            Ok::<_, String>(list)
        };
        let ins = side(&callee.params, "in", &mut names)?;
        let outs = side(&callee.ret_params, "out", &mut names)?;
        let (body, vars) = scoped_params(callee);
        for v in &vars {
            if v.space != StateSpace::Param {
                return Err(format!(
                    "the {} variable '{}' of the recursive function '{name}' is not supported yet",
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
        for s in &body {
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
        let list = |l: &[(String, u32, String)]| l.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        let end = Name::new(&format!("$__sub{n}_return"));
        let mut copy = vec![
            Statement::Label {
                name: Name::new(&entry_label(k)),
                line,
                span: ast::Span::default(),
            },
            pseudo(
                "__subentry",
                vec![Operand::Symbol(Name::new(name)), regs_operand(&list(&ins))],
                line,
            ),
        ];
        for (reg, bits, buffer) in &ins {
            copy.push(param_move(false, *bits, reg, buffer, line));
        }
        for (j, s) in body.iter().enumerate() {
            copy.push(match s {
                Statement::Label { name, line, span } => Statement::Label {
                    name: Name::new(&names.symbol(name)),
                    line: *line,
                    span: *span,
                },
                Statement::Instr(i) if i.opcode() == "ret" => {
                    let guard = i.guard().map(|(neg, p)| (neg, Name::new(&names.reg(p))));
                    if guard.is_none() && j + 1 == body.len() {
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
            span: ast::Span::default(),
        });
        for (reg, bits, buffer) in &outs {
            copy.push(param_move(true, *bits, reg, buffer, line));
        }
        copy.push(pseudo("__subret", vec![regs_operand(&list(&outs))], line));
        let stack = std::mem::replace(&mut self.stack, vec![name.to_string()]);
        self.expand(&copy, out);
        self.stack = stack;
        Ok(())
    }
}

/// A subroutine may not reach local memory: its stack pointer is not the entry's, so the
/// frame's offsets are not its own.
pub(crate) fn check_subroutine_locals(f: &ast::Function) -> Result<(), Vec<LowerError>> {
    let Some(start) = f
        .body
        .iter()
        .position(|s| s.as_instr().is_some_and(|i| i.opcode() == "__subentry"))
    else {
        return Ok(());
    };
    let locals: Vec<&str> = f
        .vars
        .iter()
        .filter(|v| v.space == StateSpace::Local)
        .map(|v| v.name.as_str())
        .collect();
    fn names_any(o: &Operand, locals: &[&str]) -> bool {
        match o {
            Operand::Symbol(n)
            | Operand::Addr {
                base: AddrBase::Symbol(n),
                ..
            } => locals.contains(&ast::symbol_base(n)),
            Operand::Vector(v) => v.iter().any(|x| names_any(x, locals)),
            _ => false,
        }
    }
    let errors: Vec<LowerError> = f.body[start..]
        .iter()
        .filter_map(|s| s.as_instr())
        .filter(|i| i.has_mod("local") || i.operands.iter().any(|o| names_any(o, &locals)))
        .map(|i| LowerError {
            line: i.line,
            message: "local memory in a recursive function is not supported yet".into(),
        })
        .take(1)
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The registers a pseudo instruction's list operand names (one-element lists arrive as the
/// register itself).
pub(crate) fn list_regs(cx: &mut Ctx, o: Option<&Operand>) -> LResult<Vec<ptxforge_sass::ir::Reg>> {
    let items: Vec<&Operand> = match o {
        Some(Operand::Vector(v)) => v.iter().collect(),
        Some(r @ Operand::Reg(_)) => vec![r],
        _ => Vec::new(),
    };
    items
        .into_iter()
        .map(|x| match x {
            Operand::Reg(n) => cx.vreg(n),
            _ => Err("subroutine operand not a register".into()),
        })
        .collect()
}

impl Ctx<'_> {
    /// `__subentry`, `__subcall` and `__subret` (see the module's docs).
    pub(crate) fn lower_subroutine_op(&mut self, i: &Instruction) -> LResult<()> {
        match i.opcode() {
            "__subentry" => {
                let Some(Operand::Symbol(name)) = i.operands.first() else {
                    return Err("__subentry needs a name".into());
                };
                let block = self.f.blocks.len() as u32 - 1;
                self.f
                    .subroutines
                    .push(ptxforge_sass::subroutine::Subroutine {
                        name: name.to_string(),
                        block,
                        frame_size: 0,
                        saved_bytes: 0,
                    });
                let ins = list_regs(self, i.operands.get(1))?;
                for pair in ins.chunks(2) {
                    let dsts: Vec<Dst> = pair.iter().map(|r| Dst::Reg(*r)).collect();
                    self.emit(Opcode::SubArgs, &dsts, &[]);
                }
                self.reload_function_constants();
                Ok(())
            }
            "__subcall" => {
                let target = match i.operands.first() {
                    Some(Operand::Symbol(l)) => self.block_of(l)?,
                    _ => return Err("__subcall needs a label".into()),
                };
                let rets = list_regs(self, i.operands.get(1))?;
                let args = list_regs(self, i.operands.get(2))?;
                if rets.len() > 2 || args.len() > 4 {
                    return Err(format!(
                        "a recursive 'call' with {} arguments and {} results (at most 4 and 2) is not supported yet",
                        args.len(),
                        rets.len()
                    ));
                }
                let dsts: Vec<Dst> = rets.iter().map(|r| Dst::Reg(*r)).collect();
                let srcs: Vec<Src> = args.iter().map(|r| Src::reg(*r)).collect();
                self.emit(Opcode::Call { target }, &dsts, &srcs);
                Ok(())
            }
            _ => {
                let outs = list_regs(self, i.operands.first())?;
                if outs.len() > 4 {
                    return Err(
                        "a recursive function with more than 4 results is not supported yet".into(),
                    );
                }
                let mut srcs = vec![Src::NONE];
                srcs.extend(outs.iter().map(|r| Src::reg(*r)));
                self.emit(Opcode::Ret, &[], &srcs);
                Ok(())
            }
        }
    }
}

/// A call site's arguments and results against its callee's parameters: a mismatch is reported
/// as not supported (ptxas's own checks have passed by then). Shared by subroutine and extern calls.
pub(crate) fn check_arity(site: &CallSite, callee: &ast::Function) -> Result<(), String> {
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
    Ok(())
}
