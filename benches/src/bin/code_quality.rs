//! The code-quality report: compiles modules with ptxforge and ptxas for the same architecture
//! and prints, per kernel and in total, registers, static SASS instructions (NOPs and the final
//! self-branch left out) and local-memory bytes (spills and `.local`), read back from both cubins
//! by `cuobjdump` so that both are counted the same way. Markdown on stdout, JSON with `--json`.
//!
//! Usage: `cargo build --release && cargo run --release -p ptxforge-benches --bin code_quality --
//! [--json FILE] [--per-kernel] [MODULE.ptx[:sm_XX] ...]`. Without modules: every corpus module
//! (at its own target) that ptxforge compiles whole, plus the filetests at sm_80.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptxforge_benches::{bench_arch, corpus_files};
use ptxforge_sass::nvtools;

/// What one compiler made of one kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct KernelCost {
    registers: u32,
    instructions: u32,
    local_bytes: u32,
}

/// Per kernel name, from one cubin.
type CubinCosts = BTreeMap<String, KernelCost>;

/// `REG:` and `LOCAL:` per function from `cuobjdump -res-usage`.
fn parse_res_usage(text: &str, costs: &mut CubinCosts) {
    let mut current = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("Function ")
            .and_then(|l| l.strip_suffix(':'))
        {
            current = Some(name.to_string());
            continue;
        }
        let Some(name) = &current else { continue };
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key)?.parse::<u32>().ok())
        };
        if let Some(regs) = field("REG:") {
            let c = costs.entry(name.clone()).or_default();
            c.registers = regs;
            c.local_bytes = field("LOCAL:").unwrap_or(0);
        }
    }
}

/// Instructions per function from `cuobjdump -sass`, without NOPs and the trailing `BRA` to itself.
fn parse_sass(text: &str, costs: &mut CubinCosts) {
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function : ") {
            current = Some(name.trim().to_string());
            continue;
        }
        let Some(name) = &current else { continue };
        let Some(rest) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) else {
            continue;
        };
        let (Ok(addr), instr) = (u64::from_str_radix(rest.0, 16), rest.1.trim()) else {
            continue;
        };
        if instr.is_empty() || instr.starts_with("/*") {
            continue;
        }
        let text = instr.split(';').next().unwrap_or("").trim();
        let mut words = text.split_whitespace().filter(|w| !w.starts_with('@'));
        let opcode = words.next().unwrap_or("");
        let target = words
            .next()
            .and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok());
        let self_branch = opcode == "BRA" && target == Some(addr);
        if opcode.is_empty() || opcode == "NOP" || self_branch {
            continue;
        }
        costs.entry(name.clone()).or_default().instructions += 1;
    }
}

fn tool_text(tool: &Path, args: &[&str], cubin: &Path) -> Option<String> {
    let out = Command::new(tool).args(args).arg(cubin).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn costs_of(cuobjdump: &Path, cubin: &Path) -> Option<CubinCosts> {
    let mut costs = CubinCosts::new();
    parse_res_usage(&tool_text(cuobjdump, &["-res-usage"], cubin)?, &mut costs);
    parse_sass(&tool_text(cuobjdump, &["-sass"], cubin)?, &mut costs);
    Some(costs)
}

/// Compiles `ptx` for `arch` with `exe`; the cubin's path, or None when the compile failed.
fn compile(exe: &Path, ptx: &Path, arch: &str, out: &Path) -> Option<PathBuf> {
    let st = Command::new(exe)
        .arg(format!("-arch={arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(out)
        .output()
        .ok()?;
    st.status.success().then(|| out.to_path_buf())
}

fn target_of(ptx: &Path) -> String {
    bench_arch(&std::fs::read_to_string(ptx).unwrap_or_default())
}

/// One module's kernels, ours and ptxas's side by side.
struct ModuleReport {
    name: String,
    arch: String,
    kernels: Vec<(String, KernelCost, KernelCost)>,
}

impl ModuleReport {
    fn totals(&self) -> (KernelCost, KernelCost, usize) {
        let mut ours = KernelCost::default();
        let mut theirs = KernelCost::default();
        let mut good = 0;
        for (_, a, b) in &self.kernels {
            for (sum, k) in [(&mut ours, a), (&mut theirs, b)] {
                sum.registers += k.registers;
                sum.instructions += k.instructions;
                sum.local_bytes += k.local_bytes;
            }
            if a.registers <= b.registers && a.instructions as f64 <= 1.10 * b.instructions as f64 {
                good += 1;
            }
        }
        (ours, theirs, good)
    }
}

fn report_module(
    ours_exe: &Path,
    ptxas: &Path,
    cuobjdump: &Path,
    ptx: &Path,
    arch: &str,
) -> Result<ModuleReport, String> {
    let dir = std::env::temp_dir();
    let stem = format!("ptxforge-quality-{}", std::process::id());
    let ours = compile(ours_exe, ptx, arch, &dir.join(format!("{stem}.ours.cubin")))
        .ok_or("ptxforge does not compile it whole")?;
    let theirs = compile(ptxas, ptx, arch, &dir.join(format!("{stem}.ptxas.cubin")))
        .ok_or("ptxas rejects it")?;
    let a = costs_of(cuobjdump, &ours).ok_or("cuobjdump rejects our cubin")?;
    let b = costs_of(cuobjdump, &theirs).ok_or("cuobjdump rejects ptxas's cubin")?;
    let kernels = a
        .iter()
        .filter_map(|(name, k)| Some((name.clone(), *k, *b.get(name)?)))
        .collect();
    Ok(ModuleReport {
        name: ptx.file_name().unwrap().to_string_lossy().into_owned(),
        arch: arch.to_string(),
        kernels,
    })
}

fn ratio(ours: u32, theirs: u32) -> String {
    if theirs == 0 {
        "-".into()
    } else {
        format!("{:.2}", ours as f64 / theirs as f64)
    }
}

fn markdown(reports: &[ModuleReport], per_kernel: bool) -> String {
    let mut s = String::from(
        "| module | kernels | SASS instrs ours / ptxas | registers ours / ptxas | local bytes ours / ptxas | kernels within 1.10x instrs and <= regs |\n|---|---|---|---|---|---|\n",
    );
    let (mut all_a, mut all_b, mut all_good, mut all_n) =
        (KernelCost::default(), KernelCost::default(), 0, 0);
    for r in reports {
        let (a, b, good) = r.totals();
        let _ = writeln!(
            s,
            "| {} ({}) | {} | {} ({} / {}) | {} ({} / {}) | {} / {} | {} |",
            r.name,
            r.arch,
            r.kernels.len(),
            ratio(a.instructions, b.instructions),
            a.instructions,
            b.instructions,
            ratio(a.registers, b.registers),
            a.registers,
            b.registers,
            a.local_bytes,
            b.local_bytes,
            good
        );
        all_a.instructions += a.instructions;
        all_b.instructions += b.instructions;
        all_a.registers += a.registers;
        all_b.registers += b.registers;
        all_good += good;
        all_n += r.kernels.len();
    }
    let _ = writeln!(
        s,
        "| **total** | {all_n} | {} ({} / {}) | {} ({} / {}) | | {all_good} of {all_n} |",
        ratio(all_a.instructions, all_b.instructions),
        all_a.instructions,
        all_b.instructions,
        ratio(all_a.registers, all_b.registers),
        all_a.registers,
        all_b.registers,
    );
    if per_kernel {
        s.push_str("\n| module | kernel | instrs ours / ptxas | regs ours / ptxas | local ours / ptxas |\n|---|---|---|---|---|\n");
        for r in reports {
            for (k, a, b) in &r.kernels {
                let _ = writeln!(
                    s,
                    "| {} | {k} | {} / {} | {} / {} | {} / {} |",
                    r.name,
                    a.instructions,
                    b.instructions,
                    a.registers,
                    b.registers,
                    a.local_bytes,
                    b.local_bytes
                );
            }
        }
    }
    s
}

fn json(reports: &[ModuleReport]) -> String {
    let cost = |k: &KernelCost| {
        format!(
            "{{\"registers\":{},\"instructions\":{},\"local_bytes\":{}}}",
            k.registers, k.instructions, k.local_bytes
        )
    };
    let modules: Vec<String> = reports
        .iter()
        .map(|r| {
            let kernels: Vec<String> = r
                .kernels
                .iter()
                .map(|(n, a, b)| {
                    format!(
                        "{{\"kernel\":\"{n}\",\"ptxforge\":{},\"ptxas\":{}}}",
                        cost(a),
                        cost(b)
                    )
                })
                .collect();
            format!(
                "{{\"module\":\"{}\",\"arch\":\"{}\",\"kernels\":[{}]}}",
                r.name,
                r.arch,
                kernels.join(",")
            )
        })
        .collect();
    format!("{{\"modules\":[{}]}}\n", modules.join(","))
}

fn default_inputs() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<(PathBuf, String)> = corpus_files(&root.join("../../shared/corpus"))
        .into_iter()
        .map(|p| {
            let arch = target_of(&p);
            (p, arch)
        })
        .filter(|(_, arch)| !arch.ends_with('a'))
        .collect();
    let mut filetests: Vec<PathBuf> =
        std::fs::read_dir(root.join("../pipeline/driver/tests/filetests"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
    filetests.sort();
    v.extend(filetests.into_iter().map(|p| (p, "sm_80".to_string())));
    v
}

fn main() {
    let mut json_out = None;
    let mut per_kernel = false;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json_out = args.next().map(PathBuf::from),
            "--per-kernel" => per_kernel = true,
            _ => match a.rsplit_once(":sm_") {
                Some((p, n)) => inputs.push((PathBuf::from(p), format!("sm_{n}"))),
                None => inputs.push((PathBuf::from(&a), target_of(Path::new(&a)))),
            },
        }
    }
    let (Some(ptxas), Some(cuobjdump)) = (nvtools::tool("ptxas"), nvtools::tool("cuobjdump"))
    else {
        println!("skipped: ptxas/cuobjdump not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    };
    let ours = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/ptxforge");
    if !ours.is_file() {
        println!("skipped: build target/release/ptxforge first (cargo build --release)");
        return;
    }
    if inputs.is_empty() {
        inputs = default_inputs();
    }
    let mut reports = Vec::new();
    for (ptx, arch) in &inputs {
        match report_module(&ours, &ptxas, &cuobjdump, ptx, arch) {
            Ok(r) => reports.push(r),
            Err(why) => eprintln!("{}: left out ({why})", ptx.display()),
        }
    }
    print!("{}", markdown(&reports, per_kernel));
    if let Some(path) = json_out {
        std::fs::write(path, json(&reports)).expect("write json");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn res_usage_and_sass_are_read_per_function() {
        let res = "Resource usage:\n Common:\n  GLOBAL:0\n Function vadd:\n  REG:12 STACK:0 SHARED:0 LOCAL:8 CONSTANT[0]:556\n";
        let sass = "\t\tFunction : vadd\n        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n\
                    \x20                                                                      /* 0x000fe20000000800 */\n\
                    \x20       /*0010*/               @P0 EXIT ;    /* 0x000000000000094d */\n\
                    \x20       /*0020*/                   NOP;   /* 0x0 */\n\
                    \x20       /*0030*/                   BRA 0x30;   /* 0x0 */\n";
        let mut costs = CubinCosts::new();
        parse_res_usage(res, &mut costs);
        parse_sass(sass, &mut costs);
        assert_eq!(
            costs["vadd"],
            KernelCost {
                registers: 12,
                instructions: 2,
                local_bytes: 8
            }
        );
    }
}
