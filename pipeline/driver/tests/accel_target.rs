//! The architecture-specific target `sm_90a`: every filetest compiles for it to exactly its sm_90
//! code, and the cubin says `sm_90a` where ptxas's does (`.nv.compat`, the tool note), which
//! `cuobjdump` reads back as `sm=90a` with the same sections and attributes as ptxas's cubin.

mod common;

use std::path::Path;
use std::process::Command;

use common::{compile_for, filetest_inputs, sass_listing};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::nvtools;

const SM90: Sm = Sm::new(90);
const SM90A: Sm = Sm::accelerated(90);

#[test]
fn sm_90a_code_is_sm_90_code() {
    let mut compared = 0;
    for (name, src) in filetest_inputs() {
        let base = compile_for(&src, &name, SM90);
        let accel = compile_for(&src, &name, SM90A);
        assert_eq!(
            sass_listing(&base),
            sass_listing(&accel),
            "{name}: sm_90a's SASS differs from sm_90's"
        );
        let (Some(a), Some(b)) = (&base.cubin, &accel.cubin) else {
            panic!("{name}: no cubin");
        };
        assert_ne!(a, b, "{name}: the sm_90a cubin does not say it is sm_90a");
        compared += 1;
    }
    assert!(compared > 40, "only {compared} filetests compared");
}

#[test]
fn sm_90a_names_parse_and_print() {
    for (text, sm) in [
        ("sm_90a", SM90A),
        ("compute_90a", SM90A),
        ("SM90a", SM90A),
        ("sm_90", SM90),
    ] {
        assert_eq!(text.parse::<Sm>(), Ok(sm), "{text}");
    }
    assert_eq!(SM90A.to_string(), "sm_90a");
    assert_eq!(SM90A.base(), SM90);
    assert!(SM90A.is_supported());
    assert!(!Sm::accelerated(80).is_supported());
}

/// `cuobjdump -elf`'s text, with the one line that names the producing tool's version dropped.
fn cuobjdump_elf(cuobjdump: &Path, cubin: &Path) -> String {
    let out = Command::new(cuobjdump)
        .arg("-elf")
        .arg(cubin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cuobjdump rejected {}: {}",
        cubin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `.nv.compat` listing: its attributes and values, in order.
fn compat_block(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != ".nv.compat")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn cuobjdump_reads_sm_90a_like_ptxas() {
    let (Some(cuobjdump), Some(ptxas)) = (nvtools::tool("cuobjdump"), nvtools::tool("ptxas"))
    else {
        println!("skipped: cuobjdump/ptxas not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptxforge-sm90a-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (name, src) in filetest_inputs().into_iter().take(12) {
        let ptx = dir.join(format!("{name}.ptx"));
        let ours = dir.join(format!("{name}.ours.cubin"));
        let theirs = dir.join(format!("{name}.ptxas.cubin"));
        std::fs::write(&ptx, &src).unwrap();
        let out = compile_for(&src, &name, SM90A);
        std::fs::write(&ours, out.cubin.as_ref().expect("cubin")).unwrap();
        let st = Command::new(&ptxas)
            .args(["-arch=sm_90a"])
            .arg(&ptx)
            .arg("-o")
            .arg(&theirs)
            .status()
            .unwrap();
        assert!(st.success(), "ptxas failed on {name}");
        let (ours, theirs) = (
            cuobjdump_elf(&cuobjdump, &ours),
            cuobjdump_elf(&cuobjdump, &theirs),
        );
        assert!(ours.contains("sm=90a,"), "{name}: ours is not sm=90a");
        assert!(theirs.contains("sm=90a,"), "{name}: ptxas's is not sm=90a");
        assert_eq!(compat_block(&ours), compat_block(&theirs), "{name}");
        assert!(compat_block(&ours).len() > 4, "{name}: no .nv.compat");
        assert!(ours.contains("Tool Command Line Arguments: -arch sm_90a"));
        checked += 1;
    }
    assert!(checked >= 12);
}
