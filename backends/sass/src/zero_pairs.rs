//! `CS2R Ra, SRZ` for register pairs zeroed by two moves, as ptxas writes them: after register
//! allocation, `MOV Ra, RZ` next to `MOV Ra+1, RZ` (either order, `a` even, under the same guard,
//! a zero immediate counting as RZ) becomes one CS2R of the pair (SRZ reads as zero; ptxas zeroes
//! MMA accumulators and 64-bit counters so). One instruction fewer per pair, same registers.

use crate::ir::*;

/// The register a move writes zero to, with its guard: `MOV r, RZ` or `MOV r, 0x0`.
fn zeroed(i: &Instr) -> Option<Reg> {
    // Operand lists are padded (RZ sources, no destinations).
    if i.op != Opcode::Mov {
        return None;
    }
    let zero = i.srcs.first() == Some(&Src::ZERO) || i.srcs.first() == Some(&Src::imm(0));
    let rest_none = i.dsts.iter().skip(1).all(|d| *d == Dst::None);
    match i.dsts.first() {
        Some(Dst::Reg(r)) if zero && rest_none && r.file == RegFile::Gpr && r.comps == 1 => {
            Some(*r)
        }
        _ => None,
    }
}

/// Merges each adjacent pair of zeroing moves of an aligned register pair into one CS2R.
/// Runs on allocated code (physical registers); returns how many pairs it merged.
pub fn merge_zero_pairs(f: &mut Function) -> usize {
    debug_assert!(f.allocated, "runs after register allocation");
    let mut merged = 0;
    for b in &mut f.blocks {
        let old = std::mem::take(&mut b.instrs);
        let mut out: Vec<Instr> = Vec::with_capacity(old.len());
        let mut k = 0;
        while k < old.len() {
            let pair = old.get(k + 1).and_then(|next| {
                let (x, y) = (zeroed(&old[k])?, zeroed(next)?);
                let (lo, hi) = if x.idx < y.idx { (x, y) } else { (y, x) };
                let same_guard = old[k].guard == next.guard;
                (same_guard && lo.idx % 2 == 0 && hi.idx == lo.idx + 1 && lo.idx != 254)
                    .then_some(lo)
            });
            match pair {
                Some(lo) => {
                    let d = Reg { comps: 2, ..lo };
                    let op = Opcode::Cs2r {
                        sr: SpecialReg::Zero,
                        wide: true,
                    };
                    out.push(Instr::new(op, &[Dst::Reg(d)], &[]).guarded(old[k].guard));
                    merged += 1;
                    k += 2;
                }
                None => {
                    out.push(old[k].clone());
                    k += 1;
                }
            }
        }
        b.instrs = out;
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mov(r: u32, src: Src) -> Instr {
        Instr::new(Opcode::Mov, &[Dst::Reg(Reg::gpr(r))], &[src])
    }

    #[test]
    fn adjacent_zero_moves_of_an_aligned_pair_become_one_cs2r() {
        let mut f = Function {
            allocated: true,
            ..Function::default()
        };
        f.blocks = vec![Block {
            instrs: vec![
                mov(5, Src::ZERO),
                mov(4, Src::imm(0)),
                // R7 and R8 are no aligned pair; R9 is not zeroed.
                mov(7, Src::ZERO),
                mov(8, Src::ZERO),
                mov(9, Src::imm(1)),
                mov(10, Src::ZERO),
            ],
        }];
        assert_eq!(merge_zero_pairs(&mut f), 1);
        let ops: Vec<Opcode> = f.blocks[0].instrs.iter().map(|i| i.op).collect();
        assert_eq!(ops.len(), 5);
        assert_eq!(
            ops[0],
            Opcode::Cs2r {
                sr: SpecialReg::Zero,
                wide: true
            }
        );
        assert_eq!(
            f.blocks[0].instrs[0].dsts[0],
            Dst::Reg(Reg {
                comps: 2,
                ..Reg::gpr(4)
            })
        );
        assert!(ops[1..].iter().all(|&o| o == Opcode::Mov));
    }
}
