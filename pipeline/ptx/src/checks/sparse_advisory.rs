//! ptxas's advisory on `mma.sp` written without `::ordered_metadata` (ptxas 13.5 prints it as an
//! `info` on every target; both variants compile to the same instruction).

use crate::ast::{Instruction, Module, Statement};

/// `(line, advisory)` for each plain `mma.sp` of the module.
pub fn advisories(m: &Module) -> Vec<(u32, String)> {
    let plain_sp = |i: &Instruction| i.opcode() == "mma" && i.has_mod("sp");
    m.functions
        .iter()
        .flat_map(|f| &f.body)
        .filter_map(|s| match s {
            Statement::Instr(i) if plain_sp(i) => Some((
                i.line,
                "Advisory: Modifier '.sp::ordered_metadata' should be used on instruction 'mma' instead of modifier '.sp' as it is expected to have substantially reduced performance on some future architectures".to_string(),
            )),
            _ => None,
        })
        .collect()
}
