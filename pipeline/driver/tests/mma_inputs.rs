//! CUDA C written against the tensor-core APIs (`tests/mma/*.cu`, with the PTX nvcc 13.5 wrote
//! for sm_80): what ptxforge makes of them. The WMMA API's `wmma.*` instructions are not lowered
//! yet: each must get ptxas's "not supported yet" error at its line, no cubin and no panic. (The
//! `mma.sync` inline-asm kernels run three ways in `ptxforge-sim`'s kernels test.)

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

fn read(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mma")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn wmma_api_is_refused_line_by_line() {
    let ptx = read("mma_wmma.ptx");
    let opts = CompileOptions {
        sm: Sm::new(80),
        ..Default::default()
    };
    let out = compile_module(&ptx, "mma_wmma.ptx", &opts);
    assert!(out.cubin.is_none());
    let wmma_lines: Vec<u32> = ptx
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("wmma."))
        .map(|(n, _)| n as u32 + 1)
        .collect();
    assert_eq!(wmma_lines.len(), 5, "load a/b/c, mma, store");
    for line in wmma_lines {
        let d = out
            .diagnostics
            .iter()
            .find(|d| d.location.as_ref().map(|l| l.1) == Some(line))
            .unwrap_or_else(|| panic!("no diagnostic at line {line}: {:?}", out.diagnostics));
        assert!(
            d.is_error()
                && d.message.ends_with("is not supported yet")
                && d.message.contains("'wmma."),
            "line {line}: {}",
            d.message
        );
    }
}
