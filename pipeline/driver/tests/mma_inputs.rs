//! CUDA C written against the tensor-core APIs (`tests/mma/*.cu`, with the PTX nvcc 13.5 wrote
//! for sm_80): what ptxforge makes of them. The WMMA API's `wmma.*` instructions compile (they run
//! three ways in `ptxforge-sim`'s kernels test, `wmma.cu`, as the `mma.sync` inline-asm kernels
//! do); a form not lowered yet gets ptxas's "not supported yet" at its line.

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

fn read(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mma")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn wmma_api_compiles() {
    let ptx = read("mma_wmma.ptx");
    for sm in [75, 80, 90] {
        let opts = CompileOptions {
            sm: Sm::new(sm),
            ..Default::default()
        };
        let out = compile_module(&ptx, "mma_wmma.ptx", &opts);
        assert!(
            out.cubin.is_some() && !out.diagnostics.iter().any(|d| d.is_error()),
            "sm_{sm}: {:?}",
            out.diagnostics
        );
    }
}

/// A float wmma.mma with `.satfinite` (which ptxas refuses from PTX ISA 6.5 on) is not lowered:
/// ptxas's "not supported yet" at its line, no cubin and no panic.
#[test]
fn wmma_float_satfinite_is_refused_at_its_line() {
    let ptx = read("mma_wmma.ptx").replace(
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 ",
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite ",
    );
    let line = ptx
        .lines()
        .position(|l| l.contains(".f32.f32.satfinite"))
        .expect("the form was written") as u32
        + 1;
    let opts = CompileOptions {
        sm: Sm::new(80),
        ..Default::default()
    };
    let out = compile_module(&ptx, "mma_wmma.ptx", &opts);
    assert!(out.cubin.is_none());
    let d = out
        .diagnostics
        .iter()
        .find(|d| d.location.as_ref().map(|l| l.1) == Some(line))
        .unwrap_or_else(|| panic!("no diagnostic at line {line}: {:?}", out.diagnostics));
    assert!(
        d.is_error()
            && d.message
                == "'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite' is not supported yet",
        "line {line}: {}",
        d.message
    );
}
