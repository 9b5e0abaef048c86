//! `ptxforge`: the ptxas-compatible command-line driver.
//!
//! ## What lives where
//!
//! the binary: `args.rs` (every ptxas 13.5 option with its spellings, value forms and messages),
//! `unimplemented.rs` (options accepted without effect or warned), `options_file.rs`, `inputs.rs`
//! (several files and `--input-as-string` into one module set), `warnings.rs` (`-w`, `-Werror`),
//! `help.rs`, `verbose.rs` (`-v`/`-v2`), `stats.rs` (`--compiler-stats` STAT lines plus stage
//! latency histograms, channel waits, worker utilisation, steals, jobserver tokens),
//! `stats_json.rs` + `json.rs` (`--compiler-stats-json`), `trace.rs` (`--fdevice-time-trace`,
//! written or merged), `sim.rs` (`ptxforge sim`: the differential check from the command line),
//! `main.rs` (jobserver hookup, atomic output via temp file + rename).

mod args;
mod help;
mod inputs;
mod json;
mod options_file;
mod resource_warnings;
mod sim;
mod sim_random;
mod stats;
mod stats_json;
mod trace;
mod unimplemented;
mod verbose;
mod warnings;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use std::sync::Arc;

use ptxforge_pipeline::compile::{compile_sources, Source};
use ptxforge_pipeline::{CompileOptions, CompileOutput, JobserverHandle};
use ptxforge_runtime::Jobserver;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXIT_ERROR: u8 = 255;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some("sim") {
        return sim::main(&argv[1..]);
    }
    let mut args = match args::parse(&argv) {
        Ok(a) => a,
        Err(msg) => return fatal(&msg),
    };
    for w in &args.redefinitions {
        eprintln!("ptxas warning : {w}");
    }
    for w in args.trace.warnings() {
        eprintln!("ptxas warning : {w}");
    }
    if args.version {
        print!("{}", version_text());
        return ExitCode::SUCCESS;
    }
    let lists = args.list_arch || args.list_version;
    if args.help || (args.inputs.is_empty() && args.ptx_strings.is_empty() && !lists) {
        print!("{}", help::help_text());
        return ExitCode::SUCCESS;
    }
    if lists {
        print!("{}", help::lists_text(args.list_arch, args.list_version));
        return ExitCode::SUCCESS;
    }
    let notes = args.check();
    run(&args, &notes)
}

/// Compiles the input and writes the cubin; returns the process exit status.
fn run(args: &args::Args, notes: &[args::OptionNote]) -> ExitCode {
    let policy = warnings::WarningPolicy::new(args.disable_warnings, args.warnings_as_errors);
    let option_errors = match print_option_notes(notes, &policy) {
        Ok(errors) => errors,
        Err(code) => return code,
    };
    let inputs = match inputs::read_all(&args.inputs, &args.ptx_strings) {
        Ok(inputs) => inputs,
        Err(missing) => {
            missing
                .iter()
                .for_each(|m| eprintln!("ptxas fatal   : {m}"));
            return aborted();
        }
    };
    if option_errors {
        return aborted();
    }
    if !args.can_generate() {
        return fatal(&format!(
            "ptxforge cannot generate code for '{}' yet (supported: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a; compute_XX parses only)",
            args.arch
        ));
    }
    let sources: Vec<Source> = inputs
        .iter()
        .map(|i| Source {
            text: &i.text,
            name: &i.name,
        })
        .collect();
    let input = &inputs[0].name;
    let mut opts = compile_options(args);
    let link = connect_jobserver(args);
    if let JobserverLink::Connected(js) = &link {
        opts.jobserver = Some(js.clone());
    }
    let out = compile_sources(&sources, &opts);
    let jobserver_policy =
        warnings::WarningPolicy::new(args.disable_warnings, args.warnings_as_errors);
    if let Err(code) = check_jobserver(
        &link,
        !opts.parse_only && !out.kernels.is_empty(),
        &jobserver_policy,
    ) {
        return code;
    }
    let resource_policy =
        warnings::WarningPolicy::new(args.disable_warnings, args.warnings_as_errors);
    let printed = report(args, &opts, &out, &policy, &resource_policy);
    report_jobserver(&opts, &policy);
    if let Err(code) = report_stats(args, input, &out) {
        return code;
    }
    if let Err(msg) = stats_json::write_file(args.compiler_stats_json.as_deref(), input, &out) {
        return fatal(&msg);
    }
    if printed.failed || policy.errored() {
        return if printed.aborted_line || policy.errored() {
            aborted()
        } else {
            ExitCode::from(EXIT_ERROR)
        };
    }
    if jobserver_policy.errored() || resource_policy.errored() {
        return ExitCode::from(EXIT_ERROR);
    }
    let code = match &out.cubin {
        Some(cubin) => write_output(&args.output, cubin),
        None => ExitCode::SUCCESS,
    };
    if code != ExitCode::SUCCESS {
        return code;
    }
    // As ptxas: the trace is written after the cubin, and only when the compile succeeded.
    match trace::write_trace(&args.trace, input, &out) {
        Ok(()) => code,
        Err(msg) => fatal(&msg),
    }
}

/// Prints the option warnings (after `-w` / `-Werror`) and errors in order; `Ok(true)` when an
/// error was printed (the run fails once the inputs are checked), `Err` at a fatal.
fn print_option_notes(
    notes: &[args::OptionNote],
    policy: &warnings::WarningPolicy,
) -> Result<bool, ExitCode> {
    let mut errors = false;
    for note in notes {
        match note {
            args::OptionNote::Warning(w) => policy.warning(w),
            args::OptionNote::Error(e) => {
                eprintln!("ptxas error   : {e}");
                errors = true;
            }
            args::OptionNote::Fatal(f) => return Err(fatal(f)),
        }
    }
    Ok(errors || policy.errored())
}

/// What `--jobserver` found in the environment.
enum JobserverLink {
    /// Not asked for, or asked for without a parallel compile.
    NotUsed,
    Connected(JobserverHandle),
    /// Asked for, but MAKEFLAGS names no jobserver.
    Missing,
    /// MAKEFLAGS names a jobserver that cannot be opened.
    Unusable,
}

/// As ptxas, the jobserver is looked at once code generation starts (not for parse-only targets
/// or inputs that fail to parse): an unusable one is fatal; none is a warning, which under
/// -Werror fails the run (`policy.errored()`) without the "aborted" line and without output.
fn check_jobserver(
    link: &JobserverLink,
    reached_codegen: bool,
    policy: &warnings::WarningPolicy,
) -> Result<(), ExitCode> {
    match link {
        JobserverLink::Unusable if reached_codegen => {
            Err(fatal(ptxforge_runtime::jobserver::JOBSERVER_ERROR_WARNING))
        }
        JobserverLink::Missing if reached_codegen => {
            policy.warning(ptxforge_runtime::jobserver::NO_JOBSERVER_WARNING);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `--jobserver`, as ptxas: only a parallel compile (`--split-compile` given and not 1) looks
/// for Make's jobserver.
fn connect_jobserver(args: &args::Args) -> JobserverLink {
    if !args.jobserver || args.split_compile == 1 {
        return JobserverLink::NotUsed;
    }
    match Jobserver::from_env() {
        Ok(Some(js)) => JobserverLink::Connected(JobserverHandle(Arc::new(js))),
        Ok(None) => JobserverLink::Missing,
        Err(_) => JobserverLink::Unusable,
    }
}

/// `--compiler-stats` on stderr, or appended to `--compiler-stats-file` as ptxas does.
fn report_stats(args: &args::Args, input: &str, out: &CompileOutput) -> Result<(), ExitCode> {
    let Some(req) = args.compiler_stats else {
        if args.compiler_stats_file.is_some() {
            eprintln!("ptxas warning : Option '--compiler-stats-file' requires option '--compiler-stats'; ignoring since latter is not specified");
        }
        return Ok(());
    };
    match &args.compiler_stats_file {
        None => eprint!("{}", stats::report(req, out, "ptxas info    : STAT: ")),
        Some(path) => {
            let text = format!("{input} >>\n\n{}", stats::report(req, out, ""));
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path);
            if file.and_then(|mut f| f.write_all(text.as_bytes())).is_err() {
                return Err(fatal(&format!("Output file '{path}' could not be opened")));
            }
        }
    }
    Ok(())
}

/// A jobserver error during the compile, and (with `PTXFORGE_JOBSERVER_STATS`) its counters.
fn report_jobserver(opts: &CompileOptions, policy: &warnings::WarningPolicy) {
    let Some(js) = &opts.jobserver else { return };
    if js.0.error().is_some() {
        policy.warning(ptxforge_runtime::jobserver::JOBSERVER_ERROR_WARNING);
    }
    if std::env::var_os("PTXFORGE_JOBSERVER_STATS").is_some() {
        let s = js.0.stats();
        eprintln!(
            "ptxforge jobserver: {} tokens acquired, max {} concurrent sections",
            s.tokens_acquired, s.max_concurrent
        );
    }
}

fn compile_options(args: &args::Args) -> CompileOptions {
    let (sm, parse_only) = args.target();
    CompileOptions {
        sm,
        parse_only,
        arch: Some(args.arch.clone()),
        split_compile: args.workers(),
        dynamic_scheduling: args.dynamic_scheduling,
        min_section_size: args.min_section_size,
        max_regs: args.max_regs,
        opt_level: args.opt_level,
        keep_sass_text: args.dump_sass,
        entries: args.entries.clone(),
        warn_double_precision: args.warn_double,
        cache_policy: args.ignored.cache_policy,
        launch_defaults: args
            .ignored
            .launch_defaults(args.max_regs_request.is_some()),
        errors_visible_at_exit: args.ignored.errors_visible_at_exit,
        line_info: args.ignored.line_tables(),
        compile_only: args.ignored.compile_only,
        ..CompileOptions::default()
    }
}

/// Diagnostics (after `-w` / `-Werror`), `-v` lines and `--dump-sass`, on stderr / stdout as ptxas does.
fn report(
    args: &args::Args,
    opts: &CompileOptions,
    out: &CompileOutput,
    policy: &warnings::WarningPolicy,
    resource_policy: &warnings::WarningPolicy,
) -> warnings::Printed {
    let printed = policy.print(&out.diagnostics);
    if !printed.failed && !opts.parse_only {
        resource_warnings::print(args, out, resource_policy);
    }
    if args.verbose > 0 && !printed.failed && !opts.parse_only {
        eprint!("{}", verbose::resource_lines(opts, out, args.verbose));
    }
    if args.dump_sass {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        for k in &out.kernels {
            if let Some(text) = &k.sass_text {
                let _ = writeln!(lock, "\t.text.{}:\n{}", k.name, text);
            }
        }
    }
    printed
}

/// Writes the cubin through a temporary file and a rename, so a failure never leaves a partial file.
fn write_output(path: &str, bytes: &[u8]) -> ExitCode {
    let target = Path::new(path);
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.ptxforge-{}.tmp",
        file_name(target),
        std::process::id()
    ));
    let written = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return fatal(&format!("Output file '{path}' could not be opened"));
    }
    ExitCode::SUCCESS
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into())
}

/// ptxas's last line after errors, and the error exit status.
fn aborted() -> ExitCode {
    eprintln!("ptxas fatal   : Ptx assembly aborted due to errors");
    ExitCode::from(EXIT_ERROR)
}

fn fatal(msg: &str) -> ExitCode {
    eprintln!("ptxas fatal   : {msg}");
    ExitCode::from(EXIT_ERROR)
}

/// `--version` in ptxas's five-line shape, naming ptxforge.
fn version_text() -> String {
    format!(
        "ptxforge: a parallel PTX optimizing assembler\n\
         Copyright (c) 2026 the ptxforge developers\n\
         Built from ptxforge {v}\n\
         Compatible with Cuda compilation tools, release 13.5, V13.5.37\n\
         Build ptxforge {v}\n",
        v = env!("CARGO_PKG_VERSION")
    )
}
