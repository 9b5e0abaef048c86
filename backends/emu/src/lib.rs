//! SASS emulator: decodes the SASS of a cubin and runs it warp by warp, checking control bits.
//!
//! `run_kernel` loads a kernel from a cubin (ptxas's or ours), lays out constant bank 0 as the
//! driver would (launch dimensions, parameters at the parameter offset of the cubin's
//! EIATTR_PARAM_CBANK), and runs every CTA of the grid, one after another:
//!
//! - Warps of 32 threads execute in lockstep. Each lane has its own PC and a convergence group:
//!   the scheduler issues for the group holding the lowest PC; a divergent BRA splits a group and
//!   only BSYNC (convergence barriers set by BSSY, left by BREAK) or WARPSYNC merges groups again,
//!   so code that needs reconvergence and lacks it runs warp-level ops on partial groups (SHFL
//!   from an inactive lane is an error). BAR.SYNC releases when every live thread of the CTA waits.
//! - Memory: global accesses must fall inside a caller's `Buffer` (else `OutOfBounds`) and be
//!   aligned; shared memory is per CTA (`.nv.shared.<kernel>` bytes, SR_CgaCtaId = 0, so sm_90's
//!   window base is 0x400); constant bank 0 is 64 KiB with blockDim at 0x0 and gridDim at 0xc.
//!   Local memory is per thread, exactly as large as the kernel's EIATTR_MIN_STACK_SIZE: R1
//!   starts at that size (`c[0x0][0x28]`), LDL/STL address it from 0, and generic LD/ST reach it
//!   through the local window whose base bank 0 holds at 0x20 (`machine::LOCAL_WINDOW`, where
//!   the PTX interpreter puts it too); an access past the declared stack is `OutOfBounds`.
//!   Generic LD/ST reach the CTA's shared memory through the shared window
//!   (`machine::SHARED_WINDOW`, as in the interpreter) whose base bank 0 holds at 0x18 and whose
//!   high word SR_SWINHI reads (sm_90).
//!   Atomics run lane by lane in lane order.
//! - Arithmetic is bit-exact: integer ops, IEEE f32 add/mul/fma with round-to-nearest and FTZ,
//!   compares, conversions. Modifiers the emulator does not implement give `Unsupported`.
//! - With `check_hazards`, each warp's issue stream runs through the cycle model of `hazard.rs`
//!   (stall counts, scoreboards, in-order queues, latencies calibrated so that ptxas's code runs
//!   hazard-free); with `check_uninit`, reading a never-written register is an error.
//!
//! `supported_opcodes(sm)` lists the opcodes that ran correctly on ptxas's code for that
//! architecture (the tests check each entry); OPCODES.md is the generated table.

mod alu;
mod convert;
pub mod cubin;
pub mod decode;
mod half;
mod hazard;
mod machine;
mod round64;
mod special_regs;

use std::fmt;

/// A global allocation at a fixed device address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub addr: u64,
    pub bytes: Vec<u8>,
}

/// Grid and block dimensions of a launch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

/// Emulation options.
#[derive(Copy, Clone, Debug)]
pub struct EmuOptions {
    /// Run the cycle model and report hazards as errors.
    pub check_hazards: bool,
    /// Upper bound on warp instructions issued over the whole launch.
    pub max_steps: u64,
    /// Report a thread reading a general-purpose register it never wrote.
    pub check_uninit: bool,
}

impl Default for EmuOptions {
    fn default() -> Self {
        EmuOptions {
            check_hazards: true,
            max_steps: 10_000_000,
            check_uninit: false,
        }
    }
}

/// What a run did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EmuStats {
    /// Instructions issued, counted once per warp group.
    pub warp_instructions: u64,
    /// Instructions executed, counted once per thread whose guard held.
    pub thread_instructions: u64,
    /// Issue cycles of the slowest warp, summed over CTAs (they run one after another), with every
    /// variable-latency op completing as early as possible: a lower bound, not a timing.
    pub cycles: u64,
    pub ctas: u64,
    /// Bit `op as usize` is set when some thread ran `decode::Op::ALL[op]`.
    pub opcodes_run: u128,
}

impl EmuStats {
    /// Mnemonics of the opcodes this run executed.
    pub fn opcodes(&self) -> Vec<&'static str> {
        decode::Op::ALL
            .iter()
            .filter(|&&op| self.opcodes_run >> op as usize & 1 == 1)
            .map(|op| op.name())
            .collect()
    }
}

/// The kinds of hazard the cycle model finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HazardKind {
    /// A fixed-latency result read before enough cycles passed.
    ReadTooEarly,
    /// A variable-latency result read without waiting on its scoreboard.
    MissingWait,
    /// A source of a late-reading op overwritten before waiting on its read scoreboard.
    OverwriteBeforeRead,
    /// A register written while a variable-latency result for it is still in flight.
    OverwritePendingWrite,
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmuError {
    Hazard {
        pc: u32,
        reg: String,
        kind: HazardKind,
        detail: String,
    },
    OutOfBounds {
        space: &'static str,
        addr: u64,
        pc: u32,
        thread: [u32; 3],
        cta: [u32; 3],
    },
    Misaligned {
        space: &'static str,
        addr: u64,
        pc: u32,
        thread: [u32; 3],
        cta: [u32; 3],
    },
    Unsupported {
        pc: u32,
        opcode: u32,
        what: String,
    },
    /// A thread read a register it never wrote (with `check_uninit`).
    Uninitialized {
        pc: u32,
        reg: String,
        thread: [u32; 3],
        cta: [u32; 3],
    },
    /// No thread of a CTA can make progress.
    Deadlock {
        cta: [u32; 3],
    },
    /// A warp collective issued while other lanes of the warp wait at the same instruction apart
    /// (the warp was not reconverged).
    Diverged {
        pc: u32,
        issuing: u32,
        split: u32,
        cta: [u32; 3],
    },
    StepLimit {
        steps: u64,
    },
    BadCubin(String),
    BadLaunch(String),
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmuError::Hazard { pc, reg, kind, detail } => write!(f, "hazard at /*{pc:04x}*/ on {reg} ({kind:?}): {detail}"),
            EmuError::OutOfBounds { space, addr, pc, thread, cta } => {
                write!(f, "out-of-bounds {space} access at {addr:#x} by /*{pc:04x}*/ (thread {thread:?} of CTA {cta:?})")
            }
            EmuError::Misaligned { space, addr, pc, thread, cta } => {
                write!(f, "misaligned {space} access at {addr:#x} by /*{pc:04x}*/ (thread {thread:?} of CTA {cta:?})")
            }
            EmuError::Unsupported { pc, opcode, what } => write!(f, "unsupported instruction at /*{pc:04x}*/ (opcode {opcode:#05x}): {what}"),
            EmuError::Uninitialized { pc, reg, thread, cta } => {
                write!(f, "/*{pc:04x}*/ reads {reg}, which thread {thread:?} of CTA {cta:?} never wrote")
            }
            EmuError::Deadlock { cta } => write!(f, "deadlock: no thread of CTA {cta:?} can make progress"),
            EmuError::Diverged { pc, issuing, split, cta } => write!(
                f,
                "warp collective at /*{pc:04x}*/ issued by lanes {issuing:#010x} while lanes {split:#010x} wait at it apart (warp not converged, CTA {cta:?})"
            ),
            EmuError::StepLimit { steps } => write!(f, "step limit reached after {steps} warp instructions"),
            EmuError::BadCubin(m) => write!(f, "bad cubin: {m}"),
            EmuError::BadLaunch(m) => write!(f, "bad launch: {m}"),
        }
    }
}

impl std::error::Error for EmuError {}

/// Runs kernel `entry` of a cubin for `launch`. `params` is the kernel's parameter buffer (offset 0 =
/// first parameter), placed in constant bank 0 at the parameter offset the cubin's `.nv.info`
/// declares (0x160 on sm_75..89, 0x210 on sm_90). The driver area of bank 0 holds blockDim at 0x0
/// and gridDim at 0xc; the shared-memory window base is SR_CgaCtaId = 0 (sm_90 code adds 0x400).
pub fn run_kernel(
    cubin: &[u8],
    entry: &str,
    launch: &Launch,
    params: &[u8],
    buffers: &mut [Buffer],
    opts: &EmuOptions,
) -> Result<EmuStats, EmuError> {
    let image = cubin::load_kernel(cubin, entry)?;
    machine::run(&image, launch, params, buffers, opts)
}

/// The SASS mnemonics (base names) the emulator executes for `sm` (75, 80, 86, 89, 90).
pub fn supported_opcodes(sm: u32) -> Vec<&'static str> {
    decode::supported_names(sm)
}

/// The architectures the emulator runs.
pub const ARCHITECTURES: [u32; 5] = [75, 80, 86, 89, 90];

/// OPCODES.md: a table of the supported opcodes (rows) per architecture (columns).
pub fn opcode_table_markdown() -> String {
    let mut all: Vec<&'static str> = ARCHITECTURES
        .iter()
        .flat_map(|&sm| supported_opcodes(sm))
        .collect();
    all.sort_unstable();
    all.dedup();
    let mut s = String::from("# SASS opcodes the emulator runs\n\n");
    s.push_str("Generated by `cargo run -p ptxforge-emu --bin opcode_table`; a test checks it is up to date.\n");
    s.push_str(
        "Each opcode was first run on ptxas's code for that architecture (backends/emu/tests).\n\n",
    );
    s.push_str("| opcode |");
    for sm in ARCHITECTURES {
        s.push_str(&format!(" sm_{sm} |"));
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(ARCHITECTURES.len()));
    s.push('\n');
    for op in all {
        s.push_str(&format!("| {op} |"));
        for sm in ARCHITECTURES {
            s.push_str(if supported_opcodes(sm).contains(&op) {
                " yes |"
            } else {
                " |"
            });
        }
        s.push('\n');
    }
    s
}
