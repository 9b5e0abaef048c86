//! Name resolution after parsing: bare identifiers that name declared registers become registers.

use crate::ast::{AddrBase, Function, Operand, RegTable, Statement};

/// PTX allows registers without `%` (`.reg .pred p;`); the parser can't tell them from labels.
pub fn register_symbols(f: &mut Function) {
    let regs = f.regs.clone();
    let table = RegTable::new(&regs);
    for s in &mut f.body {
        if let Statement::Instr(i) = s {
            i.operands.iter_mut().for_each(|o| resolve_operand(o, &table));
        }
    }
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
