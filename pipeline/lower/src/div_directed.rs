//! `div.rz/.rm/.rp.f32` and `rcp.rz/.rm/.rp.f32`: IEEE division rounded toward zero, minus or
//! plus infinity. ptxas calls a subroutine (`__cuda_sm20_div_rz_f32` ...) that scales the
//! operands, refines a MUFU.RCP quotient and rounds its last FFMA in the wanted direction; here
//! the quotient is computed inline in f64 and narrowed once with F2F.F32.F64 in that direction:
//! - zeros, infinities and NaNs: `a * rcp(b * s)` as for `div.rn` (`ieee_div.rs`), exact results
//!   that need no rounding;
//! - everything else: the signed quotient `q1 = q + r (a - b q)` of the f64 widenings, r = 1/b from
//!   MUFU.RCP64H and three Newton steps. A quotient of two 24-bit significands that is not itself
//!   an f32 (denormal results included) lies at least 2^-48 (relative) from every f32, far more
//!   than q1's error, so q1 is on the same side of every f32 as the exact quotient and one
//!   directed F2F gives the correctly rounded result, overflow (to the largest finite or to
//!   infinity, as the direction says) included.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

const ONE_F32: u32 = 0x3f80_0000;

impl Ctx<'_> {
    /// `div.{rz,rm,rp}.f32 d, a, b` and `rcp.{rz,rm,rp}.f32 d, b` (without `.ftz`).
    pub fn div_directed_f32(&mut self, i: &Instruction, rnd: Round) -> LResult<()> {
        let rcp = i.opcode() == "rcp";
        crate::ctx::operands_exactly(i, if rcp { 2 } else { 3 })?;
        let d = self.dst(&i.operands[0])?;
        let a = if rcp {
            self.in_reg(Src::imm(ONE_F32))
        } else {
            self.reg_src32(&i.operands[1])?
        };
        let b = self.reg_src32(&i.operands[i.operands.len() - 1])?;
        let special = self.div_special(a, b);
        let special_q = self.div_special_quotient(a, b);
        let directed = self.div_f64_directed(a, b, rnd);
        let special_q = self.in_reg(special_q);
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[special_q, directed, special]);
        Ok(())
    }

    /// a / b for finite nonzero f32 `a`, `b`: the f64 quotient narrowed in the direction `rnd`.
    fn div_f64_directed(&mut self, a: Src, b: Src, rnd: Round) -> Src {
        let big_a = self.widen_f32(a);
        let big_b = self.widen_f32(b);
        let r = self.rcp_f64(big_b);
        let q = self.dmul(big_a, r);
        let rem = self.dfma_rnd(Round::Rn, big_b.negated(), q, big_a);
        let q1 = self.dfma_rnd(Round::Rn, rem, r, q);
        let narrowed = self.temp();
        self.emit(
            Opcode::F2f {
                dst: NumFormat::F32,
                src: NumFormat::F64,
                rnd,
            },
            &[Dst::Reg(narrowed)],
            &[q1],
        );
        Src::reg(narrowed)
    }

    /// An f32 widened to f64 (exact, denormals included).
    fn widen_f32(&mut self, x: Src) -> Src {
        let d = self.temp64();
        self.emit(
            Opcode::F2f {
                dst: NumFormat::F64,
                src: NumFormat::F32,
                rnd: Round::Rn,
            },
            &[Dst::Reg(d)],
            &[x],
        );
        Src::reg(d)
    }
}
