//! Shared helpers for ptxforge's benchmarks (which print ratios against ptxas): the corpus's
//! files, child-process measurement, and synthetic modules.

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
