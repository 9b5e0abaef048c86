//! Hardware check: runs ptxas's cubin and ptxforge's for one kernel on a real GPU, with the same
//! seeded buffers, scalars, grid and block as the differential check (`ptxforge-sim`), and
//! compares every buffer with the PTX interpreter under the same ulp budget. Without a GPU (no
//! driver library, no device) it says `skipped: no GPU`.

pub mod device;
pub mod options;

use ptxforge_sim::{compare_runner, compile_ours, parse_request, reference_buffers, setup};
use ptxforge_sim::{SimRequest, Verdict};

pub use device::{open_gpu, Gpu};
pub use options::{parse_args, GpuRequest};

/// Runs `req` on `gpu`: the interpreter for the reference, then each cubin (ptxas's when given,
/// then ours, compiled here) on the GPU; the first runner that fails or differs decides.
/// `Err` is a setup problem (the PTX does not parse, ptxforge cannot compile it, a scalar is
/// missing).
pub fn check_on_gpu(gpu: &Gpu, req: &SimRequest) -> Result<Verdict, String> {
    let ours = compile_ours(req)?;
    let mut cubins: Vec<(&str, &[u8])> = vec![("gpu ptxforge cubin", &ours)];
    if let Some(cubin) = &req.reference_cubin {
        cubins.insert(0, ("gpu ptxas cubin", cubin));
    }
    let module = parse_request(req)?;
    let inputs = setup::build_inputs(&module, req)?;
    let reference = match reference_buffers(&module, req, &inputs) {
        Ok(buffers) => buffers,
        Err(stop) => return Ok(stop),
    };
    for (runner, cubin) in cubins {
        let verdict = match gpu.run(cubin, &req.entry, req.grid, req.block, &inputs) {
            Ok(buffers) => compare_runner(&module, req, &inputs, runner, &reference, &buffers),
            Err(error) => Verdict::Failed {
                runner: runner.to_string(),
                error,
            },
        };
        if verdict != Verdict::Agree {
            return Ok(verdict);
        }
    }
    Ok(Verdict::Agree)
}
