//! Local value numbering: within a block, a pure instruction that computes what an earlier one
//! already computed from the same operand values is removed and its result's readers read the
//! earlier result. Registers written more than once are versioned within the block, so an
//! operand redefined in between never matches; both results must be written only once in the
//! function, so the earlier one holds its value wherever the later one was read.

use ptxforge_sass::fast_hash::FastMap as HashMap;
use ptxforge_sass::ir::*;

/// Removes repeated pure computations within each block.
pub fn eliminate_local_redundancy(f: &mut Function) {
    let defs = write_counts(f);
    let whole_once = |r: &Reg| {
        r.comp == 0
            && f.vreg_comps.get(r.idx as usize) == Some(&r.comps)
            && defs.get(r.idx as usize) == Some(&(r.comps as u32))
    };
    let mut rename: HashMap<u32, u32> = HashMap::default();
    let mut removed = 0;
    for b in f.blocks.iter_mut() {
        let mut version: HashMap<u32, u32> = HashMap::default();
        let mut seen: HashMap<Key, [Dst; 2]> = HashMap::default();
        let mut dead = vec![false; b.instrs.len()];
        for (ii, i) in b.instrs.iter_mut().enumerate() {
            apply_rename(i, &rename);
            if let Some(key) = key_of(i, &version, &whole_once) {
                match seen.get(&key) {
                    Some(first) => {
                        for (d, e) in i.dsts.iter().zip(first) {
                            if let (Dst::Reg(d), Dst::Reg(e)) = (d, e) {
                                rename.insert(d.idx, e.idx);
                            }
                        }
                        dead[ii] = true;
                        removed += 1;
                        continue;
                    }
                    None => {
                        seen.insert(key, i.dsts);
                    }
                }
            }
            i.visit_regs(|r, a| {
                if a == Access::Write {
                    *version.entry(r.idx).or_default() += 1;
                }
            });
        }
        let mut n = 0;
        b.instrs.retain(|_| {
            n += 1;
            !dead[n - 1]
        });
    }
    if removed == 0 {
        return;
    }
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            apply_rename(i, &rename);
        }
    }
}

/// An operation with its operands, each register tagged with its version in the block.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: Opcode,
    srcs: [(Src, u32); 5],
    dsts: [Option<(RegFile, u8)>; 2],
}

fn key_of(
    i: &Instr,
    version: &HashMap<u32, u32>,
    whole_once: &impl Fn(&Reg) -> bool,
) -> Option<Key> {
    if i.guard != Src::TRUE || !is_pure(&i.op) {
        return None;
    }
    let mut dsts = [None; 2];
    for (k, d) in i.dsts.iter().enumerate() {
        if let Dst::Reg(r) = d {
            if !whole_once(r) {
                return None;
            }
            dsts[k] = Some((r.file, r.comps));
        }
    }
    dsts.iter().any(Option::is_some).then_some(())?;
    let srcs = i.srcs.map(|s| {
        let v = s
            .as_reg()
            .map_or(0, |r| version.get(&r.idx).copied().unwrap_or(0));
        (s, v)
    });
    Some(Key {
        op: i.op,
        srcs,
        dsts,
    })
}

/// Operations whose results depend only on their operands (no memory, no lane exchange, no clock).
fn is_pure(op: &Opcode) -> bool {
    matches!(
        op,
        Opcode::Mov
            | Opcode::Iadd3 { .. }
            | Opcode::Imad { .. }
            | Opcode::Iabs
            | Opcode::Imnmx { .. }
            | Opcode::Fadd { .. }
            | Opcode::Fmul { .. }
            | Opcode::Ffma { .. }
            | Opcode::Fmnmx { .. }
            | Opcode::Isetp { .. }
            | Opcode::Fsetp { .. }
            | Opcode::Sel
            | Opcode::Lop3 { .. }
            | Opcode::Shf { .. }
            | Opcode::Prmt { .. }
            | Opcode::Vabsdiff { .. }
            | Opcode::Bmsk { .. }
            | Opcode::Sgxt { .. }
            | Opcode::Idp { .. }
            | Opcode::I2fp { .. }
            | Opcode::Flo { .. }
            | Opcode::Popc
            | Opcode::Brev
            | Opcode::Uldc { .. }
            | Opcode::S2r(
                SpecialReg::TidX
                    | SpecialReg::TidY
                    | SpecialReg::TidZ
                    | SpecialReg::CtaIdX
                    | SpecialReg::CtaIdY
                    | SpecialReg::CtaIdZ
                    | SpecialReg::LaneId
            )
    )
}

fn apply_rename(i: &mut Instr, rename: &HashMap<u32, u32>) {
    if rename.is_empty() {
        return;
    }
    i.visit_regs_mut(|r, a| {
        if a == Access::Read {
            if let Some(&to) = rename.get(&r.idx) {
                r.idx = to;
            }
        }
    });
}

/// Per vreg: how many 32-bit parts are written in the whole function, summed over writes (also
/// licm's test for registers written once).
pub(crate) fn write_counts(f: &Function) -> Vec<u32> {
    let mut n = vec![0u32; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                n[r.idx as usize] += r.comps as u32;
            }
        });
    }
    n
}
