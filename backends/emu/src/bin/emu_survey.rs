//! Survey: compiles PTX files with ptxas and runs every kernel in the emulator with synthetic
//! inputs (every 8-byte parameter slot points into one zeroed buffer), tallying how far each run
//! gets. Hazards reported in ptxas's code mean the latency model is too strict; unsupported
//! opcodes show what to implement next.
//! Usage: `cargo run --release -p ptxforge-emu --bin emu_survey -- [-arch=sm_80] FILE.ptx...`

use std::collections::BTreeMap;
use std::process::Command;

use ptxforge_emu::{cubin, run_kernel, Buffer, EmuError, EmuOptions, Launch};

const BUFFER: u64 = 0x7f00_0000_0000;
const BUFFER_BYTES: usize = 1 << 20;

fn main() {
    let mut arch = "sm_80".to_string();
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        match a.strip_prefix("-arch=") {
            Some(v) => arch = v.to_string(),
            None => files.push(a),
        }
    }
    let Some(ptxas) = ptxforge_sass::nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV)");
        return;
    };
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let out = std::env::temp_dir().join(format!("emu_survey_{}.cubin", std::process::id()));
    for f in &files {
        let ok = Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(f)
            .arg("-o")
            .arg(&out)
            .status()
            .is_ok_and(|s| s.success());
        let Some(bytes) = ok.then(|| std::fs::read(&out).ok()).flatten() else {
            *tally.entry("ptxas failed".into()).or_default() += 1;
            continue;
        };
        for k in cubin::kernel_names(&bytes).unwrap_or_default() {
            let outcome = run_one(&bytes, &k);
            if outcome.starts_with("hazard") {
                println!("{f} {k}: {outcome}");
            }
            *tally
                .entry(outcome.split(':').next().unwrap_or("").to_string())
                .or_default() += 1;
        }
    }
    let _ = std::fs::remove_file(&out);
    let mut rows: Vec<_> = tally.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (what, n) in rows {
        println!("{n:6}  {what}");
    }
}

/// Runs one kernel; returns a short outcome ("ok", "hazard: ...", "unsupported XYZ", ...).
fn run_one(bytes: &[u8], kernel: &str) -> String {
    let Ok(image) = cubin::load_kernel(bytes, kernel) else {
        return "bad cubin".into();
    };
    let mut params = vec![0u8; image.param_size as usize];
    for slot in params.chunks_mut(8) {
        let v = (BUFFER + 0x1000).to_le_bytes();
        slot.copy_from_slice(&v[..slot.len()]);
    }
    let mut buffers = [Buffer {
        addr: BUFFER,
        bytes: vec![0; BUFFER_BYTES],
    }];
    let launch = Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
    };
    let opts = EmuOptions {
        max_steps: 200_000,
        ..Default::default()
    };
    match run_kernel(bytes, kernel, &launch, &params, &mut buffers, &opts) {
        Ok(_) => "ok".into(),
        Err(EmuError::Hazard { .. }) => format!(
            "hazard: {}",
            run_kernel(bytes, kernel, &launch, &params, &mut buffers, &opts)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        ),
        Err(EmuError::Unsupported { what, opcode, .. }) if what == "unknown opcode" => {
            format!("unsupported opcode {opcode:#05x}")
        }
        Err(EmuError::Unsupported { what, .. }) => format!("unsupported {what}"),
        Err(e) => e
            .to_string()
            .split(' ')
            .take(2)
            .collect::<Vec<_>>()
            .join(" "),
    }
}
