//! End-to-end tests of the `ptxforge` binary: output files, diagnostics, exit status.

use std::path::PathBuf;
use std::process::Command;

fn ptxforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn compiles_example_to_elf() {
    for arch in ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
        let out = scratch(&format!("vadd.{arch}.cubin"));
        let st = ptxforge().args([&format!("-arch={arch}"), "-v"]).arg(example("vadd.ptx")).arg("-o").arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&st.stderr);
        assert!(st.status.success(), "{arch}: {stderr}");
        assert!(stderr.contains("ptxas info    : Used "), "{stderr}");
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..4], b"\x7fELF");
    }
}

#[test]
fn bad_input_gives_diagnostic_255_and_keeps_old_output() {
    let ptx = scratch("bad.ptx");
    std::fs::write(&ptx, ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tmovx.u32 %r1, 1;\n\tret;\n}\n").unwrap();
    let out = scratch("keep.cubin");
    std::fs::write(&out, b"previous").unwrap();
    let st = ptxforge().arg("-arch=sm_80").arg(&ptx).arg("-o").arg(&out).output().unwrap();
    let stderr = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(255));
    assert!(stderr.contains("line 6; error   : "), "{stderr}");
    assert!(stderr.ends_with("ptxas fatal   : Ptx assembly aborted due to errors\n"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
}

#[test]
fn unknown_option_is_fatal() {
    let st = ptxforge().arg("--knob").output().unwrap();
    assert_eq!(st.status.code(), Some(255));
    assert_eq!(String::from_utf8_lossy(&st.stderr), "ptxas fatal   : Unknown option '-knob'\n");
}

#[test]
fn virtual_arch_parses_only() {
    let out = scratch("virt.cubin");
    let _ = std::fs::remove_file(&out);
    let st = ptxforge().arg("-arch=compute_80").arg(example("vadd.ptx")).arg("-o").arg(&out).output().unwrap();
    assert!(st.status.success());
    assert!(!out.exists());
}
