//! The PTX ISA's instruction families per architecture: each family's snippet from
//! `benches/isa/families.txt` wrapped in a kernel, compiled by ptxforge for every target, and the
//! outcome (compiled, validated only, rejected) written as the table `benches/ISA_FAMILIES.md`.

use std::fmt::Write as _;

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::{Sm, TARGETS};

/// The family list with snippets, as checked in.
pub const FAMILIES_TXT: &str = include_str!("../isa/families.txt");

/// One instruction family of the ISA's "Instructions" chapter with its representative snippet.
#[derive(Clone, Debug)]
pub struct Family {
    /// The ISA section it belongs to, e.g. `9.7.1 Integer Arithmetic`.
    pub section: String,
    /// The family's name, e.g. `add` or `mma.bf16` (a form of a family the ISA lists with its own
    /// first target).
    pub name: String,
    /// The first architecture the ISA allows the snippet on (`sm_80`, `sm_90a`, `sm_100a`).
    pub first: String,
    /// Lines placed at module scope before the kernel (`@module ` lines).
    pub module_lines: Vec<String>,
    /// The snippet's instructions, placed in the kernel body.
    pub body_lines: Vec<String>,
}

/// What ptxforge does with a family's snippet at one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A cubin with real SASS.
    Compiled,
    /// The front end accepts it; the back end reports "not supported yet" (or another error).
    Validated,
    /// The front end rejects it (as ptxas does below the family's first target).
    Rejected,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Compiled => "compiled",
            Outcome::Validated => "validated only",
            Outcome::Rejected => "rejected",
        }
    }
}

/// Reads `families.txt`: `== section`, `-- family first-target`, snippet lines; `#` comments.
pub fn parse_families(text: &str) -> Result<Vec<Family>, String> {
    let mut families: Vec<Family> = Vec::new();
    let mut section = String::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(s) = line.strip_prefix("== ") {
            section = s.trim().to_string();
        } else if let Some(head) = line.strip_prefix("-- ") {
            let mut words = head.split_whitespace();
            let (Some(name), Some(first), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!(
                    "line {}: expected `-- <family> <first target>`",
                    n + 1
                ));
            };
            first
                .parse::<Sm>()
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            families.push(Family {
                section: section.clone(),
                name: name.to_string(),
                first: first.to_string(),
                module_lines: Vec::new(),
                body_lines: Vec::new(),
            });
        } else {
            let Some(f) = families.last_mut() else {
                return Err(format!("line {}: snippet line before any family", n + 1));
            };
            match line.strip_prefix("@module ") {
                Some(m) => f.module_lines.push(m.to_string()),
                None => f.body_lines.push(line.to_string()),
            }
        }
    }
    Ok(families)
}

/// The kernel around a snippet: registers the snippets use, loaded from global memory so that
/// nothing folds to a constant, and 4 KiB of shared memory addressed by %r4 (32-bit) and %rd4.
pub fn wrap_snippet(f: &Family, target: Sm) -> String {
    let mut s = format!(".version 9.5\n.target {target}\n.address_size 64\n\n");
    for l in &f.module_lines {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(KERNEL_HEAD);
    for l in &f.body_lines {
        s.push_str("\t");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("\tret;\n}\n");
    s
}

const KERNEL_HEAD: &str = "
.visible .entry probe(.param .u64 probe_p)
{
\t.reg .pred %p<8>;
\t.reg .b16 %h<20>;
\t.reg .b32 %r<20>;
\t.reg .b64 %rd<20>;
\t.reg .f32 %f<20>;
\t.reg .f64 %fd<20>;
\t.shared .align 128 .b8 smem[4096];
\tld.param.u64 %rd1, [probe_p];
\tcvta.to.global.u64 %rd1, %rd1;
\tld.global.u32 %r1, [%rd1];
\tld.global.u32 %r2, [%rd1+4];
\tld.global.u32 %r3, [%rd1+8];
\tld.global.u64 %rd2, [%rd1+16];
\tld.global.u64 %rd3, [%rd1+24];
\tld.global.f32 %f1, [%rd1+32];
\tld.global.f32 %f2, [%rd1+36];
\tld.global.f32 %f3, [%rd1+40];
\tld.global.f64 %fd1, [%rd1+48];
\tld.global.f64 %fd2, [%rd1+56];
\tld.global.f64 %fd3, [%rd1+64];
\tld.global.u16 %h1, [%rd1+72];
\tld.global.u16 %h2, [%rd1+74];
\tsetp.ne.s32 %p1, %r1, 0;
\tmov.u32 %r4, smem;
\tmov.u64 %rd4, smem;
";

/// Whether the ISA allows a snippet whose first target is `first` at `target`: an `a` target
/// only at itself, any other at every architecture from its own on.
pub fn isa_allows(first: &str, target: Sm) -> bool {
    let Ok(first) = first.parse::<Sm>() else {
        return false;
    };
    if first.accel {
        first == target
    } else {
        target.num >= first.num
    }
}

/// Compiles one family's snippet at `target`: the outcome and the first error, if any.
pub fn outcome_at(f: &Family, target: Sm) -> (Outcome, Option<String>) {
    let src = wrap_snippet(f, target);
    let file = format!("{}.ptx", f.name);
    let mut opts = CompileOptions {
        sm: target,
        parse_only: true,
        // "compiled" includes the hazard check, in release and debug builds alike.
        check_hazards: true,
        ..CompileOptions::default()
    };
    let first_error = |out: &ptxforge_pipeline::CompileOutput| {
        out.diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.message.clone())
    };
    let checked = compile_module(&src, &file, &opts);
    if checked.failed() {
        return (Outcome::Rejected, first_error(&checked));
    }
    opts.parse_only = false;
    let out = compile_module(&src, &file, &opts);
    if out.failed() || out.cubin.is_none() {
        return (Outcome::Validated, first_error(&out));
    }
    (Outcome::Compiled, None)
}

/// The outcomes of every family at every target in `TARGETS` order, with first errors.
pub fn survey(families: &[Family]) -> Vec<Vec<(Outcome, Option<String>)>> {
    families
        .iter()
        .map(|f| TARGETS.iter().map(|&t| outcome_at(f, t)).collect())
        .collect()
}

/// The markdown table `benches/ISA_FAMILIES.md`.
pub fn render_table(families: &[Family], results: &[Vec<(Outcome, Option<String>)>]) -> String {
    let mut md = String::new();
    md.push_str(TABLE_INTRO);
    render_summary(&mut md, families, results);
    let _ = write!(md, "\n| ISA section | family | ISA first target |");
    for t in TARGETS {
        let _ = write!(md, " {t} |");
    }
    md.push_str(" first error where not compiled (newest such target) |\n|---|---|---|");
    md.push_str(&"---|".repeat(TARGETS.len()));
    md.push_str("---|\n");
    for (f, row) in families.iter().zip(results) {
        let _ = write!(md, "| {} | `{}` | {} |", f.section, f.name, f.first);
        for (&t, (outcome, _)) in TARGETS.iter().zip(row) {
            let mark = if *outcome != Outcome::Rejected && !isa_allows(&f.first, t) {
                " (below ISA)"
            } else {
                ""
            };
            let _ = write!(md, " {}{mark} |", outcome.word());
        }
        let note = row
            .iter()
            .rev()
            .find_map(|(o, e)| (*o != Outcome::Compiled).then(|| e.clone()).flatten())
            .unwrap_or_default();
        let _ = writeln!(md, " {} |", escape_cell(&note));
    }
    md
}

const TABLE_INTRO: &str = "# PTX instruction families per architecture

Generated by `cargo run --release -p ptxforge-benches --bin isa_family_table` from
`benches/isa/families.txt` (the PTX ISA's own instruction list, chapter 9.7 \"Instructions\", one
representative snippet per family or per form with its own first target); do not edit by hand.
`cargo test -p ptxforge-benches --test isa_family_table` fails when this file is stale.
Each snippet is wrapped in a kernel and compiled with ptxforge at each target:
**compiled** (a cubin that passes the hazard checker), **validated only** (the front end accepts it, the back end reports an
error such as \"not supported yet\"), **rejected** (the front end rejects it; expected below the
ISA's first target, marked \"(below ISA)\" when a target below it is not rejected).
`isa_family_table --check-ptxas` checks every snippet with NVIDIA's ptxas: accepted exactly at the
targets the ISA allows.

";

fn render_summary(
    md: &mut String,
    families: &[Family],
    results: &[Vec<(Outcome, Option<String>)>],
) {
    md.push_str(
        "| target | families the ISA allows there | compiled | validated only | rejected |\n",
    );
    md.push_str("|---|---|---|---|---|\n");
    for (i, &t) in TARGETS.iter().enumerate() {
        let allowed: Vec<_> = families
            .iter()
            .zip(results)
            .filter(|(f, _)| isa_allows(&f.first, t))
            .map(|(_, r)| r[i].0)
            .collect();
        let count = |o: Outcome| allowed.iter().filter(|&&x| x == o).count();
        let _ = writeln!(
            md,
            "| {t} | {} | {} | {} | {} |",
            allowed.len(),
            count(Outcome::Compiled),
            count(Outcome::Validated),
            count(Outcome::Rejected)
        );
    }
    let _ = writeln!(md, "\n{} families and forms in all.", families.len());
}

fn escape_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_family_list_parses_and_names_known_targets() {
        let families = parse_families(FAMILIES_TXT).unwrap();
        assert!(families.len() > 150, "{} families", families.len());
        assert!(families.iter().all(|f| !f.body_lines.is_empty()));
        assert!(isa_allows("sm_80", Sm::new(90)));
        assert!(!isa_allows("sm_90a", Sm::new(90)));
        assert!(parse_families("-- add\n").is_err());
    }
}
