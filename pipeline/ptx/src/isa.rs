//! The instruction table: per opcode, the instruction types it allows, the shape of its operands and
//! the `.target`/`.version` its features need. The checks in `check_instr.rs` read these tables, so
//! covering more of the ISA means adding rows, not code.

use std::sync::OnceLock;

use crate::ast::{FastMap, Type};

/// A set of instruction types (bit `1 << Type as u32`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeSet(pub u32);

const fn set(types: &[Type]) -> TypeSet {
    let mut bits = 0;
    let mut i = 0;
    while i < types.len() {
        bits |= 1 << types[i] as u32;
        i += 1;
    }
    TypeSet(bits)
}

impl TypeSet {
    pub const fn union(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 | o.0)
    }

    pub fn contains(self, t: Type) -> bool {
        self.0 & (1 << t as u32) != 0
    }
}

use Type::*;
pub const INTS: TypeSet = set(&[U16, U32, U64, S16, S32, S64]);
pub const SIGNED: TypeSet = set(&[S16, S32, S64]);
pub const BITS: TypeSet = set(&[B16, B32, B64]);
pub const BITS32_64: TypeSet = set(&[B32, B64]);
pub const FLOATS: TypeSet = set(&[F32, F64]);
pub const HALVES: TypeSet = set(&[F16, F16x2, BF16, BF16x2]);
pub const PRED: TypeSet = set(&[Pred]);
pub const U32_64: TypeSet = set(&[U32, U64]);
pub const INT32_64: TypeSet = set(&[U32, U64, S32, S64]);
pub const INT32: TypeSet = set(&[U32, S32]);
pub const F32_ONLY: TypeSet = set(&[F32]);
pub const B32_ONLY: TypeSet = set(&[B32]);
pub const B16_ONLY: TypeSet = set(&[B16]);
pub const B8_16: TypeSet = set(&[B8, B16]);
/// Every type a memory access may name (all but `.pred`).
pub const MEMORY: TypeSet = set(&[B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, BF16, BF16x2, F32, F64]);
pub const MOVABLE: TypeSet = set(&[Pred, B16, B32, B64, B128, U16, U32, U64, S16, S32, S64, F16, BF16, F32, F64]);

/// How register types are matched against the instruction type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Typing {
    /// Same size; bit-size registers fit any type of their size (ptxas's rule for most instructions).
    Strict,
    /// Registers may be wider than the instruction type (`ld`, `st`, `cvt`).
    Relaxed,
}

/// One opcode's row. `shape` has one letter per operand:
/// `d` destination of the instruction type, `a` source of the instruction type (register or
/// immediate), `w` destination of twice the type's size (`.wide`), `U` a `.u32` destination,
/// `c` a source of twice the type's size under `.wide`, `u` a 32-bit integer source, `P` predicate destination (or `p|q`), `q` predicate source,
/// `D` a destination of the instruction type, optionally paired with a predicate (`%r|%p`),
/// `E` a `.u32` destination paired with a predicate (`elect`), `V` a `{...}` of 32-bit registers (matrix fragments), `m` address, `l` label; operands after `?` are optional; `*` ends checking.
pub struct OpSpec {
    pub opcode: &'static str,
    pub types: TypeSet,
    pub shape: &'static str,
    pub typing: Typing,
    /// Integer forms need `.lo`, `.hi` or `.wide` (`mul`, `mad`).
    pub needs_lo_hi: bool,
}

const fn op(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec { opcode, types, shape, typing: Typing::Strict, needs_lo_hi: false }
}

const fn relaxed(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec { opcode, types, shape, typing: Typing::Relaxed, needs_lo_hi: false }
}

const fn lo_hi(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec { opcode, types, shape, typing: Typing::Strict, needs_lo_hi: true }
}

const ARITH: TypeSet = INTS.union(FLOATS).union(HALVES);

/// Opcodes whose types and operands are checked.
pub const OPS: &[OpSpec] = &[
    op("add", ARITH, "daa"),
    op("sub", ARITH, "daa"),
    lo_hi("mul", ARITH, "waa"),
    lo_hi("mad", INTS.union(FLOATS).union(HALVES), "waac"),
    op("mul24", INT32, "daa"),
    op("mad24", INT32, "daaa"),
    op("fma", FLOATS.union(HALVES), "daaa"),
    op("div", INTS.union(FLOATS), "daa"),
    op("rem", INTS, "daa"),
    op("abs", SIGNED.union(FLOATS).union(HALVES), "da"),
    op("neg", SIGNED.union(FLOATS).union(HALVES), "da"),
    op("min", ARITH, "daa?a"),
    op("max", ARITH, "daa?a"),
    op("and", BITS.union(PRED), "daa"),
    op("or", BITS.union(PRED), "daa"),
    op("xor", BITS.union(PRED), "daa"),
    op("not", BITS.union(PRED), "da"),
    op("cnot", BITS, "da"),
    op("shl", BITS, "dau"),
    op("shr", BITS.union(INTS), "dau"),
    op("mov", MOVABLE, "da"),
    op("selp", BITS.union(INTS).union(FLOATS), "daaq"),
    op("setp", BITS.union(INTS).union(FLOATS).union(HALVES), "Paa?q"),
    op("popc", BITS32_64, "Ua"),
    op("clz", BITS32_64, "Ua"),
    op("brev", BITS32_64, "da"),
    op("bfind", INT32_64, "Ua"),
    op("bfe", INT32_64, "dauu"),
    op("bfi", BITS32_64, "daauu"),
    op("prmt", B32_ONLY, "daaa"),
    op("bmsk", B32_ONLY, "duu"),
    op("shfl", B32_ONLY, "Daaa?a"),
    op("vote", PRED.union(B32_ONLY), "dq?u"),
    op("rcp", FLOATS, "da"),
    op("sqrt", FLOATS, "da"),
    op("rsqrt", FLOATS, "da"),
    op("sin", F32_ONLY, "da"),
    op("cos", F32_ONLY, "da"),
    op("lg2", F32_ONLY, "da"),
    op("ex2", F32_ONLY.union(HALVES), "da"),
    op("copysign", FLOATS, "daa"),
    op("testp", FLOATS, "Pa"),
    op("cvta", U32_64, "da"),
    relaxed("ld", MEMORY, "dm*"),
    relaxed("ldu", MEMORY, "dm"),
    relaxed("st", MEMORY, "ma*"),
    relaxed("cvt", MEMORY, "da*"),
    op("ldmatrix", B8_16, "Vm"),
    op("stmatrix", B16_ONLY, "mV"),
    op("atom", ATOM_TYPES, "dma?a*"),
    op("red", ATOM_TYPES, "ma*"),
    op("membar", TypeSet(0), ""),
    op("elect", TypeSet(0), "Eu"),
    op("bra", TypeSet(0), "l"),
    op("ret", TypeSet(0), ""),
    op("exit", TypeSet(0), ""),
    op("trap", TypeSet(0), ""),
];

/// Every type some `atom`/`red` operation takes; [`ATOM_OPERATIONS`] narrows it per operation.
const ATOM_TYPES: TypeSet = set(&[B16, B32, B64, B128, U32, U64, S32, S64, F16, F16x2, BF16, BF16x2, F32, F64]);

/// `atom`/`red` operations and the types each allows, in the order ptxas lists them.
pub const ATOM_OPERATIONS: &[(&str, &[&str])] = &[
    ("add", &["u32", "s32", "u64", "f64", "f16", "f16x2", "f32", "bf16", "bf16x2"]),
    ("min", &["u32", "s32", "u64", "s64", "f16", "f16x2", "bf16", "bf16x2"]),
    ("max", &["u32", "s32", "u64", "s64", "f16", "f16x2", "bf16", "bf16x2"]),
    ("inc", &["u32"]),
    ("dec", &["u32"]),
    ("and", &["b32", "b64"]),
    ("or", &["b32", "b64"]),
    ("xor", &["b32", "b64"]),
    ("exch", &["b32", "b64", "b128"]),
    ("cas", &["b16", "b32", "b64", "b128"]),
];

/// `bar`'s forms, each its own row (ptxas names them so), picked by the first modifier listed
/// that the instruction has; the last is the plain `bar.sync`/`bar.cta.sync`.
pub const BAR_FORMS: &[(&str, OpSpec)] = &[
    ("warp", op("bar.warp", TypeSet(0), "u")),
    ("red", op("bar.red", PRED.union(set(&[U32])), "du*")),
    ("arrive", op("bar.arrive", TypeSet(0), "uu")),
    ("", op("bar", TypeSet(0), "u?u")),
];

/// The row that checks an instruction with this opcode and these modifiers.
pub fn spec_for(opcode: &str, mods: &[String]) -> Option<&'static OpSpec> {
    if opcode != "bar" {
        return op_spec(opcode);
    }
    BAR_FORMS.iter().find(|(m, _)| m.is_empty() || mods.iter().any(|x| x == m)).map(|(_, spec)| spec)
}

pub fn op_spec(opcode: &str) -> Option<&'static OpSpec> {
    static BY_OPCODE: OnceLock<FastMap<&'static str, &'static OpSpec>> = OnceLock::new();
    BY_OPCODE.get_or_init(|| OPS.iter().map(|s| (s.opcode, s)).collect()).get(opcode).copied()
}

/// What needs a newer `.target` or `.version`: an opcode (`modifier` empty), an opcode with a
/// modifier, or a modifier on any opcode (`opcode` empty).
pub struct Requirement {
    pub opcode: &'static str,
    pub modifier: &'static str,
    /// What ptxas names, quoted (`Feature 'redux'`); `{m0}` stands for the first modifier, `{mods}`
    /// for all of them joined by dots.
    pub what: &'static str,
    /// ptxas reports the `.target` before the `.version` (modifiers), or after (features).
    pub target_first: bool,
    pub sm: u32,
    pub ptx: (u32, u32),
}

const fn feat(opcode: &'static str, modifier: &'static str, what: &'static str, sm: u32, ptx: (u32, u32)) -> Requirement {
    Requirement { opcode, modifier, what, target_first: false, sm, ptx }
}

const fn modifier(opcode: &'static str, m: &'static str, what: &'static str, sm: u32, ptx: (u32, u32)) -> Requirement {
    Requirement { opcode, modifier: m, what, target_first: true, sm, ptx }
}

/// Every row that matches an instruction applies, in this order.
pub const REQUIREMENTS: &[Requirement] = &[
    feat("redux", "", "Feature 'redux'", 80, (7, 0)),
    feat("bmsk", "", "Feature 'bmsk'", 70, (7, 6)),
    feat("min", "abs", "Feature '.abs'", 86, (7, 2)),
    feat("max", "abs", "Feature '.abs'", 86, (7, 2)),
    modifier("min", "xorsign", "Modifier '.xorsign'", 86, (7, 2)),
    modifier("max", "xorsign", "Modifier '.xorsign'", 86, (7, 2)),
    feat("cp", "async", "Feature 'cp.async'", 80, (7, 0)),
    feat("elect", "", "Feature 'elect'", 90, (8, 0)),
    feat("mbarrier", "", "Feature 'mbarrier.{m0}'", 80, (7, 0)),
    modifier("griddepcontrol", "", "Modifier '.{m0}'", 90, (7, 8)),
    modifier("griddepcontrol", "", "Instruction 'griddepcontrol'", 90, (7, 8)),
    feat("stmatrix", "", "Feature 'stmatrix'", 90, (7, 8)),
    feat("ldmatrix", "", "Feature 'ldmatrix'", 75, (6, 5)),
    feat("mapa", "", "Feature 'mapa'", 90, (7, 8)),
    feat("getctarank", "", "Feature 'getctarank'", 90, (7, 8)),
    feat("multimem", "", "Feature 'multimem.{m0}'", 90, (8, 1)),
    feat("createpolicy", "", "Feature 'createpolicy.{m0}'", 80, (7, 4)),
    modifier("createpolicy", "L2::evict_last", "Modifier '.L2::evict_last' on 'createpolicy.{m0}'", 80, (7, 4)),
    modifier("createpolicy", "L2::evict_first", "Modifier '.L2::evict_first' on 'createpolicy.{m0}'", 80, (7, 4)),
    modifier("createpolicy", "L2::evict_normal", "Modifier '.L2::evict_normal' on 'createpolicy.{m0}'", 80, (7, 4)),
    modifier("createpolicy", "L2::evict_unchanged", "Modifier '.L2::evict_unchanged' on 'createpolicy.{m0}'", 80, (7, 4)),
    modifier("fence", "alias", "Modifier '.alias'", 70, (7, 5)),
    modifier("fence", "async", "Modifier '.async'", 90, (8, 0)),
    feat("fence", "proxy", "Feature 'fence.proxy'", 70, (7, 5)),
    feat("barrier", "cluster", "Feature 'barrier.{mods}'", 90, (7, 8)),
    feat("ld", "v8", "Feature '256 bit wide load/store'", 100, (8, 8)),
    feat("st", "v8", "Feature '256 bit wide load/store'", 100, (8, 8)),
    feat("ld", "L2::64B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("ld", "L2::128B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("ld", "L2::256B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("", "bf16", "Feature '.bf16'", 80, (7, 0)),
    feat("", "bf16x2", "Feature '.bf16x2'", 80, (7, 0)),
    feat("cvt", "bf16", "Feature 'cvt.bf16.f32'", 80, (7, 0)),
    feat("cvt", "bf16x2", "Feature 'cvt.bf16x2.f32'", 80, (7, 0)),
    feat("fence", "cluster", "Feature '.cluster scope'", 90, (7, 8)),
    feat("atom", "cluster", "Feature '.cluster scope'", 90, (7, 8)),
    feat("red", "cluster", "Feature '.cluster scope'", 90, (7, 8)),
    feat("ld", "cluster", "Feature '.cluster scope'", 90, (7, 8)),
    feat("st", "cluster", "Feature '.cluster scope'", 90, (7, 8)),
    feat("", "shared::cluster", "Feature '::cluster'", 90, (7, 8)),
];

/// The rows that may apply to `opcode` (its own and the opcode-free ones), in table order.
pub fn requirements_for(opcode: &str) -> &'static [&'static Requirement] {
    type Rows = Vec<&'static Requirement>;
    static BY_OPCODE: OnceLock<(FastMap<&'static str, Rows>, Rows)> = OnceLock::new();
    let (by_opcode, generic) = BY_OPCODE.get_or_init(|| {
        let generic: Vec<_> = REQUIREMENTS.iter().filter(|r| r.opcode.is_empty()).collect();
        let mut map = FastMap::default();
        for r in REQUIREMENTS.iter().filter(|r| !r.opcode.is_empty()) {
            map.entry(r.opcode).or_insert_with(|| REQUIREMENTS.iter().filter(|g| g.opcode.is_empty() || g.opcode == r.opcode).collect());
        }
        (map, generic)
    });
    by_opcode.get(opcode).unwrap_or(generic)
}

/// Special registers that need a newer target (`%cluster_ctarank`, ...): (name, sm, ptx).
pub const SPECIAL_REQUIREMENTS: &[(&str, u32, (u32, u32))] = &[
    ("%cluster_ctarank", 90, (7, 8)),
    ("%cluster_nctarank", 90, (7, 8)),
    ("%clusterid", 90, (7, 8)),
    ("%nclusterid", 90, (7, 8)),
    ("%cluster_ctaid", 90, (7, 8)),
    ("%cluster_nctaid", 90, (7, 8)),
    ("%is_explicit_cluster", 90, (7, 8)),
];

/// Lowest `.version` that knows each `.target` (sm number → PTX version).
pub const TARGET_VERSIONS: &[(u32, (u32, u32))] = &[
    (75, (6, 3)),
    (80, (7, 0)),
    (86, (7, 1)),
    (87, (7, 4)),
    (88, (9, 0)),
    (89, (7, 8)),
    (90, (7, 8)),
    (100, (8, 6)),
    (103, (8, 8)),
    (107, (8, 8)),
    (110, (9, 0)),
    (120, (8, 7)),
    (121, (8, 8)),
];

/// `.version`s ptxas 13.5 accepts.
pub fn known_version(v: (u32, u32)) -> bool {
    let max_minor = match v.0 {
        1 => 5,
        2 => 3,
        3 => 2,
        4 => 3,
        5 => 1,
        6 => 5,
        7 => 8,
        8 => 8,
        9 => 5,
        _ => return false,
    };
    v.1 <= max_minor
}

/// Rounding modifiers of floating-point results, and the integer-rounding ones of `cvt`.
pub const FLOAT_ROUNDING: &[&str] = &["rn", "rz", "rm", "rp", "rna", "rs"];
pub const INT_ROUNDING: &[&str] = &["rni", "rzi", "rmi", "rpi"];

/// Modifiers the tabled opcodes (`OPS`) may carry besides types, spaces, vectors and cache hints
/// (`L1::`/`L2::`/`level::`); any other is an "Unknown modifier".
pub const KNOWN_MODIFIERS: &[&str] = &[
    "rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi", "ftz", "sat", "satfinite", "approx", "full",
    "lo", "hi", "wide", "cc", "eq", "ne", "lt", "le", "gt", "ge", "ls", "hs", "equ", "neu", "ltu", "leu", "gtu",
    "geu", "num", "nan", "and", "or", "xor", "NaN", "xorsign", "abs", "relu", "pack", "shiftamt", "to", "uni",
    "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "volatile", "relaxed", "acquire", "release", "weak", "mmio",
    "sys", "gpu", "cta", "cluster", "unified", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "finite", "infinite",
    "number", "notanumber", "normal", "subnormal", "oob", "noftz", "async", "mmio", "sync", "up", "down", "bfly",
    "idx", "all", "any", "ballot", "clamp", "wrap", "acq_rel", "add", "min", "max", "inc", "dec", "exch", "cas",
    "aligned", "trans", "x1", "x2", "x4", "popc", "arrive", "warp", "red", "gl", "proxy", "alias",
];

/// State-space modifiers of memory instructions.
pub const SPACES: &[&str] = &["global", "shared", "local", "param", "const", "shared::cta", "shared::cluster", "param::entry", "param::func"];
