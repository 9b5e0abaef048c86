//! The instruction table: per opcode, the instruction types it allows, the shape of its operands and
//! the `.target`/`.version` its features need. The checks in `checks/instructions.rs` read these tables, so
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

/// What needs a newer `.target` or `.version`: an opcode (`modifier` empty), an opcode with a
/// modifier, or a modifier on any opcode (`opcode` empty).
pub struct Requirement {
    pub opcode: &'static str,
    pub modifier: &'static str,
    /// A second modifier the row needs (`rn` of `cvt.rn.tf32.f32`); empty: none.
    pub with: &'static str,
    /// Modifiers that keep the row from applying (the forms another row names: `bulk` for
    /// `cp.async`'s).
    pub without: &'static [&'static str],
    /// What ptxas names, quoted (`Feature 'redux'`); `{m0}` stands for the first modifier, `{mods}`
    /// for all of them joined by dots, `{form}` for the form's name (`mbarrier.try_wait.parity`),
    /// `{types}` for the type modifiers (`f16x2.e4m3x2`).
    pub what: &'static str,
    /// ptxas reports the `.target` before the `.version` (modifiers, and the features of sm_90's
    /// new instructions, [`target_first`]), or after (other features).
    pub target_first: bool,
    pub sm: u32,
    pub ptx: (u32, u32),
}

const fn feat(
    opcode: &'static str,
    modifier: &'static str,
    what: &'static str,
    sm: u32,
    ptx: (u32, u32),
) -> Requirement {
    Requirement {
        opcode,
        modifier,
        with: "",
        without: &[],
        what,
        target_first: false,
        sm,
        ptx,
    }
}

/// A feature whose `.target` ptxas names before its `.version`.
const fn target_first(r: Requirement) -> Requirement {
    Requirement {
        target_first: true,
        ..r
    }
}

/// A row that does not apply to an instruction with any of `mods`.
const fn without(r: Requirement, mods: &'static [&'static str]) -> Requirement {
    Requirement { without: mods, ..r }
}

const fn modifier(
    opcode: &'static str,
    m: &'static str,
    what: &'static str,
    sm: u32,
    ptx: (u32, u32),
) -> Requirement {
    Requirement {
        opcode,
        modifier: m,
        with: "",
        without: &[],
        what,
        target_first: true,
        sm,
        ptx,
    }
}

/// Every row that matches an instruction applies, in this order.
pub const REQUIREMENTS: &[Requirement] = &[
    feat("redux", "", "Feature 'redux'", 80, (7, 0)),
    feat("bmsk", "", "Feature 'bmsk'", 70, (7, 6)),
    feat("min", "abs", "Feature '.abs'", 86, (7, 2)),
    feat("max", "abs", "Feature '.abs'", 86, (7, 2)),
    modifier("min", "xorsign", "Modifier '.xorsign'", 86, (7, 2)),
    modifier("max", "xorsign", "Modifier '.xorsign'", 86, (7, 2)),
    without(
        feat("cp", "async", "Feature 'cp.async'", 80, (7, 0)),
        &["bulk"],
    ),
    feat("elect", "", "Feature 'elect'", 90, (8, 0)),
    without(
        feat("mbarrier", "", "Feature 'mbarrier.{m0}'", 80, (7, 0)),
        &["try_wait", "expect_tx", "complete_tx"],
    ),
    feat("mbarrier", "parity", "Feature '{form}'", 80, (7, 1)),
    feat("mbarrier", "try_wait", "Feature '{form}'", 90, (7, 8)),
    feat("mbarrier", "expect_tx", "Feature '{form}'", 90, (8, 0)),
    feat("mbarrier", "complete_tx", "Feature '{form}'", 90, (8, 0)),
    target_first(feat("cp", "bulk", "Feature '{form}'", 90, (8, 0))),
    feat("cp", "ignore_oob", "Feature '.ignore_oob'", 90, (9, 2)),
    // The target of these: the form's, or `ARCH_SPECIFIC`.
    without(
        feat(
            "tensormap",
            "replace",
            "Feature 'tensormap.replace'",
            0,
            (8, 3),
        ),
        &["swizzle_atomicity"],
    ),
    feat(
        "tensormap",
        "swizzle_atomicity",
        "Feature 'tensormap.replace.swizzle_atomicity'",
        0,
        (8, 6),
    ),
    feat("setmaxnreg", "inc", "Feature 'setmaxnreg.{m0}'", 0, (8, 0)),
    feat("setmaxnreg", "dec", "Feature 'setmaxnreg.{m0}'", 0, (8, 0)),
    target_first(feat("st", "async", "Feature 'st.async'", 90, (8, 1))),
    feat("st", "bulk", "Feature 'st.bulk'", 100, (8, 6)),
    target_first(feat("red", "async", "Feature 'red.async'", 90, (8, 1))),
    feat(
        "clusterlaunchcontrol",
        "try_cancel",
        "Feature 'clusterlaunchcontrol.try_cancel.async'",
        100,
        (8, 6),
    ),
    feat("mma", "", "Feature 'mma'", 70, (6, 4)),
    feat("mma", "tf32", "Feature '.tf32'", 80, (7, 0)),
    feat("wgmma", "", "Feature 'WGMMA'", 0, (8, 0)),
    feat("tcgen05", "", "Feature '{form}'", 0, (8, 6)),
    feat("lop3", "or", "Feature 'lop3.<BoolOp>'", 50, (8, 2)),
    feat("lop3", "and", "Feature 'lop3.<BoolOp>'", 50, (8, 2)),
    target_first(feat("cvt", "e4m3x2", "Feature 'cvt.{types}'", 89, (7, 8))),
    Requirement {
        with: "rn",
        ..target_first(feat(
            "cvt",
            "tf32",
            "Feature 'cvt with .tf32.f32.rn'",
            90,
            (7, 8),
        ))
    },
    Requirement {
        with: "rz",
        ..target_first(feat(
            "cvt",
            "tf32",
            "Feature 'cvt with .tf32.f32.rz'",
            90,
            (7, 8),
        ))
    },
    target_first(feat("cvt", "e5m2x2", "Feature 'cvt.{types}'", 89, (7, 8))),
    // The target of these: `ARCH_SPECIFIC`.
    feat("cvt", "e2m1x2", "Feature 'cvt.e2m1x2.f32'", 0, (8, 6)),
    feat("cvt", "e2m3x2", "Feature 'cvt.e2m3x2.f32'", 0, (8, 6)),
    modifier("griddepcontrol", "", "Modifier '.{m0}'", 90, (7, 8)),
    modifier(
        "griddepcontrol",
        "",
        "Instruction 'griddepcontrol'",
        90,
        (7, 8),
    ),
    target_first(feat("stmatrix", "", "Feature 'stmatrix'", 90, (7, 8))),
    feat("ldmatrix", "", "Feature 'ldmatrix'", 75, (6, 5)),
    // The target of these: `ARCH_SPECIFIC`.
    modifier(
        "ldmatrix",
        "m8n16",
        "Modifier '.m8n16' on 'ldmatrix'",
        0,
        (8, 6),
    ),
    modifier(
        "ldmatrix",
        "b6x16_p32",
        "Modifier 'format conversion' on 'ldmatrix'",
        0,
        (8, 6),
    ),
    modifier(
        "ldmatrix",
        "b4x16_p64",
        "Modifier 'format conversion' on 'ldmatrix'",
        0,
        (8, 6),
    ),
    target_first(feat("mapa", "", "Feature 'mapa'", 90, (7, 8))),
    target_first(feat("getctarank", "", "Feature 'getctarank'", 90, (7, 8))),
    target_first(feat("multimem", "cp", "Feature '{form}'", 90, (9, 1))),
    without(
        target_first(feat("multimem", "", "Feature '{form}'", 90, (8, 1))),
        &["cp"],
    ),
    feat(
        "createpolicy",
        "",
        "Feature 'createpolicy.{m0}'",
        80,
        (7, 4),
    ),
    modifier(
        "createpolicy",
        "L2::evict_last",
        "Modifier '.L2::evict_last' on 'createpolicy.{m0}'",
        80,
        (7, 4),
    ),
    modifier(
        "createpolicy",
        "L2::evict_first",
        "Modifier '.L2::evict_first' on 'createpolicy.{m0}'",
        80,
        (7, 4),
    ),
    modifier(
        "createpolicy",
        "L2::evict_normal",
        "Modifier '.L2::evict_normal' on 'createpolicy.{m0}'",
        80,
        (7, 4),
    ),
    modifier(
        "createpolicy",
        "L2::evict_unchanged",
        "Modifier '.L2::evict_unchanged' on 'createpolicy.{m0}'",
        80,
        (7, 4),
    ),
    modifier("fence", "alias", "Modifier '.alias'", 70, (7, 5)),
    modifier("fence", "async", "Modifier '.async'", 90, (8, 0)),
    feat("fence", "proxy", "Feature 'fence.proxy'", 70, (7, 5)),
    target_first(feat(
        "fence",
        "mbarrier_init",
        "Feature '.op_restrict'",
        90,
        (8, 0),
    )),
    Requirement {
        target_first: false,
        ..modifier(
            "fence",
            "mbarrier_init",
            "Modifier '.mbarrier_init'",
            90,
            (8, 0),
        )
    },
    feat("barrier", "cluster", "Feature 'barrier.{mods}'", 90, (7, 8)),
    feat("ld", "v8", "Feature '256 bit wide load/store'", 100, (8, 8)),
    feat("st", "v8", "Feature '256 bit wide load/store'", 100, (8, 8)),
    feat("ld", "L2::64B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("ld", "L2::128B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("ld", "L2::256B", "Feature 'cache prefetching'", 75, (7, 4)),
    feat("", "bf16", "Feature '.bf16'", 80, (7, 0)),
    feat("", "bf16x2", "Feature '.bf16x2'", 80, (7, 0)),
    feat("cvt", "ue8m0x2", "Feature 'cvt with .ue8m0x2'", 0, (8, 6)),
    target_first(feat("add", "f32x2", "Feature 'add.f32x2'", 100, (8, 6))),
    target_first(feat("sub", "f32x2", "Feature 'sub.f32x2'", 100, (8, 6))),
    target_first(feat("mul", "f32x2", "Feature 'mul.f32x2'", 100, (8, 6))),
    target_first(feat("fma", "f32x2", "Feature 'fma.f32x2'", 100, (8, 6))),
    feat("cvt", "bf16", "Feature 'cvt.bf16.f32'", 80, (7, 0)),
    without(
        feat("cvt", "bf16x2", "Feature 'cvt.bf16x2.f32'", 80, (7, 0)),
        &["ue8m0x2"],
    ),
    target_first(feat(
        "fence",
        "cluster",
        "Feature '.cluster scope'",
        90,
        (7, 8),
    )),
    target_first(feat(
        "atom",
        "cluster",
        "Feature '.cluster scope'",
        90,
        (7, 8),
    )),
    target_first(feat(
        "red",
        "cluster",
        "Feature '.cluster scope'",
        90,
        (7, 8),
    )),
    target_first(feat(
        "ld",
        "cluster",
        "Feature '.cluster scope'",
        90,
        (7, 8),
    )),
    target_first(feat(
        "st",
        "cluster",
        "Feature '.cluster scope'",
        90,
        (7, 8),
    )),
    feat("", "shared::cluster", "Feature '::cluster'", 90, (7, 8)),
];

/// The rows that may apply to `opcode` (its own and the opcode-free ones), in table order.
pub fn requirements_for(opcode: &str) -> &'static [&'static Requirement] {
    type Rows = Vec<&'static Requirement>;
    static BY_OPCODE: OnceLock<(FastMap<&'static str, Rows>, Rows)> = OnceLock::new();
    let (by_opcode, generic) = BY_OPCODE.get_or_init(|| {
        let generic: Vec<_> = REQUIREMENTS
            .iter()
            .filter(|r| r.opcode.is_empty())
            .collect();
        let mut map = FastMap::default();
        for r in REQUIREMENTS.iter().filter(|r| !r.opcode.is_empty()) {
            map.entry(r.opcode).or_insert_with(|| {
                REQUIREMENTS
                    .iter()
                    .filter(|g| g.opcode.is_empty() || g.opcode == r.opcode)
                    .collect()
            });
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

/// Lowest `.version` that knows each `.target` (sm number → PTX version): every architecture
/// ptxas 13.5 takes in `.target`, also those it no longer compiles for (`sm_30`, `sm_82`, `sm_101`).
pub const TARGET_VERSIONS: &[(u32, (u32, u32))] = &[
    (10, (1, 0)),
    (11, (1, 0)),
    (12, (1, 2)),
    (13, (1, 2)),
    (20, (2, 0)),
    (21, (2, 0)),
    (30, (3, 0)),
    (32, (4, 0)),
    (35, (3, 1)),
    (37, (4, 1)),
    (50, (4, 0)),
    (52, (4, 1)),
    (53, (4, 2)),
    (60, (5, 0)),
    (61, (5, 0)),
    (62, (5, 0)),
    (70, (6, 0)),
    (72, (6, 1)),
    (75, (6, 3)),
    (80, (7, 0)),
    (82, (6, 2)),
    (86, (7, 1)),
    (87, (7, 4)),
    (88, (9, 0)),
    (89, (7, 8)),
    (90, (7, 8)),
    (100, (8, 6)),
    (101, (8, 6)),
    (103, (8, 8)),
    (107, (9, 4)),
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
    "rn",
    "rz",
    "rm",
    "rp",
    "rna",
    "rs",
    "rni",
    "rzi",
    "rmi",
    "rpi",
    "ftz",
    "sat",
    "satfinite",
    "approx",
    "full",
    "lo",
    "hi",
    "wide",
    "cc",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "ls",
    "hs",
    "equ",
    "neu",
    "ltu",
    "leu",
    "gtu",
    "geu",
    "num",
    "nan",
    "and",
    "or",
    "xor",
    "NaN",
    "xorsign",
    "abs",
    "relu",
    "pack",
    "shiftamt",
    "to",
    "uni",
    "ca",
    "cg",
    "cs",
    "lu",
    "cv",
    "wb",
    "wt",
    "nc",
    "volatile",
    "relaxed",
    "acquire",
    "release",
    "weak",
    "mmio",
    "sys",
    "gpu",
    "cta",
    "cluster",
    "unified",
    "f4e",
    "b4e",
    "rc8",
    "ecl",
    "ecr",
    "rc16",
    "finite",
    "infinite",
    "number",
    "notanumber",
    "normal",
    "subnormal",
    "oob",
    "noftz",
    "async",
    "mmio",
    "sync",
    "up",
    "down",
    "bfly",
    "idx",
    "all",
    "any",
    "ballot",
    "clamp",
    "wrap",
    "acq_rel",
    "add",
    "min",
    "max",
    "inc",
    "dec",
    "exch",
    "cas",
    "aligned",
    "trans",
    "x1",
    "x2",
    "x4",
    "popc",
    "arrive",
    "warp",
    "red",
    "gl",
    "proxy",
    "alias",
];

/// State-space modifiers of memory instructions.
/// Whether `m` is one of [`KNOWN_MODIFIERS`] (looked up in a set built once: the list is long).
pub fn is_listed_modifier(m: &str) -> bool {
    static SET: OnceLock<crate::ast::FastSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| KNOWN_MODIFIERS.iter().copied().collect())
        .contains(m)
}

pub const SPACES: &[&str] = &[
    "global",
    "shared",
    "local",
    "param",
    "const",
    "shared::cta",
    "shared::cluster",
    "param::entry",
    "param::func",
];

/// An instruction family named by its leading modifiers (`mbarrier.init`, `cp.async.bulk`,
/// `wgmma.fence`): what it takes is a list of forms, not one type list. A form applies when its
/// name's parts after the opcode open the instruction's modifiers (`fence::before_thread_sync`
/// opens with `fence`) and, if `when` is not empty, one of `when` is present; the first such row
/// wins, so longer names come first.
pub struct Form {
    /// The name ptxas gives the form (`cp.async.bulk`).
    pub name: &'static str,
    pub when: &'static [&'static str],
    /// The type modifiers it takes, dot-joined in order (`u8.s32.b32`); empty: none.
    pub types: &'static [&'static str],
    /// State-space modifiers it allows, dot-joined in order (`shared.global`; `-` for none);
    /// empty: not checked.
    pub spaces: &'static [&'static str],
    /// Operand kinds, after `?` optional: `m` address, `T` tensor address `[addr, {coords}]`,
    /// `a` address or 64-bit register, `t` tensor-memory address (`[%r]`, `[%r+imm]`, `[imm]`
    /// with a 32-bit register), `V` a vector of 32-bit registers of any type, `r` a register, a
    /// vector of registers or an immediate, `e` `t` or `U`, `s` a `t` present only with `.sp`, `v` a `V` that
    /// may be left out, `u` 32-bit integer register or immediate (`w`: or a wider
    /// register), `U` 64-bit register or immediate, `d` 32-bit integer result,
    /// `D` 64-bit result or `_`, `p` predicate result, `q` predicate register or immediate,
    /// `i` integer immediate, `*` anything from here on.
    pub operands: &'static str,
    /// Modifier groups it needs one of, with ptxas's message when none is there.
    pub needs: &'static [(&'static [&'static str], &'static str)],
    /// Immediates it allows: (operand index, values).
    pub values: &'static [(usize, &'static [i128])],
    /// The only `.target`s it compiles for (`sm_90a`); empty: any that meets its requirements.
    pub targets: &'static [&'static str],
    /// An immediate counted in steps: (operand index, step, lowest, highest, power of two only).
    pub steps: Option<(usize, i128, i128, i128, bool)>,
    /// Modifiers it rejects: "Illegal modifier '.m' for instruction '<name>'".
    pub illegal: &'static [&'static str],
    /// Modifiers it takes but not together: "Modifier '.a' cannot be combined with modifier '.b'".
    pub conflicts: &'static [(&'static str, &'static str)],
    /// The reduction operations it takes and the types of each.
    pub reductions: Option<&'static Reductions>,
}

/// The reductions of a `cp.reduce` form: each operation with the types it takes, and `.noftz`.
pub struct Reductions {
    pub ops: &'static [(&'static str, &'static [&'static str])],
    /// ptxas's message for a type the operation does not take (`{t}` the type, `{op}` the
    /// operation, `{name}` the form).
    pub wrong_type: &'static str,
    /// Types that `.add` takes only with `.noftz`; `.noftz` goes with `.add` alone.
    pub noftz_types: &'static [&'static str],
}

/// `cp.reduce.async.bulk` to global memory.
pub const BULK_REDUCTIONS: Reductions = Reductions {
    ops: &[
        ("add", &["u32", "s32", "u64", "f32", "f64", "f16", "bf16"]),
        ("min", &["u32", "s32", "u64", "s64", "f16", "bf16"]),
        ("max", &["u32", "s32", "u64", "s64", "f16", "bf16"]),
        ("inc", &["u32"]),
        ("dec", &["u32"]),
        ("and", &["b32", "b64"]),
        ("or", &["b32", "b64"]),
        ("xor", &["b32", "b64"]),
    ],
    wrong_type: "Incorrect type '.{t}' for operation '.{op}' in instruction '{name}'",
    noftz_types: &["f16", "bf16"],
};

/// `cp.reduce.async.bulk` to the shared memory of a cluster's CTA.
pub const CLUSTER_BULK_REDUCTIONS: Reductions = Reductions {
    ops: &[
        ("add", &["u32", "s32", "u64"]),
        ("min", &["u32", "s32"]),
        ("max", &["u32", "s32"]),
        ("inc", &["u32"]),
        ("dec", &["u32"]),
        ("and", &["b32"]),
        ("or", &["b32"]),
        ("xor", &["b32"]),
    ],
    wrong_type:
        "Illegal reduction operation for instruction '{name}.shared::cluster.shared::cta.{t}'",
    noftz_types: &[],
};

/// `red.async`.
pub const ASYNC_REDUCTIONS: Reductions = Reductions {
    ops: &[
        ("add", &["u32", "s32", "u64", "s64"]),
        ("min", &["u32", "s32"]),
        ("max", &["u32", "s32"]),
        ("inc", &["u32"]),
        ("dec", &["u32"]),
        ("and", &["b32"]),
        ("or", &["b32"]),
        ("xor", &["b32"]),
    ],
    wrong_type: "Incorrect type '.{t}' for operation '.{op}' in instruction '{name}'",
    noftz_types: &[],
};

/// `multimem.red` element types (and `multimem.ld_reduce`'s without the FP8 ones).
const MULTIMEM_TYPES: &[&str] = &[
    "b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16x2", "bf16x2",
];
const MULTIMEM_LOAD_TYPES: &[&str] = &[
    "b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16x2", "bf16x2", "e5m2x4", "e4m3x4",
];

/// `multimem.red`.
pub const MULTIMEM_REDUCTIONS: Reductions = Reductions {
    ops: &[
        (
            "add",
            &["u32", "s32", "u64", "f32", "f64", "f16x2", "bf16x2"],
        ),
        ("min", &["u32", "s32", "u64", "s64"]),
        ("max", &["u32", "s32", "u64", "s64"]),
        ("and", &["b32", "b64"]),
        ("or", &["b32", "b64"]),
        ("xor", &["b32", "b64"]),
    ],
    wrong_type: "Incorrect type '.{t}' for operation '.{op}' in instruction '{name}'",
    noftz_types: &[],
};

/// `multimem.ld_reduce`: also the packed halves for min/max and the FP8 types.
pub const MULTIMEM_LOAD_REDUCTIONS: Reductions = Reductions {
    ops: &[
        (
            "add",
            &[
                "u32", "s32", "u64", "f32", "f64", "f16x2", "bf16x2", "e5m2x4", "e4m3x4",
            ],
        ),
        (
            "min",
            &[
                "u32", "s32", "u64", "s64", "f16x2", "bf16x2", "e5m2x4", "e4m3x4",
            ],
        ),
        (
            "max",
            &[
                "u32", "s32", "u64", "s64", "f16x2", "bf16x2", "e5m2x4", "e4m3x4",
            ],
        ),
        ("and", &["b32", "b64"]),
        ("or", &["b32", "b64"]),
        ("xor", &["b32", "b64"]),
    ],
    wrong_type: "Incorrect type '.{t}' for operation '.{op}' in instruction '{name}'",
    noftz_types: &[],
};

/// `cp.reduce.async.bulk.tensor`: no type modifier.
pub const TENSOR_REDUCTIONS: Reductions = Reductions {
    ops: &[
        ("add", &[""]),
        ("min", &[""]),
        ("max", &[""]),
        ("inc", &[""]),
        ("dec", &[""]),
        ("and", &[""]),
        ("or", &[""]),
        ("xor", &[""]),
    ],
    wrong_type: "Illegal reduction operation for instruction '{name}'",
    noftz_types: &[],
};

const fn form(name: &'static str, types: &'static [&'static str], operands: &'static str) -> Form {
    Form {
        name,
        when: &[],
        types,
        spaces: &[],
        operands,
        needs: &[],
        values: &[],
        targets: &[],
        steps: None,
        illegal: &[],
        conflicts: &[],
        reductions: None,
    }
}

const SYNC_ALIGNED: &[(&[&str], &str)] = &[
    (&["sync"], ".sync modifier required"),
    (&["aligned"], ".aligned modifier required"),
];
const SYNC: &[(&[&str], &str)] = &[(&["sync"], ".sync modifier required")];
const ST_ASYNC_COMPLETION: &[(&[&str], &str)] = &[(
    &["mbarrier::complete_tx::bytes"],
    "Modifier '.shared::cluster' requires modifier '.completion_mechanism'",
)];
const MBARRIER_SPACES: &[&str] = &["-", "shared", "shared::cta", "shared::cluster"];
const BULK_SPACES: &[&str] = &[
    "shared::cluster.global",
    "shared::cta.global",
    "global.shared::cta",
    "shared::cluster.shared::cta",
];
const SM_90A: &[&str] = &["sm_90a"];
const TCGEN05_TARGETS: &[&str] = &[
    "sm_100a", "sm_103a", "sm_107a", "sm_110a", "sm_100f", "sm_103f", "sm_107f", "sm_110f",
];
/// The sm_100 family proper (`redux.f32`): not sm_110 nor sm_12x.
const ARCH_100_FAMILY: &[&str] = &[
    "sm_100a", "sm_103a", "sm_107a", "sm_100f", "sm_103f", "sm_107f",
];
const SETMAXNREG_TARGETS: &[&str] = &[
    "sm_90a", "sm_100a", "sm_103a", "sm_107a", "sm_110a", "sm_120a", "sm_121a", "sm_100f",
    "sm_103f", "sm_107f", "sm_110f", "sm_120f", "sm_121f",
];
const CTA_GROUP: &[(&[&str], &str)] = &[(
    &["cta_group::1", "cta_group::2"],
    ".cta_group modifier required",
)];
/// `.tile::gather4`/`.tile::scatter4` copy two-dimensional tensors only.
const GATHER_SCATTER_2D_ONLY: &[(&str, &str)] = &[
    ("1d", "tile::gather4"),
    ("3d", "tile::gather4"),
    ("4d", "tile::gather4"),
    ("5d", "tile::gather4"),
    ("1d", "tile::scatter4"),
    ("3d", "tile::scatter4"),
    ("4d", "tile::scatter4"),
    ("5d", "tile::scatter4"),
];
const BULK_COMPLETION: &[(&[&str], &str)] = &[(
    &["mbarrier::complete_tx::bytes", "bulk_group"],
    ".completion_mechanism modifier required",
)];
const TENSOR_REDUCE_NEEDS: &[(&[&str], &str)] = &[
    (&["1d", "2d", "3d", "4d", "5d"], ".dim modifier required"),
    (
        &["mbarrier::complete_tx::bytes", "bulk_group"],
        ".completion_mechanism modifier required",
    ),
];
const TCGEN05_SHIFT_NEEDS: &[(&[&str], &str)] = &[
    (
        &["cta_group::1", "cta_group::2"],
        ".cta_group modifier required",
    ),
    (&["down"], ".down modifier required"),
];
/// `tensormap.replace`: sm_90a and the architecture-specific sm_100..sm_121 targets.
const TENSORMAP_TARGETS: &[&str] = &[
    "sm_90a", "sm_100a", "sm_103a", "sm_107a", "sm_110a", "sm_120a", "sm_121a", "sm_100f",
    "sm_103f", "sm_107f", "sm_110f", "sm_120f", "sm_121f",
];
const TENSORMAP_NEEDS: &[(&[&str], &str)] = &[
    (&["tile"], ".tile modifier required"),
    (&["b1024"], "Tensormap size modifier required"),
];

/// `tensormap.replace.tile.field.space.b1024.type [tmap], {ord,} value`: the fields `when`
/// names, of type `types`, with operands `operands`.
const fn tensormap_field(
    when: &'static [&'static str],
    types: &'static [&'static str],
    operands: &'static str,
) -> Form {
    Form {
        when,
        targets: TENSORMAP_TARGETS,
        needs: TENSORMAP_NEEDS,
        ..form("tensormap.replace", types, operands)
    }
}

const TCGEN05_LD_ST_NEEDS: &[(&[&str], &str)] = &[
    (&["sync"], ".sync modifier required"),
    (&["aligned"], ".aligned modifier required"),
    (
        &["32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"],
        "Shape modifier required",
    ),
    (
        &["x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"],
        ".num modifier required",
    ),
];
const TCGEN05_CP_NEEDS: &[(&[&str], &str)] = &[
    (
        &["cta_group::1", "cta_group::2"],
        ".cta_group modifier required",
    ),
    (
        &["128x256b", "4x256b", "128x128b", "64x128b", "32x128b"],
        "Shape modifier required",
    ),
];
const TCGEN05_MMA_NEEDS: &[(&[&str], &str)] = &[
    (
        &["cta_group::1", "cta_group::2"],
        ".cta_group modifier required",
    ),
    (
        &[
            "kind::f16",
            "kind::tf32",
            "kind::f8f6f4",
            "kind::i8",
            "kind::mxf8f6f4",
            "kind::mxf4",
            "kind::mxf4nvf4",
        ],
        ".kind modifier required",
    ),
];
const BLOCK_SCALED_KINDS: &[&str] = &["kind::mxf8f6f4", "kind::mxf4", "kind::mxf4nvf4"];
const TCGEN05_MMA_BLOCK_SCALE_NEEDS: &[(&[&str], &str)] = &[
    (
        &["cta_group::1", "cta_group::2"],
        ".cta_group modifier required",
    ),
    (&["block_scale"], ".block_scale modifier required"),
];
/// Reduction element types of `cp.reduce.async.bulk` (one list for `.noftz` forms too).
const BULK_REDUCE_TYPES: &[&str] = &[
    "b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16", "bf16",
];

/// Every form of the families checked by form (`FORM_OPCODES`), most specific names first;
/// types `["*"]` and operands `"*"` are not checked.
pub const FORMS: &[Form] = &[
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.init", &["b64"], "mu")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.inval", &["b64"], "m")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.expect_tx", &["b64"], "mu")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.complete_tx", &["b64"], "mu")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.arrive_drop", &["b64"], "Dm?u")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.arrive", &["b64"], "Dm?u")
    },
    Form {
        spaces: MBARRIER_SPACES,
        when: &["parity"],
        ..form("mbarrier.test_wait", &["b64"], "pmu")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.test_wait", &["b64"], "pmU")
    },
    Form {
        spaces: MBARRIER_SPACES,
        when: &["parity"],
        ..form("mbarrier.try_wait", &["b64"], "pmu?u")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("mbarrier.try_wait", &["b64"], "pmU?u")
    },
    form("mbarrier.pending_count", &["b64"], "dU"),
    Form {
        needs: &[(&["1d", "2d", "3d", "4d", "5d"], ".dim modifier required")],
        conflicts: GATHER_SCATTER_2D_ONLY,
        ..form("cp.async.bulk.tensor", &[], "*")
    },
    form("cp.async.bulk.prefetch", &[], "*"),
    form("cp.async.bulk.commit_group", &[], ""),
    form("cp.async.bulk.wait_group", &[], "i"),
    Form {
        when: &["ignore_oob"],
        spaces: BULK_SPACES,
        ..form("cp.async.bulk", &[], "mmuuum?U")
    },
    Form {
        when: &["mbarrier::complete_tx::bytes"],
        spaces: BULK_SPACES,
        ..form("cp.async.bulk", &[], "mmum?*")
    },
    Form {
        needs: &[(
            &["mbarrier::complete_tx::bytes", "bulk_group"],
            ".completion_mechanism modifier required",
        )],
        spaces: BULK_SPACES,
        ..form("cp.async.bulk", &[], "mmu?*")
    },
    Form {
        spaces: MBARRIER_SPACES,
        ..form("cp.async.mbarrier.arrive", &["b64"], "m")
    },
    form("cp.async.commit_group", &[], ""),
    form("cp.async.wait_group", &[], "i"),
    form("cp.async.wait_all", &[], ""),
    Form {
        when: &["cg"],
        spaces: &["shared.global", "shared::cta.global"],
        values: &[(2, &[16])],
        ..form("cp.async", &[], "mmi?*")
    },
    Form {
        spaces: &["shared.global", "shared::cta.global"],
        needs: &[(&["ca", "cg"], "'.ca or .cg' modifier required")],
        values: &[(2, &[4, 8, 16])],
        ..form("cp.async", &[], "mmi?*")
    },
    Form {
        values: &[(1, &[128])],
        ..form("fence.proxy", &[], "?mi")
    },
    form("fence.mbarrier_init", &[], ""),
    form("fence", &[], ""),
    Form {
        targets: SM_90A,
        needs: SYNC,
        ..form("wgmma.fence", &[], "")
    },
    Form {
        targets: SM_90A,
        needs: SYNC,
        ..form("wgmma.commit_group", &[], "")
    },
    Form {
        targets: SM_90A,
        needs: SYNC,
        ..form("wgmma.wait_group", &[], "i")
    },
    Form {
        targets: SM_90A,
        needs: SYNC_ALIGNED,
        ..form("wgmma.mma_async", &["*"], "*")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: CTA_GROUP,
        steps: Some((1, 32, 32, 512, true)),
        ..form("tcgen05.alloc", &["b32"], "mu")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: CTA_GROUP,
        steps: Some((1, 32, 32, 512, true)),
        ..form("tcgen05.dealloc", &["b32"], "uu")
    },
    Form {
        targets: SETMAXNREG_TARGETS,
        needs: SYNC_ALIGNED,
        steps: Some((0, 8, 24, 256, false)),
        ..form("setmaxnreg.inc", &["u32"], "i")
    },
    Form {
        targets: SETMAXNREG_TARGETS,
        needs: SYNC_ALIGNED,
        steps: Some((0, 8, 24, 256, false)),
        ..form("setmaxnreg.dec", &["u32"], "i")
    },
    tensormap_field(&["global_address"], &["b64"], "mU"),
    tensormap_field(&["rank"], &["b32"], "mu"),
    tensormap_field(
        &["box_dim", "global_dim", "element_stride"],
        &["b32"],
        "miu",
    ),
    tensormap_field(&["global_stride"], &["b64"], "miU"),
    tensormap_field(
        &[
            "elemtype",
            "interleave_layout",
            "swizzle_mode",
            "fill_mode",
            "swizzle_atomicity",
        ],
        &["b32"],
        "mi",
    ),
    Form {
        targets: TENSORMAP_TARGETS,
        ..form("tensormap.replace", &["*"], "*")
    },
    form("tensormap.cp_fenceproxy", &["*"], "*"),
    Form {
        targets: TCGEN05_TARGETS,
        needs: CTA_GROUP,
        ..form("tcgen05.relinquish_alloc_permit", &[], "")
    },
    Form {
        targets: TCGEN05_TARGETS,
        ..form("tcgen05.fence", &[], "")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: SYNC_ALIGNED,
        ..form("tcgen05.wait", &[], "")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: CTA_GROUP,
        ..form("tcgen05.commit", &["b64"], "m?*")
    },
    Form {
        when: &["16x32bx2"],
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_LD_ST_NEEDS,
        ..form("tcgen05.ld", &["b32"], "Vti")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_LD_ST_NEEDS,
        ..form("tcgen05.ld", &["b32"], "Vt")
    },
    Form {
        when: &["16x32bx2"],
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_LD_ST_NEEDS,
        ..form("tcgen05.st", &["b32"], "tiV")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_LD_ST_NEEDS,
        ..form("tcgen05.st", &["b32"], "tV")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_MMA_NEEDS,
        illegal: &["cta_group::2"],
        ..form("tcgen05.mma.ws", &[], "teUuq?U")
    },
    Form {
        when: &["block_scale"],
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_MMA_NEEDS,
        conflicts: &[
            ("kind::f16", "block_scale"),
            ("kind::tf32", "block_scale"),
            ("kind::f8f6f4", "block_scale"),
            ("kind::i8", "block_scale"),
        ],
        ..form("tcgen05.mma", &[], "teUsuttq")
    },
    Form {
        when: BLOCK_SCALED_KINDS,
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_MMA_BLOCK_SCALE_NEEDS,
        ..form("tcgen05.mma", &[], "teUsuttq")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_MMA_NEEDS,
        ..form("tcgen05.mma", &[], "teUsuvq?i")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_CP_NEEDS,
        ..form("tcgen05.cp", &[], "tU")
    },
    Form {
        targets: TCGEN05_TARGETS,
        needs: TCGEN05_SHIFT_NEEDS,
        illegal: &["up"],
        ..form("tcgen05.shift", &[], "t")
    },
    Form {
        when: &["L2::cache_hint"],
        needs: TENSOR_REDUCE_NEEDS,
        spaces: &["global.shared::cta"],
        reductions: Some(&TENSOR_REDUCTIONS),
        ..form("cp.reduce.async.bulk.tensor", &[], "TaU")
    },
    Form {
        needs: TENSOR_REDUCE_NEEDS,
        spaces: &["global.shared::cta"],
        reductions: Some(&TENSOR_REDUCTIONS),
        ..form("cp.reduce.async.bulk.tensor", &[], "Ta")
    },
    Form {
        when: &["shared::cluster"],
        needs: BULK_COMPLETION,
        illegal: &["bulk_group"],
        spaces: &["shared::cluster.shared::cta"],
        reductions: Some(&CLUSTER_BULK_REDUCTIONS),
        ..form(
            "cp.reduce.async.bulk",
            &["b32", "u32", "s32", "b64", "u64"],
            "mmum",
        )
    },
    Form {
        when: &["L2::cache_hint"],
        needs: BULK_COMPLETION,
        illegal: &["mbarrier::complete_tx::bytes"],
        spaces: &["global.shared::cta"],
        reductions: Some(&BULK_REDUCTIONS),
        ..form("cp.reduce.async.bulk", BULK_REDUCE_TYPES, "mmuU")
    },
    Form {
        needs: BULK_COMPLETION,
        illegal: &["mbarrier::complete_tx::bytes"],
        spaces: &["global.shared::cta"],
        reductions: Some(&BULK_REDUCTIONS),
        ..form("cp.reduce.async.bulk", BULK_REDUCE_TYPES, "mmu")
    },
    Form {
        reductions: Some(&MULTIMEM_LOAD_REDUCTIONS),
        ..form("multimem.ld_reduce", MULTIMEM_LOAD_TYPES, "rm")
    },
    Form {
        reductions: Some(&MULTIMEM_REDUCTIONS),
        ..form("multimem.red", MULTIMEM_TYPES, "mr")
    },
    Form {
        illegal: &["add", "min", "max", "and", "or", "xor"],
        ..form("multimem.st", &["*"], "mr")
    },
    form("multimem.cp.reduce.async.bulk", &["*"], "*"),
    form("multimem.cp.async.bulk", &["*"], "*"),
    form("multimem", &["*"], "*"),
    Form {
        needs: ST_ASYNC_COMPLETION,
        ..form("st.async", &["*"], "*")
    },
    Form {
        spaces: &["-", "shared::cta"],
        illegal: &["relaxed"],
        values: &[(2, &[0])],
        steps: Some((1, 8, 0, i64::MAX as i128, false)),
        ..form("st.bulk", &[], "mwi")
    },
    Form {
        reductions: Some(&ASYNC_REDUCTIONS),
        ..form(
            "red.async",
            &["b32", "u32", "s32", "b64", "u64", "s64"],
            "*",
        )
    },
    Form {
        when: &["u16", "s16"],
        needs: &[(&["sat"], ".sat modifier required")],
        ..form("cvt.pack", &["u16.s32", "s16.s32"], "dww")
    },
    Form {
        needs: &[(&["sat"], ".sat modifier required")],
        ..form(
            "cvt.pack",
            &["u8.s32.b32", "s8.s32.b32", "u4.s32.b32", "s4.s32.b32"],
            "dwwu",
        )
    },
];

/// Words of form names that ptxas keeps in a form's name (`mbarrier.try_wait.parity`).
pub const FORM_NAME_WORDS: &[&str] = &["parity", "expect_tx"];

/// Opcodes whose instructions are checked against [`FORMS`] (also `cvt.pack`, `st.async` and
/// `red.async`).
pub const FORM_OPCODES: &[&str] = &[
    "mbarrier",
    "cp",
    "fence",
    "wgmma",
    "tcgen05",
    "setmaxnreg",
    "tensormap",
    "multimem",
];

/// Features of non-form opcodes that only some `.target`s have: (opcode, modifier, what ptxas
/// names, quoted, those targets).
pub const ARCH_SPECIFIC: &[(&str, &str, &str, &[&str])] = &[
    ("redux", "f32", "Instruction 'redux.f32'", ARCH_100_FAMILY),
    (
        "tensormap",
        "swizzle_atomicity",
        "Instruction 'tensormap.replace.swizzle_atomicity'",
        ARCH_100_120_FAMILY,
    ),
    ("cvt", "e2m1x2", "Feature 'cvt.e2m1x2.f32'", FP4_TARGETS),
    ("cvt", "e2m3x2", "Feature 'cvt.e2m3x2.f32'", FP4_TARGETS),
    (
        "cvt",
        "ue8m0x2",
        "Instruction 'cvt with .ue8m0x2'",
        FP4_TARGETS,
    ),
    ("stmatrix", "m16n8", "Feature '.m16n8'", FP4_TARGETS),
    ("ldmatrix", "m16n16", "Feature '.m16n16'", FP4_TARGETS),
    ("ldmatrix", "m8n16", "Feature '.m8n16'", M8N16_TARGETS),
    (
        "ldmatrix",
        "b6x16_p32",
        "Feature 'ldmatrix with format conversion'",
        FP4_TARGETS,
    ),
    (
        "ldmatrix",
        "b4x16_p64",
        "Feature 'ldmatrix with format conversion'",
        FP4_TARGETS,
    ),
    ("ldmatrix", "b8", "Feature 'ldmatrix.b8'", FP4_TARGETS),
    ("stmatrix", "b8", "Feature 'stmatrix.b8'", FP4_TARGETS),
];

/// Targets that take `ldmatrix.m8n16` (ptxas 13.5 lets `sm_90a` name the shape, though not the
/// format conversions it needs).
const M8N16_TARGETS: &[&str] = &[
    "sm_90a", "sm_100a", "sm_103a", "sm_107a", "sm_110a", "sm_120a", "sm_121a", "sm_100f",
    "sm_103f", "sm_107f", "sm_110f", "sm_120f", "sm_121f",
];

/// The architecture-specific sm_100..sm_121 targets.
const ARCH_100_120_FAMILY: &[&str] = FP4_TARGETS;

/// Targets whose `mma` takes a `.kind` (narrow floats).
pub const MMA_KIND_TARGETS: &[&str] = FP4_TARGETS;

/// The sm_120 family's specific targets: the only ones whose `mma` takes FP6/FP4 operands or
/// block scaling.
pub const SM_120_FAMILY: &[&str] = &["sm_120a", "sm_121a", "sm_120f", "sm_121f"];

/// The narrow-float operand types of `mma` by kind.
pub const MMA_KIND_OPERAND_TYPES: &[&str] = &["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"];

/// Targets with the narrow (FP4/FP6) conversions: the architecture-specific and family targets
/// of sm_100 to sm_121 that ptxas 13.5 knows.
const FP4_TARGETS: &[&str] = &[
    "sm_100a", "sm_103a", "sm_107a", "sm_110a", "sm_120a", "sm_121a", "sm_100f", "sm_103f",
    "sm_107f", "sm_110f", "sm_120f", "sm_121f",
];

/// Modifiers the form families take besides their names, types and spaces; any other is an
/// "Unknown modifier".
pub const FORM_MODIFIERS: &[&str] = &[
    "sync",
    "aligned",
    "shared",
    "shared::cta",
    "shared::cluster",
    "global",
    "b32",
    "b64",
    "u8",
    "s8",
    "u4",
    "s4",
    "u16",
    "s16",
    "s32",
    "sat",
    "parity",
    "noComplete",
    "relaxed",
    "acquire",
    "release",
    "acq_rel",
    "sc",
    "cta",
    "cluster",
    "gpu",
    "sys",
    "ca",
    "cg",
    "noinc",
    "mbarrier::complete_tx::bytes",
    "bulk_group",
    "multicast::cluster",
    "tile",
    "im2col",
    "im2col_no_offs",
    "tile::gather4",
    "tile::scatter4",
    "1d",
    "2d",
    "3d",
    "4d",
    "5d",
    "L2",
    "read",
    "L2::cache_hint",
    "L2::64B",
    "L2::128B",
    "L2::256B",
    "alias",
    "async",
    "async::generic",
    "async::global",
    "async::shared::cta",
    "async::shared::cluster",
    "tensormap::generic",
    "sync_restrict::shared::cluster",
    "sync_restrict::shared::cta",
    "mbarrier::arrive::one",
    "32x32b",
    "16x64b",
    "16x128b",
    "16x256b",
    "16x32bx2",
    "x1",
    "x2",
    "x4",
    "x8",
    "x16",
    "x32",
    "x64",
    "x128",
    "pack::16b",
    "unpack::16b",
    "cta_group::1",
    "cta_group::2",
    "fence::before_thread_sync",
    "fence::after_thread_sync",
    "wait::ld",
    "wait::st",
    "proxy",
    "mbarrier_init",
    "init",
    "inval",
    "expect_tx",
    "complete_tx",
    "arrive",
    "arrive_drop",
    "test_wait",
    "try_wait",
    "pending_count",
    "bulk",
    "tensor",
    "prefetch",
    "commit_group",
    "wait_group",
    "wait_all",
    "mbarrier",
    "fence",
    "commit_group",
    "mma_async",
    "alloc",
    "dealloc",
    "relinquish_alloc_permit",
    "commit",
    "ld",
    "st",
    "wait",
    "sp",
    "reduce",
    "mma",
    "cp",
    "shift",
    "ws",
    "kind::f16",
    "kind::tf32",
    "kind::f8f6f4",
    "kind::i8",
    "kind::mxf8f6f4",
    "kind::mxf4",
    "kind::mxf4nvf4",
    "collector::a::fill",
    "collector::a::use",
    "collector::a::lastuse",
    "collector::a::discard",
    "down",
    "up",
    "128x256b",
    "4x256b",
    "128x128b",
    "64x128b",
    "warpx2::02_13",
    "warpx2::01_23",
    "warpx4",
    "multicast::cluster::all",
    "add",
    "min",
    "max",
    "inc",
    "dec",
    "and",
    "or",
    "xor",
    "f16",
    "bf16",
    "f32",
    "f64",
    "u32",
    "s64",
    "u64",
    "noftz",
    "v2",
    "v4",
    "v8",
    "inc",
    "dec",
    "replace",
    "cp_fenceproxy",
    "global_address",
    "b1024",
    "rank",
    "box_dim",
    "global_dim",
    "global_stride",
    "element_stride",
    "elemtype",
    "interleave_layout",
    "swizzle_mode",
    "fill_mode",
    "to_proxy::tensormap",
    "from_proxy::generic",
    "32x128b",
    "block_scale",
    "block16",
    "block32",
    "scale_vec::1X",
    "scale_vec::2X",
    "scale_vec::4X",
    "ashift",
    "weight_stationary",
    "tile::scatter4",
    "im2col::w",
    "im2col::w::128",
    "b8x16",
    "b6x16_p32",
    "b4x16_p64",
    "ignore_oob",
    "swizzle_atomicity",
    "ld_reduce",
    "acc::f32",
    "acc::f16",
    "f16x2",
    "bf16x2",
    "e5m2x4",
    "e4m3x4",
    "weak",
    "collector::b0::fill",
    "collector::b0::use",
    "collector::b0::lastuse",
    "collector::b0::discard",
    "collector::b1::fill",
    "collector::b1::use",
    "collector::b1::lastuse",
    "collector::b1::discard",
    "collector::b2::fill",
    "collector::b2::use",
    "collector::b2::lastuse",
    "collector::b2::discard",
    "collector::b3::fill",
    "collector::b3::use",
    "collector::b3::lastuse",
    "collector::b3::discard",
];

/// Element kinds of `mma` operands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Frag {
    /// 32-bit registers holding packed halves or 8/4/1-bit integers.
    B32,
    F32,
    S32,
    F64,
}

/// One `mma` shape and type family: the A/B types it multiplies, the C/D types it accumulates in
/// (with their fragment kinds and counts), the A and B fragment counts, and what it needs.
pub struct MmaRow {
    pub shape: &'static str,
    pub ab: &'static [&'static str],
    /// (type, fragment kind, count) of C and D.
    pub cd: &'static [(&'static str, Frag, usize)],
    /// Register kind and count of A and B.
    pub a: (Frag, usize),
    pub b: (Frag, usize),
    /// What ptxas names when the target or version is too old (`.m16n8k16`).
    pub what: &'static str,
    pub sm: u32,
    pub ptx: (u32, u32),
    /// `mma.sp`: the highest sparsity selector (the last operand); 0 for dense rows.
    pub selector: i128,
}

const F16_ACC2: &[(&str, Frag, usize)] = &[("f16", Frag::B32, 2), ("f32", Frag::F32, 4)];
const F32_ACC4: &[(&str, Frag, usize)] = &[("f32", Frag::F32, 4)];
const F16_ONLY_ACC2: &[(&str, Frag, usize)] = &[("f16", Frag::B32, 2)];
const S32_ACC2: &[(&str, Frag, usize)] = &[("s32", Frag::S32, 2)];
const S32_ACC4: &[(&str, Frag, usize)] = &[("s32", Frag::S32, 4)];
const F64_ACC2: &[(&str, Frag, usize)] = &[("f64", Frag::F64, 2)];
const F64_ACC4: &[(&str, Frag, usize)] = &[("f64", Frag::F64, 4)];
const INT8: &[&str] = &["s8", "u8"];
const INT4: &[&str] = &["s4", "u4"];
const FP8: &[&str] = &["e4m3", "e5m2"];

/// A row whose A and B fragments (`ab_counts`) are 32-bit registers, or `.f64` ones for `.f64`.
const fn mma(
    shape: &'static str,
    ab: &'static [&'static str],
    cd: &'static [(&'static str, Frag, usize)],
    ab_counts: (usize, usize),
    what: &'static str,
    sm: u32,
    ptx: (u32, u32),
) -> MmaRow {
    let (a, b) = ab_counts;
    let frag = if ab.len() == 1 && matches!(ab[0].as_bytes(), b"f64") {
        Frag::F64
    } else {
        Frag::B32
    };
    MmaRow {
        shape,
        ab,
        cd,
        a: (frag, a),
        b: (frag, b),
        what,
        sm,
        ptx,
        selector: 0,
    }
}

/// A sparse row: A and B in 32-bit registers, sparsity selectors `0..=selector`.
const fn sparse(
    shape: &'static str,
    ab: &'static [&'static str],
    cd: &'static [(&'static str, Frag, usize)],
    ab_counts: (usize, usize),
    selector: i128,
    what: &'static str,
    sm: u32,
    ptx: (u32, u32),
) -> MmaRow {
    MmaRow {
        selector,
        ..mma(shape, ab, cd, ab_counts, what, sm, ptx)
    }
}

/// `mma.sp.sync.aligned` shapes and types (`.sp` and `.sp::ordered_metadata`).
pub const MMA_SP_ROWS: &[MmaRow] = &[
    sparse(
        "m16n8k16",
        &["f16"],
        F16_ACC2,
        (2, 2),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k32",
        &["f16"],
        F16_ACC2,
        (4, 4),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k16",
        &["bf16"],
        F32_ACC4,
        (2, 2),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k32",
        &["bf16"],
        F32_ACC4,
        (4, 4),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k8",
        &["tf32"],
        F32_ACC4,
        (2, 2),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k16",
        &["tf32"],
        F32_ACC4,
        (4, 4),
        3,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k32",
        INT8,
        S32_ACC4,
        (2, 2),
        1,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k64",
        INT8,
        S32_ACC4,
        (4, 4),
        1,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k64",
        INT4,
        S32_ACC4,
        (2, 2),
        1,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k128",
        INT4,
        S32_ACC4,
        (4, 4),
        1,
        "Sparse MMA",
        80,
        (7, 1),
    ),
    sparse(
        "m16n8k64",
        FP8,
        F32_ACC4,
        (4, 4),
        0,
        "mma with FP8 floating point type",
        89,
        (8, 4),
    ),
];

/// `mma.sync.aligned` shapes and types (PTX ISA 9.x, warp-level forms without block scaling).
pub const MMA_ROWS: &[MmaRow] = &[
    mma(
        "m8n8k4",
        &["f16"],
        &[("f16", Frag::B32, 4), ("f32", Frag::F32, 8)],
        (2, 2),
        ".m8n8k4",
        70,
        (6, 4),
    ),
    mma(
        "m8n8k4",
        &["f64"],
        F64_ACC2,
        (1, 1),
        ".m8n8k4 with double types",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k8",
        &["f16"],
        F16_ACC2,
        (2, 1),
        ".m16n8k8",
        75,
        (6, 5),
    ),
    mma(
        "m16n8k16",
        &["f16"],
        F16_ACC2,
        (4, 2),
        ".m16n8k16",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k8",
        &["bf16"],
        F32_ACC4,
        (2, 1),
        ".m16n8k8",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k16",
        &["bf16"],
        F32_ACC4,
        (4, 2),
        ".m16n8k16",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k4",
        &["tf32"],
        F32_ACC4,
        (2, 1),
        ".m16n8k4",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k8",
        &["tf32"],
        F32_ACC4,
        (4, 2),
        ".m16n8k8",
        80,
        (7, 0),
    ),
    mma("m8n8k16", INT8, S32_ACC2, (1, 1), ".m8n8k16", 75, (6, 5)),
    mma("m16n8k16", INT8, S32_ACC4, (2, 1), ".m16n8k16", 80, (7, 0)),
    mma("m16n8k32", INT8, S32_ACC4, (4, 2), ".m16n8k32", 80, (7, 0)),
    mma("m8n8k32", INT4, S32_ACC2, (1, 1), ".m8n8k32", 75, (6, 5)),
    mma("m16n8k32", INT4, S32_ACC4, (2, 1), ".m16n8k32", 80, (7, 0)),
    mma("m16n8k64", INT4, S32_ACC4, (4, 2), ".m16n8k64", 80, (7, 0)),
    mma(
        "m8n8k128",
        &["b1"],
        S32_ACC2,
        (1, 1),
        ".m8n8k128",
        75,
        (7, 0),
    ),
    mma(
        "m16n8k128",
        &["b1"],
        S32_ACC4,
        (2, 1),
        ".m16n8k128",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k256",
        &["b1"],
        S32_ACC4,
        (4, 2),
        ".m16n8k256",
        80,
        (7, 0),
    ),
    mma(
        "m16n8k4",
        &["f64"],
        F64_ACC4,
        (2, 1),
        ".m16n8k4 with double types",
        90,
        (7, 8),
    ),
    mma(
        "m16n8k8",
        &["f64"],
        F64_ACC4,
        (4, 2),
        ".m16n8k8 with double types",
        90,
        (7, 8),
    ),
    mma(
        "m16n8k16",
        &["f64"],
        F64_ACC4,
        (8, 4),
        ".m16n8k16 with double types",
        90,
        (7, 8),
    ),
    mma(
        "m16n8k32",
        FP8,
        F32_ACC4,
        (4, 2),
        "mma with FP8 floating point type",
        89,
        (8, 4),
    ),
    mma(
        "m16n8k32",
        FP8,
        F16_ONLY_ACC2,
        (4, 2),
        "mma with FP8 floating point type and FP16 accumulation",
        89,
        (8, 7),
    ),
    mma(
        "m16n8k16",
        FP8,
        F16_ACC2,
        (2, 1),
        "mma with FP8 floating point type and .m16n8k16 shape",
        89,
        (8, 7),
    ),
];

/// `mma.sync.aligned.shape.row.col.kind{.block_scale.scale_vec}.dtype.atype.btype.ctype{.stype}`:
/// the narrow-float kinds (sm_120a), with block scaling for the `mx` kinds.
pub struct ScaledMmaRow {
    pub kind: &'static str,
    pub shape: &'static str,
    pub ab: &'static [&'static str],
    pub cd: &'static [(&'static str, Frag, usize)],
    /// 32-bit registers of A and B.
    pub a: usize,
    pub b: usize,
    /// Scale-factor types; empty: no block scaling.
    pub scales: &'static [&'static str],
}

const F8F6F4: &[&str] = &["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"];

pub const SCALED_MMA_ROWS: &[ScaledMmaRow] = &[
    ScaledMmaRow {
        kind: "kind::f8f6f4",
        shape: "m16n8k32",
        ab: F8F6F4,
        cd: F16_ACC2,
        a: 4,
        b: 2,
        scales: &[],
    },
    ScaledMmaRow {
        kind: "kind::mxf8f6f4",
        shape: "m16n8k32",
        ab: F8F6F4,
        cd: F32_ACC4,
        a: 4,
        b: 2,
        scales: &["ue8m0"],
    },
    ScaledMmaRow {
        kind: "kind::mxf4",
        shape: "m16n8k64",
        ab: &["e2m1"],
        cd: F32_ACC4,
        a: 4,
        b: 2,
        scales: &["ue8m0"],
    },
    ScaledMmaRow {
        kind: "kind::mxf4nvf4",
        shape: "m16n8k64",
        ab: &["e2m1"],
        cd: F32_ACC4,
        a: 4,
        b: 2,
        scales: &["ue8m0", "ue4m3"],
    },
];

/// Types an `mma` names (the D, A, B, C types in order).
pub const MMA_TYPES: &[&str] = &[
    "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32", "e4m3", "e5m2",
];

/// `wgmma.mma_async` type families: A/B types, D types, the `k` of their shapes, how many
/// operands follow D (A given by descriptor), and the name ptxas gives the family.
pub struct WgmmaRow {
    pub ab: &'static [&'static str],
    pub d: &'static [&'static str],
    pub k: u32,
    pub operands: usize,
    pub family: &'static str,
}

pub const WGMMA_ROWS: &[WgmmaRow] = &[
    WgmmaRow {
        ab: &["f16"],
        d: &["f16", "f32"],
        k: 16,
        operands: 7,
        family: "floating point",
    },
    WgmmaRow {
        ab: &["bf16"],
        d: &["f32"],
        k: 16,
        operands: 7,
        family: "floating point",
    },
    WgmmaRow {
        ab: &["tf32"],
        d: &["f32"],
        k: 8,
        operands: 5,
        family: "floating point",
    },
    WgmmaRow {
        ab: FP8,
        d: &["f16", "f32"],
        k: 32,
        operands: 5,
        family: "floating point",
    },
    WgmmaRow {
        ab: INT8,
        d: &["s32"],
        k: 32,
        operands: 3,
        family: "integer",
    },
    WgmmaRow {
        ab: &["b1"],
        d: &["s32"],
        k: 256,
        operands: 3,
        family: "integer",
    },
];

/// Opcodes that ptxas reads with their first modifiers as one token (`mad.hi`, `cvta.to`,
/// `mbarrier.try_wait.parity`), which its syntax errors name whole.
const COMPOUND_OPCODES: &[&str] = &[
    "mul.lo",
    "mul.hi",
    "mul.wide",
    "mad.lo",
    "mad.hi",
    "mad.wide",
    "mul24.lo",
    "mul24.hi",
    "mad24.lo",
    "mad24.hi",
    "madc.lo",
    "madc.hi",
    "cvta.to",
    "suld.b",
    "sust.b",
    "sust.p",
    "sured.b",
    "sured.p",
    "bar.warp",
    "bar.cta",
    "bar.arrive",
    "bar.red",
    "barrier.cta",
    "barrier.arrive",
    "barrier.cluster.arrive",
    "barrier.cluster.wait",
    "cp.async",
    "cp.async.bulk",
    "cp.async.bulk.tensor",
    "cp.async.bulk.prefetch",
    "cp.async.bulk.commit_group",
    "cp.async.bulk.wait_group",
    "cp.async.wait_group",
    "cp.async.commit_group",
    "cp.async.wait_all",
    "cp.async.mbarrier.arrive",
    "cp.reduce.async.bulk",
    "cp.reduce.async.bulk.tensor",
    "fence.proxy",
    "div.full",
    "cvt.pack",
    "dp2a.lo",
    "dp2a.hi",
    "st.async",
    "red.async",
    "wgmma.fence",
    "wgmma.mma_async",
    "wgmma.commit_group",
    "wgmma.wait_group",
    "shf.l",
    "shf.r",
    "pmevent.mask",
    "setmaxnreg.inc",
    "setmaxnreg.dec",
    "tcgen05.alloc",
    "tcgen05.mma",
    "tcgen05.ld",
    "tcgen05.st",
    "tcgen05.commit",
    "tcgen05.cp",
    "tcgen05.shift",
    "tcgen05.wait",
    "tcgen05.fence",
    "tcgen05.dealloc",
    "tcgen05.relinquish_alloc_permit",
    "tensormap.replace",
    "tensormap.cp_fenceproxy",
    "multimem.ld_reduce",
    "multimem.st",
    "multimem.red",
    "mbarrier.init",
    "mbarrier.arrive",
    "mbarrier.arrive.expect_tx",
    "mbarrier.arrive_drop",
    "mbarrier.try_wait",
    "mbarrier.try_wait.parity",
    "mbarrier.test_wait",
    "mbarrier.inval",
    "mbarrier.pending_count",
    "mbarrier.complete_tx",
    "mbarrier.expect_tx",
    "wmma.load.a",
    "wmma.load.b",
    "wmma.load.c",
    "wmma.mma",
    "wmma.store.d",
    "clusterlaunchcontrol.query_cancel",
    "tex.grad",
];

/// The longest [`COMPOUND_OPCODES`] entry that `text` (from an opcode on) starts with, whole
/// words only.
pub fn compound_opcode(text: &str) -> Option<&'static str> {
    let chain_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(text.len());
    let chain = &text[..chain_len];
    COMPOUND_OPCODES
        .iter()
        .filter(|c| {
            chain
                .strip_prefix(**c)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
        .max_by_key(|c| c.len())
        .copied()
}
