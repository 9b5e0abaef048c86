//! Random programs against the whole compiler: a generator of valid, terminating, deterministic
//! PTX kernels ([`gen`]), a driver that runs each three ways (the interpreter, the emulator on
//! ptxas's cubin and on ours) and sorts the result ([`driver`]), and a reducer that shrinks a
//! disagreeing kernel ([`reduce`]).

pub mod driver;
pub mod gen;
mod gen_more;
mod gen_tensor;
pub mod program;
pub mod reduce;

use std::path::Path;

pub use driver::{default_ptxas, run, Culprit, Outcome};
pub use gen::{generate, Config, Feature};
pub use program::Program;

/// A reduced kernel, ready to be a sim test: its PTX with a header saying where it came from,
/// what it shows, and how to rerun it.
pub fn reduced_file(program: &Program, seed: u64, outcome: &Outcome, from: usize) -> String {
    let req = driver::request(program, seed);
    format!(
        "// Found by `ptxforge sim --random` (seed {seed}, sm_{sm}); reduced from {from} to {to} body instructions.\n\
         // {outcome}\n\
         // Rerun: ptxforge sim FILE -arch sm_{sm} --entry {entry} --block {block} --buffer-bytes {bytes} --seed {seed}\n\
         //        [--reference-cubin CUBIN, ptxas's cubin for the same file]\n\n{ptx}",
        sm = program.sm,
        to = program.body_instructions(),
        outcome = one_line(&outcome.to_string()),
        entry = req.entry,
        block = program.threads,
        bytes = req.buffer_bytes,
        ptx = req.ptx,
    )
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Generates, runs and (on a disagreement) reduces the kernel of one seed; returns the outcome,
/// the body's instruction count and, for a disagreement, the reduced kernel's file text.
pub fn run_seed(
    config: &Config,
    seed: u64,
    ptxas: Option<&Path>,
    reduce_budget: usize,
) -> (Outcome, usize, Option<String>) {
    let program = generate(config, seed);
    let size = program.body_instructions();
    let outcome = run(&program, seed, ptxas);
    let reduced = match &outcome {
        Outcome::Disagree { .. } if reduce_budget > 0 => {
            let small = reduce::reduce(&program, &outcome, reduce_budget, &mut |p| {
                run(p, seed, ptxas)
            });
            let last = run(&small, seed, ptxas);
            Some(reduced_file(&small, seed, &last, size))
        }
        Outcome::Disagree { .. } => Some(reduced_file(&program, seed, &outcome, size)),
        _ => None,
    };
    (outcome, size, reduced)
}
