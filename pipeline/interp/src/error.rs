//! Why a simulated run stopped: the `SimError` values and their one-line messages.

use std::fmt;

/// A thread's position in the launch: block index and thread index within the block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThreadId {
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (c, t) = (self.ctaid, self.tid);
        write!(
            f,
            "block ({},{},{}) thread ({},{},{})",
            c[0], c[1], c[2], t[0], t[1], t[2]
        )
    }
}

/// Memory spaces as the interpreter sees them (generic addresses are resolved before an access).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
    Generic,
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
            Space::Generic => "generic",
        };
        f.write_str(s)
    }
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// An access of `size` bytes at `addr` in `space` fell outside every allocation.
    OutOfBounds {
        space: Space,
        addr: u64,
        size: u32,
        thread: ThreadId,
        line: u32,
    },
    /// An access at an address that is not a multiple of its size.
    Misaligned {
        space: Space,
        addr: u64,
        size: u32,
        thread: ThreadId,
        line: u32,
    },
    /// An instruction (or a form of one) the interpreter does not implement.
    Unsupported {
        opcode: String,
        line: u32,
        detail: String,
    },
    /// Every live thread waits and no barrier or warp collective can complete.
    Deadlock { detail: String },
    /// A thread ran more than `Limits::max_steps_per_thread` instructions.
    StepLimit { thread: ThreadId, steps: u64 },
    /// Calls nested deeper than `Limits::max_call_depth`.
    CallDepth { thread: ThreadId, line: u32 },
    /// `trap` or `brkpt` executed.
    Trap { thread: ThreadId, line: u32 },
    /// The entry, a parameter or the launch shape is wrong.
    BadLaunch(String),
    /// The module uses something the interpreter cannot lay out or resolve (missing label, symbol, body).
    BadModule(String),
}

impl SimError {
    /// True for the errors a kernel can raise on its own because of its inputs (bad pointers, traps,
    /// endless loops), as opposed to interpreter limits (`Unsupported`, `BadModule`).
    pub fn is_kernel_fault(&self) -> bool {
        matches!(
            self,
            SimError::OutOfBounds { .. }
                | SimError::Misaligned { .. }
                | SimError::Trap { .. }
                | SimError::StepLimit { .. }
                | SimError::Deadlock { .. }
                | SimError::CallDepth { .. }
        )
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SimError::OutOfBounds {
                space,
                addr,
                size,
                thread,
                line,
            } => {
                write!(f, "out-of-bounds {space} access of {size} bytes at {addr:#x} by {thread} (line {line})")
            }
            SimError::Misaligned {
                space,
                addr,
                size,
                thread,
                line,
            } => {
                write!(f, "misaligned {space} access of {size} bytes at {addr:#x} by {thread} (line {line})")
            }
            SimError::Unsupported {
                opcode,
                line,
                detail,
            } => {
                write!(f, "unsupported instruction '{opcode}' at line {line}")?;
                if !detail.is_empty() {
                    write!(f, ": {detail}")?;
                }
                Ok(())
            }
            SimError::Deadlock { detail } => write!(f, "deadlock: {detail}"),
            SimError::StepLimit { thread, steps } => {
                write!(f, "step limit of {steps} instructions reached by {thread}")
            }
            SimError::CallDepth { thread, line } => {
                write!(f, "call depth limit reached by {thread} at line {line}")
            }
            SimError::Trap { thread, line } => write!(f, "trap by {thread} at line {line}"),
            SimError::BadLaunch(m) => write!(f, "bad launch: {m}"),
            SimError::BadModule(m) => write!(f, "cannot run module: {m}"),
        }
    }
}

impl std::error::Error for SimError {}
