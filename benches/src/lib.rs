//! Shared helpers for ptxforge's benchmarks (which print ratios against ptxas): the corpus's
//! files, child-process measurement, and synthetic modules.
//!
//! ## What lives where
//!
//! `throughput` (wall, CPU and peak-RSS ratios against ptxas, 1 and all threads, a load report;
//! writes BENCHMARKS.md), `code_quality` (registers, SASS instructions and local bytes per kernel
//! against ptxas), `sim_cycles` (the emulator's modelled cycles and executed instructions of every
//! sim kernel launch, our cubin against ptxas's), `runtime_bench` (task overhead, 1→2 worker scaling, static vs dynamic),
//! `corpus_survey` (which corpus modules compile, per architecture), `parse_bench` (lex + parse +
//! validate MB/s over the corpus and a generated 100 MB module, against ptxas), `isa_family_table`
//! (the PTX ISA's instruction families per architecture, `isa_families.rs`, written to
//! `ISA_FAMILIES.md`); `measure.rs`
//! (child processes measured by `wait4`), `synth.rs` (synthetic modules).

use std::path::{Path, PathBuf};

pub mod isa_families;
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

/// The first architecture a module's `.target` names (`sm_80`, `sm_90a`), if any.
pub fn module_target(src: &str) -> Option<&str> {
    src.lines()
        .find_map(|l| l.trim().strip_prefix(".target"))
        .and_then(|t| t.split([',', ' ', '\t']).find(|w| !w.is_empty()))
}

/// The `-arch` a benchmark compiles a module for: its `.target`, except that modules for sm_75
/// (the generated ones) and modules naming none are compiled for sm_80.
pub fn bench_arch(src: &str) -> String {
    module_target(src)
        .filter(|t| *t != "sm_75")
        .unwrap_or("sm_80")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_read_as_the_benchmarks_compile_them() {
        let m = |t: &str| format!(".version 8.0\n.target {t}\n.address_size 64\n");
        assert_eq!(module_target(&m("sm_90a")), Some("sm_90a"));
        assert_eq!(
            module_target(&m("sm_80, texmode_independent")),
            Some("sm_80")
        );
        assert_eq!(bench_arch(&m("sm_89")), "sm_89");
        assert_eq!(bench_arch(&m("sm_75")), "sm_80");
        assert_eq!(bench_arch(".version 8.0\n"), "sm_80");
    }
}
