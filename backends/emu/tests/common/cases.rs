//! The filetest kernels: inputs and reference results computed here, independently of any compiler.

use super::*;
use ptxforge_emu::Launch;

pub const CASES: &[Case] = &[
    Case {
        file: "kernels/atomic_generic.ptx",
        kernel: "atomic_generic",
        setup: super::atomic_generic_cases::atomic_generic,
    },
    Case {
        file: "kernels/atomic_generic.ptx",
        kernel: "cas16",
        setup: super::atomic_generic_cases::cas16,
    },
    Case {
        file: "kernels/match.ptx",
        kernel: "match_ops",
        setup: super::warp_match_cases::match_ops,
    },
    Case {
        file: "kernels/syscalls.ptx",
        kernel: "printf_calls",
        setup: super::syscall_cases::printf_calls,
    },
    Case {
        file: "kernels/syscalls.ptx",
        kernel: "assert_calls",
        setup: super::syscall_cases::assert_calls,
    },
    Case {
        file: "kernels/wgmma.ptx",
        kernel: "wgmma_f16",
        setup: super::wgmma_cases::wgmma_f16,
    },
    Case {
        file: "kernels/wgmma.ptx",
        kernel: "wgmma_s8",
        setup: super::wgmma_cases::wgmma_s8,
    },
    Case {
        file: "kernels/wgmma.ptx",
        kernel: "wgmma_e4m3",
        setup: super::wgmma_cases::wgmma_e4m3,
    },
    Case {
        file: "kernels/async_arrive.ptx",
        kernel: "async_arrive",
        setup: super::arrive_cases::async_arrive,
    },
    Case {
        file: "kernels/mbarrier.ptx",
        kernel: "elect",
        setup: super::sync_cases::elect,
    },
    Case {
        file: "kernels/mbarrier.ptx",
        kernel: "pipeline",
        setup: super::sync_cases::pipeline,
    },
    Case {
        file: "kernels/mbarrier.ptx",
        kernel: "phases",
        setup: super::sync_cases::phases,
    },
    Case {
        file: "kernels/cvt_pack.ptx",
        kernel: "cvt_pack",
        setup: super::mma_int_cases::cvt_pack,
    },
    Case {
        file: "kernels/mma_int75.ptx",
        kernel: "imma_s8_sat",
        setup: super::mma_int_cases::imma_s8_sat,
    },
    Case {
        file: "kernels/mma_int75.ptx",
        kernel: "imma_u8s8",
        setup: super::mma_int_cases::imma_u8s8,
    },
    Case {
        file: "kernels/mma_int75.ptx",
        kernel: "imma_s4u4_sat",
        setup: super::mma_int_cases::imma_s4u4_sat,
    },
    Case {
        file: "kernels/mma_int75.ptx",
        kernel: "bmma_xor_m8",
        setup: super::mma_int_cases::bmma_xor_m8,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "imma_16816_s8u8",
        setup: super::mma_int_cases::imma_16816_s8u8,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "imma_16832_sat",
        setup: super::mma_int_cases::imma_16832_sat,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "imma_16832_u4_sat",
        setup: super::mma_int_cases::imma_16832_u4_sat,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "imma_16864_s4",
        setup: super::mma_int_cases::imma_16864_s4,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "bmma_and_k128",
        setup: super::mma_int_cases::bmma_and_k128,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "bmma_xor_k256",
        setup: super::mma_int_cases::bmma_xor_k256,
    },
    Case {
        file: "kernels/mma_int80.ptx",
        kernel: "dmma_m8n8k4",
        setup: super::mma_int_cases::dmma_m8n8k4,
    },
    Case {
        file: "kernels/mma_int90.ptx",
        kernel: "dmma_m16n8k4",
        setup: super::mma_int_cases::dmma_m16n8k4,
    },
    Case {
        file: "kernels/mma_int90.ptx",
        kernel: "dmma_m16n8k8",
        setup: super::mma_int_cases::dmma_m16n8k8,
    },
    Case {
        file: "kernels/mma_int90.ptx",
        kernel: "dmma_m16n8k16",
        setup: super::mma_int_cases::dmma_m16n8k16,
    },
    Case {
        file: "kernels/mma75.ptx",
        kernel: "mma75",
        setup: super::mma_cases::mma75,
    },
    Case {
        file: "kernels/volta75.ptx",
        kernel: "volta75",
        setup: super::volta_cases::volta75,
    },
    Case {
        file: "kernels/stsm90.ptx",
        kernel: "stsm90",
        setup: super::volta_cases::stsm90,
    },
    Case {
        file: "kernels/mma80.ptx",
        kernel: "mma80",
        setup: super::mma_cases::mma80,
    },
    Case {
        file: "kernels/fp8.ptx",
        kernel: "fp8",
        setup: super::fp8_cases::fp8,
    },
    Case {
        file: "kernels/mma89.ptx",
        kernel: "mma89",
        setup: super::mma_cases::mma89,
    },
    Case {
        file: "kernels/async_copy.ptx",
        kernel: "async_copy",
        setup: async_copy,
    },
    Case {
        file: "kernels/ldsm75.ptx",
        kernel: "ldsm75",
        setup: ldsm75,
    },
    Case {
        file: "vadd.ptx",
        kernel: "vadd",
        setup: vadd,
    },
    Case {
        file: "saxpy.ptx",
        kernel: "saxpy",
        setup: saxpy,
    },
    Case {
        file: "addr64.ptx",
        kernel: "gather64",
        setup: gather64,
    },
    Case {
        file: "bitops.ptx",
        kernel: "bitops",
        setup: bitops,
    },
    Case {
        file: "block_reduce.ptx",
        kernel: "block_reduce",
        setup: block_reduce,
    },
    Case {
        file: "counted_loop.ptx",
        kernel: "row_sum",
        setup: row_sum,
    },
    Case {
        file: "cvt_int.ptx",
        kernel: "cvt_int",
        setup: cvt_int,
    },
    Case {
        file: "empty.ptx",
        kernel: "empty",
        setup: empty,
    },
    Case {
        file: "float_ops.ptx",
        kernel: "float_ops",
        setup: float_ops,
    },
    Case {
        file: "grid_stride.ptx",
        kernel: "grid_stride",
        setup: grid_stride,
    },
    Case {
        file: "handwritten_cvt_float.ptx",
        kernel: "k",
        setup: cvt_float,
    },
    Case {
        file: "handwritten_int64.ptx",
        kernel: "int64_ops",
        setup: int64_ops,
    },
    Case {
        file: "handwritten_preds.ptx",
        kernel: "preds",
        setup: preds,
    },
    Case {
        file: "handwritten_pred_pressure.ptx",
        kernel: "pred_pressure",
        setup: pred_pressure,
    },
    Case {
        file: "handwritten_shared.ptx",
        kernel: "shared_rev",
        setup: shared_rev,
    },
    Case {
        file: "if_else.ptx",
        kernel: "clamp_or_scale",
        setup: clamp_or_scale,
    },
    Case {
        file: "index3d.ptx",
        kernel: "index3d",
        setup: index3d,
    },
    Case {
        file: "int_minmax.ptx",
        kernel: "int_minmax",
        setup: int_minmax,
    },
    Case {
        file: "laneid.ptx",
        kernel: "laneid",
        setup: laneid,
    },
    Case {
        file: "ldg_nc.ptx",
        kernel: "ldg_nc",
        setup: ldg_nc,
    },
    Case {
        file: "mul_wide.ptx",
        kernel: "mul_wide",
        setup: mul_wide,
    },
    Case {
        file: "multi.ptx",
        kernel: "fill",
        setup: fill,
    },
    Case {
        file: "multi.ptx",
        kernel: "scale",
        setup: scale,
    },
    Case {
        file: "multi.ptx",
        kernel: "copy",
        setup: copy,
    },
    Case {
        file: "select_pred.ptx",
        kernel: "select_pred",
        setup: select_pred,
    },
    Case {
        file: "u64_compare.ptx",
        kernel: "u64_compare",
        setup: u64_compare,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "warp_ops",
        setup: warp_ops,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "atomics",
        setup: atomics,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "diverge",
        setup: diverge,
    },
    Case {
        file: "kernels/sync.ptx",
        kernel: "sync_ops",
        setup: sync_ops,
    },
    Case {
        file: "kernels/sync.ptx",
        kernel: "syncwarp_diverged",
        setup: syncwarp_diverged,
    },
    Case {
        file: "kernels/sync.ptx",
        kernel: "shfl_diverged",
        setup: diverge,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "param_index",
        setup: param_index,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "uniform_ops",
        setup: uniform_ops,
    },
    Case {
        file: "kernels/warp.ptx",
        kernel: "uniform_addr",
        setup: uniform_addr,
    },
    Case {
        file: "kernels/fp64.ptx",
        kernel: "f64_ops",
        setup: f64_ops,
    },
    Case {
        file: "kernels/fp64_imm.ptx",
        kernel: "f64_imm",
        setup: f64_imm,
    },
    Case {
        file: "kernels/cvt64.ptx",
        kernel: "cvt64",
        setup: cvt64,
    },
    Case {
        file: "kernels/fp64_round.ptx",
        kernel: "f64_round",
        setup: f64_round,
    },
    Case {
        file: "kernels/tma.ptx",
        kernel: "tma_tile",
        setup: super::tma_cases::tma_tile,
    },
    Case {
        file: "kernels/cluster.ptx",
        kernel: "cluster_sync",
        setup: super::special_cases::cluster_sync,
    },
    Case {
        file: "kernels/sm90.ptx",
        kernel: "dep_copy",
        setup: dep_copy,
    },
    Case {
        file: "kernels/sm90.ptx",
        kernel: "add_minmax",
        setup: add_minmax,
    },
    Case {
        file: "kernels/sm90.ptx",
        kernel: "uniform_prmt",
        setup: uniform_prmt,
    },
    Case {
        file: "kernels/preds.ptx",
        kernel: "many_preds",
        setup: many_preds,
    },
    Case {
        file: "kernels/control.ptx",
        kernel: "window_sum",
        setup: window_sum,
    },
    Case {
        file: "kernels/control.ptx",
        kernel: "calls",
        setup: calls,
    },
    Case {
        file: "kernels/control.ptx",
        kernel: "fib_calls",
        setup: fib_calls,
    },
    Case {
        file: "kernels/approx.ptx",
        kernel: "mufu_approx",
        setup: mufu_approx,
    },
    Case {
        file: "kernels/half_exact.ptx",
        kernel: "half_exact",
        setup: half_exact,
    },
    Case {
        file: "kernels/half_exact80.ptx",
        kernel: "half_exact80",
        setup: half_exact80,
    },
    Case {
        file: "kernels/half_set_frnd.ptx",
        kernel: "half_set_frnd",
        setup: half_set_frnd,
    },
    Case {
        file: "kernels/cvt_round.ptx",
        kernel: "cvt_round",
        setup: cvt_round,
    },
    Case {
        file: "kernels/i2i.ptx",
        kernel: "i2i_sat",
        setup: i2i_sat,
    },
    Case {
        file: "kernels/intops.ptx",
        kernel: "intops",
        setup: super::intops_cases::intops,
    },
    Case {
        file: "kernels/intops.ptx",
        kernel: "f32_atomics",
        setup: super::intops_cases::f32_atomics,
    },
    Case {
        file: "kernels/intops.ptx",
        kernel: "generic_atomics",
        setup: super::intops_cases::generic_atomics,
    },
    Case {
        file: "kernels/intops.ptx",
        kernel: "contended_max",
        setup: super::intops_cases::contended_max,
    },
    Case {
        file: "kernels/intops.ptx",
        kernel: "cas_loop",
        setup: super::intops_cases::cas_loop,
    },
    Case {
        file: "kernels/sad.ptx",
        kernel: "sad",
        setup: sad,
    },
    Case {
        file: "kernels/vabsdiff4.ptx",
        kernel: "vabsdiff4",
        setup: super::video_cases::vabsdiff4,
    },
    Case {
        file: "kernels/special_regs.ptx",
        kernel: "special_regs",
        setup: super::special_cases::special_regs,
    },
    Case {
        file: "kernels/fround.ptx",
        kernel: "f32_rounding",
        setup: f32_rounding,
    },
    Case {
        file: "kernels/fround.ptx",
        kernel: "f32_integral",
        setup: f32_integral,
    },
    Case {
        file: "kernels/frnd64.ptx",
        kernel: "f64_integral",
        setup: f64_integral,
    },
    Case {
        file: "kernels/div64.ptx",
        kernel: "div64",
        setup: super::int64_div_cases::div64,
    },
    Case {
        file: "kernels/div64.ptx",
        kernel: "div64_param",
        setup: super::int64_div_cases::div64_param,
    },
    Case {
        file: "kernels/i2f_imm.ptx",
        kernel: "i2f_imm",
        setup: super::i2f_imm_cases::i2f_imm,
    },
    Case {
        file: "kernels/bfind.ptx",
        kernel: "bfind_shf",
        setup: super::scalar_cases::bfind_shf,
    },
    Case {
        file: "kernels/atomic_f64.ptx",
        kernel: "atomic_f64",
        setup: super::scalar_cases::atomic_f64,
    },
    Case {
        file: "kernels/atomic_f64.ptx",
        kernel: "shared_fadd",
        setup: super::scalar_cases::shared_fadd,
    },
    Case {
        file: "kernels/uflo.ptx",
        kernel: "uflo_red",
        setup: super::uflo_cases::uflo_red,
    },
    Case {
        file: "kernels/yield.ptx",
        kernel: "yield_loop",
        setup: super::yield_cases::yield_loop,
    },
    Case {
        file: "kernels/fdiv.ptx",
        kernel: "f32_divide",
        setup: f32_divide,
    },
    Case {
        file: "kernels/uniform64.ptx",
        kernel: "grid_stride64",
        setup: grid_stride64,
    },
    Case {
        file: "kernels/uniform64.ptx",
        kernel: "tile64",
        setup: tile64,
    },
    Case {
        file: "kernels/uniform64.ptx",
        kernel: "byte_params",
        setup: byte_params,
    },
    Case {
        file: "kernels/uniform64.ptx",
        kernel: "tile_flag",
        setup: tile_flag,
    },
    Case {
        file: "kernels/uniform64.ptx",
        kernel: "tile_prefetch",
        setup: tile_prefetch,
    },
    Case {
        file: "kernels/generic.ptx",
        kernel: "generic_mem",
        setup: generic_mem,
    },
    Case {
        file: "handwritten_params.ptx",
        kernel: "params",
        setup: narrow_params,
    },
    Case {
        file: "kernels/local.ptx",
        kernel: "local_mem",
        setup: local_mem,
    },
];

fn floats(r: &mut Rng, n: usize, range: f32) -> Vec<f32> {
    (0..n).map(|_| r.f32(range)).collect()
}

fn words(r: &mut Rng, n: usize) -> Vec<u32> {
    (0..n).map(|_| r.u32()).collect()
}

fn grid(g: u32, b: u32) -> Launch {
    Launch {
        grid: [g, 1, 1],
        block: [b, 1, 1],
    }
}

/// `kernels/async_copy.ptx`: shared memory as the copies leave it, then each lane's ldmatrix
/// fragments as the PTX ISA lays them out (lane l: row l/4, columns 2(l%4) and 2(l%4)+1).
fn async_copy(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..256).map(|_| r.u32()).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut sh = [0u8; 1024];
    for t in 0..32 {
        let n = t & 15;
        sh[16 * t..16 * t + n].copy_from_slice(&bytes[16 * t..16 * t + n]);
        sh[512 + 8 * t..517 + 8 * t].copy_from_slice(&bytes[512 + 8 * t..517 + 8 * t]);
        if t % 2 == 1 {
            sh[768 + 4 * t..772 + 4 * t].copy_from_slice(&bytes[768 + 4 * t..772 + 4 * t]);
        }
    }
    let half = |a: usize| u16::from_le_bytes([sh[a], sh[a + 1]]) as u32;
    // One fragment of the matrix whose rows start at `rows`, for `lane`.
    let fragment = |rows: [usize; 8], lane: usize, trans: bool| {
        let (row, col) = (lane / 4, 2 * (lane % 4));
        if trans {
            half(rows[col] + 2 * row) | half(rows[col + 1] + 2 * row) << 16
        } else {
            half(rows[row] + 2 * col) | half(rows[row] + 2 * col + 2) << 16
        }
    };
    let rows = |first: usize| -> [usize; 8] { std::array::from_fn(|i| first + 16 * i) };
    let mut out = vec![0u32; 256];
    for l in 0..32 {
        for j in 0..4 {
            out[8 * l + j] = fragment(rows(128 * j), l, false);
        }
        for j in 0..2 {
            out[8 * l + 4 + j] = fragment(rows(512 + 128 * j), l, true);
        }
        out[8 * l + 6] = fragment(rows(768), l, false);
    }
    Setup {
        launch: grid(1, 32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 256]), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &input)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `kernels/ldsm75.ptx`: row t of shared memory is in[4t..4t+4]; ldmatrix x4 reads matrix j from
/// rows 8j..8j+7, x2.trans matrices 0 and 1 transposed (lane l: row l/4, columns 2(l%4) and
/// 2(l%4)+1 of its matrix).
fn ldsm75(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    let half = |row: usize, col: usize| (input[4 * row + col / 2] >> (16 * (col % 2))) & 0xffff;
    let mut out = vec![0u32; 256];
    for l in 0..32 {
        let (row, col) = (l / 4, 2 * (l % 4));
        for j in 0..4 {
            out[8 * l + j] = half(8 * j + row, col) | half(8 * j + row, col + 1) << 16;
        }
        for j in 0..2 {
            out[8 * l + 4 + j] = half(8 * j + col, row) | half(8 * j + col + 1, row) << 16;
        }
    }
    Setup {
        launch: grid(1, 32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 256]), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &input)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn vadd(r: &mut Rng) -> Setup {
    let (a, b, c) = (
        floats(r, 128, 100.0),
        floats(r, 128, 100.0),
        floats(r, 128, 1.0),
    );
    let n = 100;
    let mut e = c.clone();
    (0..n).for_each(|i| e[i] = a[i] + b[i]);
    Setup {
        launch: grid(2, 64),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u32(n as u32)
            .0,
        buffers: vec![buf_f32(0, &a), buf_f32(1, &b), buf_f32(2, &c)],
        expected: vec![buf_f32(0, &a), buf_f32(1, &b), buf_f32(2, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn saxpy(r: &mut Rng) -> Setup {
    let (x, y) = (floats(r, 128, 10.0), floats(r, 128, 10.0));
    let (n, a) = (100, r.f32(4.0));
    let mut e = y.clone();
    (0..n).for_each(|i| e[i] = a.mul_add(x[i], y[i]));
    Setup {
        launch: grid(2, 64),
        params: Params::default()
            .u32(n as u32)
            .f32(a)
            .u64(addr(0))
            .u64(addr(1))
            .0,
        buffers: vec![buf_f32(0, &x), buf_f32(1, &y)],
        expected: vec![buf_f32(0, &x), buf_f32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn gather64(r: &mut Rng) -> Setup {
    let src: Vec<u64> = (0..64).map(|_| r.next()).collect();
    let idx: Vec<u64> = (0..128).map(|_| r.next() % 64).collect();
    let dst: Vec<u64> = (0..128).map(|_| r.next()).collect();
    let n = 90u64;
    let mut e = dst.clone();
    (0..n as usize).for_each(|i| e[i] = src[idx[i] as usize].wrapping_add(i as u64));
    Setup {
        launch: grid(2, 64),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u64(n)
            .0,
        buffers: vec![buf_u64(0, &src), buf_u64(1, &dst), buf_u64(2, &idx)],
        expected: vec![buf_u64(0, &src), buf_u64(1, &e), buf_u64(2, &idx)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn bitops(r: &mut Rng) -> Setup {
    let a = words(r, 64);
    let sh = r.u32() % 32;
    let e: Vec<u32> = a
        .iter()
        .map(|&x| ((x & 0xff00) | (x << 3)) ^ !(x >> sh) ^ ((x as i32) >> 5) as u32)
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(sh).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn block_reduce(r: &mut Rng) -> Setup {
    let input = floats(r, 512, 10.0);
    let mut out = vec![0f32; 2];
    for (b, o) in out.iter_mut().enumerate() {
        let mut buf = input[b * 256..b * 256 + 256].to_vec();
        let mut s = 128;
        while s > 0 {
            (0..s).for_each(|t| buf[t] += buf[t + s]);
            s >>= 1;
        }
        *o = buf[0];
    }
    Setup {
        launch: grid(2, 256),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_f32(0, &input), buf_f32(1, &[0.0; 2])],
        expected: vec![buf_f32(0, &input), buf_f32(1, &out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn row_sum(r: &mut Rng) -> Setup {
    let (rows, cols) = (4usize, 37usize);
    let m = words(r, rows * cols);
    let e: Vec<u32> = (0..rows)
        .map(|row| {
            m[row * cols..row * cols + cols]
                .iter()
                .fold(0u32, |s, &v| s.wrapping_add(v))
        })
        .collect();
    Setup {
        launch: grid(rows as u32, 32),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u32(cols as u32)
            .0,
        buffers: vec![buf_u32(0, &m), buf_u32(1, &[0; 4])],
        expected: vec![buf_u32(0, &m), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn cvt_int(r: &mut Rng) -> Setup {
    let c: Vec<u8> = (0..64).map(|_| r.u32() as u8).collect();
    let s: Vec<u8> = (0..128).map(|_| r.u32() as u8).collect();
    let us: Vec<u8> = (0..128).map(|_| r.u32() as u8).collect();
    let t = words(r, 64);
    let mut out = vec![0u64; 64];
    let mut te = t.clone();
    for i in 0..64 {
        let sv = i16::from_le_bytes([s[2 * i], s[2 * i + 1]]) as i64;
        let uv = u16::from_le_bytes([us[2 * i], us[2 * i + 1]]) as i64;
        let o = c[i] as i8 as i64 + sv + uv;
        out[i] = o as u64;
        te[i] = ((o >> 3) as i16 as i32).wrapping_add(t[i] as u8 as i8 as i32) as u32;
    }
    let p = Params::default()
        .u64(addr(0))
        .u64(addr(1))
        .u64(addr(2))
        .u64(addr(3))
        .u64(addr(4))
        .0;
    let ins = vec![buf_bytes(0, c), buf_bytes(1, s), buf_bytes(2, us)];
    let mut buffers = ins.clone();
    buffers.extend([buf_u64(3, &[0; 64]), buf_u32(4, &t)]);
    let mut expected = ins;
    expected.extend([buf_u64(3, &out), buf_u32(4, &te)]);
    Setup {
        launch: grid(1, 64),
        params: p,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn empty(_: &mut Rng) -> Setup {
    Setup {
        launch: grid(2, 32),
        params: vec![],
        buffers: vec![],
        expected: vec![],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn nonzero_floats(r: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| loop {
            let v = r.f32(8.0);
            if v != 0.0 {
                break v;
            }
        })
        .collect()
}

fn float_ops(r: &mut Rng) -> Setup {
    let (a, b) = (nonzero_floats(r, 64), nonzero_floats(r, 64));
    let mut e = vec![0f32; 192];
    for i in 0..64 {
        let (x, y) = (a[i], b[i]);
        e[3 * i] = x.min(y) - y.abs();
        e[3 * i + 1] = (-x).max(y);
        e[3 * i + 2] = x.mul_add(y, 1.5) * x;
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![buf_f32(0, &a), buf_f32(1, &b), buf_f32(2, &[0.0; 192])],
        expected: vec![buf_f32(0, &a), buf_f32(1, &b), buf_f32(2, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn grid_stride(r: &mut Rng) -> Setup {
    let (x, y) = (floats(r, 160, 10.0), floats(r, 160, 10.0));
    let n = 150;
    let mut e = y.clone();
    (0..n).for_each(|i| e[i] = x[i].mul_add(2.0, y[i]));
    Setup {
        launch: grid(2, 32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(n as u32).0,
        buffers: vec![buf_f32(0, &x), buf_f32(1, &y)],
        expected: vec![buf_f32(0, &x), buf_f32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn cvt_float(r: &mut Rng) -> Setup {
    let i1 = r.u32();
    let f1 = r.f32(3.0e9);
    let f2 = i1 as i32 as f32;
    let f3 = i1 as f32;
    let (r2, r3, r4) = (
        f1 as i32 as u32,
        f1 as u32,
        f1.round_ties_even() as i32 as u32,
    );
    let input = [i1, f1.to_bits(), 0, 0];
    let e = [
        (f2 + f3).to_bits(),
        f1.to_bits(),
        r2.wrapping_add(r3).wrapping_add(r4),
        0,
    ];
    Setup {
        launch: grid(1, 1),
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &input)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn int64_ops(r: &mut Rng) -> Setup {
    let (a, b) = (r.next() >> (r.next() % 64), r.next() >> (r.next() % 64));
    let d5 = a.wrapping_sub(b);
    let d6 = d5.wrapping_neg();
    let d7 = (d5 as i64).min(d6 as i64) as u64;
    let d9 = a.max(b).wrapping_sub(1);
    let d10 = if (d7 as i64) > (d9 as i64) { d7 } else { d9 };
    Setup {
        launch: grid(1, 1),
        params: Params::default().u64(addr(0)).u64(a).u64(b).0,
        buffers: vec![buf_u64(0, &[0; 2])],
        expected: vec![buf_u64(0, &[d10, d6])],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn preds(_: &mut Rng) -> Setup {
    let (a, b) = (40i32, 5i32);
    let mut out = vec![0u8; 64 * 8];
    let mut per_thread = Vec::new();
    for t in 0..32i32 {
        let p1 = t < a;
        let p2 = t != b && p1;
        let p3 = t == 7 || p2;
        let p5 = !p3 ^ p1;
        let r4 = if p5 { a } else { b };
        let r5 = r4.wrapping_neg();
        let r7 = (r5.wrapping_abs() as u32).max(t as u32);
        let rd6 = ((r5 as i64) >> 3).checked_shl(a as u32).unwrap_or(0) as u64;
        per_thread.push((p1, p2, r7, rd6));
    }
    for &(_, p2, r7, rd6) in &per_thread {
        if !p2 {
            let at = r7 as usize * 8;
            out[at..at + 8].copy_from_slice(&rd6.to_le_bytes());
        }
    }
    for &(p1, _, r7, _) in &per_thread {
        if !p1 {
            out[4..8].copy_from_slice(&r7.to_le_bytes());
        }
    }
    Setup {
        launch: grid(1, 32),
        params: Params::default().u64(addr(0)).u32(a as u32).u32(b as u32).0,
        buffers: vec![buf_bytes(0, vec![0; 64 * 8])],
        expected: vec![buf_bytes(0, out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Eleven predicates live across a four-trip loop (ptxas keeps some with P2R, ptxforge with SEL).
fn pred_pressure(r: &mut Rng) -> Setup {
    let n = 9u32;
    let input = words(r, 64);
    let out: Vec<u32> = (0..64u32)
        .map(|t| {
            let r3 = input[t as usize];
            let r4 = r3 & 255;
            let (p1, p2, mut p3) = (r4 < 128, r4 < 64, r4 < 200);
            let (p4, p5, p6) = (t > 7, t > 20, n == t);
            let (p7, p8, p9) = (r3 & 256 != 0, r3 & 512 == 0, (r3 as i32) < 0);
            let p10 = if p1 { r4 < 32 } else { r4 > 250 };
            let p11 = t != 3 && p9;
            let mut r7 = 0u32;
            for _ in 0..4 {
                let adds = [
                    (p1, 1),
                    (p2, 2),
                    (!p3, 4),
                    (p4, 8),
                    (p5, 16),
                    (p6, 32),
                    (p7, 64),
                    (p8, 128),
                    (p9, 256),
                    (p10, 512),
                    (p11, 1024),
                ];
                r7 += adds.iter().filter(|a| a.0).map(|a| a.1).sum::<u32>();
                r7 += if p1 ^ p8 { 3 } else { 5 };
                if p3 {
                    p3 = r7 < 3000;
                }
            }
            let mut r10 = p3 as u32;
            if !p2 {
                r10 += if p11 { 7 } else { 9 };
            }
            (r7 << 4).wrapping_add(r10)
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(n).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn shared_rev(r: &mut Rng) -> Setup {
    let io = words(r, 128);
    let e: Vec<u32> = (0..128)
        .map(|t| (io[127 - t] as u16 as i16 as i32).wrapping_add(io[1] as i32) as u32)
        .collect();
    Setup {
        launch: grid(1, 128),
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &io)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn clamp_or_scale(r: &mut Rng) -> Setup {
    let v = floats(r, 128, 10.0);
    let (lo, n) = (r.f32(5.0), 100);
    let mut e = v.clone();
    for x in e.iter_mut().take(n) {
        *x = if *x < lo {
            lo + lo
        } else {
            x.mul_add(0.5, -1.0)
        };
    }
    Setup {
        launch: grid(2, 64),
        params: Params::default().u64(addr(0)).f32(lo).u32(n as u32).0,
        buffers: vec![buf_f32(0, &v)],
        expected: vec![buf_f32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn index3d(_: &mut Rng) -> Setup {
    let (g, b) = ([2u32, 2, 2], [4u32, 2, 2]);
    let (w, h, d) = (g[0] * b[0], g[1] * b[1], g[2] * b[2]);
    let mut e = vec![0u32; (w * h * d) as usize];
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                e[((z * h + y) * w + x) as usize] = x + y * 3 + z * 5 + g[2];
            }
        }
    }
    Setup {
        launch: Launch { grid: g, block: b },
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &vec![0; e.len()])],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn int_minmax(r: &mut Rng) -> Setup {
    let (a, b) = (words(r, 64), words(r, 64));
    let mut e = vec![0u32; 256];
    for i in 0..64 {
        let (x, y) = (a[i] as i32, b[i] as i32);
        e[4 * i] = x.min(y) as u32;
        e[4 * i + 1] = x.max(y) as u32;
        e[4 * i + 2] = x.wrapping_abs().wrapping_sub(y) as u32;
        e[4 * i + 3] = x
            .wrapping_neg()
            .wrapping_add((x as u32).min(y as u32) as i32) as u32;
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &b), buf_u32(2, &[0; 256])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &b), buf_u32(2, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn laneid(_: &mut Rng) -> Setup {
    let e: Vec<u32> = (0..64).map(|t| t % 32).collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &[0; 64])],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn ldg_nc(r: &mut Rng) -> Setup {
    let a = floats(r, 64, 100.0);
    let e: Vec<f32> = (0..32).map(|i| a[i] + a[i + 32]).collect();
    Setup {
        launch: grid(1, 32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_f32(0, &a), buf_f32(1, &[0.0; 32])],
        expected: vec![buf_f32(0, &a), buf_f32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn mul_wide(r: &mut Rng) -> Setup {
    let (a, b) = (words(r, 33), words(r, 33));
    let mut w = vec![0u64; 32];
    let (mut h, mut hu) = (vec![0u32; 32], vec![0u32; 32]);
    for i in 0..32 {
        let (x, y) = (a[i] as i32 as i64, a[i + 1] as i32 as i64);
        w[i] = x.wrapping_mul(12345).wrapping_add(x.wrapping_mul(y)) as u64;
        h[i] = ((x * y) >> 32) as u32;
        hu[i] = (((b[i] as u64 * b[i + 1] as u64) >> 32) as u32)
            .wrapping_add(b[i].wrapping_mul(7))
            .wrapping_add(3);
    }
    let p = Params::default()
        .u64(addr(0))
        .u64(addr(1))
        .u64(addr(2))
        .u64(addr(3))
        .u64(addr(4))
        .0;
    let ins = vec![buf_u32(0, &a), buf_u32(1, &b)];
    let mut buffers = ins.clone();
    buffers.extend([
        buf_u64(2, &[0; 32]),
        buf_u32(3, &[0; 32]),
        buf_u32(4, &[0; 32]),
    ]);
    let mut expected = ins;
    expected.extend([buf_u64(2, &w), buf_u32(3, &h), buf_u32(4, &hu)]);
    Setup {
        launch: grid(1, 32),
        params: p,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn fill(r: &mut Rng) -> Setup {
    let v = r.u32();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u32(v).0,
        buffers: vec![buf_u32(0, &[0; 64])],
        expected: vec![buf_u32(0, &[v; 64])],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn scale(r: &mut Rng) -> Setup {
    let p = floats(r, 64, 100.0);
    let s = r.f32(3.0);
    let e: Vec<f32> = p.iter().map(|x| x * s).collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).f32(s).0,
        buffers: vec![buf_f32(0, &p)],
        expected: vec![buf_f32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn copy(r: &mut Rng) -> Setup {
    let a = words(r, 64);
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &a)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn select_pred(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..64)
        .map(|_| ((r.u32() % 200) as i32 - 100) as u32)
        .collect();
    let f: Vec<f32> = (0..64)
        .map(|k| if k % 9 == 0 { f32::NAN } else { r.f32(2.0) })
        .collect();
    let (lo, hi) = (-30i32, 40i32);
    let e: Vec<u32> = (0..64)
        .map(|i| {
            let x = a[i] as i32;
            let inside = x >= lo && x < hi;
            let pos = f[i] > 0.0 || f[i].is_nan();
            if inside {
                if pos {
                    1
                } else {
                    2
                }
            } else {
                x as u32
            }
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u32(lo as u32)
            .u32(hi as u32)
            .0,
        buffers: vec![buf_u32(0, &a), buf_f32(1, &f), buf_u32(2, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_f32(1, &f), buf_u32(2, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn u64_compare(r: &mut Rng) -> Setup {
    let a: Vec<u64> = (0..64).map(|_| r.next() >> (r.next() % 8)).collect();
    let lim = 1u64 << 61;
    let e: Vec<u32> = a
        .iter()
        .map(|&v| {
            if v < lim {
                (v & 0xffff) as u32
            } else {
                (v >> 40) as u32
            }
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(lim).u64(addr(1)).0,
        buffers: vec![buf_u64(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u64(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn warp_ops(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..64)
        .map(|k| {
            if k % 13 == 5 {
                0
            } else {
                r.u32() >> (r.u32() % 4)
            }
        })
        .collect();
    let mut e = vec![0u32; 512];
    for t in 0..64 {
        let (base, lane) = (t & !31, t % 32);
        let x = a[t];
        let warp = &a[base..base + 32];
        let ffs = if x == 0 { 0 } else { x.trailing_zeros() + 1 };
        e[8 * t] = x.count_ones() | x.leading_zeros() << 8 | ffs << 16;
        e[8 * t + 1] = x.reverse_bits();
        e[8 * t + 2] = warp[lane ^ 1];
        e[8 * t + 3] = if lane + 3 <= 31 { warp[lane + 3] } else { x };
        e[8 * t + 4] = if lane >= 5 { warp[lane - 5] } else { x };
        e[8 * t + 5] = warp[(x & 31) as usize];
        e[8 * t + 6] = (0..32)
            .filter(|&l| warp[l] & 1 == 1)
            .fold(0, |m, l| m | 1 << l);
        e[8 * t + 7] = warp.iter().any(|&v| v > 0xf000_0000) as u32
            | ((warp.iter().all(|&v| v != 0) as u32) << 1);
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 512])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn sync_ops(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..64)
        .map(|k| {
            if k == 17 {
                0
            } else if k < 32 {
                r.u32() | 0x8000_0000
            } else {
                r.u32()
            }
        })
        .collect();
    let any = a.iter().any(|&x| x & 1 == 1) as u32;
    let all = a.iter().all(|&x| x != 0) as u32;
    let cnt = a.iter().filter(|&&x| x & 2 != 0).count() as u32;
    let mut e = vec![0u32; 512];
    for t in 0..64 {
        let (base, lane) = (t & !31, t % 32);
        let top = |x: u32| x >> 31;
        let uni = a[base..base + 32].iter().all(|&x| top(x) == top(a[base])) as u32;
        let le = ((1u64 << (lane + 1)) - 1) as u32;
        e[8 * t..8 * t + 8].copy_from_slice(&[
            any | all << 1 | uni << 2,
            cnt,
            1 << lane,
            (1 << lane) - 1,
            le,
            !le,
            !((1u32 << lane) - 1),
            a[t],
        ]);
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 512])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn syncwarp_diverged(r: &mut Rng) -> Setup {
    let a = words(r, 64);
    let s: Vec<u32> = a
        .iter()
        .map(|&x| if x & 1 == 1 { x.wrapping_mul(3) } else { x + 1 })
        .collect();
    let e: Vec<u32> = (0..64)
        .map(|t| {
            if a[t] & 1 == 1 {
                s[t ^ 1]
            } else {
                s[t ^ 1] ^ 5
            }
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn atomics(r: &mut Rng) -> Setup {
    let a: Vec<u32> = (0..64).map(|_| r.u32() >> 4).collect();
    let g0 = [r.u32(), r.u32() >> 8, 1000, 0];
    let mut hist = [0u32; 16];
    a.iter().for_each(|&v| hist[(v & 15) as usize] += 1);
    let g = [
        a.iter().fold(g0[0], |s, &v| s.wrapping_add(v)),
        a.iter()
            .map(|&v| v as i32)
            .chain([g0[1] as i32])
            .max()
            .unwrap_or(0) as u32,
        g0[2] + 64,
        7,
    ];
    let old: Vec<u32> = (0..64).map(|k| g0[2] + k).collect();
    let p = Params::default()
        .u64(addr(0))
        .u64(addr(1))
        .u64(addr(2))
        .u64(addr(3))
        .0;
    Setup {
        launch: grid(1, 64),
        params: p,
        buffers: vec![
            buf_u32(0, &g0),
            buf_u32(1, &[0; 16]),
            buf_u32(2, &a),
            buf_u32(3, &[0; 64]),
        ],
        expected: vec![
            buf_u32(0, &g),
            buf_u32(1, &hist),
            buf_u32(2, &a),
            buf_u32(3, &old),
        ],
        f32_ulps: 0,
        unordered: vec![3],
    }
}

fn diverge(r: &mut Rng) -> Setup {
    let a = words(r, 64);
    let v: Vec<u32> = (0..64u32)
        .map(|t| {
            let mut v = a[t as usize];
            for k in 0..v % 37 {
                v = v.wrapping_mul(3).wrapping_add(k);
            }
            if t & 1 == 1 {
                v ^ 0x5555
            } else {
                v.wrapping_add(t)
            }
        })
        .collect();
    let e: Vec<u32> = (0..64).map(|t| v[t].wrapping_add(v[t ^ 2])).collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn param_index(r: &mut Rng) -> Setup {
    let table = words(r, 16);
    let mut p = Params::default();
    for &v in &table {
        p = p.u32(v);
    }
    let e: Vec<u32> = (0..32).map(|t| table[t & 15]).collect();
    Setup {
        launch: grid(1, 32),
        params: p.u64(addr(0)).0,
        buffers: vec![buf_u32(0, &[0; 32])],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn uniform_ops(r: &mut Rng) -> Setup {
    let (base, shift) = (r.next() as i64 >> 8, r.u32() as i32);
    let (grid_x, block_x) = (3u32, 32u32);
    let mut e = vec![0u64; (grid_x * block_x) as usize];
    for b in 0..grid_x {
        let cta = (b as i64)
            .wrapping_mul(block_x as i64)
            .wrapping_mul(12345)
            .wrapping_add(base);
        let s = cta.wrapping_shl((shift & 31) as u32);
        let m = ((b ^ 0xff) & shift as u32) as i64;
        for t in 0..block_x {
            let acc = (0..(t & 3) as i64).fold(0i64, |acc, k| {
                acc.wrapping_add(s.wrapping_add(m).wrapping_add(k))
            });
            e[(b * block_x + t) as usize] = acc.wrapping_add(cta) as u64;
        }
    }
    Setup {
        launch: Launch {
            grid: [grid_x, 1, 1],
            block: [block_x, 1, 1],
        },
        params: Params::default()
            .u64(addr(0))
            .u64(base as u64)
            .u32(shift as u32)
            .0,
        buffers: vec![buf_u64(0, &vec![0; e.len()])],
        expected: vec![buf_u64(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn uniform_addr(r: &mut Rng) -> Setup {
    let ld = 100 + (r.u32() % 64) as i32;
    let n = 90 + (r.u32() % 10) as i32;
    let input = words(r, 2 * ld as usize);
    let mut e = vec![0u32; 64];
    for b in 0..2usize {
        let row = &input[b * ld as usize..];
        for t in 0..32usize {
            let s = (t..n as usize)
                .step_by(32)
                .fold(0i32, |s, j| s.wrapping_add(row[j] as i32));
            let tail = (((ld as i64 as u64) << 35) >> 40) as i32;
            e[b * 32 + t] = s.wrapping_add(ld >> 3).wrapping_add(tail) as u32;
        }
    }
    Setup {
        launch: grid(2, 32),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u32(n as u32)
            .u32(ld as u32)
            .0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn f64_bytes(v: f64) -> [u8; 8] {
    v.to_bits().to_le_bytes()
}

/// clamp: start and width clamp at 32; wrap: both taken modulo 32.
fn bit_mask(start: u32, width: u32, wrap: bool) -> u32 {
    let (s, w) = if wrap {
        (start % 32, width % 32)
    } else {
        (start.min(32), width.min(32))
    };
    ((((1u64 << w) - 1) << s) & 0xffff_ffff) as u32
}

fn f64_ops(r: &mut Rng) -> Setup {
    let n = 64;
    // Nonzero values (the sign of a zero min/max is not asserted here).
    let value = |r: &mut Rng| match r.f32(100.0) as f64 * (1.0 + r.u32() as f64 / 4294967296.0) {
        0.0 => 1.5,
        v => v,
    };
    let a: Vec<f64> = (0..n).map(|_| value(r)).collect();
    // Every fourth b equals a (ties of min, max and the compares).
    let b: Vec<f64> = (0..n)
        .map(|k| if k % 4 == 3 { a[k] } else { value(r) })
        .collect();
    let w = words(r, n);
    let (s, len) = (r.u32() % 40, r.u32() % 40);
    let mut e = Vec::with_capacity(96 * n);
    for t in 0..n {
        let (x, y) = (a[t], b[t]);
        let (sum, prod) = (x + y, x * y);
        let (fma, diff) = (x.mul_add(y, sum), prod - x);
        let min = if x < y { x } else { y };
        let max = if x > y { x } else { y };
        for v in [
            sum,
            prod,
            fma,
            diff,
            max,
            min,
            if x < y { sum } else { prod },
            -diff.abs(),
        ] {
            e.extend_from_slice(&f64_bytes(v));
        }
        let (start, width) = (w[t] & 31, (w[t] >> 5) & 63);
        let hi = f32::from_bits((x.to_bits() >> 32) as u32);
        let sel = if hi > 0.0 { hi } else { 1.0 };
        for v in [
            bit_mask(start, width, false),
            bit_mask(width, start, true),
            bit_mask(s, len, false).wrapping_add(t as u32),
            0,
            sel.to_bits(),
            (fma != diff) as u32,
        ] {
            e.extend_from_slice(&v.to_le_bytes());
        }
        e.extend_from_slice(&[0; 8]);
    }
    let bytes = |v: &[f64]| v.iter().flat_map(|&x| f64_bytes(x)).collect::<Vec<u8>>();
    let p = Params::default()
        .u64(addr(0))
        .u64(addr(1))
        .u64(addr(2))
        .u64(addr(3))
        .u32(s)
        .u32(len)
        .0;
    let inputs = vec![
        buf_bytes(0, bytes(&a)),
        buf_bytes(1, bytes(&b)),
        buf_u32(2, &w),
    ];
    let mut buffers = inputs.clone();
    buffers.push(buf_bytes(3, vec![0; 96 * n]));
    let mut expected = inputs;
    expected.push(buf_bytes(3, e));
    Setup {
        launch: grid(1, n as u32),
        params: p,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn f64_imm(r: &mut Rng) -> Setup {
    let n = 64;
    // Nonzero finite values, some equal to the immediates the kernel compares with (ties).
    let value = |r: &mut Rng| match r.u32() % 8 {
        0 => [-2.0, 1.5, 0.25][r.u32() as usize % 3],
        _ => match r.f32(100.0) as f64 * (1.0 + r.u32() as f64 / 4294967296.0) {
            0.0 => 1.5,
            v => v,
        },
    };
    let a: Vec<f64> = (0..2 * n).map(|_| value(r)).collect();
    let mut e = Vec::with_capacity(48 * n);
    for t in 0..n {
        let (x, y) = (a[2 * t], a[2 * t + 1]);
        let max = if -x > y { -x } else { y };
        let min = if -y.abs() < x { -y.abs() } else { x };
        for v in [max, min, x + 2.5, y * -4.0, x.mul_add(0.5, y)] {
            e.extend_from_slice(&f64_bytes(v));
        }
        let flags = (x >= -2.0) as u32 | ((y < 1.5) as u32) << 1 | ((x != 0.25) as u32) << 2;
        e.extend_from_slice(&flags.to_le_bytes());
        e.extend_from_slice(&[0; 4]);
    }
    let input = buf_bytes(0, a.iter().flat_map(|&x| f64_bytes(x)).collect());
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![input.clone(), buf_bytes(1, vec![0; 48 * n])],
        expected: vec![input, buf_bytes(1, e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// f64 to f32 rounded by `rm` (0 RN, 1 RM, 2 RP, 3 RZ): the nearest, stepped when it lies on the
/// wrong side of `d`.
fn f64_to_f32(d: f64, rm: u32) -> f32 {
    let near = d as f32;
    let step = |up: bool| {
        f32::from_bits(if (near > 0.0) == up {
            near.to_bits() + 1
        } else {
            near.to_bits() - 1
        })
    };
    let above = near as f64 > d;
    match rm {
        _ if near as f64 == d => near,
        1 if above => step(false),
        2 if !above => step(true),
        3 if above && d > 0.0 => step(false),
        3 if !above && d < 0.0 => step(true),
        _ => near,
    }
}

/// An integer to f64 rounded by `rm`, stepped from the nearest as `f64_to_f32`.
fn int_to_f64(v: i128, rm: u32) -> f64 {
    let near = v as f64;
    let step = |up: bool| {
        f64::from_bits(if (near > 0.0) == up {
            near.to_bits() + 1
        } else {
            near.to_bits() - 1
        })
    };
    let above = near as i128 > v;
    match rm {
        _ if near as i128 == v => near,
        1 if above => step(false),
        2 if !above => step(true),
        3 if above && v > 0 => step(false),
        3 if !above && v < 0 => step(true),
        _ => near,
    }
}

fn cvt64(r: &mut Rng) -> Setup {
    let n = 64;
    let d: Vec<f64> = (0..n)
        .map(|_| (r.next() as i64 as f64) / 8388608.0)
        .collect();
    let ints: Vec<u64> = (0..n)
        .map(|k| {
            if k % 2 == 0 {
                r.next()
            } else {
                r.next() >> (r.u32() % 40)
            }
        })
        .collect();
    // f32 bit patterns without NaNs (the payload rule of F2F is not asserted here).
    let w: Vec<u32> = (0..n)
        .map(|_| r.u32())
        .map(|x| {
            if x >> 23 & 0xff == 0xff {
                x & !0x0080_0000
            } else {
                x
            }
        })
        .collect();
    let mut e = Vec::with_capacity(80 * n);
    for t in 0..n {
        let (x, v, bits) = (d[t], ints[t], w[t]);
        for rm in 0..4 {
            e.extend_from_slice(&f64_to_f32(x, [0, 3, 1, 2][rm]).to_bits().to_le_bytes());
        }
        e.extend_from_slice(&(x.round_ties_even() as i32).to_le_bytes());
        e.extend_from_slice(&(x.floor() as u32).to_le_bytes());
        e.extend_from_slice(&(x.ceil() as i64).to_le_bytes());
        e.extend_from_slice(&(x.trunc() as u64).to_le_bytes());
        let (signed, unsigned) = (v as i64 as i128, v as i128);
        e.extend_from_slice(&f64_bytes(int_to_f64(signed, 0) + int_to_f64(unsigned, 3)));
        e.extend_from_slice(&f64_bytes(int_to_f64(signed, 1) + int_to_f64(unsigned, 2)));
        let f = f32::from_bits(bits);
        let mix = (bits as i32 as f64).to_bits()
            ^ (f as f64).to_bits()
            ^ (f.trunc() as i64 as u64)
            ^ (bits as f64).to_bits();
        e.extend_from_slice(&mix.to_le_bytes());
        e.extend_from_slice(&(v as f32).to_bits().to_le_bytes());
        e.extend_from_slice(&[0; 12]);
    }
    let inputs = vec![
        buf_bytes(0, d.iter().flat_map(|&x| f64_bytes(x)).collect()),
        buf_u64(1, &ints),
        buf_u32(2, &w),
    ];
    let mut buffers = inputs.clone();
    buffers.push(buf_bytes(3, vec![0; 80 * n]));
    let mut expected = inputs;
    expected.push(buf_bytes(3, e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u64(addr(3))
            .0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Integer-valued operands, so that every exact sum, product and fma is an i128 rounded once by
/// `int_to_f64` in the mode under test.
fn f64_round(r: &mut Rng) -> Setup {
    let n = 40;
    let ints: Vec<f64> = (0..3 * n)
        .map(|_| (r.next() as i64 >> (2 + r.u32() % 30)) as f64)
        .collect();
    let mut e = Vec::with_capacity(96 * n);
    for t in 0..n {
        let (a, b, c) = (
            ints[3 * t] as i128,
            ints[3 * t + 1] as i128,
            ints[3 * t + 2] as i128,
        );
        let (rn, rm, rp, rz) = (0, 1, 2, 3);
        let sub = if ints[3 * t] == 0.0 { 0.0 } else { -0.0 };
        let values = [
            int_to_f64(a + b, rn),
            int_to_f64(a + b, rz),
            int_to_f64(a + b, rm),
            int_to_f64(a + b, rp),
            int_to_f64(a * b, rz),
            int_to_f64(a * b, rm),
            int_to_f64(a * b, rp),
            int_to_f64(a * b + c, rz),
            int_to_f64(a * b + c, rm),
            int_to_f64(a * b + c, rp),
            sub,
            int_to_f64(a * b + c, rn),
        ];
        values
            .iter()
            .for_each(|&v| e.extend_from_slice(&f64_bytes(v)));
    }
    let input = buf_bytes(0, ints.iter().flat_map(|&x| f64_bytes(x)).collect());
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![input.clone(), buf_bytes(1, vec![0; 96 * n])],
        expected: vec![input, buf_bytes(1, e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn dep_copy(r: &mut Rng) -> Setup {
    let a = words(r, 64);
    let e: Vec<u32> = a.iter().map(|v| v.wrapping_add(1)).collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn many_preds(r: &mut Rng) -> Setup {
    let n = 64;
    let input: Vec<u32> = (0..10 * n).map(|_| r.u32() % 8).collect();
    let out = words(r, 4 * n);
    let mut e = out.clone();
    for t in 0..n {
        let v = &input[10 * t..10 * t + 10];
        let p: Vec<bool> = (0..10).map(|k| v[k] < v[(k + 1) % 10]).collect();
        for k in 0..10 {
            if p[k] {
                e[4 * t] = e[4 * t].wrapping_add(1 << k);
                e[4 * t + 1] = e[4 * t + 1].wrapping_add(1 << (9 - k));
            }
        }
    }
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &out)],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn add_minmax(r: &mut Rng) -> Setup {
    let n = 64;
    // Small and large magnitudes, so that sums wrap and signed and unsigned orders differ.
    let input: Vec<u32> = (0..3 * n)
        .map(|k| if k % 5 == 0 { r.u32() } else { r.u32() % 3000 })
        .collect();
    let limit = r.u32() % 4000;
    let mut e = Vec::with_capacity(3 * n);
    for t in 0..n {
        let (a, b, c) = (input[3 * t], input[3 * t + 1], input[3 * t + 2]);
        e.push((a.wrapping_sub(b) as i32).min(c as i32) as u32);
        e.push(a.wrapping_add(c).max(1000));
        e.push(b.wrapping_add(c).min(limit));
    }
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(limit).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &vec![0; 3 * n])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn uniform_prmt(r: &mut Rng) -> Setup {
    let mut input = words(r, 64);
    input[0] = r.u32() % 64;
    let (c, n) = (r.u32(), r.u32() % 64);
    let e: Vec<u32> = input
        .iter()
        .map(|v| {
            v.wrapping_add(c as u8 as i8 as i32 as u32)
                .wrapping_add(input[0].min(n))
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(c).u32(n).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// MUFU's eight f32 functions against f64 references, within 32 ulps: the emulator rounds an f64
/// result (at most 1 ulp off), and ptxas's sin/cos first multiply x by 1/(2 pi) rounded to f32
/// (relative error 4e-8) with FMUL.RZ (up to 1 ulp more), which for x in [0.25, 1.5) moves cos by
/// up to about 21 ulps (cos(1.5) ~ 0.07 is the worst; 19 seen). The hardware's own tables are only
/// bounded by the PTX ISA (ex2/lg2 2 ulp, rcp/rsqrt 1 ulp, sin/cos 2^-20.5 absolute, tanh 2^-11
/// relative).
fn mufu_approx(r: &mut Rng) -> Setup {
    let n = 64;
    let x: Vec<f32> = (0..n)
        .map(|_| 0.25 + (r.u32() % (1 << 20)) as f32 / (1 << 20) as f32 * 1.25)
        .collect();
    let mut e = Vec::with_capacity(8 * n);
    for &v in &x {
        let d = v as f64;
        e.extend(
            [
                d.exp2(),
                d.log2(),
                1.0 / d,
                1.0 / d.sqrt(),
                d.sqrt(),
                d.sin(),
                d.cos(),
                d.tanh(),
            ]
            .map(|y| y as f32),
        );
    }
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_f32(0, &x), buf_f32(1, &vec![0.0; 8 * n])],
        expected: vec![buf_f32(0, &x), buf_f32(1, &e)],
        f32_ulps: 32,
        unordered: vec![],
    }
}

fn window_sum(r: &mut Rng) -> Setup {
    let mut input = words(r, 1024);
    input[1000] = r.u32() % 8;
    let n = r.u32() % 600;
    let base = input[1000] * 64;
    let e: Vec<u32> = (0..64u32)
        .map(|t| {
            (base..base + 64)
                .step_by(32)
                .take_while(|&i| i < n)
                .fold(0u32, |a, i| a.wrapping_add(input[(i + t) as usize]))
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).u32(n).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn calls(r: &mut Rng) -> Setup {
    let input = words(r, 128);
    let mix = |x: u32, y: u32| x.wrapping_mul(2654435761) ^ (y >> 3);
    let e: Vec<u32> = (0..64u32)
        .map(|t| {
            let a = mix(input[t as usize], t);
            mix(a, input[t as usize + 64]).wrapping_add(a)
        })
        .collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Recursion: `out[t] = fib(in[t] & 7)`, the depth differing lane by lane.
fn fib_calls(r: &mut Rng) -> Setup {
    let input = words(r, 64);
    fn fib(n: u32) -> u32 {
        if n < 2 {
            n
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }
    let e: Vec<u32> = input.iter().map(|&x| fib(x & 7)).collect();
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `v` rounded to f32 upward (`up`) or downward, from the nearest f32 and an exact comparison.
fn f32_directed(v: i128, up: bool) -> f32 {
    let near = v as f32;
    match (up, (near as i128).cmp(&v)) {
        (true, std::cmp::Ordering::Less) => near.next_up(),
        (false, std::cmp::Ordering::Greater) => near.next_down(),
        _ => near,
    }
}

fn cvt_round(r: &mut Rng) -> Setup {
    let n = 64;
    let w = words(r, n);
    // Small, 32-bit-sized and negative 64-bit values.
    let v: Vec<u64> = (0..n)
        .map(|k| ((r.u32() as u64) << 32 | r.u32() as u64) >> if k % 4 == 1 { 40 } else { 0 })
        .collect();
    // Values past both 64-bit ranges (saturating), negative ones and fractions.
    let f: Vec<f32> = (0..n)
        .map(|k| {
            if k % 8 == 5 {
                -3e19
            } else if k % 8 == 6 {
                3e19
            } else {
                r.f32(1e12)
            }
        })
        .collect();
    let mut e = Vec::with_capacity(48 * n);
    for t in 0..n {
        let (u, s) = (w[t] as i128, w[t] as i32 as i128);
        let conv = [
            f32_directed(u, true),
            f32_directed(s, false),
            f32_directed(u, false),
            f32_directed(v[t] as i128, true),
            v[t] as i64 as f32,
        ];
        conv.iter()
            .for_each(|x| e.extend_from_slice(&x.to_le_bytes()));
        e.extend_from_slice(&[0; 4]);
        e.extend_from_slice(&(f[t].trunc() as i64).to_le_bytes());
        e.extend_from_slice(&(f[t].trunc() as u64).to_le_bytes());
        e.extend_from_slice(&[0; 8]);
    }
    let inputs = vec![buf_u32(0, &w), buf_u64(1, &v), buf_f32(2, &f)];
    let mut buffers = inputs.clone();
    buffers.push(buf_bytes(3, vec![0; 48 * n]));
    let mut expected = inputs;
    expected.push(buf_bytes(3, e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u64(addr(2))
            .u64(addr(3))
            .0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn sad(r: &mut Rng) -> Setup {
    let n = 64;
    // Every other thread takes small values of either sign, so both orders of a and b and both
    // signs of the signed difference occur.
    let w: Vec<u32> = (0..3 * n)
        .map(|k| {
            if k % 6 < 3 {
                ((r.u32() % 2000) as i32 - 1000) as u32
            } else {
                r.u32()
            }
        })
        .collect();
    let mut e = Vec::with_capacity(2 * n);
    for t in w.chunks(3) {
        let (a, b, c) = (t[0], t[1], t[2]);
        let signed = (a as i32 as i64 - b as i32 as i64).unsigned_abs() as u32;
        e.extend([signed.wrapping_add(c), a.abs_diff(b).wrapping_add(c)]);
    }
    let buffers = vec![buf_u32(0, &w), buf_u32(1, &vec![0; 2 * n])];
    let expected = vec![buf_u32(0, &w), buf_u32(1, &e)];
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn i2i_sat(r: &mut Rng) -> Setup {
    let n = 64;
    // Small values of either sign around the 8- and 16-bit limits, and full-range words.
    let w: Vec<u32> = (0..n)
        .map(|k| {
            if k % 2 == 0 {
                (r.u32() % 140_000) as i32 - 70_000
            } else {
                r.u32() as i32
            }
        })
        .map(|v| v as u32)
        .collect();
    let mut e = Vec::with_capacity(8 * n);
    for &x in &w {
        let (s, u) = (x as i32 as i64, x as i64);
        let sat = |v: i64, lo: i64, hi: i64| v.clamp(lo, hi) as i32 as u32;
        e.extend([
            sat(s, -128, 127),
            sat(s, 0, 255),
            sat(s, -32768, 32767),
            sat(s, 0, 65535),
            sat(u, -128, 127),
            sat(u, 0, 255),
            sat(u, -32768, 32767),
            sat(u, 0, 65535),
        ]);
    }
    let buffers = vec![buf_u32(0, &w), buf_u32(1, &vec![0; 8 * n])];
    let expected = vec![buf_u32(0, &w), buf_u32(1, &e)];
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `v` (exact in f64) rounded to f32 downward, upward (`up`) or toward zero (`toward_zero`).
fn f32_directed_f64(v: f64, up: bool, toward_zero: bool) -> f32 {
    let up = if toward_zero { v < 0.0 } else { up };
    let near = v as f32;
    if up && (near as f64) < v {
        near.next_up()
    } else if !up && (near as f64) > v {
        near.next_down()
    } else {
        near
    }
}

fn f32_rounding(r: &mut Rng) -> Setup {
    let n = 64;
    // Operands of similar magnitude: their f64 sum and product are exact.
    let (a, b) = (floats(r, n, 1000.0), floats(r, n, 1000.0));
    let mut e = Vec::with_capacity(6 * n);
    for t in 0..n {
        let (sum, prod) = (a[t] as f64 + b[t] as f64, a[t] as f64 * b[t] as f64);
        for v in [sum, prod] {
            e.extend([
                f32_directed_f64(v, false, false),
                f32_directed_f64(v, true, false),
                f32_directed_f64(v, false, true),
            ]);
        }
    }
    let inputs = vec![buf_f32(0, &a), buf_f32(1, &b)];
    let mut buffers = inputs.clone();
    buffers.push(buf_f32(2, &vec![0.0; 6 * n]));
    let mut expected = inputs;
    expected.push(buf_f32(2, &e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// FRND in its four rounding modes on values within +-1000 (every eighth an exact half).
fn f32_integral(r: &mut Rng) -> Setup {
    let n = 64;
    let mut a = floats(r, n, 1000.0);
    for t in (0..n).step_by(8) {
        a[t] = (t as f32 - 32.0) + 0.5;
    }
    let e: Vec<f32> = a
        .iter()
        .flat_map(|&x| [x.round_ties_even(), x.trunc(), x.floor(), x.ceil()])
        .collect();
    let inputs = vec![buf_f32(0, &a)];
    let mut buffers = inputs.clone();
    buffers.push(buf_f32(1, &vec![0.0; 4 * n]));
    let mut expected = inputs;
    expected.push(buf_f32(1, &e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// FRND.F64 in its four rounding modes on values within +-1000 with random low bits (every
/// eighth an exact half), and +-0, +-inf, 2^52 + 1 and a tiny value.
fn f64_integral(r: &mut Rng) -> Setup {
    let n = 64;
    let mut a: Vec<f64> = (0..n)
        .map(|_| (r.next() >> 11) as f64 / (1u64 << 53) as f64 * 2000.0 - 1000.0)
        .collect();
    for t in (0..n).step_by(8) {
        a[t] = (t as f64 - 32.0) + 0.5;
    }
    let edges = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        4503599627370497.0,
        -1e-300,
    ];
    for (k, e) in edges.into_iter().enumerate() {
        a[8 * k + 1] = e;
    }
    let e: Vec<u64> = a
        .iter()
        .flat_map(|&x| [x.round_ties_even(), x.trunc(), x.floor(), x.ceil()])
        .map(f64::to_bits)
        .collect();
    let inputs = vec![buf_u64(
        0,
        &a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
    )];
    let mut buffers = inputs.clone();
    buffers.push(buf_u64(1, &vec![0; 4 * n]));
    let mut expected = inputs;
    expected.push(buf_u64(1, &e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// div.rn.f32 on one warp: moderate operands (the fast path) and denormal dividends over small
/// divisors (denormal quotients through the subroutine's FFMA.RZ/.RM/.RP); expected: Rust's IEEE
/// f32 division. Halfway quotients and edge pairs run in pipeline/sim's div_rn kernel; here, a
/// warp whose lanes take three or more of the subroutine's paths (e.g. 3 * 2^-149 / 2 beside
/// x / FLT_MAX) deadlocks the emulator's convergence model (not yet investigated).
fn f32_divide(r: &mut Rng) -> Setup {
    let n = 32;
    let mut a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let mut b: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    for t in 0..16 {
        a[t] = (a[t] & 0x807f_ffff) | ((64 + (a[t] >> 24) % 128) << 23);
        b[t] = (b[t] & 0x807f_ffff) | ((64 + (b[t] >> 24) % 128) << 23);
    }
    for t in 16..n {
        a[t] &= 0x807f_ffff;
        b[t] = (b[t] & 0x807f_ffff) | 0x3f80_0000;
    }
    let e: Vec<u32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| {
            let q = f32::from_bits(x) / f32::from_bits(y);
            if q.is_nan() {
                0x7fff_ffff
            } else {
                q.to_bits()
            }
        })
        .collect();
    let inputs = vec![buf_u32(0, &a), buf_u32(1, &b)];
    let mut buffers = inputs.clone();
    buffers.push(buf_u32(2, &vec![0; n]));
    let mut expected = inputs;
    expected.push(buf_u32(2, &e));
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn grid_stride64(r: &mut Rng) -> Setup {
    let (n, n2) = (
        200 + (r.u32() % 56) as usize,
        150 + (r.u32() % 100) as usize,
    );
    let (out, out2) = (
        words(r, 256),
        (0..256).map(|_| r.next()).collect::<Vec<u64>>(),
    );
    let mut e = out.clone();
    (0..n).for_each(|i| e[i] = i as u32);
    let mut e2 = out2.clone();
    (0..n2).for_each(|i| e2[i] = 3 * i as u64);
    Setup {
        launch: grid(3, 32),
        params: Params::default()
            .u64(addr(0))
            .u64(n as u64)
            .u64(addr(1))
            .u64(n2 as u64)
            .0,
        buffers: vec![buf_u32(0, &out), buf_u64(1, &out2)],
        expected: vec![buf_u32(0, &e), buf_u64(1, &e2)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn tile64(r: &mut Rng) -> Setup {
    // Three tiles of 128: the last one partial.
    let n = 257 + (r.u32() % 128) as usize;
    let (input, out) = (words(r, 384), words(r, 384));
    let mut e = out.clone();
    for tile in (0..3).map(|b| 128 * b) {
        let count = (n - tile).min(128);
        (tile..tile + count).for_each(|i| e[i] = input[i].wrapping_add(count as u32));
    }
    Setup {
        launch: grid(3, 32),
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(n as u64).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &out)],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn byte_params(r: &mut Rng) -> Setup {
    let (flag, byte) = (r.u32() as u8, r.u32() as u8);
    let input = words(r, 64);
    let add = if (flag as i8) < 0 {
        byte as u32
    } else {
        flag as i8 as i32 as u32
    };
    let e: Vec<u32> = (0..2)
        .flat_map(|b| (0..32).map(move |t| (b, t)))
        .map(|(b, t)| input[10 * b + t].wrapping_add(add))
        .collect();
    Setup {
        launch: grid(2, 32),
        // The two byte parameters sit right after the pointers, where ptxas lays them out.
        params: Params::default()
            .u64(addr(0))
            .u64(addr(1))
            .u8(flag)
            .u8(byte)
            .0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `handwritten_params`: byte, half and vector-of-byte parameters and a struct read through the
/// register that holds its address (ptxas reads them with LDC on sm_75 and UPRMT on sm_75..89).
fn narrow_params(r: &mut Rng) -> Setup {
    let b = |r: &mut Rng| r.u32() as u8;
    let (flag, delta) = (if r.u32() % 2 == 0 { 0 } else { b(r) | 1 }, b(r));
    let bytes = [b(r), b(r), b(r), b(r)];
    let (wide_delta, half) = (r.u32() as u16, r.u32() as u16);
    let st: Vec<u8> = (0..24).map(|_| b(r)).collect();
    let mut params = Params::default().u64(addr(0)).u8(flag).u8(delta).0;
    params.resize(12, 0);
    params.extend_from_slice(&bytes);
    params.extend_from_slice(&wide_delta.to_le_bytes());
    params.extend_from_slice(&half.to_le_bytes());
    params.resize(24, 0);
    params.extend_from_slice(&st);
    let st_u64 = u64::from_le_bytes(st[8..16].try_into().unwrap());
    let st_u32 = u32::from_le_bytes(st[16..20].try_into().unwrap());
    let input = words(r, 1024);
    let mut e = input.clone();
    for t in 0..64u32 {
        let pick = if flag == 0 {
            delta as i8 as i32
        } else {
            wide_delta as i16 as i32
        };
        let row = [
            pick.wrapping_add(t as i32) as u32,
            bytes[0] as u32,
            bytes[1] as u32,
            bytes[2] as u32,
            bytes[3] as u32,
            half as u32,
            st[0] as u32,
            st[2] as u32,
        ];
        e[8 * t as usize..8 * t as usize + 8].copy_from_slice(&row);
        let tail = (st[3] as u64).wrapping_add(st_u64);
        let w = 512 + 8 * t as usize;
        e[w] = tail as u32;
        e[w + 1] = (tail >> 32) as u32;
        e[w + 2] = st_u32.wrapping_add(t);
    }
    Setup {
        launch: grid(1, 64),
        params,
        buffers: vec![buf_u32(0, &input)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn generic_mem(r: &mut Rng) -> Setup {
    let input = words(r, 256);
    let mut e = input.clone();
    for w in e.chunks_mut(4) {
        let [a, b, c, d] = [w[0], w[1], w[2], w[3]];
        w.copy_from_slice(&[a.wrapping_add(b), c ^ d, d, a]);
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &input)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn local_mem(r: &mut Rng) -> Setup {
    let input = words(r, 256);
    let mut e = input.clone();
    for (t, w) in e.chunks_mut(4).enumerate() {
        let [a, b, c, d] = [w[0], w[1], w[2], w[3]];
        let stack = [a, b, c, d, b, a, c ^ d, t as u32];
        let bytes: Vec<u8> = stack.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (x, y) = (stack[(a & 7) as usize], stack[(b & 7) as usize]);
        w.copy_from_slice(&[x, y, bytes[(c & 31) as usize] as u32, x.wrapping_add(y)]);
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).0,
        buffers: vec![buf_u32(0, &input)],
        expected: vec![buf_u32(0, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn tile_flag(r: &mut Rng) -> Setup {
    // Tiles of 256 items (items = 1); the third one partial.
    let n = 513 + (r.u32() % 255) as usize;
    let flag = (r.u32() % 3) as u8;
    let (input, out) = (words(r, 768), words(r, 768));
    let mut e = out.clone();
    for tile in (0..3).map(|b| 256 * b) {
        let count = (n - tile).min(256);
        let add = if count != 256 || flag == 0 { 1 } else { 2 };
        (tile..tile + count).for_each(|i| e[i] = input[i].wrapping_add(add));
    }
    Setup {
        launch: grid(3, 64),
        params: Params::default()
            .u64(n as u64)
            .u32(1)
            .u8(flag)
            .u64(addr(0))
            .u64(addr(1))
            .0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &out)],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn tile_prefetch(r: &mut Rng) -> Setup {
    // Tiles of 256 floats (items = 1); the third one partial.
    let n = 513 + (r.u32() % 255) as usize;
    let (input, out) = (floats(r, 768, 100.0), floats(r, 768, 100.0));
    let mut e = out.clone();
    (0..n).for_each(|i| e[i] = input[i] + input[i]);
    Setup {
        launch: grid(3, 64),
        params: Params::default()
            .u64(n as u64)
            .u32(1)
            .u64(addr(1))
            .u64(addr(0))
            .0,
        buffers: vec![buf_f32(0, &input), buf_f32(1, &out)],
        expected: vec![buf_f32(0, &input), buf_f32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// The f16 bits of a small integer-valued f32 (|v| < 2048, exact; -0 keeps its sign).
fn f16_of(v: f32) -> u32 {
    let sign = (v.is_sign_negative() as u32) << 15;
    if v == 0.0 {
        return sign;
    }
    let a = v.abs() as u32;
    let e = 31 - a.leading_zeros();
    sign | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff)
}

/// Packed f16x2 of small integers for `half_exact`: x in words 0..64, y in 64..128.
fn half_inputs() -> (Vec<[i32; 2]>, Vec<[i32; 2]>, Vec<u32>) {
    let x: Vec<[i32; 2]> = (0..64).map(|t| [t % 16 - 8, t / 16 + 1]).collect();
    let y: Vec<[i32; 2]> = (0..64).map(|t| [t % 5 - 2, t % 3 + 1]).collect();
    let pack = |v: &[i32; 2]| f16_of(v[0] as f32) | f16_of(v[1] as f32) << 16;
    let words = x.iter().chain(&y).map(pack).collect();
    (x, y, words)
}

fn half_exact(_r: &mut Rng) -> Setup {
    let (x, y, input) = half_inputs();
    let mut e = Vec::with_capacity(4 * 64);
    for t in 0..64 {
        let (a, b) = (x[t], y[t]);
        let (a, b) = (a.map(|v| v as f32), b.map(|v| v as f32));
        let lanes =
            |f: &dyn Fn(f32, f32) -> f32| f16_of(f(a[0], b[0])) | f16_of(f(a[1], b[1])) << 16;
        e.push(lanes(&|p, q| p + q));
        e.push(lanes(&|p, q| p * q));
        e.push(f16_of(a[0] * b[0] + a[1]) | f16_of(-a[1]) << 16);
        e.push((a[0] < b[0]) as u32);
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 4 * 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

fn half_exact80(_r: &mut Rng) -> Setup {
    let (x, y, input) = half_inputs();
    let mut e = Vec::with_capacity(3 * 64);
    for t in 0..64 {
        let (a, b) = (x[t], y[t]);
        e.push(f16_of(a[0].min(b[0]) as f32) | f16_of(a[1].min(b[1]) as f32) << 16);
        e.push(f16_of(t as f32) << 16 | f16_of(-(t as f32)));
        // .relu: -(t + 1) in the high half becomes 0.
        e.push(f16_of(t as f32));
    }
    Setup {
        launch: grid(1, 64),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &[0; 3 * 64])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// f16 edge values for `half_set_frnd`: (bits, value).
const F16_EDGES: [(u32, f32); 16] = [
    (0x0000, 0.0),
    (0x8000, -0.0),
    (0x3e00, 1.5),
    (0xbe00, -1.5),
    (0x4100, 2.5),
    (0xc100, -2.5),
    (0x3400, 0.25),
    (0xba00, -0.75),
    (0x5ffe, 511.5),
    (0xb800, -0.5),
    (0x7c00, f32::INFINITY),
    (0xfc00, f32::NEG_INFINITY),
    (0x7e00, f32::NAN),
    (0x4200, 3.0),
    (0x7bff, 65504.0),
    (0x0001, 5.960_464_5e-8),
];

/// The f16 bits of an integral value (or infinity, NaN as the canonical 0x7fff).
fn f16_integral(v: f32) -> u32 {
    let sign = (v.is_sign_negative() as u32) << 15;
    match v {
        _ if v.is_nan() => 0x7fff,
        _ if v.is_infinite() => sign | 0x7c00,
        _ if v.abs() == 65504.0 => sign | 0x7bff,
        _ => f16_of(v),
    }
}

fn half_set_frnd(_r: &mut Rng) -> Setup {
    let n = 64;
    let pairs: Vec<(usize, usize)> = (0..n)
        .map(|t| (t % 16, (t * 7 + 3 + t / 16) % 16))
        .collect();
    let w: Vec<u32> = pairs
        .iter()
        .map(|&(a, b)| F16_EDGES[a].0 | F16_EDGES[b].0 << 16)
        .collect();
    let mut e = Vec::with_capacity(4 * n);
    for &(ia, ib) in &pairs {
        let (a, b) = (F16_EDGES[ia].1, F16_EDGES[ib].1);
        let lanes = |f: &dyn Fn(f32, f32) -> bool, truth: u32| {
            (f(a, b) as u32 * truth) | (f(b, a) as u32 * truth) << 16
        };
        e.push(lanes(&|p, q| p < q, 0x3c00));
        e.push(lanes(&|p, q| !(p < q), 0xffff));
        e.push(f16_integral(a.floor()) | f16_integral(a.ceil()) << 16);
        e.push(f16_integral(a.trunc()) | f16_integral(a.round_ties_even()) << 16);
    }
    let buffers = vec![buf_u32(0, &w), buf_u32(1, &vec![0; 4 * n])];
    let expected = vec![buf_u32(0, &w), buf_u32(1, &e)];
    Setup {
        launch: grid(1, n as u32),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}
