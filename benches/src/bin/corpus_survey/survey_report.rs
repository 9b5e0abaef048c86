//! `corpus_survey --markdown`: the survey's results as markdown tables (module/arch verdicts,
//! kernels at their own target, failures by message, nvcc failures of the generated sources).

use std::fmt::Write as _;
use std::path::Path;

/// One kernel at its module's own target.
pub struct KernelRow {
    pub module: String,
    pub kernel: String,
    pub error: Option<String>,
    /// How many kernels the row stands for: 1, or every entry of a module the front end rejected.
    pub count: usize,
    /// Whether the front end rejected the whole module (the row stands for all its kernels).
    pub front_end: bool,
}

/// Everything the markdown report shows.
#[derive(Default)]
pub struct Report {
    /// (module, target, verdict: `ok` or `FAIL <first error>`).
    pub pairs: Vec<(String, String, String)>,
    pub kernels: Vec<KernelRow>,
    /// Kernel failures by message (names and numbers taken out), commonest first.
    pub reasons: Vec<(String, usize)>,
    /// `X.sm_NN.nvcc-error` files `scripts/gen-ptx.sh` left: (name, nvcc's first error line).
    pub nvcc_failures: Vec<(String, String)>,
}

/// The `*.nvcc-error` files in `dir`, with nvcc's first `error` line.
pub fn nvcc_failures(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".nvcc-error")?.to_string();
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let first = text
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .to_string();
            Some((stem, first))
        })
        .collect();
    out.sort();
    out
}

impl Report {
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        self.summary(&mut md);
        self.modules(&mut md);
        self.reasons_table(&mut md);
        self.failed_kernels(&mut md);
        self.pairs_table(&mut md);
        md
    }

    fn summary(&self, md: &mut String) {
        let ok = self.pairs.iter().filter(|p| p.2 == "ok").count();
        let count = |front_end: bool, ok: bool| -> usize {
            self.kernels
                .iter()
                .filter(|k| k.error.is_none() == ok && k.front_end == front_end)
                .map(|k| k.count)
                .sum()
        };
        let modules: std::collections::BTreeSet<_> = self.pairs.iter().map(|p| &p.0).collect();
        let whole = self
            .pairs
            .iter()
            .filter(|p| p.2 == "ok" && own_target(&p.0) == Some(p.1.as_str()))
            .count();
        let _ = writeln!(md, "| measure | count |\n|---|---|");
        let _ = writeln!(md, "| modules | {} |", modules.len());
        let _ = writeln!(
            md,
            "| modules compiled whole at their own target | {whole} |"
        );
        let _ = writeln!(
            md,
            "| module/arch pairs compiled (own target and every later one) | {ok} of {} |",
            self.pairs.len()
        );
        let _ = writeln!(
            md,
            "| kernels at their own target: compiled | {} |",
            count(false, true)
        );
        let _ = writeln!(
            md,
            "| kernels at their own target: failed in the back end | {} |",
            count(false, false)
        );
        let _ = writeln!(
            md,
            "| kernels in modules the front end rejects (at their own target) | {} |",
            count(true, false)
        );
        let _ = writeln!(
            md,
            "| nvcc failures (sources nvcc rejected) | {} |\n",
            self.nvcc_failures.len()
        );
    }

    fn modules(&self, md: &mut String) {
        md.push_str("### Modules at their own target\n\n| module | kernels | compiled | failed | first error |\n|---|---|---|---|---|\n");
        let mut names: Vec<&String> = self.kernels.iter().map(|k| &k.module).collect();
        names.dedup();
        for m in names {
            let rows: Vec<_> = self.kernels.iter().filter(|k| &k.module == m).collect();
            let all: usize = rows.iter().map(|k| k.count).sum();
            let ok = rows.iter().filter(|k| k.error.is_none()).count();
            let first = self
                .pairs
                .iter()
                .find(|p| &p.0 == m)
                .map(|p| p.2.strip_prefix("FAIL ").unwrap_or("").to_string())
                .unwrap_or_default();
            let _ = writeln!(
                md,
                "| {m} | {all} | {ok} | {} | {} |",
                all - ok,
                cell(&first, 160)
            );
        }
        md.push('\n');
    }

    fn reasons_table(&self, md: &mut String) {
        md.push_str("### Kernel failures by message\n\n| kernels | first error |\n|---|---|\n");
        for (reason, n) in &self.reasons {
            let _ = writeln!(md, "| {n} | {} |", cell(reason, 200));
        }
        md.push('\n');
    }

    fn failed_kernels(&self, md: &mut String) {
        md.push_str("### Failed kernels\n\n| module | kernel | first error |\n|---|---|---|\n");
        for k in self.kernels.iter().filter(|k| k.error.is_some()) {
            let err = k.error.as_deref().unwrap_or("");
            let _ = writeln!(
                md,
                "| {} | `{}` | {} |",
                k.module,
                cell(&k.kernel, 90),
                cell(err, 160)
            );
        }
        if !self.nvcc_failures.is_empty() {
            md.push_str(
                "\n### Sources nvcc rejected\n\n| build | nvcc's first error |\n|---|---|\n",
            );
            for (name, err) in &self.nvcc_failures {
                let _ = writeln!(md, "| {name} | {} |", cell(err, 200));
            }
        }
        md.push('\n');
    }

    fn pairs_table(&self, md: &mut String) {
        md.push_str("### Module/arch pairs\n\n| module | target | verdict |\n|---|---|---|\n");
        for (m, t, v) in &self.pairs {
            let _ = writeln!(md, "| {m} | {t} | {} |", cell(v, 160));
        }
    }
}

/// The `sm_NN` a generated module was built for, from its name `X.sm_NN.ptx`.
fn own_target(module: &str) -> Option<&str> {
    module.strip_suffix(".ptx")?.rsplit('.').next()
}

/// Text fit for a table cell: no pipes or newlines, at most `max` characters.
fn cell(s: &str, max: usize) -> String {
    let s: String = s.chars().take(max).collect();
    s.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        module: &str,
        kernel: &str,
        error: Option<&str>,
        count: usize,
        front_end: bool,
    ) -> KernelRow {
        KernelRow {
            module: module.into(),
            kernel: kernel.into(),
            error: error.map(String::from),
            count,
            front_end,
        }
    }

    #[test]
    fn the_summary_counts_kernels_by_where_they_failed() {
        let report = Report {
            pairs: vec![
                ("a.sm_80.ptx".into(), "sm_80".into(), "ok".into()),
                ("a.sm_80.ptx".into(), "sm_90".into(), "FAIL x".into()),
                (
                    "b.sm_75.ptx".into(),
                    "sm_75".into(),
                    "FAIL ptxas b, line 3; error : y".into(),
                ),
                ("c.sm_90.ptx".into(), "sm_90".into(), "FAIL z | w".into()),
            ],
            kernels: vec![
                row("a.sm_80.ptx", "k1", None, 1, false),
                row("a.sm_80.ptx", "k2", None, 1, false),
                row(
                    "b.sm_75.ptx",
                    "k3",
                    Some("'bfe' is not supported yet"),
                    1,
                    false,
                ),
                row("c.sm_90.ptx", "(all 5)", Some("z | w"), 5, true),
            ],
            reasons: vec![("'bfe' is not supported yet".into(), 1)],
            nvcc_failures: vec![],
        };
        let md = report.markdown();
        assert!(md.contains("| modules | 3 |"), "{md}");
        assert!(
            md.contains("| modules compiled whole at their own target | 1 |"),
            "{md}"
        );
        assert!(md.contains("| 1 of 4 |"), "{md}");
        assert!(
            md.contains("| kernels at their own target: compiled | 2 |"),
            "{md}"
        );
        assert!(
            md.contains("| kernels at their own target: failed in the back end | 1 |"),
            "{md}"
        );
        assert!(
            md.contains("| kernels in modules the front end rejects (at their own target) | 5 |"),
            "{md}"
        );
        assert!(md.contains("| c.sm_90.ptx | 5 | 0 | 5 | z \\| w |"), "{md}");
    }

    #[test]
    fn generated_module_names_carry_their_target() {
        assert_eq!(own_target("cub_algorithms.sm_80.ptx"), Some("sm_80"));
        assert_eq!(own_target("cutlass/x__y.sm_90a.ptx"), Some("sm_90a"));
        assert_eq!(cell("a|b\nc", 4), "a\\|b ");
    }
}
