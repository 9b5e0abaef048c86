//! NOT folding: `LOP3.LUT t, a, RZ, RZ, 0xf, !PT` read once, by an `IADD3.X` later in the same
//! block (with `a` unchanged since), becomes that IADD3.X's `~a` operand, as ptxas writes the high
//! word of a 64-bit subtract or negation (`IADD3.X R1, R3, ~R5, RZ, P0, !PT`: in `.X` form a
//! negated operand is its bitwise NOT). The NOT, left unread, goes to dead-code elimination.

use ptxforge_sass::fast_hash::FastMap as HashMap;
use ptxforge_sass::ir::*;

/// `NOT a` as LOP3's look-up table of its first source.
const LUT_NOT_A: u8 = 0x0f;

/// Folds single-use NOTs into the IADD3.X instructions that read them.
pub fn fold_nots(f: &mut Function) {
    // Copies that copy propagation left unread would count as reads of the NOTs.
    crate::opt::eliminate_dead_code(f);
    let (writes, reads) = crate::opt::access_counts(f);
    for b in &mut f.blocks {
        fold_block(&mut b.instrs, &writes, &reads);
    }
}

fn fold_block(instrs: &mut [Instr], writes: &[u32], reads: &[u32]) {
    // Per NOT result: its source and that source's version when the NOT ran.
    let mut nots: HashMap<u32, (Src, u32)> = HashMap::default();
    let mut version: HashMap<(u32, u8), u32> = HashMap::default();
    let ver = |version: &HashMap<(u32, u8), u32>, s: &Src| {
        s.as_reg()
            .map_or(0, |r| version.get(&(r.idx, r.comp)).copied().unwrap_or(0))
    };
    for i in instrs.iter_mut() {
        if i.op == (Opcode::Iadd3 { x: true }) {
            for s in &mut i.srcs[..3] {
                let Some(r) = s.as_reg().filter(|_| !s.neg && !s.abs) else {
                    continue;
                };
                if let Some(&(a, v)) = nots.get(&r.idx) {
                    if ver(&version, &a) == v {
                        *s = a.negated();
                    }
                }
            }
        }
        for d in i.dsts.iter().filter_map(Dst::as_reg) {
            for k in 0..d.comps.max(1) {
                *version.entry((d.idx, d.comp + k)).or_default() += 1;
            }
        }
        if let Some((t, a)) = not_of(i) {
            if writes[t as usize] == 1 && reads[t as usize] == 1 {
                nots.insert(t, (a, ver(&version, &a)));
            }
        }
    }
}

/// `LOP3.LUT t, a, RZ, RZ, 0xf, !PT`, unguarded, of a one-register GPR `t` and a plain GPR `a`.
fn not_of(i: &Instr) -> Option<(u32, Src)> {
    let Opcode::Lop3 { lut: LUT_NOT_A } = i.op else {
        return None;
    };
    let (Dst::Reg(t), Dst::None) = (i.dsts[0], i.dsts[1]) else {
        return None;
    };
    let [a, b, c, p, ..] = i.srcs;
    let gpr = |s: &Src| {
        s.as_reg()
            .is_some_and(|r| r.file == RegFile::Gpr && r.comps == 1)
    };
    let plain = !a.neg && !a.abs && b == Src::ZERO && c == Src::ZERO && p == Src::FALSE;
    let whole = t.file == RegFile::Gpr && t.comps == 1 && t.comp == 0;
    (i.guard == Src::TRUE && plain && whole && gpr(&a)).then_some((t.idx, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iadd3x(d: Reg, srcs: [Src; 3], carry: Reg) -> Instr {
        Instr::new(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d), Dst::None],
            &[srcs[0], srcs[1], srcs[2], Src::reg(carry), Src::FALSE],
        )
    }

    fn not(d: Reg, a: Reg) -> Instr {
        Instr::new(
            Opcode::Lop3 { lut: LUT_NOT_A },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(a), Src::ZERO, Src::ZERO, Src::FALSE],
        )
    }

    fn function(instrs: Vec<Instr>, num_vregs: u32) -> Function {
        let mut f = Function::default();
        f.num_vregs = num_vregs;
        f.vreg_comps = vec![1; num_vregs as usize];
        f.blocks = vec![Block {
            instrs,
            ..Block::default()
        }];
        f
    }

    /// `t = ~b; d = a + t + carry` becomes `d = a + ~b + carry`, and the NOT goes; a NOT whose
    /// source changes before the add, or that is read twice, stays.
    #[test]
    fn single_use_nots_fold_into_the_carry_add() {
        let (a, b, t, d, p) = (
            Reg::gpr(0),
            Reg::gpr(1),
            Reg::gpr(2),
            Reg::gpr(3),
            Reg::pred(4),
        );
        let mut f = function(
            vec![
                not(t, b),
                iadd3x(d, [Src::reg(a), Src::reg(t), Src::ZERO], p),
            ],
            5,
        );
        fold_block(&mut f.blocks[0].instrs, &[1, 1, 1, 1, 0], &[1, 1, 1, 0, 1]);
        assert_eq!(f.blocks[0].instrs[1].srcs[1], Src::reg(b).negated());

        let moved = Instr::new(Opcode::Mov, &[Dst::Reg(b)], &[Src::imm(3)]);
        let mut g = function(
            vec![
                not(t, b),
                moved,
                iadd3x(d, [Src::reg(a), Src::reg(t), Src::ZERO], p),
            ],
            5,
        );
        fold_block(&mut g.blocks[0].instrs, &[1, 2, 1, 1, 0], &[1, 1, 1, 0, 1]);
        assert_eq!(g.blocks[0].instrs[2].srcs[1], Src::reg(t));

        let mut h = function(
            vec![
                not(t, b),
                iadd3x(d, [Src::reg(a), Src::reg(t), Src::ZERO], p),
            ],
            5,
        );
        fold_block(&mut h.blocks[0].instrs, &[1, 1, 1, 1, 0], &[1, 1, 2, 0, 1]);
        assert_eq!(h.blocks[0].instrs[1].srcs[1], Src::reg(t));
    }
}
