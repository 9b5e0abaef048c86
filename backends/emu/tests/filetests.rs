//! Every filetest kernel, compiled by ptxas and by ptxforge for each architecture, runs in the
//! emulator with zero hazards and produces the results computed by the test itself.

mod common;

use common::cases::CASES;
use common::*;
use ptxforge_emu::opcodes::OpSet;
use ptxforge_emu::{run_kernel, EmuOptions};

/// Runs one case on one cubin; Err describes the failure.
fn run_case(case: &Case, cubin: &[u8], seed: u64) -> Result<OpSet, String> {
    let mut rng = Rng::new(seed);
    let mut s = (case.setup)(&mut rng);
    let stats = run_kernel(
        cubin,
        case.kernel,
        &s.launch,
        &s.params,
        &mut s.buffers,
        &EmuOptions {
            check_uninit: true,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    compare(&s.buffers, &s)?;
    Ok(stats.opcodes_run)
}

/// Runs every case on every architecture; returns the runs, the failures and, per architecture,
/// the opcodes executed.
fn run_all(
    which: &str,
    cubin_of: impl Fn(&str, u32) -> Option<Result<Vec<u8>, String>>,
) -> (usize, Vec<String>, Vec<(u32, OpSet)>) {
    let mut ran = 0;
    let mut failures = Vec::new();
    let mut executed = Vec::new();
    for sm in SMS {
        let mut ops = OpSet::default();
        // One compile per file (several cases share one).
        let mut compiled: std::collections::HashMap<&str, Option<Result<Vec<u8>, String>>> =
            std::collections::HashMap::new();
        // ptxas's sm_90 code for __syncwarp in divergent code is a WARPSYNC.COLLECTIVE region,
        // which the emulator does not run.
        for case in CASES
            .iter()
            .filter(|c| target_sm(c.file) <= sm && (c.kernel != "syncwarp_diverged" || sm < 90))
            // sm_90 has no fp8 tensor op: ptxas converts to f16 for HMMA (F2FP.UNPACK_B).
            .filter(|c| c.kernel != "mma89" || sm == 89)
        {
            let cubin = match compiled
                .entry(case.file)
                .or_insert_with(|| cubin_of(case.file, sm))
                .clone()
            {
                None => return (ran, failures, executed),
                Some(Err(e)) => {
                    println!(
                        "skipped: {which} cannot compile {} for sm_{sm}: {}",
                        case.file,
                        e.split("; ").next().unwrap_or("")
                    );
                    continue;
                }
                Some(Ok(c)) => c,
            };
            for seed in 1..=3 {
                ran += 1;
                let outcome = run_case(case, &cubin, seed);
                if let Ok(o) = outcome {
                    ops |= o;
                }
                if let Err(e) = outcome {
                    failures.push(format!(
                        "{which} sm_{sm} {}:{} seed {seed}: {e}",
                        case.file, case.kernel
                    ));
                    break;
                }
            }
        }
        executed.push((sm, ops));
    }
    (ran, failures, executed)
}

#[test]
fn ptxas_cubins_run_correctly_without_hazards() {
    if ptxforge_sass::nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (set PTXFORGE_NV)");
        return;
    }
    let (ran, mut failures, executed) = run_all("ptxas", |f, sm| ptxas_cubin(f, sm).map(Ok));
    println!("{ran} ptxas runs");
    // Every opcode the emulator claims for an architecture ran correctly on ptxas's code for it.
    for (sm, ops) in executed {
        let run = ptxforge_emu::EmuStats {
            opcodes_run: ops,
            ..Default::default()
        }
        .opcodes();
        // (NOP only pads the code after the final EXIT; it is never reached. BPT.TRAP stops the
        // kernel: `pipeline/sim/tests/trap.rs` runs it on ptxas's code and expects the trap.
        // USETMAXREG is sm_90a's, which these sm_90 runs do not compile for:
        // `pipeline/sim/tests/setmaxnreg.rs` runs it on ptxas's code.)
        for op in ptxforge_emu::supported_opcodes(sm)
            .into_iter()
            .filter(|&op| op != "NOP" && op != "BPT" && op != "USETMAXREG")
        {
            if !run.contains(&op) {
                failures.push(format!(
                    "sm_{sm}: {op} is listed as supported but no ptxas code ran it"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn our_cubins_run_correctly_without_hazards() {
    let (ran, failures, _) = run_all("ptxforge", |f, sm| Some(our_cubin(f, sm)));
    println!("{ran} ptxforge runs");
    assert!(ran > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
