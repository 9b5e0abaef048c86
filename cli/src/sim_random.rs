//! `ptxforge sim --random COUNT`: random kernels against the whole compiler.
//!
//! ```text
//! ptxforge sim --random COUNT [--seed S] -arch sm_XX[,sm_YY...] [--ptxas PATH] [--out DIR]
//!              [--for SECONDS] [--size N] [--vars N] [--pending] [--weight FEATURE=W]... [--nan] [--no-reduce]
//! ```
//! Each seed S, S+1, ... makes one kernel per architecture; each is compiled with ptxforge and
//! ptxas and run on the interpreter and the emulator (both cubins). A disagreement is reduced and
//! written to DIR (default `random-found`). The last line reads
//! `random: N kernels, A agree, D disagree, E ptxforge errors, R ptxas rejects`; the exit status
//! is 1 when D > 0. `--for` stops after that many seconds (COUNT 0: no count limit).
//! `--weight bits=200` sets a generator feature's weight (0 leaves it out; names as in
//! `ptxforge_sim::random::Feature`, any case). `--pending` (an old name) is `--weight math=60`:
//! the forms that were ptxforge errors once and compile now.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ptxforge_sim::random::{default_ptxas, run_seed, Config, Feature, Outcome};

const USAGE: &str =
    "usage: ptxforge sim --random COUNT [--seed S] -arch sm_XX[,sm_YY...] [--ptxas PATH] \
[--out DIR] [--for SECONDS] [--size N] [--vars N] [--pending] [--weight FEATURE=W]... [--nan] [--no-reduce]";

struct Options {
    count: u64,
    seed: u64,
    archs: Vec<u32>,
    ptxas: Option<PathBuf>,
    out: PathBuf,
    for_secs: Option<u64>,
    size: Option<usize>,
    vars: Option<usize>,
    pending: bool,
    weights: Vec<(Feature, u32)>,
    nan: bool,
    reduce: bool,
}

#[derive(Default)]
struct Tally {
    kernels: u64,
    instructions: u64,
    agree: u64,
    two_way: u64,
    /// Why the emulator stopped on ptxas's cubin (the kind of stop, counted).
    ptxas_stops: std::collections::BTreeMap<String, u64>,
    disagree: u64,
    errors: u64,
    rejects: u64,
    skipped: u64,
}

/// Runs the random mode on the words after `sim`.
pub fn main(argv: &[String]) -> ExitCode {
    let opts = match parse(argv) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("ptxforge sim: {msg}\n{USAGE}");
            return ExitCode::from(255);
        }
    };
    if opts.ptxas.is_none() {
        println!("note: ptxas not found ($PTXFORGE_NV or --ptxas): only the interpreter and ptxforge's cubin are compared");
    }
    let start = Instant::now();
    let deadline = opts.for_secs.map(|s| start + Duration::from_secs(s));
    let mut t = Tally::default();
    let mut seed = opts.seed;
    'seeds: while opts.count == 0 || seed - opts.seed < opts.count {
        for &sm in &opts.archs {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break 'seeds;
            }
            one_kernel(&opts, sm, seed, &mut t);
        }
        seed += 1;
        if opts.count == 0 && deadline.is_none() {
            break;
        }
    }
    let mut stops: Vec<(&String, &u64)> = t.ptxas_stops.iter().collect();
    stops.sort_by(|a, b| b.1.cmp(a.1));
    for (why, n) in stops.iter().take(6) {
        if why.as_str() == ptxforge_sim::random::driver::PTXAS_NAN_FOLD {
            println!("  two-way {n}: {why}");
        } else {
            println!("  two-way {n}: the emulator stopped on ptxas's cubin: {why}");
        }
    }
    println!(
        "({} body instructions; {} of the agreements two-way; {} skipped; {:.1} s)",
        t.instructions,
        t.two_way,
        t.skipped,
        start.elapsed().as_secs_f64()
    );
    println!(
        "random: {} kernels, {} agree, {} disagree, {} ptxforge errors, {} ptxas rejects",
        t.kernels, t.agree, t.disagree, t.errors, t.rejects
    );
    if t.disagree > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn one_kernel(opts: &Options, sm: u32, seed: u64, t: &mut Tally) {
    let mut config = Config::for_arch(sm);
    if let Some(n) = opts.size {
        config.statements = n;
    }
    if let Some(n) = opts.vars {
        config.vars_per_kind = n;
    }
    config.nan_inputs = opts.nan;
    if opts.pending {
        config.set_weight(Feature::Math, 60);
    }
    for &(f, w) in &opts.weights {
        config.set_weight(f, w);
    }
    let budget = if opts.reduce { 5000 } else { 0 };
    let (outcome, size, reduced) = run_seed(&config, seed, opts.ptxas.as_deref(), budget);
    t.kernels += 1;
    t.instructions += size as u64;
    match &outcome {
        Outcome::Agree {
            two_way,
            ptxas_stop,
        } => {
            t.agree += 1;
            t.two_way += *two_way as u64;
            if let Some(why) = ptxas_stop {
                *t.ptxas_stops.entry(stop_kind(why)).or_default() += 1;
            }
        }
        Outcome::Disagree { .. } => t.disagree += 1,
        Outcome::PtxforgeError(_) => t.errors += 1,
        Outcome::PtxasReject(_) => t.rejects += 1,
        Outcome::Skipped(_) => t.skipped += 1,
    }
    if matches!(outcome, Outcome::Agree { .. }) {
        return;
    }
    let line = outcome
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    let mut said = format!("seed {seed} sm_{sm}: {line}");
    if let Some(text) = reduced {
        let path = opts.out.join(format!("random_sm{sm}_seed{seed}.ptx"));
        let written = std::fs::create_dir_all(&opts.out).and_then(|_| std::fs::write(&path, text));
        said += &match written {
            Ok(()) => format!("\n  reduced kernel written to {}", path.display()),
            Err(e) => format!("\n  could not write {}: {e}", path.display()),
        };
    }
    println!("{said}");
}

/// `error: ptxas cubin: hazard at /*0130*/ on R3 (ReadTooEarly): ...` -> `hazard (ReadTooEarly)`;
/// `unsupported: ... (opcode 0x2bd): unknown opcode` -> `unsupported (opcode 0x2bd)`.
fn stop_kind(why: &str) -> String {
    let paren = |s: &str| {
        s.split('(')
            .nth(1)
            .and_then(|p| p.split(')').next())
            .map(str::to_string)
    };
    if why == ptxforge_sim::random::driver::PTXAS_NAN_FOLD {
        why.to_string()
    } else if why.contains("hazard") {
        let at = why.find("hazard").unwrap_or(0);
        format!("hazard ({})", paren(&why[at..]).unwrap_or_default())
    } else if let Some(at) = why.find("(opcode") {
        format!("unsupported ({})", paren(&why[at..]).unwrap_or_default())
    } else {
        why.chars().take(80).collect()
    }
}

fn parse(argv: &[String]) -> Result<Options, String> {
    let mut o = Options {
        count: 0,
        seed: 1,
        archs: Vec::new(),
        ptxas: default_ptxas(),
        out: PathBuf::from("random-found"),
        for_secs: None,
        size: None,
        vars: None,
        pending: false,
        weights: Vec::new(),
        nan: false,
        reduce: true,
    };
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) if word.starts_with('-') => (n, Some(v.to_string())),
            _ => (word.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next().cloned())
                .ok_or(format!("'{name}' needs a value"))
        };
        match name {
            "--random" => o.count = number(&value()?)?,
            "--seed" => o.seed = number(&value()?)?,
            "-arch" | "--gpu-name" => {
                for a in value()?.split(',') {
                    o.archs.push(
                        a.strip_prefix("sm_")
                            .and_then(|n| n.parse().ok())
                            .ok_or(format!("'{a}': expected sm_XX"))?,
                    );
                }
            }
            "--ptxas" => o.ptxas = Some(PathBuf::from(value()?)),
            "--out" => o.out = PathBuf::from(value()?),
            "--for" => o.for_secs = Some(number(&value()?)?),
            "--size" => o.size = Some(number(&value()?)? as usize),
            "--vars" => o.vars = Some((number(&value()?)? as usize).clamp(1, 16)),
            "--pending" => o.pending = true,
            "--weight" => o.weights.push(feature_weight(&value()?)?),
            "--nan" => o.nan = true,
            "--no-reduce" => o.reduce = false,
            _ => return Err(format!("unknown option '{name}' with --random")),
        }
    }
    if o.archs.is_empty() {
        o.archs.push(80);
    }
    if o.count == 0 && o.for_secs.is_none() {
        return Err("--random needs a count above 0, or --for SECONDS".into());
    }
    Ok(o)
}

/// `NAME=W`: a generator feature and its weight.
fn feature_weight(v: &str) -> Result<(Feature, u32), String> {
    let (name, w) = v
        .split_once('=')
        .ok_or(format!("'{v}': expected FEATURE=WEIGHT"))?;
    let f = Feature::from_name(name).ok_or(format!("'{name}': no such generator feature"))?;
    Ok((f, number(w)? as u32))
}

fn number(v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| format!("'{v}': expected a number"))
}
