//! Conformance suite: small PTX inputs under `tests/conformance/`, each opening with its expected
//! outcome, checked against our validator; and an oracle test that runs ptxas on every case and
//! checks that it accepts or rejects the case alike and names the same line for the first error,
//! and that it gives the same out-of-bound infos (line and text) in the same order.
//!
//! Header format (first line of each case):
//!   `// expect: ok`
//!   `// expect: error <line>: <text>` — the first diagnostic is on <line> and contains <text>.
//!   `// expect: warning <line>: <text>` — accepted; the first warning is on <line> (0: ptxas
//!   names no place) and contains <text>.
//!   `// expect: info <line>: <text>` — accepted without warnings; the first info is on <line>
//!   and contains <text>.

use std::path::{Path, PathBuf};
use std::process::Command;

use ptxforge_ptx::parse_module;

/// What a case expects, or what a tool did with it: accepted, accepted with warnings (the first
/// one's line and message), accepted with infos only (the first one's), or rejected with the first
/// error's line and message.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    Ok,
    Warning { line: u32, message: String },
    Info { line: u32, message: String },
    Error { line: u32, message: String },
}

struct Case {
    name: String,
    path: PathBuf,
    text: String,
    expected: Outcome,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let header = text.lines().next().unwrap_or("");
            let expected = parse_expectation(header)
                .unwrap_or_else(|| panic!("{name}: bad header {header:?}"));
            Case {
                name,
                path,
                text,
                expected,
            }
        })
        .collect()
}

fn parse_expectation(header: &str) -> Option<Outcome> {
    let rest = header.strip_prefix("// expect: ")?;
    if rest == "ok" {
        return Some(Outcome::Ok);
    }
    if let Some(warning) = rest.strip_prefix("warning ") {
        let (line, message) = warning.split_once(": ")?;
        return Some(Outcome::Warning {
            line: line.parse().ok()?,
            message: message.to_string(),
        });
    }
    if let Some(info) = rest.strip_prefix("info ") {
        let (line, message) = info.split_once(": ")?;
        return Some(Outcome::Info {
            line: line.parse().ok()?,
            message: message.to_string(),
        });
    }
    let (line, message) = rest.strip_prefix("error ")?.split_once(": ")?;
    Some(Outcome::Error {
        line: line.parse().ok()?,
        message: message.to_string(),
    })
}

/// Our validator's verdict on a case.
fn our_outcome(case: &Case) -> Outcome {
    match parse_module(&case.text, &format!("{}.ptx", case.name)) {
        Ok(m) => {
            let is_info =
                |d: &&ptxforge_ptx::Diagnostic| d.severity == ptxforge_ptx::Severity::Info;
            let warning = m.warnings.iter().find(|d| !is_info(d));
            match (warning, m.warnings.iter().find(is_info)) {
                (Some(w), _) => Outcome::Warning {
                    line: w.line,
                    message: w.message.clone(),
                },
                (None, Some(i)) => Outcome::Info {
                    line: i.line,
                    message: i.message.clone(),
                },
                (None, None) => Outcome::Ok,
            }
        }
        Err(diags) => {
            // The first error (warnings and infos may come before it, as in ptxas's output).
            let first = diags.iter().find(|d| d.is_error()).unwrap_or(&diags[0]);
            Outcome::Error {
                line: first.line,
                message: first.message.clone(),
            }
        }
    }
}

fn matches(expected: &Outcome, got: &Outcome) -> bool {
    match (expected, got) {
        (Outcome::Ok, Outcome::Ok) => true,
        (
            Outcome::Error {
                line: el,
                message: em,
            },
            Outcome::Error {
                line: gl,
                message: gm,
            },
        ) => el == gl && gm.contains(em.as_str()),
        (
            Outcome::Warning {
                line: el,
                message: em,
            },
            Outcome::Warning {
                line: gl,
                message: gm,
            },
        ) => el == gl && gm.contains(em.as_str()),
        (
            Outcome::Info {
                line: el,
                message: em,
            },
            Outcome::Info {
                line: gl,
                message: gm,
            },
        ) => el == gl && gm.contains(em.as_str()),
        _ => false,
    }
}

#[test]
fn suite_is_large_and_mixed() {
    let all = cases();
    let valid = all.iter().filter(|c| c.expected == Outcome::Ok).count();
    assert!(all.len() >= 200, "only {} cases", all.len());
    assert!(
        valid >= 50 && all.len() - valid >= 100,
        "{valid} valid of {}",
        all.len()
    );
}

#[test]
fn validator_matches_expectations() {
    let mut failures = Vec::new();
    let all = cases();
    for case in &all {
        let got = our_outcome(case);
        if !matches(&case.expected, &got) {
            failures.push(format!(
                "{}: expected {:?}, got {:?}",
                case.name, case.expected, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn every_case_reports_errors_in_order_and_never_panics() {
    for case in cases() {
        if let Err(diags) = parse_module(&case.text, "c.ptx") {
            assert!(diags.len() <= 100, "{}", case.name);
            let fatal = diags
                .iter()
                .position(|d| d.severity == ptxforge_ptx::Severity::Fatal);
            assert!(
                fatal.is_none_or(|f| f == diags.len() - 1),
                "{}: diagnostics after a fatal one",
                case.name
            );
        }
    }
}

// ---- oracle: ptxas ---------------------------------------------------------------------------

fn ptxas() -> Option<PathBuf> {
    let from_env = std::env::var_os("PTXFORGE_NV").map(PathBuf::from);
    let cache = std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".cache/ptxforge/nvidia-13.5.37/nvidia/cu13"));
    [from_env, cache]
        .into_iter()
        .flatten()
        .map(|d| d.join("bin/ptxas"))
        .find(|p| p.is_file())
}

/// The `-arch` for a case: its `.target` when ptxas can compile for it, else sm_80.
fn arch_of(text: &str) -> String {
    /// Every real architecture ptxas 13.5 compiles for (`ptxas --help`, `--gpu-name`): a case
    /// whose `.target` is one of them is compiled for exactly that one.
    const REAL: &[&str] = &[
        "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100",
        "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f", "sm_107", "sm_107a", "sm_107f",
        "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a",
        "sm_121f",
    ];
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(".target"))
        .filter_map(|t| t.split([',', ' ', '\t', '/']).find(|w| !w.is_empty()))
        .find(|t| REAL.contains(t))
        .unwrap_or("sm_80")
        .to_string()
}

/// ptxas's verdict: accepted (with its first warning, if any), or the first diagnostic that names
/// a line.
fn ptxas_outcome(success: bool, stderr: &str) -> Outcome {
    if success {
        let warning = stderr.lines().find_map(ptxas_warning);
        return warning
            .or_else(|| stderr.lines().find_map(ptxas_info))
            .unwrap_or(Outcome::Ok);
    }
    let first = stderr.lines().find_map(|l| {
        let (_, rest) = l.split_once(", line ")?;
        let (line, rest) = rest.split_once("; ")?;
        if rest.starts_with("info ") {
            return None;
        }
        let message = rest.split_once(": ")?.1;
        Some(Outcome::Error {
            line: line.parse().ok()?,
            message: message.to_string(),
        })
    });
    first.unwrap_or(Outcome::Error {
        line: 0,
        message: stderr.lines().next().unwrap_or("").to_string(),
    })
}

/// Warnings from ptxas's code generation, not its front end (which this suite checks).
const CODE_GENERATION_WARNINGS: &[&str] = &[
    "Stack size for entry function",
    "Registers are spilled",
    "Local memory used",
];

/// `ptxas <file>, line <N>; warning : <text>` or `ptxas warning : <text>` (line 0).
fn ptxas_warning(l: &str) -> Option<Outcome> {
    if let Some(message) = l.strip_prefix("ptxas warning : ") {
        if CODE_GENERATION_WARNINGS
            .iter()
            .any(|w| message.starts_with(w))
        {
            return None;
        }
        return Some(Outcome::Warning {
            line: 0,
            message: message.to_string(),
        });
    }
    let (_, rest) = l.split_once(", line ")?;
    let (line, message) = rest.split_once("; warning : ")?;
    Some(Outcome::Warning {
        line: line.parse().ok()?,
        message: message.to_string(),
    })
}

/// The infos of ptxas's front end that this suite checks.
const FRONT_END_INFOS: &[&str] = &[
    "Potential out of bound access",
    "Advisory: Modifier '.sp::ordered_metadata' should be used",
];

/// `ptxas <file>, line <N>; info    : <text>`, for one of [`FRONT_END_INFOS`].
fn ptxas_info(l: &str) -> Option<Outcome> {
    let (_, rest) = l.split_once(", line ")?;
    let (line, message) = rest.split_once("; info    : ")?;
    if !FRONT_END_INFOS.iter().any(|i| message.starts_with(i)) {
        return None;
    }
    Some(Outcome::Info {
        line: line.parse().ok()?,
        message: message.to_string(),
    })
}

/// Whether ptxas accepted the case, and what it wrote on stderr.
fn run_ptxas(ptxas: &Path, case: &Case, out_dir: &Path) -> (bool, String) {
    let out = out_dir.join(format!("{}.cubin", case.name));
    let r = Command::new(ptxas)
        .arg(format!("-arch={}", arch_of(&case.text)))
        .arg(&case.path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    (
        r.status.success(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
    )
}

/// Every info of ptxas's that this suite checks, in its order, whether it accepted the case or not.
fn ptxas_infos(stderr: &str) -> Vec<Outcome> {
    stderr.lines().filter_map(ptxas_info).collect()
}

/// Our infos on a case, in order, whether we accept it or not.
fn our_infos(case: &Case) -> Vec<Outcome> {
    let diags = match parse_module(&case.text, &format!("{}.ptx", case.name)) {
        Ok(m) => m.warnings,
        Err(diags) => diags,
    };
    diags
        .into_iter()
        .filter(|d| d.severity == ptxforge_ptx::Severity::Info)
        .map(|d| Outcome::Info {
            line: d.line,
            message: d.message,
        })
        .collect()
}

#[test]
fn ptxas_agrees_on_every_case() {
    let Some(ptxas) = ptxas() else {
        println!("skipped: ptxas not found (set PTXFORGE_NV)");
        return;
    };
    let all = cases();
    let out_dir = std::env::temp_dir().join(format!("ptxforge-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .clamp(4, 16);
    let disagreements = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = all.get(k) else { break };
                let (success, stderr) = run_ptxas(&ptxas, case, &out_dir);
                let theirs = ptxas_outcome(success, &stderr);
                let ours = our_outcome(case);
                let (their_infos, our_infos) = (ptxas_infos(&stderr), our_infos(case));
                let same = match (&theirs, &ours) {
                    (Outcome::Ok, Outcome::Ok) => true,
                    (Outcome::Error { line: a, .. }, Outcome::Error { line: b, .. }) => a == b,
                    (
                        Outcome::Warning {
                            line: a,
                            message: m,
                        },
                        Outcome::Warning {
                            line: b,
                            message: n,
                        },
                    ) => a == b && m == n,
                    (
                        Outcome::Info {
                            line: a,
                            message: m,
                        },
                        Outcome::Info {
                            line: b,
                            message: n,
                        },
                    ) => a == b && m == n,
                    _ => false,
                };
                if !same {
                    disagreements
                        .lock()
                        .unwrap()
                        .push(format!("{}: ptxas {theirs:?}, ours {ours:?}", case.name));
                } else if their_infos != our_infos {
                    disagreements.lock().unwrap().push(format!(
                        "{}: ptxas's infos {their_infos:?}, ours {our_infos:?}",
                        case.name
                    ));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut d = disagreements.into_inner().unwrap();
    d.sort();
    println!(
        "ptxas agrees on {} of {} cases",
        all.len() - d.len(),
        all.len()
    );
    assert!(d.is_empty(), "{} disagreements:\n{}", d.len(), d.join("\n"));
}
