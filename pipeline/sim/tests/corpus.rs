//! The differential check over corpus kernels (../shared/corpus): each module is compiled once by
//! ptxas, then every entry runs on the PTX interpreter and on the emulator over ptxas's cubin with
//! seeded inputs. ptxforge cannot compile these modules yet, so our own cubins are not in this run.
//! Prints `skipped: ...` without the corpus or ptxas.

use std::path::{Path, PathBuf};

use ptxforge_ptx::ast::{Function, Module};
use ptxforge_sass::nvtools;
use ptxforge_sim::{check_parsed, Fill, SimRequest, Verdict};

/// Modules of the corpus this test runs, with their architecture.
const MODULES: &[(&str, u32)] = &[("cccl/thrust_algorithms.sm_80.ptx", 80), ("cccl/cub_device_algorithms.sm_90.ptx", 90)];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// The block size a kernel asks for (`.reqntid`/`.maxntid`, capped at 256), else 64.
fn block_of(f: &Function) -> u32 {
    for (name, vals) in &f.directives {
        if (name == "reqntid" || name == "maxntid") && !vals.is_empty() {
            return vals.iter().product::<u64>().clamp(1, 256) as u32;
        }
    }
    64
}

fn ptxas_cubin(file: &Path, sm: u32) -> Vec<u8> {
    let cubin = nvtools::ptxas_cubin(file, sm).expect("ptxas was found before");
    cubin.unwrap_or_else(|e| panic!("ptxas rejected {}: {e}", file.display()))
}

/// Outcomes: agreement; the interpreter stopping (a fault of the kernel's own on random inputs, or
/// an instruction it lacks: nothing to compare); the emulator meeting an opcode it does not claim
/// (coverage, listed); and disagreements (different buffers, hazards, faults only one side saw).
#[derive(Default)]
struct Tally {
    agree: Vec<String>,
    interpreter_stopped: Vec<String>,
    emulator_gaps: Vec<String>,
    disagree: Vec<String>,
}

fn run_module(module: &Module, file: &str, sm: u32, cubin: &[u8], tally: &mut Tally) {
    for f in module.functions.iter().filter(|f| f.is_entry && f.has_body) {
        let req = SimRequest {
            file_name: file.into(),
            entry: f.name.clone(),
            sm,
            grid: [2, 1, 1],
            block: [block_of(f), 1, 1],
            buffer_bytes: 64 << 10,
            fill: Fill::Small,
            seed: 0xc0ffee,
            auto_scalars: true,
            ..SimRequest::default()
        };
        let label = format!("{file} {}", f.name);
        match check_parsed(module, &req, &[("ptxas cubin", cubin)]) {
            Ok(Verdict::Agree) => tally.agree.push(label),
            Ok(Verdict::Failed { runner, error } | Verdict::Unsupported { runner, error }) if runner == "interpreter" => {
                tally.interpreter_stopped.push(format!("{label}: {error}"))
            }
            Ok(Verdict::Unsupported { error, .. }) => tally.emulator_gaps.push(format!("{label}: {error}")),
            Ok(v) => tally.disagree.push(format!("{label}: {v}")),
            Err(e) => tally.disagree.push(format!("{label}: setup: {e}")),
        }
    }
}

#[test]
fn corpus_kernels_agree_between_the_interpreter_and_ptxas_cubins() {
    let dir = corpus_dir();
    if nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (its cubins are what the emulator runs here)");
        return;
    }
    if !dir.join("MANIFEST.tsv").exists() {
        println!("skipped: corpus not found at {}", dir.display());
        return;
    }
    let mut tally = Tally::default();
    for (file, sm) in MODULES {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let module = ptxforge_ptx::parse_module(&text, file).unwrap();
        let cubin = ptxas_cubin(&path, *sm);
        run_module(&module, file, *sm, &cubin, &mut tally);
    }
    println!(
        "{} corpus kernels agree, {} stopped in the interpreter (kernel fault on random inputs or unsupported), \
         {} meet an opcode the emulator does not run yet, {} disagree",
        tally.agree.len(),
        tally.interpreter_stopped.len(),
        tally.emulator_gaps.len(),
        tally.disagree.len()
    );
    for line in tally.interpreter_stopped.iter().chain(&tally.emulator_gaps).chain(&tally.disagree) {
        println!("  {line}");
    }
    assert!(tally.disagree.is_empty(), "{} disagreements:\n{}", tally.disagree.len(), tally.disagree.join("\n"));
    assert!(tally.agree.len() >= 100, "only {} corpus kernels ran to agreement", tally.agree.len());
}
