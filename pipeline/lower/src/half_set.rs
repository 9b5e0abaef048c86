//! `set` on f16, bf16, f16x2 and bf16x2 sources as ptxas 13.5 writes it (sm_75..sm_90): one
//! HSET2, lane by lane (a scalar source read as `.H0_H0`, so both lanes hold its answer), with
//! `.BF` (1.0 of the format) for an `.f16`/`.bf16`/`x2` result and all ones per lane for an
//! integer one; `.and/.or/.xor` combine with a predicate, `.ftz` flushes denormal sources.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    /// `set.cmp[.bool][.ftz].dtype.stype d, a, b[, c]` with a half-precision `stype`.
    pub(crate) fn half_set(&mut self, i: &Instruction, dtype: Type, stype: Type) -> LResult<()> {
        let (bf16, packed) = match stype {
            Type::F16 => (false, false),
            Type::BF16 => (true, false),
            Type::F16x2 => (false, true),
            Type::BF16x2 => (true, true),
            _ => return Err(unsupported(i)),
        };
        let bool_float = dtype.is_float();
        let ftz = i.has_mod("ftz");
        // A float result takes the source's format; ptxas writes `.ftz` with a scalar float
        // result another way (HSET2, PRMTs, I2F.F16.S16), not lowered here.
        if bool_float && (dtype != stype || (ftz && !packed)) {
            return Err(unsupported(i));
        }
        crate::int::check_setp_arity(i)?;
        let cmp = crate::float::float_cmp(i)?;
        let (combine, accum) = self.setp_combine(i)?;
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let sw = if packed {
            HalfSwizzle::H1H0
        } else {
            HalfSwizzle::H0H0
        };
        self.emit(
            Opcode::Hset2 {
                cmp,
                combine,
                ftz,
                bf16,
                bool_float,
                swz: [sw, sw],
            },
            &[Dst::Reg(d)],
            &[a, b, accum],
        );
        Ok(())
    }
}
