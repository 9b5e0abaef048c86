//! Calls of device functions that the back end does not compile yet (recursion, a call through
//! a register, an external function such as `vprintf`, a parameter's address taken, `.reg`
//! parameters): each gets ptxas's "not supported yet" error at its line, no cubin and no panic.
//! (Direct calls are inlined: `filetests/device_func.ptx` and the sim kernels `device_calls.ptx` show them.)

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

/// Compiles `tests/calls/<name>` for sm_80: the error diagnostics as (line, message).
fn errors_of(name: &str) -> Vec<(u32, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/calls")
        .join(name);
    let ptx = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let opts = CompileOptions {
        sm: Sm::new(80),
        ..Default::default()
    };
    let out = compile_module(&ptx, name, &opts);
    assert!(out.cubin.is_none(), "{name} compiled");
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.location.as_ref().map_or(0, |l| l.1), d.message.clone()))
        .collect()
}

/// The one error of `name`: at `line`, saying `what` is not supported yet.
fn assert_refused(name: &str, line: u32, what: &str) {
    let errors = errors_of(name);
    assert_eq!(errors.len(), 1, "{name}: {errors:?}");
    let (at, message) = &errors[0];
    assert_eq!(*at, line, "{name}: {message}");
    assert!(
        message.contains(what) && message.ends_with("is not supported yet"),
        "{name}: {message}"
    );
}

/// Once, though the entry calls `down` from two sites.
#[test]
fn recursion_is_refused_at_the_recursive_call() {
    assert_refused("recursive.ptx", 18, "recursive 'call' of 'down'");
}

#[test]
fn indirect_call_is_refused() {
    assert_refused("indirect.ptx", 26, "indirect 'call'");
}

#[test]
fn external_function_is_refused() {
    assert_refused("vprintf.ptx", 34, "external function 'vprintf'");
}

#[test]
fn address_of_a_parameter_is_refused() {
    assert_refused("param_address.ptx", 9, "address of the call parameter");
}

#[test]
fn register_parameters_are_refused() {
    assert_refused("reg_params.ptx", 20, "'%a' (.reg parameter");
}
