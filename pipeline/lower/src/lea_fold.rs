//! Shift-and-add fusion: an add whose operand is a left shift by a constant, the shift read
//! nowhere else, becomes LEA, as ptxas forms scaled addresses (`shl.b64` + `add.s64`:
//! `LEA R4, P0, R0, c[0x0][0x168], 0x3` + `LEA.HI.X R5, R0, c[0x0][0x16c], R3, 0x3, P0` instead of
//! `SHF.L.U64.HI` + `SHF.L.U32` + `IADD3` + `IADD3.X`). The low word: `IADD3 d, [P,] (a << n),
//! b, RZ` is `LEA d, [P,] a, b, n` (32-bit adds too); the high word: `IADD3.X d, hi(ah:al << n),
//! b, RZ, P, !PT` is `LEA.HI.X d, al, b, ah, n, P`. The shift must be earlier in the same block
//! with its sources unchanged since; the shifts, left unread, go to dead-code elimination.

use ptxforge_sass::fast_hash::FastMap as HashMap;
use ptxforge_sass::ir::*;

/// Rewrites adds of single-use constant left shifts as LEA / LEA.HI.X.
pub fn fuse_shift_adds(f: &mut Function) {
    // Copies that copy propagation left unread would count as reads of the shifts.
    crate::opt::eliminate_dead_code(f);
    let (writes, reads) = crate::opt::access_counts(f);
    for b in &mut f.blocks {
        fuse_block(&mut b.instrs, &writes, &reads);
    }
}

/// A constant left shift whose result an add may absorb: the shifted source (and for the high
/// word, the high source), the amount, and the versions of its sources when it ran.
#[derive(Clone, Copy)]
struct Shift {
    hi: bool,
    lo_src: Src,
    hi_src: Src,
    amount: u8,
    versions: [u32; 2],
}

fn fuse_block(instrs: &mut [Instr], writes: &[u32], reads: &[u32]) {
    let mut shifts: HashMap<u32, Shift> = HashMap::default();
    let mut version: HashMap<u32, u32> = HashMap::default();
    let ver = |version: &HashMap<u32, u32>, s: &Src| {
        s.as_reg()
            .map_or(0, |r| version.get(&r.idx).copied().unwrap_or(0))
    };
    for i in instrs.iter_mut() {
        let unchanged = |s: &Shift| {
            ver(&version, &s.lo_src) == s.versions[0] && ver(&version, &s.hi_src) == s.versions[1]
        };
        if let Some(lea) = lea_for(i, &shifts, &unchanged) {
            *i = lea;
        }
        for d in i.dsts.iter().filter_map(Dst::as_reg) {
            *version.entry(d.idx).or_default() += 1;
        }
        if let Some((t, mut s)) = shift_of(i) {
            if writes[t as usize] == 1 && reads[t as usize] == 1 {
                s.versions = [ver(&version, &s.lo_src), ver(&version, &s.hi_src)];
                shifts.insert(t, s);
            }
        }
    }
}

/// `SHF.L.U32 t, a, n, RZ` or `SHF.L.U64.HI t, al, n, ah` with a constant `n` below 32.
fn shift_of(i: &Instr) -> Option<(u32, Shift)> {
    let Opcode::Shf {
        right: false,
        signed: false,
        wide,
        hi,
    } = i.op
    else {
        return None;
    };
    let (Dst::Reg(t), Dst::None) = (i.dsts[0], i.dsts[1]) else {
        return None;
    };
    let [a, n, c, ..] = i.srcs;
    let SrcVal::Imm(amount @ 1..=31) = n.val else {
        return None;
    };
    let plain = |s: &Src| !s.neg && !s.abs;
    let gpr = |s: &Src| s.as_reg().is_some_and(|r| r.file == RegFile::Gpr);
    let ok = i.guard == Src::TRUE
        && t.file == RegFile::Gpr
        && t.comps == 1
        && wide == hi
        && gpr(&a)
        && plain(&a)
        && plain(&c)
        && (if hi {
            gpr(&c) || c.val == SrcVal::Zero
        } else {
            c == Src::ZERO
        });
    let s = Shift {
        hi,
        lo_src: a,
        hi_src: c,
        amount: amount as u8,
        versions: [0; 2],
    };
    ok.then_some((t.idx, s))
}

/// The LEA replacing `i`, an add of a recorded shift and a register or constant-bank operand.
fn lea_for(
    i: &Instr,
    shifts: &HashMap<u32, Shift>,
    unchanged: &impl Fn(&Shift) -> bool,
) -> Option<Instr> {
    let Opcode::Iadd3 { x } = i.op else {
        return None;
    };
    let [a, b, c, carry, not_pt] = i.srcs;
    let plain = |s: &Src| !s.neg && !s.abs;
    if i.guard != Src::TRUE || c != Src::ZERO || !plain(&a) || !plain(&b) {
        return None;
    }
    if x && (i.dsts[1] != Dst::None || not_pt != Src::FALSE) {
        return None;
    }
    let shift_at = |s: &Src| {
        let r = s.as_reg().filter(|r| r.comps == 1)?;
        shifts
            .get(&r.idx)
            .filter(|sh| sh.hi == x && unchanged(sh))
            .copied()
    };
    let addend = |s: &Src| matches!(s.val, SrcVal::Reg(_) | SrcVal::CBuf { .. });
    let (sh, other) = match (shift_at(&a), shift_at(&b)) {
        (Some(sh), _) if addend(&b) => (sh, b),
        (_, Some(sh)) if addend(&a) => (sh, a),
        _ => return None,
    };
    let op = Opcode::Lea {
        hi: x,
        shift: sh.amount,
    };
    let mut lea = if x {
        Instr::new(op, &[i.dsts[0]], &[sh.lo_src, other, sh.hi_src, carry])
    } else {
        Instr::new(op, &i.dsts, &[sh.lo_src, other])
    };
    lea.deps = i.deps;
    lea.loc = i.loc;
    Some(lea)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shl(d: Reg, a: Src, n: u32, hi: Option<Src>) -> Instr {
        let op = Opcode::Shf {
            right: false,
            signed: false,
            wide: hi.is_some(),
            hi: hi.is_some(),
        };
        Instr::new(
            op,
            &[Dst::Reg(d)],
            &[a, Src::imm(n), hi.unwrap_or(Src::ZERO)],
        )
    }

    /// `shl.b64 t, a, 2; add.s64 d, base, t` as lowering leaves it, then a store of `d`.
    fn shift_add(redefine_between: bool) -> Function {
        let mut f = Function::default();
        let a = f.new_vreg(RegFile::Gpr, 2);
        let base = f.new_vreg(RegFile::Gpr, 2);
        let (tl, th) = (f.new_vreg(RegFile::Gpr, 1), f.new_vreg(RegFile::Gpr, 1));
        let d = f.new_vreg(RegFile::Gpr, 2);
        let p = f.new_vreg(RegFile::Pred, 1);
        let ldc = |r: Reg, o| {
            Instr::new(
                Opcode::Ldc { wide: true },
                &[Dst::Reg(r)],
                &[Src::cbuf(0, o)],
            )
        };
        let mut instrs = vec![
            ldc(a, 0x160),
            ldc(base, 0x168),
            shl(th, Src::reg(a.part(0)), 2, Some(Src::reg(a.part(1)))),
            shl(tl, Src::reg(a.part(0)), 2, None),
        ];
        if redefine_between {
            instrs.push(ldc(a, 0x170));
        }
        instrs.extend([
            Instr::new(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d.part(0)), Dst::Reg(p)],
                &[Src::reg(base.part(0)), Src::reg(tl), Src::ZERO],
            ),
            Instr::new(
                Opcode::Iadd3 { x: true },
                &[Dst::Reg(d.part(1))],
                &[
                    Src::reg(th),
                    Src::reg(base.part(1)),
                    Src::ZERO,
                    Src::reg(p),
                    Src::FALSE,
                ],
            ),
            Instr::new(
                Opcode::Stg {
                    size: MemSize::B64,
                    scope: None,
                    hint: CacheHint::NONE,
                    offset: 0,
                },
                &[],
                &[Src::reg(d), Src::reg(a)],
            ),
        ]);
        f.blocks.push(Block { instrs });
        f
    }

    fn leas(f: &Function) -> Vec<(Opcode, [Src; 4])> {
        f.instrs()
            .filter(|i| matches!(i.op, Opcode::Lea { .. }))
            .map(|i| (i.op, [i.srcs[0], i.srcs[1], i.srcs[2], i.srcs[3]]))
            .collect()
    }

    #[test]
    fn a_64_bit_shift_and_add_becomes_lea_and_lea_hi_x() {
        let mut f = shift_add(false);
        fuse_shift_adds(&mut f);
        let r = |i: u32, c: u8| Src::reg(Reg::gpr(i).part(c));
        let p = Src::reg(Reg::pred(5));
        assert_eq!(
            leas(&f),
            vec![
                (
                    Opcode::Lea {
                        hi: false,
                        shift: 2
                    },
                    [r(0, 0), r(1, 0), Src::ZERO, Src::ZERO]
                ),
                (
                    Opcode::Lea { hi: true, shift: 2 },
                    [r(0, 0), r(1, 1), r(0, 1), p]
                ),
            ]
        );
    }

    #[test]
    fn a_shift_whose_source_changed_before_the_add_stays() {
        let mut f = shift_add(true);
        fuse_shift_adds(&mut f);
        assert!(leas(&f).is_empty());
    }
}
