//! The `-v` resource report, in ptxas's wording and order (entries in reverse definition order).

use std::fmt::Write;

use ptxforge_pipeline::{CompileOptions, CompileOutput};

/// The `ptxas info    : ...` lines for a successful compile.
pub fn resource_lines(opts: &CompileOptions, out: &CompileOutput, level: u8) -> String {
    let mut s = String::new();
    if level >= 2 && opts.split_compile == 1 {
        for k in out.kernels.iter().rev() {
            let _ = writeln!(s, "ptxas info    : Processing {}", k.name);
        }
    }
    let _ = writeln!(s, "ptxas info    : 0 bytes gmem");
    for k in out.kernels.iter().rev() {
        let _ = writeln!(s, "ptxas info    : Compiling entry function '{}' for '{}'", k.name, opts.sm);
        let _ = writeln!(s, "ptxas info    : Function properties for {}", k.name);
        let _ = writeln!(s, "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads");
        let _ = write!(s, "ptxas info    : Used {} registers, used {} barriers", k.regs, k.barriers);
        if k.shared_bytes > 0 {
            let _ = write!(s, ", {} bytes smem", k.shared_bytes);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "ptxas info    : Compile time = {:.3} ms", k.wall.as_secs_f64() * 1e3);
    }
    s
}
