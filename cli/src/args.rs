//! Command-line parsing with ptxas's spellings, value forms and fatal messages.
//!
//! Every option of ptxas 13.5's `--help` is in [`OPTIONS`]; [`apply`] stores the ones ptxforge
//! implements and hands the others to [`crate::unimplemented`] (accepted without effect on our
//! output, or accepted with a warning naming them).

use std::collections::VecDeque;

use ptxforge_sass::arch::Sm;

/// What the command line asked for.
#[derive(Clone, Debug)]
pub struct Args {
    pub inputs: Vec<String>,
    /// `--input-as-string`: PTX modules given on the command line (compiled after the files).
    pub ptx_strings: Vec<String>,
    pub output: String,
    pub arch: String,
    pub verbose: u8,
    pub split_compile: usize,
    /// Whether `--split-compile` was given explicitly.
    pub split_compile_given: bool,
    pub dynamic_scheduling: bool,
    pub min_section_size: usize,
    /// The register limit after [`Args::check`] applied ptxas's bounds.
    pub max_regs: Option<u32>,
    /// `--maxrregcount` as given.
    pub max_regs_request: Option<MaxRegs>,
    pub opt_level: u32,
    /// Whether `-O` / `--opt-level` was given (only then can it conflict with `--Ofast-compile`).
    pub opt_level_given: bool,
    /// `--Ofast-compile` as given; checked by [`Args::check`] (ptxas checks it after the help).
    pub fast_compile: Option<String>,
    pub dump_sass: bool,
    pub jobserver: bool,
    /// `--compiler-stats LIST`.
    pub compiler_stats: Option<crate::stats::StatsRequest>,
    /// `--compiler-stats-file F`: append the report there instead of stderr.
    pub compiler_stats_file: Option<String>,
    /// `--compiler-stats-json F`: the stats as JSON.
    pub compiler_stats_json: Option<String>,
    /// `--fdevice-time-trace F`, `--use-trace-pid N`, `--ftrace-phase-after NAME`.
    pub trace: crate::trace::TraceOptions,
    /// `--allow-expensive-optimizations true`: a pool sized to the machine when `--split-compile` is not given.
    pub expensive_optimizations: Option<bool>,
    pub version: bool,
    pub help: bool,
    pub list_arch: bool,
    pub list_version: bool,
    /// `--entry`: compile only these entries (empty: all).
    pub entries: Vec<String>,
    /// `-w`: print no warnings.
    pub disable_warnings: bool,
    /// `-Werror`: warnings become errors.
    pub warnings_as_errors: bool,
    pub warn_double: bool,
    /// `--warn-on-spills`: warn for each kernel that spills registers.
    pub warn_spills: bool,
    /// `--warn-on-local-memory-usage`: warn for each kernel with a stack frame.
    pub warn_local_memory: bool,
    /// Options ptxforge accepts without implementing them.
    pub ignored: crate::unimplemented::Ignored,
    /// `incompatible redefinition` warnings: printed whatever `-w` and `-Werror` say, as ptxas does.
    pub redefinitions: Vec<String>,
}

/// A message about the options, from [`Args::check`], in the order ptxas gives them. Warnings
/// follow `-w` and `-Werror`; errors fail the run after the inputs are read; a fatal ends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionNote {
    Warning(String),
    Error(String),
    Fatal(String),
}

/// `--maxrregcount` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxRegs {
    ArchMax,
    ArchMin,
    Count(i64),
}

impl Default for Args {
    fn default() -> Args {
        Args {
            inputs: Vec::new(),
            ptx_strings: Vec::new(),
            output: "elf.o".into(),
            arch: "sm_75".into(),
            verbose: 0,
            split_compile: 1,
            split_compile_given: false,
            dynamic_scheduling: false,
            min_section_size: 1,
            max_regs: None,
            max_regs_request: None,
            opt_level: 3,
            opt_level_given: false,
            fast_compile: None,
            dump_sass: false,
            jobserver: false,
            compiler_stats: None,
            compiler_stats_file: None,
            compiler_stats_json: None,
            trace: Default::default(),
            expensive_optimizations: None,
            version: false,
            help: false,
            list_arch: false,
            list_version: false,
            entries: Vec::new(),
            disable_warnings: false,
            warnings_as_errors: false,
            warn_double: false,
            warn_spills: false,
            warn_local_memory: false,
            ignored: Default::default(),
            redefinitions: Vec::new(),
        }
    }
}

/// How an option takes its value.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Takes {
    Flag,
    Value,
}

/// `(long, short, takes)`; the canonical name is the long one. ptxas's `--help` order, then ours.
const OPTIONS: &[(&str, &str, Takes)] = &[
    ("Ofast-compile", "Ofc", Takes::Value),
    (
        "allow-expensive-optimizations",
        "allow-expensive-optimizations",
        Takes::Value,
    ),
    ("apply-controls", "apply-controls", Takes::Value),
    ("compile-as-tools-patch", "astoolspatch", Takes::Flag),
    ("compile-only", "c", Takes::Flag),
    ("compiler-annotations", "annotate", Takes::Flag),
    ("def-load-cache", "dlcm", Takes::Value),
    ("def-store-cache", "dscm", Takes::Value),
    ("device-debug", "g", Takes::Flag),
    (
        "device-function-maxrregcount",
        "func-maxrregcount",
        Takes::Value,
    ),
    (
        "device-stack-protector",
        "device-stack-protector",
        Takes::Value,
    ),
    (
        "disable-optimizer-constants",
        "disable-optimizer-consts",
        Takes::Flag,
    ),
    ("disable-warnings", "w", Takes::Flag),
    ("dont-merge-basicblocks", "no-bb-merge", Takes::Flag),
    ("enable-func-clone-sc", "enable-func-clone-sc", Takes::Value),
    ("entry", "e", Takes::Value),
    ("extensible-whole-program", "ewp", Takes::Flag),
    ("fmad", "fmad", Takes::Value),
    ("force-load-cache", "flcm", Takes::Value),
    ("force-store-cache", "fscm", Takes::Value),
    (
        "g-tensor-memory-access-check",
        "g-tmem-access-check",
        Takes::Flag,
    ),
    ("generate-line-info", "lineinfo", Takes::Flag),
    (
        "gno-fabric-access-check",
        "gno-fabric-access-check",
        Takes::Flag,
    ),
    (
        "gno-tensor-memory-access-check",
        "gno-tmem-access-check",
        Takes::Flag,
    ),
    ("gpu-name", "arch", Takes::Value),
    ("help", "h", Takes::Flag),
    ("input-as-string", "ias", Takes::Value),
    ("jobserver", "jobserver", Takes::Flag),
    (
        "legacy-bar-warp-wide-behavior",
        "legacy-bar-warp-wide-behavior",
        Takes::Flag,
    ),
    ("list-arch", "arch-ls", Takes::Flag),
    ("list-version", "version-ls", Takes::Flag),
    ("machine", "m", Takes::Value),
    (
        "make-errors-visible-at-exit",
        "make-errors-visible-at-exit",
        Takes::Flag,
    ),
    ("maxntid", "maxntid", Takes::Value),
    ("maxrregcount", "maxrregcount", Takes::Value),
    ("minnctapersm", "minnctapersm", Takes::Value),
    ("opt-level", "O", Takes::Value),
    ("optimize-float-atomics", "opt-fp-atomics", Takes::Flag),
    ("options-file", "optf", Takes::Value),
    ("output-file", "o", Takes::Value),
    (
        "override-directive-values",
        "override-directive-values",
        Takes::Flag,
    ),
    ("position-independent-code", "pic", Takes::Value),
    ("preserve-relocs", "preserve-relocs", Takes::Flag),
    ("register-usage-level", "regUsageLevel", Takes::Value),
    ("return-at-end", "ret-end", Takes::Flag),
    ("sanitize", "sanitize", Takes::Value),
    ("sp-bounds-check", "sp-bounds-check", Takes::Flag),
    ("split-compile", "split-compile", Takes::Value),
    (
        "suppress-async-bulk-multicast-advisory-warning",
        "suppress-async-bulk-multicast-advisory-warning",
        Takes::Flag,
    ),
    ("suppress-debug-info", "suppress-debug-info", Takes::Flag),
    (
        "suppress-double-demote-warning",
        "suppress-double-demote-warning",
        Takes::Flag,
    ),
    (
        "suppress-position-independent-code-warning",
        "suppress-position-independent-code-warning",
        Takes::Flag,
    ),
    (
        "suppress-sparse-mma-advisory-info",
        "suppress-sparse-mma-advisory-info",
        Takes::Flag,
    ),
    (
        "suppress-stack-size-warning",
        "suppress-stack-size-warning",
        Takes::Flag,
    ),
    ("verbose", "v", Takes::Flag),
    ("verbose2", "v2", Takes::Flag),
    ("version", "V", Takes::Flag),
    (
        "warn-on-double-precision-use",
        "warn-double-usage",
        Takes::Flag,
    ),
    ("warn-on-local-memory-usage", "warn-lmem-usage", Takes::Flag),
    ("warn-on-spills", "warn-spills", Takes::Flag),
    ("warning-as-error", "Werror", Takes::Flag),
    // ptxas's hidden options that ptxforge implements.
    ("compiler-stats", "", Takes::Value),
    ("compiler-stats-file", "", Takes::Value),
    ("compiler-stats-json", "", Takes::Value),
    ("fdevice-time-trace", "fdevice-time-trace", Takes::Value),
    ("use-trace-pid", "use-trace-pid", Takes::Value),
    ("ftrace-phase-after", "ftrace-phase-after", Takes::Value),
    // Hidden in ptxas's --help, but Triton passes it on every compile.
    ("regAllocOptLevel", "regAllocOptLevel", Takes::Value),
    // ptxforge's own options.
    (
        "threads-dynamic-scheduling",
        "threads-dynamic-scheduling",
        Takes::Flag,
    ),
    (
        "threads-min-section-size",
        "threads-min-section-size",
        Takes::Value,
    ),
    ("dump-sass", "dump-sass", Takes::Flag),
];

/// Options that may be given several times, each adding to a list (no redefinition warning).
const LIST_OPTIONS: [&str; 3] = ["entry", "input-as-string", "options-file"];

/// Short options that take a number glued to them, as ptxas reads `-O3` and `-m64`.
const GLUED_NUMBER_OPTIONS: [(&str, &str); 2] = [("O", "opt-level"), ("m", "machine")];

/// How many options files one command line may open (ptxas stops an including loop too).
const MAX_OPTIONS_FILES: usize = 64;

/// Parses `argv[1..]`; `Err` holds ptxas's fatal message (without the `ptxas fatal   : ` prefix).
pub fn parse(argv: &[String]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut words: VecDeque<String> = argv.iter().cloned().collect();
    let mut given: Vec<(&'static str, String)> = Vec::new();
    let mut files_opened = 0;
    while let Some(word) = words.pop_front() {
        if !word.starts_with('-') || word == "-" {
            args.inputs.push(word);
            continue;
        }
        let (long, value) = read_option(&word, &mut words)?;
        if long == "options-file" {
            let names = value.unwrap_or_default();
            files_opened += names.split(',').count();
            crate::options_file::splice(&names, &mut words, files_opened > MAX_OPTIONS_FILES)?;
            continue;
        }
        if let Some(v) = &value {
            note_redefinition(&mut args, &mut given, long, v);
        }
        apply(&mut args, long, value)?;
    }
    Ok(args)
}

/// Reads one option word (and its value, from the word or the next one): `(long name, value)`.
fn read_option(
    word: &str,
    rest: &mut VecDeque<String>,
) -> Result<(&'static str, Option<String>), String> {
    let long_form = word.starts_with("--");
    let body = &word[if long_form { 2 } else { 1 }..];
    let (name, inline) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (body, None),
    };
    let Some((long, takes)) = lookup(long_form, name) else {
        return glued_number(long_form, body)
            .ok_or_else(|| format!("Unknown option '{}'", strip_value(&word[1..])));
    };
    match (takes, inline) {
        (Takes::Flag, Some(_)) => Err(format!(
            "no argument expected after '{}'",
            strip_value(word)
        )),
        (Takes::Flag, None) => Ok((long, None)),
        (Takes::Value, Some(v)) => Ok((long, Some(v))),
        // `-O` alone is `-O0`; it never takes the next word.
        (Takes::Value, None) if !long_form && name == "O" => Ok((long, Some("0".into()))),
        (Takes::Value, None) => match rest.pop_front() {
            Some(v) => Ok((long, Some(v))),
            None => Err(format!("argument expected after '{word}'")),
        },
    }
}

/// `-O3`, `-m64`: a one-letter numeric short option with its value glued on.
fn glued_number(long_form: bool, body: &str) -> Option<(&'static str, Option<String>)> {
    if long_form {
        return None;
    }
    GLUED_NUMBER_OPTIONS
        .iter()
        .find(|(short, _)| body.starts_with(short))
        .map(|(short, long)| (*long, Some(body[short.len()..].to_string())))
}

fn strip_value(word: &str) -> &str {
    word.split_once('=').map_or(word, |(n, _)| n)
}

/// Finds the option: `--long` or `-short` (ptxas is strict about the number of dashes).
fn lookup(long_form: bool, name: &str) -> Option<(&'static str, Takes)> {
    OPTIONS
        .iter()
        .find(|(l, s, _)| {
            if long_form {
                *l == name
            } else {
                !s.is_empty() && *s == name
            }
        })
        .map(|(l, _, t)| (*l, *t))
}

/// The short spelling of an option, if it has one (for `--help`).
pub fn short_name(long: &str) -> Option<&'static str> {
    OPTIONS
        .iter()
        .find(|(l, s, _)| *l == long && !s.is_empty())
        .map(|(_, s, _)| *s)
}

/// Every option's long name (for `--help`'s test).
#[cfg(test)]
pub fn all_options() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().map(|(l, _, _)| *l)
}

/// ptxas's warning when a single-valued option is given again with another value.
fn note_redefinition(
    args: &mut Args,
    given: &mut Vec<(&'static str, String)>,
    long: &'static str,
    value: &str,
) {
    if LIST_OPTIONS.contains(&long) {
        return;
    }
    match given.iter_mut().find(|(l, _)| *l == long) {
        Some((_, old)) if old != value => {
            args.redefinitions
                .push(format!("incompatible redefinition for option '{long}', the last value of this option was used"));
            *old = value.to_string();
        }
        Some(_) => {}
        None => given.push((long, value.to_string())),
    }
}

pub(crate) fn boolean(v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("'{v}': expected true or false")),
    }
}

/// ptxas's number syntax: decimal, optionally negative; an empty value reads as 0.
pub(crate) fn signed_number(v: &str) -> Result<i64, String> {
    if v.is_empty() {
        return Ok(0);
    }
    v.parse::<i64>()
        .map_err(|_| format!("'{v}': expected a number"))
}

pub(crate) fn number(v: &str) -> Result<u64, String> {
    if v.is_empty() {
        return Ok(0);
    }
    v.parse::<u64>()
        .map_err(|_| format!("'{v}': expected a number"))
}

pub(crate) fn not_defined(v: &str, long: &str) -> String {
    format!("Value '{v}' is not defined for option '{long}'")
}

/// Stores one option's value.
fn apply(args: &mut Args, long: &str, value: Option<String>) -> Result<(), String> {
    let v = value.unwrap_or_default();
    match long {
        "gpu-name" => {
            check_arch(&v)?;
            args.arch = v;
        }
        "output-file" => args.output = v,
        "verbose" => args.verbose = args.verbose.max(1),
        "verbose2" => args.verbose = 2,
        "split-compile" => {
            if v.starts_with('-') {
                return Err(format!("Invalid value '{v}' for option '--split-compile'"));
            }
            args.split_compile = number(&v)? as usize;
            args.split_compile_given = true;
        }
        "threads-dynamic-scheduling" => args.dynamic_scheduling = true,
        "threads-min-section-size" => args.min_section_size = number(&v)?.max(1) as usize,
        "maxrregcount" => args.max_regs_request = Some(max_regs(&v, long)?),
        // As ptxas for sm_75..sm_89: any number other than 0, 1 and 2 (negative ones included)
        // means full optimization. (ptxas 13.5 aborts on -O10 and up, or negative, for sm_90.)
        "opt-level" => {
            let n = signed_number(&v)?;
            args.opt_level = if (0..=2).contains(&n) { n as u32 } else { 3 };
            args.opt_level_given = true;
        }
        "Ofast-compile" => args.fast_compile = Some(v),
        "dump-sass" => args.dump_sass = true,
        "jobserver" => args.jobserver = true,
        "compiler-stats" => args.compiler_stats = Some(crate::stats::parse_request(&v)?),
        "compiler-stats-file" => args.compiler_stats_file = Some(v),
        "compiler-stats-json" => args.compiler_stats_json = Some(v),
        "fdevice-time-trace" => args.trace.file = Some(v),
        "use-trace-pid" => {
            args.trace.pid = Some(v.parse().map_err(|_| format!("'{v}': expected a number"))?)
        }
        "ftrace-phase-after" => args.trace.phase_after = Some(v),
        // A number, as ptxas checks it; ptxforge's register allocator has one level.
        "regAllocOptLevel" => {
            signed_number(&v)?;
        }
        "allow-expensive-optimizations" => args.expensive_optimizations = Some(boolean(&v)?),
        "version" => args.version = true,
        "help" => args.help = true,
        "list-arch" => args.list_arch = true,
        "list-version" => args.list_version = true,
        "machine" => {
            if number(&v)? != 64 {
                return Err(not_defined(&v, long));
            }
        }
        "entry" => args
            .entries
            .extend(v.split(',').filter(|e| !e.is_empty()).map(str::to_string)),
        "input-as-string" => args.ptx_strings.push(v),
        "disable-warnings" => args.disable_warnings = true,
        "warning-as-error" => args.warnings_as_errors = true,
        "warn-on-double-precision-use" => args.warn_double = true,
        "warn-on-spills" => args.warn_spills = true,
        "warn-on-local-memory-usage" => args.warn_local_memory = true,
        _ => args.ignored.record(long, &v)?,
    }
    Ok(())
}

fn max_regs(v: &str, long: &str) -> Result<MaxRegs, String> {
    match v {
        "archmax" => Ok(MaxRegs::ArchMax),
        "archmin" => Ok(MaxRegs::ArchMin),
        _ => signed_number(v)
            .map(MaxRegs::Count)
            .map_err(|_| format!("Invalid value '{v}' for option '{long}'")),
    }
}

/// Every name ptxas 13.5 accepts for `--gpu-name`: `sm_`, `compute_` and `lto_` with 75..90a
/// and with 100..121 plus the `a` and `f` variants.
pub fn is_known_arch(v: &str) -> bool {
    const OLDER: [&str; 8] = ["75", "80", "86", "87", "88", "89", "90", "90a"];
    const NEWER: [&str; 6] = ["100", "103", "107", "110", "120", "121"];
    let Some(num) = ["sm_", "compute_", "lto_"]
        .iter()
        .find_map(|p| v.strip_prefix(p))
    else {
        return false;
    };
    let base = num.strip_suffix(['a', 'f']).unwrap_or(num);
    OLDER.contains(&num) || NEWER.contains(&base)
}

fn check_arch(v: &str) -> Result<(), String> {
    if is_known_arch(v) {
        Ok(())
    } else {
        Err(format!("Value '{v}' is not defined for option 'gpu-name'"))
    }
}

/// The lowest register limit ptxas lets `--maxrregcount` set (it raises smaller ones).
const MIN_MAX_REGS: i64 = 24;
/// The highest register limit per thread on sm_75..sm_90.
const MAX_MAX_REGS: i64 = 255;

impl Args {
    /// Workers: `--split-compile N`, or all CPUs (0) with `--allow-expensive-optimizations true`.
    pub fn workers(&self) -> usize {
        match (self.split_compile_given, self.expensive_optimizations) {
            (false, Some(true)) => 0,
            _ => self.split_compile,
        }
    }

    /// The real architecture to encode for, and whether this is a parse-only virtual target.
    pub fn target(&self) -> (Sm, bool) {
        let virtual_arch = self.arch.starts_with("compute_");
        let name = self
            .arch
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .trim_end_matches('f');
        let sm = name.parse::<Sm>().unwrap_or(Sm::new(75));
        (sm, virtual_arch)
    }

    /// Whether ptxforge generates code for `--gpu-name` (virtual targets only parse).
    pub fn can_generate(&self) -> bool {
        let (sm, virtual_arch) = self.target();
        virtual_arch
            || (self.arch.starts_with("sm_") && !self.arch.ends_with('f') && sm.is_supported())
    }

    /// Checks done once the command line is read and a compile is due, as ptxas does them after
    /// printing help, with its messages in its order: `--Ofast-compile` and its conflicts with
    /// `-O` (fatal), `-g` with other options, the register limit against the architecture, and
    /// warnings that depend on other options. Sets [`Args::max_regs`].
    pub fn check(&mut self) -> Vec<OptionNote> {
        let mut notes = self.ignored.notes_before_fast_compile();
        let optimizing = self.opt_level_given && self.opt_level > 0;
        let fast = self.fast_compile.as_deref().is_some_and(|l| l != "0");
        let fatal = self.fast_compile_level_error().or_else(|| {
            let debug = self.ignored.debug_notes(optimizing, fast);
            let debug_fatal = debug
                .iter()
                .find(|n| matches!(n, OptionNote::Fatal(_)))
                .cloned();
            notes.extend(
                debug
                    .into_iter()
                    .filter(|n| !matches!(n, OptionNote::Fatal(_))),
            );
            debug_fatal.or_else(|| self.fast_compile_conflict())
        });
        if let Some(fatal) = fatal {
            notes.push(fatal);
            return notes;
        }
        notes.extend(self.ignored.cache_notes());
        let (max_regs, note) = self
            .max_regs_request
            .map_or((None, None), |r| self.bounded_max_regs(r));
        self.max_regs = max_regs;
        notes.extend(note);
        notes.extend(
            self.ignored
                .notes_after_max_regs(self.max_regs_request.is_some()),
        );
        notes
    }

    /// ptxas's fatal for an `--Ofast-compile` level it does not know.
    fn fast_compile_level_error(&self) -> Option<OptionNote> {
        let level = self.fast_compile.as_deref()?;
        (!matches!(level, "0" | "min" | "mid" | "max")).then(|| {
            OptionNote::Fatal(format!(
                "Invalid value for --Ofast-compile/-Ofc ({level}), is not 'max', 'mid', 'min', or '0'"
            ))
        })
    }

    /// ptxas's fatal for `--Ofast-compile` with an `-O` it does not allow (`min`/`mid`: only
    /// -O1, `max`: only -O0); an `-O` not given never conflicts.
    fn fast_compile_conflict(&self) -> Option<OptionNote> {
        let level = self.fast_compile.as_deref()?;
        let allowed_opt = match level {
            "min" | "mid" => 1,
            "max" => 0,
            _ => return None,
        };
        if !self.opt_level_given || self.opt_level == allowed_opt || self.ignored.device_debug {
            return None;
        }
        let others = if allowed_opt == 1 { "0,2,3" } else { "1,2,3" };
        Some(OptionNote::Fatal(format!(
            "Conflicting options -opt-level=<{others}> and --Ofast-compile={level} specified"
        )))
    }

    /// ptxas's bounds on `--maxrregcount`: too big is ignored, too small is raised (with a warning).
    fn bounded_max_regs(&self, request: MaxRegs) -> (Option<u32>, Option<OptionNote>) {
        let n = match request {
            MaxRegs::ArchMax => return (None, None),
            MaxRegs::ArchMin => return (Some(MIN_MAX_REGS as u32), None),
            MaxRegs::Count(n) => n,
        };
        if !(0..=MAX_MAX_REGS).contains(&n) {
            return (
                None,
                Some(OptionNote::Warning(format!(
                    "Too big maxrregcount value specified {n}, will be ignored"
                ))),
            );
        }
        if n < MIN_MAX_REGS {
            let arch = &self.arch;
            let note = format!(
                "For profile {arch} adjusting per thread register count of {n} to lower bound of {MIN_MAX_REGS}"
            );
            return (Some(MIN_MAX_REGS as u32), Some(OptionNote::Warning(note)));
        }
        (Some(n as u32), None)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn p(words: &[&str]) -> Result<Args, String> {
        parse(&words.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn value_forms() {
        let a = p(&["-arch=sm_90", "-o", "x.cubin", "-O2", "k.ptx"]).unwrap();
        assert_eq!(a.arch, "sm_90");
        assert_eq!(a.output, "x.cubin");
        assert_eq!(a.opt_level, 2);
        assert_eq!(a.inputs, vec!["k.ptx"]);
        let b = p(&["--gpu-name", "sm_80", "--split-compile", "4", "k.ptx"]).unwrap();
        assert_eq!((b.arch.as_str(), b.split_compile), ("sm_80", 4));
        assert_eq!(p(&["-O"]).unwrap().opt_level, 0);
        assert_eq!(p(&["-O=1"]).unwrap().opt_level, 1);
        assert!(p(&["-m64", "-m", "64", "--machine=64"]).is_ok());
    }

    #[test]
    fn ptxas_fatal_messages() {
        assert_eq!(p(&["--knob"]).unwrap_err(), "Unknown option '-knob'");
        assert_eq!(p(&["-knob"]).unwrap_err(), "Unknown option 'knob'");
        assert_eq!(
            p(&["-arch=sm_91"]).unwrap_err(),
            "Value 'sm_91' is not defined for option 'gpu-name'"
        );
        assert_eq!(p(&["-v=1"]).unwrap_err(), "no argument expected after '-v'");
        assert_eq!(p(&["-o"]).unwrap_err(), "argument expected after '-o'");
        assert_eq!(p(&["-Ox"]).unwrap_err(), "'x': expected a number");
        assert_eq!(
            p(&["-maxrregcount64"]).unwrap_err(),
            "'axrregcount64': expected a number"
        );
        assert_eq!(
            p(&["-m32"]).unwrap_err(),
            "Value '32' is not defined for option 'machine'"
        );
        assert_eq!(
            p(&["--split-compile=-1"]).unwrap_err(),
            "Invalid value '-1' for option '--split-compile'"
        );
        assert_eq!(
            p(&["--allow-expensive-optimizations", "maybe"]).unwrap_err(),
            "'maybe': expected true or false"
        );
        assert_eq!(
            p(&["--compiler-stats", "foo"]).unwrap_err(),
            "Value 'foo' is not defined for option 'compiler-stats'"
        );
        assert_eq!(
            p(&["-compiler-stats=time"]).unwrap_err(),
            "Unknown option 'compiler-stats'"
        );
        assert_eq!(
            p(&["-maxrregcount=abc"]).unwrap_err(),
            "Invalid value 'abc' for option 'maxrregcount'"
        );
        assert_eq!(
            p(&["-allow-expensive-optimizations=true"])
                .unwrap()
                .expensive_optimizations,
            Some(true)
        );
    }

    #[test]
    fn defaults_match_ptxas() {
        let a = p(&["k.ptx"]).unwrap();
        assert_eq!(
            (a.arch.as_str(), a.output.as_str(), a.opt_level),
            ("sm_75", "elf.o", 3)
        );
    }

    #[test]
    fn every_ptxas_architecture_name_is_known() {
        for name in [
            "sm_75",
            "compute_90a",
            "lto_89",
            "sm_100f",
            "compute_121a",
            "lto_110",
        ] {
            assert!(is_known_arch(name), "{name}");
        }
        for name in [
            "sm_70",
            "sm_80a",
            "sm_90f",
            "SM_80",
            "sm_101",
            "sm_80,sm_90",
        ] {
            assert!(!is_known_arch(name), "{name}");
        }
    }

    #[test]
    fn redefinition_warns_only_for_a_different_value() {
        assert!(p(&["-O3", "--opt-level=3"])
            .unwrap()
            .redefinitions
            .is_empty());
        assert_eq!(p(&["-O2", "-O3"]).unwrap().redefinitions.len(), 1);
        assert!(p(&["-e", "a", "-e", "b"]).unwrap().redefinitions.is_empty());
    }

    #[test]
    fn fast_compile_conflicts_follow_ptxas() {
        let check = |w: &[&str]| p(w).unwrap().check();
        for ok in [
            &["-Ofc=min", "-O1"][..],
            &["-Ofc=max", "-O0"],
            &["-Ofc=min"],
            &["-Ofc=0", "-O2"],
        ] {
            assert!(check(ok).is_empty(), "{ok:?}");
        }
        let fatal = |m: &str| vec![OptionNote::Fatal(m.into())];
        assert_eq!(
            check(&["-Ofc=mid", "-O3"]),
            fatal("Conflicting options -opt-level=<0,2,3> and --Ofast-compile=mid specified")
        );
        assert_eq!(
            check(&["-Ofc=max", "-O1"]),
            fatal("Conflicting options -opt-level=<1,2,3> and --Ofast-compile=max specified")
        );
        assert_eq!(
            check(&["-g", "-O1"]),
            fatal("Optimized debugging not supported")
        );
    }

    #[test]
    fn maxrregcount_bounds() {
        let checked = |w: &[&str]| {
            let mut a = p(w).unwrap();
            let notes = a.check();
            (a.max_regs, notes)
        };
        assert_eq!(checked(&["-maxrregcount=64"]), (Some(64), vec![]));
        assert_eq!(checked(&["-maxrregcount=2", "-arch=sm_90"]).0, Some(24));
        let too_big =
            OptionNote::Warning("Too big maxrregcount value specified 256, will be ignored".into());
        assert_eq!(checked(&["-maxrregcount=256"]).1, vec![too_big]);
        assert_eq!(checked(&["-maxrregcount=-1"]).0, None);
    }
}
