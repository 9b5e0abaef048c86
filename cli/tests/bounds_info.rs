//! The `ptxforge` binary's infos on potential out-of-bound accesses, as ptxas 13.5 prints them:
//! with or without `-v`, kept by `-w`, never made errors by `-Werror`, exit status unchanged.

use std::process::{Command, Output};

/// A kernel that loads 8 bytes from a `.u32` parameter and 4 from a `.u16` shared variable.
const WIDE_LOADS: &str = "\
.version 8.5
.target sm_80
.address_size 64
.visible .entry k(.param .u32 n, .param .u64 out)
{
\t.reg .b64 %rd<4>;
\t.reg .b32 %r<4>;
\t.shared .u16 s;
\tld.param.u64 %rd1, [n];
\tld.shared.u32 %r1, [s];
\tld.param.u64 %rd2, [out];
\tcvta.to.global.u64 %rd2, %rd2;
\tst.global.u32 [%rd2], %r1;
\tret;
}
";

/// ptxas's infos on [`WIDE_LOADS`] (named `wide.ptx`).
const INFOS: &str = "\
ptxas wide.ptx, line 9; info    : Potential out of bound access while accessing symbol 'n' of type '.u32' with instruction type '.u64'.
ptxas wide.ptx, line 10; info    : Potential out of bound access while accessing symbol 's' of type '.u16' with instruction type '.u32'.
";

/// Runs `ptxforge -arch=sm_80 ARGS wide.ptx` on `ptx` in a scratch folder of its own.
fn run(tag: &str, ptx: &str, args: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("ptxforge-bounds-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wide.ptx"), ptx).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .current_dir(&dir)
        .arg("-arch=sm_80")
        .args(args)
        .args(["wide.ptx", "-o", "wide.cubin"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn infos_are_printed_and_the_run_succeeds() {
    for (tag, args) in [("plain", &[][..]), ("w", &["-w"]), ("werror", &["-Werror"])] {
        let o = run(tag, WIDE_LOADS, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), INFOS, "{args:?}");
    }
}

#[test]
fn infos_come_before_the_verbose_report() {
    let o = run("v", WIDE_LOADS, &["-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stderr(&o);
    assert!(text.starts_with(INFOS), "{text}");
    assert!(text.contains("ptxas info    : Used "), "{text}");
}

#[test]
fn werror_makes_the_warning_an_error_but_not_the_infos() {
    let ptx = WIDE_LOADS.replace(".param .u64 out)\n", ".param .u64 out) .minnctapersm 2\n");
    let warning = "ptxas wide.ptx, line 15; warning : .minnctapersm is ignored when neither .maxntid nor .reqntid is specified.\n";
    let o = run("warn", &ptx, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("{INFOS}{warning}"));
    let o = run("warn-w", &ptx, &["-w"]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), INFOS.to_string()));
    let o = run("warn-werror", &ptx, &["-Werror"]);
    assert_eq!(o.status.code(), Some(255), "{}", stderr(&o));
    let error = warning.replace("warning : ", "error   : ");
    let aborted = "ptxas fatal   : Ptx assembly aborted due to errors\n";
    assert_eq!(stderr(&o), format!("{INFOS}{error}{aborted}"));
}
