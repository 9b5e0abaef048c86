//! The `.approx` math instructions on the multi-function unit, as ptxas 13.5 writes them on
//! sm_75..sm_90: `sin cos ex2 lg2 rsqrt rcp sqrt tanh .approx[.ftz].f32` (MUFU.<func>, with
//! ptxas's scaling of denormal operands when not `.ftz`; sin and cos multiply by 1/(2 pi) with
//! FMUL.RZ first), `div.approx/div.full[.ftz].f32` (MUFU.RCP and FMUL, with ptxas's operand
//! scaling), `rcp/rsqrt.approx.ftz.f64` (MUFU.RCP64H/RSQ64H on the high word, low word zero) and
//! `cvt.rni/rzi/rmi/rpi.f64.f64` (FRND.F64); `lower_mufu` also routes `sqrt.rn.f64`
//! (`sqrt64.rs`) and `div/rcp.rn.f32` (`ieee_div.rs`). Where ptxas predicates the scaling (`@!P0 FMUL`),
//! this computes both sides and picks one with SEL.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// f32 bit patterns of ptxas's constants.
const ONE_OVER_TWO_PI: u32 = 0x3e22_f983;
const MINUS_126: u32 = 0xc2fc_0000;
const HALF: u32 = 0x3f00_0000;
const QUARTER: u32 = 0x3e80_0000;
const ONE: u32 = 0x3f80_0000;
/// The smallest normal f32, 2^-126.
const SMALLEST_NORMAL: u32 = 0x0080_0000;
/// 2^126: a divisor above it is scaled by 1/4 (its reciprocal would be denormal).
const TWO_POW_126: u32 = 0x7e80_0000;
const TWO_POW_24: u32 = 0x4b80_0000;
const MINUS_24: u32 = 0xc1c0_0000;
const TWO_POW_12: u32 = 0x4580_0000;
const TWO_POW_MINUS_12: u32 = 0x3980_0000;

impl Ctx<'_> {
    /// The `.approx`/`.full` forms this file lowers; `None` for any other instruction.
    pub fn lower_mufu(&mut self, i: &Instruction, ty: Type) -> Option<LResult<()>> {
        let approx = i.has_mod("approx");
        let ftz = i.has_mod("ftz");
        let func = match i.opcode() {
            "div" | "rcp" if ty == Type::F32 && i.has_mod("rn") && !ftz => {
                return Some(self.div_rn_f32(i));
            }
            "div" | "rcp" if ty == Type::F32 && !ftz && directed(i).is_some() => {
                return Some(self.div_directed_f32(i, directed(i)?));
            }
            "div" | "rcp" if ty == Type::F64 && !approx => {
                let rnd = directed(i).unwrap_or(Round::Rn);
                return Some(self.div_f64(i, rnd));
            }
            "sin" => MufuFunc::Sin,
            "cos" => MufuFunc::Cos,
            "ex2" => MufuFunc::Ex2,
            "lg2" => MufuFunc::Lg2,
            "rsqrt" => MufuFunc::Rsq,
            "rcp" => MufuFunc::Rcp,
            "sqrt" => MufuFunc::Sqrt,
            "tanh" => MufuFunc::Tanh,
            "div" if ty == Type::F32 && (approx || i.has_mod("full")) => {
                return Some(self.divide_approx(i, ftz, approx));
            }
            _ => return None,
        };
        if !approx {
            if (ty, func) == (Type::F64, MufuFunc::Sqrt) {
                let rnd = directed(i).or(i.has_mod("rn").then_some(Round::Rn))?;
                return Some(self.sqrt_rn_f64(i, rnd));
            }
            return None;
        }
        match (ty, func) {
            (Type::F32, _) => Some(self.mufu_f32(i, func, ftz)),
            (Type::F64, MufuFunc::Rcp) if ftz => Some(self.mufu_f64(i, MufuFunc::Rcp64h)),
            (Type::F64, MufuFunc::Rsq) if ftz => Some(self.mufu_f64(i, MufuFunc::Rsq64h)),
            (Type::F64, MufuFunc::Rsq) => Some(self.rsqrt_approx_f64(i)),
            _ => None,
        }
    }

    /// `func.approx[.ftz].f32 d, a`.
    fn mufu_f32(&mut self, i: &Instruction, func: MufuFunc, ftz: bool) -> LResult<()> {
        crate::ctx::operands_exactly(i, 2)?;
        let d = self.dst(&i.operands[0])?;
        let x = self.reg_src32(&i.operands[1])?;
        let r = match func {
            MufuFunc::Sin | MufuFunc::Cos => {
                let k = self.in_reg(Src::imm(ONE_OVER_TWO_PI));
                let turns = self.temp();
                self.emit(
                    Opcode::FmulRound {
                        ftz: false,
                        rnd: Round::Rz,
                    },
                    &[Dst::Reg(turns)],
                    &[x, k],
                );
                self.mufu(func, Src::reg(turns))
            }
            MufuFunc::Tanh => self.mufu(func, x),
            _ if ftz => self.mufu(func, x),
            MufuFunc::Ex2 => self.ex2_denormal_safe(x),
            MufuFunc::Rcp => self.rcp_denormal_safe(x),
            MufuFunc::Lg2 => self.scaled_by_2_24(x, func, |cx, r| cx.fadd_imm(r, MINUS_24)),
            MufuFunc::Rsq => self.scaled_by_2_24(x, func, |cx, r| cx.fmul_imm(r, TWO_POW_12)),
            MufuFunc::Sqrt => {
                self.scaled_by_2_24(x, func, |cx, r| cx.fmul_imm(r, TWO_POW_MINUS_12))
            }
            _ => return Err(format!("'{}' is not supported yet", i.opcode())),
        };
        self.emit(Opcode::Mov, &[Dst::Reg(d)], &[r]);
        Ok(())
    }

    /// `rcp/rsqrt.approx.ftz.f64 d, a`: the 64H function of `a`'s high word; the low word is 0.
    fn mufu_f64(&mut self, i: &Instruction, func: MufuFunc) -> LResult<()> {
        crate::ctx::operands_exactly(i, 2)?;
        let d = self.dst(&i.operands[0])?;
        if d.comps != 2 {
            return Err(format!(
                "expected a 64-bit register, found {:?}",
                i.operands[0]
            ));
        }
        let a = self.double_src(&i.operands[1])?;
        let hi = match a.val {
            SrcVal::Reg(r) => Src::reg(r.part(1)),
            _ => Src::ZERO,
        };
        let r = self.mufu(func, hi);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[r]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[Src::ZERO]);
        Ok(())
    }

    /// `cvt.rni/rzi/rmi/rpi.f64.f64 d, a`: FRND.F64.
    pub fn frnd_f64(&mut self, d: Reg, a: Src, rnd: Round) -> LResult<()> {
        let a = self.in_reg(a);
        self.emit(Opcode::FrndF64 { rnd }, &[Dst::Reg(d)], &[a]);
        Ok(())
    }

    /// ex2 without `.ftz`: below -126 (a denormal result) ex2(x / 2) squared.
    fn ex2_denormal_safe(&mut self, x: Src) -> Src {
        let normal = self.fcompare(FloatCmp::Geu, x, MINUS_126, false);
        let halved = self.fmul_imm(x, HALF);
        let input = self.select(normal, x, halved);
        let r = self.mufu(MufuFunc::Ex2, input);
        let squared = self.temp();
        self.emit(Opcode::Fmul { ftz: false }, &[Dst::Reg(squared)], &[r, r]);
        self.select(normal, r, Src::reg(squared))
    }

    /// lg2, rsqrt and sqrt without `.ftz`: a denormal `x` times 2^24 through MUFU, the result
    /// corrected by `fix`.
    fn scaled_by_2_24(
        &mut self,
        x: Src,
        func: MufuFunc,
        fix: impl FnOnce(&mut Self, Src) -> Src,
    ) -> Src {
        let normal = self.fcompare(FloatCmp::Geu, x.absolute(), SMALLEST_NORMAL, false);
        let scaled = self.fmul_imm(x, TWO_POW_24);
        let input = self.select(normal, x, scaled);
        let r = self.mufu(func, input);
        let fixed = fix(self, r);
        self.select(normal, r, fixed)
    }

    /// rcp without `.ftz`: `s * rcp(x * s)` with `s` 2^24 for a denormal `x`, 1/4 above 2^126.
    fn rcp_denormal_safe(&mut self, x: Src) -> Src {
        let normal = self.fcompare(FloatCmp::Geu, x.absolute(), SMALLEST_NORMAL, false);
        let huge = self.fcompare(FloatCmp::Gt, x.absolute(), TWO_POW_126, false);
        let one = self.in_reg(Src::imm(ONE));
        let big = self.in_reg(Src::imm(TWO_POW_24));
        let s = self.select(normal, one, big);
        let quarter = self.in_reg(Src::imm(QUARTER));
        let s = self.select(huge, quarter, s);
        let input = self.temp();
        self.emit(Opcode::Fmul { ftz: false }, &[Dst::Reg(input)], &[x, s]);
        let r = self.mufu(MufuFunc::Rcp, Src::reg(input));
        let out = self.temp();
        self.emit(Opcode::Fmul { ftz: false }, &[Dst::Reg(out)], &[s, r]);
        Src::reg(out)
    }

    /// `div.approx/div.full[.ftz].f32 d, a, b`: `a * rcp(b)`, both scaled by 1/4 when |b| > 2^126
    /// (`.full`) and by 2^24 when `b` is denormal (without `.ftz`).
    fn divide_approx(&mut self, i: &Instruction, ftz: bool, approx: bool) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        let d = self.dst(&i.operands[0])?;
        let mut a = self.reg_src32(&i.operands[1])?;
        let mut b = self.reg_src32(&i.operands[2])?;
        let normal =
            (!ftz).then(|| self.fcompare(FloatCmp::Geu, b.absolute(), SMALLEST_NORMAL, false));
        if !approx {
            let huge = self.fcompare(FloatCmp::Gt, b.absolute(), TWO_POW_126, ftz);
            let (qa, qb) = (
                self.fmul_imm_ftz(a, QUARTER, ftz),
                self.fmul_imm_ftz(b, QUARTER, ftz),
            );
            a = self.select(huge, qa, a);
            b = self.select(huge, qb, b);
        }
        if let Some(normal) = normal {
            let (sa, sb) = (self.fmul_imm(a, TWO_POW_24), self.fmul_imm(b, TWO_POW_24));
            a = self.select(normal, a, sa);
            b = self.select(normal, b, sb);
        }
        let r = self.mufu(MufuFunc::Rcp, b);
        self.emit(Opcode::Fmul { ftz }, &[Dst::Reg(d)], &[r, a]);
        Ok(())
    }

    fn mufu(&mut self, func: MufuFunc, x: Src) -> Src {
        let x = self.in_reg(x);
        let r = self.temp();
        self.emit(Opcode::Mufu { func }, &[Dst::Reg(r)], &[x]);
        Src::reg(r)
    }

    /// `FSETP.cmp[.FTZ].AND p, x, k` against the f32 bits `k`.
    fn fcompare(&mut self, cmp: FloatCmp, x: Src, k: u32, ftz: bool) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Fsetp {
            cmp,
            combine: BoolOp::And,
            ftz,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[x, Src::imm(k), Src::TRUE]);
        Src::reg(p)
    }

    /// `p ? a : b`.
    fn select(&mut self, p: Src, a: Src, b: Src) -> Src {
        let a = self.in_reg(a);
        let r = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(r)], &[a, b, p]);
        Src::reg(r)
    }

    fn fmul_imm(&mut self, x: Src, k: u32) -> Src {
        self.fmul_imm_ftz(x, k, false)
    }

    fn fmul_imm_ftz(&mut self, x: Src, k: u32, ftz: bool) -> Src {
        let x = self.in_reg(x);
        let r = self.temp();
        self.emit(Opcode::Fmul { ftz }, &[Dst::Reg(r)], &[x, Src::imm(k)]);
        Src::reg(r)
    }

    fn fadd_imm(&mut self, x: Src, k: u32) -> Src {
        let r = self.temp();
        let op = Opcode::Fadd {
            ftz: false,
            rnd: Round::Rn,
        };
        self.emit(op, &[Dst::Reg(r)], &[x, Src::imm(k)]);
        Src::reg(r)
    }
}

/// The directed IEEE rounding modifier of an instruction (`.rz`, `.rm`, `.rp`), if it has one.
fn directed(i: &Instruction) -> Option<Round> {
    i.mods().iter().find_map(|m| match m.as_str() {
        "rz" => Some(Round::Rz),
        "rm" => Some(Round::Rm),
        "rp" => Some(Round::Rp),
        _ => None,
    })
}
