//! The `-v` resource report, in ptxas's wording and order (entries in reverse definition order).
//! "Compile time" is the kernel's own work (the sum of its stage spans), as ptxas reports each
//! kernel's time whatever `--split-compile` is, not the time it spent waiting behind others.

use std::fmt::Write;

use ptxforge_pipeline::compile::KernelOutcome;
use ptxforge_pipeline::{CompileOptions, CompileOutput};

/// The `ptxas info    : ...` lines for a successful compile.
pub fn resource_lines(opts: &CompileOptions, out: &CompileOutput, level: u8) -> String {
    let mut s = String::new();
    if level >= 2 && opts.split_compile == 1 {
        for k in out.kernels.iter().rev() {
            let _ = writeln!(s, "ptxas info    : Processing {}", k.name);
        }
    }
    for note in out
        .kernels
        .iter()
        .rev()
        .filter_map(|k| k.register_note.as_ref())
    {
        let _ = writeln!(s, "ptxas info    : {note}");
    }
    let memory = match out.module_memory.as_str() {
        "" => "0 bytes gmem",
        line => line,
    };
    let _ = writeln!(s, "ptxas info    : {memory}");
    for k in out.kernels.iter().rev() {
        let _ = writeln!(
            s,
            "ptxas info    : Compiling entry function '{}' for '{}'",
            k.name, opts.sm
        );
        let _ = writeln!(s, "ptxas info    : Function properties for {}", k.name);
        let _ = writeln!(
            s,
            "    {} bytes stack frame, {} bytes spill stores, {} bytes spill loads",
            k.stack_frame, k.spill_stores, k.spill_loads
        );
        let _ = write!(
            s,
            "ptxas info    : Used {} registers, used {} barriers",
            k.regs, k.barriers
        );
        // Without calls the cumulative stack size is the kernel's own frame.
        if k.stack_frame > 0 {
            let _ = write!(s, ", {} bytes cumulative stack size", k.stack_frame);
        }
        if k.shared_bytes > 0 {
            let _ = write!(s, ", {} bytes smem", k.shared_bytes);
        }
        if let Some(bytes) = param_bank_bytes(opts, k) {
            let _ = write!(s, ", {bytes} bytes cmem[0]");
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "ptxas info    : Compile time = {:.3} ms",
            k.compile_time().as_secs_f64() * 1e3
        );
        // The kernel's subroutines: the registers each saves are its spill stores and loads.
        for sub in k.image.iter().flat_map(|i| &i.subroutines) {
            let _ = writeln!(s, "ptxas info    : Function properties for {}", sub.name);
            let _ = writeln!(
                s,
                "    {} bytes stack frame, {} bytes spill stores, {} bytes spill loads",
                sub.frame_size, sub.saved_bytes, sub.saved_bytes
            );
        }
    }
    s
}

/// The size of the kernel's constant bank 0 (driver area and parameters), which ptxas reports
/// before sm_90 and leaves out from sm_90 on.
fn param_bank_bytes(opts: &CompileOptions, k: &KernelOutcome) -> Option<u32> {
    let image = k.image.as_ref()?;
    (opts.sm.num < 90).then(|| opts.sm.param_base() + image.param_bytes)
}
