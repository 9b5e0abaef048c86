//! Oracle: ptxas 13.5 and ptxforge given the same command lines accept and reject the same ones,
//! with the same fatal/error lines (or the same whole stderr) where ptxforge claims ptxas's wording.
//!
//! Each tool runs in its own copy of a scratch folder, so file names in messages are the same.
//! Prints `skipped: ...` and passes when ptxas is absent.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptxforge_sass::nvtools;

const VADD: &str = include_str!("../../examples/vadd.ptx");

/// Double-precision instructions (parse-only targets keep the back end out of it).
const DOUBLES: &str = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry dk(.param .u64 p)\n{\n.reg .f64 %fd<5>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\nld.global.f64 %fd2, [%rd1];\nmov.f64 %fd3, %fd2;\nsetp.lt.f64 %p1, %fd2, %fd3;\nst.global.f64 [%rd1], %fd3;\ncvt.rn.f32.f64 %f1, %fd3;\nret;\n}\n";

/// An entry calling a `.func`.
const WITH_FUNC: &str = ".version 8.0\n.target sm_80\n.address_size 64\n.func helper()\n{\nret;\n}\n.visible .entry k()\n{\ncall helper;\nret;\n}\n";

/// What must agree besides accepting or rejecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agree {
    /// Only the exit status (zero or not): ptxforge words this case its own way.
    Status,
    /// The `fatal` / `error` lines too.
    Errors,
    /// All of stderr (warnings included).
    Stderr,
}

use Agree::*;

/// Command lines, split at white space; `@VADD` stands for vadd's PTX text as one word.
const CASES: &[(&str, Agree)] = &[
    ("-arch=sm_80 v.ptx -o a.o", Stderr),
    ("-arch sm_80 v.ptx", Stderr),
    ("--gpu-name=sm_86 v.ptx", Stderr),
    ("v.ptx", Stderr),
    ("-arch=compute_90a v.ptx -o virt.o", Stderr),
    ("-arch=sm_90a v.ptx -o a90a.o", Stderr),
    // Triton's command line (a hidden option of ptxas's).
    ("-lineinfo -v --regAllocOptLevel=2 --gpu-name=sm_80 v.ptx -o t.o", Errors),
    ("-arch=sm_80 --regAllocOptLevel 0 v.ptx", Stderr),
    ("-arch=sm_80 -regAllocOptLevel=x v.ptx", Stderr),
    ("-arch=sm_80 v.ptx --regAllocOptLevel", Stderr),
    ("-arch=sm_80 -O0 v.ptx", Stderr),
    ("-arch=sm_80 -O v.ptx", Stderr),
    ("-arch=sm_80 -O=2 v.ptx", Stderr),
    ("-arch=sm_80 --opt-level 1 v.ptx", Stderr),
    ("-arch=sm_80 -Ox v.ptx", Errors),
    ("-arch=sm_80 -O 2 v.ptx", Errors),
    // Levels outside 0..=2 read as -O3 (ptxas aborts on these for sm_90 only).
    ("-arch=sm_80 -O10 v.ptx", Stderr),
    ("-arch=sm_80 -O-1 v.ptx", Stderr),
    ("-arch=sm_80 -O-1 -Ofc=max v.ptx", Errors),
    ("-arch=sm_80 -Ofcmax v.ptx", Errors),
    ("-arch=sm_80 -m64 v.ptx", Stderr),
    ("-arch=sm_80 -m32 v.ptx", Errors),
    ("-arch=sm_80 -msixtyfour v.ptx", Errors),
    ("-arch=sm_80 -maxrregcount64 v.ptx", Errors),
    ("--knob v.ptx", Errors),
    ("-knob=1 v.ptx", Errors),
    ("--Werror v.ptx", Errors),
    ("-arch=sm_80 -vv v.ptx", Errors),
    ("-v=1 v.ptx", Errors),
    ("--help=1", Errors),
    ("-arch=sm_80 -jobserver=true v.ptx", Errors),
    ("v.ptx -o", Errors),
    ("-arch=sm_91 v.ptx", Errors),
    ("-arch=SM_80 v.ptx", Errors),
    ("-arch=sm_80 -fmad=1 v.ptx", Errors),
    ("-arch=sm_80 -sanitize=foo v.ptx", Errors),
    ("-arch=sm_80 --split-compile=-1 v.ptx", Errors),
    ("-arch=sm_80 -split-compile=2 v.ptx", Stderr),
    ("-arch=sm_80 -O2 -O3 v.ptx", Stderr),
    ("-arch=sm_80 v.ptx -o a.o -o b.o", Stderr),
    ("-arch=sm_80 v.ptx s.ptx -o two.o", Stderr),
    ("-arch=sm_80 v.ptx v.ptx", Errors),
    ("-arch=sm_80 g.ptx g.ptx", Errors),
    ("-arch=sm_80 nof1.ptx nof2.ptx", Errors),
    ("-arch=sm_80 v.ptx,s.ptx", Errors),
    ("-arch=sm_80 .", Stderr),
    ("-arch=sm_80 -e vadd v.ptx s.ptx", Stderr),
    ("-arch=sm_80 -e vadd -e vsub v.ptx s.ptx", Stderr),
    ("-arch=sm_80 --entry=vadd,nosuch v.ptx", Errors),
    ("-arch=sm_80 -e helper f.ptx", Errors),
    ("-arch=sm_80 -ias @VADD", Stderr),
    ("-arch=sm_80 -ias @VADD s.ptx", Stderr),
    ("-arch=sm_80 -ias", Errors),
    ("-arch=compute_80 -warn-double-usage d.ptx", Stderr),
    ("-arch=compute_80 -warn-double-usage -Werror d.ptx", Errors),
    ("-arch=compute_80 -warn-double-usage -w -Werror d.ptx", Stderr),
    ("-arch=sm_80 -warn-spills -warn-lmem-usage v.ptx", Stderr),
    ("-arch=sm_80 -maxrregcount=2 v.ptx", Stderr),
    ("-arch=sm_80 -maxrregcount=256 v.ptx", Stderr),
    ("-arch=sm_80 -maxrregcount=1000 -Werror v.ptx", Errors),
    ("-arch=sm_80 -maxrregcount=abc v.ptx", Errors),
    ("-arch=sm_80 -Ofc=min -O3 v.ptx", Errors),
    ("-arch=sm_80 -Ofc=max -O1 v.ptx", Errors),
    ("-arch=sm_80 -Ofc=max -O0 v.ptx", Stderr),
    ("-arch=sm_80 -Ofc=mid -O1 v.ptx", Stderr),
    ("-arch=sm_80 -Ofc=foo v.ptx", Errors),
    ("-arch=sm_80 -pic=true v.ptx", Stderr),
    ("-arch=sm_80 -pic=true -Werror v.ptx", Errors),
    ("-arch=sm_80 -Werror -w -pic=true v.ptx", Stderr),
    ("-arch=sm_80 -pic=true -suppress-position-independent-code-warning v.ptx", Stderr),
    ("-arch=sm_80 -dlcm=zz v.ptx", Errors),
    ("-arch=sm_80 -fscm=cv v.ptx", Errors),
    // Cache modifiers: a default beside a forced one warns; errors come first.
    ("-arch=sm_80 -dlcm=ca -flcm=cg -dscm=wb -fscm=wt v.ptx", Stderr),
    ("-arch=sm_80 -dlcm=ca -flcm=cg -dscm=xx v.ptx", Stderr),
    ("-arch=sm_80 -regUsageLevel=11 v.ptx", Stderr),
    ("-arch=sm_80 -func-maxrregcount=40 v.ptx", Stderr),
    ("-arch=sm_80 -enable-func-clone-sc=true v.ptx", Stderr),
    ("-arch=sm_80 -suppress-debug-info v.ptx", Stderr),
    ("-arch=sm_80 -legacy-bar-warp-wide-behavior v.ptx", Stderr),
    ("-arch=sm_80 -maxntid=1,2,3,4 v.ptx", Stderr),
    ("-arch=sm_80 -apply-controls=nofile v.ptx", Errors),
    ("-arch=sm_80 -fmad=false -opt-fp-atomics -no-bb-merge -ret-end -suppress-stack-size-warning v.ptx", Stderr),
    // ptxas warns about missing debug sections, ptxforge that -g is not implemented.
    ("-arch=sm_80 -g v.ptx", Status),
    ("-optf o1.txt v.ptx", Stderr),
    ("-optf o1.txt,o2.txt v.ptx", Stderr),
    ("-optf comment.txt v.ptx", Errors),
    ("-optf nofile.txt v.ptx", Errors),
    ("-optf loop.txt v.ptx", Errors),
    ("-optf quote.txt v.ptx", Errors),
    ("-optf=o1.txt v.ptx", Stderr),
    // Option warnings and errors in ptxas's order, whatever the command-line order.
    ("-arch=sm_80 -O2 -O3 -suppress-debug-info -maxrregcount=2 -regUsageLevel=11 -pic=true -func-maxrregcount=3 -enable-func-clone-sc=true -legacy-bar-warp-wide-behavior v.ptx", Stderr),
    ("-arch=sm_80 -maxntid=128 -minnctapersm=2 -maxrregcount=32 v.ptx", Stderr),
    ("-arch=sm_80 -fscm=zz -maxrregcount=2 -dlcm=zz -pic=true v.ptx", Stderr),
    ("-arch=sm_80 -dlcm=zz nofile.ptx", Stderr),
    ("-arch=sm_80 -pic=true -Werror nofile.ptx", Stderr),
    ("-arch=sm_80 -Ofc=foo -pic=true v.ptx", Stderr),
    ("-arch=sm_80 -g -O1 v.ptx", Errors),
    ("-arch=compute_80 -e nosuch v.ptx", Stderr),
    ("-arch=sm_80 -w -maxrregcount=2 v.ptx", Stderr),
    ("-arch=sm_80 -e= v.ptx", Stderr),
    ("-arch=sm_80 -minnctapersm=x v.ptx", Errors),
    // Help, version and lists name ptxforge and its own architectures: only the status agrees.
    ("-h", Status),
    ("--version", Status),
    ("-arch=sm_80", Status),
    ("--list-arch", Status),
];

/// A scratch folder with the inputs and options files every case may name.
fn scratch(root: &Path, tool: &str) -> PathBuf {
    let dir = root.join(tool);
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        ("v.ptx", VADD.to_string()),
        (
            "s.ptx",
            VADD.replace("vadd", "vsub").replace("add.f32", "sub.f32"),
        ),
        ("d.ptx", DOUBLES.to_string()),
        ("f.ptx", WITH_FUNC.to_string()),
        ("g.ptx", WITH_FUNC.replace(".func", ".visible .func")),
        (
            "o1.txt",
            "-arch=sm_80\n-O2   -o \"with space.o\"\n".to_string(),
        ),
        ("o2.txt", "-o other.o".to_string()),
        ("comment.txt", "-arch=sm_80 # comment\n".to_string()),
        ("loop.txt", "-optf loop.txt".to_string()),
        ("quote.txt", "-o \"open".to_string()),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn run(tool: &Path, dir: &Path, case: &str) -> Output {
    let words: Vec<&str> = case
        .split_whitespace()
        .map(|w| if w == "@VADD" { VADD } else { w })
        .collect();
    Command::new(tool)
        .current_dir(dir)
        .args(&words)
        .output()
        .unwrap()
}

/// The `fatal` and `error` lines of stderr.
fn error_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("fatal   : ") || l.contains("error   : "))
        .collect()
}

/// How the two runs of one case disagree, if they do.
fn disagreement(case: &str, agree: Agree, theirs: &Output, ours: &Output) -> Option<String> {
    let (ts, os) = (
        String::from_utf8_lossy(&theirs.stderr),
        String::from_utf8_lossy(&ours.stderr),
    );
    let status = |o: &Output| {
        if o.status.success() {
            "accepts"
        } else {
            "rejects"
        }
    };
    if theirs.status.success() != ours.status.success() {
        return Some(format!(
            "`{case}`: ptxas {} ({:?}), ptxforge {} ({:?})\n  ptxas:    {ts:?}\n  ptxforge: {os:?}",
            status(theirs),
            theirs.status.code(),
            status(ours),
            ours.status.code()
        ));
    }
    if !ours.status.success() && ours.status.code() != Some(255) {
        return Some(format!(
            "`{case}`: ptxforge exited with {:?}, not 255",
            ours.status.code()
        ));
    }
    let same = match agree {
        Status => true,
        Errors => error_lines(&ts) == error_lines(&os),
        Stderr => ts == os,
    };
    (!same).then(|| format!("`{case}` ({agree:?}):\n  ptxas:    {ts:?}\n  ptxforge: {os:?}"))
}

#[test]
fn command_lines_agree_with_ptxas() {
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
        return;
    };
    assert!(CASES.len() >= 40);
    let root = std::env::temp_dir().join(format!("ptxforge-cmdline-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (theirs_dir, ours_dir) = (scratch(&root, "ptxas"), scratch(&root, "ptxforge"));
    let ours_tool = PathBuf::from(env!("CARGO_BIN_EXE_ptxforge"));
    let mut failures = Vec::new();
    for (case, agree) in CASES {
        let theirs = run(&ptxas, &theirs_dir, case);
        let ours = run(&ours_tool, &ours_dir, case);
        failures.extend(disagreement(case, *agree, &theirs, &ours));
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        failures.is_empty(),
        "{} of {} command lines disagree:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

/// `(long, short)` of every option line (`--long <value> (-short)`) of a `--help` text.
fn help_options(help: &str) -> Vec<(String, String)> {
    help.lines()
        .filter(|l| l.starts_with("--"))
        .filter_map(|l| {
            let long = l
                .split_whitespace()
                .next()?
                .trim_start_matches('-')
                .to_string();
            let short = l.rsplit_once("(-")?.1.split(')').next()?.to_string();
            Some((long, short))
        })
        .collect()
}

#[test]
fn help_lists_every_ptxas_option_with_its_spellings() {
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
        return;
    };
    let theirs = Command::new(ptxas).arg("--help").output().unwrap();
    let ours = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .arg("--help")
        .output()
        .unwrap();
    let theirs = help_options(&String::from_utf8_lossy(&theirs.stdout));
    let ours = help_options(&String::from_utf8_lossy(&ours.stdout));
    assert!(theirs.len() >= 60, "{theirs:?}");
    let missing: Vec<_> = theirs.iter().filter(|o| !ours.contains(o)).collect();
    assert!(
        missing.is_empty(),
        "options of ptxas's --help missing from ours (or spelled otherwise): {missing:?}"
    );
}
