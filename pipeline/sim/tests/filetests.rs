//! The differential check over every filetest kernel on every supported architecture: the PTX
//! interpreter, the emulator on ptxas's cubin (when ptxas is installed) and the emulator on ours
//! must leave the same buffers, with fixed seeds.

use std::path::{Path, PathBuf};

use ptxforge_sass::arch::SUPPORTED_SMS;
use ptxforge_sass::nvtools;
use ptxforge_sim::{differential_check, Fill, SimRequest, Verdict};

/// A kernel launch of one filetest: file, entry, grid, block, scalar arguments, fill.
struct Case {
    file: &'static str,
    entry: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &'static [&'static str],
    fill: Fill,
}

const fn case(
    file: &'static str,
    entry: &'static str,
    grid: u32,
    block: u32,
    args: &'static [&'static str],
) -> Case {
    Case {
        file,
        entry,
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        args,
        fill: Fill::Random,
    }
}

/// Every filetest kernel, launched so that its accesses stay inside 4 KiB buffers.
const CASES: &[Case] = &[
    Case {
        file: "addr64.ptx",
        entry: "gather64",
        grid: [2, 1, 1],
        block: [32, 1, 1],
        args: &["50"],
        fill: Fill::Small,
    },
    case("bitops.ptx", "bitops", 1, 64, &["7"]),
    case("block_reduce.ptx", "block_reduce", 2, 256, &[]),
    case("counted_loop.ptx", "row_sum", 4, 1, &["9"]),
    case("cvt_int.ptx", "cvt_int", 1, 64, &[]),
    // Lanes past 100 meet clamp's guarded ret; odd lanes the call under a branch.
    case("device_func.ptx", "device_func", 1, 128, &[]),
    // Small words keep the f16 operands finite (neg.f16 of a NaN is HADD2's canonical NaN).
    Case {
        file: "half_ops.ptx",
        entry: "half_ops",
        grid: [1, 1, 1],
        block: [1, 1, 1],
        args: &[],
        fill: Fill::Small,
    },
    case("empty.ptx", "empty", 1, 32, &[]),
    case("float_ops.ptx", "float_ops", 1, 64, &[]),
    case("f64_arith.ptx", "f64_arith", 1, 64, &[]),
    case("handwritten_f64_setp.ptx", "f64_setp", 1, 64, &[]),
    // 80 bytes per thread: 48 threads fit the 4 KiB buffers.
    case("handwritten_f64_cvt.ptx", "cvt64", 1, 48, &[]),
    // 96 bytes per thread: 40 threads fit the 4 KiB buffers.
    case("handwritten_f64_round.ptx", "f64_round", 1, 40, &[]),
    case("grid_stride.ptx", "grid_stride", 2, 64, &["1000"]),
    // One thread: every thread of this kernel reads and writes the same words.
    case("handwritten_cvt_float.ptx", "k", 1, 1, &[]),
    case("handwritten_atomics.ptx", "atomics", 1, 64, &[]),
    case("handwritten_intops.ptx", "intops", 1, 64, &[]),
    case("handwritten_bits.ptx", "bits", 1, 64, &["7", "13"]),
    // m8n8k4 f16 mma and movmatrix, one warp (random halves: both compilers' sums agree here).
    case("handwritten_volta_mma.ptx", "volta_mma", 1, 32, &[]),
    // 48 threads: 80 bytes each stay inside the 4 KiB output.
    case("handwritten_scalar.ptx", "scalar", 1, 48, &[]),
    case("handwritten_mul16.ptx", "mul16", 1, 64, &[]),
    case("handwritten_opt_passes.ptx", "imm_fold", 1, 64, &[]),
    // Reads bytes up to in + 4 * tid + 20, writes up to out + 1024 + 8 * tid + 8: 64 threads fit.
    case("handwritten_addr_fold.ptx", "addr_fold", 1, 64, &[]),
    // Indexes tid + 3: at most out + 1024 + 8 * 66 + 8.
    case("handwritten_lea_fold.ptx", "lea_fold", 1, 64, &["3"]),
    // 16 bytes per thread: 64 threads fit.
    case("handwritten_add_fuse.ptx", "add_fuse", 2, 64, &["5"]),
    case("handwritten_opt_passes.ptx", "local_cse", 1, 64, &[]),
    case("handwritten_opt_passes.ptx", "wide_add", 1, 64, &["256"]),
    case("handwritten_divide.ptx", "divide", 1, 64, &[]),
    case(
        "handwritten_int64.ptx",
        "int64_ops",
        1,
        32,
        &["-123456789012", "987654321"],
    ),
    case("handwritten_preds.ptx", "preds", 1, 64, &["-5", "17"]),
    case(
        "handwritten_pred_pressure.ptx",
        "pred_pressure",
        1,
        64,
        &["9"],
    ),
    case("handwritten_shared.ptx", "shared_rev", 1, 64, &[]),
    // 16 bytes per thread (local_arrays: 8): 64 threads stay inside the 4 KiB buffer.
    case("handwritten_local.ptx", "local_depot", 1, 64, &[]),
    case("handwritten_local.ptx", "local_arrays", 1, 64, &[]),
    // Recursion (subroutines): out[0..64) and 8 words per thread from out + 256.
    case("handwritten_recursion.ptx", "recursion", 1, 64, &[]),
    // printf and assert (vprintf, __assertfail): their records compared; in and out 64 words.
    case("syscalls.ptx", "printf_assert", 1, 32, &["32"]),
    case("if_else.ptx", "clamp_or_scale", 3, 64, &["0.25", "150"]),
    Case {
        file: "index3d.ptx",
        entry: "index3d",
        grid: [2, 2, 2],
        block: [4, 2, 2],
        args: &[],
        fill: Fill::Random,
    },
    case("int_minmax.ptx", "int_minmax", 1, 64, &[]),
    case("laneid.ptx", "laneid", 1, 96, &[]),
    case("ldg_nc.ptx", "ldg_nc", 1, 64, &[]),
    case("mul_wide.ptx", "mul_wide", 1, 64, &[]),
    case("multi.ptx", "fill", 1, 64, &["-77"]),
    case("multi.ptx", "scale", 1, 64, &["1.5"]),
    case("multi.ptx", "copy", 1, 64, &[]),
    case("saxpy.ptx", "saxpy", 3, 128, &["300", "2.5"]),
    case(
        "llvm_scalar_braces.ptx",
        "llvm_scalar_braces",
        2,
        128,
        &["200"],
    ),
    case(
        "select_pred.ptx",
        "select_pred",
        1,
        64,
        &["-100000", "100000000"],
    ),
    case(
        "u64_compare.ptx",
        "u64_compare",
        1,
        64,
        &["0x8000000000000000"],
    ),
    case("vadd.ptx", "vadd", 3, 128, &["300"]),
    case("warp_diverge.ptx", "warp_diverge", 2, 64, &[]),
    case("sync_ops.ptx", "sync_ops", 2, 64, &[]),
    case("vector_mem.ptx", "vector_mem", 1, 64, &[]),
    // 16 bytes per thread in each 1 KiB quarter of the output buffer.
    case(
        "handwritten_vector_mem.ptx",
        "vector_forms",
        1,
        64,
        &["0x123456789abcdef0", "5"],
    ),
    case("handwritten_shared_layout.ptx", "shared_layout", 2, 64, &[]),
    // flag, delta, four bytes, wide_delta, half, the struct's first 8 bytes.
    case(
        "handwritten_params.ptx",
        "params",
        1,
        64,
        &[
            "0",
            "-3",
            "0x04030201",
            "-300",
            "65000",
            "0x0102030405060708",
        ],
    ),
    // The struct's bytes are seeded; its pointer at 152 is found from how the PTX uses it.
    case("handwritten_param_index.ptx", "param_index", 1, 64, &[]),
    case("handwritten_module_vars.ptx", "module_vars", 1, 64, &[]),
    case("handwritten_copysign.ptx", "copysign_forms", 1, 64, &[]),
    case(
        "handwritten_shared_generic.ptx",
        "shared_generic",
        1,
        64,
        &[],
    ),
    case("handwritten_fadd_round.ptx", "fadd_round", 1, 64, &[]),
    case("handwritten_scalar_rest.ptx", "abs_s64_envreg", 1, 1, &[]),
    case("handwritten_scalar_rest.ptx", "half_set_frnd", 1, 1, &[]),
    case("handwritten_scalar_rest.ptx", "div_rz_rsqrt64", 1, 1, &[]),
    // One thread: each thread stores 24 bytes, so a second one's vector store is misaligned.
    case(
        "handwritten_match_atomic_loops.ptx",
        "match_atomic_loops",
        1,
        1,
        &[],
    ),
    case("handwritten_frnd.ptx", "frnd_modes", 1, 64, &[]),
    case("handwritten_spill.ptx", "spill_maxnreg", 1, 16, &[]),
];

/// Each run's seed is this plus the architecture number.
const SEED_BASE: u64 = 0x5eed;

fn filetest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../driver/tests/filetests")
}

/// ptxas's cubin for `file` on `sm`, or None when ptxas is not installed.
fn ptxas_cubin(file: &Path, sm: u32) -> Option<Vec<u8>> {
    let cubin = nvtools::ptxas_cubin(file, sm)?;
    Some(cubin.unwrap_or_else(|e| panic!("ptxas rejected {}: {e}", file.display())))
}

fn request(c: &Case, sm: u32, seed: u64) -> SimRequest {
    let path = filetest_dir().join(c.file);
    SimRequest {
        ptx: std::fs::read_to_string(&path).unwrap(),
        file_name: c.file.into(),
        entry: c.entry.into(),
        sm,
        grid: c.grid,
        block: c.block,
        scalar_args: c.args.iter().map(|s| s.to_string()).collect(),
        fill: c.fill,
        seed,
        reference_cubin: ptxas_cubin(&path, sm),
        seed_structs: true,
        ..SimRequest::default()
    }
}

#[test]
fn every_filetest_kernel_agrees_on_every_architecture() {
    if nvtools::tool("ptxas").is_none() {
        println!("skipped: the ptxas cubin runs (ptxas not found); interpreter vs our cubin only");
    }
    let mut failures = Vec::new();
    let mut runs = 0;
    for c in CASES {
        for sm in SUPPORTED_SMS.iter().map(|s| s.num) {
            runs += 1;
            match differential_check(&request(c, sm, SEED_BASE + sm as u64)) {
                Ok(Verdict::Agree) => {}
                Ok(v) => failures.push(format!("{} {} sm_{sm}: {v}", c.file, c.entry)),
                Err(e) => failures.push(format!("{} {} sm_{sm}: setup: {e}", c.file, c.entry)),
            }
        }
    }
    println!(
        "{} of {runs} kernel/architecture runs agree",
        runs - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Filetests no differential case can run yet, with the reason.
const NOT_RUN: &[(&str, &str)] = &[(
    "textures.ptx",
    "the interpreter and the emulator have no texture or surface model yet",
)];

#[test]
fn the_filetest_table_covers_every_filetest_entry() {
    for entry in std::fs::read_dir(filetest_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("ptx") {
            continue;
        }
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some((_, why)) = NOT_RUN.iter().find(|(f, _)| *f == file) {
            println!("not run: {file}: {why}");
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.contains(".entry")) {
            let name = line
                .split(".entry")
                .nth(1)
                .unwrap()
                .trim()
                .split(['(', ' '])
                .next()
                .unwrap();
            assert!(
                CASES.iter().any(|c| c.entry == name),
                "no differential case for {} in {}",
                name,
                path.display()
            );
        }
    }
}

/// With `PTXFORGE_GPU_LAUNCHES=FILE`, appends every launch of `CASES` to FILE as `ptxforge-gpu`
/// arguments, one a line, for `scripts/gpu-check.sh` to run on a GPU (the seeds of
/// `every_filetest_kernel_agrees_on_every_architecture`); without it, does nothing.
#[test]
fn write_launches_for_the_gpu_check() {
    let Some(path) = std::env::var_os("PTXFORGE_GPU_LAUNCHES") else {
        return;
    };
    let dims = |d: [u32; 3]| format!("{},{},{}", d[0], d[1], d[2]);
    let lines: String = CASES
        .iter()
        .map(|c| {
            let args = match c.args.is_empty() {
                true => String::new(),
                false => format!(" --args {}", c.args.join(",")),
            };
            let fill = match c.fill {
                Fill::Random => "random",
                Fill::Small => "small",
            };
            format!(
                "pipeline/driver/tests/filetests/{} --entry {} --grid {} --block {}{args} \
                 --fill {fill} --seed-per-arch {} --seed-structs\n",
                c.file,
                c.entry,
                dims(c.grid),
                dims(c.block),
                SEED_BASE
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
