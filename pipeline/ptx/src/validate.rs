//! Semantic checks after parsing: known opcodes, declared registers, defined labels.

use std::collections::HashSet;

use crate::ast::*;
use crate::diag::Diagnostic;

/// Every PTX ISA opcode name (through PTX 9.x); anything else is "Not a name of any known instruction".
const OPCODES: &[&str] = &[
    "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier", "bfe", "bfi",
    "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call", "clusterlaunchcontrol", "clz", "cnot", "copysign",
    "cos", "cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence",
    "fma", "fns", "getctarank", "griddepcontrol", "isspacep", "istypeof", "ld", "ldmatrix", "ldu", "lg2", "lop3",
    "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min", "mma", "mov", "movmatrix",
    "mul", "mul24", "multimem", "nanosleep", "neg", "not", "or", "pmevent", "popc", "prefetch", "prefetchu",
    "prmt", "rcp", "red", "redux", "rem", "ret", "rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf",
    "shfl", "shl", "shr", "sin", "slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc",
    "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap",
    "txq", "vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax",
    "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr", "vsub",
    "vsub2", "vsub4", "wgmma", "wmma", "xor", "st.async", "red.async", "cp.async", "ex2", "tensormap",
];

/// Checks one function; diagnostics are appended in line order per kind.
pub fn validate_function(f: &Function, module: &Module, file: &str, diags: &mut Vec<Diagnostic>) {
    let regs = RegTable::new(&f.regs);
    let labels: HashSet<&str> = f
        .body
        .iter()
        .filter_map(|s| match s {
            Statement::Label { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let symbols: HashSet<&str> = f
        .params
        .iter()
        .chain(f.vars.iter())
        .chain(module.globals.iter())
        .map(|v| v.name.as_str())
        .chain(module.functions.iter().map(|g| g.name.as_str()))
        .collect();
    check_duplicate_regs(f, file, diags);
    for s in &f.body {
        if let Statement::Instr(i) = s {
            check_instruction(i, &regs, &labels, &symbols, file, diags);
        }
    }
}

fn check_duplicate_regs(f: &Function, file: &str, diags: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for d in f.regs.iter().filter(|d| !d.scoped) {
        if !seen.insert(d.name.as_str()) {
            diags.push(Diagnostic::new(file, d.line, format!("Duplicate definition of symbol '{}'", d.name), false));
        }
    }
}

fn check_instruction(
    i: &Instruction,
    regs: &RegTable,
    labels: &HashSet<&str>,
    symbols: &HashSet<&str>,
    file: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if !OPCODES.contains(&i.opcode.as_str()) {
        diags.push(Diagnostic::new(file, i.line, format!("Not a name of any known instruction: '{}'", i.opcode), false));
        return;
    }
    let mut unknown = Vec::new();
    if let Some((_, p)) = &i.guard {
        if regs.lookup(p).is_none() {
            unknown.push(p.clone());
        }
    }
    for op in &i.operands {
        collect_unknown(op, regs, labels, symbols, &mut unknown);
    }
    if !unknown.is_empty() {
        diags.push(Diagnostic::new(file, i.line, format!("Arguments mismatch for instruction '{}'", i.opcode), false));
        for u in unknown {
            diags.push(Diagnostic::new(file, i.line, format!("Unknown symbol '{u}'"), false));
        }
    }
}

fn collect_unknown(op: &Operand, regs: &RegTable, labels: &HashSet<&str>, symbols: &HashSet<&str>, out: &mut Vec<String>) {
    let mut reg = |name: &str| {
        if regs.lookup(name).is_none() {
            out.push(name.to_string());
        }
    };
    match op {
        Operand::Reg(r) | Operand::NotReg(r) => reg(r),
        Operand::PredPair(a, b) => {
            reg(a);
            reg(b);
        }
        Operand::Addr { base: AddrBase::Reg(r), .. } => reg(r),
        Operand::Addr { base: AddrBase::Symbol(s), .. } | Operand::Symbol(s) => {
            if !labels.contains(s.as_str()) && !symbols.contains(s.as_str()) && !s.starts_with("__") {
                out.push(s.clone());
            }
        }
        Operand::Vector(v) => v.iter().for_each(|o| collect_unknown(o, regs, labels, symbols, out)),
        _ => {}
    }
}
