//! Oracle: `--make-errors-visible-at-exit` puts ERRBAR (and CGAERRBAR from sm_90) before every
//! EXIT, as ptxas does, and the module `.nv.info` lists EIATTR_GEN_ERRBAR_AT_EXIT where ptxas's
//! does. Prints `skipped: ...` when ptxas is absent.

mod common;

use std::path::Path;

use common::oracle::{compile, ptxas_or_skip, ptxforge, scratch_dir, tool_output};

/// Two kernels: one with a guarded early exit, one that only returns.
fn module(sm: u32) -> String {
    format!(
        ".version 8.0\n.target sm_{sm}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\n\
         cvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 5;\n\
         @%p1 bra DONE;\nst.global.u32 [%rd2], %r1;\nret;\nDONE:\nexit;\n}}\n\
         .visible .entry k2()\n{{\nret;\n}}\n"
    )
}

/// The opcodes of every instruction, in order, with guards.
fn opcodes(cubin: &Path) -> Vec<String> {
    tool_output("cuobjdump", &["-sass"], cubin)
        .lines()
        .filter_map(|l| l.split("*/").nth(1))
        .map(|rest| rest.split("/*").next().unwrap_or(""))
        .map(|code| code.trim().trim_end_matches(';').trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The attribute names of the module-wide `.nv.info`.
fn global_attributes(cubin: &Path) -> Vec<String> {
    let elf = tool_output("cuobjdump", &["-elf"], cubin);
    let section = elf.split("\n.nv.info\n").nth(1).unwrap_or("");
    let section = section.split("\n.nv.info.").next().unwrap_or("");
    section
        .lines()
        .filter(|l| l.contains("Attribute:"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn error_barriers_precede_every_exit_as_ptxas_puts_them() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let ours = ptxforge();
    let dir = scratch_dir("errbar");
    for sm in [75, 80, 90] {
        let ptx = dir.join(format!("e{sm}.ptx"));
        std::fs::write(&ptx, module(sm)).unwrap();
        let (theirs, mine) = (dir.join("ptxas.cubin"), dir.join("ours.cubin"));
        let args = format!("-arch=sm_{sm} --make-errors-visible-at-exit");
        for (tool, out) in [(&ptxas, &theirs), (&ours, &mine)] {
            compile(tool, &args, &ptx, out);
        }
        let attrs = global_attributes(&theirs);
        assert!(
            attrs.iter().any(|a| a.contains("GEN_ERRBAR_AT_EXIT")),
            "{attrs:?}"
        );
        assert_eq!(attrs, global_attributes(&mine), "sm_{sm}");
        let barriers: &[&str] = if sm >= 90 {
            &["ERRBAR", "CGAERRBAR"]
        } else {
            &["ERRBAR"]
        };
        let ops = opcodes(&mine);
        let exits: Vec<usize> = (0..ops.len())
            .filter(|&n| ops[n].ends_with("EXIT"))
            .collect();
        assert_eq!(exits.len(), 3, "sm_{sm}: {ops:?}");
        for n in exits {
            let guard = ops[n].trim_end_matches("EXIT");
            for (b, name) in barriers.iter().enumerate() {
                let want = format!("{guard}{name}");
                let at = n - barriers.len() + b;
                assert_eq!(ops[at], want, "sm_{sm}: before EXIT at {n}: {ops:?}");
            }
        }
        tool_output("nvdisasm", &[], &mine);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
