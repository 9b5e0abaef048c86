//! Shared helpers for ptxforge's benchmarks (which print ratios against ptxas): the corpus's
//! files, child-process measurement, and synthetic modules.
//!
//! ## What lives where
//!
//! `throughput` (wall, CPU and peak-RSS ratios against ptxas, 1 and all threads, a load report;
//! writes BENCHMARKS.md), `code_quality` (registers, SASS instructions and local bytes per kernel
//! against ptxas), `runtime_bench` (task overhead, 1→2 worker scaling, static vs dynamic),
//! `corpus_survey` (which corpus modules compile, per architecture), `parse_bench` (lex + parse +
//! validate MB/s over the corpus and a generated 100 MB module, against ptxas); `measure.rs`
//! (child processes measured by `wait4`), `synth.rs` (synthetic modules).

use std::path::{Path, PathBuf};

pub mod measure;
pub mod synth;

/// Every `.ptx` file below `dir`, sorted (the corpus keeps modules in sub-folders).
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            files.extend(corpus_files(&p));
        } else if p.extension().is_some_and(|x| x == "ptx") {
            files.push(p);
        }
    }
    files.sort();
    files
}
