//! `ptxforge sim`: compile a PTX file and run one kernel on the PTX interpreter and the SASS emulator.
//!
//! ```text
//! ptxforge sim FILE.ptx [-arch sm_XX] --entry NAME --grid X[,Y,Z] --block X[,Y,Z] [--args a,b,...]
//!              [--buffer-bytes N] [--fill random|small] [--seed S] [--reference-cubin F] [--ulps N] [--dynamic-shared N]
//! ```
//! Prints `agree` and exits 0, or the first difference (buffer, offset, the thread that wrote the
//! word in the interpreter, values) or the error that stopped a runner (hazard, out-of-bounds
//! access) and exits 1; a usage problem exits 255. With `--random COUNT` it runs random kernels
//! instead (`sim_random.rs`).

use std::process::ExitCode;

use ptxforge_sim::{differential_check, SimRequest, Verdict};

const USAGE: &str = "usage: ptxforge sim FILE.ptx [-arch sm_XX] --entry NAME --grid X[,Y,Z] --block X[,Y,Z] \
[--args a,b,...] [--buffer-bytes N] [--fill random|small] [--seed S] [--reference-cubin F] [--ulps N] [--dynamic-shared N]";

/// Runs the subcommand on the words after `sim`.
pub fn main(argv: &[String]) -> ExitCode {
    if argv
        .iter()
        .any(|w| w == "--random" || w.starts_with("--random="))
    {
        return crate::sim_random::main(argv);
    }
    let req = match parse(argv) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("ptxforge sim: {msg}\n{USAGE}");
            return ExitCode::from(255);
        }
    };
    match differential_check(&req) {
        Ok(Verdict::Agree) => {
            println!("agree");
            ExitCode::SUCCESS
        }
        Ok(verdict) => {
            println!("{verdict}");
            ExitCode::from(1)
        }
        Err(msg) => {
            eprintln!("ptxforge sim: {msg}");
            ExitCode::from(255)
        }
    }
}

/// Reads the subcommand's options into a request (the PTX and the reference cubin are read here).
fn parse(argv: &[String]) -> Result<SimRequest, String> {
    let mut req = SimRequest::default();
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) if word.starts_with('-') => (n, Some(v.to_string())),
            _ => (word.as_str(), None),
        };
        if !name.starts_with('-') {
            if !req.file_name.is_empty() {
                return Err(format!(
                    "one input file only ('{}' and '{name}')",
                    req.file_name
                ));
            }
            req.file_name = name.to_string();
            continue;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next().cloned())
                .ok_or(format!("'{name}' needs a value"))
        };
        match name {
            "-arch" | "--gpu-name" => {
                let arch = value()?;
                req.sm = arch_number(&arch)?;
                req.accel = arch.ends_with('a');
            }
            "--entry" | "-e" => req.entry = value()?,
            "--grid" => req.grid = ptxforge_sim::parse_dims(&value()?)?,
            "--block" => req.block = ptxforge_sim::parse_dims(&value()?)?,
            "--args" => {
                req.scalar_args = value()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "--buffer-bytes" => req.buffer_bytes = number(&value()?)? as usize,
            "--dynamic-shared" => req.dynamic_shared_bytes = number(&value()?)? as u32,
            "--seed" => req.seed = number(&value()?)?,
            "--ulps" => req.ulps = number(&value()?)? as u32,
            "--fill" => req.fill = value()?.parse()?,
            "--reference-cubin" => {
                let path = value()?;
                req.reference_cubin =
                    Some(std::fs::read(&path).map_err(|e| format!("cannot read '{path}': {e}"))?);
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if req.file_name.is_empty() {
        return Err("no input file".into());
    }
    if req.entry.is_empty() {
        return Err("--entry is required".into());
    }
    let bytes = std::fs::read(&req.file_name)
        .map_err(|_| format!("Input file '{}' could not be opened", req.file_name))?;
    req.ptx = String::from_utf8_lossy(&bytes).into_owned();
    Ok(req)
}

/// `sm_XX`, or `sm_90a`: an architecture-specific target runs as its base (its SASS is the base's;
/// the request's `accel` keeps its instructions).
fn arch_number(arch: &str) -> Result<u32, String> {
    arch.strip_prefix("sm_")
        .map(|n| n.strip_suffix('a').unwrap_or(n))
        .and_then(|n| n.parse().ok())
        .ok_or(format!("'{arch}': expected sm_XX"))
}

fn number(v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| format!("'{v}': expected a number"))
}
