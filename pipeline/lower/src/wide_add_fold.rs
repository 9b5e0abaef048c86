//! Wide multiply-add fusion: a 64-bit add (`IADD3` with carry out + `IADD3.X`) of an
//! `IMAD.WIDE a, b, RZ` result and a 64-bit base becomes one `IMAD.WIDE a, b, base`, as ptxas
//! forms addresses (`IMAD.WIDE.U32 R2, R0, R5, c[0x0][0x160]`). The base is a register pair or a
//! constant-bank pair; with a constant-bank base an immediate `b` moves to a register first (the
//! encoding has one constant slot). The multiply, left unread, goes to dead-code elimination.

use ptxforge_sass::ir::*;

use crate::opt::PartCounts;

/// Fuses 64-bit adds of single-definition IMAD.WIDE results into the multiply.
pub fn fuse_wide_adds(f: &mut Function) {
    let info = PartCounts::of(f);
    let wides = wide_products(f, &info);
    if wides.is_empty() {
        return;
    }
    for bi in 0..f.blocks.len() {
        let mut ii = 0;
        while ii < f.blocks[bi].instrs.len() {
            if let Some(fused) = fusion_at(f, bi, ii, &info, &wides) {
                let Fused { hi_at, mov, wide } = fused;
                let instrs = &mut f.blocks[bi].instrs;
                instrs.remove(hi_at);
                let loc = instrs[ii].loc;
                instrs[ii] = Instr { loc, ..wide };
                if let Some(v) = mov {
                    let t = f.new_vreg(RegFile::Gpr, 1);
                    f.blocks[bi].instrs[ii].srcs[1] = Src::reg(t);
                    let m = Instr {
                        loc,
                        ..Instr::new(Opcode::Mov, &[Dst::Reg(t)], &[Src::imm(v)])
                    };
                    f.blocks[bi].instrs.insert(ii, m);
                    ii += 1;
                }
            }
            ii += 1;
        }
    }
}

/// A product `IMAD.WIDE a, b, RZ` by its result's vreg: (opcode, a, b, whether `a` and `b` hold
/// one value everywhere; if not, the add must follow the multiply in its block with neither
/// rewritten in between).
type Product = (Opcode, Src, Src, bool);

fn wide_products(f: &Function, c: &PartCounts) -> std::collections::HashMap<u32, Product> {
    let stable = |s: &Src| match s.as_reg() {
        Some(r) => c.single(r, &f.vreg_comps) && r.file == RegFile::Gpr,
        None => true,
    };
    let mut m = std::collections::HashMap::new();
    for i in f.instrs() {
        let Opcode::Imad {
            mode: ImadMode::Wide,
            x: false,
            ..
        } = i.op
        else {
            continue;
        };
        let Dst::Reg(d) = i.dsts[0] else { continue };
        let [a, b, cc, ..] = i.srcs;
        let plain = |s: &Src| !s.neg && !s.abs;
        if i.guard == Src::TRUE
            && cc == Src::ZERO
            && d.comp == 0
            && d.comps == 2
            && c.single(d, &f.vreg_comps)
            && plain(&a)
            && plain(&b)
            && a.as_reg().is_some()
        {
            m.insert(d.idx, (i.op, a, b, stable(&a) && stable(&b)));
        }
    }
    m
}

struct Fused {
    hi_at: usize,
    /// A register to hold `b` (an immediate) when the base is a constant-bank pair.
    mov: Option<u32>,
    wide: Instr,
}

/// The 64-bit base of an add: a whole register pair or a constant-bank pair.
fn base_of(lo: Src, f: &Function, c: &PartCounts) -> Option<(Src, Src)> {
    match lo.val {
        SrcVal::CBuf { bank, offset } if offset % 8 == 0 => {
            Some((Src::cbuf(bank, offset), Src::cbuf(bank, offset + 4)))
        }
        SrcVal::Reg(r)
            if r.comp == 0
                && r.file == RegFile::Gpr
                && f.vreg_comps[r.idx as usize] == 2
                && c.single(r, &f.vreg_comps) =>
        {
            Some((Src::reg(Reg { comps: 2, ..r }), Src::reg(r.part(1))))
        }
        _ => None,
    }
}

fn fusion_at(
    f: &Function,
    bi: usize,
    ii: usize,
    c: &PartCounts,
    wides: &std::collections::HashMap<u32, Product>,
) -> Option<Fused> {
    let instrs = &f.blocks[bi].instrs;
    let lo = &instrs[ii];
    let (Opcode::Iadd3 { x: false }, Dst::Reg(d), Dst::Reg(p)) = (lo.op, lo.dsts[0], lo.dsts[1])
    else {
        return None;
    };
    let plain = |s: &Src| !s.neg && !s.abs;
    if lo.guard != Src::TRUE
        || lo.srcs[2] != Src::ZERO
        || !plain(&lo.srcs[0])
        || !plain(&lo.srcs[1])
        || d.comp != 0
        || d.comps != 1
        || f.vreg_comps[d.idx as usize] != 2
        || c.writes[d.idx as usize][..2] != [1, 1]
        || c.writes[p.idx as usize][0] != 1
        || c.reads[p.idx as usize] != 1
    {
        return None;
    }
    // Which source is the product's low half.
    let product_lo = |s: &Src| {
        s.as_reg()
            .filter(|r| r.comp == 0 && wides.contains_key(&r.idx))
    };
    let (w, base_lo) = match (product_lo(&lo.srcs[0]), product_lo(&lo.srcs[1])) {
        (Some(w), _) => (w, lo.srcs[1]),
        (None, Some(w)) => (w, lo.srcs[0]),
        _ => return None,
    };
    let (base, base_hi) = base_of(base_lo, f, c)?;
    let hi_at = (ii + 1..instrs.len()).find(|&k| {
        matches!(instrs[k].op, Opcode::Iadd3 { x: true })
            && instrs[k].dsts[0] == Dst::Reg(d.part(1))
    })?;
    let hi = &instrs[hi_at];
    let w_hi = Src::reg(w.part(1));
    let pair_ok = (hi.srcs[0] == w_hi && hi.srcs[1] == base_hi)
        || (hi.srcs[1] == w_hi && hi.srcs[0] == base_hi);
    if !pair_ok
        || hi.guard != Src::TRUE
        || hi.dsts[1] != Dst::None
        || hi.srcs[2] != Src::ZERO
        || hi.srcs[3] != Src::reg(p)
        || hi.srcs[4] != Src::FALSE
    {
        return None;
    }
    let (op, a, b, stable) = wides[&w.idx];
    if !stable && !unchanged_since_product(instrs, ii, hi_at, w, &[a, b]) {
        return None;
    }
    let mut mov = None;
    let b = match (b.val, base.val) {
        (SrcVal::Imm(v), SrcVal::CBuf { .. }) => {
            mov = Some(v);
            Src::ZERO
        }
        (SrcVal::CBuf { .. }, SrcVal::CBuf { .. }) => return None,
        _ => b,
    };
    let wide = Instr::new(op, &[Dst::Reg(Reg { comps: 2, ..d })], &[a, b, base]);
    Some(Fused { hi_at, mov, wide })
}

/// Whether the product `w` is computed earlier in this block (before `lo_at`) and none of its
/// operands is written from there through `hi_at`.
fn unchanged_since_product(
    instrs: &[Instr],
    lo_at: usize,
    hi_at: usize,
    w: Reg,
    ops: &[Src],
) -> bool {
    let writes = |i: &Instr, idx: u32| {
        i.dsts
            .iter()
            .any(|d| d.as_reg().is_some_and(|r| r.idx == idx))
    };
    let Some(at) = (0..lo_at).rev().find(|&k| writes(&instrs[k], w.idx)) else {
        return false;
    };
    let op_regs: Vec<u32> = ops
        .iter()
        .filter_map(|s| s.as_reg())
        .map(|r| r.idx)
        .collect();
    instrs[at + 1..=hi_at]
        .iter()
        .all(|i| op_regs.iter().all(|&r| !writes(i, r)))
}
