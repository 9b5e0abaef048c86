//! A planted miscompilation, for testing that the random-program checker (`ptxforge sim
//! --random`) finds and reduces real bugs: with `PTXFORGE_PLANT_BUG=sub-swap` in the environment,
//! 32-bit integer `sub` computes b - a instead of a - b. Read once per process; never set it
//! outside that test.

use std::sync::OnceLock;

/// Whether the 32-bit `sub` lowering swaps its operands.
pub(crate) fn sub_operands_swapped() -> bool {
    static SWAPPED: OnceLock<bool> = OnceLock::new();
    *SWAPPED.get_or_init(|| std::env::var("PTXFORGE_PLANT_BUG").is_ok_and(|v| v == "sub-swap"))
}
