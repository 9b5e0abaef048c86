//! Runs every entry of the corpus (../shared/corpus, per MANIFEST.tsv) on a small launch with
//! random buffers and counts how many complete, stop on a fault of the kernel's own making for
//! random inputs (out of bounds, misaligned, step limit, trap, deadlock), or stop on something the
//! interpreter lacks (unsupported instruction, unresolved module feature); prints the most frequent
//! missing opcodes. Prints `skipped: ...` when the corpus is absent.

mod common;

use std::collections::BTreeMap;

use ptxforge_interp::{param_layout, run_kernel, Buffer, Launch, Limits, SimError, Space};
use ptxforge_ptx::ast::Function;

/// Each pointer parameter gets its own buffer of this many bytes, at 0x1_0000_0000 * (i + 1).
const BUF_BYTES: usize = 1 << 16;

fn block_of(f: &Function) -> u32 {
    for (name, vals) in &f.directives {
        if (name == "reqntid" || name == "maxntid") && !vals.is_empty() {
            let n: u64 = vals.iter().product();
            return n.clamp(1, 256) as u32;
        }
    }
    64
}

#[derive(Default)]
struct Tally {
    completed: u32,
    kernel_fault: u32,
    unsupported: u32,
    other: u32,
    missing: BTreeMap<String, u32>,
    faults: BTreeMap<&'static str, u32>,
}

fn run_entry(m: &ptxforge_ptx::ast::Module, f: &Function, seed: u64) -> Result<(), SimError> {
    let slots = param_layout(m, &f.name)?;
    let end = slots
        .iter()
        .map(|s| (s.offset + s.size) as usize)
        .max()
        .unwrap_or(0);
    let mut params = vec![0u8; end];
    let mut rng = common::Rng(seed | 1);
    let mut bufs = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        let at = s.offset as usize;
        if s.is_pointer_hint {
            let addr = 0x1_0000_0000u64 * (i as u64 + 1);
            let bytes = (0..BUF_BYTES).map(|_| (rng.next() % 4) as u8).collect();
            bufs.push(Buffer { addr, bytes });
            params[at..at + 8].copy_from_slice(&addr.to_le_bytes());
        } else {
            // Small integers: sizes and counts stay small; struct parameters get small words.
            for b in params[at..at + s.size as usize].iter_mut().step_by(4) {
                *b = (rng.next() % 16) as u8;
            }
        }
    }
    let launch = Launch {
        grid: [2, 1, 1],
        block: [block_of(f), 1, 1],
    };
    let limits = Limits {
        max_steps_per_thread: 20_000,
        dynamic_shared_bytes: 16 << 10,
        ..Limits::default()
    };
    run_kernel(m, &f.name, &launch, &params, &mut bufs, &limits).map(|_| ())
}

#[test]
fn corpus_survey() {
    let root = common::repo_root().join("../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(root.join("MANIFEST.tsv")) else {
        println!("skipped: no corpus at {}", root.display());
        return;
    };
    let mut t = Tally::default();
    for line in manifest.lines().skip(1) {
        let Some(rel) = line.split('\t').next() else {
            continue;
        };
        let Ok(src) = std::fs::read_to_string(root.join(rel)) else {
            continue;
        };
        let Ok(m) = ptxforge_ptx::parse_module(&src, rel) else {
            println!("  parse failed: {rel}");
            continue;
        };
        for (k, f) in m
            .functions
            .iter()
            .filter(|f| f.is_entry && f.has_body)
            .enumerate()
        {
            match run_entry(&m, f, k as u64 + 17) {
                Ok(()) => t.completed += 1,
                Err(e) if e.is_kernel_fault() => {
                    t.kernel_fault += 1;
                    if std::env::var_os("SURVEY_VERBOSE").is_some() {
                        println!("  fault {rel} {:.50}: {e}", f.name);
                    }
                    let kind = match e {
                        SimError::OutOfBounds {
                            space: Space::Global,
                            ..
                        } => "out of bounds (global)",
                        SimError::OutOfBounds { .. } => "out of bounds (other space)",
                        SimError::Misaligned { .. } => "misaligned",
                        SimError::StepLimit { .. } => "step limit",
                        SimError::Deadlock { .. } => "deadlock",
                        SimError::Trap { .. } => "trap",
                        _ => "other",
                    };
                    *t.faults.entry(kind).or_default() += 1;
                }
                Err(SimError::Unsupported { opcode, .. }) => {
                    t.unsupported += 1;
                    *t.missing.entry(opcode).or_default() += 1;
                }
                Err(e) => {
                    t.other += 1;
                    println!("  {rel} {:.60}: {e}", f.name);
                }
            }
        }
    }
    let total = t.completed + t.kernel_fault + t.unsupported + t.other;
    println!(
        "corpus entries: {total}; completed {}; kernel faults {} {:?}; unsupported {}; other {}",
        t.completed, t.kernel_fault, t.faults, t.unsupported, t.other
    );
    let mut top: Vec<_> = t.missing.into_iter().collect();
    top.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (op, n) in top.iter().take(25) {
        println!("  missing {n:4}  {op}");
    }
    assert!(total > 0, "the corpus has entries");
}
