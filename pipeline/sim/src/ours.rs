//! Compiles a module's entries with ptxforge so that one kernel ptxforge cannot compile does not
//! keep the others out of the differential check: one compile of every entry finds the ones that
//! fail, a second builds one cubin of the rest, and only if that fails is each entry compiled alone.

use ptxforge_pipeline::{compile_module, CompileOptions, CompileOutput};
use ptxforge_sass::arch::Sm;

/// What ptxforge made of a module's entries.
#[derive(Debug, Default)]
pub struct OurCubins {
    /// Each cubin with the entries it holds (one cubin for the whole module, or one per entry
    /// after the fallback).
    pub cubins: Vec<(Vec<String>, Vec<u8>)>,
    /// Entries that did not compile, with the first error ptxforge gave for each.
    pub failed: Vec<(String, String)>,
}

impl OurCubins {
    /// The cubin that holds `entry`, when ptxforge compiled it.
    pub fn cubin_for(&self, entry: &str) -> Option<&[u8]> {
        self.cubins
            .iter()
            .find(|(names, _)| names.iter().any(|n| n == entry))
            .map(|(_, c)| c.as_slice())
    }

    /// The first error for `entry`, when ptxforge did not compile it.
    pub fn error_for(&self, entry: &str) -> Option<&str> {
        self.failed
            .iter()
            .find(|(n, _)| n == entry)
            .map(|(_, e)| e.as_str())
    }
}

/// Compiles `entries` of the PTX module `ptx` for `sm`.
pub fn compile_entries(ptx: &str, file_name: &str, sm: u32, entries: &[String]) -> OurCubins {
    let mut ours = OurCubins::default();
    let first = compile(ptx, file_name, sm, entries);
    let mut compiled = Vec::new();
    for entry in entries {
        match kernel_error(&first, entry) {
            Some(error) => ours.failed.push((entry.clone(), error)),
            None => compiled.push(entry.clone()),
        }
    }
    if compiled.is_empty() {
        return ours;
    }
    let together = match compiled.len() == entries.len() {
        true => first,
        false => compile(ptx, file_name, sm, &compiled),
    };
    if let Some(cubin) = together.cubin {
        ours.cubins.push((compiled, cubin));
        return ours;
    }
    for entry in compiled {
        let alone = compile(ptx, file_name, sm, std::slice::from_ref(&entry));
        match alone.cubin {
            Some(cubin) => ours.cubins.push((vec![entry], cubin)),
            None => {
                let error = first_error(&alone).unwrap_or_else(|| "no cubin and no error".into());
                ours.failed.push((entry, error));
            }
        }
    }
    ours
}

fn compile(ptx: &str, file_name: &str, sm: u32, entries: &[String]) -> CompileOutput {
    let opts = CompileOptions {
        sm: Sm::new(sm),
        entries: entries.to_vec(),
        ..CompileOptions::default()
    };
    compile_module(ptx, file_name, &opts)
}

/// Why `entry` failed in a compile of several entries: its own kernel error, or the module's
/// first error when the compile stopped before kernels ran (a parse error).
fn kernel_error(out: &CompileOutput, entry: &str) -> Option<String> {
    match out.kernels.iter().find(|k| k.name == entry) {
        Some(k) => match (&k.error, &k.image) {
            (Some(e), _) => Some(
                e.messages
                    .first()
                    .map(|(_, m)| m.clone())
                    .unwrap_or_else(|| format!("failed in {}", e.stage)),
            ),
            (None, None) => Some("no code and no error".into()),
            (None, Some(_)) => None,
        },
        None => Some(first_error(out).unwrap_or_else(|| "not compiled".into())),
    }
}

fn first_error(out: &CompileOutput) -> Option<String> {
    out.diagnostics
        .iter()
        .find(|d| d.is_error())
        .map(|d| d.message.clone())
}
