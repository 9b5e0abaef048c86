//! The warpgroup MMA kernels (tests/kernels/wgmma.ptx, sm_90a) three ways: the PTX interpreter,
//! the emulator on ptxas's cubin and the emulator on ours must leave the same buffers, for several
//! seeds. Prints `skipped: ...` and passes when ptxas is absent.

use std::path::Path;

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::nvtools;
use ptxforge_sim::{check_cubins, SimRequest, Verdict};

const FILE: &str = "wgmma.ptx";
const ENTRIES: &[&str] = &[
    "wgmma_f16_n16",
    "wgmma_f16_acc16",
    "wgmma_bf16_n16",
    "wgmma_tf32_n16",
    "wgmma_loop",
];

fn ours(ptx: &str, entry: &str) -> Vec<u8> {
    let opts = CompileOptions {
        sm: Sm::accelerated(90),
        entries: vec![entry.to_string()],
        check_hazards: true,
        ..CompileOptions::default()
    };
    let out = compile_module(ptx, FILE, &opts);
    out.cubin.unwrap_or_else(|| {
        let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        panic!("ptxforge could not compile {entry}: {}", msgs.join("; "))
    })
}

#[test]
fn warpgroup_mma_kernels_agree_three_ways() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kernels")
        .join(FILE);
    let Some(reference) = nvtools::ptxas_cubin_for(&path, "sm_90a") else {
        println!("skipped: ptxas not found (the kernels are checked against ptxas's cubins)");
        return;
    };
    let reference = reference.unwrap_or_else(|e| panic!("ptxas rejected {FILE}: {e}"));
    let ptx = std::fs::read_to_string(&path).unwrap();
    let mut failures = Vec::new();
    for entry in ENTRIES {
        let cubin = ours(&ptx, entry);
        if let Some(Err(e)) = nvtools::nvdisasm_accepts(&cubin) {
            failures.push(format!("{entry}: nvdisasm rejects our cubin: {e}"));
            continue;
        }
        for seed in 1..=4 {
            let req = SimRequest {
                ptx: ptx.clone(),
                file_name: FILE.into(),
                entry: entry.to_string(),
                sm: 90,
                grid: [1, 1, 1],
                block: [128, 1, 1],
                buffer_bytes: 16384,
                seed,
                ..SimRequest::default()
            };
            let cubins: Vec<(&str, &[u8])> =
                vec![("ptxas cubin", &reference), ("ptxforge cubin", &cubin)];
            match check_cubins(&req, &cubins) {
                Ok(Verdict::Agree) => {}
                v => failures.push(format!("{entry} seed {seed}: {v:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
