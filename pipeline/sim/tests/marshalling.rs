//! The one marshalling path every runner shares (`Inputs::params_for`), tested on the emulator:
//! the same launch with its buffers moved to other addresses (as a GPU's device pointers would
//! be) must leave the same buffers as the interpreter at the default addresses, on our cubin and
//! on ptxas's. This is how the GPU runner's parameter layout is checked without a GPU.

use std::path::{Path, PathBuf};

use ptxforge_sass::nvtools;
use ptxforge_sim::setup::{build_inputs, Inputs};
use ptxforge_sim::{
    compare_runner, compile_ours, emulated_buffers, parse_request, reference_buffers, SimRequest,
    Verdict,
};

fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

fn request(file: &str, entry: &str, block: u32) -> SimRequest {
    SimRequest {
        ptx: std::fs::read_to_string(kernel_dir().join(file)).unwrap(),
        file_name: file.into(),
        entry: entry.into(),
        sm: 80,
        block: [block, 1, 1],
        seed: 0x6d61_7273,
        seed_structs: true,
        ..SimRequest::default()
    }
}

/// Addresses unlike the default ones: low, close together (64 KiB apart), in reverse order.
fn other_addresses(inputs: &Inputs) -> Vec<u64> {
    let n = inputs.buffers.len() as u64;
    (0..n).map(|i| 0x2_0000_0000 + (n - i) * 0x1_0000).collect()
}

/// ptxas's cubin for the request's PTX, when ptxas is installed.
fn ptxas_cubin(req: &SimRequest) -> Option<Vec<u8>> {
    let input = std::env::temp_dir().join(format!(
        "ptxforge-sim-marshalling-{}-{}.ptx",
        std::process::id(),
        req.entry
    ));
    std::fs::write(&input, &req.ptx).unwrap();
    let cubin = nvtools::ptxas_cubin(&input, req.sm);
    let _ = std::fs::remove_file(&input);
    cubin.map(|c| c.expect("ptxas accepts the kernel"))
}

/// Runs `req` on the emulator with its buffers moved, against the interpreter at the defaults.
fn relocated_run_agrees(req: &SimRequest) {
    let module = parse_request(req).unwrap();
    let inputs = build_inputs(&module, req).unwrap();
    let reference = reference_buffers(&module, req, &inputs).expect("the interpreter runs it");
    let moved = inputs.relocated(&other_addresses(&inputs));
    assert_ne!(
        moved.params, inputs.params,
        "{}: no address moved",
        req.entry
    );
    let mut cubins = vec![("ptxforge cubin", compile_ours(req).unwrap())];
    if let Some(cubin) = ptxas_cubin(req) {
        cubins.push(("ptxas cubin", cubin));
    }
    for (runner, cubin) in &cubins {
        let buffers = emulated_buffers(cubin, req, &moved, runner)
            .unwrap_or_else(|v| panic!("{}: {v}", req.entry));
        let verdict = compare_runner(&module, req, &inputs, runner, &reference, &buffers);
        assert_eq!(verdict, Verdict::Agree, "{} moved, {runner}", req.entry);
    }
}

#[test]
fn pointer_parameters_moved_elsewhere_still_agree() {
    relocated_run_agrees(&request("hw_stress.ptx", "load_use", 128));
    relocated_run_agrees(&request("hw_stress.ptx", "barrier_rounds", 128));
}

#[test]
fn pointer_fields_of_a_struct_moved_elsewhere_still_agree() {
    relocated_run_agrees(&request("param_struct.ptx", "param_struct_indexed", 64));
}

#[test]
fn params_for_writes_each_address_where_the_layout_says() {
    let req = request("param_struct.ptx", "param_struct_indexed", 64);
    let module = parse_request(&req).unwrap();
    let inputs = build_inputs(&module, &req).unwrap();
    assert_eq!(inputs.address_offsets.len(), inputs.buffers.len());
    let defaults: Vec<u64> = inputs.buffers.iter().map(|b| b.addr).collect();
    assert_eq!(inputs.params_for(&defaults), inputs.params);
    let addrs = other_addresses(&inputs);
    let params = inputs.params_for(&addrs);
    for (&at, &addr) in inputs.address_offsets.iter().zip(&addrs) {
        assert_eq!(params[at..at + 8], addr.to_le_bytes());
    }
    // Everything else (the struct's seeded scalar bytes) is untouched.
    let mut masked = (params.clone(), inputs.params.clone());
    for &at in &inputs.address_offsets {
        masked.0[at..at + 8].fill(0);
        masked.1[at..at + 8].fill(0);
    }
    assert_eq!(masked.0, masked.1);
    assert_ne!(params, inputs.params);
}
