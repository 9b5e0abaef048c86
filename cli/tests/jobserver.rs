//! `--jobserver` under real GNU make (pipe style) and under a fifo jobserver the test creates:
//! concurrency stays within the tokens, and every token is back in the pipe afterwards.

mod fifo;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fifo::{fifo_with_tokens, max_concurrent, tokens_in};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-js-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A module with many small kernels, so several compile sections overlap.
fn many_kernels(dir: &Path, n: usize) -> PathBuf {
    let mut src = String::from(".version 8.0\n.target sm_75\n.address_size 64\n");
    for i in 0..n {
        src.push_str(&format!(
            ".visible .entry k{i}(.param .u64 p)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n\
             cvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, {i};\nst.global.u32 [%rd2], %r2;\nret;\n}}\n"
        ));
    }
    let path = dir.join("many.ptx");
    std::fs::write(&path, src).unwrap();
    path
}

#[test]
fn make_j2_limits_concurrency_and_gets_its_tokens_back() {
    if Command::new("make").arg("--version").output().is_err() {
        println!("skipped: GNU make not found");
        return;
    }
    let dir = scratch("make");
    let ptx = many_kernels(&dir, 400);
    let makefile = format!(
        "all:\n\t+{} --jobserver --split-compile 4 -arch=sm_80 {} -o {}\n",
        env!("CARGO_BIN_EXE_ptxforge"),
        ptx.display(),
        dir.join("out.cubin").display()
    );
    std::fs::write(dir.join("Makefile"), makefile).unwrap();
    let out = Command::new("make")
        .arg("-j2")
        .arg("-C")
        .arg(&dir)
        .env("PTXFORGE_JOBSERVER_STATS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("jobserver tokens"),
        "make reports lost tokens: {stderr}"
    );
    assert!(!stderr.contains("Ignoring '--jobserver'"), "{stderr}");
    let m = max_concurrent(&stderr);
    assert!((1..=2).contains(&m), "{m} sections ran at once under -j2");

    // A failing compile under make: make itself counts its tokens at exit and complains if any is lost.
    let bad = dir.join("bad.ptx");
    let mut src = std::fs::read_to_string(&ptx).unwrap();
    src.push_str(".visible .entry broken()\n{\n.reg .b64 %rd<3>;\nstacksave.u64 %rd1;\nret;\n}\n");
    std::fs::write(&bad, src).unwrap();
    let makefile = format!(
        "all: a b\na:\n\t+{exe} --jobserver --split-compile 4 -arch=sm_80 {bad} -o {out}a\nb:\n\t+{exe} --jobserver --split-compile 4 -arch=sm_80 {ptx} -o {out}b\n",
        exe = env!("CARGO_BIN_EXE_ptxforge"),
        bad = bad.display(),
        ptx = ptx.display(),
        out = dir.join("out.cubin").display()
    );
    std::fs::write(dir.join("Makefile"), makefile).unwrap();
    let out = Command::new("make")
        .args(["-j3", "-k", "-C"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Ptx assembly aborted due to errors"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("jobserver tokens"),
        "make reports lost tokens: {stderr}"
    );
}

fn run_with_fifo(fifo: &Path, ptx: &Path, dir: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .args(["--jobserver", "--split-compile", "4", "-arch=sm_80"])
        .arg(ptx)
        .arg("-o")
        .arg(dir.join("out.cubin"))
        .env(
            "MAKEFLAGS",
            format!(" -j3 --jobserver-auth=fifo:{}", fifo.display()),
        )
        .env("PTXFORGE_JOBSERVER_STATS", "1")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn fifo_tokens_all_return_after_success_and_after_an_error() {
    let dir = scratch("fifo");
    let ptx = many_kernels(&dir, 300);
    let (fifo, _held_open) = fifo_with_tokens(&dir, 2);
    let (ok, stderr) = run_with_fifo(&fifo, &ptx, &dir);
    assert!(ok, "{stderr}");
    assert!(max_concurrent(&stderr) <= 3, "{stderr}");
    assert_eq!(tokens_in(&fifo), 2, "tokens lost after success");

    let bad = dir.join("bad.ptx");
    let mut src = std::fs::read_to_string(&ptx).unwrap();
    src.push_str(".visible .entry broken()\n{\n.reg .b64 %rd<3>;\nstacksave.u64 %rd1;\nret;\n}\n");
    std::fs::write(&bad, src).unwrap();
    let (fifo, _held_open) = fifo_with_tokens(&dir, 2);
    let (ok, stderr) = run_with_fifo(&fifo, &bad, &dir);
    assert!(!ok, "{stderr}");
    assert_eq!(tokens_in(&fifo), 2, "tokens lost after a compile error");
}

/// `ptxforge --jobserver` on a two-kernel module (or, with `broken_ptx`, one that fails to parse)
/// with the given extra options and MAKEFLAGS (None: unset); also whether the cubin was written.
fn compile_with_makeflags(
    name: &str,
    options: &[&str],
    makeflags: Option<&str>,
    broken_ptx: bool,
) -> (Output, bool) {
    let dir = scratch(name);
    let ptx = many_kernels(&dir, 2);
    if broken_ptx {
        std::fs::write(
            &ptx,
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfoo;\n}\n",
        )
        .unwrap();
    }
    let cubin = dir.join("out.cubin");
    let _ = std::fs::remove_file(&cubin);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptxforge"));
    cmd.args(["--jobserver", "-arch=sm_80"])
        .args(options)
        .arg(&ptx)
        .arg("-o")
        .arg(&cubin);
    match makeflags {
        Some(flags) => cmd.env("MAKEFLAGS", flags),
        None => cmd.env_remove("MAKEFLAGS"),
    };
    (cmd.output().unwrap(), cubin.exists())
}

fn small_compile_with_makeflags(name: &str, options: &[&str], makeflags: Option<&str>) -> Output {
    compile_with_makeflags(name, options, makeflags, false).0
}

const BROKEN_FIFO: &str = "-j4 --jobserver-auth=fifo:/nonexistent/ptxforge-fifo";
const NO_JOBSERVER: &str =
    "ptxas warning : GNU Jobserver support requested, but no compatible jobserver found. Ignoring '--jobserver'\n";

#[test]
fn unusable_jobserver_is_fatal_for_a_split_compile() {
    for options in [
        &["--split-compile", "2"][..],
        &["--split-compile", "2", "-v", "-w"],
    ] {
        let (out, written) = compile_with_makeflags("broken", options, Some(BROKEN_FIFO), false);
        assert_eq!(out.status.code(), Some(255));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "ptxas fatal   : Jobserver requested, but an error occurred\n"
        );
        assert!(!written, "a fatal jobserver error wrote the cubin");
    }
}

#[test]
fn no_jobserver_gives_ptxas_warning_for_a_split_compile() {
    for split in ["2", "0"] {
        let out = small_compile_with_makeflags(
            &format!("none{split}"),
            &["--split-compile", split],
            None,
        );
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr), NO_JOBSERVER);
    }
    let out = small_compile_with_makeflags("none-w", &["--split-compile", "2", "-w"], None);
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn no_jobserver_under_werror_fails_without_output_or_aborted_line() {
    let (out, written) = compile_with_makeflags(
        "none-werror",
        &["--split-compile", "2", "-Werror"],
        None,
        false,
    );
    assert_eq!(out.status.code(), Some(255));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        NO_JOBSERVER.replace("warning", "error  ")
    );
    assert!(!written);
}

#[test]
fn jobserver_is_looked_at_only_once_code_generation_starts() {
    // Input errors come alone, as ptxas reports them; so do parse-only targets.
    for makeflags in [None, Some(BROKEN_FIFO)] {
        let (out, _) =
            compile_with_makeflags("bad-input", &["--split-compile", "2"], makeflags, true);
        assert_eq!(out.status.code(), Some(255));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("observer"), "{stderr}");
        assert!(
            stderr.contains("error   : Not a name of any known instruction: 'foo'"),
            "{stderr}"
        );
        let out = small_compile_with_makeflags(
            "virtual",
            &["--split-compile", "2", "-arch=compute_80"],
            makeflags,
        );
        assert!(
            out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("observer"),
            "{out:?}"
        );
    }
}

#[test]
fn jobserver_is_not_looked_for_without_split_compile() {
    let cases = [
        ("plain-none", &[][..], None),
        ("plain-broken", &[][..], Some(BROKEN_FIFO)),
        (
            "one-broken",
            &["--split-compile", "1"][..],
            Some(BROKEN_FIFO),
        ),
        (
            "expensive-none",
            &["--allow-expensive-optimizations", "true"][..],
            None,
        ),
    ];
    for (name, options, makeflags) in cases {
        let out = small_compile_with_makeflags(name, options, makeflags);
        assert!(out.status.success(), "{name}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{name}");
    }
}

#[test]
fn sigterm_mid_compile_gives_tokens_back() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("term");
    let ptx = many_kernels(&dir, 40_000);
    let mut interrupted = 0;
    // Several moments, so a kill that lands while a byte is between read(2) and the books shows.
    for delay_ms in [60, 130, 200, 270, 340, 410, 480, 550] {
        let (fifo, _held_open) = fifo_with_tokens(&dir, 2);
        let mut child = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
            .args(["--jobserver", "--split-compile", "4", "-arch=sm_80"])
            .arg(&ptx)
            .arg("-o")
            .arg(dir.join("out.cubin"))
            .env(
                "MAKEFLAGS",
                format!("-j3 --jobserver-auth=fifo:{}", fifo.display()),
            )
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
        let status = child.wait().unwrap();
        assert_eq!(
            tokens_in(&fifo),
            2,
            "tokens lost or made up after SIGTERM at {delay_ms} ms ({status:?})"
        );
        interrupted += usize::from(status.signal() == Some(15));
    }
    if interrupted == 0 {
        println!("skipped: every compile finished before SIGTERM could interrupt it");
    }
}

#[test]
fn sigterm_under_make_loses_no_token() {
    if Command::new("make").arg("--version").output().is_err()
        || Command::new("pkill").arg("--version").output().is_err()
    {
        println!("skipped: GNU make or pkill not found");
        return;
    }
    let dir = scratch("make-term");
    let ptx = many_kernels(&dir, 40_000);
    let out_path = dir.join("term.cubin");
    let makefile = format!(
        "all: a b\na:\n\t+{exe} --jobserver --split-compile 4 -arch=sm_80 {ptx} -o {out}\nb:\n\t@sleep 1\n",
        exe = env!("CARGO_BIN_EXE_ptxforge"),
        ptx = ptx.display(),
        out = out_path.display()
    );
    std::fs::write(dir.join("Makefile"), makefile).unwrap();
    let child = Command::new("make")
        .args(["-j3", "-k", "-C"])
        .arg(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("pkill")
        .arg("-TERM")
        .arg("-f")
        .arg(out_path.to_str().unwrap())
        .status()
        .unwrap()
        .success();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("jobserver tokens"),
        "make reports lost tokens: {stderr}"
    );
    if !killed {
        println!("skipped: the compile finished before SIGTERM");
    }
}
