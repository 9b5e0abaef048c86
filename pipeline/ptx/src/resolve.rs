//! Name resolution after parsing: bare identifiers that name declared registers become registers.

use crate::ast::{zero_padded_number, AddrBase, Function, Name, Operand, RegTable, Statement};

/// PTX allows registers without `%` (`.reg .pred p;`); the parser can't tell them from labels.
/// Registers declared with `%` can't be bare identifiers, so a function whose registers all start
/// with `%` (nvcc's output) is left untouched without a walk over its body.
pub fn register_symbols(f: &mut Function) {
    if f.regs.iter().all(|r| r.name.starts_with('%')) {
        return;
    }
    let regs = std::mem::take(&mut f.regs);
    let table = RegTable::new(&regs);
    for s in &mut f.body {
        if let Statement::Instr(i) = s {
            i.operands.iter_mut().for_each(|o| resolve_operand(o, &table));
        }
    }
    drop(table);
    f.regs = regs;
}

fn resolve_operand(o: &mut Operand, table: &RegTable) {
    match o {
        Operand::Symbol(s) if table.lookup(s).is_some() => *o = Operand::Reg(std::mem::take(s)),
        Operand::Addr { base, .. } => {
            if let AddrBase::Symbol(s) = base {
                if table.lookup(s).is_some() {
                    *base = AddrBase::Reg(std::mem::take(s));
                }
            }
        }
        Operand::Vector(v) => v.iter_mut().for_each(|x| resolve_operand(x, table)),
        _ => {}
    }
}

/// Renames zero-padded members of register ranges (`%r01` of `%r<4>`) to their plain names
/// (`%r1`), as ptxas reads them, so later stages see one name per register.
pub fn unpad_register_numbers(f: &mut Function) {
    let regs = std::mem::take(&mut f.regs);
    let table = RegTable::new(&regs);
    let unpad = |name: &mut Name| {
        if table.is_exact(name) || table.lookup(name).is_none() {
            return;
        }
        if let Some(plain) = zero_padded_number(name) {
            *name = Name::from(plain);
        }
    };
    for s in &mut f.body {
        if let Statement::Instr(i) = s {
            i.operands.iter_mut().for_each(|o| unpad_operand(o, &unpad));
        }
    }
    drop(table);
    f.regs = regs;
}

fn unpad_operand(o: &mut Operand, unpad: &impl Fn(&mut Name)) {
    match o {
        Operand::Reg(n) | Operand::NotReg(n) => unpad(n),
        Operand::PredPair(pair) => {
            unpad(&mut pair.0);
            unpad(&mut pair.1);
        }
        Operand::Addr { base: AddrBase::Reg(n), .. } => unpad(n),
        Operand::Vector(v) => v.iter_mut().for_each(|x| unpad_operand(x, unpad)),
        _ => {}
    }
}
