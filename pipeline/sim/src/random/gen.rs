//! The generator: from a seed and a [`Config`], a random valid, terminating, deterministic kernel
//! ([`Program`]). Every address is in bounds by construction (masked indices into buffers sized
//! for them), divisors are made odd, shift amounts and bit-field positions are masked, barriers
//! and warp collectives sit only where every thread of the block is converged, and atomics either
//! touch a thread's own words or are commutative reductions whose results are not read back.

use std::collections::BTreeSet;

use super::program::*;
use crate::rng::SplitMix64;

/// What the generated instructions do; each has a weight in [`Config::features`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Feature {
    Int32,
    Int64,
    /// 64-bit div/rem (the emulator does not yet run ptxas's code for them exactly on every
    /// architecture: its own weight, so that a check can leave them out).
    Divide64,
    Float32,
    Float64,
    Half,
    Bf16,
    Convert,
    Pred,
    Global,
    Shared,
    Local,
    Atomic,
    Warp,
    /// Barrier and a read of the neighbour thread's shared memory.
    Exchange,
    Branch,
    Loop,
    /// An `@p` guard on an instruction.
    Guard,
    /// bfe/bfi with register fields, prmt modes, bmsk, brev.b64, copysign, testp.
    Bits,
    /// f16x2/bf16x2 arithmetic and packing conversions.
    Packed,
    /// add.cc/addc, sub.cc/subc, mad.cc/madc chains.
    Carry,
    /// dp4a, dp2a.
    Dot,
    /// MUFU `.approx` functions (ex2, lg2, rcp, rsqrt, sqrt, tanh, sin, cos) on inputs whose
    /// results are exact.
    Approx,
    /// Warp-wide tensor-core `mma.sync` (f16, bf16, tf32 into f32) on exact values.
    Mma,
    /// Conversions in every rounding mode and with saturation (f16/bf16 from f32 and f64, f16
    /// to and from integers, saturating integer narrowing).
    Rounding,
    /// Forms that were ptxforge errors when the generator was written and compile now: bfe with
    /// immediate fields, fma/mul.f32 in .rz/.rm/.rp, mad.lo.s64, bfind.s32, div.rn.f32/f64,
    /// sqrt.rn.f64, rcp.rn.f32 (`--pending`, the old name, raises its weight).
    Math,
}

impl Feature {
    pub const ALL: [Feature; 26] = {
        use Feature::*;
        [
            Int32, Int64, Divide64, Float32, Float64, Half, Bf16, Convert, Pred, Global, Shared,
            Local, Atomic, Warp, Exchange, Branch, Loop, Guard, Bits, Packed, Carry, Dot, Math,
            Approx, Mma, Rounding,
        ]
    };

    /// The feature named `name` (its variant's name in any case: `bits`, `Float32`).
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL
            .into_iter()
            .find(|f| format!("{f:?}").eq_ignore_ascii_case(name))
    }
}

/// The generator's knobs.
#[derive(Clone, Debug)]
pub struct Config {
    pub sm: u32,
    /// Statements in the body, nested ones included (roughly).
    pub statements: usize,
    /// Variables of each kind (register pressure), at most [`MAX_VARS`].
    pub vars_per_kind: usize,
    /// Threads of the one block (32 or 64).
    pub threads: u32,
    /// Branches and loops nest this deep at most.
    pub max_depth: usize,
    /// Float inputs may be NaNs (see [`Program::nan_inputs`]).
    pub nan_inputs: bool,
    pub features: Vec<(Feature, u32)>,
}

impl Config {
    /// The default mix for `sm`: what ptxforge's back end compiles today.
    pub fn for_arch(sm: u32) -> Config {
        use Feature::*;
        let mut features = vec![
            (Int32, 300),
            (Int64, 110),
            (Divide64, 10),
            (Float32, 160),
            (Float64, 80),
            (Half, 60),
            (Convert, 120),
            (Pred, 100),
            (Global, 60),
            (Shared, 50),
            (Local, 40),
            (Atomic, 40),
            (Warp, 40),
            (Exchange, 20),
            (Branch, 60),
            (Loop, 40),
            (Guard, 60),
            (Bits, 60),
            (Packed, 50),
            (Carry, 30),
            (Dot, 20),
            (Approx, 30),
            (Mma, 15),
            (Rounding, 40),
            (Math, 30),
        ];
        if sm >= 80 {
            features.push((Bf16, 40));
        }
        Config {
            sm,
            statements: 40,
            vars_per_kind: 6,
            threads: 64,
            max_depth: 2,
            nan_inputs: false,
            features,
        }
    }

    /// Sets `f`'s weight (0 leaves it out).
    pub fn set_weight(&mut self, f: Feature, weight: u32) {
        match self.features.iter_mut().find(|(g, _)| *g == f) {
            Some(slot) => slot.1 = weight,
            None => self.features.push((f, weight)),
        }
    }
}

/// Makes the kernel for `seed` (the same seed and config always give the same kernel).
pub fn generate(config: &Config, seed: u64) -> Program {
    let mut g = Gen {
        rng: SplitMix64::new(seed ^ 0x7261_6e64_6f6d),
        cfg: config,
        budget: config.statements,
    };
    let body = g.block(0, true);
    let mut program = Program {
        sm: config.sm,
        threads: config.threads,
        body,
        observed: BTreeSet::new(),
        nan_inputs: config.nan_inputs,
    };
    program.observed = program.vars();
    program
}

pub(super) struct Gen<'c> {
    rng: SplitMix64,
    pub(super) cfg: &'c Config,
    budget: usize,
}

const INT_CMP: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge"];
const FLOAT_CMP: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
];
const ROUND: &[&str] = &[".rn", ".rz", ".rm", ".rp"];
const ROUND_INT: &[&str] = &[".rni", ".rzi", ".rmi", ".rpi"];
const F32_CONSTS: &[u32] = &[
    0x3f80_0000,
    0xbf80_0000,
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0080_0000,
    0x0000_0001,
    0x4b00_0000,
    0x3eaa_aaab,
    0x4f00_0000,
    0x7f7f_ffff,
];
const INT_CONSTS: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    31,
    32,
    33,
    255,
    0x7fff_ffff,
    -0x8000_0000,
];

impl Gen<'_> {
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }

    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.rng.next_u64() % 100 < percent
    }

    pub(super) fn one<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    pub(super) fn var(&mut self, kind: Kind) -> Var {
        let n = self.below(self.cfg.vars_per_kind.clamp(1, MAX_VARS)) as u8;
        Var { kind, n }
    }

    pub(super) fn v(&mut self, kind: Kind) -> Src {
        Src::Var(self.var(kind))
    }

    /// A source: mostly a variable, sometimes a literal.
    fn src(&mut self, kind: Kind) -> Src {
        if !self.chance(15) {
            return self.v(kind);
        }
        match kind {
            Kind::R | Kind::Rd => Src::Imm(self.one(INT_CONSTS).to_string()),
            Kind::F => Src::Imm(format!("0f{:08X}", self.one(F32_CONSTS))),
            Kind::Fd => {
                let f = f32::from_bits(*self.one(F32_CONSTS)) as f64;
                Src::Imm(format!("0d{:016X}", f.to_bits()))
            }
            Kind::H | Kind::P => self.v(kind),
        }
    }

    fn feature(&mut self, converged: bool, depth: usize) -> Feature {
        let allowed: Vec<(Feature, u32)> = self
            .cfg
            .features
            .iter()
            .copied()
            .filter(|(f, w)| {
                *w > 0
                    && match f {
                        Feature::Warp | Feature::Exchange | Feature::Mma => converged,
                        Feature::Branch | Feature::Loop => depth < self.cfg.max_depth,
                        _ => true,
                    }
            })
            .collect();
        let total: u32 = allowed.iter().map(|(_, w)| w).sum();
        let mut x = (self.rng.next_u64() % total.max(1) as u64) as u32;
        for (f, w) in allowed {
            if x < w {
                return f;
            }
            x -= w;
        }
        Feature::Int32
    }

    /// A list of statements until the budget runs out (nested lists take a share of it).
    fn block(&mut self, depth: usize, converged: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        let len = if depth == 0 {
            usize::MAX
        } else {
            1 + self.below(5)
        };
        while self.budget > 0 && out.len() < len {
            self.budget -= 1;
            out.push(self.stmt(depth, converged));
        }
        out
    }

    fn stmt(&mut self, depth: usize, converged: bool) -> Stmt {
        let f = self.feature(converged, depth);
        match f {
            Feature::Branch => {
                let cond = self.var(Kind::P);
                let negate = self.chance(50);
                let then = self.block(depth + 1, false);
                let els = if self.chance(50) {
                    self.block(depth + 1, false)
                } else {
                    Vec::new()
                };
                Stmt::If {
                    cond,
                    negate,
                    then,
                    els,
                }
            }
            Feature::Loop => {
                let trips = if self.chance(50) {
                    Trips::Known(1 + self.below(4) as u32)
                } else {
                    Trips::Data(self.var(Kind::R), *self.one(&[3, 7]))
                };
                let uniform = matches!(trips, Trips::Known(_));
                let body = self.block(depth + 1, converged && uniform);
                Stmt::Loop { trips, body }
            }
            Feature::Guard => {
                let inner = self.feature(false, self.cfg.max_depth);
                let mut op = self.op(inner);
                if op.dst.is_some() {
                    op.guard = Some((self.var(Kind::P), self.chance(50)));
                }
                Stmt::Op(op)
            }
            f => Stmt::Op(self.op(f)),
        }
    }

    fn op(&mut self, f: Feature) -> Op {
        match f {
            Feature::Int32 => self.int32(),
            Feature::Int64 => self.int64(),
            Feature::Divide64 => self.divide64(),
            Feature::Float32 => self.float32(),
            Feature::Float64 => self.float64(),
            Feature::Half => self.half(),
            Feature::Bf16 => self.bf16(),
            Feature::Convert => self.convert(),
            Feature::Pred => self.pred(),
            Feature::Global => self.global(),
            Feature::Shared => self.shared(),
            Feature::Local => self.local(),
            Feature::Atomic => self.atomic(),
            Feature::Warp => self.warp(),
            Feature::Exchange => self.exchange(),
            Feature::Math => self.math(),
            Feature::Bits => self.bits(),
            Feature::Packed => self.packed(),
            Feature::Carry => self.carry(),
            Feature::Dot => self.dot(),
            Feature::Approx => self.approx(),
            Feature::Mma => self.mma(),
            Feature::Rounding => self.rounding(),
            Feature::Branch | Feature::Loop | Feature::Guard => self.int32(),
        }
    }

    fn binary(&mut self, text: &str, d: Kind, a: Kind, b: Kind) -> Op {
        let srcs = vec![self.v(a), self.src(b)];
        let dst = self.var(d);
        Op::new(format!("{text} {{d}}, {{0}}, {{1}};"), Some(dst), srcs)
    }

    pub(super) fn unary(&mut self, text: &str, d: Kind, a: Kind) -> Op {
        let srcs = vec![self.v(a)];
        let dst = self.var(d);
        Op::new(format!("{text} {{d}}, {{0}};"), Some(dst), srcs)
    }

    fn ternary(&mut self, text: &str, d: Kind, a: Kind, b: Kind, c: Kind) -> Op {
        let srcs = vec![self.v(a), self.src(b), self.v(c)];
        let dst = self.var(d);
        Op::new(
            format!("{text} {{d}}, {{0}}, {{1}}, {{2}};"),
            Some(dst),
            srcs,
        )
    }

    fn int32(&mut self) -> Op {
        use Kind::*;
        let ty = *self.one(&["u32", "s32"]);
        match self.below(16) {
            0..=3 => {
                let op = *self.one(&["add", "sub", "mul.lo", "mul.hi", "min", "max", "add", "sub"]);
                self.binary(&format!("{op}.{ty}"), R, R, R)
            }
            4 | 5 => {
                let op = *self.one(&["and", "or", "xor"]);
                self.binary(&format!("{op}.b32"), R, R, R)
            }
            6 => {
                let op = *self.one(&["shl.b32", "shr.u32", "shr.s32"]);
                self.binary(op, R, R, R)
            }
            7 => {
                let op = *self.one(&[
                    "not.b32",
                    "neg.s32",
                    "abs.s32",
                    "popc.b32",
                    "clz.b32",
                    "brev.b32",
                    "bfind.u32",
                ]);
                self.unary(op, R, R)
            }
            8 => {
                let op = *self.one(&["mad.lo", "mad.hi"]);
                self.ternary(&format!("{op}.{ty}"), R, R, R, R)
            }
            9 => {
                let p = self.var(P);
                let mut op = self.binary("selp.b32", R, R, R);
                op.template = "selp.b32 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
            10 => {
                let op = *self.one(&["mad.lo", "mad.hi"]);
                self.ternary(&format!("{op}.{ty}"), R, R, R, R)
            }
            11 => {
                let (pos, len) = (self.below(36), self.below(36));
                let mut op = self.binary("bfi.b32", R, R, R);
                op.template = format!("bfi.b32 {{d}}, {{0}}, {{1}}, {pos}, {len};");
                op
            }
            12 => self.ternary("prmt.b32", R, R, R, R),
            13 => {
                let lut = self.below(256);
                let mut op = self.ternary("lop3.b32", R, R, R, R);
                op.template = format!("lop3.b32 {{d}}, {{0}}, {{1}}, {{2}}, {lut};");
                op
            }
            14 => {
                let op = *self.one(&["div", "rem"]);
                let mut o = self.binary(op, R, R, R);
                o.template = if ty == "u32" {
                    format!("or.b32 %t0, {{1}}, 1;\n{op}.u32 {{d}}, {{0}}, %t0;")
                } else {
                    // Odd and positive: no division by zero, no INT_MIN / -1.
                    format!(
                        "or.b32 %t0, {{1}}, 1;\nand.b32 %t0, %t0, 2147483647;\n{op}.s32 {{d}}, {{0}}, %t0;"
                    )
                };
                o
            }
            _ => {
                let k = self.below(32);
                let op = *self.one(&["shl.b32", "shr.u32", "shr.s32"]);
                self.unary(&format!("{op} {{d}}, {{0}}, {k}; //"), R, R)
                    .fix_comment()
            }
        }
    }

    fn int64(&mut self) -> Op {
        use Kind::*;
        let ty = *self.one(&["u64", "s64"]);
        match self.below(11) {
            0..=2 => {
                let op = *self.one(&["add", "sub", "mul.lo", "mul.hi", "min", "max"]);
                self.binary(&format!("{op}.{ty}"), Rd, Rd, Rd)
            }
            3 => {
                let op = *self.one(&["and", "or", "xor"]);
                self.binary(&format!("{op}.b64"), Rd, Rd, Rd)
            }
            4 => {
                let op = *self.one(&["shl.b64", "shr.u64", "shr.s64"]);
                self.binary(op, Rd, Rd, R)
            }
            5 => {
                let op = *self.one(&["not.b64", "neg.s64"]);
                self.unary(op, Rd, Rd)
            }
            6 => {
                let op = *self.one(&["popc.b64", "clz.b64", "cvt.u32.u64"]);
                self.unary(op, R, Rd)
            }
            7 => {
                let op = *self.one(&["mul.wide.u32", "mul.wide.s32"]);
                self.binary(op, Rd, R, R)
            }
            8 => {
                let op = *self.one(&["cvt.u64.u32", "cvt.s64.s32"]);
                self.unary(op, Rd, R)
            }
            9 => {
                let op = *self.one(&["add", "sub", "mul.lo"]);
                self.binary(&format!("{op}.{ty}"), Rd, Rd, Rd)
            }
            10 => {
                let p = self.var(P);
                let mut op = self.binary("selp.b64", Rd, Rd, Rd);
                op.template = "selp.b64 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
            _ => {
                let p = self.var(P);
                let mut op = self.binary("selp.b64", Rd, Rd, Rd);
                op.template = "selp.b64 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
        }
    }

    fn divide64(&mut self) -> Op {
        use Kind::*;
        let ty = *self.one(&["u64", "s64"]);
        let op = *self.one(&["div", "rem"]);
        let mut o = self.binary(op, Rd, Rd, Rd);
        // Odd (and for s64 positive) divisors: no division by zero, no INT64_MIN / -1.
        o.template = if ty == "u64" {
            format!("or.b64 %ta1, {{1}}, 1;\n{op}.u64 {{d}}, {{0}}, %ta1;")
        } else {
            format!(
                "or.b64 %ta1, {{1}}, 1;\nand.b64 %ta1, %ta1, 9223372036854775807;\n{op}.s64 {{d}}, {{0}}, %ta1;"
            )
        };
        o
    }

    fn float32(&mut self) -> Op {
        use Kind::*;
        let ftz = if self.chance(20) { ".ftz" } else { "" };
        match self.below(10) {
            0..=3 => {
                let op = *self.one(&["add", "sub", "mul"]);
                let rnd = if op == "mul" { ".rn" } else { *self.one(ROUND) };
                self.binary(&format!("{op}{rnd}{ftz}.f32"), F, F, F)
            }
            4 | 5 => self.ternary(&format!("fma.rn{ftz}.f32"), F, F, F, F),
            6 => {
                let op = *self.one(&["min", "max"]);
                let o = self.binary(&format!("{op}{ftz}.f32"), F, F, F);
                self.distinct_sources(o, F)
            }
            7 => {
                let op = *self.one(&["abs", "neg"]);
                self.unary(&format!("{op}{ftz}.f32"), F, F)
            }
            8 => {
                if self.chance(50) {
                    let srcs = vec![self.v(R)];
                    let dst = self.var(F);
                    self.from_bits(F, "mov.b32 %t1, {0};", dst, srcs)
                } else {
                    self.unary("mov.b32", R, F)
                }
            }
            _ => {
                let p = self.var(P);
                let mut op = self.binary("selp.f32", F, F, F);
                op.template = "selp.f32 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
        }
    }

    fn float64(&mut self) -> Op {
        use Kind::*;
        match self.below(8) {
            0..=2 => {
                let op = *self.one(&["add", "sub", "mul"]);
                let rnd = *self.one(ROUND);
                self.binary(&format!("{op}{rnd}.f64"), Fd, Fd, Fd)
            }
            3 => {
                let rnd = *self.one(ROUND);
                self.ternary(&format!("fma{rnd}.f64"), Fd, Fd, Fd, Fd)
            }
            4 => {
                let op = *self.one(&["min", "max"]);
                let o = self.binary(&format!("{op}.f64"), Fd, Fd, Fd);
                self.distinct_sources(o, Fd)
            }
            5 => {
                let op = *self.one(&["abs", "neg"]);
                self.unary(&format!("{op}.f64"), Fd, Fd)
            }
            6 => {
                if self.chance(50) {
                    let srcs = vec![self.v(Rd)];
                    let dst = self.var(Fd);
                    self.from_bits(Fd, "mov.b64 %ta2, {0};", dst, srcs)
                } else {
                    self.unary("mov.b64", Rd, Fd)
                }
            }
            _ => {
                let p = self.var(P);
                let mut op = self.binary("selp.f64", Fd, Fd, Fd);
                op.template = "selp.f64 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
        }
    }

    fn half(&mut self) -> Op {
        use Kind::*;
        match self.below(6) {
            0 | 1 => {
                // Always `.rn`: without a rounding modifier PTX lets the code generator contract
                // mul and add into an fma (ptxas does on sm_90), which the interpreter cannot know.
                let op = *self.one(&["add", "sub", "mul"]);
                // (The draw is kept so that every seed still makes the kernel it made before.)
                let _ = self.below(2);
                let rnd = ".rn";
                let ftz = if self.chance(20) { ".ftz" } else { "" };
                self.binary_vars(&format!("{op}{rnd}{ftz}.f16"), H, H, H)
            }
            2 => self.ternary_vars("fma.rn.f16", H, H, H, H),
            3 => {
                let op = *self.one(&["neg.f16", "abs.f16"]);
                self.unary(op, H, H)
            }
            4 if self.cfg.sm >= 80 => {
                let op = *self.one(&["min.f16", "max.f16"]);
                let o = self.binary_vars(op, H, H, H);
                self.distinct_sources(o, H)
            }
            _ => {
                let p = self.var(P);
                let mut op = self.binary_vars("selp.b16", H, H, H);
                op.template = "selp.b16 {d}, {0}, {1}, {2};".into();
                op.srcs.push(Src::Var(p));
                op
            }
        }
    }

    fn bf16(&mut self) -> Op {
        use Kind::*;
        match self.below(4) {
            0 => self.ternary_vars("fma.rn.bf16", H, H, H, H),
            1 => {
                let op = *self.one(&["min.bf16", "max.bf16"]);
                let o = self.binary_vars(op, H, H, H);
                self.distinct_sources(o, H)
            }
            2 => {
                let op = *self.one(&["neg.bf16", "abs.bf16"]);
                self.unary(op, H, H)
            }
            _ if self.cfg.sm >= 90 => {
                let op = *self.one(&["add.rn.bf16", "sub.rn.bf16", "mul.rn.bf16"]);
                self.binary_vars(op, H, H, H)
            }
            _ => self.ternary_vars("fma.rn.bf16", H, H, H, H),
        }
    }

    /// A float min/max reads two different registers where it can: ptxas folds `max x, x` into
    /// `x`, keeping a NaN the instruction would make canonical, and the generator shares `.b16`
    /// registers between f16 and bf16, so the kept NaN can read as a number afterwards.
    pub(super) fn distinct_sources(&mut self, mut op: Op, kind: Kind) -> Op {
        for _ in 0..4 {
            if op.srcs[0] != op.srcs[1] {
                break;
            }
            op.srcs[1] = self.v(kind);
        }
        op
    }

    pub(super) fn binary_vars(&mut self, text: &str, d: Kind, a: Kind, b: Kind) -> Op {
        let srcs = vec![self.v(a), self.v(b)];
        let dst = self.var(d);
        Op::new(format!("{text} {{d}}, {{0}}, {{1}};"), Some(dst), srcs)
    }

    pub(super) fn ternary_vars(&mut self, text: &str, d: Kind, a: Kind, b: Kind, c: Kind) -> Op {
        let srcs = vec![self.v(a), self.v(b), self.v(c)];
        let dst = self.var(d);
        Op::new(
            format!("{text} {{d}}, {{0}}, {{1}}, {{2}};"),
            Some(dst),
            srcs,
        )
    }

    fn convert(&mut self) -> Op {
        use Kind::*;
        let rnd = *self.one(ROUND);
        let rndi = *self.one(ROUND_INT);
        match self.below(14) {
            0 => self.unary(&format!("cvt{rnd}.f32.f64"), F, Fd),
            1 => self.unary("cvt.f64.f32", Fd, F),
            2 => {
                let t = *self.one(&["s32", "u32"]);
                self.unary(&format!("cvt{rndi}.{t}.f32"), R, F)
            }
            3 => {
                let t = *self.one(&["s32", "u32"]);
                self.unary(&format!("cvt{rndi}.{t}.f64"), R, Fd)
            }
            4 => {
                let t = *self.one(&["s32", "u32"]);
                self.unary(&format!("cvt{rnd}.f32.{t}"), F, R)
            }
            5 => {
                let t = *self.one(&["s32", "u32"]);
                self.unary(&format!("cvt.rn.f64.{t}"), Fd, R)
            }
            6 => {
                let t = *self.one(&["s64", "u64"]);
                self.unary(&format!("cvt{rnd}.f64.{t}"), Fd, Rd)
            }
            7 => {
                let t = *self.one(&["s64", "u64"]);
                self.unary(&format!("cvt{rndi}.{t}.f64"), Rd, Fd)
            }
            8 => self.unary("cvt.rn.f16.f32", H, F),
            9 => self.unary("cvt.f32.f16", F, H),
            10 => {
                let op = *self.one(&["cvt.u32.u16", "cvt.s32.s16"]);
                self.unary(op, R, H)
            }
            11 => {
                let srcs = vec![self.v(R)];
                let dst = self.var(H);
                self.from_bits(H, "mov.b32 %t1, {0};", dst, srcs)
            }
            12 => {
                let op = *self.one(&["cvt.s32.s8", "cvt.u32.u8", "cvt.s32.s16", "cvt.u32.u16"]);
                self.unary(op, R, R)
            }
            _ => {
                let op = *self.one(&[
                    "cvt.rni.f32.f32",
                    "cvt.rzi.f32.f32",
                    "cvt.rmi.f32.f32",
                    "cvt.rpi.f32.f32",
                ]);
                self.unary(op, F, F)
            }
        }
    }

    fn pred(&mut self) -> Op {
        use Kind::*;
        match self.below(8) {
            0 | 1 => {
                let cmp = *self.one(INT_CMP);
                let t = *self.one(&["u32", "s32"]);
                self.binary(&format!("setp.{cmp}.{t}"), P, R, R)
            }
            2 => {
                let cmp = *self.one(INT_CMP);
                let t = *self.one(&["u64", "s64"]);
                self.binary(&format!("setp.{cmp}.{t}"), P, Rd, Rd)
            }
            3 => {
                let cmp = *self.one(FLOAT_CMP);
                let ftz = if self.chance(20) { ".ftz" } else { "" };
                self.binary(&format!("setp.{cmp}{ftz}.f32"), P, F, F)
            }
            4 => {
                let cmp = *self.one(FLOAT_CMP);
                self.binary(&format!("setp.{cmp}.f64"), P, Fd, Fd)
            }
            5 => {
                let op = *self.one(&["and.pred", "or.pred", "xor.pred"]);
                self.binary_vars(op, P, P, P)
            }
            6 => self.unary("not.pred", P, P),
            _ => {
                let cmp = *self.one(INT_CMP);
                let comb = *self.one(&["and", "or", "xor"]);
                let t = *self.one(&["u32", "s32"]);
                let mut op = self.binary(&format!("setp.{cmp}.{comb}.{t}"), P, R, R);
                op.template = format!("setp.{cmp}.{comb}.{t} {{d}}, {{0}}, {{1}}, {{2}};");
                let q = self.v(P);
                op.srcs.push(q);
                op
            }
        }
    }

    /// Loads anywhere in the input buffer, stores and loads in the thread's scratch words.
    fn global(&mut self) -> Op {
        use Kind::*;
        let scratch = SLOT_BYTES - ATOMIC_BYTES;
        let (kind, ty, size) = *self.one(&[(R, "u32", 4), (Rd, "u64", 8), (F, "f32", 4)]);
        let words = 4096 / size;
        match self.below(3) {
            0 => {
                let nc = if self.chance(30) { ".nc" } else { "" };
                let idx = self.v(R);
                let addr = format!("and.b32 %t0, {{0}}, {};\nmul.wide.u32 %ta0, %t0, {size};\nadd.s64 %ta0, %inb, %ta0;", words - 1);
                let dst = self.var(kind);
                if kind == F {
                    return self.from_bits(
                        F,
                        &format!("{addr}\nld.global{nc}.u32 %t1, [%ta0];"),
                        dst,
                        vec![idx],
                    );
                }
                Op::new(
                    format!("{addr}\nld.global{nc}.{ty} {{d}}, [%ta0];"),
                    Some(dst),
                    vec![idx],
                )
            }
            1 => {
                let srcs = vec![self.v(kind), self.v(R)];
                Op::new(
                    format!("and.b32 %t0, {{1}}, {};\nmul.wide.u32 %ta0, %t0, {size};\nadd.s64 %ta0, %out, %ta0;\nst.global.{ty} [%ta0+{scratch}], {{0}};", ATOMIC_BYTES / size - 1),
                    None,
                    srcs,
                )
            }
            _ => {
                let idx = self.v(R);
                let addr = format!("and.b32 %t0, {{0}}, {};\nmul.wide.u32 %ta0, %t0, {size};\nadd.s64 %ta0, %out, %ta0;", ATOMIC_BYTES / size - 1);
                let dst = self.var(kind);
                if kind == F {
                    return self.from_bits(
                        F,
                        &format!("{addr}\nld.global.u32 %t1, [%ta0+{scratch}];"),
                        dst,
                        vec![idx],
                    );
                }
                Op::new(
                    format!("{addr}\nld.global.{ty} {{d}}, [%ta0+{scratch}];"),
                    Some(dst),
                    vec![idx],
                )
            }
        }
    }

    /// Stores and loads in the thread's own part of shared memory.
    fn shared(&mut self) -> Op {
        use Kind::*;
        let (kind, ty, size, shift) =
            *self.one(&[(R, "u32", 4, 2), (Rd, "u64", 8, 3), (F, "f32", 4, 2)]);
        let mask = SHARED_PER_THREAD / size - 1;
        let addr = format!(
            "and.b32 %t0, {{1}}, {mask};\nshl.b32 %t0, %t0, {shift};\nadd.u32 %t0, %t0, %shb;"
        );
        if self.chance(50) {
            let srcs = vec![self.v(kind), self.v(R)];
            Op::new(format!("{addr}\nst.shared.{ty} [%t0], {{0}};"), None, srcs)
        } else {
            // {0} is unused: the index is {1} as for stores.
            let srcs = vec![Src::Imm(String::new()), self.v(R)];
            let dst = self.var(kind);
            if kind == F {
                return self.from_bits(F, &format!("{addr}\nld.shared.u32 %t1, [%t0];"), dst, srcs);
            }
            Op::new(
                format!("{addr}\nld.shared.{ty} {{d}}, [%t0];"),
                Some(dst),
                srcs,
            )
        }
    }

    /// Stores and loads in the thread's local array.
    fn local(&mut self) -> Op {
        use Kind::*;
        let (kind, ty, size) = *self.one(&[(R, "u32", 4), (Rd, "u64", 8), (F, "f32", 4)]);
        let mask = LOCAL_BYTES / size - 1;
        let addr = format!("and.b32 %t0, {{1}}, {mask};\nmul.wide.u32 %ta0, %t0, {size};\nadd.s64 %ta0, %ta0, %loc;");
        if self.chance(50) {
            let srcs = vec![self.v(kind), self.v(R)];
            Op::new(format!("{addr}\nst.local.{ty} [%ta0], {{0}};"), None, srcs)
        } else {
            let srcs = vec![Src::Imm(String::new()), self.v(R)];
            let dst = self.var(kind);
            if kind == F {
                return self.from_bits(F, &format!("{addr}\nld.local.u32 %t1, [%ta0];"), dst, srcs);
            }
            Op::new(
                format!("{addr}\nld.local.{ty} {{d}}, [%ta0];"),
                Some(dst),
                srcs,
            )
        }
    }

    fn atomic(&mut self) -> Op {
        use Kind::*;
        let scratch = SLOT_BYTES - ATOMIC_BYTES;
        let private = format!(
            "and.b32 %t0, {{1}}, 15;\nmul.wide.u32 %ta0, %t0, 4;\nadd.s64 %ta0, %out, %ta0;"
        );
        match self.below(6) {
            0 | 1 | 3 => {
                let op = *self.one(&[
                    "add.u32", "min.u32", "max.u32", "min.s32", "max.s32", "and.b32", "or.b32",
                    "xor.b32", "exch.b32", "inc.u32", "dec.u32",
                ]);
                let srcs = vec![self.v(R), self.v(R)];
                Op::new(
                    format!("{private}\natom.global.{op} {{d}}, [%ta0+{scratch}], {{0}};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            2 => {
                let srcs = vec![self.v(R), self.v(R), self.v(R)];
                Op::new(
                    format!(
                        "{private}\natom.global.cas.b32 {{d}}, [%ta0+{scratch}], {{0}}, {{2}};"
                    ),
                    Some(self.var(R)),
                    srcs,
                )
            }
            4 => {
                let op = *self.one(&["add.u32", "min.u32", "max.s32", "or.b32", "exch.b32"]);
                let srcs = vec![self.v(R), self.v(R)];
                Op::new(
                    format!("and.b32 %t0, {{1}}, 15;\nshl.b32 %t0, %t0, 2;\nadd.u32 %t0, %t0, %shb;\natom.shared.{op} {{d}}, [%t0], {{0}};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            _ => {
                // Every thread reduces into the words after the slots, one word per operation
                // (each commutes with itself only); the results are not read back.
                const OPS: [&str; 6] = [
                    "add.u32", "min.u32", "max.s32", "and.b32", "or.b32", "xor.b32",
                ];
                let k = self.below(OPS.len());
                let at = self.cfg.threads as usize * SLOT_BYTES + 4 * k;
                let srcs = vec![self.v(R)];
                Op::new(
                    format!("red.global.{} [%outb+{at}], {{0}};", OPS[k]),
                    None,
                    srcs,
                )
            }
        }
    }

    fn warp(&mut self) -> Op {
        use Kind::*;
        let full = "0xffffffff";
        match self.below(7) {
            0 => {
                let srcs = vec![self.v(R), self.v(R)];
                Op::new(
                    format!(
                        "and.b32 %t0, {{1}}, 31;\nshfl.sync.idx.b32 {{d}}, {{0}}, %t0, 31, {full};"
                    ),
                    Some(self.var(R)),
                    srcs,
                )
            }
            1 => {
                let mode = *self.one(&["up", "down", "bfly"]);
                let k = self.below(32);
                let c = if mode == "up" { 0 } else { 31 };
                let srcs = vec![self.v(R)];
                Op::new(
                    format!("shfl.sync.{mode}.b32 {{d}}, {{0}}, {k}, {c}, {full};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            2 => {
                let srcs = vec![self.v(F)];
                let k = self.below(32);
                Op::new(
                    format!("shfl.sync.bfly.b32 {{d}}, {{0}}, {k}, 31, {full};"),
                    Some(self.var(F)),
                    srcs,
                )
            }
            3 => {
                let srcs = vec![self.v(P)];
                Op::new(
                    format!("vote.sync.ballot.b32 {{d}}, {{0}}, {full};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            4 => {
                let mode = *self.one(&["any", "all", "uni"]);
                let srcs = vec![self.v(P)];
                Op::new(
                    format!("vote.sync.{mode}.pred {{d}}, {{0}}, {full};"),
                    Some(self.var(P)),
                    srcs,
                )
            }
            5 if self.chance(25) => {
                // match.sync on a few low bits (so that lanes do match).
                let mode = *self.one(&["any", "all"]);
                let srcs = vec![self.v(R)];
                Op::new(
                    format!("and.b32 %t0, {{0}}, 3;\nmatch.{mode}.sync.b32 {{d}}, %t0, {full};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            5 if self.cfg.sm >= 80 => {
                let op = *self.one(&[
                    "add.u32", "min.u32", "max.s32", "and.b32", "or.b32", "xor.b32",
                ]);
                let srcs = vec![self.v(R)];
                Op::new(
                    format!("redux.sync.{op} {{d}}, {{0}}, {full};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
            _ => {
                let mode = *self.one(&["down", "bfly"]);
                let k = self.below(32);
                let srcs = vec![self.v(R)];
                Op::new(
                    format!("shfl.sync.{mode}.b32 {{d}}, {{0}}, {k}, 31, {full};"),
                    Some(self.var(R)),
                    srcs,
                )
            }
        }
    }

    /// Barrier, a read of the next thread's shared words, barrier.
    fn exchange(&mut self) -> Op {
        let (kind, ty) = (Kind::R, "u32");
        let mask = self.cfg.threads - 1;
        let srcs = vec![Src::Imm(String::new()), self.v(Kind::R)];
        Op::new(
            format!(
                "bar.sync 0;\nadd.u32 %t1, %tx, 1;\nand.b32 %t1, %t1, {mask};\nmov.u32 %t2, {ENTRY}_sh;\nmad.lo.u32 %t1, %t1, {SHARED_PER_THREAD}, %t2;\n\
                 and.b32 %t0, {{1}}, 15;\nshl.b32 %t0, %t0, 2;\nadd.u32 %t0, %t0, %t1;\nld.shared.{ty} {{d}}, [%t0];\nbar.sync 0;\nadd.u32 %t0, %shb, 0;"
            ),
            Some(self.var(kind)),
            srcs,
        )
    }

    /// `lines` leave raw bits in `%t1` (f32, f16: the low half) or `%ta2` (f64); `{d}` gets
    /// them as a float, with NaN patterns (and infinities) losing their exponent's top bit
    /// unless the config allows NaNs.
    fn from_bits(&mut self, kind: Kind, lines: &str, dst: Var, srcs: Vec<Src>) -> Op {
        let fix = match (kind, self.cfg.nan_inputs) {
            (Kind::Fd, true) => "mov.b64 {d}, %ta2;".to_string(),
            (Kind::Fd, false) => "and.b64 %ta3, %ta2, 9218868437227405312;\nsetp.eq.u64 %tp1, %ta3, 9218868437227405312;\n\
                 @%tp1 and.b64 %ta2, %ta2, -4611686018427387905;\nmov.b64 {d}, %ta2;"
                .to_string(),
            (Kind::H, nan) => {
                let clear = if nan { "" } else { "and.b32 %t2, %t1, 31744;\nsetp.eq.u32 %tp1, %t2, 31744;\n@%tp1 and.b32 %t1, %t1, 49151;\n" };
                format!("{clear}cvt.u16.u32 {{d}}, %t1;")
            }
            (_, true) => "mov.b32 {d}, %t1;".to_string(),
            (_, false) => "and.b32 %t2, %t1, 2139095040;\nsetp.eq.u32 %tp1, %t2, 2139095040;\n\
                 @%tp1 and.b32 %t1, %t1, -1073741825;\nmov.b32 {d}, %t1;"
                .to_string(),
        };
        Op::new(format!("{lines}\n{fix}"), Some(dst), srcs)
    }

    fn math(&mut self) -> Op {
        use Kind::*;
        let ty = *self.one(&["u32", "s32"]);
        match self.below(9) {
            0 => {
                let (pos, len) = (self.below(40), self.below(40));
                self.unary(&format!("bfe.{ty} {{d}}, {{0}}, {pos}, {len}; //"), R, R)
                    .fix_comment()
            }
            1 => {
                let rnd = *self.one(&[".rz", ".rm", ".rp"]);
                self.ternary(&format!("fma{rnd}.f32"), F, F, F, F)
            }
            2 => {
                let rnd = *self.one(&[".rz", ".rm", ".rp"]);
                self.binary(&format!("mul{rnd}.f32"), F, F, F)
            }
            3 => self.ternary("mad.lo.s64", Rd, Rd, Rd, Rd),
            4 => self.unary("bfind.s32", R, R),
            5 => self.binary("div.rn.f32", F, F, F),
            6 => self.unary("sqrt.rn.f64", Fd, Fd),
            7 => self.binary("div.rn.f64", Fd, Fd, Fd),
            _ => self.unary("rcp.rn.f32", F, F),
        }
    }
}

trait FixComment {
    fn fix_comment(self) -> Op;
}

impl FixComment for Op {
    /// `unary` appends `{d}, {0};` to its text; templates that already name their operands end
    /// with `//` so that the appended part is a comment: strip it.
    fn fix_comment(mut self) -> Op {
        if let Some(at) = self.template.find(" //") {
            self.template.truncate(at);
        }
        self
    }
}
