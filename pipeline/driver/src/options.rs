//! Options that steer one compile, independent of how the command line spelled them.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use ptxforge_runtime::Jobserver;
use ptxforge_sass::arch::Sm;

/// A shared jobserver client (`--jobserver`), taken before each compile section.
#[derive(Clone)]
pub struct JobserverHandle(pub Arc<Jobserver>);

impl fmt::Debug for JobserverHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JobserverHandle")
    }
}

/// Everything [`crate::compile_module`] needs to know besides the PTX text.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Target architecture (`-arch sm_XX`).
    pub sm: Sm,
    /// Only parse and validate (`-arch compute_XX`): no code, no output file.
    pub parse_only: bool,
    /// `-arch` as written (`sm_80`, `compute_90a`), to check the module's `.target` against as
    /// ptxas does; `None` (a library caller's default) checks nothing.
    pub arch: Option<String>,
    /// `--split-compile N`: 0 = online CPUs, 1 = on the calling thread, N = N workers.
    pub split_compile: usize,
    /// `--threads-dynamic-scheduling`: work stealing instead of static partitioning.
    pub dynamic_scheduling: bool,
    /// `--threads-min-section-size N`: smallest task, in PTX instructions.
    pub min_section_size: usize,
    /// `--maxrregcount N` (None = the architecture's maximum).
    pub max_regs: Option<u32>,
    /// `-O` level (0..3); the skeleton compiles every level the same way.
    pub opt_level: u32,
    /// Capacity of each stage's mailbox (bounded channels keep memory flat).
    pub mailbox_capacity: usize,
    /// Keep the printed SASS of every kernel (for `--dump-sass` and filetests).
    pub keep_sass_text: bool,
    /// Run the hazard checker on every kernel's encoded code (always on in debug builds).
    pub check_hazards: bool,
    /// Make's jobserver, when `--jobserver` found one.
    pub jobserver: Option<JobserverHandle>,
    /// `--entry`: compile only these entry functions (empty: every entry).
    pub entries: Vec<String>,
    /// `--warn-on-double-precision-use`: warn at every `.f64` instruction.
    pub warn_double_precision: bool,
    /// `--def-load-cache` and friends: the cache operators of global and generic accesses.
    pub cache_policy: ptxforge_lower::CachePolicy,
    /// `--make-errors-visible-at-exit`: error barriers before every EXIT.
    pub errors_visible_at_exit: bool,
    /// `--maxntid`, `--minnctapersm` and `--override-directive-values`.
    pub launch_defaults: LaunchDefaults,
    /// `-c` (`--compile-only`): a relocatable object (ET_REL) with `.visible` device functions
    /// of their own and calls of external functions left to the linker (`relocatable.rs`).
    pub compile_only: bool,
    /// Test hook: make stage `.1` panic on kernel `.0`, to check that faults stay contained.
    pub fault_injection: Option<(String, String)>,
    /// `-lineinfo`: line tables from the PTX's `.file`/`.loc` directives (`lineinfo.rs`).
    pub line_info: bool,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            sm: Sm::new(75),
            parse_only: false,
            arch: None,
            split_compile: 1,
            dynamic_scheduling: false,
            min_section_size: 1,
            max_regs: None,
            opt_level: 3,
            mailbox_capacity: 4,
            keep_sass_text: false,
            check_hazards: cfg!(debug_assertions),
            jobserver: None,
            fault_injection: None,
            entries: Vec::new(),
            warn_double_precision: false,
            cache_policy: Default::default(),
            launch_defaults: LaunchDefaults::default(),
            errors_visible_at_exit: false,
            line_info: false,
            compile_only: false,
        }
    }
}

impl CompileOptions {
    /// Whether `--entry` selects the entry function `name`.
    pub fn compiles_entry(&self, name: &str) -> bool {
        self.entries.is_empty() || self.entries.iter().any(|e| e == name)
    }
}

/// The command line's `--maxntid` and `--minnctapersm`: they stand for the directives of kernels
/// that have none (`.maxntid`/`.reqntid`, `.minnctapersm`), or replace them with
/// `--override-directive-values`. ptxas ignores both beside `--maxrregcount`; the command line
/// leaves them out then.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchDefaults {
    pub maxntid: Option<Vec<u64>>,
    pub minnctapersm: Option<u64>,
    pub override_directives: bool,
}

impl LaunchDefaults {
    /// The directives the register budget follows: a kernel's `.maxnreg` is final, so the
    /// options' thread counts do not lower it (as ptxas).
    pub fn apply_for_budget<'a>(
        &self,
        directives: &'a [(String, Vec<u64>)],
    ) -> Cow<'a, [(String, Vec<u64>)]> {
        if directives.iter().any(|(n, _)| n == "maxnreg") {
            return Cow::Borrowed(directives);
        }
        self.apply(directives)
    }

    /// `directives` (`(name, values)` as the parser keeps them) with these applied; a kernel's
    /// `.maxntid` or `.reqntid` keeps `--maxntid` out unless overridden (and then a `.reqntid`
    /// stays beside the new `.maxntid`, as ptxas writes both).
    pub fn apply<'a>(&self, directives: &'a [(String, Vec<u64>)]) -> Cow<'a, [(String, Vec<u64>)]> {
        if self.maxntid.is_none() && self.minnctapersm.is_none() {
            return Cow::Borrowed(directives);
        }
        let has = |names: &[&str]| directives.iter().any(|(n, _)| names.contains(&n.as_str()));
        let mut out = directives.to_vec();
        let mut set = |name: &str, vals: Vec<u64>, present: bool| {
            if present && !self.override_directives {
                return;
            }
            out.retain(|(n, _)| n != name);
            out.push((name.to_string(), vals));
        };
        if let Some(dims) = &self.maxntid {
            set("maxntid", dims.clone(), has(&["maxntid", "reqntid"]));
        }
        if let Some(n) = self.minnctapersm {
            set("minnctapersm", vec![n], has(&["minnctapersm"]));
        }
        Cow::Owned(out)
    }
}
