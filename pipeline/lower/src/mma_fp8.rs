//! `mma` with e4m3/e5m2 inputs on sm_90, which has no fp8 tensor op: ptxas's rewrite. Each
//! 32-bit register of A and B holds four fp8 values; F2FP unpacks its low two (`UNPACK_B`) and its
//! high two (`.H1`) into f16x2 registers, giving two f16 fragments of half the depth in the f16
//! `mma`'s layout (the k order permuted alike in A and B, so the dot products are unchanged). Two
//! HMMAs of half the k (m16n8k32 -> HMMA.16816, m16n8k16 -> HMMA.1688) accumulate from zero, the
//! second onto the first, and C is added last, register by register (FADD C, D for f32; HADD2
//! D, C for f16), as ptxas 13.5 writes it.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::fp8::Fp8Form;
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// Whether `op` is an fp8 `mma` that `sm` runs as ptxas's HMMA rewrite.
pub fn is_emulated(op: &MmaOp, sm: Sm) -> bool {
    op.unit() == MmaUnit::Qmma
        && sm.num >= 90
        && matches!(op.acc, MmaElem::F16 | MmaElem::F32)
        && (op.shape.m, op.shape.n) == (16, 8)
        && matches!(op.shape.k, 16 | 32)
}

/// A register of a fragment group (RZ for an all-zero fragment).
fn part(group: Src, k: u8) -> Src {
    match group.val {
        SrcVal::Reg(r) => Src::reg(r.part(k)),
        _ => Src::ZERO,
    }
}

impl Ctx<'_> {
    /// Lowers an fp8 `mma` that [`is_emulated`] on this architecture.
    pub fn lower_mma_fp8_as_hmma(&mut self, i: &Instruction, op: MmaOp) -> LResult<()> {
        let ops = operands_exactly(i, 4)?;
        let a = self.fragment_in(&ops[1], op.a_regs())?;
        let b = self.fragment_in(&ops[2], op.b_regs())?;
        let c = self.fragment_in(&ops[3], op.acc_regs())?;
        let half = MmaOp {
            shape: MmaShape {
                k: op.shape.k / 2,
                ..op.shape
            },
            a: MmaElem::F16,
            b: MmaElem::F16,
            ..op
        };
        let mut acc = Src::ZERO;
        for h1 in [false, true] {
            let ah = self.unpack_fragment(a, op.a_regs(), op.a == MmaElem::E4m3, h1);
            let bh = self.unpack_fragment(b, op.b_regs(), op.b == MmaElem::E4m3, h1);
            let d = self.f.new_vreg(RegFile::Gpr, op.acc_regs());
            self.emit(Opcode::Mma(half), &[Dst::Reg(d)], &[ah, bh, acc]);
            acc = Src::reg(d);
        }
        let bound = self.bound_fragment(&ops[0], op.acc_regs());
        let out = bound.unwrap_or_else(|| self.f.new_vreg(RegFile::Gpr, op.acc_regs()));
        for k in 0..op.acc_regs() {
            let dst = [Dst::Reg(out.part(k))];
            if op.acc == MmaElem::F32 {
                let add = Opcode::Fadd {
                    ftz: false,
                    rnd: Round::Rn,
                };
                self.emit(add, &dst, &[part(c, k), part(acc, k)]);
            } else {
                let add = Opcode::Half2 {
                    op: HalfOp::Add,
                    bf16: false,
                    ftz: false,
                    sat: false,
                    relu: false,
                    f32_out: false,
                    swz: [HalfSwizzle::H1H0; 3],
                };
                self.emit(add, &dst, &[part(acc, k), part(c, k)]);
            }
        }
        match bound {
            Some(_) => Ok(()),
            None => self.fragment_out(&ops[0], out),
        }
    }

    /// A fresh group of `regs` f16x2 registers: the low (or, with `h1`, the high) two fp8 values
    /// of each register of `group`.
    fn unpack_fragment(&mut self, group: Src, regs: u8, e4m3: bool, h1: bool) -> Src {
        let out = self.f.new_vreg(RegFile::Gpr, regs);
        for k in 0..regs {
            let op = Opcode::F2fp8 {
                form: Fp8Form::Unpack { e4m3 },
                relu: false,
                h1,
            };
            let srcs = [Src::ZERO, part(group, k), Src::ZERO];
            self.emit(op, &[Dst::Reg(out.part(k))], &srcs);
        }
        Src::reg(out)
    }
}
