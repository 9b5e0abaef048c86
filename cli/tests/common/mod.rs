//! Test support shared by the CLI's test files: ptxas 13.5's `--compiler-stats` output, recorded
//! once (shared/docs/cli.md).
// Each test file uses a part of this support.
#![allow(dead_code)]

/// ptxas 13.5's `--compiler-stats=t,m,p,d` (time, memory, phase-wise, detailed), first compile
/// unit.
pub const PTXAS_STATS_DETAILED: &str = "ptxas info    : STAT: CompileTime = 27.385000 ms (100%)
Parse-time            : 11.661 ms (42.58%)
CompileUnitSetup-time : 1.712 ms (6.25%)
DAGgen-time           : 1.311 ms (4.79%)
OCG-time              : 8.658 ms (31.62%)
ELF-time              : 0.248 ms (0.91%)
DebugInfo-time        : 0.056 ms (0.20%)

ptxas info    : STAT: PeakMemoryUsage = 10161.707 KB
PeakParserMemoryUsage           : 4521.359 KB
PeakCompileUnitSetupMemoryUsage : 1151.762 KB

ptxas info    : STAT: 
Compile-unit with entry vadd
\tTotal Compile-Unit time        = 2.873 ms
\t\tDAGgen-time            : 0.494 ms
\t\tOCG-time               : 2.345 ms
\t\tELF-time               : 0.034 ms

\tPeak Compile-Unit memory usage = 8789.785 KB
\t\tPeakDAGgenMemoryUsage  : 1029.742 KB
";

/// ptxas 13.5's `--compiler-stats=time`.
pub const PTXAS_STATS_TIME: &str = "ptxas info    : STAT: CompileTime = 45.613998 ms\n";

pub mod clients;
pub mod oracle;
