//! FP8 conversions (sm_89+), one F2FP each as ptxas writes them:
//! `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b` (a into the high byte),
//! `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a` and `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}
//! d, a` (a's low two bytes into an f16x2). The packed bytes land in the low half of d, zeros above.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::fp8::Fp8Form;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Whether `i` is a `cvt` to or from `.e4m3x2`/`.e5m2x2`.
pub fn is_fp8_cvt(i: &Instruction) -> bool {
    i.opcode() == "cvt" && (i.has_mod("e4m3x2") || i.has_mod("e5m2x2"))
}

/// The F2FP form of an FP8 `cvt`, from the order of its type modifiers (destination first).
fn form_of(i: &Instruction) -> Option<Fp8Form> {
    let types: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| m.as_str())
        .filter(|m| matches!(*m, "e4m3x2" | "e5m2x2" | "f32" | "f16x2"))
        .collect();
    let e4m3 = i.has_mod("e4m3x2");
    let sat = i.has_mod("satfinite");
    match types[..] {
        ["e4m3x2" | "e5m2x2", "f32"] if sat => Some(Fp8Form::PackF32 { e4m3 }),
        ["e4m3x2" | "e5m2x2", "f16x2"] if sat => Some(Fp8Form::PackF16x2 { e4m3 }),
        ["f16x2", "e4m3x2" | "e5m2x2"] if !sat => Some(Fp8Form::Unpack { e4m3 }),
        _ => None,
    }
}

impl Ctx<'_> {
    /// Lowers an FP8 `cvt` (see the module comment).
    pub fn lower_cvt_fp8(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || {
            format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            )
        };
        let form = form_of(i).ok_or_else(unsupported)?;
        let known = |m: &str| {
            matches!(
                m,
                "rn" | "satfinite" | "relu" | "e4m3x2" | "e5m2x2" | "f32" | "f16x2"
            )
        };
        if self.sm.num < 89 || !i.mods().iter().all(|m| known(m)) || !i.has_mod("rn") {
            return Err(unsupported());
        }
        let packs_two = matches!(form, Fp8Form::PackF32 { .. });
        crate::ctx::operands_exactly(i, if packs_two { 3 } else { 2 })?;
        let d = self.dst(&i.operands[0])?;
        let srcs = if packs_two {
            let a = self.reg_src32(&i.operands[1])?;
            let b = self.reg_src32(&i.operands[2])?;
            [a, b, Src::ZERO]
        } else {
            [Src::ZERO, self.reg_src32(&i.operands[1])?, Src::ZERO]
        };
        let op = Opcode::F2fp8 {
            form,
            relu: i.has_mod("relu"),
            h1: false,
        };
        self.emit(op, &[Dst::Reg(d)], &srcs);
        Ok(())
    }
}
