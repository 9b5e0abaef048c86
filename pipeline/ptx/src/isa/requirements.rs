//! What needs a newer `.target` or `.version`: per opcode and modifier, per special register, and
//! the PTX versions each target needs.

use std::sync::OnceLock;

use crate::ast::FastMap;

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
    feat("movmatrix", "", "Feature 'movmatrix'", 75, (7, 8)),
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
    modifier(
        "ld",
        "L2::cache_hint",
        "Modifier '.L2::cache_hint'",
        80,
        (7, 4),
    ),
    modifier(
        "st",
        "L2::cache_hint",
        "Modifier '.L2::cache_hint'",
        80,
        (7, 4),
    ),
    modifier(
        "atom",
        "L2::cache_hint",
        "Modifier '.L2::cache_hint'",
        80,
        (7, 4),
    ),
    modifier(
        "red",
        "L2::cache_hint",
        "Modifier '.L2::cache_hint'",
        80,
        (7, 4),
    ),
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
