//! fp8 `mma` on sm_90, which has no fp8 tensor op: ptxas rewrites it as F2FP unpacks, two f16
//! HMMAs of half the depth and an add of C, rounding twice where the interpreter's reference
//! rounds once (so `kernels.rs` leaves the pair out of its three-way check). Our rewrite must
//! leave exactly ptxas's bits: both cubins run in the emulator on the same inputs (three seeds)
//! and agree word for word. (Against the interpreter the f16 results differ in the last bit.)
//! Prints `skipped: ...` and passes when ptxas is absent.

use std::path::Path;

use ptxforge_sass::nvtools;
use ptxforge_sim::{
    compile_ours, emulated_buffers, first_mismatch, parse_request, setup::build_inputs, SimRequest,
};

fn request(ptx: String, entry: &str, seed: u64) -> SimRequest {
    SimRequest {
        ptx,
        file_name: "mma_fp8.ptx".into(),
        entry: entry.into(),
        sm: 90,
        grid: [1, 1, 1],
        block: [32, 1, 1],
        seed,
        seed_structs: true,
        ..SimRequest::default()
    }
}

#[test]
fn fp8_mma_on_sm90_matches_ptxas_bit_for_bit() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/mma_fp8.ptx");
    let ptx = std::fs::read_to_string(&file).unwrap().replacen(
        "\n.target sm_80\n",
        "\n.target sm_90\n",
        1,
    );
    let input = std::env::temp_dir().join(format!("ptxforge-mma-fp8-{}.ptx", std::process::id()));
    std::fs::write(&input, &ptx).unwrap();
    let Some(theirs) = nvtools::ptxas_cubin(&input, 90) else {
        println!("skipped: ptxas not found");
        return;
    };
    let _ = std::fs::remove_file(&input);
    let theirs = theirs.expect("ptxas compiles mma_fp8.ptx for sm_90");
    for seed in [1, 2, 3] {
        let req = request(ptx.clone(), "mma_fp8", seed);
        let ours = compile_ours(&req).expect("ptxforge compiles mma_fp8.ptx for sm_90");
        let module = parse_request(&req).unwrap();
        let inputs = build_inputs(&module, &req).unwrap();
        let a = emulated_buffers(&theirs, &req, &inputs, "ptxas cubin").expect("ptxas's runs");
        let b = emulated_buffers(&ours, &req, &inputs, "ptxforge cubin").expect("ours runs");
        if let Some(m) = first_mismatch(&a, &b, 0) {
            panic!("seed {seed}: ours differs from ptxas's: {m:?}");
        }
    }
}
