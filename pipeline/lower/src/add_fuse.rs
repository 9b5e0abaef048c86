//! Add clean-ups on 32-bit `IADD3`s without carries, as ptxas writes them: an add of one register
//! and zeros (`IADD3 R2, RZ, R3, RZ`, left where a shared symbol's address is 0) is a copy, read
//! through by copy propagation; an add whose operand is another two-operand add, read nowhere
//! else, becomes one three-operand `IADD3 d, a, b, c` (at most one immediate or constant-bank
//! operand, in B). The inner add must be earlier in the same block with its sources unchanged
//! since; the adds left unread go to dead-code elimination.

use ptxforge_sass::fast_hash::FastMap as HashMap;
use ptxforge_sass::ir::*;

/// Rewrites zero adds as copies and chains of two adds as one three-operand IADD3.
pub fn fuse_adds(f: &mut Function) {
    let mut copies = false;
    for i in f.blocks.iter_mut().flat_map(|b| b.instrs.iter_mut()) {
        if let Some(s) = zero_add_source(i) {
            *i = Instr {
                op: Opcode::Mov,
                dsts: [i.dsts[0], Dst::None],
                srcs: [s, Src::NONE, Src::NONE, Src::NONE, Src::NONE],
                ..*i
            };
            copies = true;
        }
    }
    if copies {
        crate::opt::propagate_copies(f);
    }
    crate::opt::eliminate_dead_code(f);
    let (writes, reads) = crate::opt::access_counts(f);
    for b in &mut f.blocks {
        fuse_block(&mut b.instrs, &writes, &reads);
    }
}

/// A 32-bit add without carries: `IADD3 d, a, b, c` unguarded.
fn plain_add(i: &Instr) -> bool {
    matches!(i.op, Opcode::Iadd3 { x: false })
        && i.dsts[1] == Dst::None
        && i.guard == Src::TRUE
        && i.srcs[0].as_reg().is_none_or(|r| r.file == RegFile::Gpr)
}

/// The register an add of it and zeros copies.
fn zero_add_source(i: &Instr) -> Option<Src> {
    if !plain_add(i) || !matches!(i.dsts[0], Dst::Reg(d) if d.file == RegFile::Gpr) {
        return None;
    }
    let [a, b, c, ..] = i.srcs;
    let regs: Vec<Src> = [a, b, c]
        .into_iter()
        .filter(|s| s.val != SrcVal::Zero || s.neg)
        .collect();
    match regs[..] {
        [s] if s.as_reg().is_some() && !s.neg && !s.abs => Some(s),
        _ => None,
    }
}

/// The two operands of a two-operand add (its third is RZ) and their versions when it ran.
#[derive(Clone, Copy)]
struct Pair {
    ops: [Src; 2],
    versions: [u32; 2],
}

fn fuse_block(instrs: &mut [Instr], writes: &[u32], reads: &[u32]) {
    let mut pairs: HashMap<u32, Pair> = HashMap::default();
    let mut version: HashMap<u32, u32> = HashMap::default();
    let ver = |version: &HashMap<u32, u32>, s: &Src| {
        s.as_reg()
            .map_or(0, |r| version.get(&r.idx).copied().unwrap_or(0))
    };
    for i in instrs.iter_mut() {
        if plain_add(i) {
            let unchanged = |p: &Pair| {
                ver(&version, &p.ops[0]) == p.versions[0]
                    && ver(&version, &p.ops[1]) == p.versions[1]
            };
            if let Some(srcs) = fused_sources(i, &pairs, &unchanged) {
                i.srcs[..3].copy_from_slice(&srcs);
            }
        }
        for d in i.dsts.iter().filter_map(Dst::as_reg) {
            *version.entry(d.idx).or_default() += 1;
        }
        if let Some((t, ops)) = two_operand_add(i) {
            if writes[t as usize] == 1 && reads[t as usize] == 1 {
                let versions = [ver(&version, &ops[0]), ver(&version, &ops[1])];
                pairs.insert(t, Pair { ops, versions });
            }
        }
    }
}

/// `IADD3 t, a, b, RZ`: (t, [a, b]).
fn two_operand_add(i: &Instr) -> Option<(u32, [Src; 2])> {
    let Dst::Reg(t) = i.dsts[0] else { return None };
    let [a, b, c, ..] = i.srcs;
    let ok = plain_add(i) && t.file == RegFile::Gpr && t.comps == 1 && c == Src::ZERO;
    ok.then_some((t.idx, [a, b]))
}

/// The three sources of `i` with one of its operands replaced by the two of a recorded add.
fn fused_sources(
    i: &Instr,
    pairs: &HashMap<u32, Pair>,
    unchanged: &impl Fn(&Pair) -> bool,
) -> Option<[Src; 3]> {
    let [a, b, c, ..] = i.srcs;
    if c != Src::ZERO {
        return None;
    }
    let inner = |s: &Src| {
        let r = s.as_reg().filter(|r| r.comps == 1 && !s.neg && !s.abs)?;
        pairs.get(&r.idx).filter(|p| unchanged(p)).copied()
    };
    let (p, other) = match (inner(&a), inner(&b)) {
        (Some(p), _) => (p, b),
        (_, Some(p)) => (p, a),
        _ => return None,
    };
    arrange([p.ops[0], p.ops[1], other])
}

/// Three addends in IADD3's slots: at most one immediate or constant-bank operand, in B.
fn arrange(ops: [Src; 3]) -> Option<[Src; 3]> {
    let special = |s: &Src| matches!(s.val, SrcVal::Imm(_) | SrcVal::CBuf { .. });
    let n = ops.iter().filter(|s| special(s)).count();
    if n > 1 || ops.iter().any(|s| s.abs) {
        return None;
    }
    let k = ops.iter().position(special).unwrap_or(1);
    let rest: Vec<Src> = (0..3).filter(|&j| j != k).map(|j| ops[j]).collect();
    Some([rest[0], ops[k], rest[1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(d: Reg, s: [Src; 3]) -> Instr {
        Instr::new(Opcode::Iadd3 { x: false }, &[Dst::Reg(d), Dst::None], &s)
    }

    fn func(n: u32) -> (Function, Vec<Reg>) {
        let mut f = Function::default();
        let regs: Vec<Reg> = (0..n).map(|_| f.new_vreg(RegFile::Gpr, 1)).collect();
        let defs = regs[..3]
            .iter()
            .map(|&r| Instr::new(Opcode::S2r(SpecialReg::TidX), &[Dst::Reg(r)], &[]))
            .collect();
        f.blocks.push(Block { instrs: defs });
        (f, regs)
    }

    fn store(r: Reg) -> Instr {
        let op = Opcode::Sts {
            size: MemSize::B32,
            offset: 0,
        };
        Instr::new(op, &[], &[Src::ZERO, Src::reg(r)])
    }

    #[test]
    fn two_adds_become_one_three_operand_add_and_zero_adds_copies() {
        let (mut f, r) = func(6);
        let s = |k: usize| Src::reg(r[k]);
        f.blocks[0].instrs.extend([
            add(r[3], [Src::ZERO, s(0), Src::ZERO]),
            add(r[4], [s(3), Src::imm(16), Src::ZERO]),
            add(r[5], [s(4), s(1).negated(), Src::ZERO]),
            store(r[5]),
        ]);
        fuse_adds(&mut f);
        crate::opt::eliminate_dead_code(&mut f);
        let adds: Vec<[Src; 3]> = f
            .instrs()
            .filter(|i| matches!(i.op, Opcode::Iadd3 { .. }))
            .map(|i| [i.srcs[0], i.srcs[1], i.srcs[2]])
            .collect();
        assert_eq!(adds, vec![[s(0), Src::imm(16), s(1).negated()]]);
    }

    #[test]
    fn an_inner_add_read_twice_or_with_a_changed_source_stays() {
        let (mut f, r) = func(6);
        let s = |k: usize| Src::reg(r[k]);
        let redefine = f.blocks[0].instrs[0];
        f.blocks[0].instrs.extend([
            add(r[3], [s(0), s(1), Src::ZERO]),
            redefine,
            add(r[4], [s(3), s(2), Src::ZERO]),
            add(r[5], [s(1), s(2), Src::ZERO]),
            add(r[5], [s(5), Src::imm(4), Src::ZERO]),
            store(r[4]),
            store(r[5]),
        ]);
        let before = f.num_instrs();
        fuse_adds(&mut f);
        // r5 is written twice: its first add is not fused into the second.
        assert_eq!(f.num_instrs(), before);
    }
}
