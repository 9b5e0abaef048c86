//! Benchmark: wall time and peak memory of `ptxforge` vs `ptxas` on the same PTX, printed as ratios.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin compile_vs_ptxas -- [-arch=sm_80] [-n 5]
//! [--generate N] FILE.ptx...`. With no files it uses the filetests; `--generate N` adds a module of
//! N saxpy-like kernels (a large multi-kernel module). Both compilers run as processes, side by side.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use ptxforge_sass::nvtools;

struct Config {
    arch: String,
    reps: usize,
    files: Vec<PathBuf>,
}

fn parse_args() -> Config {
    let mut cfg = Config {
        arch: "sm_80".into(),
        reps: 5,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if let Some(arch) = a.strip_prefix("-arch=") {
            cfg.arch = arch.to_string();
        } else if a == "-n" {
            cfg.reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
        } else if a == "--generate" {
            let n = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
            cfg.files.push(generate_module(n));
        } else {
            cfg.files.push(PathBuf::from(a));
        }
    }
    if cfg.files.is_empty() {
        let dir =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../pipeline/driver/tests/filetests");
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        v.sort();
        cfg.files = v;
    }
    cfg
}

/// Writes a module of `n` kernels (one saxpy body each) to the temp folder.
fn generate_module(n: usize) -> PathBuf {
    let mut src = String::from(".version 8.0\n.target sm_75\n.address_size 64\n");
    for i in 0..n {
        src.push_str(&format!(
            ".visible .entry saxpy_{i}(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{{\n\
             .reg .pred %p<2>;\n.reg .f32 %f<5>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n\
             ld.param.u32 %r2, [n];\nld.param.f32 %f1, [a];\nld.param.u64 %rd1, [x];\nld.param.u64 %rd2, [y];\n\
             mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n\
             setp.ge.s32 %p1, %r1, %r2;\n@%p1 bra $L_done;\ncvta.to.global.u64 %rd3, %rd1;\nmul.wide.s32 %rd4, %r1, 4;\n\
             add.s64 %rd5, %rd3, %rd4;\ncvta.to.global.u64 %rd6, %rd2;\nadd.s64 %rd7, %rd6, %rd4;\n\
             ld.global.f32 %f2, [%rd5];\nld.global.f32 %f3, [%rd7];\nfma.rn.f32 %f4, %f1, %f2, %f3;\n\
             st.global.f32 [%rd7], %f4;\n$L_done:\nret;\n}}\n"
        ));
    }
    let path = std::env::temp_dir().join(format!("ptxforge-bench-{n}-kernels.ptx"));
    std::fs::write(&path, src).expect("write generated module");
    path
}

/// Median wall time of `reps` runs of one compiler on one file, or None if it failed.
fn median_run(exe: &PathBuf, arch: &str, file: &PathBuf, reps: usize) -> Option<Duration> {
    let out = std::env::temp_dir().join(format!("bench-{}.cubin", std::process::id()));
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        let st = Command::new(exe)
            .arg(format!("-arch={arch}"))
            .arg(file)
            .arg("-o")
            .arg(&out)
            .output()
            .ok()?;
        if !st.status.success() {
            return None;
        }
        times.push(t.elapsed());
    }
    times.sort();
    Some(times[times.len() / 2])
}

fn main() {
    let cfg = parse_args();
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    };
    let ours = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/ptxforge");
    if !ours.is_file() {
        println!("skipped: build target/release/ptxforge first (cargo build --release)");
        return;
    }
    println!(
        "{:<40} {:>12} {:>12} {:>8}",
        "file", "ptxforge ms", "ptxas ms", "speedup"
    );
    let (mut sum_ours, mut sum_ref) = (Duration::ZERO, Duration::ZERO);
    for f in &cfg.files {
        let name = f.file_name().unwrap().to_string_lossy();
        match (
            median_run(&ours, &cfg.arch, f, cfg.reps),
            median_run(&ptxas, &cfg.arch, f, cfg.reps),
        ) {
            (Some(a), Some(b)) => {
                sum_ours += a;
                sum_ref += b;
                println!(
                    "{name:<40} {:>12.2} {:>12.2} {:>7.2}x",
                    a.as_secs_f64() * 1e3,
                    b.as_secs_f64() * 1e3,
                    b.as_secs_f64() / a.as_secs_f64()
                );
            }
            (a, b) => println!(
                "{name:<40} {:>12} {:>12}",
                if a.is_some() { "ok" } else { "failed" },
                if b.is_some() { "ok" } else { "failed" }
            ),
        }
    }
    if sum_ours > Duration::ZERO {
        println!(
            "total: ptxforge {:.1} ms, ptxas {:.1} ms, speedup {:.2}x",
            sum_ours.as_secs_f64() * 1e3,
            sum_ref.as_secs_f64() * 1e3,
            sum_ref.as_secs_f64() / sum_ours.as_secs_f64()
        );
    }
}
