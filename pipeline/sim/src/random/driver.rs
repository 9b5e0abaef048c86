//! The driver: compiles one random kernel with ptxforge and with ptxas, runs the interpreter and
//! the emulator on both cubins, and sorts the result into agreement, a ptxforge compile error, a
//! ptxas rejection (a generator bug) or a disagreement naming which of the three differs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::program::{Program, ENTRY};
use crate::{check_each, compile_ours, compile_with_text, Fill, Runs, SimRequest, Verdict};

/// Which runner stands apart in a disagreement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Culprit {
    /// Our cubin differs from the interpreter (or fails in the emulator) where ptxas's agrees
    /// or could not run: a ptxforge bug.
    Ptxforge,
    /// ptxas's cubin differs where ours agrees: an emulator or interpreter bug.
    PtxasCubin,
    /// Both cubins differ from the interpreter: most likely the interpreter.
    Interpreter,
    /// Our cubin differs where the emulator could not run ptxas's (or there is no ptxas): a
    /// ptxforge bug or an emulator one.
    Unconfirmed,
    /// nvdisasm reads our machine code as something other than what our printer says we meant:
    /// an encoding bug, whatever the emulator (which shares our decoder's view) makes of it.
    Encoding,
}

impl std::fmt::Display for Culprit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Culprit::Ptxforge => "ptxforge cubin differs",
            Culprit::PtxasCubin => "ptxas cubin differs",
            Culprit::Interpreter => "interpreter differs from both cubins",
            Culprit::Unconfirmed => "ptxforge cubin differs; ptxas's cubin did not run",
            Culprit::Encoding => "nvdisasm reads our code differently from our printer",
        })
    }
}

/// What one random kernel came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every runner agrees (`two_way`: the emulator could not run ptxas's cubin, or there is no
    /// ptxas, so only the interpreter and our cubin were compared; `ptxas_stop` says why the
    /// emulator stopped on ptxas's cubin).
    Agree {
        two_way: bool,
        ptxas_stop: Option<String>,
    },
    Disagree {
        culprit: Culprit,
        detail: String,
    },
    PtxforgeError(String),
    PtxasReject(String),
    /// Nothing to compare: the interpreter stopped, or the emulator ran neither cubin.
    Skipped(String),
}

impl Outcome {
    /// Whether `other` is the same kind of result (the reducer keeps a change when it is); not
    /// symmetric: an unconfirmed disagreement of our cubin accepts a confirmed one.
    pub fn same_kind(&self, other: &Outcome) -> bool {
        match (self, other) {
            // A disagreement the emulator could not confirm on ptxas's cubin may become a
            // confirmed one as the kernel shrinks.
            (
                Outcome::Disagree {
                    culprit: Culprit::Unconfirmed,
                    ..
                },
                Outcome::Disagree {
                    culprit: Culprit::Ptxforge,
                    ..
                },
            ) => true,
            (Outcome::Disagree { culprit: a, .. }, Outcome::Disagree { culprit: b, .. }) => a == b,
            (Outcome::PtxforgeError(a), Outcome::PtxforgeError(b)) => {
                first_words(a) == first_words(b)
            }
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

fn first_words(msg: &str) -> String {
    // "... error   : 'sqrt.rn.f64' is not supported yet": the quoted instruction is the kind.
    msg.split('\'').nth(1).unwrap_or(msg).to_string()
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Agree { two_way: false, .. } => write!(f, "agree"),
            Outcome::Agree { two_way: true, .. } => {
                write!(f, "agree (interpreter and ptxforge only)")
            }
            Outcome::Disagree { culprit, detail } => write!(f, "disagree ({culprit}): {detail}"),
            Outcome::PtxforgeError(e) => write!(f, "ptxforge error: {e}"),
            Outcome::PtxasReject(e) => write!(f, "ptxas rejects: {e}"),
            Outcome::Skipped(e) => write!(f, "skipped: {e}"),
        }
    }
}

/// The request that runs `program` (buffers filled from `seed`).
pub fn request(program: &Program, seed: u64) -> SimRequest {
    SimRequest {
        ptx: program.render(),
        file_name: format!("random_sm{}_{seed}.ptx", program.sm),
        entry: ENTRY.into(),
        sm: program.sm,
        grid: [1, 1, 1],
        block: [program.threads, 1, 1],
        buffer_bytes: program.buffer_bytes(),
        fill: Fill::Random,
        seed,
        ..SimRequest::default()
    }
}

/// Compiles and runs `program` three ways (two without `ptxas`). With `ptxas` (the reference
/// tools are there), nvdisasm must also decode our code to exactly our printer's text.
pub fn run(program: &Program, seed: u64, ptxas: Option<&Path>) -> Outcome {
    let req = request(program, seed);
    let ours = match ptxas {
        Some(_) => compile_checked_by_nvdisasm(&req),
        None => compile_ours(&req).map_err(Outcome::PtxforgeError),
    };
    let ours = match ours {
        Ok(c) => c,
        Err(outcome) => return outcome,
    };
    let reference = match ptxas {
        Some(tool) => match ptxas_cubin(tool, &req.ptx, req.sm) {
            Ok(c) => Some(c),
            Err(e) => return Outcome::PtxasReject(e),
        },
        None => None,
    };
    let mut cubins: Vec<(&str, &[u8])> = Vec::new();
    if let Some(c) = &reference {
        cubins.push(("ptxas cubin", c));
    }
    cubins.push(("ptxforge cubin", &ours));
    let module = match ptxforge_ptx::parse_module(&req.ptx, &req.file_name) {
        Ok(m) => m,
        Err(d) => return Outcome::Skipped(format!("parse: {}", d[0])),
    };
    match check_each(&module, &req, &cubins) {
        Err(e) => Outcome::Skipped(format!("setup: {e}")),
        Ok(Runs::InterpreterStopped(v)) => Outcome::Skipped(v.to_string()),
        Ok(Runs::Compared(verdicts)) => classify(&verdicts),
    }
}

/// Compiles `req` keeping the printed SASS, and decodes the code with nvdisasm (when present):
/// a difference is an [`Culprit::Encoding`] disagreement.
fn compile_checked_by_nvdisasm(req: &SimRequest) -> Result<Vec<u8>, Outcome> {
    let out = compile_with_text(req);
    let Some(cubin) = out.cubin else {
        let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        return Err(Outcome::PtxforgeError(format!(
            "ptxforge could not compile {}: {}",
            req.file_name,
            msgs.join("; ")
        )));
    };
    let sm = ptxforge_sass::arch::Sm::new(req.sm);
    for k in &out.kernels {
        let (Some(image), Some(text)) = (&k.image, &k.sass_text) else {
            continue;
        };
        let printed: Vec<String> = text
            .lines()
            .filter_map(ptxforge_sass::oracle::normalise)
            .collect();
        let detail = match ptxforge_sass::oracle::nvdisasm_raw(sm, &image.code) {
            None => continue,
            Some(Err(e)) => format!("nvdisasm rejects our code: {}", e.trim()),
            Some(Ok(decoded)) => match first_text_difference(&printed, &decoded) {
                None => continue,
                Some(d) => d,
            },
        };
        return Err(Outcome::Disagree {
            culprit: Culprit::Encoding,
            detail,
        });
    }
    Ok(cubin)
}

/// Where nvdisasm's instruction texts first differ from ours.
fn first_text_difference(ours: &[String], decoded: &[String]) -> Option<String> {
    if let Some((i, (a, b))) = ours
        .iter()
        .zip(decoded)
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        return Some(format!(
            "instruction {i}: we print `{a}`, nvdisasm reads `{b}`"
        ));
    }
    (ours.len() != decoded.len()).then(|| {
        format!(
            "{} instructions printed, {} decoded",
            ours.len(),
            decoded.len()
        )
    })
}

/// Why a kernel whose ptxas cubin differs from the interpreter only in NaN payloads counts as a
/// two-way agreement.
pub const PTXAS_NAN_FOLD: &str =
    "ptxas's cubin differs in NaN payloads only (ptxas folds neg(neg x), max(x, x) into x)";

fn classify(verdicts: &[(String, Verdict)]) -> Outcome {
    let of = |name: &str| verdicts.iter().find(|(r, _)| r == name).map(|(_, v)| v);
    let ours = of("ptxforge cubin").expect("ours always runs");
    let theirs = of("ptxas cubin");
    let runs = |v: &Verdict| matches!(v, Verdict::Agree | Verdict::Differ { .. });
    if let Verdict::Unsupported { error, .. } = ours {
        return Outcome::Skipped(format!("the emulator cannot run our cubin: {error}"));
    }
    let ptxas_stop = theirs.filter(|v| !runs(v)).map(|v| v.to_string());
    let theirs = theirs.filter(|v| runs(v));
    let disagree = |culprit, v: &Verdict| Outcome::Disagree {
        culprit,
        detail: v.to_string(),
    };
    match (theirs, ours) {
        (None, Verdict::Agree) => Outcome::Agree {
            two_way: true,
            ptxas_stop,
        },
        (Some(Verdict::Agree), Verdict::Agree) => Outcome::Agree {
            two_way: false,
            ptxas_stop: None,
        },
        (None, v) => disagree(Culprit::Unconfirmed, v),
        (Some(Verdict::Agree), v) => disagree(Culprit::Ptxforge, v),
        // ptxas folds neg(neg x) and max(x, x) into x, keeping a NaN payload the instruction
        // would make canonical: not a bug of ours, of the emulator or of the interpreter.
        (Some(Verdict::Differ { mismatch, .. }), Verdict::Agree) if mismatch.nan_payloads_only => {
            Outcome::Agree {
                two_way: true,
                ptxas_stop: Some(PTXAS_NAN_FOLD.into()),
            }
        }
        (Some(t), Verdict::Agree) => disagree(Culprit::PtxasCubin, t),
        (Some(_), v @ Verdict::Differ { .. }) => disagree(Culprit::Interpreter, v),
        (Some(_), v) => disagree(Culprit::Ptxforge, v),
    }
}

/// Runs `ptxas -arch=sm_XX` on `ptx`; its stderr when it rejects it.
pub fn ptxas_cubin(tool: &Path, ptx: &str, sm: u32) -> Result<Vec<u8>, String> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let base = std::env::temp_dir().join(format!("ptxforge-random-{}-{n}", std::process::id()));
    let (input, output) = (base.with_extension("ptx"), base.with_extension("cubin"));
    std::fs::write(&input, ptx).map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let run = Command::new(tool)
        .arg(format!("-arch=sm_{sm}"))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output();
    let result = match run {
        Err(e) => Err(format!("ptxas did not run: {e}")),
        Ok(o) if !o.status.success() => Err(String::from_utf8_lossy(&o.stderr).trim().to_string()),
        Ok(_) => std::fs::read(&output).map_err(|e| format!("ptxas wrote no cubin: {e}")),
    };
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    result
}

/// ptxas as the tests find it: `$PTXFORGE_NV`, then the fetch script's cache.
pub fn default_ptxas() -> Option<PathBuf> {
    ptxforge_sass::nvtools::tool("ptxas")
}

#[cfg(test)]
mod tests {
    use super::first_text_difference;

    fn texts(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn text_difference_names_the_first_differing_instruction() {
        let ours = texts(&["MOV R1, c[0x0][0x28]", "FADD R2, R3, 2", "EXIT"]);
        let same = ours.clone();
        assert_eq!(first_text_difference(&ours, &same), None);
        let decoded = texts(&["MOV R1, c[0x0][0x28]", "FADD R2, R3, -2", "EXIT"]);
        let d = first_text_difference(&ours, &decoded).unwrap();
        assert!(d.starts_with("instruction 1:"), "{d}");
        let shorter = texts(&["MOV R1, c[0x0][0x28]"]);
        let d = first_text_difference(&ours, &shorter).unwrap();
        assert!(d.contains("3 instructions printed, 1 decoded"), "{d}");
    }
}
