//! Instruction families that come in forms (`mbarrier`, `cp.async(.bulk/.tensor)`, `fence`,
//! `wgmma`, `tcgen05`, sm_90a/sm_100a-only rows): per form the types, operands, spaces, targets and
//! modifiers it takes, which `checks/forms.rs` reads.

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
