//! Options ptxforge accepts without implementing them: those with no effect on its output
//! (accepted silently), those ptxas itself ignores (with ptxas's warnings), and the rest, which
//! warn by name. Values are checked as ptxas checks them, with ptxas's messages; the messages
//! come out in ptxas's order through [`Ignored::notes_before_fast_compile`] and friends.

use crate::args::{boolean, not_defined, number, signed_number, OptionNote};
use ptxforge_pipeline::{CacheOp, CachePolicy, LaunchDefaults};

/// Flags with no effect on ptxforge's output: it never uses an optimizer constant bank, never
/// relaxes float atomics, merges no blocks and moves no returns a debugger would notice, has no
/// stack frames to check, gives none of the warnings these suppress, and does not generate code for
/// sm_100 and later, where the tensor-memory and fabric checks apply.
const NO_EFFECT: [&str; 12] = [
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
];

/// What the command line said about options ptxforge does not implement.
#[derive(Clone, Debug, Default)]
pub struct Ignored {
    /// `-c` (`--compile-only`): write a relocatable object.
    pub compile_only: bool,
    func_clone: bool,
    pic: bool,
    suppress_pic_warning: bool,
    reg_usage_level: Option<i64>,
    /// `-g` (`--device-debug`).
    pub device_debug: bool,
    line_info: bool,
    suppress_debug_info: bool,
    /// ptxas's errors for `-dlcm` / `-flcm` / `-dscm` / `-fscm` modifiers it does not know:
    /// `(load or store, message)`.
    cache_errors: Vec<(&'static str, String)>,
    /// `--def-load-cache` / `--force-load-cache` / `--def-store-cache` / `--force-store-cache`
    /// (implemented: they reach lowering through `CompileOptions`).
    pub cache_policy: CachePolicy,
    func_max_regs: bool,
    /// `--maxntid`'s values as written.
    maxntid: Option<String>,
    /// `--minnctapersm N`.
    minnctapersm: Option<u64>,
    /// `--override-directive-values`.
    override_directives: bool,
    /// `--make-errors-visible-at-exit` (implemented: error barriers before every EXIT).
    pub errors_visible_at_exit: bool,
    legacy_bar: bool,
    /// Options that only warn that ptxforge does not implement them, in command-line order.
    not_implemented: Vec<String>,
}

/// The warning for an option ptxforge accepts but does not implement.
pub fn not_implemented(long: &str) -> String {
    format!("Option '--{long}' is not implemented by ptxforge and is ignored")
}

impl Ignored {
    /// Whether line tables are written for PTX that carries `.loc` directives: as ptxas, with or
    /// without `-lineinfo` (and with `-g`), unless `--suppress-debug-info`.
    pub fn line_tables(&self) -> bool {
        !self.suppress_debug_info
    }

    /// Records one option that ptxforge does not implement, after checking its value.
    pub fn record(&mut self, long: &str, v: &str) -> Result<(), String> {
        if NO_EFFECT.contains(&long) {
            return Ok(());
        }
        match long {
            // ptxforge never contracts separate multiplies and adds: false changes nothing.
            "fmad" => {
                boolean(v)?;
            }
            "register-usage-level" => self.reg_usage_level = Some(signed_number(v)?),
            "position-independent-code" => {
                boolean(v)?;
                self.pic = true;
            }
            "suppress-position-independent-code-warning" => self.suppress_pic_warning = true,
            "suppress-debug-info" => self.suppress_debug_info = true,
            "enable-func-clone-sc" => self.func_clone = boolean(v)?,
            "legacy-bar-warp-wide-behavior" => self.legacy_bar = true,
            // ptxas ignores it (without looking at the value) unless compiling with -c.
            "device-function-maxrregcount" => self.func_max_regs = true,
            "def-load-cache" | "force-load-cache" => self.cache_modifier(long, v, "load"),
            "def-store-cache" | "force-store-cache" => self.cache_modifier(long, v, "store"),
            "maxntid" => self.maxntid = Some(v.to_string()),
            "minnctapersm" => self.minnctapersm = Some(number(v)?),
            "override-directive-values" => self.override_directives = true,
            "make-errors-visible-at-exit" => self.errors_visible_at_exit = true,
            _ => return self.record_not_implemented(long, v),
        }
        Ok(())
    }

    /// A cache modifier: ptxas's error when it does not know it, else recorded in the policy.
    fn cache_modifier(&mut self, long: &str, v: &str, kind: &'static str) {
        let store = kind == "store";
        if let Some(op) = CacheOp::parse(v, store) {
            let slot = match (long.starts_with("force"), store) {
                (false, false) => &mut self.cache_policy.default_load,
                (true, false) => &mut self.cache_policy.force_load,
                (false, true) => &mut self.cache_policy.default_store,
                (true, true) => &mut self.cache_policy.force_store,
            };
            *slot = Some(op);
        } else {
            self.cache_errors.push((
                kind,
                format!("Invalid default cache modifier on {kind} specified: {v}"),
            ));
        }
    }

    /// Options ptxforge warns about by name (values checked first).
    fn record_not_implemented(&mut self, long: &str, v: &str) -> Result<(), String> {
        match long {
            // A relocatable object (`ptxforge_pipeline`'s `relocatable.rs`).
            "compile-only" => {
                self.compile_only = true;
                return Ok(());
            }
            "device-debug" => self.device_debug = true,
            "generate-line-info" => {
                self.line_info = true;
                return Ok(());
            }
            "device-stack-protector" if !boolean(v)? => return Ok(()),
            "sanitize" if !matches!(v, "memcheck" | "threadsteer") => {
                return Err(not_defined(v, long))
            }
            "apply-controls" if std::fs::File::open(v).is_err() => {
                return Err(format!("File '{v}' could not be opened"))
            }
            _ => {}
        }
        self.not_implemented.push(not_implemented(long));
        Ok(())
    }

    /// ptxas's first option warnings: `-enable-func-clone-sc` without `-c`, the deprecated
    /// `-pic`, a register-usage level out of range.
    pub fn notes_before_fast_compile(&self) -> Vec<OptionNote> {
        let mut notes = Vec::new();
        if self.func_clone && !self.compile_only {
            notes.push(warning("Option '--enable-func-clone-sc' requires option '--compile-only'; ignoring since latter is not specified"));
        }
        if self.pic && !self.suppress_pic_warning {
            notes.push(warning("'--position-independent-code' is a deprecated option and is no longer functional. It will be removed in a future release"));
        }
        if let Some(n) = self.reg_usage_level.filter(|n| !(0..=10).contains(n)) {
            notes.push(OptionNote::Warning(format!(
                "Value of RegUsageLevel ({n}) is out of valid range {{0..10}}, option will be ignored"
            )));
        }
        notes
    }

    /// `-g` with other options: fatal with `-O1` and up given, else the options `-g` overrides.
    pub fn debug_notes(&self, optimizing: bool, fast_compile: bool) -> Vec<OptionNote> {
        if !self.device_debug {
            return Vec::new();
        }
        if optimizing {
            return vec![OptionNote::Fatal(
                "Optimized debugging not supported".into(),
            )];
        }
        let mut notes = Vec::new();
        if self.line_info {
            notes.push(warning("Conflicting options --device-debug and --generate-line-info specified, ignoring --generate-line-info option"));
        }
        if self.reg_usage_level.is_some() {
            notes.push(warning("Conflicting options '--device-debug' and '--register-usage-level' specified, ignoring '--register-usage-level' option"));
        }
        if fast_compile {
            notes.push(warning("Conflicting options '--device-debug' and '--Ofast-compile=<min,mid,max>' specified, ignoring '--Ofast-compile=<min,mid,max>' option"));
        }
        notes
    }

    /// ptxas's errors for cache modifiers it does not know (loads first, then stores), then its
    /// warnings for a default and a forced modifier of the same kind.
    pub fn cache_notes(&self) -> Vec<OptionNote> {
        let of_kind = |kind| {
            self.cache_errors
                .iter()
                .filter(move |(k, _)| *k == kind)
                .map(|(_, m)| OptionNote::Error(m.clone()))
        };
        let p = &self.cache_policy;
        let conflicts = [
            ("load", p.default_load.is_some() && p.force_load.is_some()),
            (
                "store",
                p.default_store.is_some() && p.force_store.is_some(),
            ),
        ];
        let conflicts = conflicts.into_iter().filter(|c| c.1).map(|(kind, _)| {
            warning(&format!("Conflicting options force-{kind}-cache and def-{kind}-cache specified, ignoring def-{kind}-cache option"))
        });
        of_kind("load")
            .chain(of_kind("store"))
            .chain(conflicts)
            .collect()
    }

    /// `--maxntid` and `--minnctapersm` as compiling uses them: ptxas ignores both beside
    /// `--maxrregcount`, a `--maxntid` with more than three values, one that is not numbers, and
    /// one or a `--minnctapersm` whose (first) value is 0.
    pub fn launch_defaults(&self, max_regs_given: bool) -> LaunchDefaults {
        if max_regs_given {
            return LaunchDefaults::default();
        }
        let maxntid = self.maxntid.as_ref().and_then(|v| {
            let dims: Option<Vec<u64>> = v.split(',').map(|d| d.trim().parse().ok()).collect();
            dims.filter(|d| d.len() <= 3 && d[0] != 0)
        });
        LaunchDefaults {
            maxntid,
            minnctapersm: self.minnctapersm.filter(|&n| n != 0),
            override_directives: self.override_directives,
        }
    }

    /// ptxas's warnings after the register limit, then ptxforge's own for what it does not implement.
    pub fn notes_after_max_regs(&self, max_regs_given: bool) -> Vec<OptionNote> {
        let mut notes = Vec::new();
        if self.func_max_regs {
            notes.push(warning("Command line option 'device-function-maxrregcount' not supported for 'whole program compilation', will be ignored"));
        }
        for (given, name) in [
            (self.minnctapersm.is_some(), "minnctapersm"),
            (self.maxntid.is_some(), "maxntid"),
        ] {
            if given && max_regs_given {
                notes.push(OptionNote::Warning(format!(
                    "Conflicting options -maxrregcount and -{name} specified, ignoring -{name} option"
                )));
            }
        }
        if self
            .maxntid
            .as_ref()
            .is_some_and(|v| v.split(',').count() > 3)
            && !max_regs_given
        {
            notes.push(warning(
                "Too many values specified for option '-maxntid', option will be ignored",
            ));
        }
        if self.suppress_debug_info && !self.device_debug && !self.line_info {
            notes.push(warning("Option suppress-debug-info requires option device-debug or lineinfo; ignoring since latter is not specified"));
        }
        if self.legacy_bar {
            notes.push(warning("'--legacy-bar-warp-wide-behavior' is a deprecated option, It will be removed in future release and is not recommended"));
            notes.push(warning("Command line option '--legacy-bar-warp-wide-behavior' not supported for '.target sm_70', will be ignored"));
        }
        notes.extend(
            self.not_implemented
                .iter()
                .cloned()
                .map(OptionNote::Warning),
        );
        notes
    }
}

fn warning(text: &str) -> OptionNote {
    OptionNote::Warning(text.to_string())
}
