//! Machine-independent clean-ups on virtual-register IR: dead-code elimination of pure results.

use ptxforge_sass::ir::*;

/// Removes instructions whose only effect is a register result nobody reads. Runs to a fixed point.
pub fn optimize(f: &mut Function) {
    loop {
        let used = used_vregs(f);
        let before = f.num_instrs();
        for b in &mut f.blocks {
            b.instrs.retain(|i| !is_dead(i, &used));
        }
        if f.num_instrs() == before {
            return;
        }
    }
}

fn used_vregs(f: &Function) -> Vec<bool> {
    let mut used = vec![false; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Read {
                used[r.idx as usize] = true;
            }
        });
    }
    used
}

/// Pure instructions (no memory, control or barrier effect) whose destinations are all unused.
fn is_dead(i: &Instr, used: &[bool]) -> bool {
    let pure = !matches!(
        i.op,
        Opcode::Stg { .. } | Opcode::Sts { .. } | Opcode::Bra { .. } | Opcode::Exit | Opcode::BarSync { .. } | Opcode::Nop
    );
    let mut any_dst = false;
    let mut all_unused = true;
    for d in &i.dsts {
        if let Dst::Reg(r) = d {
            any_dst = true;
            all_unused &= !used[r.idx as usize];
        }
    }
    pure && any_dst && all_unused
}
