//! SASS for sm_75..sm_90: the machine IR, encoders, the nvdisasm-style printer, the latency model,
//! the hazard checker, and the machine passes (register allocation, scheduling).
//!
//! ## What lives where
//!
//! `ir.rs` (machine IR), `warp.rs` (the warp ops' IR), `arch.rs`, `encode.rs` (128-bit words, one
//! function per field group) with `encode_{mem,atom,double,convert,warp,async}.rs` per family,
//! `print.rs` (nvdisasm's text) with `print_{atom,double,convert,warp}.rs`, `latency.rs` (the one
//! latency model), `liveness.rs` (liveness per 32-bit half as bitsets: an unguarded write ends a
//! value, a guarded one neither ends nor starts it unless every read below it is under the same
//! guard and covered by it, a value is live only where some write may have reached it; live
//! ranges keep their holes), `coalesce.rs` (copies whose two ends never hold different live
//! values share a register, scalars placed in groups), `pred_pressure.rs` (`fit_predicates`:
//! when more than 7 predicates would be live, the longest-lived are kept in GPRs, written through
//! `SEL g, RZ, 1, !p` and read back through `ISETP.NE`), `reg_regions.rs` (the GPR budget per
//! program point: `setmaxnreg` regions have their own counts), `regalloc_failure.rs` (what an
//! allocation failure tells the user), `uniform_remat.rs` (uniform values that are constants
//! (`ULDC`, `UMOV`, `S2UR` of a CTA's ids) loaded again where read, where more than 59 uniform
//! registers would be live or where the value lives across a call), `zero_pairs.rs` (`CS2R Ra, SRZ` for a pair zeroed by two
//! moves, after allocation), `regalloc.rs` (a linear scan over the live ranges that
//! gives each the lowest free aligned group nothing live overlaps, now or later; the frame's stack
//! pointer pinned to R1; `verify_allocation`; GPR spilling would be a pass like `fit_predicates`
//! before the scan, taking frame slots), `frame.rs` (the per-function stack frame: slots at aligned
//! offsets below R1 for `.local` variables and, later, spills; the prologue `MOV R1, c[0x0][0x28];
//! IADD3 R1, R1, -size`, `resize_prologue` after adding slots; its size feeds
//! EIATTR_FRAME_SIZE/MIN_STACK_SIZE and `-v`), `extern_call.rs` (calls of `vprintf` and
//! `__assertfail`: CALL.ABS.NOINC through a `.nv.constant4` slot, LEPC for the return address,
//! the caller-saved GPRs live across saved in frame slots), `linked_call.rs` (`-c`: calls of
//! functions another object defines, relocated by the linker), `exit_barriers.rs` (ERRBAR before
//! EXIT for `--make-errors-visible-at-exit`), `srcloc.rs` (each instruction's PTX line, for
//! `-lineinfo`), `texture.rs` (TEX/TLD/TLD4/TXD/SULD/SUST as data, `encode_texture.rs`,
//! `print_texture.rs`), `subroutine.rs` (subroutine calls: arguments,
//! results and the return address through ptxas's ABI registers bound before the scan, each
//! subroutine's save/restore frame after it), `list_schedule.rs` (post-allocation list scheduling within blocks), `schedule.rs` (control bits, trailer), `hazard.rs`
//! (checks decoded control bits; the warpgroup MMAs' asynchronous registers: `hazard_wgmma.rs`),
//! `wgmma.rs` (sm_90a's warpgroup MMAs as data, encoded in `encode_wgmma.rs`, printed by
//! `print_wgmma.rs`), `mbarrier80.rs` (sm_80..89's mbarrier atomics ATOMS.ARRIVE.64 and
//! ATOMS.POPC.INC.32, as `SyncsOp`s), `oracle.rs` + `nvtools.rs` (nvdisasm as oracle).

pub mod arch;
pub mod arrives;
pub mod cluster;
pub mod coalesce;
pub mod encode;
mod encode_cluster;
mod encode_convert;
mod encode_double;
mod encode_half;
mod encode_imma;
mod encode_int;
mod encode_lea;
mod encode_mem;
mod encode_pack;
mod encode_sync;
mod encode_texture;
mod encode_tma;
mod encode_wgmma;
pub mod exit_barriers;
pub mod extern_call;
pub mod fast_hash;
pub mod fp8;
pub mod frame;
pub mod hazard;
mod hazard_wgmma;
pub mod imma;
pub mod ir;
pub mod latency;
pub mod linked_call;
pub mod list_schedule;
pub mod liveness;
pub mod matrix_move;
pub mod mbarrier80;
pub mod mma;
pub mod mma_sparse;
pub mod nvtools;
pub mod oracle;
mod packed_i16;
pub mod pred_pressure;
pub mod print;
mod print_cluster;
mod print_convert;
mod print_double;
mod print_float;
mod print_half;
mod print_imma;
mod print_int;
mod print_lea;
mod print_pack;
mod print_sync;
mod print_texture;
mod print_tma;
mod print_wgmma;
pub mod reg_budget;
pub mod reg_regions;
pub mod regalloc;
mod regalloc_failure;
pub mod schedule;
pub mod spill;
pub mod srcloc;
pub mod subroutine;
pub mod syncs;
pub mod texture;
pub mod tma;
pub mod uniform_remat;
pub mod warp;
pub mod wgmma;
pub mod zero_pairs;
