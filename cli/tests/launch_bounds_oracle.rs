//! Oracle: the launch-bound records of `.nv.info.<kernel>` (EIATTR_MAXREG_COUNT, _MAX_THREADS,
//! _REQNTID) equal ptxas's for kernels with and without `.maxntid`, `.reqntid`, `.maxnreg` and
//! `.minnctapersm`, under `--maxntid`, `--minnctapersm`, `--override-directive-values` and
//! `--maxrregcount`, on sm_80 and sm_90. Prints `skipped: ...` when ptxas is absent.

mod common;

use std::path::Path;

use common::oracle::{compile, ptxas_or_skip, ptxforge, scratch_dir, tool_output};

/// One kernel with `directives` after its parameter list.
fn module(sm: u32, directives: &str) -> String {
    format!(
        ".version 8.0\n.target sm_{sm}\n.address_size 64\n.visible .entry k(.param .u64 p) \
         {directives}\n{{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\nld.param.u64 %rd1, [p];\n\
         cvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nst.global.u32 [%rd2], %r1;\nret;\n}}\n"
    )
}

/// The values cuobjdump prints for the three records, in file order.
fn launch_records(cubin: &Path) -> Vec<String> {
    let text = tool_output("cuobjdump", &["-elf"], cubin);
    let lines: Vec<&str> = text.lines().collect();
    let wanted = [
        "EIATTR_MAXREG_COUNT",
        "EIATTR_MAX_THREADS",
        "EIATTR_REQNTID",
    ];
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| wanted.iter().any(|w| l.contains(w)))
        .map(|(n, l)| format!("{} {}", l.trim(), lines.get(n + 2).unwrap_or(&"").trim()))
        .collect()
}

#[test]
fn launch_bound_records_match_ptxas() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let ours = ptxforge();
    let dir = scratch_dir("launch");
    let kernels = [
        "",
        ".maxntid 256",
        ".maxntid 16, 8, 2",
        ".reqntid 64, 2",
        ".maxnreg 40",
        ".maxntid 128 .minnctapersm 3",
        ".reqntid 32 .maxnreg 64",
    ];
    let option_sets = [
        "",
        "--maxntid 128",
        "--maxntid 128,2 --minnctapersm 2",
        "--maxntid 64 --override-directive-values",
        "--minnctapersm 4 --override-directive-values",
        "--maxntid 2048",
        "--maxntid 128 --maxrregcount 40",
        "--maxrregcount 32",
        "--maxntid 96,0",
    ];
    let (mut mismatches, mut compared) = (Vec::new(), 0);
    for sm in [80, 90] {
        for (n, directives) in kernels.iter().enumerate() {
            let ptx = dir.join(format!("k{sm}_{n}.ptx"));
            std::fs::write(&ptx, module(sm, directives)).unwrap();
            for opts in option_sets {
                let args = format!("-arch=sm_{sm} {opts}");
                let (theirs, mine) = (dir.join("ptxas.cubin"), dir.join("ours.cubin"));
                compile(&ptxas, &args, &ptx, &theirs);
                compile(&ours, &args, &ptx, &mine);
                let (t, m) = (launch_records(&theirs), launch_records(&mine));
                assert!(!t.is_empty(), "no MAXREG_COUNT in ptxas's cubin");
                compared += 1;
                if t != m {
                    mismatches.push(format!(
                        "sm_{sm} '{directives}' {opts}: ptxas {t:?} ours {m:?}"
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    println!("{compared} kernel/option cases agree with ptxas's");
}
