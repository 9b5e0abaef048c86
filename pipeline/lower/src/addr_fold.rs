//! Address-mode folding: an address formed by adding a constant to a base register, and read
//! only as the address of loads and stores later in its block, is replaced in each of them by the
//! base with the constant added to the instruction's `[R+imm]` offset, as ptxas does
//! (`LDG.E R4, [R2.64+0x10]` instead of `IADD3 R4, P0, R2, 0x10, RZ` + `IADD3.X R5, RZ, R3, RZ,
//! P0, !PT` + `LDG.E R4, [R4.64]`). Global and generic accesses (LDG, STG, LD, ST) take a 64-bit
//! pair formed by `IADD3` with carry out + `IADD3.X`; shared and local accesses (LDS, STS, LDL,
//! STL) a 32-bit register formed by one `IADD3`. Every form's offset is a signed 24-bit field.
//! The adds, left unread, go to dead-code elimination.

use ptxforge_sass::fast_hash::FastMap as HashMap;
use ptxforge_sass::ir::*;

use crate::opt::PartCounts;

/// The offset field of every folded form: signed 24 bits.
const OFFSET_RANGE: std::ops::Range<i64> = -(1 << 23)..(1 << 23);

/// Folds constant additions into the offsets of the loads and stores that read their results.
pub fn fold_address_offsets(f: &mut Function) {
    // Copies that copy propagation left unread would count as reads of the addresses.
    crate::opt::eliminate_dead_code(f);
    let counts = PartCounts::of(f);
    for bi in 0..f.blocks.len() {
        let folds = block_folds(f, bi, &counts);
        let instrs = &mut f.blocks[bi].instrs;
        for (at, base, add) in folds {
            let i = &mut instrs[at];
            i.srcs[0] = Src::reg(base);
            let off = offset_mut(&mut i.op).expect("a folded use is a memory access");
            *off = (*off as i64 + add) as i32;
        }
    }
}

/// An address `base + add` waiting for its readers in the block.
struct Candidate {
    base: Reg,
    /// The base's write version when the address was formed.
    base_version: u32,
    add: i64,
    /// The index of each reader folded so far.
    uses: Vec<usize>,
    /// A reader that cannot take the fold was seen.
    spoiled: bool,
}

/// A 64-bit add's low half waiting for its high half.
struct LowHalf {
    base: Reg,
    base_version: u32,
    lo: u32,
    carry: Reg,
}

/// The folds of block `bi`: (instruction index, new base, addend to its offset).
fn block_folds(f: &Function, bi: usize, c: &PartCounts) -> Vec<(usize, Reg, i64)> {
    let instrs = &f.blocks[bi].instrs;
    let mut cands: HashMap<u32, Candidate> = HashMap::default();
    let mut lows: HashMap<u32, LowHalf> = HashMap::default();
    // Writes so far in this block per vreg: a base read at a different version is another value.
    let mut version: HashMap<u32, u32> = HashMap::default();
    let ver = |version: &HashMap<u32, u32>, r: Reg| version.get(&r.idx).copied().unwrap_or(0);
    for (k, i) in instrs.iter().enumerate() {
        let offset = offset_of(&i.op);
        for (n, s) in i.srcs.iter().enumerate() {
            let Some(r) = s.as_reg() else { continue };
            let Some(cand) = cands.get_mut(&r.idx) else {
                continue;
            };
            let whole = r.comp == 0 && r.comps == f.vreg_comps[r.idx as usize];
            let foldable = n == 0
                && whole
                && plain(s)
                && ver(&version, cand.base) == cand.base_version
                && offset.is_some_and(|o| OFFSET_RANGE.contains(&(o as i64 + cand.add)));
            if foldable {
                cand.uses.push(k);
            } else {
                cand.spoiled = true;
            }
        }
        for d in i.dsts.iter().filter_map(Dst::as_reg) {
            *version.entry(d.idx).or_default() += 1;
        }
        if let Some((d, base, lo, carry)) = low_half(f, i, c) {
            let base_version = ver(&version, base);
            lows.insert(
                d,
                LowHalf {
                    base,
                    base_version,
                    lo,
                    carry,
                },
            );
        } else if let Some((d, hi)) = high_half(i, &lows, c) {
            let low = lows.remove(&d).expect("high_half found its low half");
            let carry_version = ver(&version, low.carry);
            if ver(&version, low.base) == low.base_version && carry_version == 1 {
                let add = ((hi as u64) << 32 | low.lo as u64) as i64;
                cands.insert(d, candidate(low.base, low.base_version, add));
            }
        } else if let Some((d, base, add)) = add32(f, i, c) {
            cands.insert(d, candidate(base, ver(&version, base), add));
        }
    }
    let mut folds = Vec::new();
    for (d, cand) in cands {
        if !cand.spoiled && !cand.uses.is_empty() && cand.uses.len() as u32 == c.reads[d as usize] {
            folds.extend(cand.uses.iter().map(|&k| (k, cand.base, cand.add)));
        }
    }
    folds.sort_unstable_by_key(|&(k, ..)| k);
    folds
}

fn candidate(base: Reg, base_version: u32, add: i64) -> Candidate {
    Candidate {
        base,
        base_version,
        add,
        uses: Vec::new(),
        spoiled: false,
    }
}

/// The offset of a foldable memory access (its address is source 0).
fn offset_of(op: &Opcode) -> Option<i32> {
    match *op {
        Opcode::Ldg { offset, .. }
        | Opcode::Stg { offset, .. }
        | Opcode::Ld { offset, .. }
        | Opcode::St { offset, .. }
        | Opcode::Lds { offset, .. }
        | Opcode::Sts { offset, .. }
        | Opcode::Ldl { offset, .. }
        | Opcode::Stl { offset, .. } => Some(offset),
        _ => None,
    }
}

fn offset_mut(op: &mut Opcode) -> Option<&mut i32> {
    match op {
        Opcode::Ldg { offset, .. }
        | Opcode::Stg { offset, .. }
        | Opcode::Ld { offset, .. }
        | Opcode::St { offset, .. }
        | Opcode::Lds { offset, .. }
        | Opcode::Sts { offset, .. }
        | Opcode::Ldl { offset, .. }
        | Opcode::Stl { offset, .. } => Some(offset),
        _ => None,
    }
}

fn plain(s: &Src) -> bool {
    !s.neg && !s.abs
}

/// A register's one and only value is written here: each of its parts is written once.
fn written_once(c: &PartCounts, r: Reg, parts: u8) -> bool {
    c.writes[r.idx as usize][..parts as usize]
        .iter()
        .all(|&w| w == 1)
}

/// The register source and the immediate of a two-operand add (`IADD3 d, r, imm, RZ` either way).
fn reg_and_imm(i: &Instr) -> Option<(Reg, u32)> {
    let [a, b, z, ..] = i.srcs;
    if z != Src::ZERO || !plain(&a) || !plain(&b) {
        return None;
    }
    match (a.val, b.val) {
        (SrcVal::Reg(r), SrcVal::Imm(v)) | (SrcVal::Imm(v), SrcVal::Reg(r)) => Some((r, v)),
        _ => None,
    }
}

/// `IADD3 d.lo, P, base.lo, imm, RZ` of a 64-bit address: (d, base pair, imm, P).
fn low_half(f: &Function, i: &Instr, c: &PartCounts) -> Option<(u32, Reg, u32, Reg)> {
    let (Opcode::Iadd3 { x: false }, Dst::Reg(d), Dst::Reg(p)) = (i.op, i.dsts[0], i.dsts[1])
    else {
        return None;
    };
    let (b, v) = reg_and_imm(i)?;
    let pair = |r: Reg| r.file == RegFile::Gpr && f.vreg_comps[r.idx as usize] == 2;
    let ok = i.guard == Src::TRUE
        && pair(d)
        && d.comp == 0
        && d.comps == 1
        && written_once(c, d, 2)
        && pair(b)
        && b.comp == 0
        && b.comps == 1
        && c.reads[p.idx as usize] == 1;
    ok.then_some((d.idx, Reg { comps: 2, ..b }, v, p))
}

/// `IADD3.X d.hi, base.hi, hi, RZ, P, !PT` completing a low half in `lows`: (d, hi constant),
/// the constant 0 (RZ or 0x0) or -1 (the sign extension of a negative low constant).
fn high_half(i: &Instr, lows: &HashMap<u32, LowHalf>, c: &PartCounts) -> Option<(u32, u32)> {
    let (Opcode::Iadd3 { x: true }, Dst::Reg(d), Dst::None) = (i.op, i.dsts[0], i.dsts[1]) else {
        return None;
    };
    let LowHalf { base, carry, .. } = lows.get(&d.idx)?;
    let [a, b, z, p, not_pt] = i.srcs;
    let hi_of_base = Src::reg(base.part(1));
    let other = if a == hi_of_base {
        b
    } else if b == hi_of_base {
        a
    } else {
        return None;
    };
    let hi = match other.val {
        SrcVal::Zero | SrcVal::Imm(0) if plain(&other) => 0,
        SrcVal::Imm(u32::MAX) if plain(&other) => u32::MAX,
        _ => return None,
    };
    let ok = i.guard == Src::TRUE
        && d.comp == 1
        && d.comps == 1
        && z == Src::ZERO
        && p == Src::reg(*carry)
        && not_pt == Src::FALSE
        && c.writes[carry.idx as usize][0] == 1;
    ok.then_some((d.idx, hi))
}

/// `IADD3 d, base, imm, RZ` of a 32-bit address: (d, base, imm sign-extended).
fn add32(f: &Function, i: &Instr, c: &PartCounts) -> Option<(u32, Reg, i64)> {
    let (Opcode::Iadd3 { x: false }, Dst::Reg(d), Dst::None) = (i.op, i.dsts[0], i.dsts[1]) else {
        return None;
    };
    let (b, v) = reg_and_imm(i)?;
    let single = |r: Reg| {
        r.file == RegFile::Gpr && r.comp == 0 && r.comps == 1 && f.vreg_comps[r.idx as usize] == 1
    };
    let ok = i.guard == Src::TRUE && single(d) && single(b) && written_once(c, d, 1);
    ok.then_some((d.idx, b, v as i32 as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ldg(d: Reg, a: Reg, offset: i32) -> Instr {
        let op = Opcode::Ldg {
            size: MemSize::B32,
            constant: false,
            scope: None,
            hint: CacheHint::NONE,
            offset,
        };
        Instr::new(op, &[Dst::Reg(d)], &[Src::reg(a)])
    }

    fn add64(f: &mut Function, base: Reg, v: u32, hi: Src) -> (Reg, Vec<Instr>) {
        let d = f.new_vreg(RegFile::Gpr, 2);
        let p = f.new_vreg(RegFile::Pred, 1);
        let lo = Instr::new(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[Src::reg(base.part(0)), Src::imm(v), Src::ZERO],
        );
        let hi = Instr::new(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1))],
            &[
                Src::reg(base.part(1)),
                hi,
                Src::ZERO,
                Src::reg(p),
                Src::FALSE,
            ],
        );
        (d, vec![lo, hi])
    }

    fn func() -> (Function, Reg) {
        let mut f = Function::default();
        let base = f.new_vreg(RegFile::Gpr, 2);
        let def = Instr::new(
            Opcode::Ldc { wide: true },
            &[Dst::Reg(base)],
            &[Src::cbuf(0, 0x160)],
        );
        f.blocks.push(Block { instrs: vec![def] });
        (f, base)
    }

    /// A reader of a load's result (so that dead-code elimination keeps the load).
    fn sink(r: Reg) -> Instr {
        let op = Opcode::Stl {
            size: MemSize::B32,
            offset: 0,
        };
        Instr::new(op, &[], &[Src::ZERO, Src::reg(r)])
    }

    /// (address vreg, offset) of every access but the sinks.
    fn offsets(f: &Function) -> Vec<(u32, i32)> {
        f.instrs()
            .filter(|i| !matches!(i.op, Opcode::Stl { .. }))
            .filter_map(|i| Some((i.srcs[0].as_reg()?.idx, offset_of(&i.op)?)))
            .collect()
    }

    #[test]
    fn a_64_bit_constant_add_read_only_by_loads_folds_into_their_offsets() {
        let (mut f, base) = func();
        let (a, adds) = add64(&mut f, base, 0x10, Src::ZERO);
        let (n, adds_neg) = add64(&mut f, base, (-8i32) as u32, Src::imm(u32::MAX));
        let r = f.new_vreg(RegFile::Gpr, 1);
        let b = &mut f.blocks[0].instrs;
        b.extend(adds);
        b.extend(adds_neg);
        b.extend([ldg(r, a, 4), ldg(r, a, 0), ldg(r, n, 0), sink(r)]);
        fold_address_offsets(&mut f);
        assert_eq!(
            offsets(&f),
            vec![(base.idx, 0x14), (base.idx, 0x10), (base.idx, -8)]
        );
    }

    #[test]
    fn an_address_read_otherwise_or_out_of_range_or_after_its_base_changes_stays() {
        // Read as data by a store: not folded.
        let (mut f, base) = func();
        let (a, adds) = add64(&mut f, base, 0x10, Src::ZERO);
        let stg = Opcode::Stg {
            size: MemSize::B64,
            scope: None,
            hint: CacheHint::NONE,
            offset: 0,
        };
        let r = f.new_vreg(RegFile::Gpr, 1);
        let b = &mut f.blocks[0].instrs;
        b.extend(adds);
        b.push(ldg(r, a, 0));
        b.push(sink(r));
        b.push(Instr::new(stg, &[], &[Src::reg(base), Src::reg(a)]));
        fold_address_offsets(&mut f);
        assert_eq!(offsets(&f), vec![(a.idx, 0), (base.idx, 0)]);
        // The offset leaves the 24-bit field.
        let (mut f, base) = func();
        let (a, adds) = add64(&mut f, base, 0x7f_fff0, Src::ZERO);
        let r = f.new_vreg(RegFile::Gpr, 1);
        f.blocks[0].instrs.extend(adds);
        f.blocks[0].instrs.push(ldg(r, a, 0x10));
        f.blocks[0].instrs.push(sink(r));
        fold_address_offsets(&mut f);
        assert_eq!(offsets(&f), vec![(a.idx, 0x10)]);
        // The base is rewritten between the add and the load.
        let (mut f, base) = func();
        let (a, adds) = add64(&mut f, base, 0x10, Src::ZERO);
        let r = f.new_vreg(RegFile::Gpr, 1);
        let redef = f.blocks[0].instrs[0];
        f.blocks[0].instrs.extend(adds);
        f.blocks[0].instrs.push(redef);
        f.blocks[0].instrs.push(ldg(r, a, 0));
        f.blocks[0].instrs.push(sink(r));
        fold_address_offsets(&mut f);
        assert_eq!(offsets(&f), vec![(a.idx, 0)]);
    }

    #[test]
    fn a_32_bit_shared_address_folds() {
        let mut f = Function::default();
        let base = f.new_vreg(RegFile::Gpr, 1);
        let a = f.new_vreg(RegFile::Gpr, 1);
        let r = f.new_vreg(RegFile::Gpr, 1);
        let instrs = vec![
            Instr::new(Opcode::S2r(SpecialReg::TidX), &[Dst::Reg(base)], &[]),
            Instr::new(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(a)],
                &[Src::imm((-4i32) as u32), Src::reg(base), Src::ZERO],
            ),
            Instr::new(
                Opcode::Lds {
                    size: MemSize::B32,
                    offset: 8,
                },
                &[Dst::Reg(r)],
                &[Src::reg(a)],
            ),
            sink(r),
        ];
        f.blocks.push(Block { instrs });
        fold_address_offsets(&mut f);
        assert_eq!(offsets(&f), vec![(base.idx, 4)]);
    }
}
