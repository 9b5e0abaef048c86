//! `ptxforge-gpu`: one kernel launch on a real GPU, ptxas's cubin and ours, compared with the PTX
//! interpreter (see `options.rs` for the command line). Prints `agree` (with `(ptxas cubin only:
//! ...)` where ptxforge cannot compile the kernel yet) and exits 0, or the first
//! difference or failure and exits 1, as `ptxforge sim` does; `skipped: no GPU (...)` and exit 0
//! where there is no driver or no device; a usage or setup problem exits 255.
//! `--probe` prints `sm_XX NAME` for the GPU (or the skip line).

use std::process::ExitCode;

use ptxforge_gpu::{check_on_gpu, open_gpu, parse_args};
use ptxforge_sim::Verdict;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let request = match parse_args(&argv) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("ptxforge-gpu: {msg}\nsee the options in pipeline/gpu/src/options.rs");
            return ExitCode::from(255);
        }
    };
    let gpu = match open_gpu() {
        Ok(gpu) => gpu,
        Err(why) => {
            println!("skipped: no GPU ({why})");
            return ExitCode::SUCCESS;
        }
    };
    if request.probe {
        println!("sm_{} {}", gpu.sm, gpu.name);
        return ExitCode::SUCCESS;
    }
    let sm = request.arch.unwrap_or(gpu.sm);
    if sm < request.min_sm {
        println!("skipped: needs sm_{} (sm_{sm} here)", request.min_sm);
        return ExitCode::SUCCESS;
    }
    let verdict = request
        .for_arch(sm)
        .and_then(|req| check_on_gpu(&gpu, &req));
    match verdict {
        Ok(outcome) => {
            let only = outcome.not_compiled.map(|why| {
                let first = why.split("; ").next().unwrap_or_default().to_string();
                format!(" (ptxas cubin only: {first})")
            });
            println!("{}{}", outcome.verdict, only.unwrap_or_default());
            match outcome.verdict {
                Verdict::Agree => ExitCode::SUCCESS,
                _ => ExitCode::from(1),
            }
        }
        Err(msg) => {
            eprintln!("ptxforge-gpu: {msg}");
            ExitCode::from(255)
        }
    }
}
