//! `--warn-on-local-memory-usage` and `--warn-on-spills`: ptxas's per-kernel warnings about stack
//! frames and spilled registers (and, always, about a stack size recursion leaves unknown), before the `-v` lines, kernels in the order `-v` lists them
//! (reverse definition order); `-w` and `-Werror` apply (as errors they fail the run, exit 255,
//! without ptxas's "aborted" line).

use ptxforge_pipeline::CompileOutput;

use crate::args::Args;
use crate::warnings::WarningPolicy;

/// Prints the warnings the options ask for.
pub fn print(args: &Args, out: &CompileOutput, policy: &WarningPolicy) {
    for k in out.kernels.iter().rev().filter(|k| k.error.is_none()) {
        let recursive = k
            .image
            .as_ref()
            .is_some_and(|i| !i.subroutines.is_empty() && !i.device_function);
        if recursive {
            policy.warning(&unknown_stack_warning(&k.name));
        }
    }
    if !args.warn_spills && !args.warn_local_memory {
        return;
    }
    for k in out.kernels.iter().rev().filter(|k| k.error.is_none()) {
        if args.warn_local_memory && k.stack_frame > 0 {
            policy.warning(&local_memory_warning(&k.name, k.stack_frame));
        }
        if args.warn_spills && (k.spill_stores > 0 || k.spill_loads > 0) {
            policy.warning(&spill_warning(&k.name, k.spill_stores, k.spill_loads));
        }
    }
}

/// ptxas 13.5's warning for an entry that calls a recursive function (given whatever the options).
pub fn unknown_stack_warning(kernel: &str) -> String {
    format!("Stack size for entry function '{kernel}' cannot be statically determined")
}

/// ptxas 13.5's text for `--warn-on-local-memory-usage`.
pub fn local_memory_warning(kernel: &str, frame: u32) -> String {
    format!("Local memory used for function '{kernel}', size of stack frame: {frame} bytes")
}

/// ptxas 13.5's text for `--warn-on-spills`.
pub fn spill_warning(kernel: &str, stores: u32, loads: u32) -> String {
    format!(
        "Registers are spilled to local memory in function '{kernel}', {stores} bytes spill stores, {loads} bytes spill loads"
    )
}
