//! Modifier checks within an instruction: rounding (`cvt` and float results), comparisons, `.ftz`,
//! `.sat` and the other qualifiers, missing or conflicting modes. (Modifiers an opcode does not take
//! at all are `checks/mods.rs`.)

use super::*;

/// `cvt` into `.ue8m0x2` rounds toward zero or up (`.rz`, `.rp`), and must say which.
pub(super) fn check_ue8m0_rounding(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "cvt" || !i.has_mod("ue8m0x2") || narrow_registers(i)[0] != Some(Type::B16) {
        return;
    }
    let rounding = i.mods().iter().find(|m| {
        isa::FLOAT_ROUNDING.contains(&m.as_str()) || isa::INT_ROUNDING.contains(&m.as_str())
    });
    match rounding.map(Name::as_str) {
        None => out.now(
            i.line,
            "Rounding modifier required for instruction 'cvt'".into(),
        ),
        Some("rz" | "rp") => {}
        Some(_) => out.now(
            i.line,
            "Illegal rounding modifier for instruction 'cvt'".into(),
        ),
    }
}

/// `prefetch.tensormap` reads the `.const` or `.param` space (or a generic address), no other.
pub(super) fn check_tensormap_prefetch(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "prefetch" || !i.has_mod("tensormap") {
        return;
    }
    if let Some(space) = i
        .mods()
        .iter()
        .find(|m| isa::SPACES.contains(&m.as_str()) && !matches!(m.as_str(), "const" | "param"))
    {
        out.now(i.line, format!("Modifier '.tensormap' cannot be applied to '.{space}' space for instruction 'prefetch'"));
    }
}

/// `.f32x2` (two packed `.f32`): only `add`/`sub`/`mul`/`fma`, without `.sat`, `.relu` or integer
/// rounding; `fma` needs a float rounding.
pub(super) fn check_packed_f32(i: &Instruction, out: &mut Findings) {
    let op = i.opcode();
    if !matches!(op, "add" | "sub" | "mul" | "fma") || i.has_mod("relu") {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{op}'"),
        );
        return;
    }
    if i.has_mod("sat") {
        out.now(
            i.line,
            format!("Illegal modifier '.sat' for instruction '{op}'"),
        );
    }
    if isa::INT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            format!("Illegal rounding modifier for instruction '{op}'"),
        );
    } else if op == "fma" && !isa::FLOAT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            "Rounding modifier required for instruction 'fma'".into(),
        );
    }
}

/// Two packed 16-bit integers (`.s16x2`/`.u16x2`, sm_90).
pub(crate) fn is_packed_i16(i: &Instruction) -> bool {
    i.has_mod("s16x2") || i.has_mod("u16x2")
}

/// `.s16x2`/`.u16x2`: only `add`/`min`/`max`; `.relu` not on `.u16x2`; no `.ftz`;
/// `add.sat` is a PTX ISA 9.2 feature.
pub(super) fn check_packed_i16(i: &Instruction, s: &Scope, out: &mut Findings) {
    let op = i.opcode();
    if !matches!(op, "add" | "min" | "max") {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{op}'"),
        );
        return;
    }
    // `add.relu` draws the general "Illegal modifier" message already.
    if i.has_mod("relu") && op != "add" && i.has_mod("u16x2") {
        out.now(
            i.line,
            format!("Illegal modifier '.relu' for instruction '{op}' with type '.u16x2'"),
        );
    }
    if i.has_mod("ftz") {
        out.now(
            i.line,
            format!("Illegal modifier '.ftz' for instruction '{op}'"),
        );
    }
    if i.has_mod("sat") && op == "add" && s.version < (9, 2) {
        out.now(
            i.line,
            "Feature 'add.sat' requires PTX ISA .version 9.2 or later".into(),
        );
    }
}

/// `div`/`sqrt`/`rcp`, `fma`/`mad` and `cvt` need rounding modifiers for some types.
pub(super) fn check_rounding(i: &Instruction, types: &[Type], out: &mut Findings) {
    let has = |set: &[&str]| set.iter().any(|m| i.has_mod(m));
    let Some(&ty) = types.first() else { return };
    let missing = match i.opcode() {
        "div" | "sqrt" | "rcp" if ty == Type::F32 => {
            !has(isa::FLOAT_ROUNDING) && !i.has_mod("approx") && !i.has_mod("full")
        }
        "div" | "sqrt" | "rcp" if ty == Type::F64 => {
            !has(isa::FLOAT_ROUNDING) && !i.has_mod("approx")
        }
        "fma" | "mad" if matches!(ty, Type::F32 | Type::F64) => !has(isa::FLOAT_ROUNDING),
        "cvt" => cvt_needs_rounding(types) && !has(isa::FLOAT_ROUNDING) && !has(isa::INT_ROUNDING),
        _ => false,
    };
    if i.opcode() == "cvt" && cvt_rounding_is_illegal(types, &has) {
        out.now(
            i.line,
            "Illegal rounding modifier for instruction 'cvt'".into(),
        );
        return;
    }
    if !missing {
        return;
    }
    let msg = if matches!(i.opcode(), "div" | "sqrt" | "rcp") && ty == Type::F32 {
        format!(
            "Rounding modifier or '.approx' modifier required for instruction '{}'",
            i.opcode()
        )
    } else {
        format!(
            "Rounding modifier required for instruction '{}'",
            i.opcode()
        )
    };
    out.now(i.line, msg);
}

/// Integer rounding (`.rni`) into a float from an integer, float rounding (`.rn`) into an integer,
/// any rounding into a wider float, float rounding between floats of one size, any rounding
/// between integers.
pub(super) fn cvt_rounding_is_illegal(types: &[Type], has: &dyn Fn(&[&str]) -> bool) -> bool {
    let [d, a] = types else { return false };
    match (is_float(*d), is_float(*a)) {
        (true, false) => has(isa::INT_ROUNDING),
        (false, true) => has(isa::FLOAT_ROUNDING),
        // Between floats: widening takes no rounding; same size only integer rounding.
        (true, true) if element_size(*d) > element_size(*a) => {
            has(isa::INT_ROUNDING) || has(isa::FLOAT_ROUNDING)
        }
        (true, true) if element_size(*d) == element_size(*a) => has(isa::FLOAT_ROUNDING),
        // Between integers: none.
        (false, false) => has(isa::INT_ROUNDING) || has(isa::FLOAT_ROUNDING),
        _ => false,
    }
}

/// Size of one value: packed `.f16x2`/`.bf16x2` hold two of two bytes.
pub(super) fn element_size(t: Type) -> u32 {
    match t {
        Type::F16x2 | Type::BF16x2 => 2,
        _ => t.size_bytes(),
    }
}

/// Conversions that lose precision: to a float from an integer or a wider float, or float to integer.
pub(super) fn cvt_needs_rounding(types: &[Type]) -> bool {
    let [d, a] = types else { return false };
    match (is_float(*d), is_float(*a)) {
        (true, false) => !matches!(a, Type::B8 | Type::B16 | Type::B32 | Type::B64),
        (false, true) => is_int(*d),
        (true, true) => d.size_bytes() < a.size_bytes() && !matches!(d, Type::F16x2 | Type::BF16x2),
        _ => false,
    }
}

/// `setp`'s comparison against its type `ty`: more than one ("Multiple comparisons set"), or
/// one the type does not take.
pub(super) fn check_comparisons(i: &Instruction, ty: Type, out: &mut Findings) {
    let comparisons = i
        .mods()
        .iter()
        .filter(|m| crate::checks::mods::COMPARISONS.contains(&m.as_str()))
        .count();
    if comparisons > 1 {
        out.now(i.line, "Multiple comparisons set".into());
    } else if !comparison_fits(i, ty) {
        out.now(
            i.line,
            "Mismatch between instruction type and comparison qualifier".into(),
        );
    }
}

/// Opcodes whose `.ftz` ptxas calls illegal on `.f64` (it flushes single-precision subnormals).
pub(super) fn takes_ftz_but_on_f64(op: &str) -> bool {
    matches!(
        op,
        "add"
            | "sub"
            | "mul"
            | "mad"
            | "fma"
            | "min"
            | "max"
            | "div"
            | "abs"
            | "neg"
            | "setp"
            | "sqrt"
    )
}

/// Modifiers that don't fit the type or space: comparison kinds of `setp`, `.sat` on integers,
/// rounding on integer arithmetic, `.ftz` on integer arithmetic and on `.f64`, `.nc` outside
/// global loads.
pub(super) fn check_qualifiers(i: &Instruction, types: &[Type], s: &Scope, out: &mut Findings) {
    if let Some(msg) = missing_mode(i) {
        out.now(i.line, msg);
    }
    if let Some(msg) = mode_conflict(i) {
        out.now(i.line, msg);
    }
    let Some(&ty) = types.first() else { return };
    if let Some(msg) = crate::checks::mods::integer_saturation(i, ty, s) {
        out.now(i.line, msg);
    }
    let op = i.opcode();
    if op == "setp" {
        check_comparisons(i, ty, out);
    }
    let int_arith = !is_float(ty)
        && matches!(
            op,
            "add" | "sub" | "mul" | "mad" | "min" | "max" | "div" | "rem" | "abs" | "neg"
        );
    if int_arith && isa::FLOAT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            format!(
                "Illegal rounding modifier for instruction '{}'",
                display_name(i)
            ),
        );
    }
    let f64_ftz = ty == Type::F64 && takes_ftz_but_on_f64(op);
    if i.has_mod("ftz") && (int_arith || f64_ftz) {
        out.now(
            i.line,
            format!(
                "Illegal modifier '.ftz' for instruction '{}'",
                display_name(i)
            ),
        );
    }
    if let Some(msg) = bar_red_type_mismatch(i, ty) {
        out.now(i.line, msg);
    }
    if let Some(msg) = vote_type_mismatch(i, ty) {
        out.now(i.line, msg);
    }
    if i.has_mod("nc") {
        if op == "st" {
            out.now(i.line, "Illegal modifier '.nc' for instruction 'st'".into());
        } else if op == "ld" && !i.has_mod("global") {
            out.now(i.line, "Modifier '.nc' requires .global space".into());
        }
    }
}

/// `shfl` needs one of its shuffle modes, `bmsk` one of `.clamp`/`.wrap`, `elect` `.sync`.
pub(super) fn missing_mode(i: &Instruction) -> Option<String> {
    let (modes, what): (&[&str], &str) = match i.opcode() {
        "shfl" => (&["up", "down", "bfly", "idx"], "Shuffle"),
        "bmsk" => (&["clamp", "wrap"], "Clamp"),
        "elect" => (&["sync"], ".sync"),
        "setp" | "set" => (crate::checks::mods::COMPARISONS, "Comparison"),
        _ => return None,
    };
    (!modes.iter().any(|m| i.has_mod(m)))
        .then(|| format!("{what} modifier required for instruction '{}'", i.opcode()))
}

/// The type modifiers in order, packed FP8/FP6/FP4 pairs (`e4m3x2`) included.
pub(super) fn type_names(i: &Instruction) -> String {
    let names: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| Type::from_mod(m).is_some() || m.ends_with("x2"))
        .collect();
    names.join(".")
}

/// `prmt` takes at most one permute mode; `cvt` to FP8 pairs needs `.satfinite`.
pub(super) fn mode_conflict(i: &Instruction) -> Option<String> {
    const PERMUTES: &[&str] = &["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"];
    if i.opcode() == "prmt"
        && i.mods()
            .iter()
            .filter(|m| PERMUTES.contains(&&***m))
            .count()
            > 1
    {
        return Some("Multiple permute modifiers specified".into());
    }
    // The destination is the first type named.
    let dst = i
        .mods()
        .iter()
        .find(|m| Type::from_mod(m).is_some() || matches!(&***m, "e4m3x2" | "e5m2x2"))?;
    let fp8: &str = dst;
    if !matches!(fp8, "e4m3x2" | "e5m2x2") {
        return None;
    }
    (i.opcode() == "cvt" && !i.has_mod("satfinite")).then(|| {
        format!(
            "'.satfinite' modifier required for instruction 'cvt' with destination type '.{fp8}'"
        )
    })
}

/// `setp`'s comparison against its type: unsigned orders for unsigned integers, unordered ones
/// for floats, only `eq`/`ne` for bit types.
pub(crate) fn comparison_fits(i: &Instruction, ty: Type) -> bool {
    comparisons_fit(i.mods().iter().map(Name::as_str), ty)
}

/// Whether the comparisons among `mods` fit the type `ty` (see [`comparison_fits`]).
pub(crate) fn comparisons_fit<'m>(mods: impl Iterator<Item = &'m str> + Clone, ty: Type) -> bool {
    const UNSIGNED: &[&str] = &["lo", "ls", "hi", "hs"];
    const FLOAT: &[&str] = &["equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
    const ORDERED: &[&str] = &["lt", "le", "gt", "ge"];
    let has = |set: &[&str]| mods.clone().any(|m| set.contains(&m));
    let unsigned = matches!(ty, Type::U16 | Type::U32 | Type::U64);
    let bits = matches!(ty, Type::B16 | Type::B32 | Type::B64);
    !(has(UNSIGNED) && !unsigned || has(FLOAT) && !is_float(ty) || has(ORDERED) && bits)
}
