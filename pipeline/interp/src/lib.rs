//! PTX interpreter: runs a kernel of a parsed PTX module for a grid and block over simulated memory.
//!
//! Threads follow the independent-thread-scheduling model: each runs until it exits or reaches a
//! barrier or warp collective, which completes once every participant waits (see `machine.rs`).
//! Results are deterministic: CTAs run in order (x fastest), threads in linear order.
//!
//! Semantics chosen where PTX leaves them to the machine (the differential check relies on them):
//! - integer `x / 0` and `x % 0` are all ones, signed and unsigned (ptxas 13.5's division sequences
//!   select `~0` for a zero divisor on sm_75..sm_90); `MIN / -1 == MIN`, `MIN % -1 == 0`.
//! - NaN results of f32/f16/bf16 arithmetic are canonical (`0x7fffffff`, `0x7fff`): single precision
//!   has no NaN payloads on NVIDIA GPUs. f64 arithmetic propagates the first NaN operand (quieted)
//!   and gives `0x7fffffffffffffff` for invalid operations (`copysign`, `mov` and memory keep
//!   bits; `abs` and `neg` of a NaN propagate it as their DADD does). The f64 payload rule is an
//!   assumption (the emulator's DADD/DMUL/DFMA follow it too) that a run on a GPU should confirm.
//! - `.approx` functions (`rcp`, `sqrt`, `rsqrt`, `ex2`, `lg2`, `sin`, `cos`, `tanh`, `div.approx`,
//!   `div.full`) are computed in f64 and rounded to nearest once; hardware results differ by up to
//!   the PTX ISA's stated error ([`APPROX_TOLERANCE`]). f64 `rcp.approx`/`rsqrt.approx` likewise.
//! - `mma` products are exact and each output sums in f64 before one rounding (see `mma.rs`);
//!   hardware f16/bf16/tf32 accumulation differs in the last bits. `wgmma.mma_async` likewise
//!   (`wgmma.rs`), with A and B in shared memory in the K-major no-swizzle layout only.
//!   `wmma.mma` likewise (`wmma.rs`), its fragments laid out as ptxas lays them out for the
//!   module's `.target` (the PTX ISA leaves that layout unspecified).
//! - generic addresses: shared, local, const and param memory appear at the `*_WINDOW` addresses;
//!   module `.global` variables live at `GLOBAL_VARS_BASE`; buffers must lie elsewhere.
//! - `%clock`, `%clock64`, `%globaltimer` read 0; `%smid`, `%gridid` read 0; `%nsmid` reads 1.
//! - Clusters hold one CTA: `%cluster_ctarank` and `%cluster_ctaid` read 0, `%cluster_nctarank` and
//!   `%cluster_nctaid` 1, `%clusterid`/`%nclusterid` are `%ctaid`/`%nctaid`.
//! - a warp collective's exited member lanes are dropped from its mask; `shfl` from a lane outside
//!   the group reads the caller's own value.
//!
//! ## What lives where
//!
//! the PTX interpreter, the reference of the differential check: `prep.rs` (entry and callees to an
//! executable form, parameter layout), `machine.rs` (CTA scheduler: each thread runs until a
//! barrier or warp collective, which completes when every participant has arrived; deadlock
//! detection), `exec.rs` (dispatch), `arith.rs`, `float.rs` (exact directed rounding),
//! `convert.rs`, `fp8.rs`, `memops.rs` + `memory.rs` (global buffers, module variables,
//! shared/local/const/param windows, generic addressing, atomics), `syscall.rs` (`vprintf` and
//! `__assertfail` record their calls, `ptxforge_device::syscall`), `collective.rs`, `mbarrier.rs`,
//! `mma.rs`, `wmma.rs`. Choices where PTX leaves behaviour open are documented in `lib.rs`.

mod arith;
mod cache_policy;
mod collective;
mod convert;
pub mod error;
mod exec;
pub mod float;
mod fp8;
mod machine;
mod mbarrier;
mod memops;
pub mod memory;
mod mma;
mod mma_sparse;
mod mma_volta;
mod prep;
mod syscall;
mod tma;
mod video;
mod wgmma;
mod wmma;

pub use error::{SimError, Space, ThreadId};
pub use memory::{
    CONST_WINDOW, GLOBAL_VARS_BASE, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_SIZE,
};
pub use prep::{param_layout, ParamSlot};

use ptxforge_ptx::ast::Module;

/// How far hardware may be from the interpreter on an approximate instruction.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Tolerance {
    /// Units in the last place of the f32 result.
    Ulps(u32),
    /// Relative error bound, as a power of two (`RelLog2(-11)`: |got - want| <= 2^-11 |want|).
    RelLog2(i32),
    /// Absolute error bound, as a power of two (`AbsLog2(-20)`: |got - want| <= 2^-20).
    AbsLog2(i32),
}

/// The PTX ISA's stated accuracy of the f32 `.approx`/`.full` instructions (sin/cos on [-pi, pi],
/// lg2 on (0.5, 2) absolute and relative elsewhere). The interpreter computes these in f64 and rounds
/// once, so a hardware result within these bounds of the interpreter's agrees; every other
/// float instruction must agree bit for bit.
pub const APPROX_TOLERANCE: &[(&str, Tolerance)] = &[
    ("rcp.approx", Tolerance::Ulps(1)),
    ("sqrt.approx", Tolerance::Ulps(1)),
    ("rsqrt.approx", Tolerance::Ulps(2)),
    ("div.approx", Tolerance::Ulps(2)),
    ("div.full", Tolerance::Ulps(2)),
    ("ex2.approx", Tolerance::Ulps(2)),
    ("lg2.approx", Tolerance::AbsLog2(-22)),
    ("sin.approx", Tolerance::AbsLog2(-20)),
    ("cos.approx", Tolerance::AbsLog2(-20)),
    ("tanh.approx", Tolerance::RelLog2(-10)),
];

pub use ptxforge_device::{Buffer, Launch};

/// Bounds on a run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Instructions one thread may execute before the run stops with `SimError::StepLimit`.
    pub max_steps_per_thread: u64,
    /// Bytes of dynamic (`.extern .shared`) shared memory per CTA.
    pub dynamic_shared_bytes: u64,
    /// Deepest call nesting (the entry counts as one).
    pub max_call_depth: u32,
    /// Most local memory one thread may use over all its frames.
    pub max_local_bytes: u64,
    /// Most shared memory per CTA (static plus dynamic) accepted.
    pub max_shared_bytes: u64,
    /// Most threads per block and CTAs per grid accepted.
    pub max_threads_per_block: u32,
    pub max_ctas: u64,
    /// A global address to watch: [`RunStats::last_writer`] names the thread that last stored to it.
    pub watch_global: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps_per_thread: 1_000_000,
            dynamic_shared_bytes: 0,
            max_call_depth: 64,
            max_local_bytes: 256 << 10,
            max_shared_bytes: 4 << 20,
            max_threads_per_block: 1024,
            max_ctas: 1 << 16,
            watch_global: None,
        }
    }
}

/// What a completed run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub ctas: u64,
    pub threads: u64,
    /// Instructions executed (guarded-off ones included), over all threads.
    pub instructions: u64,
    /// The thread whose store (or atomic) last covered [`Limits::watch_global`].
    pub last_writer: Option<ThreadId>,
    /// The records of the calls of `vprintf` and `__assertfail`
    /// (`ptxforge_device::syscall::records_buffer`), when the module declares either.
    pub syscalls: Option<Vec<u8>>,
}

/// Runs `entry` of `module` for `launch`. `params` is the kernel's parameter buffer laid out as
/// [`param_layout`] says. Global accesses must fall inside one of `buffers` (or a module-level
/// `.global` variable, which the interpreter allocates itself at [`GLOBAL_VARS_BASE`]).
pub fn run_kernel(
    module: &Module,
    entry: &str,
    launch: &Launch,
    params: &[u8],
    buffers: &mut [Buffer],
    limits: &Limits,
) -> Result<RunStats, SimError> {
    let threads: u64 = launch.block.iter().map(|&x| x as u64).product();
    let ctas: u64 = launch.grid.iter().map(|&x| x as u64).product();
    if threads == 0 || threads > limits.max_threads_per_block as u64 {
        return Err(SimError::BadLaunch(format!("block of {threads} threads")));
    }
    if ctas == 0 || ctas > limits.max_ctas {
        return Err(SimError::BadLaunch(format!("grid of {ctas} blocks")));
    }
    let prog = prep::prepare(module, entry)?;
    let needed = param_layout(module, entry)?
        .iter()
        .map(|p| p.offset as usize + p.size as usize)
        .max()
        .unwrap_or(0);
    if params.len() < needed {
        return Err(SimError::BadLaunch(format!(
            "parameter buffer of {} bytes, the entry needs {needed}",
            params.len()
        )));
    }
    let info = machine::launch_info(launch, &prog, limits);
    if info.total_smem > limits.max_shared_bytes {
        return Err(SimError::BadLaunch(format!(
            "{} bytes of shared memory per block",
            info.total_smem
        )));
    }
    if prog.funcs[prog.entry].local_size > limits.max_local_bytes {
        return Err(SimError::BadLaunch(format!(
            "{} bytes of local memory per thread",
            prog.funcs[prog.entry].local_size
        )));
    }
    let mut mem = memory::Memory {
        buffers,
        global_vars: prog.global_vars.clone(),
        const_bank: prog.const_bank.clone(),
        kernel_params: params.to_vec(),
        shared: Vec::new(),
        watch: limits.watch_global,
        last_writer: None,
        syscalls: Vec::new(),
    };
    let mut stats = RunStats {
        ctas,
        threads: threads * ctas,
        instructions: 0,
        last_writer: None,
        syscalls: None,
    };
    for z in 0..launch.grid[2] {
        for y in 0..launch.grid[1] {
            for x in 0..launch.grid[0] {
                mem.shared = vec![0; info.total_smem as usize];
                let mut cta = machine::Cta::new(&prog, &mut mem, &info, limits, [x, y, z]);
                cta.run()?;
                stats.instructions += cta.steps;
            }
        }
    }
    stats.last_writer = mem.last_writer;
    if syscall::calls_modelled(module) {
        stats.syscalls = Some(ptxforge_device::syscall::records_buffer(&mem.syscalls));
    }
    Ok(stats)
}

/// Builds a parameter buffer for `entry` from one value per parameter (pointers and integers;
/// floats as their bits), each stored little-endian in its slot.
pub fn pack_params(module: &Module, entry: &str, values: &[u64]) -> Result<Vec<u8>, SimError> {
    let slots = param_layout(module, entry)?;
    if values.len() != slots.len() {
        return Err(SimError::BadLaunch(format!(
            "{} parameter values for {} parameters",
            values.len(),
            slots.len()
        )));
    }
    let end = slots
        .iter()
        .map(|s| (s.offset + s.size) as usize)
        .max()
        .unwrap_or(0);
    let mut buf = vec![0u8; end];
    for (s, v) in slots.iter().zip(values) {
        let n = (s.size as usize).min(8);
        buf[s.offset as usize..s.offset as usize + n].copy_from_slice(&v.to_le_bytes()[..n]);
    }
    Ok(buf)
}
