//! Register reconfiguration under register pressure (tests/kernels/setmaxnreg_pressure.ptx,
//! sm_90a) three ways: the PTX interpreter, the emulator on ptxas's cubin and the emulator on
//! ours must leave the same buffers, for several seeds; and our code keeps each region within
//! ptxas's limit (R0..R(N-3) after `setmaxnreg N`: R37 in the 40-register producer region, R229
//! in the 232-register consumer region) while the kernel reports its entry budget, 168.
//! Prints `skipped: ...` and passes when ptxas is absent.

use std::path::Path;

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::nvtools;
use ptxforge_sim::{check_cubins, SimRequest, Verdict};

const FILE: &str = "setmaxnreg_pressure.ptx";
const ENTRY: &str = "setmaxnreg_pressure";

fn kernel_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kernels")
        .join(FILE)
}

/// The highest GPR each printed instruction names (a `.64` operand or a wide load's destination
/// counts its last register).
fn highest_gpr(line: &str) -> Option<u32> {
    let text = line.split("*/").nth(1)?.split(';').next()?;
    let wide = text.contains(".64 R") || text.contains(".128 R");
    let mut best = None;
    for (k, word) in text.split([' ', ',', '[', ']', '|', '-', '!']).enumerate() {
        let Some(n) = word.strip_prefix('R') else {
            continue;
        };
        let (num, pair) = match n.strip_suffix(".64") {
            Some(num) => (num, 1),
            None => (n, 0),
        };
        let Ok(r) = num.parse::<u32>() else { continue };
        let extra = if wide && k <= 2 { 3 } else { pair };
        best = best.max(Some(r + extra));
    }
    best
}

#[test]
fn setmaxnreg_regions_keep_their_budgets_and_agree_three_ways() {
    let path = kernel_path();
    let ptx = std::fs::read_to_string(&path).unwrap();
    let opts = CompileOptions {
        sm: Sm::accelerated(90),
        check_hazards: true,
        keep_sass_text: true,
        ..CompileOptions::default()
    };
    let out = compile_module(&ptx, FILE, &opts);
    let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
    let cubin = out
        .cubin
        .clone()
        .unwrap_or_else(|| panic!("{}", msgs.join("; ")));
    let k = &out.kernels[0];
    assert_eq!(k.regs, 168, "the entry budget is reported");
    let text = k.sass_text.as_deref().unwrap();
    let (mut region, mut highest) = ("entry", [0u32; 3]);
    for line in text.lines() {
        if line.contains("USETMAXREG.TRY_ALLOC") {
            region = "consumer";
        } else if line.contains("USETMAXREG.DEALLOC") {
            region = "producer";
        }
        let slot = match region {
            "entry" => 0,
            "consumer" => 1,
            _ => 2,
        };
        if let Some(r) = highest_gpr(line) {
            highest[slot] = highest[slot].max(r);
        }
    }
    assert!(highest[0] <= 165, "entry region uses R{}", highest[0]);
    assert!(highest[1] <= 229, "consumer region uses R{}", highest[1]);
    assert!(
        highest[1] > 165,
        "200 live values in the consumer region: R{}",
        highest[1]
    );
    assert!(highest[2] <= 37, "producer region uses R{}", highest[2]);
    assert!(text.contains("STL"), "the producer region spills");

    let Some(reference) = nvtools::ptxas_cubin_for(&path, "sm_90a") else {
        println!("skipped: ptxas not found (the kernel is checked against ptxas's cubin)");
        return;
    };
    let reference = reference.unwrap_or_else(|e| panic!("ptxas rejected {FILE}: {e}"));
    if let Some(Err(e)) = nvtools::nvdisasm_accepts(&cubin) {
        panic!("nvdisasm rejects our cubin: {e}");
    }
    let mut failures = Vec::new();
    for seed in 1..=3 {
        let req = SimRequest {
            ptx: ptx.clone(),
            file_name: FILE.into(),
            entry: ENTRY.to_string(),
            sm: 90,
            grid: [1, 1, 1],
            block: [384, 1, 1],
            buffer_bytes: 4096,
            seed,
            ..SimRequest::default()
        };
        let cubins: Vec<(&str, &[u8])> =
            vec![("ptxas cubin", &reference), ("ptxforge cubin", &cubin)];
        match check_cubins(&req, &cubins) {
            Ok(Verdict::Agree) => {}
            v => failures.push(format!("seed {seed}: {v:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
