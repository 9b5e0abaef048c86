//! `--help`: the option list in ptxas's layout, naming ptxforge and saying what each option does here.

use std::fmt::Write;

/// `(long name, value syntax, description)` in ptxas's order, then ptxforge's own options.
const HELP: &[(&str, &str, &str)] = &[
    ("Ofast-compile", "<0|min|mid|max>", "Fast-compile level. Accepted with ptxas's rules (min and mid only with -O1, max only\nwith -O0); ptxforge compiles every level the same way.\nDefault value:  '0'."),
    ("allow-expensive-optimizations", "<true|false>", "With true and no --split-compile, compile kernels on every CPU of the machine."),
    ("apply-controls", "<file>", "Compiler controls file. Not implemented: warns."),
    ("compile-as-tools-patch", "", "Compile patch code for CUDA tools. Not implemented: warns."),
    ("compile-only", "", "Generate a relocatable object. Not implemented: warns."),
    ("compiler-annotations", "", "Annotate compiler information in the output. Not implemented: warns."),
    ("def-load-cache", "<ca|cg|cs|cv|lu>", "Default cache modifier on global/generic loads."),
    ("def-store-cache", "<cg|cs|wb|wt>", "Default cache modifier on global/generic stores."),
    ("device-debug", "", "Generate debug information. Not implemented: warns. With -O1 and up given: fatal, as ptxas."),
    ("device-function-maxrregcount", "<archmax/archmin/N>", "Register limit for device functions with -c; ignored (with ptxas's warning) for\nwhole-program compilation."),
    ("device-stack-protector", "<true|false>", "Stack canaries. ptxforge uses no stack frames; true warns.\nDefault value:  false."),
    ("disable-optimizer-constants", "", "Do not use the optimizer constant bank (ptxforge never does)."),
    ("disable-warnings", "", "Print no warnings."),
    ("dont-merge-basicblocks", "", "Keep basic blocks apart for debugging. No effect in ptxforge."),
    ("enable-func-clone-sc", "<true|false>", "Clone functions per entry with -c. No effect in ptxforge.\nDefault value:  false."),
    ("entry", "<entry function>,...", "Compile only these entry functions."),
    ("extensible-whole-program", "", "Extensible whole-program mode. Not implemented: warns."),
    ("fmad", "<true|false>", "Contract multiplies and adds into FMA. ptxforge never contracts separate\nmultiplies and adds, so false changes nothing.\nDefault value:  true."),
    ("force-load-cache", "<ca|cg|cs|cv|lu>", "Force a cache modifier on global/generic loads."),
    ("force-store-cache", "<cg|cs|wb|wt>", "Force a cache modifier on global/generic stores."),
    ("g-tensor-memory-access-check", "", "Tensor memory access checks (sm_100 and later). No effect in ptxforge."),
    ("generate-line-info", "", "Generate line-number information for device code."),
    ("gno-fabric-access-check", "", "Disable fabric access checks (sm_100 and later). No effect in ptxforge."),
    ("gno-tensor-memory-access-check", "", "Disable tensor memory access checks (sm_100 and later). No effect in ptxforge."),
    ("gpu-name", "<gpu name>", "Architecture to generate code for: sm_75, sm_80, sm_86, sm_89, sm_90. Every name ptxas\naccepts is recognised; compute_XX only parses and validates the input.\nDefault value:  'sm_75'."),
    ("help", "", "Print this help."),
    ("input-as-string", "<ptx string>", "Compile PTX given as a string (after the input files)."),
    ("jobserver", "", "With --split-compile other than 1: take a GNU Make jobserver token for each compile\ntask (`make -j<N>`). No jobserver: a warning; an unusable one: fatal (as ptxas)."),
    ("legacy-bar-warp-wide-behavior", "", "Deprecated; ignored for sm_70 and later, as by ptxas."),
    ("list-arch", "", "Print the architectures ptxforge generates code for."),
    ("list-version", "", "Print the PTX ISA versions ptxforge reads."),
    ("machine", "<bits>", "Host address size; only 64.\nDefault value:  64."),
    ("make-errors-visible-at-exit", "", "Make memory faults visible at exit (ERRBAR before every EXIT)."),
    ("maxntid", "<N>,...", "Maximum threads per CTA, for kernels without .maxntid/.reqntid."),
    ("maxrregcount", "<archmax/archmin/N>", "Maximum registers per thread (raised to 24, ignored above 255, as by ptxas)."),
    ("minnctapersm", "<N>", "Minimum CTAs per multiprocessor, for kernels without .minnctapersm."),
    ("opt-level", "<N>", "Optimization level 0 to 3 (other numbers read as 3, as ptxas reads them).\nDefault value:  3."),
    ("optimize-float-atomics", "", "Allow faster, less precise float atomics. No effect in ptxforge."),
    ("options-file", "<file>,...", "Read more options from these files."),
    ("output-file", "<file>", "Output file.\nDefault value:  'elf.o'."),
    ("override-directive-values", "", "--maxntid and --minnctapersm override the PTX directives."),
    ("position-independent-code", "<true|false>", "Deprecated; warns as ptxas does and has no effect."),
    ("preserve-relocs", "", "Keep relocations for variables. Not implemented: warns."),
    ("register-usage-level", "<0..10>", "Register-usage aggressiveness. No effect in ptxforge.\nDefault value:  5."),
    ("return-at-end", "", "Keep the last return for debugging. No effect in ptxforge."),
    ("sanitize", "<memcheck|threadsteer>", "Instrument code for a sanitizer. Not implemented: warns."),
    ("sp-bounds-check", "", "Stack-pointer bounds checks. ptxforge uses no stack frames: no effect."),
    ("split-compile", "<N>", "Compile on N worker threads (0: one per CPU, 1: on the calling thread).\nThe output does not depend on N."),
    ("suppress-async-bulk-multicast-advisory-warning", "", "Accepted (ptxforge gives no such warning)."),
    ("suppress-debug-info", "", "Accepted (ptxforge writes no debug information)."),
    ("suppress-double-demote-warning", "", "Accepted (ptxforge gives no such warning)."),
    ("suppress-position-independent-code-warning", "", "Hide the --position-independent-code warning."),
    ("suppress-sparse-mma-advisory-info", "", "Accepted (ptxforge gives no such message)."),
    ("suppress-stack-size-warning", "", "Accepted (ptxforge gives no such warning)."),
    ("verbose", "", "Print each kernel's resource usage."),
    ("verbose2", "", "Like --verbose, and name each kernel as it is processed."),
    ("version", "", "Print version information."),
    ("warn-on-double-precision-use", "", "Warn at every instruction that computes in double precision."),
    ("warn-on-local-memory-usage", "", "Warn when a function uses local memory (a stack frame)."),
    ("warn-on-spills", "", "Warn when registers are spilled to local memory."),
    ("warning-as-error", "", "Turn warnings into errors."),
    ("compiler-stats", "<time,memory,phase-wise,detailed>", "Print compile-time and memory statistics (also t,m,p,d), then ptxforge's pipeline figures."),
    ("compiler-stats-file", "<file>", "Append the --compiler-stats report to this file instead of stderr."),
    ("compiler-stats-json", "<file>", "ptxforge: write the statistics and every kernel's stage spans as JSON."),
    ("fdevice-time-trace", "<file>", "Add this compile's events to a Chrome trace file."),
    ("use-trace-pid", "<N>", "The process id the trace events carry."),
    ("ftrace-phase-after", "<name>", "Start the trace events where the file's event <name> ends."),
    ("regAllocOptLevel", "<N>", "ptxas's register allocator effort (hidden in ptxas; Triton passes it). Accepted; ptxforge's allocator has one level."),
    ("threads-dynamic-scheduling", "", "ptxforge: let idle workers steal compile tasks instead of a fixed split."),
    ("threads-min-section-size", "<N>", "ptxforge: batch consecutive kernels into tasks of at least N PTX instructions.\nDefault value:  1."),
    ("dump-sass", "", "ptxforge: print the SASS of the output on stdout, as nvdisasm would."),
];

/// The whole `--help` text (stdout).
pub fn help_text() -> String {
    let mut s =
        String::from("\nUsage  : ptxforge [options] <ptx file>,...\n\nOptions\n=======\n\n");
    for (long, arg, text) in HELP {
        let head = if arg.is_empty() {
            format!("--{long}")
        } else {
            format!("--{long} {arg}")
        };
        let short = crate::args::short_name(long)
            .map(|s| format!("(-{s})"))
            .unwrap_or_default();
        let _ = writeln!(s, "{head:<51} {short}");
        for line in text.lines() {
            let _ = writeln!(s, "        {line}");
        }
        s.push('\n');
    }
    s.push_str(SUBCOMMANDS);
    s
}

/// What ptxforge has besides ptxas's command line, after the options.
const SUBCOMMANDS: &str = concat!(
    "Subcommands\n===========\n\n",
    "ptxforge sim <ptx file> --entry <name> --grid <X,Y,Z> --block <X,Y,Z> [options]\n",
    "        Run one kernel on the PTX interpreter and on the SASS emulator and print `agree` or the\n",
    "        first difference (`ptxforge sim` alone prints its options).\n\n",
    "Environment\n===========\n\n",
    "PTXFORGE_JOBSERVER_STATS\n",
    "        With --jobserver: print the tokens taken and the most sections that ran at once.\n\n",
);

/// `--list-arch` (the architectures ptxforge generates code for) and `--list-version` (the PTX
/// ISA versions it reads, ptxas 13.5's list), one per line.
pub fn lists_text(arch: bool, version: bool) -> String {
    let mut s = String::new();
    if arch {
        for sm in ptxforge_sass::arch::SUPPORTED_SMS {
            let _ = writeln!(s, "{}", sm.num);
        }
    }
    if version {
        const MINORS: [(u32, u32); 9] = [
            (1, 5),
            (2, 3),
            (3, 2),
            (4, 3),
            (5, 1),
            (6, 5),
            (7, 8),
            (8, 8),
            (9, 5),
        ];
        for (major, last) in MINORS {
            for minor in 0..=last {
                let _ = writeln!(s, "{major}.{minor}");
            }
        }
    }
    s
}

/// The long names the help describes.
#[cfg(test)]
fn described() -> impl Iterator<Item = &'static str> {
    HELP.iter().map(|(l, _, _)| *l)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_public_option_is_described() {
        let described: Vec<&str> = super::described().collect();
        for long in crate::args::all_options() {
            assert!(described.contains(&long), "--{long} is missing from --help");
        }
        let parsed: Vec<&str> = crate::args::all_options().collect();
        for long in &described {
            assert!(
                parsed.contains(long),
                "--help describes --{long}, which the parser does not know"
            );
        }
        let text = super::help_text();
        assert!(text.starts_with("\nUsage  : ptxforge [options] <ptx file>,...\n"));
        assert!(text.contains("--maxrregcount <archmax/archmin/N>"));
        assert!(text.contains("(-arch)"));
        assert!(text.contains("\nptxforge sim <ptx file> --entry <name>"));
    }
}
