//! Hostile input: deep nesting, huge `%r<N>`, giant identifiers, NUL bytes and non-ASCII text each
//! get a diagnostic or a success, never a panic, a stack overflow or memory that grows with a
//! number written in the input (a counting allocator checks the peak per test thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ptxforge_ptx::{parse_module, Diagnostic};

/// Counts the live and peak bytes allocated by the current thread.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LIVE.try_with(|l| {
            l.set(l.get() + layout.size());
            let _ = PEAK.try_with(|p| p.set(p.get().max(l.get())));
        });
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(layout.size())));
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Parses `src` and returns the result with the peak bytes allocated beyond what was live before.
fn parse_measured(src: &str) -> (Result<ptxforge_ptx::ast::Module, Vec<Diagnostic>>, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let r = parse_module(src, "hostile.ptx");
    (r, PEAK.with(Cell::get) - base)
}

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

fn kernel(body: &str) -> String {
    format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n{body}\nret;\n}}\n"
    )
}

/// Every diagnostic's text, or "ok".
fn first(r: &Result<ptxforge_ptx::ast::Module, Vec<Diagnostic>>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(d) => d
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Asserts an error with a message that contains `what`, with at most `factor` × the input's
/// size (+ 1 MiB) allocated (messages may quote a giant name a few times).
fn assert_error(src: &str, what: &str, factor: usize) {
    let (r, peak) = parse_measured(src);
    let msg = first(&r);
    assert!(msg.contains(what), "expected '{what}', got {msg:.200}");
    assert!(
        peak <= factor * src.len() + (1 << 20),
        "peak {peak} bytes for {} input bytes",
        src.len()
    );
}

const MILLION: usize = 1_000_000;

#[test]
fn deep_braces_in_a_body() {
    assert_error(&kernel(&"{".repeat(MILLION)), "syntax error", 4);
    assert_error(
        &format!("{}{}", kernel(""), "}".repeat(MILLION)),
        "syntax error",
        4,
    );
    let balanced = kernel(&format!("{}{}", "{".repeat(MILLION), "}".repeat(MILLION)));
    let (r, peak) = parse_measured(&balanced);
    assert_eq!(first(&r), "ok");
    assert!(peak <= 4 * balanced.len(), "peak {peak}");
}

#[test]
fn deep_parentheses_and_braces_in_operands() {
    for open in ["(", "{", "["] {
        let src = kernel(&format!("mov.b32 %r1, {};", open.repeat(MILLION)));
        assert_error(&src, "syntax error", 4);
    }
    let call = kernel(&format!(
        "call f, {}%r1{};",
        "(".repeat(MILLION),
        ")".repeat(MILLION)
    ));
    assert_error(&call, "syntax error", 4);
}

#[test]
fn deep_initializers() {
    let src = format!(
        "{HEAD}.global .u32 g[1] = {}1{};\n",
        "{".repeat(MILLION),
        "}".repeat(MILLION)
    );
    assert_error(&src, "syntax error", 4);
    let shallow = format!("{HEAD}.global .u32 g[2][2] = {{{{1, 2}}, {{3, 4}}}};\n");
    assert_eq!(first(&parse_measured(&shallow).0), "ok");
}

#[test]
fn huge_register_ranges_stay_lazy() {
    let src = kernel(
        ".reg .b32 %big<4000000000>;\nmov.b32 %big3999999999, 1;\nmov.b32 %big0, %big3999999999;",
    );
    let (r, peak) = parse_measured(&src);
    assert_eq!(first(&r), "ok");
    assert!(peak < 1 << 20, "{peak} bytes for a 4e9-register range");
    assert_error(
        &kernel(".reg .b32 %big<4000000000>;\nmov.b32 %big4000000000, 1;"),
        "Unknown symbol '%big4000000000'",
        64,
    );
    let overflow = kernel(".reg .b32 %q<99999999999999999999999999>;");
    assert_error(&overflow, "Constant overflow", 64);
}

#[test]
fn ten_million_character_identifiers() {
    let name = "a".repeat(10 * MILLION);
    let entry = format!("{HEAD}.visible .entry {name}()\n{{\nret;\n}}\n");
    let (r, peak) = parse_measured(&entry);
    assert_eq!(first(&r), "ok");
    assert!(peak <= 4 * entry.len(), "peak {peak}");
    assert_error(&kernel(&format!("bra {name};")), "Unknown symbol", 8);
    assert_error(
        &kernel(&format!("{name};")),
        "Not a name of any known instruction",
        8,
    );
    assert_error(&kernel(&format!("mov.b32 %r1 %{name};")), "syntax error", 8);
}

#[test]
fn nul_bytes_and_non_ascii_text() {
    for src in [
        "\0".repeat(MILLION),
        kernel("mov.b32 %r1,\0 1;"),
        format!("{HEAD}\0.visible .entry k()\n{{\nret;\n}}\n"),
        "é∑😀 .entry".repeat(100_000),
        kernel("mov.b32 %r1, 1; // é∑😀\nmov.b32 %é, 1;"),
        format!(
            "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<2>;\nmov.b32 %r1, \"é\n{}",
            "\u{202e}".repeat(1000)
        ),
    ] {
        let (r, peak) = parse_measured(&src);
        assert!(r.is_err(), "{:.80}", src);
        assert!(
            peak <= 8 * src.len() + (1 << 20),
            "peak {peak} for {} bytes",
            src.len()
        );
    }
}

#[test]
fn unterminated_comments_and_strings() {
    assert_error(
        &format!("{HEAD}/* {}", "{ x ".repeat(MILLION / 4)),
        "unexpected EOF while scanning",
        4,
    );
    assert_error(
        &format!("{HEAD}.global .u32 g = \"{}", "\\x".repeat(MILLION / 2)),
        "syntax error",
        4,
    );
    let pragmas = kernel(&".pragma \"nounroll\";\n".repeat(10_000));
    assert_eq!(first(&parse_measured(&pragmas).0), "ok");
}

#[test]
fn errors_are_capped() {
    let src = kernel(&"mov.b32 %r1 %r2;\n".repeat(100_000));
    let (r, _) = parse_measured(&src);
    let diags = r.unwrap_err();
    assert!(
        !diags.is_empty() && diags.len() <= 100,
        "{} diagnostics",
        diags.len()
    );
}
