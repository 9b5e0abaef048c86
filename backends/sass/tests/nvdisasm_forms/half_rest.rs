//! Forms of the half-precision instructions of issue 19's scalar remainder: HSET2 (`.BF`, every
//! combine, `.FTZ`, swizzles, negated accumulators; `.BF16_V2` on sm_90), FRND.F16 (FRND.BF16 on
//! sm_90) in each rounding, F2F.BF16.F32.RM/.RP (sm_80+), F2F.BF16.F64 and F2I.*.BF16 (sm_90).

use super::*;

pub(super) fn half_rest_forms(sm: Sm) -> Vec<Instr> {
    use HalfSwizzle::*;
    let mut v = Vec::new();
    let bf16s: &[bool] = if sm.num >= 90 {
        &[false, true]
    } else {
        &[false]
    };
    for &bf16 in bf16s {
        for (cmp, combine, ftz, bool_float, swz, accum) in [
            (
                FloatCmp::Eq,
                BoolOp::And,
                false,
                true,
                [H1H0, H1H0],
                Src::TRUE,
            ),
            (
                FloatCmp::Ltu,
                BoolOp::And,
                true,
                false,
                [H0H0, H0H0],
                Src::TRUE,
            ),
            (FloatCmp::Nan, BoolOp::Or, false, true, [H1H0, H1H1], p(0)),
            (
                FloatCmp::Neu,
                BoolOp::Xor,
                !bf16,
                false,
                [H1H1, H0H0],
                p(3).negated(),
            ),
        ] {
            let op = Opcode::Hset2 {
                cmp,
                combine,
                ftz,
                bf16,
                bool_float,
                swz,
            };
            v.push(Instr::new(
                op,
                &[d(2)],
                &[r(4).negated(), r(5).absolute(), accum],
            ));
        }
        for rnd in [Round::Rn, Round::Rz, Round::Rm, Round::Rp] {
            v.push(Instr::new(Opcode::FrndHalf { rnd, bf16 }, &[d(3)], &[r(6)]));
        }
    }
    if sm.num < 80 {
        return v;
    }
    let mut to_bf16 = vec![(NumFormat::F32, Round::Rm), (NumFormat::F32, Round::Rp)];
    if sm.num >= 90 {
        to_bf16.extend([(NumFormat::F64, Round::Rn), (NumFormat::F64, Round::Rz)]);
        for (dst, rnd, d0) in [
            (NumFormat::S32, Round::Rn, Reg::gpr(3)),
            (NumFormat::U16, Round::Rz, Reg::gpr(3)),
            (NumFormat::S64, Round::Rm, Reg::gpr64(2)),
            (NumFormat::U32, Round::Rp, Reg::gpr(3)),
        ] {
            let op = Opcode::F2iWide {
                dst,
                src: NumFormat::Bf16,
                rnd,
            };
            v.push(Instr::new(op, &[Dst::Reg(d0)], &[r(4)]));
        }
    }
    for (src, rnd) in to_bf16 {
        let s0 = if src.is_wide() {
            Reg::gpr64(4)
        } else {
            Reg::gpr(4)
        };
        let op = Opcode::F2f {
            dst: NumFormat::Bf16,
            src,
            rnd,
        };
        v.push(Instr::new(op, &[d(3)], &[Src::reg(s0)]));
    }
    v
}
