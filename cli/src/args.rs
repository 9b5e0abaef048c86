//! Command-line parsing with ptxas's spellings, value forms and fatal messages.

use ptxforge_sass::arch::Sm;

/// What the command line asked for.
#[derive(Clone, Debug)]
pub struct Args {
    pub inputs: Vec<String>,
    pub output: String,
    pub arch: String,
    pub verbose: u8,
    pub split_compile: usize,
    /// Whether `--split-compile` was given explicitly.
    pub split_compile_given: bool,
    pub dynamic_scheduling: bool,
    pub min_section_size: usize,
    pub max_regs: Option<u32>,
    pub opt_level: u32,
    pub dump_sass: bool,
    pub jobserver: bool,
    /// `--compiler-stats LIST`.
    pub compiler_stats: Option<crate::stats::StatsRequest>,
    /// `--compiler-stats-file F`: append the report there instead of stderr.
    pub compiler_stats_file: Option<String>,
    pub compiler_stats_json: Option<String>,
    pub trace: crate::trace::TraceOptions,
    /// `--allow-expensive-optimizations true`: a pool sized to the machine when `--split-compile` is not given.
    pub expensive_optimizations: Option<bool>,
    pub version: bool,
    pub help: bool,
    /// Warnings produced while parsing the command line.
    pub warnings: Vec<String>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            inputs: Vec::new(),
            output: "elf.o".into(),
            arch: "sm_75".into(),
            verbose: 0,
            split_compile: 1,
            split_compile_given: false,
            dynamic_scheduling: false,
            min_section_size: 1,
            max_regs: None,
            opt_level: 3,
            dump_sass: false,
            jobserver: false,
            compiler_stats: None,
            compiler_stats_file: None,
            compiler_stats_json: None,
            trace: Default::default(),
            expensive_optimizations: None,
            version: false,
            help: false,
            warnings: Vec::new(),
        }
    }
}

/// How an option takes its value.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Takes {
    Flag,
    Value,
}

/// `(long, short, takes)`; the canonical name is the long one.
const OPTIONS: &[(&str, &str, Takes)] = &[
    ("gpu-name", "arch", Takes::Value),
    ("output-file", "o", Takes::Value),
    ("verbose", "v", Takes::Flag),
    ("verbose2", "v2", Takes::Flag),
    ("split-compile", "split-compile", Takes::Value),
    ("threads-dynamic-scheduling", "threads-dynamic-scheduling", Takes::Flag),
    ("threads-min-section-size", "threads-min-section-size", Takes::Value),
    ("maxrregcount", "maxrregcount", Takes::Value),
    ("opt-level", "O", Takes::Value),
    ("dump-sass", "dump-sass", Takes::Flag),
    ("jobserver", "jobserver", Takes::Flag),
    ("compiler-stats", "", Takes::Value),
    ("compiler-stats-file", "", Takes::Value),
    ("compiler-stats-json", "", Takes::Value),
    ("fdevice-time-trace", "fdevice-time-trace", Takes::Value),
    ("use-trace-pid", "use-trace-pid", Takes::Value),
    ("ftrace-phase-after", "ftrace-phase-after", Takes::Value),
    ("allow-expensive-optimizations", "allow-expensive-optimizations", Takes::Value),
    ("version", "V", Takes::Flag),
    ("help", "h", Takes::Flag),
    ("machine", "m", Takes::Value),
];

/// Parses `argv[1..]`; `Err` holds ptxas's fatal message (without the `ptxas fatal   : ` prefix).
pub fn parse(argv: &[String]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut i = 0;
    while i < argv.len() {
        let word = &argv[i];
        i += 1;
        if !word.starts_with('-') || word == "-" {
            args.inputs.push(word.clone());
            continue;
        }
        let (name, inline) = split_option(word)?;
        let (long, takes) = lookup(word, &name)?;
        let value = match (takes, inline) {
            (Takes::Flag, Some(_)) => return Err(format!("no argument expected after '{}'", strip_value(word))),
            (Takes::Flag, None) => None,
            (Takes::Value, Some(v)) => Some(v),
            (Takes::Value, None) => match argv.get(i) {
                Some(v) => {
                    i += 1;
                    Some(v.clone())
                }
                None => return Err(format!("argument expected after '{}'", word)),
            },
        };
        apply(&mut args, long, value)?;
    }
    Ok(args)
}

/// Splits `--name=value`, `-name=value`, and the glued `-O3` form.
fn split_option(word: &str) -> Result<(String, Option<String>), String> {
    let body = word.trim_start_matches('-');
    if let Some((n, v)) = body.split_once('=') {
        return Ok((n.to_string(), Some(v.to_string())));
    }
    if !word.starts_with("--") && body.starts_with('O') && body.len() > 1 {
        return Ok(("O".into(), Some(body[1..].to_string())));
    }
    if !word.starts_with("--") && body == "O" {
        return Ok(("O".into(), Some("0".into())));
    }
    Ok((body.to_string(), None))
}

fn strip_value(word: &str) -> &str {
    word.split_once('=').map_or(word, |(n, _)| n)
}

/// Finds the option: `--long` or `-short` (ptxas is strict about the number of dashes).
fn lookup(word: &str, name: &str) -> Result<(&'static str, Takes), String> {
    let long_form = word.starts_with("--");
    OPTIONS
        .iter()
        .find(|(l, s, _)| if long_form { *l == name } else { !s.is_empty() && *s == name })
        .map(|(l, _, t)| (*l, *t))
        .ok_or_else(|| format!("Unknown option '{}'", strip_value(&word[1..])))
}

fn boolean(v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("'{v}': expected true or false")),
    }
}

fn number(v: &str) -> Result<u64, String> {
    v.parse::<u64>().map_err(|_| format!("'{v}': expected a number"))
}

/// Stores one option's value.
fn apply(args: &mut Args, long: &str, value: Option<String>) -> Result<(), String> {
    let v = value.unwrap_or_default();
    match long {
        "gpu-name" => {
            check_arch(&v)?;
            args.arch = v;
        }
        "output-file" => args.output = v,
        "verbose" => args.verbose = args.verbose.max(1),
        "verbose2" => args.verbose = 2,
        "split-compile" => {
            if v.starts_with('-') {
                return Err(format!("Invalid value '{v}' for option '--split-compile'"));
            }
            args.split_compile = number(&v)? as usize;
            args.split_compile_given = true;
        }
        "threads-dynamic-scheduling" => args.dynamic_scheduling = true,
        "threads-min-section-size" => args.min_section_size = number(&v)?.max(1) as usize,
        "maxrregcount" => args.max_regs = Some(number(&v)? as u32),
        "opt-level" => {
            let n = number(&v)?;
            if n > 9 {
                return Err(format!("Invalid value '{v}' for option '--opt-level'"));
            }
            args.opt_level = n.min(3) as u32;
        }
        "dump-sass" => args.dump_sass = true,
        "jobserver" => args.jobserver = true,
        "compiler-stats" => args.compiler_stats = Some(crate::stats::parse_request(&v)?),
        "compiler-stats-file" => args.compiler_stats_file = Some(v),
        "compiler-stats-json" => args.compiler_stats_json = Some(v),
        "fdevice-time-trace" => args.trace.file = Some(v),
        "use-trace-pid" => args.trace.pid = Some(v.parse().map_err(|_| format!("'{v}': expected a number"))?),
        "ftrace-phase-after" => args.trace.phase_after = Some(v),
        "allow-expensive-optimizations" => args.expensive_optimizations = Some(boolean(&v)?),
        "version" => args.version = true,
        "help" => args.help = true,
        "machine" if v == "64" => {}
        "machine" => return Err(format!("Value '{v}' is not defined for option 'machine'")),
        _ => {}
    }
    Ok(())
}

/// Accepts `sm_XX` and `compute_XX` names ptxas knows; ptxforge encodes only some of them.
fn check_arch(v: &str) -> Result<(), String> {
    const KNOWN: [&str; 8] = ["75", "80", "86", "87", "88", "89", "90", "90a"];
    let num = v.strip_prefix("sm_").or_else(|| v.strip_prefix("compute_"));
    match num {
        Some(n) if KNOWN.contains(&n) => Ok(()),
        _ => Err(format!("Value '{v}' is not defined for option 'gpu-name'")),
    }
}

impl Args {
    /// Workers: `--split-compile N`, or all CPUs (0) with `--allow-expensive-optimizations true`.
    pub fn workers(&self) -> usize {
        match (self.split_compile_given, self.expensive_optimizations) {
            (false, Some(true)) => 0,
            _ => self.split_compile,
        }
    }

    /// The real architecture to encode for, and whether this is a parse-only virtual target.
    pub fn target(&self) -> (Sm, bool) {
        let virtual_arch = self.arch.starts_with("compute_");
        let sm = self.arch.trim_end_matches('a').parse::<Sm>().unwrap_or(Sm::new(75));
        (sm, virtual_arch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(words: &[&str]) -> Result<Args, String> {
        parse(&words.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn value_forms() {
        let a = p(&["-arch=sm_90", "-o", "x.cubin", "-O2", "k.ptx"]).unwrap();
        assert_eq!(a.arch, "sm_90");
        assert_eq!(a.output, "x.cubin");
        assert_eq!(a.opt_level, 2);
        assert_eq!(a.inputs, vec!["k.ptx"]);
        let b = p(&["--gpu-name", "sm_80", "--split-compile", "4", "k.ptx"]).unwrap();
        assert_eq!((b.arch.as_str(), b.split_compile), ("sm_80", 4));
    }

    #[test]
    fn ptxas_fatal_messages() {
        assert_eq!(p(&["--knob"]).unwrap_err(), "Unknown option '-knob'");
        assert_eq!(p(&["-knob"]).unwrap_err(), "Unknown option 'knob'");
        assert_eq!(p(&["-arch=sm_91"]).unwrap_err(), "Value 'sm_91' is not defined for option 'gpu-name'");
        assert_eq!(p(&["-v=1"]).unwrap_err(), "no argument expected after '-v'");
        assert_eq!(p(&["-o"]).unwrap_err(), "argument expected after '-o'");
        assert_eq!(p(&["-Ox"]).unwrap_err(), "'x': expected a number");
        assert_eq!(p(&["--split-compile=-1"]).unwrap_err(), "Invalid value '-1' for option '--split-compile'");
        assert_eq!(p(&["--allow-expensive-optimizations", "maybe"]).unwrap_err(), "'maybe': expected true or false");
        assert_eq!(p(&["--compiler-stats", "foo"]).unwrap_err(), "Value 'foo' is not defined for option 'compiler-stats'");
        assert_eq!(p(&["-compiler-stats=time"]).unwrap_err(), "Unknown option 'compiler-stats'");
        assert_eq!(p(&["-allow-expensive-optimizations=true"]).unwrap().expensive_optimizations, Some(true));
    }

    #[test]
    fn defaults_match_ptxas() {
        let a = p(&["k.ptx"]).unwrap();
        assert_eq!((a.arch.as_str(), a.output.as_str(), a.opt_level), ("sm_75", "elf.o", 3));
    }
}
