//! Constant-bank folding: a register loaded by `MOV r, c[b][o]` and never written again is read
//! straight from the constant bank in the one operand slot that accepts it, as ptxas does
//! (`IADD3 R6, P0, R10, c[0x0][0x170], RZ`). Commutative operations swap operands to reach that
//! slot. The MOVs left unused are then removed by dead-code elimination.

use ptxforge_sass::fast_hash::FastMap as HashMap;

use ptxforge_sass::ir::*;

/// Folds single-definition constant-bank loads into the B slot of the instructions that read them.
pub fn fold_constant_bank(f: &mut Function) {
    let consts = constant_loads(f);
    if consts.is_empty() {
        return;
    }
    let lookup = |s: &Src| -> Option<Src> {
        let r = s.as_reg()?;
        let (bank, offset) = *consts.get(&(r.idx, r.comp))?;
        (r.comps == 1).then_some(Src {
            val: SrcVal::CBuf { bank, offset },
            neg: s.neg,
            abs: s.abs,
        })
    };
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            fold_one(i, &lookup);
        }
    }
}

/// `(vreg, part) -> c[bank][offset]` for parts written exactly once, by an unguarded MOV from a cbuf.
fn constant_loads(f: &Function) -> HashMap<(u32, u8), (u8, u16)> {
    let mut writes: HashMap<(u32, u8), u32> = HashMap::default();
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                for c in r.comp..r.comp + r.comps {
                    *writes.entry((r.idx, c)).or_default() += 1;
                }
            }
        });
    }
    let mut consts = HashMap::default();
    for i in f.instrs() {
        if let (Opcode::Mov, Dst::Reg(d), SrcVal::CBuf { bank, offset }) =
            (i.op, i.dsts[0], i.srcs[0].val)
        {
            if i.guard == Src::TRUE && d.comps == 1 && writes.get(&(d.idx, d.comp)) == Some(&1) {
                consts.insert((d.idx, d.comp), (bank, offset));
            }
        }
    }
    consts
}

fn is_plain_reg(s: &Src) -> bool {
    matches!(s.val, SrcVal::Reg(_) | SrcVal::Zero)
}

/// Folds into slot 1 (B) when the other immediate-capable slot (C) holds a register.
fn fold_one(i: &mut Instr, lookup: &impl Fn(&Src) -> Option<Src>) {
    let commutative = matches!(
        i.op,
        Opcode::Iadd3 { .. }
            | Opcode::Imad {
                mode: ImadMode::Lo | ImadMode::Hi,
                ..
            }
            | Opcode::Fmul { .. }
            | Opcode::Ffma { .. }
    );
    let foldable = commutative
        || matches!(
            i.op,
            Opcode::Isetp { .. }
                | Opcode::Fsetp { .. }
                | Opcode::Sel
                | Opcode::Lop3 { .. }
                | Opcode::Shf { .. }
        );
    let c_free = match i.op {
        Opcode::Iadd3 { .. }
        | Opcode::Imad { .. }
        | Opcode::Ffma { .. }
        | Opcode::Lop3 { .. }
        | Opcode::Shf { .. } => is_plain_reg(&i.srcs[2]),
        _ => true,
    };
    if !foldable || !c_free || !is_plain_reg(&i.srcs[1]) || !is_plain_reg(&i.srcs[0]) {
        return;
    }
    if let Some(c) = lookup(&i.srcs[1]) {
        i.srcs[1] = c;
    } else if commutative && !i.srcs[0].neg && !i.srcs[1].neg {
        if let Some(c) = lookup(&i.srcs[0]) {
            i.srcs[0] = i.srcs[1];
            i.srcs[1] = c;
        }
    }
}
