//! f64 arithmetic and comparisons on the FP64 unit: DADD, DMUL, DFMA, DSETP, with min/max as
//! ptxas writes them (DSETP.MIN/MAX picks a side, SEL each half, a both-NaN result is quieted).

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// The quiet bit of an f64 NaN, in the high word.
const QUIET_BIT_HI: u32 = 0x0008_0000;
const LUT_OR: u8 = 0xfc;

impl Ctx<'_> {
    /// `add sub mul fma mad neg abs min max setp` on `.f64`.
    pub fn lower_double(&mut self, i: &Instruction) -> LResult<()> {
        let rnd = rounding(i)?;
        match i.opcode() {
            "add" | "sub" | "mul" => {
                let (d, [a, b]) = self.double_operands::<2>(i)?;
                let (op, b) = match i.opcode() {
                    "add" => (Opcode::Dadd { rnd }, b),
                    "sub" => (Opcode::Dadd { rnd }, b.negated()),
                    _ => (Opcode::Dmul { rnd }, b),
                };
                self.emit(op, &[Dst::Reg(d)], &[a, b]);
                Ok(())
            }
            "fma" | "mad" => {
                let (d, [a, b, c]) = self.double_operands::<3>(i)?;
                self.emit(Opcode::Dfma { rnd }, &[Dst::Reg(d)], &[a, b, c]);
                Ok(())
            }
            // -0 + (-a) and -0 + |a|: exact, and +0 stays +0 (ptxas's DADD -RZ form).
            "neg" | "abs" => {
                let (d, [a]) = self.double_operands::<1>(i)?;
                let a = if i.opcode() == "neg" {
                    a.negated()
                } else {
                    a.absolute()
                };
                self.emit(
                    Opcode::Dadd { rnd: Round::Rn },
                    &[Dst::Reg(d)],
                    &[Src::ZERO.negated(), a],
                );
                Ok(())
            }
            "min" | "max" => self.double_minmax(i),
            "setp" => {
                let dsts = self.setp_dsts(&i.operands[0])?;
                self.double_setp(i, dsts)
            }
            _ => Err(unsupported(i)),
        }
    }

    /// The destination and `N` sources of an f64 instruction.
    fn double_operands<const N: usize>(&mut self, i: &Instruction) -> LResult<(Reg, [Src; N])> {
        crate::ctx::operands_exactly(i, N + 1)?;
        let d = self.double_dst(&i.operands[0])?;
        let mut srcs = [Src::ZERO; N];
        for (s, op) in srcs.iter_mut().zip(&i.operands[1..]) {
            *s = self.double_src(op)?;
        }
        Ok((d, srcs))
    }

    fn double_dst(&mut self, op: &Operand) -> LResult<Reg> {
        let d = self.dst(op)?;
        if d.comps != 2 {
            return Err(format!("expected a 64-bit register, found {op:?}"));
        }
        Ok(d)
    }

    /// An f64 (or 64-bit integer) source as a register pair: zero is RZ, other immediates are
    /// moved into a pair.
    pub fn double_src(&mut self, op: &Operand) -> LResult<Src> {
        let bits = match op {
            Operand::Reg(_) => return Ok(Src::reg(self.double_dst(op)?)),
            Operand::F64(bits) => *bits,
            // ptxas takes a `0f` literal's bits zero-extended, not its value.
            Operand::F32(bits) => u64::from(*bits),
            Operand::Imm(v) => *v as u64,
            _ => return Err(format!("unsupported f64 operand {op:?}")),
        };
        if bits == 0 {
            return Ok(Src::ZERO);
        }
        let halves = [bits as u32, (bits >> 32) as u32].map(|word| {
            if word == 0 {
                Src::ZERO
            } else {
                Src::imm(word)
            }
        });
        Ok(Src::reg(self.pair_of(halves)))
    }

    /// `min/max.f64`: DSETP.MIN/MAX picks a side (its accumulator is the instruction's guard, so
    /// the both-NaN predicate is false where the instruction does not run), SEL writes each half,
    /// and a both-NaN result gets the quiet bit of the second operand's NaN.
    fn double_minmax(&mut self, i: &Instruction) -> LResult<()> {
        let (d, [a, b]) = self.double_operands::<2>(i)?;
        let test = if i.opcode() == "min" {
            DoubleTest::Min
        } else {
            DoubleTest::Max
        };
        let (pick_a, both_nan) = (self.temp_pred(), self.temp_pred());
        let guard = std::mem::replace(&mut self.guard, Src::TRUE);
        let dsetp = Opcode::Dsetp {
            test,
            combine: BoolOp::And,
        };
        self.emit(
            dsetp,
            &[Dst::Reg(pick_a), Dst::Reg(both_nan)],
            &[a, b, guard],
        );
        self.guard = guard;
        for half in 0..2 {
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(d.part(half))],
                &[half_of(a, half), half_of(b, half), Src::reg(pick_a)],
            );
        }
        self.guard = Src::reg(both_nan);
        let lop = Opcode::Lop3 { lut: LUT_OR };
        self.emit(
            lop,
            &[Dst::Reg(d.part(1)), Dst::None],
            &[half_of(b, 1), Src::imm(QUIET_BIT_HI), Src::ZERO, Src::FALSE],
        );
        self.guard = guard;
        Ok(())
    }

    /// `setp.cmp[.and|.or|.xor].f64`: one DSETP.
    /// `setp` (or `set`'s compare) on f64 sources into `d0, d1`.
    pub(crate) fn double_setp(&mut self, i: &Instruction, (d0, d1): (Dst, Dst)) -> LResult<()> {
        crate::int::check_setp_arity(i)?;
        let cmp = crate::float::float_cmp(i)?;
        let (combine, accum) = self.setp_combine(i)?;
        let a = self.double_src(&i.operands[1])?;
        let b = self.double_src(&i.operands[2])?;
        self.emit(
            Opcode::Dsetp {
                test: DoubleTest::Cmp(cmp),
                combine,
            },
            &[d0, d1],
            &[a, b, accum],
        );
        Ok(())
    }
}

/// The low (0) or high (1) word of an f64 source (RZ stays RZ).
fn half_of(s: Src, half: u8) -> Src {
    match s.val {
        SrcVal::Reg(r) => Src::reg(r.part(half)),
        _ => s,
    }
}

/// The IEEE rounding modifier of an f64 instruction (`.rn` when absent).
pub fn rounding(i: &Instruction) -> LResult<Round> {
    let mut modes = i.mods().iter().filter_map(|m| match m.as_str() {
        "rn" => Some(Round::Rn),
        "rm" => Some(Round::Rm),
        "rp" => Some(Round::Rp),
        "rz" => Some(Round::Rz),
        _ => None,
    });
    let r = modes.next().unwrap_or(Round::Rn);
    if modes.next().is_some() {
        return Err(unsupported(i));
    }
    Ok(r)
}
