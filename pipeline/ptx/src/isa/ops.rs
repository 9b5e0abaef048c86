//! The opcode table: per opcode the instruction types it allows and the shape of its operands
//! (`OPS`), with the type sets the rows are written in.

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
/// Every type but `.pred` (the types `cvt` converts between).
pub const MEMORY: TypeSet = set(&[
    B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, BF16, BF16x2, F32,
    F64,
]);
/// The types `ld`, `ldu` and `st` name: no half-precision ones (`.b16`/`.b32` move those).
pub const LOAD_STORE: TypeSet = set(&[
    B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F32, F64,
]);
pub const MOVABLE: TypeSet = set(&[
    Pred, B16, B32, B64, B128, U16, U32, U64, S16, S32, S64, F32, F64,
]);

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
/// `E` a `.u32` destination paired with a predicate (`elect`), `V` a `{...}` of 32-bit registers (matrix fragments), `m` address, `l` label,
/// `A` an address as a value (a 32- or 64-bit integer register, an immediate, a variable plus an offset); operands after `?` are optional; `*` ends checking.
pub struct OpSpec {
    pub opcode: &'static str,
    pub types: TypeSet,
    pub shape: &'static str,
    pub typing: Typing,
    /// Integer forms need `.lo`, `.hi` or `.wide` (`mul`, `mad`).
    pub needs_lo_hi: bool,
}

const fn op(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec {
        opcode,
        types,
        shape,
        typing: Typing::Strict,
        needs_lo_hi: false,
    }
}

const fn relaxed(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec {
        opcode,
        types,
        shape,
        typing: Typing::Relaxed,
        needs_lo_hi: false,
    }
}

const fn lo_hi(opcode: &'static str, types: TypeSet, shape: &'static str) -> OpSpec {
    OpSpec {
        opcode,
        types,
        shape,
        typing: Typing::Strict,
        needs_lo_hi: true,
    }
}

const ARITH: TypeSet = INTS.union(FLOATS).union(HALVES);

/// Opcodes whose types and operands are checked.
pub const OPS: &[OpSpec] = &[
    op("add", ARITH, "daa"),
    op("sub", ARITH, "daa"),
    lo_hi("mul", ARITH, "waa"),
    lo_hi("mad", INTS.union(FLOATS).union(HALVES), "waac"),
    // Extended-precision arithmetic (`.cc` carries out, `addc` and friends carry in).
    op("addc", INTS, "daa"),
    op("subc", INTS, "daa"),
    lo_hi("madc", INTS, "daaa"),
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
    op(
        "setp",
        BITS.union(INTS).union(FLOATS).union(HALVES),
        "Paa?q",
    ),
    op("popc", BITS32_64, "Ua"),
    op("clz", BITS32_64, "Ua"),
    op("brev", BITS32_64, "da"),
    op("bfind", INT32_64, "Ua"),
    op("bfe", INT32_64, "dauu"),
    op("bfi", BITS32_64, "daauu"),
    op("prmt", B32_ONLY, "daaa"),
    op("lop3", B32_ONLY, "Daaai?q"),
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
    // `.s32`/`.s64` are read, and refused once the operands fit (`checks::instructions`).
    op("cvta", set(&[U32, U64, S32, S64]), "da"),
    // The address: a register, an immediate or a variable plus an offset; a variable alone is
    // ptxas's "must be register".
    op("isspacep", TypeSet(0), "PA"),
    // The address is a 32-bit register (or a name or an immediate) whatever `.address_size`.
    op("getctarank", INT32, "da"),
    relaxed("ld", LOAD_STORE, "dm*"),
    relaxed("ldu", LOAD_STORE, "dm"),
    relaxed("st", LOAD_STORE, "ma*"),
    relaxed("cvt", MEMORY, "da*"),
    op("ldmatrix", B8_16, "Vm"),
    op("stmatrix", B8_16, "mV"),
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
const ATOM_TYPES: TypeSet = set(&[
    B16, B32, B64, B128, U32, U64, S32, S64, F16, F16x2, BF16, BF16x2, F32, F64,
]);

/// `atom`/`red` operations and the types each allows, in the order ptxas lists them.
pub const ATOM_OPERATIONS: &[(&str, &[&str])] = &[
    (
        "add",
        &[
            "u32", "s32", "u64", "f64", "f16", "f16x2", "f32", "bf16", "bf16x2",
        ],
    ),
    (
        "min",
        &["u32", "s32", "u64", "s64", "f16", "f16x2", "bf16", "bf16x2"],
    ),
    (
        "max",
        &["u32", "s32", "u64", "s64", "f16", "f16x2", "bf16", "bf16x2"],
    ),
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
pub fn spec_for(opcode: &str, mods: &[crate::ast::Name]) -> Option<&'static OpSpec> {
    if opcode != "bar" {
        return op_spec(opcode);
    }
    BAR_FORMS
        .iter()
        .find(|(m, _)| m.is_empty() || mods.iter().any(|x| x == m))
        .map(|(_, spec)| spec)
}

pub fn op_spec(opcode: &str) -> Option<&'static OpSpec> {
    static BY_OPCODE: OnceLock<FastMap<&'static str, &'static OpSpec>> = OnceLock::new();
    BY_OPCODE
        .get_or_init(|| OPS.iter().map(|s| (s.opcode, s)).collect())
        .get(opcode)
        .copied()
}
