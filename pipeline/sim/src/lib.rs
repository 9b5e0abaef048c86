//! Differential check: runs one kernel on the PTX interpreter and on the SASS emulator (our cubin,
//! and ptxas's when given) with the same random inputs, and reports the first disagreement.
//!
//! The interpreter is the reference: it reads the PTX, not any compiler's output. The emulator earns
//! trust by agreeing with it on ptxas's cubins; then agreement on ours says our code computes what
//! the PTX says and respects the hazards the emulator checks.
//!
//! ## What lives where
//!
//! the differential check: `setup.rs` (seeded buffers for pointer parameters, scalars, ptxas's
//! parameter layout), `params.rs` (which parameter words are pointers, read from how the PTX uses
//! them, also inside struct parameters), `ours.rs` (compiles a module's entries with ptxforge,
//! leaving out per kernel those it cannot compile), `lib.rs` (`differential_check`: interpreter,
//! then the emulator on ptxas's cubin and on ours; `check_parsed` for many kernels of one module),
//! `compare.rs` (first differing word, ulp budget). Tests: every filetest kernel on every
//! architecture; the CCCL corpus kernels three ways (interpreter, ptxas's cubin, ours) with a
//! histogram of why the others were not compared.

pub mod compare;
pub mod nan_payload;
pub mod ours;
pub mod params;
pub mod random;
pub mod rng;
pub mod setup;

pub use compare::{first_mismatch, DeviceBuffer, Mismatch};
pub use ours::{compile_entries, OurCubins};

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_ptx::ast::Module;
use ptxforge_sass::arch::Sm;

/// What to run, and on what.
#[derive(Clone, Debug)]
pub struct SimRequest {
    pub ptx: String,
    pub file_name: String,
    pub entry: String,
    pub sm: u32,
    /// The architecture-specific target (`sm_90a`): compiled with its instructions (wgmma,
    /// setmaxnreg), run as its base `sm`.
    pub accel: bool,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Values of the non-pointer parameters, in order: integers (decimal, `0x` hex, negative) or
    /// floats (`1.5`, `-2e3`: stored as f32 or f64 by the parameter's size).
    pub scalar_args: Vec<String>,
    /// Size of the random buffer each pointer parameter gets.
    pub buffer_bytes: usize,
    /// What the buffers are filled with.
    pub fill: Fill,
    pub seed: u64,
    /// ptxas's cubin for the same PTX, to run beside ours.
    pub reference_cubin: Option<Vec<u8>>,
    /// f32 ulps allowed where the kernel uses approximate instructions (0: bit-exact everywhere).
    pub ulps: u32,
    /// Parameters beyond `scalar_args` get a small random value (structs: zeros) instead of an error.
    pub auto_scalars: bool,
    /// Structs passed by value get bytes filled as `fill` says (then their pointer fields)
    /// instead of zeros, so that what a kernel reads from them is checked.
    pub seed_structs: bool,
    /// Instructions each interpreter thread may run before the run stops (a kernel spinning on a
    /// flag no one sets, or looping over a huge count, stops here).
    pub max_steps_per_thread: u64,
    /// Bytes of dynamic (`.extern .shared`) shared memory per CTA (Triton's kernels keep their
    /// reduction scratch there).
    pub dynamic_shared_bytes: u32,
}

impl Default for SimRequest {
    fn default() -> SimRequest {
        SimRequest {
            ptx: String::new(),
            file_name: String::new(),
            entry: String::new(),
            sm: 80,
            accel: false,
            grid: [1, 1, 1],
            block: [32, 1, 1],
            scalar_args: Vec::new(),
            buffer_bytes: 4096,
            fill: Fill::Random,
            seed: 1,
            reference_cubin: None,
            ulps: 0,
            auto_scalars: false,
            seed_structs: false,
            max_steps_per_thread: ptxforge_interp::Limits::default().max_steps_per_thread,
            dynamic_shared_bytes: 0,
        }
    }
}

/// How pointer parameters' buffers are filled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Fill {
    /// Random bits (every value, NaNs and huge integers included).
    #[default]
    Random,
    /// Every 64-bit word a random value below 64: indices and counts that stay in bounds.
    Small,
}

impl std::str::FromStr for Fill {
    type Err = String;
    /// `random` or `small`, as `--fill` takes them.
    fn from_str(v: &str) -> Result<Fill, String> {
        match v {
            "random" => Ok(Fill::Random),
            "small" => Ok(Fill::Small),
            _ => Err(format!("'{v}': expected random or small")),
        }
    }
}

/// A grid or block size as `--grid`/`--block` take it: `X[,Y,Z]`, each at least 1.
pub fn parse_dims(v: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = v.split(',').collect();
    if parts.len() > 3 {
        return Err(format!("'{v}': expected X[,Y,Z]"));
    }
    let mut d = [1u32; 3];
    for (slot, p) in d.iter_mut().zip(&parts) {
        *slot = p
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or(format!("'{v}': expected X[,Y,Z] of positive numbers"))?;
    }
    Ok(d)
}

/// The outcome of a differential run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every runner left the same buffers.
    Agree,
    /// `runner`'s buffers differ from the interpreter's.
    Differ { runner: String, mismatch: Mismatch },
    /// `runner` stopped with an error (hazard, out-of-bounds access, step limit, ...).
    Failed { runner: String, error: String },
    /// `runner` met an instruction it does not implement: nothing was compared.
    Unsupported { runner: String, error: String },
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Agree => write!(f, "agree"),
            Verdict::Differ { runner, mismatch } => write!(f, "differ: {runner}: {mismatch}"),
            Verdict::Failed { runner, error } => write!(f, "error: {runner}: {error}"),
            Verdict::Unsupported { runner, error } => write!(f, "unsupported: {runner}: {error}"),
        }
    }
}

/// Runs the differential check: the interpreter, then the emulator on ptxas's cubin (when given)
/// and on ours. `Err` is a setup problem (the PTX does not parse, our compile fails, a scalar
/// argument is missing) rather than a disagreement.
pub fn differential_check(req: &SimRequest) -> Result<Verdict, String> {
    let ours = compile_ours(req)?;
    let mut cubins: Vec<(&str, &[u8])> = vec![("ptxforge cubin", &ours)];
    if let Some(cubin) = &req.reference_cubin {
        cubins.insert(0, ("ptxas cubin", cubin));
    }
    check_cubins(req, &cubins)
}

/// Parses `req.ptx`, then runs [`check_parsed`].
pub fn check_cubins(req: &SimRequest, cubins: &[(&str, &[u8])]) -> Result<Verdict, String> {
    let module = ptxforge_ptx::parse_module(&req.ptx, &req.file_name).map_err(|diags| {
        diags
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    check_parsed(&module, req, cubins)
}

/// Runs the interpreter on `module` and then the emulator on each named cubin; the first runner
/// that fails or leaves different buffers decides the verdict (`req.ptx` is not read).
pub fn check_parsed(
    module: &Module,
    req: &SimRequest,
    cubins: &[(&str, &[u8])],
) -> Result<Verdict, String> {
    Ok(match check_each(module, req, cubins)? {
        Runs::InterpreterStopped(stop) => stop,
        Runs::Compared(verdicts) => verdicts
            .into_iter()
            .map(|(_, v)| v)
            .find(|v| *v != Verdict::Agree)
            .unwrap_or(Verdict::Agree),
    })
}

/// What each runner of a differential check came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runs {
    /// The interpreter stopped (its verdict says why): there was nothing to compare against.
    InterpreterStopped(Verdict),
    /// Each cubin's verdict against the interpreter's buffers, in the order given.
    Compared(Vec<(String, Verdict)>),
}

/// Runs the interpreter on `module`, then the emulator on every named cubin, each compared with
/// the interpreter on its own (one runner stopping does not keep the others from running).
pub fn check_each(
    module: &Module,
    req: &SimRequest,
    cubins: &[(&str, &[u8])],
) -> Result<Runs, String> {
    let inputs = setup::build_inputs(module, req)?;
    let reference = match run_interpreter(module, req, &inputs) {
        Ok(buffers) => buffers,
        Err(stop) => return Ok(Runs::InterpreterStopped(stop.verdict("interpreter"))),
    };
    let verdicts = cubins
        .iter()
        .map(|(runner, cubin)| {
            let verdict = match run_emulator(cubin, req, &inputs) {
                Err(stop) => stop.verdict(runner),
                Ok(buffers) => compare_runner(module, req, &inputs, runner, &reference, &buffers),
            };
            (runner.to_string(), verdict)
        })
        .collect();
    Ok(Runs::Compared(verdicts))
}

/// Parses `req.ptx` (the diagnostics joined into one message when it does not parse).
pub fn parse_request(req: &SimRequest) -> Result<Module, String> {
    ptxforge_ptx::parse_module(&req.ptx, &req.file_name).map_err(|diags| {
        diags
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The interpreter's buffers after running `req` on `inputs`, or the verdict that stopped it:
/// the reference every other runner (the emulator, a GPU) is compared with.
pub fn reference_buffers(
    module: &Module,
    req: &SimRequest,
    inputs: &setup::Inputs,
) -> Result<Vec<DeviceBuffer>, Verdict> {
    run_interpreter(module, req, inputs).map_err(|stop| stop.verdict("interpreter"))
}

/// The emulator's buffers after running `cubin` on `inputs` (at whatever addresses they hold), or
/// the verdict that stopped it, named `runner`.
pub fn emulated_buffers(
    cubin: &[u8],
    req: &SimRequest,
    inputs: &setup::Inputs,
    runner: &str,
) -> Result<Vec<DeviceBuffer>, Verdict> {
    run_emulator(cubin, req, inputs).map_err(|stop| stop.verdict(runner))
}

/// `runner`'s buffers against the interpreter's, with the `req.ulps` budget: `Agree`, or the first
/// difference and the interpreter thread that wrote that word.
pub fn compare_runner(
    module: &Module,
    req: &SimRequest,
    inputs: &setup::Inputs,
    runner: &str,
    reference: &[DeviceBuffer],
    buffers: &[DeviceBuffer],
) -> Verdict {
    match first_mismatch(reference, buffers, req.ulps) {
        Some(mut mismatch) => {
            mismatch.writer = last_writer(module, req, inputs, &mismatch);
            Verdict::Differ {
                runner: runner.to_string(),
                mismatch,
            }
        }
        None => Verdict::Agree,
    }
}

/// Compiles `req.entry` of the PTX with ptxforge for `req.sm` (the module's other entries are
/// left out, so that one ptxforge cannot compile yet does not stop the check).
pub fn compile_ours(req: &SimRequest) -> Result<Vec<u8>, String> {
    let out = compile_module(&req.ptx, &req.file_name, &entry_options(req));
    out.cubin.ok_or_else(|| {
        let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        format!(
            "ptxforge could not compile {}: {}",
            req.file_name,
            msgs.join("; ")
        )
    })
}

/// [`compile_ours`]'s compile with each kernel's printed SASS kept (for the nvdisasm check).
pub fn compile_with_text(req: &SimRequest) -> ptxforge_pipeline::CompileOutput {
    let opts = CompileOptions {
        keep_sass_text: true,
        ..entry_options(req)
    };
    compile_module(&req.ptx, &req.file_name, &opts)
}

fn entry_options(req: &SimRequest) -> CompileOptions {
    CompileOptions {
        sm: match req.accel {
            true => Sm::accelerated(req.sm),
            false => Sm::new(req.sm),
        },
        entries: vec![req.entry.clone()],
        ..CompileOptions::default()
    }
}

/// Why a runner stopped before its buffers could be compared.
struct Stop {
    unsupported: bool,
    error: String,
}

impl Stop {
    fn verdict(self, runner: &str) -> Verdict {
        let runner = runner.to_string();
        match self.unsupported {
            true => Verdict::Unsupported {
                runner,
                error: self.error,
            },
            false => Verdict::Failed {
                runner,
                error: self.error,
            },
        }
    }
}

fn run_interpreter(
    module: &Module,
    req: &SimRequest,
    inputs: &setup::Inputs,
) -> Result<Vec<DeviceBuffer>, Stop> {
    let limits = ptxforge_interp::Limits {
        max_steps_per_thread: req.max_steps_per_thread,
        dynamic_shared_bytes: req.dynamic_shared_bytes as u64,
        ..Default::default()
    };
    let (buffers, _) = interpret(module, req, inputs, limits)?;
    Ok(buffers)
}

/// The thread whose store the interpreter last made to the mismatching word (a second run that
/// watches its address).
fn last_writer(
    module: &Module,
    req: &SimRequest,
    inputs: &setup::Inputs,
    m: &Mismatch,
) -> Option<String> {
    let buffer = inputs.buffers.iter().find(|b| b.param == m.param)?;
    let limits = ptxforge_interp::Limits {
        watch_global: Some(buffer.addr + m.offset as u64),
        max_steps_per_thread: req.max_steps_per_thread,
        dynamic_shared_bytes: req.dynamic_shared_bytes as u64,
        ..Default::default()
    };
    let (_, stats) = interpret(module, req, inputs, limits).ok()?;
    stats.last_writer.map(|t| t.to_string())
}

fn interpret(
    module: &Module,
    req: &SimRequest,
    inputs: &setup::Inputs,
    limits: ptxforge_interp::Limits,
) -> Result<(Vec<DeviceBuffer>, ptxforge_interp::RunStats), Stop> {
    use ptxforge_interp as interp;
    let mut buffers: Vec<interp::Buffer> = inputs
        .buffers
        .iter()
        .map(|b| interp::Buffer {
            addr: b.addr,
            bytes: b.bytes.clone(),
        })
        .collect();
    let launch = interp::Launch {
        grid: req.grid,
        block: req.block,
    };
    let stats = interp::run_kernel(
        module,
        &req.entry,
        &launch,
        &inputs.params,
        &mut buffers,
        &limits,
    )
    .map_err(|e| Stop {
        unsupported: matches!(e, interp::SimError::Unsupported { .. }),
        error: e.to_string(),
    })?;
    let mut out = inputs.with_contents(buffers.into_iter().map(|b| b.bytes));
    out.extend(stats.syscalls.clone().map(syscall_buffer));
    Ok((out, stats))
}

/// The records of the calls of `vprintf` and `__assertfail` a runner made, compared as one more
/// buffer (`ptxforge_device::syscall::records_buffer`).
fn syscall_buffer(bytes: Vec<u8>) -> DeviceBuffer {
    DeviceBuffer {
        param: "(printf and assert records)".into(),
        addr: 0,
        bytes,
    }
}

/// [`emulated_buffers`], also giving the emulator's statistics (executed instructions, modelled
/// cycles) of the run.
pub fn emulated_run(
    cubin: &[u8],
    req: &SimRequest,
    inputs: &setup::Inputs,
    runner: &str,
) -> Result<(Vec<DeviceBuffer>, ptxforge_emu::EmuStats), Verdict> {
    run_emulator_stats(cubin, req, inputs).map_err(|stop| stop.verdict(runner))
}

fn run_emulator(
    cubin: &[u8],
    req: &SimRequest,
    inputs: &setup::Inputs,
) -> Result<Vec<DeviceBuffer>, Stop> {
    run_emulator_stats(cubin, req, inputs).map(|(buffers, _)| buffers)
}

fn run_emulator_stats(
    cubin: &[u8],
    req: &SimRequest,
    inputs: &setup::Inputs,
) -> Result<(Vec<DeviceBuffer>, ptxforge_emu::EmuStats), Stop> {
    use ptxforge_emu as emu;
    let mut buffers: Vec<emu::Buffer> = inputs
        .buffers
        .iter()
        .map(|b| emu::Buffer {
            addr: b.addr,
            bytes: b.bytes.clone(),
        })
        .collect();
    let launch = emu::Launch {
        grid: req.grid,
        block: req.block,
    };
    let opts = emu::EmuOptions {
        check_hazards: true,
        dynamic_shared_bytes: req.dynamic_shared_bytes,
        ..emu::EmuOptions::default()
    };
    let (stats, records) = emu::run_kernel_recording(
        cubin,
        &req.entry,
        &launch,
        &inputs.params,
        &mut buffers,
        &opts,
    )
    .map_err(|e| Stop {
        unsupported: matches!(e, emu::EmuError::Unsupported { .. }),
        error: e.to_string(),
    })?;
    let mut out = inputs.with_contents(buffers.into_iter().map(|b| b.bytes));
    out.extend(records.map(syscall_buffer));
    Ok((out, stats))
}
