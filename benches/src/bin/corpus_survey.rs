//! Prints which `../shared/corpus` modules ptxforge compiles, per architecture, with the first error.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin corpus_survey -- [CORPUS_DIR]`

use std::path::PathBuf;

use ptxforge_benches::corpus_files;

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};

/// The `.target` of a module, e.g. 80 for `.target sm_80`.
fn module_target(src: &str) -> u32 {
    src.lines()
        .find_map(|l| l.trim().strip_prefix(".target"))
        .and_then(|t| {
            let digits: String = t
                .trim()
                .trim_start_matches("sm_")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .unwrap_or(75)
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let files = corpus_files(&dir);
    if files.is_empty() {
        println!("skipped: no corpus at {}", dir.display());
        return;
    }
    let mut ok = 0;
    for f in &files {
        let src = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let target = module_target(&src);
        let name = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        for sm in SUPPORTED_SMS.iter().copied().filter(|s| s.num >= target) {
            let verdict = survey_one(&src, &name, sm);
            if verdict == "ok" {
                ok += 1;
            }
            println!("{name}\t{sm}\t{verdict}");
        }
    }
    println!("compiled: {ok} module/arch pairs");
}

fn survey_one(src: &str, name: &str, sm: Sm) -> String {
    let opts = CompileOptions {
        sm,
        check_hazards: true,
        ..CompileOptions::default()
    };
    let out = compile_module(src, name, &opts);
    if out.failed() {
        let first = out
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.to_string())
            .unwrap_or_default();
        format!("FAIL {}", first.chars().take(160).collect::<String>())
    } else {
        "ok".into()
    }
}
