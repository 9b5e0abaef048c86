//! SASS for sm_75..sm_90: the machine IR, encoders, the nvdisasm-style printer, the latency model,
//! the hazard checker, and the machine passes (register allocation, scheduling).

pub mod arch;
pub mod encode;
mod encode_convert;
mod encode_double;
mod encode_half;
mod encode_mem;
mod encode_sync;
pub mod frame;
pub mod hazard;
pub mod ir;
pub mod latency;
pub mod liveness;
pub mod nvtools;
pub mod oracle;
pub mod pred_pressure;
pub mod print;
mod print_convert;
mod print_double;
mod print_half;
mod print_sync;
pub mod regalloc;
pub mod schedule;
pub mod syncs;
pub mod warp;
