//! What a simulated kernel launch is given, defined once for the PTX interpreter
//! (`ptxforge-interp`) and the SASS emulator (`ptxforge-emu`), which both re-export it: global
//! memory as buffers at fixed device addresses, and the grid and block shape.
//!
//! `syscall.rs`: the records both make of calls of `vprintf` and `__assertfail`, which neither can
//! run. `tensor_map.rs`: the CUtensorMap that TMA copies read, decoded for both.
//!
//! Knows nothing of PTX, SASS or how either runs a kernel.

/// A device allocation in global memory at a fixed address.
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
pub mod syscall;
pub mod tensor_map;
