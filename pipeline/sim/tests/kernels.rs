//! The differential check over small CUDA kernels (tests/kernels/*.cu, with the PTX nvcc wrote
//! from them) that exercise many PTX instructions the filetests do not: the PTX interpreter and
//! the emulator on ptxas's cubin must leave the same buffers on every architecture, with fixed
//! seeds; where ptxforge compiles a kernel, the emulator on our cubin must agree too.
//! Prints `skipped: ...` and passes when ptxas is absent.

use std::path::{Path, PathBuf};

use ptxforge_sass::nvtools;
use ptxforge_sim::{check_cubins, compile_ours, SimRequest, Verdict};

/// The architectures every kernel runs on.
const ARCHS: &[u32] = &[75, 80, 86, 89, 90];

/// One kernel launch: PTX file, entry, grid and block size, allowed f32 ulps, oldest architecture.
struct Kernel {
    file: &'static str,
    entry: &'static str,
    grid: u32,
    block: u32,
    ulps: u32,
    min_sm: u32,
}

const fn kernel(file: &'static str, entry: &'static str, block: u32) -> Kernel {
    Kernel {
        file,
        entry,
        grid: 1,
        block,
        ulps: 0,
        min_sm: 75,
    }
}

/// Every kernel, launched so that its accesses stay inside the 4 KiB buffers.
const KERNELS: &[Kernel] = &[
    kernel("prmt.ptx", "prmt_modes", 64),
    // bfe, carry chains (and nvcc's __int128), dp4a/dp2a.
    kernel("intops.ptx", "bfe_forms", 64),
    kernel("intops.ptx", "carry_chains", 64),
    kernel("intops.ptx", "int128_math", 64),
    kernel("intops.ptx", "dot_products", 64),
    // lop3 with a predicate output (LOP3.LUT[.PAND] with predicate destination and input).
    kernel("lop3_pred.ptx", "lop3_pred", 64),
    // Integer cvt.sat, 32- and 64-bit sources.
    kernel("cvt_sat_int.ptx", "cvt_sat_int", 32),
    // Nested { } scopes: sibling and shadowing declarations.
    kernel("scopes.ptx", "scopes", 64),
    // f32 .sat (add, sub, mul, fma, cvt.sat.f32.f32 as expf writes it).
    kernel("sat_f32.ptx", "sat_f32", 64),
    // testp on f32 and f64, every class of value.
    kernel("testp.ptx", "testp_forms", 64),
    // cuda::atomic_ref with memory orders: generic atom.*.{relaxed,acquire,release,acq_rel}.
    Kernel {
        grid: 2,
        ..kernel("atomic_order.ptx", "atomic_orders", 64)
    },
    kernel("bitfield.ptx", "bitfield", 64),
    kernel("bitfield.ptx", "bitcount", 64),
    kernel("intmul.ptx", "mul_hi", 64),
    kernel("intmul.ptx", "mul_hi64", 64),
    kernel("intmul.ptx", "int64_carry", 64),
    kernel("divrem.ptx", "divrem", 64),
    kernel("minmax.ptx", "minmax_cvt", 64),
    kernel("cvt_float.ptx", "cvt_half", 64),
    kernel("cvt_float.ptx", "cvt_double", 64),
    // bf16 conversions and f16x2/bf16x2 packing need sm_80.
    Kernel {
        min_sm: 80,
        ..kernel("cvt_bf16.ptx", "cvt_bf16", 64)
    },
    kernel("half_math.ptx", "half_arith", 64),
    Kernel {
        min_sm: 80,
        ..kernel("half_minmax.ptx", "half_minmax_bf16", 64)
    },
    kernel("f64_ops.ptx", "f64_ops", 64),
    // Module variables as memory operands (`ld.global [gscale]`, `st.global [gbig]`).
    kernel("global_sym.ptx", "global_sym", 64),
    // __constant__ tables (constant bank 3).
    kernel("const_table.ptx", "const_table", 64),
    // printf and assert: vprintf and __assertfail through CALL.ABS, their records compared.
    kernel("printf_assert.ptx", "printf_args", 64),
    kernel("printf_assert.ptx", "printf_loop", 64),
    kernel("printf_assert.ptx", "printf_double", 64),
    kernel("printf_assert.ptx", "assert_args", 64),
    kernel("f32_ieee.ptx", "f32_ieee", 64),
    Kernel {
        ulps: 4,
        ..kernel("approx.ptx", "approx", 64)
    },
    Kernel {
        ulps: 4,
        ..kernel("approx.ptx", "approx_trig_sqrt", 64)
    },
    kernel("shfl_vote.ptx", "shfl_vote", 64),
    kernel("shfl_vote.ptx", "vote_uni", 64),
    // match.any/match.all (b32, b64) over the warp and over a branch's lanes.
    kernel("warp_match.ptx", "warp_match", 64),
    // redux.sync with member masks from a ballot, its complement and a half warp (sm_80+).
    Kernel {
        min_sm: 80,
        ..kernel("redux_mask.ptx", "redux_mask", 64)
    },
    kernel("atomics.ptx", "atomics_contended", 128),
    kernel("atomics.ptx", "atomics_private", 128),
    kernel("atomics.ptx", "atomics_shared", 128),
    Kernel {
        grid: 2,
        ..kernel("block_reduce.ptx", "divergent_reduce", 256)
    },
    kernel("compare.ptx", "compare", 64),
    kernel("float_literals.ptx", "float_literals", 32),
    kernel("set_forms.ptx", "set_forms", 64),
    kernel("sad_forms.ptx", "sad_forms", 64),
    kernel("local_array.ptx", "local_table", 64),
    kernel("local_array.ptx", "local_bytes_wide", 64),
    kernel("local_array.ptx", "local_generic", 64),
    kernel("param_struct.ptx", "param_struct_indexed", 64),
    kernel("param_struct.ptx", "param_struct_loop", 64),
    kernel("module_vars.ptx", "module_vars", 64),
    kernel("shared_cta.ptx", "shared_cta", 64),
    // cp.async and ldmatrix need sm_80.
    Kernel {
        min_sm: 80,
        ..kernel("async_copy.ptx", "async_copy", 64)
    },
    kernel("copysign.ptx", "copysign_forms", 64),
    kernel("shared_generic.ptx", "shared_generic", 64),
    kernel("sqrt_rn.ptx", "sqrt_rn", 64),
    kernel("fadd_round.ptx", "fadd_round", 64),
    // bfind in every form, shf in every mode, bfi.b64 with register fields, 64-bit mad and its
    // carry chain, fma.{rz,rm,rp}.f32, fns.
    kernel("scalar_forms.ptx", "bfind_forms", 64),
    kernel("scalar_forms.ptx", "shf_forms", 64),
    kernel("scalar_forms.ptx", "bfi64_fields", 64),
    kernel("scalar_forms.ptx", "mad64_forms", 32),
    kernel("scalar_forms.ptx", "ffma_round", 64),
    kernel("scalar_forms.ptx", "fns_forms", 64),
    // mul24/mad24, slct, cnot, szext (SGXT.W).
    kernel("legacy_int.ptx", "legacy_int", 32),
    kernel("trap.ptx", "trap_skipped", 64),
    // atom/red.global.add.f64 (ATOMG/RED .F64.RN); shared f32/f64 adds (CAS loops).
    kernel("float_atomics.ptx", "atomics_f64", 64),
    // Generic-address float adds, global in some lanes and shared in others; scalar f16 adds.
    kernel("atomic_generic.ptx", "atomic_generic_lanes", 64),
    kernel("atomic_generic.ptx", "cas16", 64),
    // createpolicy's fractional and range policies, stored as values (sm_80+).
    Kernel {
        min_sm: 80,
        ..kernel("cache_policy.ptx", "cache_policy", 64)
    },
    kernel("float_atomics.ptx", "atomics_shared_float", 64),
    // atom/red.global.add.noftz.f16x2 (ATOMG/RED .F16x2.RN); bf16x2 needs sm_90.
    kernel("float_atomics.ptx", "atomics_f16x2", 64),
    Kernel {
        min_sm: 90,
        ..kernel("float_atomics90.ptx", "atomics_bf16x2", 64)
    },
    kernel("frnd.ptx", "frnd_modes", 64),
    // sin/cos are stored plus 2: ptxas's x * 1/(2 pi) with FMUL.RZ moves the angle by up to
    // |x| * 2^-23 (x within 4), up to 2 ulps of a value near 2, plus the roundings.
    Kernel {
        ulps: 4,
        ..kernel("mufu.ptx", "mufu_f32", 64)
    },
    Kernel {
        ulps: 2,
        ..kernel("mufu.ptx", "mufu_div", 64)
    },
    // The high words of f64 results: MUFU.RCP64H/RSQ64H ignore the source's low word (a
    // relative difference up to 2^-20, about one unit of the high word) and round once more.
    Kernel {
        ulps: 2,
        ..kernel("mufu.ptx", "mufu_f64", 64)
    },
    kernel("mufu.ptx", "frnd_f64", 64),
    kernel("sqrt_rn64.ptx", "sqrt_rn64", 64),
    kernel("div_rn.ptx", "div_rn", 64),
    // div/rcp.rn/.rz/.rm/.rp.f64: edge tables, denormal quotients and ties, overflow.
    kernel("div64.ptx", "div64_rn", 64),
    kernel("div64.ptx", "div64_rz", 64),
    kernel("div64.ptx", "div64_rm", 64),
    kernel("div64.ptx", "div64_rp", 64),
    kernel("div64.ptx", "rcp64_rn", 64),
    // sqrt.rz/.rm/.rp.f64: edges, denormals, exact and near squares, around powers of four.
    kernel("sqrt64_directed.ptx", "sqrt64_rz", 64),
    kernel("sqrt64_directed.ptx", "sqrt64_rm", 64),
    kernel("sqrt64_directed.ptx", "sqrt64_rp", 64),
    // vabsdiff4.u32 with and without .add (VABSDIFF4.U8[.ACC]); vabsdiff2.u32/.s32 (integer code).
    kernel("video.ptx", "vabsdiff4_u8", 64),
    kernel("video.ptx", "vabsdiff2_forms", 64),
    // setp.s16/.u16 on halves whose upper bits are not their extension.
    kernel("setp16.ptx", "setp16", 64),
    // Every SIMD video intrinsic and the __vi* DPX functions (as sm_80 PTX), 16 threads.
    kernel("simd_video.ptx", "simd_halves", 16),
    kernel("simd_video.ptx", "simd_bytes", 16),
    kernel("simd_video.ptx", "dpx_minmax", 16),
    // div/rcp.rz/.rm/.rp.f32; rsqrt.approx.f64 (high words, within 2 units) and abs.s64.
    kernel("div_directed.ptx", "div_rz", 64),
    kernel("div_directed.ptx", "div_rm", 64),
    kernel("div_directed.ptx", "div_rp", 64),
    Kernel {
        ulps: 2,
        ..kernel("rsqrt64_abs64.ptx", "rsqrt_f64", 64)
    },
    kernel("rsqrt64_abs64.ptx", "abs_s64", 64),
    kernel("envreg.ptx", "envreg", 64),
    // Cache operators, eviction priorities and L2 prefetch sizes on loads and stores.
    kernel("cache_ops.ptx", "cache_ops", 64),
    // set on f16/f16x2 sources (HSET2); bf16/bf16x2 need sm_90.
    kernel("half_set.ptx", "half_set", 64),
    Kernel {
        min_sm: 90,
        ..kernel("half_set_bf16.ptx", "half_set_bf16", 64)
    },
    Kernel {
        min_sm: 90,
        ..kernel("half_set_bf16.ptx", "frnd_bf16", 64)
    },
    Kernel {
        min_sm: 90,
        ..kernel("half_set_bf16.ptx", "cvt_bf16_f64", 64)
    },
    Kernel {
        min_sm: 90,
        ..kernel("half_set_bf16.ptx", "cvt_int_bf16", 64)
    },
    // cvt.rm/.rp.bf16.f32 (F2F.BF16.F32.RM/.RP) need sm_80.
    Kernel {
        min_sm: 80,
        ..kernel("cvt_bf16_round.ptx", "cvt_bf16_round", 64)
    },
    // Integer, b1 and f64 mma.sync, one warp of 128-byte rows (m16n8kK and f64 need sm_80; f64
    // m16n8kK sm_90).
    kernel("mma_int.ptx", "imma_m8_s8", 32),
    kernel("mma_int.ptx", "imma_m8_4bit", 32),
    kernel("mma_int.ptx", "bmma_m8_xor", 32),
    Kernel {
        min_sm: 80,
        ..kernel("mma_int80.ptx", "imma_m16_s8", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_int80.ptx", "imma_m16_4bit", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_int80.ptx", "bmma_m16", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_int80.ptx", "dmma_m8n8k4", 32)
    },
    Kernel {
        min_sm: 90,
        ..kernel("mma_f64_90.ptx", "dmma_m16", 32)
    },
    kernel("cvt_pack.ptx", "cvt_pack", 64),
    // nvcc's PTX of inline mma.sync tiles (two K steps each).
    Kernel {
        min_sm: 80,
        ..kernel("mma_asm.ptx", "imma_tile", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_asm.ptx", "dmma_tile", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_asm.ptx", "bmma_tile", 32)
    },
    // Tensor cores: m16n8k8 f16 from sm_75, bf16/tf32/k16 from sm_80, fp8 from sm_89.
    kernel("mma_f16.ptx", "mma_f16_k8", 32),
    Kernel {
        min_sm: 80,
        ..kernel("mma_ldmatrix.ptx", "mma_ldmatrix", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_bf16_tf32.ptx", "mma_bf16_tf32", 32)
    },
    Kernel {
        min_sm: 89,
        ..kernel("mma_fp8.ptx", "mma_fp8", 32)
    },
    // Sparse mma.sp / mma.sp::ordered_metadata: f16/bf16/tf32, s8/u8 and s4/u4 from sm_80, fp8
    // on sm_89 (sm_90's 4-bit and fp8 forms: ptxas's rewrite checked against the interpreter).
    Kernel {
        min_sm: 80,
        ..kernel("mma_sparse.ptx", "mma_sp_f16", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_sparse.ptx", "mma_sp_int8", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mma_sparse.ptx", "mma_sp_int4", 32)
    },
    Kernel {
        min_sm: 89,
        ..kernel("mma_sparse_fp8.ptx", "mma_sp_fp8", 32)
    },
    // Volta's quad-pair m8n8k4 f16 mma: HMMA.884 on sm_75, shuffles and FFMAs from sm_80 on.
    kernel("mma_m8n8k4.ptx", "mma_m8n8k4_f32", 32),
    kernel("mma_m8n8k4.ptx", "mma_m8n8k4_f16", 32),
    // The WMMA API: f16, s8/u8, s4/u4 and b1 .xor tiles from sm_75; bf16, tf32, f64 and b1 .and
    // from sm_80 (wmma.load/store/mma, fragment elements changed one by one).
    kernel("wmma.ptx", "wmma_f16", 32),
    kernel("wmma.ptx", "wmma_int8", 32),
    kernel("wmma.ptx", "wmma_subbyte", 32),
    kernel("wmma.ptx", "wmma_mixed", 32),
    Kernel {
        min_sm: 80,
        ..kernel("wmma80.ptx", "wmma_bf16_tf32", 32)
    },
    Kernel {
        min_sm: 80,
        ..kernel("wmma80.ptx", "wmma_f64_b1", 32)
    },
    // wmma forms the API does not write: a stride in a register, no stride, .shared::cta, generic.
    kernel("wmma_forms.ptx", "wmma_strides", 32),
    // movmatrix (MOVM) from sm_75; stmatrix (STSM) on sm_90.
    kernel("movmatrix.ptx", "movmatrix", 32),
    Kernel {
        min_sm: 90,
        ..kernel("stmatrix.ptx", "stmatrix", 32)
    },
    // FP8 conversions (cuda_fp8.h) need sm_89.
    Kernel {
        min_sm: 89,
        ..kernel("fp8_cvt.ptx", "fp8_cvt", 64)
    },
    // Both compilers spill: budgets of 32 registers from .maxnreg, 64 from .maxntid/.minnctapersm.
    kernel("spill_pressure.ptx", "spill_maxnreg", 16),
    kernel("spill_pressure.ptx", "spill_occupancy", 16),
    kernel("spill_pressure.ptx", "spill_tight", 16),
    // The hardware check's stress kernels (see hw_stress.cu).
    kernel("hw_stress.ptx", "dep_chain", 128),
    kernel("hw_stress.ptx", "load_use", 128),
    kernel("hw_stress.ptx", "diverge_reconverge", 128),
    kernel("hw_stress.ptx", "barrier_rounds", 128),
    kernel("ordered_mem.ptx", "ordered_mem", 64),
    kernel("special_regs.ptx", "special_regs", 64),
    // mbarrier pipelines with elect.sync and the async-proxy fences (cuda::ptx, nvcc -arch=sm_90a)
    // need sm_90.
    Kernel {
        min_sm: 90,
        ..kernel("mbarrier_pipeline.ptx", "_Z17mbarrier_pipelinePKjPj", 128)
    },
    Kernel {
        min_sm: 90,
        ..kernel("mbarrier_phases.ptx", "_Z15mbarrier_phasesPKjPj", 32)
    },
    Kernel {
        min_sm: 90,
        ..kernel(
            "mbarrier_cuda_barrier.ptx",
            "_Z21mbarrier_cuda_barrierPKjPj",
            128,
        )
    },
    // Device functions (.func): ptxas keeps them as CALL.REL.NOINC subroutines, we inline them.
    kernel("device_calls.ptx", "calls_basic", 64),
    kernel("device_calls.ptx", "calls_loop", 64),
    kernel("device_calls.ptx", "calls_deep", 64),
    kernel("device_calls.ptx", "calls_local", 64),
    // Recursion (direct, mutual, 64-bit and several arguments, float): ptxas and we keep the
    // functions as CALL.REL.NOINC subroutines.
    kernel("recursion.ptx", "rec_fib", 64),
    kernel("recursion.ptx", "rec_mutual", 64),
    kernel("recursion.ptx", "rec_wide", 64),
    kernel("recursion.ptx", "rec_float", 64),
    // The global-memory descriptor live across calls of a recursive function that writes
    // uniform registers of its own (redux.sync, sm_80): loaded again after the calls.
    Kernel {
        min_sm: 80,
        ..kernel("uniform_calls.ptx", "uniform_across_calls", 64)
    },
    // The cluster registers need sm_90.
    Kernel {
        grid: 3,
        min_sm: 90,
        ..kernel("cluster_regs.ptx", "cluster_regs", 32)
    },
    // A parameter read through its generic address (`cvta.param`) needs sm_90.
    Kernel {
        min_sm: 90,
        ..kernel("param_window.ptx", "param_window", 64)
    },
    // The cluster barrier, mapa and tensor-map cache control need sm_90.
    Kernel {
        min_sm: 90,
        ..kernel("cluster_sync.ptx", "cluster_sync", 128)
    },
    // Two packed 16-bit integers (add/min/max .s16x2/.u16x2, .relu) need sm_90.
    Kernel {
        min_sm: 90,
        ..kernel("packed_i16.ptx", "packed_i16", 32)
    },
    // TMA tile loads and stores and bulk copies completing on an mbarrier need sm_90.
    Kernel {
        min_sm: 90,
        ..kernel("tma_tile.ptx", "tma_tile", 32)
    },
    // The mbarrier from sm_80 (shared-memory atomics before sm_90): the __mbarrier_* primitives,
    // cuda::barrier, cuda::memcpy_async completing on a barrier.
    Kernel {
        min_sm: 80,
        ..kernel("mbarrier80.ptx", "_Z15mbar_primitivesPKjPj", 64)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mbarrier80.ptx", "_Z17mbar_cuda_barrierPKjPj", 128)
    },
    Kernel {
        min_sm: 80,
        ..kernel("mbarrier80.ptx", "_Z17mbar_memcpy_asyncPKjPj", 64)
    },
    // cp.async.mbarrier.arrive[.noinc] on a thread-varying address in split warps.
    Kernel {
        min_sm: 80,
        ..kernel("cp_async_arrive_varying.ptx", "cp_async_arrive_varying", 64)
    },
];

/// Kernel/architecture pairs left out of the asserted set, each with the emulator gap it meets on
/// ptxas's cubin (found with ptxas 13.5 while the emulator is still being completed). They still run:
/// the interpreter must complete them, the emulator's answer is not asserted, and the test prints the
/// ones that agree now so that they can be moved back in.
/// Each names the first gap the run meets (the instruction at fault in ptxas's SASS); runs past it
/// may meet more. A "false hazard" is one the emulator reports on ptxas's own scheduling.
const EMULATOR_GAPS: &[(&str, &[u32], &str)] = &[
    ("_Z17mbar_memcpy_asyncPKjPj", &[90], "false hazard: VOTEU.ALL UP0, P0 then ISETP P0 (a read of P0 10 cycles after its producer, 13 asked) in ptxas's sm_90 code; our sm_90 cubin agrees with the interpreter (ptxforge sim)"),
    ("mma_sp_fp8", &[90], "ptxas's sm_90 rewrite of sparse fp8 mma (two HMMA.SP.16832 on the unpacked low and high halves of A) gives both HMMA.SP the same B (even lanes' low halves, odd lanes' high halves, chosen by SEL on the lane's parity), so half of B's 512 values never reach a product, and its metadata shuffle reads lanes 0 and 2 of each group only; the interpreter's result uses all of B and differs (a ptxas problem or an fp8 sparse layout unlike the PTX ISA's; not investigated further; ptxforge rejects this form on sm_90)"),
    // Past it: ptxas writes mad.hi.u32 as IMAD.HI.U32 Rd, Ra, Rb, R4 with R4 = 0 and c in R5 (C is a
    // 64-bit register pair); the emulator reads C as 32 bits.
    ("mul_hi", &[75, 80, 86, 89, 90], "PLOP3.LUT (opcode 0x21f) unknown; then IMAD.HI's 64-bit C operand"),
    ("divrem", &[75], "CS2R (opcode 0x805) unknown"),
    ("param_struct_loop", &[75], "CS2R (opcode 0x805) unknown"),
    ("divrem", &[80, 86, 89, 90], "past the RET of ptxas's 64-bit division subroutine (its 4-cycle IMAD.MOV -> RET is modelled now): word 0x48 of thread 1 differs (0x80000001 for 0x80000000); not yet investigated"),
    ("cvt_bf16", &[80, 86, 89], "F2F.BF16.F32.RM (opcode 0x304): the emulator runs F2F between f16, f32 and f64 only"),
    ("cvt_bf16", &[90], "F2F.BF16.F32.RM (opcode 0x304): the emulator runs F2F between f16, f32 and f64 only"),
    ("f64_ops", &[86], "past f64 division's subroutine (runs now): one word differs, the emulator giving NaN where the interpreter has a finite quotient; not yet investigated"),
    ("f64_ops", &[80, 86, 89], "CALL.REL.NOINC (opcode 0x944) to f64 division's slow path unknown"),
    ("f32_ieee", &[75, 80, 86, 89, 90], "FCHK (opcode 0x302, f32 division's range check) unknown"),
    (
        "approx_trig_sqrt",
        &[75, 80, 86, 89, 90],
        "MUFU.SIN/COS of ptxas's x * 1/(2 pi) rounded toward zero: about 20 f32 ulps from sin(x), over the 4 allowed",
    ),
    ("shfl_vote", &[80, 86, 89], "R2UR (opcode 0x3c2) unknown"),
    ("shfl_vote", &[90], "WARPSYNC.EXCLUSIVE (opcode 0x348) unknown"),
    // ptxas's code branches on BRA.DIV/BRA.CONV with the member mask moved to a uniform register.
    ("redux_mask", &[80, 86, 89], "R2UR (opcode 0x3c2) unknown"),
    // Past ATOMS.CAS (runs now): o[2] differs; it adds sh[t & 7], left by four warps' mixed
    // add/max/min/xor atomics, whose order the interpreter and the emulator need not share (the
    // likely cause, not yet confirmed).
    ("atomics_shared", &[75, 80, 86, 89], "o[2] = exch + sh[t & 7] differs (sh[] after four warps' mixed atomics)"),
    ("atomics_shared", &[90], "ATOMS.ADD (opcode 0x98c) unknown"),
    // Past F2FP.F16.E4M3.UNPACK_B (runs now): sm_90 has no fp8 mma; ptxas converts to f16 for
    // HMMA and adds C with FADD, rounding where the interpreter's single-rounded sum does not.
    ("mma_fp8", &[90], "ptxas's HMMA-then-FADD rewrite of fp8 mma rounds the sum twice: word 0x2c of thread 0 is 0xbec73b97 for the interpreter's 0xbec63b97"),
    ("diverge_reconverge", &[75], "CS2R (opcode 0x805) unknown"),
    ("ordered_mem", &[75], "LD.E.STRONG.GPU (opcode 0x980) with a uniform-register address (sm_75)"),
    ("atomic_orders", &[75], "LD.E.STRONG.GPU (opcode 0x980) with a uniform-register address (sm_75)"),
];

/// Kernel/architecture pairs where our cubin is not run (ptxas's still is), with the reason.
const OUR_CUBIN_GAPS: &[(&str, &[u32], &str)] = &[];

fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// The PTX nvcc wrote for sm_80, retargeted to `sm` (ptxas refuses a `.target` above `-arch`).
fn retargeted_ptx(file: &Path, sm: u32) -> String {
    let ptx = std::fs::read_to_string(file).unwrap();
    assert!(
        ptx.contains("\n.target sm_80\n"),
        "{} does not say .target sm_80",
        file.display()
    );
    ptx.replacen("\n.target sm_80\n", &format!("\n.target sm_{sm}\n"), 1)
}

fn ptxas_cubin(name: &str, ptx: &str, sm: u32) -> Vec<u8> {
    let input = std::env::temp_dir().join(format!(
        "ptxforge-sim-kernels-{}-{name}-sm{sm}.ptx",
        std::process::id()
    ));
    std::fs::write(&input, ptx).unwrap();
    let cubin = nvtools::ptxas_cubin(&input, sm).expect("ptxas was found before");
    let _ = std::fs::remove_file(&input);
    cubin.unwrap_or_else(|e| panic!("ptxas rejected {name} for sm_{sm}: {e}"))
}

fn request(k: &Kernel, ptx: &str, sm: u32) -> SimRequest {
    SimRequest {
        ptx: ptx.to_string(),
        file_name: k.file.into(),
        entry: k.entry.into(),
        sm,
        grid: [k.grid, 1, 1],
        block: [k.block, 1, 1],
        ulps: k.ulps,
        seed: 0x6b65_726e + sm as u64,
        seed_structs: true,
        ..SimRequest::default()
    }
}

/// The reason a table gives for `entry` on `sm`, if it lists the pair.
fn listed(table: &[(&str, &[u32], &'static str)], entry: &str, sm: u32) -> Option<&'static str> {
    table
        .iter()
        .find(|(e, sms, _)| *e == entry && sms.contains(&sm))
        .map(|(_, _, why)| *why)
}

/// What one kernel/architecture run gave.
struct Outcome {
    verdict: Result<Verdict, String>,
    ours_ran: bool,
    /// Why ptxforge did not compile the kernel, when it did not.
    not_compiled: Option<String>,
}

/// Runs one kernel on one architecture: ptxas's cubin always, ours when ptxforge compiles it and
/// it is not listed in `OUR_CUBIN_GAPS`.
fn run_one(k: &Kernel, sm: u32) -> Outcome {
    let ptx = retargeted_ptx(&kernel_dir().join(k.file), sm);
    let req = request(k, &ptx, sm);
    let reference = ptxas_cubin(k.entry, &ptx, sm);
    let (ours, not_compiled) = match listed(OUR_CUBIN_GAPS, k.entry, sm) {
        Some(_) => (None, None),
        None => match compile_ours(&req) {
            Ok(cubin) => (Some(cubin), None),
            Err(e) => (None, Some(e)),
        },
    };
    if let Some(Some(Err(e))) = ours.as_deref().map(nvtools::nvdisasm_accepts) {
        return Outcome {
            verdict: Err(format!("nvdisasm rejects our cubin: {e}")),
            ours_ran: false,
            not_compiled: None,
        };
    }
    let mut cubins: Vec<(&str, &[u8])> = vec![("ptxas cubin", &reference)];
    if let Some(cubin) = &ours {
        cubins.push(("ptxforge cubin", cubin));
    }
    Outcome {
        verdict: check_cubins(&req, &cubins),
        ours_ran: ours.is_some(),
        not_compiled,
    }
}

fn describe(verdict: &Result<Verdict, String>) -> String {
    match verdict {
        Ok(v) => v.to_string(),
        Err(e) => format!("setup: {e}"),
    }
}

#[test]
fn every_instruction_kernel_agrees_on_every_architecture() {
    if nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (the kernels are checked against ptxas's cubins)");
        return;
    }
    let mut failures = Vec::new();
    let (mut asserted, mut ours_ran, mut gaps, mut gaps_agreeing) = (0, 0, 0, 0);
    for k in KERNELS {
        for &sm in ARCHS.iter().filter(|&&sm| sm >= k.min_sm) {
            let outcome = run_one(k, sm);
            let agrees = matches!(outcome.verdict, Ok(Verdict::Agree));
            if let (80, Some(why)) = (sm, &outcome.not_compiled) {
                let first = why.split("; ").next().unwrap_or_default();
                println!("{}: ptxas's cubin only ({first})", k.entry);
            }
            if let Some(gap) = listed(EMULATOR_GAPS, k.entry, sm) {
                gaps += 1;
                // The emulator's answer is not asserted, but the interpreter must still run the kernel.
                let interpreter_failed = match &outcome.verdict {
                    Ok(Verdict::Failed { runner, .. } | Verdict::Unsupported { runner, .. }) => {
                        runner == "interpreter"
                    }
                    Ok(_) => false,
                    Err(_) => true,
                };
                if interpreter_failed {
                    failures.push(format!(
                        "{} {} sm_{sm}: {}",
                        k.file,
                        k.entry,
                        describe(&outcome.verdict)
                    ));
                }
                if !agrees {
                    println!(
                        "{} sm_{sm} left out ({gap}): {}",
                        k.entry,
                        describe(&outcome.verdict)
                    );
                }
                if agrees {
                    gaps_agreeing += 1;
                    println!(
                        "{} sm_{sm} agrees now (listed as emulator gap: {gap})",
                        k.entry
                    );
                }
                continue;
            }
            asserted += 1;
            ours_ran += outcome.ours_ran as usize;
            if !agrees {
                failures.push(format!(
                    "{} {} sm_{sm}: {}",
                    k.file,
                    k.entry,
                    describe(&outcome.verdict)
                ));
            }
        }
    }
    println!(
        "{} of {asserted} asserted kernel/architecture runs agree (our cubin ran in {ours_ran}); \
         {gaps} runs left out for emulator gaps, {gaps_agreeing} of them agree now",
        asserted - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_kernel_source_has_its_ptx_and_a_launch() {
    for entry in std::fs::read_dir(kernel_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("cu") {
            continue;
        }
        let ptx = path.with_extension("ptx");
        assert!(ptx.exists(), "{} has no PTX beside it", path.display());
        let name = ptx.file_name().unwrap().to_str().unwrap();
        assert!(
            KERNELS.iter().any(|k| k.file == name),
            "no launch for {name}"
        );
    }
}

/// With `PTXFORGE_GPU_LAUNCHES=FILE`, appends every launch of `KERNELS` to FILE as `ptxforge-gpu`
/// arguments, one a line, for `scripts/gpu-check.sh` to run on a GPU (the same seeds, buffers and
/// ulps as here); without it, does nothing.
#[test]
fn write_launches_for_the_gpu_check() {
    let Some(path) = std::env::var_os("PTXFORGE_GPU_LAUNCHES") else {
        return;
    };
    let seed_base = request(&KERNELS[0], "", 0).seed;
    let lines: String = KERNELS
        .iter()
        .map(|k| {
            format!(
                "pipeline/sim/tests/kernels/{} --entry {} --grid {} --block {} --ulps {} \
                 --min-sm {} --seed-per-arch {seed_base} --seed-structs --retarget\n",
                k.file, k.entry, k.grid, k.block, k.ulps, k.min_sm
            )
        })
        .collect();
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(lines.as_bytes()).unwrap();
}
