//! The generator's MUFU approximations and tensor-core `mma.sync`, on inputs chosen so that every
//! result is exact: the `.approx` functions read powers of two (ex2 reads integers, tanh zero or
//! |x| >= 16, sin/cos signed zeros), whose results any faithful approximation (the hardware's, the
//! emulator's f64 model, the interpreter's) gives to the bit; mma reads f16/bf16/tf32 values of
//! three significant bits and integer accumulators, so every sum is exact in any order. A wrong
//! operand, modifier, fragment register or scaling path still changes the bits.

use super::gen::Gen;
use super::program::{Kind, Op};

impl Gen<'_> {
    /// ex2/lg2/rcp/rsqrt/sqrt/tanh/sin/cos `.approx` (`.ftz` or not) on exact inputs.
    pub(super) fn approx(&mut self) -> Op {
        use Kind::*;
        let ftz = if self.chance(30) { ".ftz" } else { "" };
        // Powers of two: normal (any sign, zeros and infinities included) or subnormal.
        let pow2 = if self.chance(70) {
            "and.b32 %t0, {0}, -8388608;"
        } else {
            "and.b32 %t0, {0}, 31;\nmin.u32 %t0, %t0, 22;\nshl.b32 %t0, 1, %t0;"
        };
        // Powers of four (positive): an odd biased exponent, or an odd subnormal bit.
        let pow4 = if self.chance(70) {
            "and.b32 %t0, {0}, 2130706432;\nor.b32 %t0, %t0, 8388608;"
        } else {
            "and.b32 %t0, {0}, 14;\nor.b32 %t0, %t0, 1;\nshl.b32 %t0, 1, %t0;"
        };
        let (input, op) = match self.below(8) {
            0 | 1 => (
                // Integers in [-140, 115]: results from subnormal to 2^115.
                "and.b32 %t0, {0}, 255;\nsub.s32 %t0, %t0, 140;\ncvt.rn.f32.s32 %mf0, %t0;"
                    .to_string(),
                "ex2",
            ),
            2 => (format!("{pow2}\nmov.b32 %mf0, %t0;"), "lg2"),
            3 => (format!("{pow2}\nmov.b32 %mf0, %t0;"), "rcp"),
            4 => (format!("{pow4}\nmov.b32 %mf0, %t0;"), "rsqrt"),
            5 => (format!("{pow4}\nmov.b32 %mf0, %t0;"), "sqrt"),
            6 => (
                // Signed zeros, or +-16 .. +-2^8: tanh is +-0 or +-1 exactly.
                "and.b32 %t0, {0}, -2088763392;\nor.b32 %t0, %t0, 1098907648;\nmov.b32 %mf0, %t0;"
                    .to_string(),
                "tanh",
            ),
            _ => (
                "and.b32 %t0, {0}, -2147483648;\nmov.b32 %mf0, %t0;".to_string(),
                *self.one(&["sin", "cos"]),
            ),
        };
        // tanh has no .ftz form before sm_90 in ptxas's eyes: keep it plain.
        let ftz = if op == "tanh" { "" } else { ftz };
        let srcs = vec![self.v(R)];
        let dst = self.var(F);
        Op::new(
            format!("{input}\n{op}.approx{ftz}.f32 {{d}}, %mf0;"),
            Some(dst),
            srcs,
        )
    }

    /// One warp-wide `mma.sync` (f16 and, on sm_80+, bf16 m16n8k16 and tf32 m16n8k8, f32
    /// accumulators): A and B from 32-bit variables masked to exact values, C from a variable's
    /// bytes as integers, D's four words xor-ed into the destination.
    pub(super) fn mma(&mut self) -> Op {
        use Kind::*;
        // (shape, types, A regs, B regs, value mask, the 0.5 it is or-ed into)
        let f16_k8 = ("m16n8k8", "f16.f16", 2, 1, 0x8700_8700u32, 0x3800_3800u32);
        let forms: &[(&str, &str, usize, usize, u32, u32)] = if self.cfg.sm >= 80 {
            &[
                ("m16n8k16", "f16.f16", 4, 2, 0x8700_8700, 0x3800_3800),
                ("m16n8k16", "bf16.bf16", 4, 2, 0x80E0_80E0, 0x3F00_3F00),
                ("m16n8k8", "tf32.tf32", 4, 2, 0x80E0_0000, 0x3F00_0000),
                f16_k8,
            ]
        } else {
            &[f16_k8, f16_k8]
        };
        let (shape, types, na, nb, mask, base) = *self.one(forms);
        let mut lines = Vec::new();
        for k in 0..na + nb {
            lines.push(format!(
                "and.b32 %mr{k}, {{{k}}}, {};\nor.b32 %mr{k}, %mr{k}, {};",
                mask as i32, base as i32
            ));
        }
        let c = na + nb;
        for k in 0..4 {
            lines.push(format!(
                "shr.u32 %mr8, {{{c}}}, {};\nand.b32 %mr8, %mr8, 255;\ncvt.rn.f32.u32 %mf{k}, %mr8;",
                8 * k
            ));
        }
        let regs = |from: usize, n: usize| {
            (from..from + n)
                .map(|k| format!("%mr{k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The warp is converged here in PTX terms; bar.warp.sync makes that explicit for code
        // generators that do not yet reconverge after a divergent loop or branch.
        lines.push("bar.warp.sync -1;".into());
        lines.push(format!(
            "mma.sync.aligned.{shape}.row.col.f32.{types}.f32 {{%mf4, %mf5, %mf6, %mf7}}, {{{}}}, {{{}}}, {{%mf0, %mf1, %mf2, %mf3}};",
            regs(0, na),
            regs(na, nb)
        ));
        lines.push(
            "mov.b32 %mr8, %mf4;\nmov.b32 %mr9, %mf5;\nxor.b32 %mr8, %mr8, %mr9;\nmov.b32 %mr9, %mf6;\n\
             xor.b32 %mr8, %mr8, %mr9;\nmov.b32 %mr9, %mf7;\nxor.b32 {d}, %mr8, %mr9;"
                .into(),
        );
        let srcs = (0..=c).map(|_| self.v(R)).collect();
        let dst = self.var(R);
        Op::new(lines.join("\n"), Some(dst), srcs)
    }
}
