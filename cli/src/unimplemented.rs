//! Options ptxforge accepts without implementing them: those with no effect on its output
//! (accepted silently), those ptxas itself ignores (with ptxas's warnings), and the rest, which
//! warn by name. Values are checked as ptxas checks them first, with ptxas's messages.

use crate::args::{boolean, not_defined, number, signed_number, Args};

/// Flags with no effect on ptxforge's output: it never uses an optimizer constant bank, never
/// relaxes float atomics, merges no blocks and moves no returns a debugger would notice, has no
/// stack frames to check, gives none of the warnings these suppress, never spills and never uses
/// local memory (it reports an error instead), and does not generate code for sm_100 and later,
/// where the tensor-memory and fabric checks apply.
const NO_EFFECT: [&str; 14] = [
    "disable-optimizer-constants",
    "optimize-float-atomics",
    "dont-merge-basicblocks",
    "return-at-end",
    "sp-bounds-check",
    "suppress-stack-size-warning",
    "suppress-double-demote-warning",
    "suppress-sparse-mma-advisory-info",
    "suppress-async-bulk-multicast-advisory-warning",
    "g-tensor-memory-access-check",
    "gno-tensor-memory-access-check",
    "gno-fabric-access-check",
    "warn-on-spills",
    "warn-on-local-memory-usage",
];

/// The warning for an option ptxforge accepts but does not implement.
pub fn not_implemented(long: &str) -> String {
    format!("Option '--{long}' is not implemented by ptxforge and is ignored")
}

/// Applies one option that ptxforge does not implement.
pub fn apply(args: &mut Args, long: &str, v: &str) -> Result<(), String> {
    if NO_EFFECT.contains(&long) || ignored_as_by_ptxas(args, long, v)? {
        return Ok(());
    }
    if let Some(warning) = checked_warning(args, long, v)? {
        args.warnings.push(warning);
    }
    Ok(())
}

/// Options ptxas ignores too, or that change nothing here, with ptxas's own warnings; `false`
/// when `long` is not one of them.
fn ignored_as_by_ptxas(args: &mut Args, long: &str, v: &str) -> Result<bool, String> {
    match long {
        // ptxforge never contracts separate multiplies and adds: false changes nothing.
        "fmad" => {
            boolean(v)?;
        }
        "register-usage-level" => {
            let n = signed_number(v)?;
            if !(0..=10).contains(&n) {
                args.warnings.push(format!("Value of RegUsageLevel ({n}) is out of valid range {{0..10}}, option will be ignored"));
            }
        }
        "position-independent-code" => {
            boolean(v)?;
            args.pic_given = true;
        }
        "suppress-position-independent-code-warning" => args.suppress_pic_warning = true,
        "suppress-debug-info" => args.suppress_debug_info = true,
        "enable-func-clone-sc" => args.func_clone = boolean(v)?,
        "legacy-bar-warp-wide-behavior" => {
            args.warnings.push("'--legacy-bar-warp-wide-behavior' is a deprecated option, It will be removed in future release and is not recommended".into());
            args.warnings.push("Command line option '--legacy-bar-warp-wide-behavior' not supported for '.target sm_70', will be ignored".into());
        }
        // ptxas ignores it (without looking at the value) unless compiling with -c.
        "device-function-maxrregcount" => {
            args.warnings.push("Command line option 'device-function-maxrregcount' not supported for 'whole program compilation', will be ignored".into());
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Checks the value as ptxas does; the warning to give, if any.
fn checked_warning(args: &mut Args, long: &str, v: &str) -> Result<Option<String>, String> {
    match long {
        "compile-only" => args.compile_only = true,
        "device-debug" | "generate-line-info" => args.debug_info = true,
        "device-stack-protector" if !boolean(v)? => return Ok(None),
        "def-load-cache" | "force-load-cache" if !["ca", "cg", "cs", "cv", "lu"].contains(&v) => {
            args.errors.push(format!("Invalid default cache modifier on load specified: {v}"));
            return Ok(None);
        }
        "def-store-cache" | "force-store-cache" if !["cg", "cs", "wb", "wt"].contains(&v) => {
            args.errors.push(format!("Invalid default cache modifier on store specified: {v}"));
            return Ok(None);
        }
        "sanitize" if !matches!(v, "memcheck" | "threadsteer") => return Err(not_defined(v, long)),
        "maxntid" if v.split(',').count() > 3 => {
            return Ok(Some("Too many values specified for option '-maxntid', option will be ignored".into()));
        }
        "minnctapersm" => {
            number(v)?;
        }
        "apply-controls" if std::fs::File::open(v).is_err() => return Err(format!("File '{v}' could not be opened")),
        _ => {}
    }
    Ok(Some(not_implemented(long)))
}
