//! Lowering of parsed PTX functions to SASS machine IR with virtual registers.
//!
//! [`lower_function`] walks the PTX body once: labels and branches cut blocks, and each PTX
//! instruction becomes a short sequence of SASS instructions (`int.rs`, `float.rs`, `mem.rs`,
//! `control.rs`). Register views (`Reg::part`) name the halves of 64-bit values.
//!
//! ## What lives where
//!
//! instruction selection: `ctx.rs` (blocks, register mapping, operands, dispatch), `int.rs` (incl.
//! `set` as a setp compare plus SEL, `sad` as VABSDIFF), `half.rs` (f16/f16x2/bf16/bf16x2
//! arithmetic and compares), `half_set.rs` (`set` on half sources as HSET2), `float.rs`, `double.rs` (FP64 unit), `cvt_sat.rs` (integer cvt.sat clamps), `convert.rs` (cvt between every
//! integer width, f16, bf16, f32 and f64), `mem.rs` (scalar and vector loads/stores in every space,
//! parameters incl. narrow ones; their cache operators and hints, and the `--def-load-cache`
//! family, in `cache_ops.rs`), `param_addr.rs` (parameters reached through registers: a register
//! only ever holding a parameter's address is a fixed offset, its loads read `c[0x0][..]`, or a
//! 32-bit offset register read by `LDC c[0x0][Rn+imm]`), `param_window.rs` (a parameter's address
//! that escapes, sm_90: its offset in the block, `cvta.param` adding the base at `c[0x0][0x198]`), `globals.rs` (module `.global` variables:
//! the address of each is a `.nv.constant4` slot, `c[0x4][8*slot]`, that the cubin relocates),
//! `pack.rs` (`mov` with vector operands), `shared_layout.rs` (`.shared` placement as ptxas),
//! `shared_window.rs` (`cvta.shared`/`cvta.to.shared`: the window base at `c[0x0][0x18]` before
//! sm_90, `{shared address, SR_SWINHI}` on sm_90), `sqrt.rs` (`sqrt.rn.f32`: MUFU.RSQ and a Newton
//! correction, the slow path inline and selected), `div_directed.rs` (`div/rcp.rz/.rm/.rp.f32`: an f64
//! quotient narrowed by a directed F2F), `div64.rs` (`div.rn/.rz/.rm/.rp.f64`, `rcp.rz/.rm/.rp.f64`: MUFU.RCP64H and
//! ptxas's refinement, the normalizing slow path inline and selected), `sqrt64_directed.rs` (`sqrt.rz/.rm/.rp.f64`: the round-to-nearest root rounded again by one DFMA), `video.rs` (`vabsdiff4.u32` as VABSDIFF4.U8[.ACC]), `rsqrt64.rs` (`rsqrt.approx.f64`: MUFU.RSQ64H and a Newton
//! step, the slow path inline and selected), `local.rs` (`.local` variables in the stack
//! frame in ptxas's order, the R1 prologue, local symbol addresses, `ld/st.local` as LDL/STL,
//! `cvta.local`/`cvta.to.local` through the window base at `c[0x0][0x20]`), `atomic.rs` (atom/red,
//! CAS with its compare and new values in one register group; generic ATOM; memory orders;
//! `atomic_loop.rs`: shared f32/f64 adds as a compare-and-store loop; `atomic_float.rs`: generic-address float adds and scalar f16/bf16 adds with their compare-and-swap loops; `atomic_cas16.rs`: 16-bit CAS on the containing word),
//! `intops.rs` (bfe, the add/sub/mad carry chains through a carry predicate, dp4a/dp2a as IDP),
//! `mad64.rs` (64-bit mad.lo/.hi and its carry forms),
//! `testp.rs` (testp as integer compares), `tf32_cvt.rs` (cvt.rna.tf32.f32 as ptxas rounds it), `fp8_cvt.rs` (fp8 conversions as F2FP), `mma_fp8.rs`
//! (sm_90's fp8 mma as F2FP unpacks and two HMMAs), `mma_volta.rs` (m8n8k4 f16 mma: HMMA.884
//! steps on sm_75, shuffles and an FFMA chain from sm_80 on), `matrix_move.rs` (movmatrix as
//! MOVM, stmatrix as STSM), `wmma.rs` (wmma.load/wmma.store as per-lane loads and stores of
//! ptxas's fragment layout; `wmma_mma.rs`: wmma.mma as the mma.sync tiles ptxas runs it as), `consts.rs` (`.const` variables in bank 3),
//! `global_sym.rs` (module variables named as memory operands), `bits.rs`
//! (clz/popc/brev/bfind/bmsk/bfi/lop3/prmt in every mode; `bits64.rs`: bfind in every form,
//! bfi.b64 with register fields), `funnel.rs` (shf in every mode), `fns.rs` (fns by POPC search), `divide.rs` (integer div/rem),
//! `async_copy.rs` (sm_80 `cp.async.{ca,cg}` as LDGSTS, with ptxas's zero-fill form for a src-size:
//! the address moved on by `(size - n) % size` and the fill predicate `n != 0`;
//! `commit_group`/`wait_group`/`wait_all` as LDGDEPBAR and DEPBAR.LE SB0; `ldmatrix` m8n8 b16 as
//! LDSM), `cp_async_arrive.rs` (`cp.async.mbarrier.arrive[.noinc]` as ARRIVES.LDGSTSBAR.64 in a
//! uniform-address loop; refused until the loop is kept to converged code), `cluster.rs` (sm_90 `barrier.cluster`, `mapa`, `prefetch.tensormap`, `fence.proxy.tensormap`,
//! `setmaxnreg` and the register budget it sets), `warp.rs` (shfl/vote/redux/activemask; match.any/match.all in `warp_match.rs`; barriers with ids and counts, membar/fence,
//! nanosleep, griddepcontrol, and the convergence pass that puts WARPSYNC before a collective that
//! follows divergent code); `hopper_sync.rs` (sm_90 `elect.sync`, `mbarrier.*` as SYNCS.*,
//! `fence.proxy.async`, `fence.mbarrier_init`, cluster-scope fences; sm_80..89's `mbarrier.*` as
//! shared-memory atomics: `mbarrier80.rs`); `tma.rs` (sm_90's
//! `cp.async.bulk[.tensor]`, `cp.reduce.async.bulk.tensor` and the bulk prefetches as UTMALDG,
//! UTMASTG, UTMAREDG, UTMAPF, UBLKCP, UBLKPF in a loop over the issuing lanes, `commit_group` /
//! `wait_group`); `tensormap.rs` (`tensormap.replace` as word inserts, `tensormap.cp_fenceproxy`);
//! `wgmma.rs` (sm_90a's
//! `wgmma.*` as HGMMA/IGMMA/QGMMA between WARPGROUP.ARRIVE and WARPGROUP.DEPBAR); `divergence.rs` (thread-varying values, for EIATTR_CRS_STACK_SIZE);
//! `calls.rs` (each direct `call` of a `.func` inlined before selection, ptxas's subroutines
//! described there), `subroutine.rs` (recursive calls: the function's code kept once after the
//! entry's, called through `__subcall`/`__subentry`/`__subret`, lowered to CALL/RET),
//! `syscall.rs` (`vprintf` and `__assertfail` called through their `.nv.constant4` slots:
//! `__extcall`, lowered to CALL.ABS), `trap.rs` (a guarded `trap`/`brkpt` branched around) and
//! `call_params.rs` (the calls' `.param` buffers as registers or frame slots);
//! `opt.rs` (copy propagation, dead code) and `fold.rs` (constant-bank operands, as ptxas reads
//! parameters); `imm_fold.rs` (constants as immediate operands, zeros as RZ), `local_cse.rs`
//! (local value numbering), `wide_add_fold.rs` (IMAD.WIDE + 64-bit add as one IMAD.WIDE),
//! `lea_fold.rs` (constant left shift + add as LEA / LEA.HI.X), `addr_fold.rs` (constant adds
//! into loads' and stores' `[R+imm]` offsets), `add_fuse.rs` (zero adds as copies, two adds as
//! one three-operand IADD3), `licm.rs`
//! (loop-invariant code motion);
//! `passes.rs` (the passes by name, `-O0`, `PTXFORGE_PASSES_OFF`). Also: `div64.rs` (+ `div64/`:
//! f64 division and reciprocal in every rounding), `sqrt64_directed.rs`, `video.rs` (vabsdiff2/4),
//! `texture.rs` (bindless tex/tld4/suld/sust), `mbarrier80.rs` (mbarrier on sm_80..89),
//! `trap.rs` (guarded trap), `linkable.rs` (`-c`: `.visible .func` bodies and linked calls),
//! `srcloc.rs` (PTX lines onto the instructions lowered from them).

mod add_fuse;
mod addr_fold;
mod async_copy;
mod atomic;
mod atomic_cas16;
mod atomic_float;
mod atomic_loop;
mod bits;
mod bits64;
mod cache_ops;
mod cache_policy;
mod call_params;
mod calls;
mod cluster;
mod consts;
mod convert;
mod cp_async_arrive;
mod ctx;
mod cvt_sat;
mod div64;
mod div_directed;
mod divergence;
mod divide;
mod double;
mod float;
mod fns;
mod fold;
mod fp8_cvt;
mod funnel;
mod global_sym;
mod globals;
mod half;
mod half_set;
mod hopper_sync;
mod ieee_div;
mod imm_fold;
mod int;
mod int_legacy;
mod intops;
mod lea_fold;
mod licm;
mod linkable;
mod local;
mod local_cse;
mod mad64;
mod matrix_move;
mod mbarrier80;
mod mem;
mod mma;
mod mma_fp8;
mod mma_int;
mod mma_int4;
mod mma_sparse;
mod mma_volta;
mod mufu;
mod opt;
mod ordered;
mod pack;
mod param_addr;
mod param_window;
mod passes;
mod planted;
mod rsqrt64;
mod shared_layout;
mod shared_window;
mod special_regs;
mod sqrt;
mod sqrt64;
mod sqrt64_directed;
mod srcloc;
mod subroutine;
mod syscall;
mod tensormap;
mod testp;
mod texture;
mod tf32_cvt;
mod tma;
mod trap;
mod video;
mod warp;
mod warp_match;
mod wgmma;
mod wide_add_fold;
mod wmma;
mod wmma_mma;

pub use cache_ops::{CacheOp, CachePolicy};
pub use cluster::setmaxnreg_budget;
pub use consts::{const_offsets, const_variable_decls, module_consts};
pub use ctx::{LowerError, LoweredKernel, ParamLayout};
pub use globals::{global_variables as global_variable_decls, module_globals, ModuleGlobal};
pub use linkable::{linked_functions, lower_device_function};
pub use opt::optimize;
pub use passes::{optimize_with, PassConfig, PASSES, PASSES_OFF_VAR, PASSES_ON_VAR};
pub use syscall::{extern_functions, SYSCALLS};

use ptxforge_ptx::ast;
use ptxforge_sass::arch::Sm;

/// Lowers one `.entry` to machine IR (virtual registers, blocks in layout order).
pub fn lower_function(
    module: &ast::Module,
    func: &ast::Function,
    sm: Sm,
) -> Result<LoweredKernel, Vec<LowerError>> {
    lower_function_with(module, func, sm, CachePolicy::default())
}

/// [`lower_function`] with the command line's cache operators.
pub fn lower_function_with(
    module: &ast::Module,
    func: &ast::Function,
    sm: Sm,
    cache_policy: CachePolicy,
) -> Result<LoweredKernel, Vec<LowerError>> {
    if !func.is_entry {
        return Err(vec![LowerError {
            line: func.line,
            message: "device functions (.func) are not supported yet".into(),
        }]);
    }
    let inlined = calls::inline_calls(module, func)?;
    let func = inlined.as_ref().unwrap_or(func);
    let mut cx = ctx::Ctx::new(module, func, sm);
    cx.cache_policy = cache_policy;
    cx.lower_body();
    let mut kernel = cx.finish()?;
    warp::converge_warp_collectives(&mut kernel.func, sm);
    Ok(kernel)
}
