//! Front-end tests: real nvcc output parses; bad input gets ptxas's diagnostics; odd input never panics.

use ptxforge_ptx::ast::{Operand, Statement};
use ptxforge_ptx::parse_module;

const VADD: &str = include_str!("../../../examples/vadd.ptx");

#[test]
fn parses_nvcc_vadd() {
    let m = parse_module(VADD, "vadd.ptx").unwrap();
    assert_eq!(m.target, "sm_75");
    assert_eq!(m.functions.len(), 1);
    let f = &m.functions[0];
    assert!(f.is_entry);
    assert_eq!(f.params.len(), 4);
    let instrs: Vec<_> = f
        .body
        .iter()
        .filter_map(|s| {
            if let Statement::Instr(i) = s {
                Some(i)
            } else {
                None
            }
        })
        .collect();
    assert!(instrs
        .iter()
        .any(|i| i.opcode() == "ld" && i.mods() == ["global", "f32"]));
    assert!(instrs
        .iter()
        .any(|i| i.operands.contains(&Operand::SpecialReg {
            name: "%tid".into(),
            comp: Some('x')
        })));
    assert_eq!(f.reg_type("%rd10"), Some(ptxforge_ptx::ast::Type::B64));
    assert_eq!(f.reg_type("%rd11"), None);
}

fn errors(src: &str) -> Vec<String> {
    parse_module(src, "t.ptx")
        .unwrap_err()
        .iter()
        .map(|d| d.to_string())
        .collect()
}

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

#[test]
fn unknown_opcode() {
    let e = errors(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmovx.u32 %r1, 1;\nret;\n}}\n"
    ));
    assert_eq!(
        e,
        vec!["ptxas t.ptx, line 7; error   : Not a name of any known instruction: 'movx'"]
    );
}

#[test]
fn undeclared_register() {
    let e = errors(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r9, 1;\nret;\n}}\n"
    ));
    assert_eq!(
        e,
        vec![
            "ptxas t.ptx, line 7; error   : Arguments mismatch for instruction 'mov'",
            "ptxas t.ptx, line 7; error   : Unknown symbol '%r9'"
        ]
    );
}

#[test]
fn syntax_error_near_token() {
    let e = errors(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r1 %tid.x;\nret;\n}}\n"
    ));
    assert_eq!(
        e[0],
        "ptxas t.ptx, line 7; fatal   : Parsing error near '%tid': syntax error"
    );
}

#[test]
fn undefined_label_and_duplicate_reg() {
    let e = errors(&format!(
        "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\n.reg .b32 %r<3>;\nbra $L_nowhere;\n}}\n"
    ));
    assert!(
        e.contains(
            &"ptxas t.ptx, line 7; error   : Duplicate definition of variable '%r<'".to_string()
        ),
        "{e:?}"
    );
    assert!(
        e.contains(&"ptxas t.ptx, line 8; error   : Unknown symbol '$L_nowhere'".to_string()),
        "{e:?}"
    );
}

#[test]
fn odd_input_never_panics() {
    let long_ident = "a".repeat(1_000_000);
    for src in [
        "\0\0\0".to_string(),
        "ééé ∑ .entry".to_string(),
        format!(
            "{HEAD}.entry k()\n{{\n.reg .b32 %r<4000000000>;\nmov.u32 %r3999999999, 1;\nret;\n}}\n"
        ),
        format!("{HEAD}.entry {long_ident}()\n{{\nret;\n}}\n"),
        format!("{HEAD}.entry k()\n{}", "{".repeat(100_000)),
        format!("{HEAD}.global .u32 g[1] = {};\n", "{".repeat(1_000_000)),
        format!(
            "{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.b32 %r1, {};\n}}\n",
            "{".repeat(1_000_000)
        ),
        String::new(),
    ] {
        let _ = parse_module(&src, "odd.ptx");
    }
}

#[test]
fn corpus_parses() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !dir.join("MANIFEST.tsv").is_file() {
        println!("skipped: corpus absent at {}", dir.display());
        return;
    }
    let mut failures = Vec::new();
    let mut count = 0;
    let files = ["cutlass", "cccl"].iter().flat_map(|sub| {
        std::fs::read_dir(dir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
    });
    for e in files {
        let p = e.path();
        let src = std::fs::read_to_string(&p).unwrap();
        count += 1;
        if let Err(d) = parse_module(&src, &p.display().to_string()) {
            failures.push(d[0].to_string());
        }
    }
    assert!(count > 0);
    assert!(
        failures.is_empty(),
        "{} of {count} corpus modules failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Parsing in sections (every piece size) gives exactly the serial parse: module, diagnostics, order.
fn assert_sections_match_serial(src: &str, name: &str) {
    let serial = ptxforge_ptx::parse_syntax(src, name);
    for min in [1, 7, 100, usize::MAX] {
        let (module, diags) = ptxforge_ptx::sections::parse_syntax_in_sections(src, name, min);
        assert!(
            module == serial.0,
            "{name}: module differs with sections of >= {min} statements"
        );
        assert_eq!(
            diags, serial.1,
            "{name}: diagnostics differ with sections of >= {min} statements"
        );
    }
}

fn filetest_modules() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../driver/tests/filetests");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no filetests in {}", dir.display());
    v
}

#[test]
fn sections_match_serial_on_filetests() {
    let all: String = filetest_modules()
        .iter()
        .map(|(_, s)| s.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(ptxforge_ptx::sections::split_sections(&all, 1).len() > 10);
    assert_sections_match_serial(&all, "all.ptx");
    for (name, src) in filetest_modules() {
        assert_sections_match_serial(&src, &name);
    }
}

/// Broken modules (cut short, a brace or quote dropped or added) still give the serial result.
#[test]
fn sections_match_serial_on_broken_modules() {
    let all: String = filetest_modules()
        .iter()
        .map(|(_, s)| s.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let bytes: Vec<usize> = all.char_indices().map(|(i, _)| i).collect();
    for k in (0..bytes.len()).step_by(bytes.len() / 60) {
        let at = bytes[k];
        let cut = &all[..at];
        assert_sections_match_serial(cut, "cut.ptx");
        for insert in ["}", "{", "\"", "/*", "= {"] {
            let text = format!("{}{insert}{}", &all[..at], &all[at..]);
            assert_sections_match_serial(&text, "insert.ptx");
        }
        let dropped = format!("{}{}", &all[..at], &all[at..].get(1..).unwrap_or(""));
        assert_sections_match_serial(&dropped, "drop.ptx");
    }
}

#[test]
fn sections_match_serial_on_corpus() {
    if cfg!(debug_assertions) {
        println!("skipped: the corpus comparison runs in release builds");
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !dir.join("MANIFEST.tsv").is_file() {
        println!("skipped: corpus absent at {}", dir.display());
        return;
    }
    let files = ["cutlass", "cccl"].iter().flat_map(|sub| {
        std::fs::read_dir(dir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
    });
    let mut count = 0;
    for e in files {
        let src = std::fs::read_to_string(e.path()).unwrap();
        assert_sections_match_serial(&src, &e.path().display().to_string());
        count += 1;
    }
    assert!(count > 0);
}

/// Warnings among errors as ptxas 13.5 prints them: before a link-stage fatal; after other errors
/// only those with a line.
#[test]
fn warnings_of_rejected_modules_in_ptxas_order() {
    let head = ".version 8.0\n.target sm_80\n.address_size 64\n.extern .global .u32 h;\n";
    let link = format!("{head}.extern .global .u32 g[];\n.visible .entry k()\n{{\nret;\n}}\n");
    let d = parse_module(&link, "link.ptx").unwrap_err();
    let texts: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(
        texts[0].contains("warning") && texts[0].contains("Unresolved extern variable 'h'"),
        "{texts:?}"
    );
    assert!(
        texts[1].contains("fatal") && texts[1].contains("Unresolved extern variable 'g'"),
        "{texts:?}"
    );
    let errors = format!(
        "{head}.visible .entry k()\n{{\n.reg .u32 %r<2>;\nadd.u32 %r5, %r1, 1;\nret;\n}}\n"
    );
    let d = parse_module(&errors, "errors.ptx").unwrap_err();
    assert!(
        d.iter().all(|d| !d.to_string().contains("warning")),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|d| d.to_string().contains("Unknown symbol '%r5'")),
        "{d:?}"
    );
}

/// `.file` directives in different sections are one module's: a repeated index is found after
/// the merge, on the line ptxas names.
#[test]
fn file_indexes_are_checked_across_sections() {
    let src = include_str!("conformance/file_duplicate_index_between_functions.ptx");
    assert_sections_match_serial(src, "dup.ptx");
    let (module, diags) = ptxforge_ptx::sections::parse_syntax_in_sections(src, "dup.ptx", 1);
    assert_eq!(
        module
            .files
            .iter()
            .map(|f| (f.index, f.line))
            .collect::<Vec<_>>(),
        [(1, 6), (1, 11)]
    );
    let errors = ptxforge_ptx::finish_module(src, "dup.ptx", module, diags).unwrap_err();
    assert_eq!(
        (errors[0].line, errors[0].message.as_str()),
        (11, "Duplicate file index #1")
    );
}

/// Labels repeated in sibling `{ }` blocks (CUTLASS's inline-asm mbarrier waits each declare
/// `LAB_WAIT:` and `DONE:`) are distinct: each branch names the label of its own block, a branch
/// outside them the function's label of that name.
#[test]
fn labels_repeated_in_nested_blocks_are_scoped() {
    let src = ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\
        .reg .pred %p<2>;\n\
        DONE:\n\
        { .reg .pred P1;\n LAB_WAIT:\n setp.eq.u32 P1, 1, 1;\n @P1 bra DONE;\n bra LAB_WAIT;\n DONE:\n }\n\
        { .reg .pred P1;\n LAB_WAIT:\n setp.eq.u32 P1, 1, 1;\n @P1 bra DONE;\n bra LAB_WAIT;\n DONE:\n }\n\
        setp.eq.u32 %p1, 1, 1;\n @%p1 bra DONE;\n ret;\n}\n";
    let m = parse_module(src, "labels.ptx").unwrap();
    let body = &m.functions[0].body;
    let labels: Vec<String> = body
        .iter()
        .filter_map(|s| match s {
            Statement::Label { name, .. } => Some(name.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(labels.len(), 5);
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 5, "{labels:?}");
    let targets: Vec<String> = body
        .iter()
        .filter_map(|s| match s {
            Statement::Instr(i) if i.opcode() == "bra" => match i.operands.last() {
                Some(Operand::Symbol(n)) => Some(n.to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    // Block 1: DONE (its own, label 2), LAB_WAIT (label 1); block 2: labels 4 and 3; outside:
    // the function's DONE (label 0).
    let want = [&labels[2], &labels[1], &labels[4], &labels[3], &labels[0]];
    assert_eq!(targets.iter().collect::<Vec<_>>(), want);
    assert_eq!(labels[0], "DONE");
}
