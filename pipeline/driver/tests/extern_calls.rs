//! Calls of `vprintf` and `__assertfail` (`ptxforge_sass::extern_call`): the code (LEPC, CALL.ABS)
//! and the cubin's layout against ptxas's, as `cuobjdump -elf` shows them: the same sections
//! (name, type, flags, entry size, alignment), symbols (name, type, binding, visibility, other,
//! section), relocations (section, symbol, type), the `.nv.info` records' attributes (and the
//! functions EIATTR_EXTERNS names) and `.nv.callgraph`'s edges, offsets and sizes aside. The layout test
//! needs the reference tools and prints `skipped: ...` without them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

fn test_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

fn compile(rel: &str, sm: u32) -> ptxforge_pipeline::CompileOutput {
    let ptx = std::fs::read_to_string(test_file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let opts = CompileOptions {
        sm: Sm::new(sm),
        keep_sass_text: true,
        ..Default::default()
    };
    compile_module(&ptx, rel, &opts)
}

#[test]
fn vprintf_is_called_through_its_constant_slot() {
    for sm in [80, 86, 90] {
        let out = compile("calls/vprintf.ptx", sm);
        assert!(out.cubin.is_some(), "sm_{sm}: {:?}", out.diagnostics);
        let text = out.kernels[0].sass_text.as_deref().expect("SASS text");
        let count = |what: &str| text.lines().filter(|l| l.contains(what)).count();
        assert_eq!(count("CALL.ABS.NOINC R2"), 1, "{text}");
        assert_eq!(count("LEPC R20"), 1, "{text}");
        // The callee's address from the slot after `$str`'s.
        assert_eq!(count("LDC.64 R2, c[0x4][0x8]"), 1, "{text}");
        let image = out.kernels[0].image.as_ref().expect("an image");
        assert_eq!(image.externs, vec!["vprintf".to_string()]);
        let call = text
            .lines()
            .position(|l| l.contains("CALL.ABS"))
            .expect("the call") as u32;
        assert_eq!(image.syscall_offsets, vec![16 * call]);
    }
}

/// `cuobjdump -elf`'s tables, normalised.
#[derive(Debug, Default, PartialEq)]
struct Layout {
    sections: BTreeSet<String>,
    symbols: BTreeSet<String>,
    relocations: Vec<String>,
    /// Per `.nv.info*` section, its records' attributes in order (EIATTR_EXTERNS with the
    /// functions it names).
    info: Vec<String>,
    /// `.nv.callgraph`'s pairs, symbols by name.
    callgraph: Vec<String>,
}

fn layout(cubin: &[u8], tag: &str) -> Option<Layout> {
    let tool = ptxforge_sass::nvtools::tool("cuobjdump")?;
    let path = std::env::temp_dir().join(format!(
        "ptxforge-extern-{}-{tag}.cubin",
        std::process::id()
    ));
    std::fs::write(&path, cubin).ok()?;
    let out = std::process::Command::new(tool)
        .arg("-elf")
        .arg(&path)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut l = Layout::default();
    let mut names = std::collections::HashMap::new();
    let mut part = "";
    let mut rel_section = String::new();
    let mut symbol_names = std::collections::HashMap::new();
    let mut callgraph_pairs = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with(".nv.info") || line == ".nv.callgraph" {
            part = if line == ".nv.callgraph" {
                "callgraph"
            } else {
                "info"
            };
            l.info.push(format!("section {line}"));
            continue;
        }
        if part == "info" {
            if let Some(attr) = line.trim().strip_prefix("Attribute:") {
                l.info.push(attr.trim().to_string());
            } else if let Some(names) = line.trim().strip_prefix("Value:\texterns:") {
                let names: Vec<&str> = names
                    .split_whitespace()
                    .map(|n| n.split('(').next().unwrap_or(n))
                    .collect();
                l.info.push(format!("externs {}", names.join(" ")));
            }
            continue;
        }
        if part == "callgraph" {
            if let Some(pair) = line
                .trim()
                .strip_prefix('<')
                .and_then(|p| p.strip_suffix('>'))
            {
                callgraph_pairs.push(pair.to_string());
                continue;
            }
            part = "";
        }
        if line.starts_with("Sections:") {
            part = "sections";
            continue;
        }
        if let Some(rest) = line.strip_prefix(".section ") {
            let name = rest.split_whitespace().next().unwrap_or("");
            part = if name == ".symtab" {
                "symbols"
            } else if rest.ends_with("REL") || rest.ends_with("RELA") {
                rel_section = name.to_string();
                "relocations"
            } else {
                ""
            };
            continue;
        }
        match part {
            "sections" if f.len() == 10 && f[0] != "Index" => {
                names.insert(f[0].to_string(), f[9].to_string());
                l.sections.insert(format!(
                    "{} {} flags {} es {} align {}",
                    f[9], f[5], f[6], f[3], f[4]
                ));
            }
            "symbols" if f.len() == 9 && f[0] != "Num" => {
                let ndx = f[7].trim_start_matches("0x");
                let section = names.get(ndx).cloned().unwrap_or_else(|| f[7].to_string());
                let num = u32::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap_or(0);
                symbol_names.insert(num, f[8].to_string());
                l.symbols.insert(format!(
                    "{} {} {} {} {} in {section}",
                    f[8], f[3], f[4], f[5], f[6]
                ));
            }
            // REL: offset, symbol, type; RELA: the addend after them.
            "relocations" if (3..=4).contains(&f.len()) && f[0].starts_with("0x") => {
                let addend = f.get(3).unwrap_or(&"");
                l.relocations
                    .push(format!("{rel_section} {} {} {addend}", f[1], f[2]));
            }
            "relocations" => part = "",
            _ => {}
        }
    }
    l.relocations.sort();
    for pair in callgraph_pairs {
        let named: Vec<String> = pair
            .split(',')
            .map(|x| {
                let n: i64 = x.trim().parse().unwrap_or(0);
                match u32::try_from(n).ok().and_then(|n| symbol_names.get(&n)) {
                    Some(name) if n > 0 => name.clone(),
                    _ => n.to_string(),
                }
            })
            .collect();
        l.callgraph.push(named.join(","));
    }
    Some(l)
}

#[test]
fn cubin_layout_matches_ptxas() {
    if ptxforge_sass::nvtools::tool("ptxas").is_none()
        || ptxforge_sass::nvtools::tool("cuobjdump").is_none()
    {
        println!("skipped: ptxas or cuobjdump not found (set PTXFORGE_NV)");
        return;
    }
    let files: [(&str, &[u32]); 2] = [
        ("calls/vprintf.ptx", &[80, 86, 89, 90]),
        ("filetests/syscalls.ptx", &[75, 80, 86, 89, 90]),
    ];
    for (rel, sms) in files {
        for &sm in sms {
            let ours = compile(rel, sm).cubin.expect("our cubin");
            let theirs = ptxforge_sass::nvtools::ptxas_cubin(&test_file(rel), sm)
                .expect("ptxas")
                .expect("ptxas compiles it");
            let (a, b) = (
                layout(&ours, "ours").expect("cuobjdump"),
                layout(&theirs, "ptxas").expect("cuobjdump"),
            );
            assert!(
                !b.relocations.is_empty(),
                "{rel} sm_{sm}: no relocations read"
            );
            assert_eq!(a.sections, b.sections, "{rel} sm_{sm}: sections");
            assert_eq!(a.symbols, b.symbols, "{rel} sm_{sm}: symbols");
            assert_eq!(a.relocations, b.relocations, "{rel} sm_{sm}: relocations");
            assert!(
                b.info.iter().any(|r| r.starts_with("externs ")),
                "{rel} sm_{sm}: no EIATTR_EXTERNS read"
            );
            assert_eq!(a.info, b.info, "{rel} sm_{sm}: .nv.info records");
            assert!(b.callgraph.len() > 4, "{rel} sm_{sm}: no call edges read");
            assert_eq!(a.callgraph, b.callgraph, "{rel} sm_{sm}: .nv.callgraph");
        }
    }
}
