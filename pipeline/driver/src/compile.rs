//! `compile_module`: parse, run every kernel through the stage actors, assemble the cubin in order.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ptxforge_cubin::CubinModule;
use ptxforge_ptx::ast;
use ptxforge_runtime::Executor;

use crate::options::CompileOptions;
use crate::report::{Diagnostic, StageTiming};
use crate::stages::{KernelError, KernelInFlight};

/// What one kernel came to.
#[derive(Clone, Debug)]
pub struct KernelOutcome {
    /// Position in the module (definition order).
    pub index: usize,
    pub name: String,
    /// Registers as `-v` reports them (0 when the kernel failed).
    pub regs: u32,
    pub barriers: u32,
    pub shared_bytes: u32,
    /// Stack frame bytes and bytes stored to / loaded from spill slots, as `-v` reports them.
    pub stack_frame: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    /// ptxas's `-v` note on which register limit applies (with `--maxrregcount`).
    pub register_note: Option<String>,
    /// Printed SASS when [`CompileOptions::keep_sass_text`] is set.
    pub sass_text: Option<String>,
    /// The encoded kernel, for the ELF stage (None when it failed).
    pub image: Option<ptxforge_cubin::KernelImage>,
    /// Per-stage timings of this kernel, in pipeline order, relative to the compile's start.
    pub timings: Vec<StageTiming>,
    /// Wall time from the kernel entering the first stage to leaving the last.
    pub wall: Duration,
    pub error: Option<KernelError>,
}

impl KernelOutcome {
    /// The kernel's own compile time: the sum of its stage spans, without the time it waited in
    /// mailboxes or behind other kernels of its section (what `-v` reports as "Compile time").
    pub fn compile_time(&self) -> Duration {
        self.timings.iter().map(|t| t.duration).sum()
    }
}

/// The result of a whole compile.
#[derive(Debug, Default)]
pub struct CompileOutput {
    /// The cubin, only when every kernel compiled and the target is a real architecture.
    pub cubin: Option<Vec<u8>>,
    /// Errors and warnings, in ptxas's format, in report order.
    pub diagnostics: Vec<Diagnostic>,
    /// One entry per kernel, in definition order.
    pub kernels: Vec<KernelOutcome>,
    /// Time spent parsing and in the ELF stage.
    pub parse_time: Duration,
    pub elf_time: Duration,
    pub total_time: Duration,
    /// Spans of the module-level stages (each parse section, validation, ELF), relative to the
    /// compile's start, each on the thread that ran it (as [`StageTiming::worker`]).
    pub module_spans: Vec<StageTiming>,
    /// `-v`'s module line ("N bytes gmem[, M bytes cmem[4]]"), from the module's variables.
    pub module_memory: String,
    /// Workers, sections, tasks, steals, parks and mailbox high-water marks of the kernel pipeline.
    pub runtime: crate::actors::RuntimeStats,
}

impl CompileOutput {
    /// Whether any error was reported.
    pub fn failed(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// One PTX input: its text and the name diagnostics give it.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub text: &'a str,
    pub name: &'a str,
}

/// Compiles one PTX module (`src`, named `file_name` in diagnostics).
pub fn compile_module(src: &str, file_name: &str, opts: &CompileOptions) -> CompileOutput {
    compile_sources(
        &[Source {
            text: src,
            name: file_name,
        }],
        opts,
    )
}

/// Compiles several PTX inputs into one cubin, as ptxas does: their functions in input order.
pub fn compile_sources(sources: &[Source], opts: &CompileOptions) -> CompileOutput {
    let start = Instant::now();
    let mut out = CompileOutput::default();
    let exec = crate::actors::executor_for(opts);
    let mut runs = Vec::new();
    let parsed = parse_sources(&exec, sources, opts.min_section_size, &mut runs);
    out.module_spans = crate::timeline::message_spans(&runs, start);
    let mut linking_warnings = Vec::new();
    let parsed = match parsed {
        Err((diags, target)) if opts.compile_only && !opts.parse_only => {
            match crate::relocatable::module_for_linking(sources, &diags) {
                Some((m, files, last_target, warnings)) => {
                    linking_warnings = warnings;
                    Ok((m, files, last_target))
                }
                None => Err((diags, target)),
            }
        }
        other => other,
    };
    let (module, files, last_target) = match parsed {
        Ok((m, files, last_target)) => (Arc::new(m), files, last_target),
        Err((diags, last_target)) => {
            out.diagnostics = target_before_link_fatals(diags, &last_target, opts);
            out.parse_time = start.elapsed();
            out.total_time = out.parse_time;
            return out;
        }
    };
    out.parse_time = start.elapsed();
    out.diagnostics = module.warnings.iter().map(front_end_diagnostic).collect();
    out.diagnostics.append(&mut linking_warnings);
    out.diagnostics
        .extend(module_warnings(&module, &files, opts));
    if let Some(fatal) = opts
        .arch
        .as_deref()
        .and_then(|arch| target_against_arch(&last_target, arch))
    {
        out.diagnostics.push(Diagnostic::fatal(fatal));
        out.total_time = start.elapsed();
        return out;
    }
    if !opts.parse_only {
        out.diagnostics
            .extend(sources.iter().flat_map(|s| debug_section_notes(s.text)));
        out.diagnostics
            .extend(unresolved_function_names(&module, sources));
    }
    if let Some(fatal) = unknown_entry(&module, opts).filter(|_| !opts.parse_only) {
        out.diagnostics.push(fatal);
    }
    if module.address_size == 32 && !opts.parse_only {
        out.diagnostics.extend(address_size_32());
    }
    if opts.parse_only || out.failed() {
        out.total_time = start.elapsed();
        return out;
    }
    out.module_memory = ptxforge_cubin::module_memory_line(
        opts.sm,
        &module_globals(&module, sources),
        ptxforge_lower::extern_functions(&module).len(),
    );
    let opts = Arc::new(opts.clone());
    let jobs = kernel_jobs(&module, &opts);
    let job_files: Vec<String> = jobs.iter().map(|j| files[j.func_index].clone()).collect();
    let (kernels, runtime) =
        run_stages(&exec, jobs, &opts, &job_files, start, &mut out.diagnostics);
    out.kernels = kernels;
    out.runtime = runtime;
    let elf_start = Instant::now();
    if !out.failed() {
        let (cubin, elf_runs) = assemble(
            &exec,
            &module,
            sources,
            &opts,
            &out.kernels,
            &mut out.diagnostics,
        );
        out.cubin = cubin;
        out.module_spans
            .extend(crate::timeline::message_spans(&elf_runs, start));
    }
    out.elf_time = elf_start.elapsed();
    out.total_time = start.elapsed();
    out.runtime.worker_busy = exec.busy_times();
    out
}

/// One job per `.entry` in definition order.
fn kernel_jobs(module: &Arc<ast::Module>, opts: &Arc<CompileOptions>) -> Vec<KernelInFlight> {
    module
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| crate::relocatable::compiled_here(f, opts))
        .enumerate()
        .map(|(index, (func_index, f))| KernelInFlight {
            index,
            func_index,
            name: f.name.clone(),
            module: Arc::clone(module),
            opts: Arc::clone(opts),
            lowered: None,
            code: Vec::new(),
            sass_text: None,
            image: None,
            barriers: 0,
            unoptimized: None,
        })
        .collect()
}

/// Runs every kernel through the stages on the runtime and returns outcomes in definition order.
fn run_stages(
    exec: &Executor,
    jobs: Vec<KernelInFlight>,
    opts: &CompileOptions,
    files: &[String],
    epoch: Instant,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<KernelOutcome>, crate::actors::RuntimeStats) {
    let (results, stats) = crate::actors::run_kernel_pipeline(exec, jobs, opts, epoch);
    for r in &results {
        if let Some(err) = &r.error {
            diags.extend(Diagnostic::from_kernel_error(err, &files[r.index]));
        }
    }
    (results, stats)
}

/// Messages of the ELF actor: the ordered kernels in, the cubin bytes out.
enum ElfMsg {
    Module(CubinModule),
    Done(Result<Vec<u8>, String>),
}

/// The module's `.global` variables for the cubin, `.visible` (or `.weak`, `.common`) ones with
/// GLOBAL symbols: the linkage words before the state space, read from the source that declares
/// the variable where its name stands.
fn module_globals(module: &ast::Module, sources: &[Source]) -> Vec<ptxforge_cubin::GlobalVar> {
    let decls = ptxforge_lower::global_variable_decls(module);
    ptxforge_lower::module_globals(module)
        .into_iter()
        .zip(decls)
        .map(|(g, v)| ptxforge_cubin::GlobalVar {
            visible: declared_visible(v, sources, ".global"),
            name: g.name,
            size: g.size,
            align: g.align,
            init: g.init,
        })
        .collect()
}

/// The module's `.const` variables for the cubin (`.visible` ones with GLOBAL symbols, read as
/// [`module_globals`] reads them).
fn module_consts(module: &ast::Module, sources: &[Source]) -> Vec<ptxforge_cubin::GlobalVar> {
    let decls = ptxforge_lower::const_variable_decls(module);
    ptxforge_lower::module_consts(module)
        .into_iter()
        .zip(decls)
        .map(|(g, v)| ptxforge_cubin::GlobalVar {
            visible: declared_visible(v, sources, ".const"),
            name: g.name,
            size: g.size,
            align: g.align,
            init: g.init,
        })
        .collect()
}

/// Whether `v` is declared `.visible` (or `.weak`, `.common`): the linkage words before its
/// state space `space`, read from the source that declares it where its name stands.
fn declared_visible(v: &ast::VarDecl, sources: &[Source], space: &str) -> bool {
    sources.iter().any(|s| {
        let named = s
            .text
            .get(v.name_at as usize..)
            .is_some_and(|t| t.starts_with(v.name.as_str()));
        let head = s.text.get(v.span.start as usize..v.name_at as usize);
        named
            && head.is_some_and(|h| {
                h.split_whitespace()
                    .take_while(|w| *w != space)
                    .any(|w| matches!(w, ".visible" | ".weak" | ".common"))
            })
    })
}

/// The ELF stage, run as an actor: kernels in definition order into one cubin, with the
/// runtime's record of the run.
fn assemble(
    exec: &Executor,
    module: &ast::Module,
    sources: &[Source],
    opts: &CompileOptions,
    kernels: &[KernelOutcome],
    diags: &mut Vec<Diagnostic>,
) -> (Option<Vec<u8>>, Vec<crate::actors::MessageTiming>) {
    let images = kernels.iter().filter_map(|k| k.image.clone()).collect();
    let cubin = CubinModule {
        sm: opts.sm,
        virtual_sm: module
            .target
            .trim_start_matches("sm_")
            .trim_end_matches(['a', 'f'])
            .parse()
            .unwrap_or(opts.sm.num),
        ptx_version: module.version,
        address_size: module.address_size,
        kernels: images,
        globals: module_globals(module, sources),
        consts: module_consts(module, sources),
        extern_funcs: ptxforge_lower::extern_functions(module),
    };
    let lines = match (opts.line_info && !opts.compile_only, sources) {
        (true, [source]) => crate::lineinfo::line_tables(module, source.text, &cubin.kernels),
        _ => None,
    };
    let compile_only = opts.compile_only;
    let handler = move |m: ElfMsg| match m {
        ElfMsg::Module(c) => ElfMsg::Done(
            match compile_only {
                true => ptxforge_cubin::write_relocatable(&c),
                false => ptxforge_cubin::write_cubin_with_lines(&c, lines.as_ref()),
            }
            .map_err(|e| e.to_string()),
        ),
        done => done,
    };
    let (done, runs) = crate::actors::run_on_actor_timed(
        exec,
        "elf",
        ElfMsg::Module(cubin),
        |msg| ElfMsg::Done(Err(msg)),
        handler,
    );
    let result = match done {
        ElfMsg::Done(r) => r,
        ElfMsg::Module(_) => Err("the ELF actor returned no result".into()),
    };
    match result {
        Ok(bytes) => (Some(bytes), runs),
        Err(e) => {
            diags.push(Diagnostic::fatal(format!(
                "internal error: cubin writer: {e} (stage elf)"
            )));
            (None, runs)
        }
    }
}

/// A module whose only errors are the link stage's (fatals without a place: an unresolved
/// extern, a function's address in arithmetic) is checked against `-arch` first, as ptxas does:
/// its `.target` fatal, after the warnings, replaces them.
fn target_before_link_fatals(
    diags: Vec<Diagnostic>,
    last_target: &str,
    opts: &CompileOptions,
) -> Vec<Diagnostic> {
    match opts
        .arch
        .as_deref()
        .and_then(|arch| target_against_arch(last_target, arch))
    {
        Some(fatal) if only_link_stage_errors(&diags) => diags
            .into_iter()
            .filter(|d| !d.is_error())
            .chain([Diagnostic::fatal(fatal)])
            .collect(),
        _ => diags,
    }
}

/// Whether every error among `diags` is a link-stage fatal (one without a place).
fn only_link_stage_errors(diags: &[Diagnostic]) -> bool {
    diags
        .iter()
        .filter(|d| d.is_error())
        .all(|d| d.severity == crate::report::Severity::Fatal && d.location.is_none())
}

/// Parses every source and joins them into one module (the first one's header, then every
/// module's globals and functions in order), with the source name of each function.
/// Diagnostics of all sources are reported together, as are functions defined in two sources.
/// The runtime's record of each parse actor run is added to `runs`. Also returns the last
/// source's `.target`, the one ptxas checks against `-arch` (with the diagnostics too, when a
/// source failed only at the link stage, whose `.target` is then read from its syntax).
fn parse_sources(
    exec: &Executor,
    sources: &[Source],
    min_section_size: usize,
    runs: &mut Vec<crate::actors::MessageTiming>,
) -> Result<(ast::Module, Vec<String>, String), (Vec<Diagnostic>, String)> {
    let mut diags = Vec::new();
    let mut joined: Option<ast::Module> = None;
    let mut files = Vec::new();
    let mut last_target = String::new();
    for src in sources {
        match crate::actors::parse_in_sections_timed(
            exec,
            src.text,
            src.name,
            min_section_size,
            runs,
        ) {
            Ok(m) => {
                last_target.clone_from(&m.target);
                if let Some(j) = &joined {
                    diags.extend(defined_again(j, &m, src));
                }
                files.extend(std::iter::repeat_n(src.name.to_string(), m.functions.len()));
                match &mut joined {
                    None => joined = Some(m),
                    Some(j) => {
                        j.globals.extend(m.globals);
                        j.functions.extend(m.functions);
                        j.locs.extend(m.locs);
                        j.section_labels.extend(m.section_labels);
                        j.warnings.extend(m.warnings);
                    }
                }
            }
            Err(d) => {
                let d: Vec<Diagnostic> = d.iter().map(front_end_diagnostic).collect();
                if only_link_stage_errors(&d) {
                    last_target = ptxforge_ptx::parse_syntax(src.text, src.name).0.target;
                }
                diags.extend(d);
            }
        }
    }
    let module = joined.unwrap_or_default();
    if diags.is_empty() {
        Ok((module, files, last_target))
    } else {
        Err((diags, last_target))
    }
}

/// ptxas's fatal (without a place) when the module's `.target` (the last one named) cannot be
/// compiled for `-arch`: a higher SM than the architecture's; an `sm_XXa` target for anything
/// but its own `a` architecture; an `sm_XXf` target for another family (the same tens).
fn target_against_arch(target: &str, arch: &str) -> Option<String> {
    let (t, t_suffix) = arch_number(target)?;
    let (a, a_suffix) = arch_number(arch)?;
    if t > a {
        return Some(
            "SM version specified by .target is higher than default SM version assumed".into(),
        );
    }
    match t_suffix {
        Some('a') if a > t => Some(format!("Program with .target '{target}' cannot be compiled to future architecture")),
        Some('a') if a_suffix != Some('a') => Some(format!("PTX with .target '{target}' cannot be compiled for architecture '{arch}'")),
        Some('f') if a / 10 != t / 10 => Some(format!("Program with .target '{target}' cannot be compiled to different SM-family architecture")),
        _ => None,
    }
}

/// ptxas's warnings and notes, without a place, on the debug sections of a `.target debug` module.
fn debug_section_notes(text: &str) -> Vec<Diagnostic> {
    let severity = |note: bool| {
        if note {
            crate::report::Severity::Info
        } else {
            crate::report::Severity::Warning
        }
    };
    ptxforge_ptx::check_module::debug_section_notes(text)
        .into_iter()
        .map(|(note, message)| Diagnostic {
            severity: severity(note),
            location: None,
            message: message.into(),
        })
        .collect()
}

/// ptxas's errors, generating the debug information of a `.target debug` module, for labels that
/// `.loc` directives name as `function_name` and no `.section` declares.
fn unresolved_function_names(module: &ast::Module, sources: &[Source]) -> Vec<Diagnostic> {
    if !sources
        .iter()
        .any(|s| ptxforge_ptx::check_module::targets_debug(s.text))
    {
        return Vec::new();
    }
    let errors = ptxforge_ptx::check_module::unresolved_function_names(module);
    errors
        .into_iter()
        .map(|message| Diagnostic {
            severity: crate::report::Severity::LateError,
            location: None,
            message,
        })
        .collect()
}

/// `sm_90a` / `compute_90a` as (90, Some('a')); `None` for anything else.
fn arch_number(name: &str) -> Option<(u32, Option<char>)> {
    let rest = name
        .strip_prefix("sm_")
        .or_else(|| name.strip_prefix("compute_"))?;
    let suffix = rest.chars().last().filter(|c| matches!(c, 'a' | 'f'));
    let digits = rest.trim_end_matches(['a', 'f']);
    Some((digits.parse().ok()?, suffix))
}

/// ptxas's error for each function of `next` (from `file`) that an earlier source already defines
/// (a function defined twice in one source is the front end's error).
fn defined_again(earlier: &ast::Module, next: &ast::Module, src: &Source) -> Vec<Diagnostic> {
    let defined: std::collections::HashSet<&str> = earlier
        .functions
        .iter()
        .filter(|f| f.has_body)
        .map(|f| f.name.as_str())
        .collect();
    next.functions
        .iter()
        .filter(|f| f.has_body && defined.contains(f.name.as_str()))
        .map(|f| {
            // Internal `.func`s are private to their input for ptxas; one module cannot hold both.
            let message = if f.is_entry || f.visible {
                format!("Duplicate definition of function '{}'", f.name)
            } else {
                format!(
                    "ptxforge cannot yet join inputs that each define the internal function '{}'",
                    f.name
                )
            };
            let location = Some((src.name.to_string(), header_end_line(src.text, f)));
            Diagnostic {
                severity: crate::report::Severity::Error,
                location,
                message,
            }
        })
        .collect()
}

/// Where ptxas reports a function defined twice: for an entry, the line of the `)` that closes its
/// parameter list; for a `.func`, the line of the token after it (its parser looks one further).
/// The function's own line when the text does not show them.
fn header_end_line(text: &str, f: &ast::Function) -> u32 {
    let start = (f.span.start as usize).min(text.len());
    let header = &text[start..];
    let is_word_end =
        |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
    let name_at = header
        .match_indices(f.name.as_str())
        .map(|(i, _)| i)
        .find(|&i| {
            is_word_end(header[..i].chars().next_back())
                && is_word_end(header[i + f.name.len()..].chars().next())
        });
    let Some(after_name) = name_at.map(|i| &header[i + f.name.len()..]) else {
        return f.line;
    };
    let rest = after_name.trim_start();
    if !rest.starts_with('(') {
        return f.line;
    }
    let close = rest.find(')').map_or(0, |i| i);
    let after = &rest[close + 1..];
    let next_token = close + 1 + (after.len() - after.trim_start().len());
    let offset = text.len() - rest.len() + if f.is_entry { close } else { next_token };
    1 + text[..offset.min(text.len())].matches('\n').count() as u32
}

/// A front-end diagnostic; line 0 is one ptxas prints without a place (`ptxas warning : ...`).
fn front_end_diagnostic(d: &ptxforge_ptx::Diagnostic) -> Diagnostic {
    let mut out = Diagnostic::from_ptx(d);
    if d.line == 0 {
        out.location = None;
    }
    out
}

/// `--warn-on-double-precision-use`: ptxas's warning at every instruction with an `.f64` type
/// (twice for a conversion, as ptxas checks its source and its destination).
fn module_warnings(
    module: &ast::Module,
    files: &[String],
    opts: &CompileOptions,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    if !opts.warn_double_precision {
        return diags;
    }
    for (i, f) in module.functions.iter().enumerate() {
        for stmt in &f.body {
            let ast::Statement::Instr(instr) = stmt else {
                continue;
            };
            if !instr.types().contains(&ast::Type::F64) {
                continue;
            }
            let times = if instr.opcode() == "cvt" { 2 } else { 1 };
            diags.extend(
                std::iter::repeat_with(|| Diagnostic {
                    severity: crate::report::Severity::Warning,
                    location: Some((files[i].clone(), instr.line)),
                    message: "Program is doing double precision computations.".into(),
                })
                .take(times),
            );
        }
    }
    diags
}

/// `.address_size 32`: ptxas 13.5's warning (the host is 64-bit) and fatal, word for word.
fn address_size_32() -> [Diagnostic; 2] {
    let warning =
        " 64 Bit host architecture (--machine) being used mismatches with .address_size of 32 bits";
    [
        Diagnostic {
            severity: crate::report::Severity::Warning,
            location: None,
            message: warning.into(),
        },
        Diagnostic::fatal(" 32-Bit compilation is no longer supported".into()),
    ]
}

/// `--entry NAME` naming no entry function of the module: ptxas's error for a `.func`, its
/// fatal for a name the module does not define.
fn unknown_entry(module: &ast::Module, opts: &CompileOptions) -> Option<Diagnostic> {
    let missing = opts
        .entries
        .iter()
        .find(|e| !module.functions.iter().any(|f| f.is_entry && &f.name == *e))?;
    if module.functions.iter().any(|f| &f.name == missing) {
        let message = format!("Entry function '{missing}' not found");
        return Some(Diagnostic {
            severity: crate::report::Severity::Error,
            location: None,
            message,
        });
    }
    Some(Diagnostic::fatal(format!("Unknown function {missing}")))
}
