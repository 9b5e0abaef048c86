//! The generator's wider instruction mix: bit-field and funnel operations, packed f16x2/bf16x2
//! arithmetic, carry chains and dot products (each an exact operation, so the three runners must
//! agree to the bit).

use super::gen::Gen;
use super::program::{Kind, Op};

impl Gen<'_> {
    /// bfe/bfi with register fields, prmt in every mode, bmsk, brev/popc on 64 bits, copysign,
    /// testp.
    pub(super) fn bits(&mut self) -> Op {
        use Kind::*;
        match self.below(8) {
            0 => {
                let ty = *self.one(&["u32", "s32"]);
                self.ternary_vars(&format!("bfe.{ty}"), R, R, R, R)
            }
            1 => {
                let ty = *self.one(&["u64", "s64"]);
                // Fields kept below 256: ptxas shifts by the whole register where the ISA reads
                // its low byte (random_found/ptxasbug_bfe64_field_byte_sm75.ptx).
                let mut op = self.ternary_vars(&format!("bfe.{ty}"), Rd, Rd, R, R);
                op.template = format!(
                    "and.b32 %t1, {{1}}, 255;\nand.b32 %t2, {{2}}, 255;\nbfe.{ty} {{d}}, {{0}}, %t1, %t2;"
                );
                op
            }
            2 => {
                let mut op = self.ternary_vars("bfi.b32", R, R, R, R);
                let len = self.below(40);
                op.template = format!("bfi.b32 {{d}}, {{0}}, {{1}}, {{2}}, {len};");
                op
            }
            3 => {
                let mode = *self.one(&["", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"]);
                self.ternary_vars(&format!("prmt.b32{mode}"), R, R, R, R)
            }
            4 => {
                let mode = *self.one(&[".clamp", ".wrap"]);
                self.binary_vars(&format!("bmsk{mode}.b32"), R, R, R)
            }
            5 => self.unary("brev.b64", Rd, Rd),
            6 => {
                let ty = *self.one(&["f32", "f64"]);
                let k = if ty == "f32" { F } else { Fd };
                self.binary_vars(&format!("copysign.{ty}"), k, k, k)
            }
            _ => {
                let class = *self.one(&[
                    "finite",
                    "infinite",
                    "number",
                    "notanumber",
                    "normal",
                    "subnormal",
                ]);
                let (ty, k) = *self.one(&[("f32", F), ("f64", Fd)]);
                // Through a temporary, so that a guard lands on the mov: ptxas folds a guarded
                // testp of a known value as if unguarded (ptxasbug_testp_guard_folded_sm90.ptx).
                let mut op = self.unary("testp", P, k);
                op.template = format!("testp.{class}.{ty} %tp1, {{0}};\nmov.pred {{d}}, %tp1;");
                op
            }
        }
    }

    /// f16x2 and bf16x2 arithmetic on 32-bit registers, and the packing conversions.
    pub(super) fn packed(&mut self) -> Op {
        use Kind::*;
        let bf = self.cfg.sm >= 90 && self.chance(30);
        let ty = if bf { "bf16x2" } else { "f16x2" };
        match self.below(6) {
            0 | 1 => {
                let op = *self.one(&["add", "sub", "mul"]);
                let ftz = if !bf && self.chance(20) { ".ftz" } else { "" };
                self.binary_vars(&format!("{op}.rn{ftz}.{ty}"), R, R, R)
            }
            2 => {
                let relu = if self.cfg.sm >= 80 && self.chance(30) {
                    ".relu"
                } else {
                    ""
                };
                self.ternary_vars(&format!("fma.rn{relu}.{ty}"), R, R, R, R)
            }
            3 if self.cfg.sm >= 80 => {
                let op = *self.one(&["min", "max"]);
                let nan = if self.chance(30) { ".NaN" } else { "" };
                let o = self.binary_vars(&format!("{op}{nan}.{ty}"), R, R, R);
                self.distinct_sources(o, R)
            }
            4 => {
                let op = *self.one(&["neg", "abs"]);
                let mut o = self.unary(&format!("{op}.{ty}"), R, R);
                // 32-bit variables hold any bits: PTX leaves the NaN a neg/abs of a NaN half
                // makes unspecified, and ptxas folds neg(neg x) into x where we canonicalise, so
                // a NaN half would reach integer code differently (found as
                // open_sm90_seed5228_dp2a). Clearing each half's top exponent bit leaves none.
                if !self.cfg.nan_inputs {
                    o.template = format!("and.b32 %t1, {{0}}, -1073758209;\n{op}.{ty} {{d}}, %t1;");
                }
                o
            }
            5 if self.cfg.sm >= 80 => {
                let to = *self.one(&["f16x2", "bf16x2"]);
                let relu = if self.chance(30) { ".relu" } else { "" };
                self.binary_vars(&format!("cvt.rn{relu}.{to}.f32"), R, F, F)
            }
            _ => self.binary_vars(&format!("add.rn.{ty}"), R, R, R),
        }
    }

    /// Carry chains: add.cc/addc, sub.cc/subc and mad.cc/madc, 32 and 64 bits.
    pub(super) fn carry(&mut self) -> Op {
        use Kind::*;
        let (w, k, t) = *self.one(&[("u32", R, "%t1"), ("u64", Rd, "%ta1")]);
        // mad.cc on 64 bits is not compiled yet: the multiply-add chains are 32-bit.
        let forms = if w == "u32" { 4 } else { 2 };
        let lines = match self.below(forms) {
            0 => format!("add.cc.{w} {t}, {{0}}, {{1}};\naddc.cc.{w} {t}, {{1}}, {{2}};\naddc.{w} {{d}}, {{2}}, {{0}};"),
            1 => format!("sub.cc.{w} {t}, {{0}}, {{1}};\nsubc.{w} {{d}}, {{2}}, {{1}};"),
            2 => format!("mad.lo.cc.{w} {t}, {{0}}, {{1}}, {{2}};\nmadc.hi.{w} {{d}}, {{0}}, {{1}}, {{2}};"),
            _ => format!("add.cc.{w} {t}, {{0}}, {{1}};\nmadc.lo.cc.{w} {t}, {{1}}, {{2}}, {{0}};\nsubc.{w} {{d}}, {{2}}, {t};"),
        };
        let srcs = vec![self.v(k), self.v(k), self.v(k)];
        let dst = self.var(k);
        Op::new(lines, Some(dst), srcs)
    }

    /// dp4a and dp2a in every signedness.
    pub(super) fn dot(&mut self) -> Op {
        use Kind::*;
        let (a, b) = (*self.one(&["u32", "s32"]), *self.one(&["u32", "s32"]));
        if self.chance(50) {
            self.ternary_vars(&format!("dp4a.{a}.{b}"), R, R, R, R)
        } else {
            let half = *self.one(&["lo", "hi"]);
            self.ternary_vars(&format!("dp2a.{half}.{a}.{b}"), R, R, R, R)
        }
    }
}

impl Gen<'_> {
    /// Conversions the plain mix lacks: f16 (and, on sm_80+, bf16) from f32 in every rounding
    /// mode and from f64, saturating integer conversions, f16 to integers and f64, and
    /// bf16 to f32.
    pub(super) fn rounding(&mut self) -> Op {
        use Kind::*;
        let rnd = *self.one(&[".rn", ".rz", ".rm", ".rp"]);
        let rndi = *self.one(&[".rni", ".rzi", ".rmi", ".rpi"]);
        let bf16 = self.cfg.sm >= 80;
        match self.below(10) {
            0 | 1 => self.unary(&format!("cvt{rnd}.f16.f32"), H, F),
            2 => self.unary("cvt.rn.f16.f64", H, Fd),
            3 if bf16 => {
                // sm_80 has bf16 from f32 in .rn only; sm_90 in .rz too (ptxas's rule).
                let rnd = if self.cfg.sm >= 90 && self.chance(50) {
                    ".rz"
                } else {
                    ".rn"
                };
                self.unary(&format!("cvt{rnd}.bf16.f32"), H, F)
            }
            4 if bf16 => self.unary("cvt.f32.bf16", F, H),
            5 => {
                let t = *self.one(&["s16", "u16", "s8", "u8"]);
                let k = if t.ends_with('8') { R } else { H };
                self.unary(&format!("cvt{rndi}.sat.{t}.f32"), k, F)
            }
            6 => {
                let (to, from) =
                    *self.one(&[("u8", "s32"), ("s8", "s32"), ("u16", "s32"), ("s16", "u32")]);
                self.unary(&format!("cvt.sat.{to}.{from}"), R, R)
            }
            7 => {
                let t = *self.one(&["s32", "u32"]);
                self.unary(&format!("cvt{rndi}.sat.{t}.f64"), R, Fd)
            }
            8 => {
                let t = *self.one(&["s32", "u32", "s16", "u16"]);
                let k = if t.ends_with("16") { H } else { R };
                if self.chance(50) {
                    self.unary(&format!("cvt{rndi}.{t}.f16"), k, H)
                } else {
                    self.unary(&format!("cvt.rn.f16.{t}"), H, k)
                }
            }
            _ => self.unary("cvt.f64.f16", Fd, H),
        }
    }
}
