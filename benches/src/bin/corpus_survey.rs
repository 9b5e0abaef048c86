//! Prints which `../shared/corpus` modules ptxforge compiles, per architecture, with the first error,
//! then how many kernels compile at each module's own target and the commonest kernel errors.
//! `--dir DIR` surveys another folder of PTX (e.g. the generated PTX of `scripts/gen-ptx.sh`);
//! `--markdown FILE` also writes the results as markdown tables (`benches/GENERATED_SURVEY.md`).
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin corpus_survey -- [--dir DIR | DIR] [--markdown FILE]`

use std::path::PathBuf;

use ptxforge_benches::corpus_files;

#[path = "corpus_survey/survey_report.rs"]
mod survey_report;

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};

/// The `.target` of a module, e.g. `sm_80` or `sm_90a` (sm_75 when it names none we know).
fn module_target(src: &str) -> Sm {
    ptxforge_benches::module_target(src)
        .and_then(|t| t.parse().ok())
        .unwrap_or(Sm::new(75))
}

/// Where a module is surveyed: an `a` target at itself only (its code runs nowhere else), any
/// other at every supported architecture from its own on.
fn survey_targets(target: Sm) -> Vec<Sm> {
    if target.accel {
        return [target].into_iter().filter(|t| t.is_supported()).collect();
    }
    SUPPORTED_SMS
        .iter()
        .copied()
        .filter(|s| s.num >= target.num)
        .collect()
}

/// The command line: the folder to survey and where to write markdown, if anywhere.
struct Args {
    dir: PathBuf,
    markdown: Option<PathBuf>,
}

fn parse_args() -> Args {
    let mut dir = None;
    let mut markdown = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--dir" => dir = args.next().map(PathBuf::from),
            "--markdown" => markdown = args.next().map(PathBuf::from),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    Args { dir, markdown }
}

fn main() {
    let args = parse_args();
    let dir = &args.dir;
    let files = corpus_files(dir);
    if files.is_empty() {
        println!("skipped: no corpus at {}", dir.display());
        return;
    }
    let mut ok = 0;
    let mut tally = KernelTally::default();
    let mut report = survey_report::Report::default();
    for f in &files {
        let src = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let target = module_target(&src);
        let name = f.strip_prefix(dir).unwrap_or(f).display().to_string();
        for (i, sm) in survey_targets(target).into_iter().enumerate() {
            let verdict = survey_one(&src, &name, sm, (i == 0).then_some(&mut tally));
            if verdict == "ok" {
                ok += 1;
            }
            println!("{name}\t{sm}\t{verdict}");
            report.pairs.push((name.clone(), sm.to_string(), verdict));
        }
    }
    println!("compiled: {ok} module/arch pairs");
    tally.print();
    if let Some(path) = &args.markdown {
        report.kernels = std::mem::take(&mut tally.kernels);
        report.reasons = tally.sorted_reasons();
        report.nvcc_failures = survey_report::nvcc_failures(dir);
        std::fs::write(path, report.markdown()).unwrap();
        println!("wrote {}", path.display());
    }
}

/// Kernels compiled and failed at each module's own target, and failures by message.
#[derive(Default)]
struct KernelTally {
    compiled: usize,
    failed: usize,
    reasons: std::collections::HashMap<String, usize>,
    /// Every kernel at its module's own target: (module, kernel, first error if it failed).
    kernels: Vec<survey_report::KernelRow>,
}

impl KernelTally {
    fn add(&mut self, module: &str, src: &str, out: &ptxforge_pipeline::CompileOutput) {
        if out.kernels.is_empty() && out.failed() {
            let first = out.diagnostics.iter().find(|d| d.is_error());
            let message = first.map(|d| d.message.clone()).unwrap_or_default();
            let entries = src.lines().filter(|l| l.contains(".entry ")).count();
            self.kernels.push(survey_report::KernelRow {
                module: module.to_string(),
                kernel: format!("(all {entries} kernels: the front end rejects the module)"),
                error: Some(message),
                count: entries,
                front_end: true,
            });
        }
        for k in &out.kernels {
            let message = k.error.as_ref().map(|err| {
                let m = err.messages.first().map(|m| m.1.as_str()).unwrap_or("");
                m.to_string()
            });
            self.kernels.push(survey_report::KernelRow {
                module: module.to_string(),
                kernel: k.name.clone(),
                error: message,
                count: 1,
                front_end: false,
            });
            let Some(err) = &k.error else {
                self.compiled += 1;
                continue;
            };
            self.failed += 1;
            if std::env::var_os("SURVEY_KERNELS").is_some() {
                println!("kernel-failure\t{}\t{:?}", k.name, err.messages.first());
            }
            let message = err.messages.first().map(|m| m.1.as_str()).unwrap_or("");
            *self.reasons.entry(reason_of(message)).or_default() += 1;
        }
    }

    fn print(&self) {
        println!(
            "kernels at their own target: {} compiled, {} failed",
            self.compiled, self.failed
        );
        for (reason, n) in self.sorted_reasons().iter().take(40) {
            println!("{n:6}  {reason}");
        }
    }

    /// Kernel failures by message, commonest first.
    fn sorted_reasons(&self) -> Vec<(String, usize)> {
        let mut reasons: Vec<_> = self.reasons.iter().map(|(r, n)| (r.clone(), *n)).collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        reasons
    }
}

/// A kernel error with symbol names and numbers taken out, so alike failures count together.
fn reason_of(message: &str) -> String {
    let mut out = String::new();
    let mut in_quotes = false;
    for c in message.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                if in_quotes {
                    out.push_str("\"…");
                }
            }
            _ if in_quotes => {}
            _ => out.push(c),
        }
    }
    out.chars().take(120).collect()
}

fn survey_one(src: &str, name: &str, sm: Sm, tally: Option<&mut KernelTally>) -> String {
    let opts = CompileOptions {
        sm,
        check_hazards: true,
        ..CompileOptions::default()
    };
    let out = compile_module(src, name, &opts);
    if let Some(tally) = tally {
        tally.add(name, src, &out);
    }
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
