//! The matrix families as data: `mma` (dense, sparse, block-scaled) rows of shapes and types, and
//! `wgmma` rows, which `checks/forms.rs` reads.

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
