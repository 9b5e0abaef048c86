//! The LLVM NVPTX client (issue 25): PTX that LLVM's own NVPTX back end (llc 14, the code
//! generator of clang's CUDA mode) wrote for the kernels in `tests/clients/llvm/` (LLVM IR kept
//! beside it; `generate.sh` regenerates it), compiled with clang's ptxas command line; ptxas's
//! verdict, nvdisasm/cuobjdump on our cubins, `ptxforge sim` three ways, and the README's LLVM
//! table. With an llc 14 on PATH the kept PTX must be exactly what llc writes today.

mod common;

use common::clients::{
    check_decodes, compile_verdict, nv_tool, readme_table, scratch, sim_three_way,
};
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/llvm")
}

/// The targets llc 14 knows that the suite covers.
const SMS: [&str; 2] = ["sm_75", "sm_80"];

/// (kernel, `ptxforge sim` arguments after `--entry`): every kernel has a row, so a kernel that
/// starts to compile is run three ways at once.
const KERNELS: &[(&str, &str)] = &[
    (
        "saxpy",
        "--grid 2 --block 128 --args 200,1.5 --buffer-bytes 2048",
    ),
    (
        "reduce_sum",
        "--grid 3 --block 128 --args 300 --buffer-bytes 2048",
    ),
    (
        "histogram",
        "--grid 2 --block 128 --args 250 --buffer-bytes 1024",
    ),
    ("local_array", "--grid 2 --block 64 --buffer-bytes 1024"),
    ("math_f32", "--grid 2 --block 64 --buffer-bytes 1024"),
    (
        "int_bits",
        "--grid 2 --block 64 --args 977 --buffer-bytes 1024",
    ),
    (
        "half2",
        "--grid 2 --block 64 --buffer-bytes 1024 --fill small",
    ),
    ("vec4_copy", "--grid 2 --block 64 --buffer-bytes 2048"),
    (
        "grid_stride",
        "--grid 2 --block 64 --args 1000 --buffer-bytes 4096",
    ),
    (
        "transpose",
        "--grid 2,2 --block 32,8 --args 64 --buffer-bytes 16384",
    ),
    ("device_call", "--grid 2 --block 64 --buffer-bytes 1024"),
    (
        "cas_max",
        "--grid 2 --block 128 --args 250 --buffer-bytes 1024",
    ),
];

/// clang's ptxas arguments (clang/lib/Driver/ToolChains/Cuda.cpp, NVPTX::Assembler) for an
/// optimised build: `-m64 -O3 --gpu-name SM --output-file OUT IN`.
fn clang_args(sm: &str, ptx: &Path, out: &Path, mode: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["-m64"].iter().chain(mode).map(|s| s.to_string()).collect();
    args.extend(["--gpu-name".into(), sm.into(), "--output-file".into()]);
    args.push(out.to_str().unwrap().into());
    args.push(ptx.to_str().unwrap().into());
    args
}

fn kernel_rows(table: &mut String) {
    let ours = Path::new(env!("CARGO_BIN_EXE_ptxforge"));
    let tmp = scratch("clients-llvm");
    for &(kernel, sim_args) in KERNELS {
        for sm in SMS {
            let ptx = dir().join(format!("{kernel}.{sm}.ptx"));
            let cubin = tmp.join(format!("{kernel}.{sm}.cubin"));
            let (ok, first) = compile_verdict(ours, &clang_args(sm, &ptx, &cubin, &["-O3"]), &ptx);
            assert!(
                ok || first.contains("is not supported yet"),
                "{kernel} {sm}: {first}"
            );
            if let Some(ptxas) = nv_tool("ptxas") {
                let reference = tmp.join("ref.cubin");
                let (ref_ok, ref_err) =
                    compile_verdict(&ptxas, &clang_args(sm, &ptx, &reference, &["-O3"]), &ptx);
                assert!(ref_ok, "{kernel} {sm}: ptxas rejects llc's PTX: {ref_err}");
            }
            let sim = if ok {
                check_decodes(kernel, &format!("{kernel} {sm}"), &cubin);
                let args: Vec<&str> = sim_args.split(' ').collect();
                sim_three_way(&ptx, sm, kernel, &args, "0")
            } else {
                "-".into()
            };
            let verdict = if ok {
                "ok".into()
            } else {
                first.replace("FILE", "`x.ptx`")
            };
            *table += &format!("| LLVM 14 (llc) | {kernel} | {sm} | {verdict} | {sim} |\n");
        }
    }
}

/// clang's other ptxas command lines, on saxpy at sm_80: `-O0`, a `-g` build (clang passes
/// `-g --dont-merge-basicblocks --return-at-end` and no -O), and `-fgpu-rdc` (`-c`).
fn mode_rows(table: &mut String) {
    let ours = Path::new(env!("CARGO_BIN_EXE_ptxforge"));
    let tmp = scratch("clients-llvm-modes");
    let ptx = dir().join("saxpy.sm_80.ptx");
    let modes: &[&[&str]] = &[
        &["-O0"],
        &["-g", "--dont-merge-basicblocks", "--return-at-end"],
        &["-O3", "-c"],
    ];
    for mode in modes {
        let cubin = tmp.join("saxpy.cubin");
        let _ = std::fs::remove_file(&cubin);
        let o = Command::new(ours)
            .args(clang_args("sm_80", &ptx, &cubin, mode))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let first = err.lines().next().unwrap_or("").trim();
        let status = match (o.status.success(), first.is_empty()) {
            (true, true) => {
                check_decodes("saxpy", &format!("saxpy {mode:?}"), &cubin);
                "ok".to_string()
            }
            (true, false) => format!("ok, {first}"),
            (false, _) => {
                assert!(!cubin.exists(), "{mode:?}: failed but left an output file");
                format!("fails: {first}")
            }
        };
        let mode = mode.join(" ");
        *table += &format!("| LLVM 14 (llc) | saxpy, clang's `{mode}` | sm_80 | {status} | - |\n");
    }
}

const BEGIN: &str =
    "<!-- llvm clients table: generated by cli/tests/clients_llvm.rs (PTXFORGE_BLESS=1) -->";
const END: &str = "<!-- end of llvm clients table -->";

#[test]
fn llvm_nvptx_client_and_the_readme_table() {
    let mut table =
        String::from("| client | kernel / mode | target | status | sim |\n|---|---|---|---|---|\n");
    kernel_rows(&mut table);
    mode_rows(&mut table);
    readme_table(BEGIN, END, &table, None);
}

/// The kept PTX is what llc 14 writes for the kept IR (so that a reader can trust its origin).
#[test]
fn kept_ptx_is_what_llc_writes() {
    let version = Command::new("llc").arg("--version").output();
    let Ok(version) = version else {
        eprintln!("skipped: no llc on PATH");
        return;
    };
    let text = String::from_utf8_lossy(&version.stdout);
    if !text.contains("LLVM version 14.") || !text.contains("nvptx64") {
        eprintln!("skipped: llc is not LLVM 14 with the NVPTX target");
        return;
    }
    let tmp = scratch("clients-llvm-llc");
    for &(kernel, _) in KERNELS {
        for sm in SMS {
            let out = tmp.join(format!("{kernel}.{sm}.ptx"));
            let ll = dir().join(format!("{kernel}.ll"));
            let mcpu = format!("-mcpu={sm}");
            let o = Command::new("llc")
                .args(["-O3", "-march=nvptx64", &mcpu, "-mattr=+ptx70"])
                .arg(&ll)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap();
            assert!(o.status.success(), "llc {kernel} {sm}");
            let kept = std::fs::read_to_string(dir().join(format!("{kernel}.{sm}.ptx"))).unwrap();
            let now = std::fs::read_to_string(&out).unwrap();
            assert_eq!(
                kept, now,
                "{kernel}.{sm}.ptx differs from llc's output: run generate.sh"
            );
        }
    }
}
