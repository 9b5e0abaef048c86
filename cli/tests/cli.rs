//! End-to-end tests of the `ptxforge` binary: output files, diagnostics, exit status.

use std::path::PathBuf;
use std::process::Command;

mod common;

fn ptxforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
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
        let st = ptxforge()
            .args([&format!("-arch={arch}"), "-v"])
            .arg(example("vadd.ptx"))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
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
    let st = ptxforge()
        .arg("-arch=sm_80")
        .arg(&ptx)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(255));
    assert!(stderr.contains("line 6; error   : "), "{stderr}");
    assert!(
        stderr.ends_with("ptxas fatal   : Ptx assembly aborted due to errors\n"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
}

#[test]
fn semantic_errors_are_all_reported_with_file_and_line() {
    let ptx = scratch("semantic.ptx");
    let body = "\t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\tadd.u32 %r1, %f1, 1;\n\tmul.u32 %r1, %r1, %r2;\n\tbra NOWHERE;\n\tret;\n}\n";
    std::fs::write(
        &ptx,
        format!(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n{body}"),
    )
    .unwrap();
    let st = ptxforge()
        .arg("-arch=sm_80")
        .arg(&ptx)
        .arg("-o")
        .arg(scratch("semantic.cubin"))
        .output()
        .unwrap();
    let f = ptx.display();
    let expected = format!(
        "ptxas {f}, line 8; error   : Arguments mismatch for instruction 'add'\n\
         ptxas {f}, line 9; error   : Unexpected instruction types specified for 'mul'\n\
         ptxas {f}, line 10; error   : Unknown symbol 'NOWHERE'\n\
         ptxas fatal   : Ptx assembly aborted due to errors\n"
    );
    assert_eq!(st.status.code(), Some(255));
    assert_eq!(String::from_utf8_lossy(&st.stderr), expected);
    assert!(!scratch("semantic.cubin").exists());
}

/// A `.loc` naming as `function_name` a label that no `.section` declares: ptxas's errors without
/// a place, after its notes on the debug sections and without its "aborted" line.
#[test]
fn unresolved_function_name_labels_follow_debug_notes_without_aborted_line() {
    let ptx = scratch("function_name.ptx");
    let body = "\t.loc 1 10 1\n\tret;\n\t.loc 1 11 2, function_name $Lfoo, inlined_at 1 10 1\n\tret;\n\t.loc 1 12 2, function_name $Lbar, inlined_at 1 10 1\n\tret;\n}\n";
    let sections = ".section .debug_abbrev\n{\n}\n";
    let header = ".version 8.0\n.target sm_80, debug\n.address_size 64\n.file 1 \"a.cu\"\n";
    std::fs::write(
        &ptx,
        format!("{header}.visible .entry k()\n{{\n{body}{sections}"),
    )
    .unwrap();
    let st = ptxforge()
        .arg("-arch=sm_80")
        .arg(&ptx)
        .arg("-o")
        .arg(scratch("function_name.cubin"))
        .output()
        .unwrap();
    let expected = "ptxas warning :  .debug_info section not found\n\
         ptxas error   : Unresolved label '$Lfoo' used in function_name attribute.\n\
         ptxas error   : Unresolved label '$Lbar' used in function_name attribute.\n";
    assert_eq!(st.status.code(), Some(255));
    assert_eq!(String::from_utf8_lossy(&st.stderr), expected);
}

#[test]
fn unknown_option_is_fatal() {
    let st = ptxforge().arg("--knob").output().unwrap();
    assert_eq!(st.status.code(), Some(255));
    assert_eq!(
        String::from_utf8_lossy(&st.stderr),
        "ptxas fatal   : Unknown option '-knob'\n"
    );
}

#[test]
fn virtual_arch_parses_only() {
    let out = scratch("virt.cubin");
    let _ = std::fs::remove_file(&out);
    let st = ptxforge()
        .arg("-arch=compute_80")
        .arg(example("vadd.ptx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(st.status.success());
    assert!(!out.exists());
}

/// A line's shape: every run of digits becomes `#`, so ours and ptxas's samples compare by format.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

/// Whether a line of `common::PTXAS_STATS_DETAILED` breaks the peak memory down by phase or compile
/// unit, which ptxforge does not measure (it reports the peak alone).
fn is_memory_breakdown(line: &str) -> bool {
    line.contains("emory") && !line.starts_with("ptxas info")
}

#[test]
fn compiler_stats_lines_have_ptxas_shapes() {
    let out = scratch("stats.cubin");
    let st = ptxforge()
        .args(["-arch=sm_80", "--compiler-stats=t,m,p,d"])
        .arg(example("vadd.ptx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(st.status.success());
    let ours: Vec<String> = String::from_utf8_lossy(&st.stderr)
        .lines()
        .filter(|l| !l.is_empty())
        .map(shape)
        .collect();
    let theirs: Vec<String> = common::PTXAS_STATS_DETAILED
        .lines()
        .filter(|l| !l.is_empty() && !is_memory_breakdown(l))
        .map(shape)
        .collect();
    for want in &theirs {
        assert!(
            ours.contains(want),
            "no line shaped like `{want}` in {ours:#?}"
        );
    }
    let time_only = ptxforge()
        .args(["-arch=sm_80", "--compiler-stats", "time"])
        .arg(example("vadd.ptx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        shape(String::from_utf8_lossy(&time_only.stderr).trim_end()),
        shape(common::PTXAS_STATS_TIME.trim_end())
    );
}

#[test]
fn compiler_stats_file_is_appended_without_prefix() {
    let out = scratch("statsfile.cubin");
    let file = scratch("cs.txt");
    let _ = std::fs::remove_file(&file);
    for _ in 0..2 {
        let st = ptxforge()
            .args(["-arch=sm_80", "--compiler-stats=time"])
            .arg("--compiler-stats-file")
            .arg(&file)
            .arg(example("vadd.ptx"))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(st.status.success());
        assert!(st.stderr.is_empty());
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches(" >>\n\nCompileTime = ").count(), 2, "{text}");
}

#[test]
fn unsupported_real_arch_is_a_clear_fatal() {
    let out = scratch("sm87.cubin");
    let st = ptxforge()
        .arg("-arch=sm_87")
        .arg(example("vadd.ptx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(255));
    assert!(String::from_utf8_lossy(&st.stderr)
        .starts_with("ptxas fatal   : ptxforge cannot generate code for 'sm_87' yet"));
    assert!(!out.exists());
}

#[test]
fn address_size_32_is_ptxas_fatal_and_writes_nothing() {
    let ptx = scratch("a32.ptx");
    std::fs::write(
        &ptx,
        ".version 8.0\n.target sm_75\n.address_size 32\n.visible .entry k()\n{\n\tret;\n}\n",
    )
    .unwrap();
    let out = scratch("a32.cubin");
    let st = ptxforge()
        .arg("-arch=sm_75")
        .arg(&ptx)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(255), "{stderr}");
    assert_eq!(
        stderr,
        "ptxas warning :  64 Bit host architecture (--machine) being used mismatches with .address_size of 32 bits\n\
         ptxas fatal   :  32-Bit compilation is no longer supported\n"
    );
    assert!(!out.exists());
}
