//! Helpers shared by the driver's integration tests: filetest inputs and compiling them.

#![allow(dead_code)]

use ptxforge_pipeline::{compile_module, CompileOptions, CompileOutput};
use ptxforge_sass::arch::Sm;

pub const FILETEST_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/filetests");

/// `(name, source)` of every filetest, sorted by name.
pub fn filetest_inputs() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(FILETEST_DIR)
        .expect("filetests folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// Compiles with the printed SASS kept and the hazard checker on.
pub fn compile_for(src: &str, name: &str, sm: Sm) -> CompileOutput {
    compile_with(src, name, sm, 1)
}

pub fn compile_with(src: &str, name: &str, sm: Sm, split_compile: usize) -> CompileOutput {
    let opts = CompileOptions {
        sm,
        split_compile,
        keep_sass_text: true,
        check_hazards: true,
        ..CompileOptions::default()
    };
    compile_module(src, &format!("{name}.ptx"), &opts)
}

/// The module's SASS listing (kernels in definition order), or the diagnostics.
pub fn sass_listing(out: &CompileOutput) -> Result<String, String> {
    if out.failed() || out.cubin.is_none() {
        let d: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        return Err(d.join("\n"));
    }
    let mut s = String::new();
    for k in &out.kernels {
        s.push_str(&format!("// kernel {}\n", k.name));
        s.push_str(k.sass_text.as_deref().unwrap_or(""));
        if !s.ends_with('\n') {
            s.push('\n');
        }
    }
    Ok(s)
}
