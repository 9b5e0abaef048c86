//! Oracle: global and generic loads and stores carry the same cache hints and ordering as ptxas's
//! (`.EF`/`.LU`/`.EL`/`.NA`/`.EU`, `.LTCnB`, `.STRONG.*`, `.CONSTANT`) for every PTX cache operator,
//! eviction priority and L2 prefetch size, with and without `--def-load-cache` and its kin, on
//! sm_75, sm_80 and sm_90. Each access stores to its own offset, so the two cubins' accesses pair
//! up by offset whatever order the schedulers chose. Prints `skipped: ...` when ptxas is absent.

mod common;

use std::path::Path;

use common::oracle::{compile, ptxas_or_skip, ptxforge, scratch_dir, tool_output};

/// A load of each form into its own register, summed, then a store of each form.
fn module(sm: u32) -> String {
    let loads = [
        "ld.global",
        "ld.global.ca",
        "ld.global.cg",
        "ld.global.cs",
        "ld.global.lu",
        "ld.global.cv",
        "ld.ca",
        "ld.cg",
        "ld.cs",
        "ld.lu",
        "ld.cv",
        "ld.global.nc",
        "ld.global.nc.cs",
        "ld.global.L1::evict_first",
        "ld.global.L1::evict_last",
        "ld.global.L1::no_allocate",
        "ld.global.L1::evict_unchanged",
        "ld.global.L2::64B",
        "ld.global.L2::128B",
        "ld.global.nc.L2::128B",
        "ld.L2::128B",
        "ld.relaxed.gpu.global",
        "ld.volatile.global",
        "ld.global.nc.L1::no_allocate",
    ];
    let stores = [
        "st.global",
        "st.global.wb",
        "st.global.cg",
        "st.global.cs",
        "st.global.wt",
        "st.wb",
        "st.cg",
        "st.cs",
        "st.wt",
        "st.global.L1::evict_last",
        "st.global.L1::no_allocate",
        "st.relaxed.cta.global",
    ];
    let mut body = String::new();
    for (k, op) in loads.iter().enumerate() {
        let base = if op.contains("global") {
            "%rd2"
        } else {
            "%rd1"
        };
        body += &format!("{op}.u32 %r{}, [{base}+{}];\n", k + 1, 4 * k + 4);
        if k > 0 {
            body += &format!("add.u32 %r0, %r0, %r{};\n", k + 1);
        } else {
            body += "mov.u32 %r0, %r1;\n";
        }
    }
    for (k, op) in stores.iter().enumerate() {
        let base = if op.contains("global") {
            "%rd2"
        } else {
            "%rd1"
        };
        body += &format!("{op}.u32 [{base}+{}], %r0;\n", 0x200 + 4 * k);
    }
    format!(
        ".version 8.0\n.target sm_{sm}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b64 %rd<3>;\n.reg .b32 %r<40>;\nld.param.u64 %rd1, [p];\n\
         cvta.to.global.u64 %rd2, %rd1;\n{body}ret;\n}}\n"
    )
}

/// `(offset, mnemonic)` of every LDG/LD/STG/ST in the cubin, sorted by offset.
fn accesses(cubin: &Path) -> Vec<(String, String)> {
    let text = tool_output("cuobjdump", &["-sass"], cubin);
    let mut v: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| {
            let code = l.split("*/").nth(1)?.trim();
            let mnemonic = code.split_whitespace().next()?;
            let memory = ["LDG.", "LD.", "STG.", "ST."];
            if !memory.iter().any(|m| mnemonic.starts_with(m)) {
                return None;
            }
            let offset = code.split('+').nth(1)?.split(']').next()?.to_string();
            Some((offset, mnemonic.to_string()))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn cache_hints_and_scopes_match_ptxas() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let ours = ptxforge();
    let dir = scratch_dir("cache-ops");
    let option_sets = [
        "",
        "--def-load-cache=cs",
        "--force-load-cache=cg",
        "-dlcm=cv -dscm=cs",
        "-flcm=lu -fscm=wt",
        "-dlcm=ca -flcm=cs -dscm=wb -fscm=cg",
    ];
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for sm in [75, 80, 90] {
        let ptx = dir.join(format!("k{sm}.ptx"));
        // sm_75 has no 256-byte prefetch; the module uses none.
        std::fs::write(&ptx, module(sm)).unwrap();
        for opts in option_sets {
            let args = format!("-arch=sm_{sm} {opts}");
            let (theirs, mine) = (dir.join("ptxas.cubin"), dir.join("ours.cubin"));
            compile(&ptxas, &args, &ptx, &theirs);
            compile(&ours, &args, &ptx, &mine);
            let (t, m) = (accesses(&theirs), accesses(&mine));
            assert_eq!(t.len(), 36, "ptxas's accesses at sm_{sm} {opts}: {t:?}");
            compared += t.len();
            if t != m {
                mismatches.push(format!("sm_{sm} {opts}:\n  ptxas {t:?}\n  ours  {m:?}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    println!("{compared} accesses agree with ptxas's");
}
