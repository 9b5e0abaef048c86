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
    let instrs: Vec<_> = f.body.iter().filter_map(|s| if let Statement::Instr(i) = s { Some(i) } else { None }).collect();
    assert!(instrs.iter().any(|i| i.opcode == "ld" && i.mods == ["global", "f32"]));
    assert!(instrs.iter().any(|i| i.operands.contains(&Operand::SpecialReg { name: "%tid".into(), comp: Some('x') })));
    assert_eq!(f.reg_type("%rd10"), Some(ptxforge_ptx::ast::Type::B64));
    assert_eq!(f.reg_type("%rd11"), None);
}

fn errors(src: &str) -> Vec<String> {
    parse_module(src, "t.ptx").unwrap_err().iter().map(|d| d.to_string()).collect()
}

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

#[test]
fn unknown_opcode() {
    let e = errors(&format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmovx.u32 %r1, 1;\nret;\n}}\n"));
    assert_eq!(e, vec!["ptxas t.ptx, line 7; error   : Not a name of any known instruction: 'movx'"]);
}

#[test]
fn undeclared_register() {
    let e = errors(&format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r9, 1;\nret;\n}}\n"));
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
    let e = errors(&format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r1 %tid.x;\nret;\n}}\n"));
    assert_eq!(e[0], "ptxas t.ptx, line 7; fatal   : Parsing error near '%tid': syntax error");
}

#[test]
fn undefined_label_and_duplicate_reg() {
    let e = errors(&format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\n.reg .b32 %r<3>;\nbra $L_nowhere;\n}}\n"));
    assert!(e.contains(&"ptxas t.ptx, line 7; error   : Duplicate definition of symbol '%r'".to_string()), "{e:?}");
    assert!(e.contains(&"ptxas t.ptx, line 8; error   : Unknown symbol '$L_nowhere'".to_string()), "{e:?}");
}

#[test]
fn odd_input_never_panics() {
    let long_ident = "a".repeat(1_000_000);
    for src in [
        "\0\0\0".to_string(),
        "ééé ∑ .entry".to_string(),
        format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<4000000000>;\nmov.u32 %r3999999999, 1;\nret;\n}}\n"),
        format!("{HEAD}.entry {long_ident}()\n{{\nret;\n}}\n"),
        format!("{HEAD}.entry k()\n{}", "{".repeat(100_000)),
        format!("{HEAD}.global .u32 g[1] = {};\n", "{".repeat(1_000_000)),
        format!("{HEAD}.entry k()\n{{\n.reg .b32 %r<2>;\nmov.b32 %r1, {};\n}}\n", "{".repeat(1_000_000)),
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
    let files = ["cutlass", "cccl"].iter().flat_map(|sub| std::fs::read_dir(dir.join(sub)).into_iter().flatten().flatten());
    for e in files {
        let p = e.path();
        let src = std::fs::read_to_string(&p).unwrap();
        count += 1;
        if let Err(d) = parse_module(&src, &p.display().to_string()) {
            failures.push(d[0].to_string());
        }
    }
    assert!(count > 0);
    assert!(failures.is_empty(), "{} of {count} corpus modules failed:\n{}", failures.len(), failures.join("\n"));
}
