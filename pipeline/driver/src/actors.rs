//! Wires the per-kernel stages as actors on the runtime and collects outcomes in definition order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The runtime's record of one message in one stage (absolute instants, runtime worker index).
pub use ptxforge_runtime::StageTiming as MessageTiming;
use ptxforge_runtime::{Actor, Executor, ExecutorConfig, JobserverStats, Pipeline};

use crate::compile::KernelOutcome;
use crate::options::{CompileOptions, JobserverHandle};
use crate::report::StageTiming;
use crate::stages::{self, KernelError, KernelInFlight, StageResult};
use crate::timeline::{self, Traced};

type StageFn = fn(KernelInFlight) -> StageResult;

/// The stages in order, with their names.
const PIPELINE: [(&str, StageFn); 5] = [
    ("lower", stages::lower),
    ("optimize", stages::optimize),
    ("regalloc", stages::regalloc),
    ("schedule", stages::schedule),
    ("encode", stages::encode),
];

/// Runs every job through all stages as actors on the runtime; the result is in definition order
/// whatever the timing. `--split-compile` picks the worker count; `--threads-min-section-size`
/// batches consecutive small kernels into one message (a section), so each task has enough work.
/// Kernel timings are relative to `epoch`, the compile's start.
pub fn run_kernel_pipeline(
    exec: &Executor,
    jobs: Vec<KernelInFlight>,
    opts: &CompileOptions,
    epoch: Instant,
) -> (Vec<KernelOutcome>, RuntimeStats) {
    let names: Vec<(usize, String)> = jobs.iter().map(|k| (k.index, k.name.clone())).collect();
    let sections = cut_sections(jobs, opts.min_section_size);
    let mut pipeline =
        Pipeline::new(|_stage: &'static str, _msg: String| -> Section { Vec::new() });
    for (name, f) in PIPELINE {
        let actor = StageActor {
            name,
            f,
            jobserver: opts.jobserver.clone(),
            fault: opts.fault_injection.clone(),
        };
        pipeline = pipeline.actor(opts.mailbox_capacity, actor);
    }
    let section_count = sections.len();
    let (sections, positions) = largest_first(sections);
    let (envelopes, stage_stats) = pipeline.run(exec, sections);
    let mut results = Vec::with_capacity(names.len());
    for env in in_definition_order(envelopes, &positions) {
        for kernel in env.value {
            let timings = timeline::kernel_timings(&kernel.stamps, &env.timings, epoch);
            let wall = timeline::kernel_wall(&timings);
            results.push((kernel.result, timings, wall));
        }
    }
    let c = exec.counters();
    let stats = RuntimeStats {
        workers: exec.workers(),
        sections: section_count,
        tasks_run: c.tasks_run,
        steals: c.steals,
        parks: c.parks,
        mailbox_high_water: stage_stats
            .iter()
            .map(|s| (s.name, s.mailbox_high_water))
            .collect(),
        worker_busy: exec.busy_times(),
        jobserver: opts.jobserver.as_ref().map(|j| j.0.stats()),
    };
    let mut results = results.into_iter();
    let outcomes = names
        .into_iter()
        .map(|(index, name)| {
            let (r, timings, wall) = results
                .next()
                .unwrap_or_else(|| (Err(lost(&name)), Vec::new(), Duration::ZERO));
            finish(index, name, r, timings, wall)
        })
        .collect();
    (outcomes, stats)
}

/// The executor for one compile: `--split-compile` workers (0 = one per CPU, 1 = the caller).
pub fn executor_for(opts: &CompileOptions) -> Executor {
    let workers = match opts.split_compile {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    Executor::new(ExecutorConfig {
        workers,
        dynamic_scheduling: opts.dynamic_scheduling,
    })
}

/// Runs one message through a single actor on `exec` (the module-level parse and ELF stages).
pub fn run_on_actor<T: Send + 'static>(
    exec: &Executor,
    name: &'static str,
    input: T,
    recover: impl Fn(String) -> T + Send + Sync + 'static,
    handler: impl Fn(T) -> T + Send + Sync + 'static,
) -> T {
    run_on_actor_timed(exec, name, input, recover, handler).0
}

/// [`run_on_actor`], with the runtime's record of the run: when, for how long and on which
/// thread (see [`timeline::message_spans`]).
pub fn run_on_actor_timed<T: Send + 'static>(
    exec: &Executor,
    name: &'static str,
    input: T,
    recover: impl Fn(String) -> T + Send + Sync + 'static,
    handler: impl Fn(T) -> T + Send + Sync + 'static,
) -> (T, Vec<MessageTiming>) {
    let pipeline = Pipeline::new(move |_, msg| recover(msg)).stage(name, 1, handler);
    let (mut out, _) = pipeline.run(exec, vec![input]);
    let envelope = out.pop().expect("one message in, one out");
    (envelope.value, envelope.timings)
}

/// One compile stage as an actor: holds a jobserver token while it works on a section.
struct StageActor {
    name: &'static str,
    f: StageFn,
    jobserver: Option<JobserverHandle>,
    /// Test hook: `(kernel, stage)` that panics (see [`CompileOptions::fault_injection`]).
    fault: Option<(String, String)>,
}

impl Actor<Section> for StageActor {
    fn name(&self) -> &'static str {
        self.name
    }

    fn handle(&self, section: Section) -> Section {
        let _token = self.jobserver.as_ref().and_then(|j| j.0.acquire().ok());
        section
            .into_iter()
            .map(|k| k.step(self.name, |r| r.and_then(|k| self.run(k))))
            .collect()
    }
}

impl StageActor {
    fn run(&self, k: KernelInFlight) -> StageResult {
        let name = k.name.clone();
        let planted = self
            .fault
            .as_ref()
            .is_some_and(|(kernel, stage)| *kernel == name && stage == self.name);
        let f = self.f;
        let stage: StageFn = if planted {
            |_| panic!("fault injected for a test")
        } else {
            f
        };
        run_stage_caught(self.name, &name, stage, k)
    }
}

/// A batch of consecutive kernels that travels as one message, each with its stage stamps.
type Section = Vec<Traced>;

/// What the runtime did during one compile (for `--compiler-stats` and tests).
#[derive(Clone, Debug, Default)]
pub struct RuntimeStats {
    pub workers: usize,
    pub sections: usize,
    pub tasks_run: u64,
    pub steals: u64,
    pub parks: u64,
    pub mailbox_high_water: Vec<(&'static str, usize)>,
    /// Time each thread spent on tasks: `[0]` the calling thread, `[i + 1]` worker `i`;
    /// [`crate::compile_module`] takes it again after the ELF stage.
    pub worker_busy: Vec<Duration>,
    /// Tokens taken from Make's jobserver and the time spent waiting for them (`--jobserver`).
    pub jobserver: Option<JobserverStats>,
}

/// Groups consecutive kernels until each group holds at least `min` PTX instructions.
fn cut_sections(jobs: Vec<KernelInFlight>, min: usize) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut current: Section = Vec::new();
    let mut size = 0;
    for k in jobs {
        size += k.ptx_instructions();
        current.push(Traced::new(Ok(k)));
        if size >= min.max(1) {
            sections.push(std::mem::take(&mut current));
            size = 0;
        }
    }
    if !current.is_empty() {
        sections.push(current);
    }
    sections
}

/// The sections, largest (in PTX instructions) first, ties in definition order, with each one's
/// position in definition order. Dispatching the long kernels first keeps every worker busy to the
/// end (a long kernel taken last runs alone while the others idle); the ELF stage still writes
/// kernels in definition order, so the cubin does not change.
fn largest_first(sections: Vec<Section>) -> (Vec<Section>, Vec<usize>) {
    let size = |s: &Section| -> usize {
        s.iter()
            .map(|t| t.result.as_ref().map_or(0, |k| k.ptx_instructions()))
            .sum()
    };
    let mut sized: Vec<(usize, usize, Section)> = sections
        .into_iter()
        .enumerate()
        .map(|(pos, s)| (size(&s), pos, s))
        .collect();
    sized.sort_by_key(|&(size, pos, _)| (std::cmp::Reverse(size), pos));
    let positions = sized.iter().map(|&(_, pos, _)| pos).collect();
    (sized.into_iter().map(|(_, _, s)| s).collect(), positions)
}

/// Envelopes of sections dispatched as [`largest_first`] ordered them, back in definition order.
fn in_definition_order<T>(envelopes: Vec<T>, positions: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = (0..envelopes.len()).map(|_| None).collect();
    for (env, &pos) in envelopes.into_iter().zip(positions) {
        slots[pos] = Some(env);
    }
    slots.into_iter().flatten().collect()
}

fn lost(name: &str) -> KernelError {
    KernelError {
        kernel: name.to_string(),
        stage: "runtime",
        messages: vec![(0, "internal error: kernel lost by the runtime".into())],
    }
}

/// Runs one stage; a panic becomes an internal error naming the kernel and the stage.
fn run_stage_caught(stage: &'static str, name: &str, f: StageFn, k: KernelInFlight) -> StageResult {
    match catch_unwind(AssertUnwindSafe(|| f(k))) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            Err(KernelError {
                kernel: name.to_string(),
                stage,
                messages: vec![(0, format!("internal error: {what}"))],
            })
        }
    }
}

/// Turns the last stage's result into the kernel's outcome.
fn finish(
    index: usize,
    name: String,
    result: StageResult,
    timings: Vec<StageTiming>,
    wall: Duration,
) -> KernelOutcome {
    let mut o = KernelOutcome {
        index,
        name,
        regs: 0,
        barriers: 0,
        shared_bytes: 0,
        stack_frame: 0,
        spill_stores: 0,
        spill_loads: 0,
        register_note: None,
        sass_text: None,
        image: None,
        timings,
        wall,
        error: None,
    };
    match result {
        Ok(k) => {
            if let Some(l) = &k.lowered {
                o.regs = l.func.reg_usage.gprs;
                // `encode` counted them before freeing the instructions.
                o.barriers = k.barriers.max(
                    ptxforge_sass::warp::barriers_used(&l.func).max(u32::from(l.uses_barrier)),
                );
                o.shared_bytes = l.shared_bytes;
                o.stack_frame = l.func.frame.size();
                o.spill_stores = l.func.frame.spill_store_bytes;
                o.spill_loads = l.func.frame.spill_load_bytes;
            }
            o.register_note = crate::stages::register_note(&k);
            o.sass_text = k.sass_text;
            o.image = k.image;
        }
        Err(mut e) => {
            if e.kernel.is_empty() {
                e.kernel = o.name.clone();
            }
            o.error = Some(e);
        }
    }
    o
}

/// Messages of the parse actor: a section of the module in, its parse out (or the panic's text).
enum SectionMsg {
    Span(ptxforge_ptx::sections::SectionSpan),
    Parsed(ptxforge_ptx::sections::ParsedSection),
    Panicked(String),
}

/// Messages of the validation actor: chunks of the merged module's functions in, their findings
/// out; then the module with its syntax diagnostics and every function's findings in, the result out.
enum ValidateMsg {
    Chunk(
        std::sync::Arc<ptxforge_ptx::ast::Module>,
        std::ops::Range<usize>,
    ),
    Checked(Vec<ptxforge_ptx::validate::FunctionFindings>),
    Finish(
        ptxforge_ptx::ast::Module,
        Vec<ptxforge_ptx::Diagnostic>,
        Vec<ptxforge_ptx::validate::FunctionFindings>,
    ),
    Done(ParseResult),
    Panicked(String),
}

/// A parsed and validated module, or every diagnostic.
pub type ParseResult = Result<ptxforge_ptx::ast::Module, Vec<ptxforge_ptx::Diagnostic>>;

/// The parse stage: the module is cut at top-level function boundaries into sections of at
/// least `min_section_size` statements, the sections parse as messages of one actor on `exec`
/// (in parallel when it has workers), and the merged module is validated by a second actor.
/// The result, diagnostics and their order included, is a serial parse's.
pub fn parse_in_sections(
    exec: &Executor,
    src: &str,
    file_name: &str,
    min_section_size: usize,
) -> ParseResult {
    parse_in_sections_timed(exec, src, file_name, min_section_size, &mut Vec::new())
}

/// [`parse_in_sections`], adding the runtime's record of every section's parse and of the
/// validation to `runs` (for the trace: which thread ran them, and when).
pub fn parse_in_sections_timed(
    exec: &Executor,
    src: &str,
    file_name: &str,
    min_section_size: usize,
    runs: &mut Vec<MessageTiming>,
) -> ParseResult {
    use ptxforge_ptx::sections;
    let internal = |file: &str, what: String| {
        vec![ptxforge_ptx::Diagnostic::new(
            file,
            0,
            format!("internal error: {what} (stage parse)"),
            true,
        )]
    };
    let text: std::sync::Arc<str> = std::sync::Arc::from(src);
    let file: std::sync::Arc<str> = std::sync::Arc::from(file_name);
    let (text_for_validation, file_for_validation) =
        (std::sync::Arc::clone(&text), file_name.to_string());
    let spans: Vec<SectionMsg> = sections::split_sections(src, min_section_size)
        .into_iter()
        .map(SectionMsg::Span)
        .collect();
    let capacity = 2 * exec.workers().max(1);
    let parse = move |m: SectionMsg| match m {
        SectionMsg::Span(s) => SectionMsg::Parsed(sections::parse_section(&text, &s, &file)),
        done => done,
    };
    let pipeline =
        Pipeline::new(|_, msg| SectionMsg::Panicked(msg)).stage("parse", capacity, parse);
    let (envelopes, _) = pipeline.run(exec, spans);
    runs.extend(envelopes.iter().flat_map(|env| env.timings.iter().cloned()));
    let mut parts = Vec::with_capacity(envelopes.len());
    for env in envelopes {
        match env.value {
            SectionMsg::Parsed(p) => parts.push(p),
            SectionMsg::Panicked(what) => return Err(internal(file_name, what)),
            SectionMsg::Span(_) => {
                return Err(internal(file_name, "a section was not parsed".into()))
            }
        }
    }
    let (module, syntax) = sections::merge_sections(src, file_name, parts);
    let (module, findings) =
        check_functions_in_parallel(exec, &text_for_validation, module, min_section_size, runs)
            .map_err(|what| internal(file_name, what))?;
    let (text, file) = (text_for_validation, file_for_validation);
    let recover_file = file.clone();
    let finish = move |m: ValidateMsg| match m {
        ValidateMsg::Finish(module, syntax, findings) => ValidateMsg::Done(
            ptxforge_ptx::finish_module_with(&text, &file, module, syntax, |_| findings),
        ),
        done => done,
    };
    let recover = move |what: String| ValidateMsg::Done(Err(internal(&recover_file, what)));
    let (validated, validation) = run_on_actor_timed(
        exec,
        "validate",
        ValidateMsg::Finish(module, syntax, findings),
        recover,
        finish,
    );
    runs.extend(validation);
    match validated {
        ValidateMsg::Done(r) => r,
        _ => Err(internal(file_name, "the module was not validated".into())),
    }
}

/// Checks the module's functions in chunks of at least `min_section_size` statements, as
/// messages of the "validate" actor (in parallel when `exec` has workers); gives the module back
/// with every function's findings in order, or the text of a panic.
fn check_functions_in_parallel(
    exec: &Executor,
    text: &std::sync::Arc<str>,
    module: ptxforge_ptx::ast::Module,
    min_section_size: usize,
    runs: &mut Vec<MessageTiming>,
) -> Result<
    (
        ptxforge_ptx::ast::Module,
        Vec<ptxforge_ptx::validate::FunctionFindings>,
    ),
    String,
> {
    let module = std::sync::Arc::new(module);
    let chunks = function_chunks(&module.functions, min_section_size, exec.workers());
    let inputs = chunks
        .into_iter()
        .map(|r| ValidateMsg::Chunk(std::sync::Arc::clone(&module), r))
        .collect();
    let text = std::sync::Arc::clone(text);
    let check = move |m: ValidateMsg| match m {
        ValidateMsg::Chunk(module, range) => ValidateMsg::Checked(
            ptxforge_ptx::validate::check_functions(&text, &module, range),
        ),
        other => other,
    };
    let pipeline = Pipeline::new(|_, msg| ValidateMsg::Panicked(msg)).stage(
        "validate",
        2 * exec.workers().max(1),
        check,
    );
    let (envelopes, _) = pipeline.run(exec, inputs);
    let mut findings = Vec::with_capacity(module.functions.len());
    for env in envelopes {
        runs.extend(env.timings.iter().cloned());
        match env.value {
            ValidateMsg::Checked(f) => findings.extend(f),
            ValidateMsg::Panicked(what) => return Err(what),
            _ => return Err("a chunk of functions was not validated".into()),
        }
    }
    let module = std::sync::Arc::try_unwrap(module)
        .map_err(|_| "the module is still shared after validation".to_string())?;
    Ok((module, findings))
}

/// Consecutive ranges of `functions` of at least `min_statements` statements each (the last may
/// be smaller), about four per worker, so that workers share the work evenly.
fn function_chunks(
    functions: &[ptxforge_ptx::ast::Function],
    min_statements: usize,
    workers: usize,
) -> Vec<std::ops::Range<usize>> {
    let total: usize = functions.iter().map(|f| f.body.len()).sum();
    let target = (total / (4 * workers.max(1))).max(min_statements).max(1);
    let mut chunks = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, f) in functions.iter().enumerate() {
        size += f.body.len();
        if size >= target {
            chunks.push(start..i + 1);
            (start, size) = (i + 1, 0);
        }
    }
    if start < functions.len() || chunks.is_empty() {
        chunks.push(start..functions.len());
    }
    chunks
}
