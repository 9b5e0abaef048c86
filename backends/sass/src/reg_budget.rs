//! The register budget of a kernel: `--maxrregcount`, `.maxnreg`, and what `.maxntid`/`.reqntid`
//! with `.minnctapersm` imply, by ptxas 13.5's rules (learned from its `-v` "Used N registers").
//!
//! An SM has 65536 registers in four sub-partitions of 16384; a CTA's warps are spread over the
//! four, so `C` CTAs of `W` warps need `ceil(C * W / 4)` warps' registers in one sub-partition,
//! and registers are given to threads in steps of 8. The budget for `C` CTAs of `T` threads is
//! `floor(16384 / (32 * ceil(C * ceil(T / 32) / 4)) / 8) * 8`, at most 255: ptxas gives
//! `.maxntid 128 .minnctapersm 3` 168 registers, `.maxntid 96 .minnctapersm 5` 128,
//! `.maxntid 64 .minnctapersm 20` 48. A `.minnctapersm` above the architecture's CTAs per SM, or
//! whose CTAs would hold more threads than an SM, is ignored (ptxas warns). Without
//! `.minnctapersm` one CTA must fit. The kernel's own directives win over `--maxrregcount`; no
//! budget is below 24.

use crate::arch::Sm;

/// The most registers a thread may use (as `-v` counts them).
pub const MAX_REGS: u32 = 255;
/// The least budget ptxas allocates with (`.maxnreg 16` is raised to 24, with a warning).
pub const MIN_REGS: u32 = 24;
/// Registers in one of an SM's four sub-partitions.
const SUBPARTITION_REGS: u32 = 16384;
/// Per-thread registers are allocated in steps of this many.
const REG_STEP: u32 = 8;

/// Resident CTAs and threads per SM (ptxas ignores a `.minnctapersm` beyond either).
fn sm_capacity(sm: Sm) -> (u32, u32) {
    match sm.num {
        75 => (16, 1024),
        86 => (16, 1536),
        89 => (24, 1536),
        _ => (32, 2048),
    }
}

/// The kernel's performance directives that bound its registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Directives {
    /// `.maxnreg N`.
    pub maxnreg: Option<u32>,
    /// Threads per CTA from `.maxntid` or `.reqntid` (the product of its dimensions).
    pub threads: Option<u32>,
    /// `.minnctapersm N`.
    pub min_ctas: Option<u32>,
}

impl Directives {
    /// Reads the directives of a PTX function (`(name, values)` as the parser keeps them).
    pub fn from_list(list: &[(String, Vec<u64>)]) -> Directives {
        let mut d = Directives::default();
        for (name, vals) in list {
            let product = || vals.iter().product::<u64>().min(u32::MAX as u64) as u32;
            match name.as_str() {
                "maxnreg" => d.maxnreg = vals.first().map(|&v| v.min(u32::MAX as u64) as u32),
                "maxntid" | "reqntid" => d.threads = Some(product()),
                "minnctapersm" => d.min_ctas = vals.first().map(|&v| v.min(u32::MAX as u64) as u32),
                _ => {}
            }
        }
        d
    }
}

/// Registers per thread such that `ctas` CTAs of `threads` threads fit on one SM.
pub fn occupancy_budget(threads: u32, ctas: u32) -> u32 {
    let warps = threads.div_ceil(32) as u64 * ctas.max(1) as u64;
    let per_subpartition = warps.div_ceil(4).max(1);
    let regs = SUBPARTITION_REGS as u64 / (32 * per_subpartition);
    ((regs / REG_STEP as u64) * REG_STEP as u64).min(MAX_REGS as u64) as u32
}

/// The budget of a kernel with directives `d` compiled with `--maxrregcount` `cli` (None: not
/// given).
pub fn register_budget(sm: Sm, d: Directives, cli: Option<u32>) -> u32 {
    let maxnreg = d.maxnreg.filter(|&n| n <= MAX_REGS);
    let occupancy = d.threads.map(|t| {
        let (ctas, threads_per_sm) = sm_capacity(sm);
        let c = d
            .min_ctas
            .filter(|&c| c <= ctas && c as u64 * t as u64 <= threads_per_sm as u64)
            .unwrap_or(1);
        occupancy_budget(t, c)
    });
    let budget = match (maxnreg, occupancy) {
        (None, None) => cli.unwrap_or(MAX_REGS),
        (a, b) => a.unwrap_or(MAX_REGS).min(b.unwrap_or(MAX_REGS)),
    };
    budget.clamp(MIN_REGS, MAX_REGS)
}

/// ptxas's `-v` note when `--maxrregcount` `cli` was given: which limit the kernel compiles under
/// (None where ptxas prints none: the directives give the same budget, or only `.maxntid` /
/// `.reqntid` without `.minnctapersm`, which override the option silently).
pub fn budget_note(sm: Sm, d: Directives, cli: Option<u32>, kernel: &str) -> Option<String> {
    let n = cli?;
    let budget = register_budget(sm, d, cli);
    let maxnreg = d.maxnreg.filter(|&m| m <= MAX_REGS);
    if maxnreg.is_none() && d.threads.is_none() {
        return Some(format!(
            "Overriding maximum register limit 256 for '{kernel}' with  {n} of maxrregcount option"
        ));
    }
    if budget == n {
        return None;
    }
    let source = match maxnreg {
        Some(m) if m.max(MIN_REGS) == budget => "of .maxnreg",
        _ if d.min_ctas.is_some() => "computed using thread count",
        _ => return None,
    };
    Some(format!(
        "Overriding global maxrregcount {n} with entry-specific value {budget} {source}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(maxnreg: Option<u32>, threads: Option<u32>, min_ctas: Option<u32>) -> Directives {
        Directives {
            maxnreg,
            threads,
            min_ctas,
        }
    }

    /// "Used N registers" of ptxas 13.5 on a kernel that wants 206, under these directives.
    #[test]
    fn budgets_follow_ptxas() {
        let sm80 = Sm::new(80);
        let cases = [
            ((128, 1), 255),
            ((128, 2), 255),
            ((128, 3), 168),
            ((128, 4), 128),
            ((256, 3), 80),
            ((96, 5), 128),
            ((100, 5), 96),
            ((1024, 1), 64),
            ((160, 3), 128),
            ((32, 32), 64),
            ((64, 20), 48),
            ((640, 3), 32),
        ];
        for ((t, c), want) in cases {
            let got = register_budget(sm80, dirs(None, Some(t), Some(c)), None);
            assert_eq!(got, want, ".maxntid {t} .minnctapersm {c}");
        }
        // Out of range: 33 CTAs on sm_80, 17 on sm_86, 3 x 640 threads on sm_86.
        assert_eq!(
            register_budget(sm80, dirs(None, Some(32), Some(33)), None),
            255
        );
        let sm86 = Sm::new(86);
        assert_eq!(
            register_budget(sm86, dirs(None, Some(32), Some(17)), None),
            255
        );
        let sm89 = Sm::new(89);
        assert_eq!(
            register_budget(sm89, dirs(None, Some(32), Some(24)), None),
            80
        );
        // Directives win over --maxrregcount; .maxnreg and occupancy take the lower.
        assert_eq!(
            register_budget(sm80, dirs(Some(40), None, None), Some(64)),
            40
        );
        assert_eq!(
            register_budget(sm80, dirs(Some(64), None, None), Some(40)),
            64
        );
        assert_eq!(
            register_budget(sm80, dirs(None, Some(64), Some(20)), Some(32)),
            48
        );
        assert_eq!(
            register_budget(sm80, dirs(Some(64), Some(64), Some(20)), None),
            48
        );
        assert_eq!(register_budget(sm80, dirs(Some(16), None, None), None), 24);
        assert_eq!(register_budget(sm80, dirs(Some(33), None, None), None), 33);
        assert_eq!(
            register_budget(sm80, dirs(Some(300), None, None), None),
            255
        );
        assert_eq!(register_budget(sm80, Directives::default(), Some(32)), 32);
    }

    /// ptxas 13.5's `-v` notes under `--maxrregcount 32` (and 64, 255).
    #[test]
    fn notes_follow_ptxas() {
        let sm = Sm::new(80);
        let note = |d, n| budget_note(sm, d, Some(n), "k");
        assert_eq!(budget_note(sm, Directives::default(), None, "k"), None);
        assert_eq!(
            note(Directives::default(), 32).as_deref(),
            Some("Overriding maximum register limit 256 for 'k' with  32 of maxrregcount option")
        );
        assert_eq!(note(dirs(None, Some(128), None), 32), None);
        assert_eq!(note(dirs(Some(32), None, None), 32), None);
        assert_eq!(
            note(dirs(Some(32), None, None), 64).as_deref(),
            Some("Overriding global maxrregcount 64 with entry-specific value 32 of .maxnreg")
        );
        assert_eq!(
            note(dirs(None, Some(128), Some(2)), 32).as_deref(),
            Some("Overriding global maxrregcount 32 with entry-specific value 255 computed using thread count")
        );
        assert_eq!(
            note(dirs(Some(40), Some(128), Some(4)), 32).as_deref(),
            Some("Overriding global maxrregcount 32 with entry-specific value 40 of .maxnreg")
        );
        assert_eq!(note(dirs(None, Some(128), Some(8)), 64), None);
    }
}
