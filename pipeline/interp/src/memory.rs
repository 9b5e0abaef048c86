//! Simulated memory: global buffers and module variables, the const bank, kernel parameters, the
//! CTA's shared memory, per-thread local and param memory, and the generic address windows.

use crate::error::Space;
use crate::Buffer;

/// Global address of the first module-level `.global` variable (the interpreter allocates them here).
pub const GLOBAL_VARS_BASE: u64 = 0x0000_6000_0000_0000;
/// Generic address of shared offset 0; shared, local, const and param windows are each `WINDOW_SIZE` long.
pub const SHARED_WINDOW: u64 = 0x0000_7000_0000_0000;
/// Generic address of local offset 0 (each thread sees its own local memory there).
pub const LOCAL_WINDOW: u64 = 0x0000_7100_0000_0000;
/// Generic address of const-bank offset 0.
pub const CONST_WINDOW: u64 = 0x0000_7200_0000_0000;
/// Generic address of kernel-parameter offset 0.
pub const PARAM_WINDOW: u64 = 0x0000_7300_0000_0000;
/// Size of each generic window.
pub const WINDOW_SIZE: u64 = 1 << 32;

/// A space after generic addresses are resolved; param space is split into the kernel's buffer and
/// the current thread's frame param memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    Global,
    Shared,
    Local,
    Const,
    KernelParam,
    FrameParam,
}

impl Region {
    pub fn space(self) -> Space {
        match self {
            Region::Global => Space::Global,
            Region::Shared => Space::Shared,
            Region::Local => Space::Local,
            Region::Const => Space::Const,
            Region::KernelParam | Region::FrameParam => Space::Param,
        }
    }

    /// Offset of this region's window in the generic address space (global is identity).
    pub fn window(self) -> u64 {
        match self {
            Region::Global => 0,
            Region::Shared => SHARED_WINDOW,
            Region::Local => LOCAL_WINDOW,
            Region::Const => CONST_WINDOW,
            Region::KernelParam | Region::FrameParam => PARAM_WINDOW,
        }
    }
}

/// Which region a generic address falls in, and the address within it.
pub(crate) fn resolve_generic(addr: u64) -> (Region, u64) {
    for r in [
        Region::Shared,
        Region::Local,
        Region::Const,
        Region::KernelParam,
    ] {
        let w = r.window();
        if addr >= w && addr - w < WINDOW_SIZE {
            return (r, addr - w);
        }
    }
    (Region::Global, addr)
}

/// Memory shared by all threads of the launch (and the current CTA's shared memory).
pub(crate) struct Memory<'a> {
    pub buffers: &'a mut [Buffer],
    pub global_vars: Vec<u8>,
    pub const_bank: Vec<u8>,
    /// A copy of the kernel's parameter buffer (stores to it are refused by the caller).
    pub kernel_params: Vec<u8>,
    pub shared: Vec<u8>,
    /// A global address whose last writer the caller wants to know ([`crate::Limits::watch_global`]).
    pub watch: Option<u64>,
    pub last_writer: Option<crate::ThreadId>,
    /// The calls of `vprintf` and `__assertfail` made so far (`syscall.rs`).
    pub syscalls: Vec<ptxforge_device::syscall::SysCallRecord>,
}

fn window(bytes: &mut [u8], addr: u64, size: u64) -> Option<&mut [u8]> {
    let end = addr.checked_add(size)?;
    if end > bytes.len() as u64 {
        return None;
    }
    Some(&mut bytes[addr as usize..end as usize])
}

impl Memory<'_> {
    /// The bytes of an access, or `None` when it is out of bounds. `local` and `fparam` are the
    /// executing thread's own memories.
    pub fn bytes<'s>(
        &'s mut self,
        local: &'s mut [u8],
        fparam: &'s mut [u8],
        region: Region,
        addr: u64,
        size: u64,
    ) -> Option<&'s mut [u8]> {
        match region {
            Region::Global => {
                if addr >= GLOBAL_VARS_BASE && addr - GLOBAL_VARS_BASE < WINDOW_SIZE {
                    return window(&mut self.global_vars, addr - GLOBAL_VARS_BASE, size);
                }
                let b = self
                    .buffers
                    .iter_mut()
                    .find(|b| addr >= b.addr && addr - b.addr < b.bytes.len() as u64)?;
                window(&mut b.bytes, addr - b.addr, size)
            }
            Region::Shared => window(&mut self.shared, addr, size),
            Region::Local => window(local, addr, size),
            Region::Const => window(&mut self.const_bank, addr, size),
            Region::KernelParam => window(&mut self.kernel_params, addr, size),
            Region::FrameParam => window(fparam, addr, size),
        }
    }
}
