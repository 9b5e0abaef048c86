//! The optimization passes by name, in the order they run, and which of them a compilation runs:
//! `-O0` runs none (as ptxas's `-O0`), other levels all but [`OFF_BY_DEFAULT`], plus those named
//! in `PTXFORGE_PASSES_ON`, less those named in `PTXFORGE_PASSES_OFF` (comma-separated names
//! from [`PASSES`]).

use ptxforge_sass::ir::Function;

/// Every pass of the optimize stage, in running order: its name and what it does.
pub const PASSES: &[(&str, &str)] = &[
    (
        "copy-prop",
        "reads of single-definition copies read the copied register",
    ),
    (
        "cbank-fold",
        "single-definition MOVs from the constant bank are read as c[b][o] operands",
    ),
    (
        "imm-fold",
        "single-definition MOVs of constants are read as immediates (zeros as RZ)",
    ),
    (
        "wide-add-fold",
        "a 64-bit add of an IMAD.WIDE product and a base becomes IMAD.WIDE with the base as C",
    ),
    (
        "lea-fold",
        "an add of a single-use constant left shift becomes LEA (LEA.HI.X for the high word)",
    ),
    (
        "local-cse",
        "repeated pure computations within a block are removed",
    ),
    (
        "addr-fold",
        "constant adds read only as load/store addresses fold into their [R+imm] offsets",
    ),
    (
        "add-fuse",
        "adds of a register and zeros are copies; two single-use adds become one three-operand IADD3",
    ),
    (
        "not-fold",
        "a single-use NOT read by an IADD3.X becomes its ~R operand",
    ),
    (
        "licm",
        "pure loop-invariant instructions move to the block before the loop",
    ),
    ("dce", "instructions whose results nobody reads are removed"),
    (
        "atomic-to-red",
        "atomics whose old value is unused become RED",
    ),
];

/// Passes that may raise register pressure (longer live ranges, new values): left out when
/// register allocation of their result fails.
pub const PRESSURE_PASSES: &[&str] = &["imm-fold", "wide-add-fold", "local-cse", "licm"];

/// Passes that run only when named in `PTXFORGE_PASSES_ON`: measured on the corpus, LICM fewer
/// executed instructions but more registers (thrust: 1.07x ptxas's registers with it, 1.05x
/// without), so it waits for a pressure-aware version.
pub const OFF_BY_DEFAULT: &[&str] = &["licm"];

/// The environment variable naming passes to run that are off by default.
pub const PASSES_ON_VAR: &str = "PTXFORGE_PASSES_ON";

/// The environment variable naming passes to leave out.
pub const PASSES_OFF_VAR: &str = "PTXFORGE_PASSES_OFF";

/// Which passes run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassConfig {
    enabled: Vec<bool>,
}

impl Default for PassConfig {
    /// Every pass.
    fn default() -> PassConfig {
        PassConfig {
            enabled: vec![true; PASSES.len()],
        }
    }
}

impl PassConfig {
    /// The passes of `-O<level>`, less those in the comma-separated `off` list. Unknown names are
    /// returned as the error (so that a typo does not silently run everything).
    pub fn new(level: u32, off: &str) -> Result<PassConfig, String> {
        PassConfig::with(level, "", off)
    }

    /// As [`PassConfig::new`], also running the [`OFF_BY_DEFAULT`] passes named in `on`
    /// (at levels above 0).
    pub fn with(level: u32, on: &str, off: &str) -> Result<PassConfig, String> {
        let names = |l: &str| -> Vec<String> {
            l.split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(String::from)
                .collect()
        };
        let on = names(on);
        let mut c = PassConfig {
            enabled: PASSES
                .iter()
                .map(|(n, _)| {
                    level > 0 && (!OFF_BY_DEFAULT.contains(n) || on.iter().any(|o| o == n))
                })
                .collect(),
        };
        if let Some(bad) = on.iter().find(|o| !PASSES.iter().any(|(n, _)| n == o)) {
            return Err(bad.clone());
        }
        for name in names(off).iter().map(String::as_str) {
            match PASSES.iter().position(|(n, _)| *n == name) {
                Some(k) => c.enabled[k] = false,
                None => return Err(name.to_string()),
            }
        }
        Ok(c)
    }

    /// The passes of `-O<level>` less those named in `PTXFORGE_PASSES_OFF`.
    pub fn from_env(level: u32) -> Result<PassConfig, String> {
        let var = |v| std::env::var(v).unwrap_or_default();
        PassConfig::with(level, &var(PASSES_ON_VAR), &var(PASSES_OFF_VAR))
    }

    /// The passes to run instead when register allocation fails after these: these less the
    /// ones that lengthen live ranges or add values ([`PRESSURE_PASSES`]); None when none of
    /// those runs.
    pub fn fallback(&self) -> Option<PassConfig> {
        let mut c = self.clone();
        let mut any = false;
        for name in PRESSURE_PASSES {
            if let Some(k) = PASSES.iter().position(|(n, _)| n == name) {
                any |= c.enabled[k];
                c.enabled[k] = false;
            }
        }
        any.then_some(c)
    }

    pub fn runs(&self, name: &str) -> bool {
        PASSES
            .iter()
            .position(|(n, _)| *n == name)
            .is_some_and(|k| self.enabled[k])
    }
}

/// Runs the enabled passes in [`PASSES`] order.
pub fn optimize_with(f: &mut Function, config: &PassConfig) {
    for (name, _) in PASSES {
        if !config.runs(name) {
            continue;
        }
        match *name {
            "copy-prop" => crate::opt::propagate_copies(f),
            "cbank-fold" => crate::fold::fold_constant_bank(f),
            "imm-fold" => crate::imm_fold::fold_immediates(f),
            "wide-add-fold" => crate::wide_add_fold::fuse_wide_adds(f),
            "lea-fold" => crate::lea_fold::fuse_shift_adds(f),
            "local-cse" => crate::local_cse::eliminate_local_redundancy(f),
            "addr-fold" => crate::addr_fold::fold_address_offsets(f),
            "add-fuse" => crate::add_fuse::fuse_adds(f),
            "not-fold" => crate::not_fold::fold_nots(f),
            "licm" => crate::licm::hoist_loop_invariants(f),
            "dce" => crate::opt::eliminate_dead_code(f),
            "atomic-to-red" => crate::atomic::demote_unused_atomics(f),
            _ => unreachable!("pass {name} listed without a function"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_zero_runs_nothing_and_names_switch_passes_off() {
        let o0 = PassConfig::new(0, "").unwrap();
        assert!(PASSES.iter().all(|(n, _)| !o0.runs(n)));
        assert!(!PassConfig::new(3, "").unwrap().runs("licm"));
        assert!(PassConfig::with(3, "licm", "").unwrap().runs("licm"));
        let o3 = PassConfig::with(3, "licm", "imm-fold, local-cse").unwrap();
        assert!(!o3.runs("imm-fold") && !o3.runs("local-cse"));
        assert!(o3.runs("copy-prop") && o3.runs("dce"));
        assert_eq!(PassConfig::new(3, "imm-fold,cse"), Err("cse".to_string()));
        let fallback = o3.fallback().unwrap();
        assert!(!fallback.runs("licm") && !fallback.runs("wide-add-fold"));
        assert!(o3.runs("licm"));
        assert!(fallback.runs("copy-prop") && fallback.runs("cbank-fold"));
        assert_eq!(
            PassConfig::new(3, "imm-fold,wide-add-fold,local-cse,licm")
                .unwrap()
                .fallback(),
            None
        );
        assert_eq!(o0.fallback(), None);
    }
}
