//! The random-program checker finds a planted miscompilation: with `PTXFORGE_PLANT_BUG=sub-swap`
//! ptxforge lowers 32-bit `sub` with its operands swapped; within a bounded number of seeds the
//! driver must report our cubin disagreeing, and the reducer must shrink the kernel to under 20
//! instructions that still disagree and still hold a 32-bit `sub`. (Its own test binary: the
//! switch is read once per process.) Runs three ways with ptxas, two ways without.

use ptxforge_sim::random::{
    default_ptxas, generate, reduce::reduce, run, Config, Culprit, Outcome,
};

#[test]
fn the_planted_sub_swap_is_found_and_reduced_below_20_instructions() {
    std::env::set_var("PTXFORGE_PLANT_BUG", "sub-swap");
    let ptxas = default_ptxas();
    if ptxas.is_none() {
        println!("note: ptxas not found: the interpreter and ptxforge's cubin only");
    }
    let config = Config::for_arch(80);
    for seed in 1..=20u64 {
        let program = generate(&config, seed);
        let outcome = run(&program, seed, ptxas.as_deref());
        let Outcome::Disagree { culprit, .. } = &outcome else {
            continue;
        };
        assert!(
            matches!(culprit, Culprit::Ptxforge | Culprit::Unconfirmed),
            "seed {seed}: {outcome}"
        );
        let small = reduce(&program, &outcome, 600, &mut |p| {
            run(p, seed, ptxas.as_deref())
        });
        let again = run(&small, seed, ptxas.as_deref());
        let ptx = small.render();
        println!(
            "seed {seed}: {outcome}\nreduced ({} instructions): {again}\n{ptx}",
            small.instructions()
        );
        assert!(
            outcome.same_kind(&again),
            "the reduced kernel lost the disagreement: {again}"
        );
        assert!(
            small.instructions() < 20,
            "{} instructions:\n{ptx}",
            small.instructions()
        );
        assert!(
            ptx.contains("sub.u32") || ptx.contains("sub.s32"),
            "the reduced kernel has no 32-bit sub:\n{ptx}"
        );
        return;
    }
    panic!("20 seeds did not find the planted sub-swap");
}
