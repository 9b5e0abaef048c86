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

/// What one launch on the GPU came to.
pub struct GpuOutcome {
    /// The first runner that failed or differed, else `Agree`.
    pub verdict: Verdict,
    /// Why ptxforge did not compile the kernel (then only ptxas's cubin ran), as the sim tests
    /// allow.
    pub not_compiled: Option<String>,
}

/// Runs `req` on `gpu`: the interpreter for the reference, then each cubin (ptxas's when given,
/// then ours, compiled here) on the GPU; the first runner that fails or differs decides.
/// `Err` is a setup problem (the PTX does not parse, a scalar is missing, ptxforge cannot compile
/// the kernel and there is no ptxas cubin either).
pub fn check_on_gpu(gpu: &Gpu, req: &SimRequest) -> Result<GpuOutcome, String> {
    let (ours, not_compiled) = match compile_ours(req) {
        Ok(cubin) => (Some(cubin), None),
        Err(e) if req.reference_cubin.is_some() => (None, Some(e)),
        Err(e) => return Err(e),
    };
    let mut cubins: Vec<(&str, &[u8])> = Vec::new();
    if let Some(cubin) = &req.reference_cubin {
        cubins.push(("gpu ptxas cubin", cubin));
    }
    if let Some(cubin) = &ours {
        cubins.push(("gpu ptxforge cubin", cubin));
    }
    let module = parse_request(req)?;
    let inputs = setup::build_inputs(&module, req)?;
    let verdict = match reference_buffers(&module, req, &inputs) {
        Ok(reference) => cubins
            .into_iter()
            .map(
                |(runner, cubin)| match gpu.run(cubin, &req.entry, req.grid, req.block, &inputs) {
                    Ok(buffers) => {
                        compare_runner(&module, req, &inputs, runner, &reference, &buffers)
                    }
                    Err(error) => Verdict::Failed {
                        runner: runner.to_string(),
                        error,
                    },
                },
            )
            .find(|v| *v != Verdict::Agree)
            .unwrap_or(Verdict::Agree),
        Err(stop) => stop,
    };
    Ok(GpuOutcome {
        verdict,
        not_compiled,
    })
}
