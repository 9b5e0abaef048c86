//! Diagnostics in ptxas's format and per-stage timing records.

use std::fmt;
use std::time::Duration;

use crate::stages::KernelError;

/// Diagnostic severities, padded as ptxas prints them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Info,
    Warning,
    Error,
    /// An error found after the front end accepted the module (generating debug information),
    /// which ptxas does not follow with its "Ptx assembly aborted due to errors".
    LateError,
    Fatal,
}

impl Severity {
    fn padded(self) -> &'static str {
        match self {
            Severity::Info => "info    ",
            Severity::Warning => "warning ",
            Severity::Error | Severity::LateError => "error   ",
            Severity::Fatal => "fatal   ",
        }
    }
}

/// One diagnostic line: `ptxas <file>, line <N>; error   : <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// File and line, when the diagnostic points into the input.
    pub location: Option<(String, u32)>,
    pub message: String,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        matches!(
            self.severity,
            Severity::Error | Severity::LateError | Severity::Fatal
        )
    }

    pub fn fatal(message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Fatal,
            location: None,
            message,
        }
    }

    /// Converts a front-end diagnostic.
    pub fn from_ptx(d: &ptxforge_ptx::Diagnostic) -> Diagnostic {
        let severity = match d.severity {
            ptxforge_ptx::Severity::Info => Severity::Info,
            ptxforge_ptx::Severity::Warning => Severity::Warning,
            ptxforge_ptx::Severity::Error => Severity::Error,
            ptxforge_ptx::Severity::Fatal => Severity::Fatal,
        };
        Diagnostic {
            severity,
            location: Some((d.file.clone(), d.line)),
            message: d.message.clone(),
        }
    }

    /// The diagnostics of one failed kernel; internal errors name the kernel and the stage.
    pub fn from_kernel_error(e: &KernelError, file: &str) -> Vec<Diagnostic> {
        e.messages
            .iter()
            .map(|(line, msg)| {
                let message = if msg.starts_with("internal error") {
                    format!("{msg} (kernel '{}', stage {})", e.kernel, e.stage)
                } else {
                    msg.clone()
                };
                let location = (*line > 0).then(|| (file.to_string(), *line));
                Diagnostic {
                    severity: Severity::Error,
                    location,
                    message,
                }
            })
            .collect()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some((file, line)) => write!(f, "ptxas {file}, line {line}; ")?,
            None => write!(f, "ptxas ")?,
        }
        write!(f, "{}: {}", self.severity.padded(), self.message)
    }
}

/// How long one kernel spent in one stage, and where.
#[derive(Clone, Debug)]
pub struct StageTiming {
    pub stage: &'static str,
    /// Index of the worker thread that ran it (0 = the calling thread when single-threaded).
    pub worker: usize,
    /// Start, relative to the start of the compile.
    pub start: Duration,
    pub duration: Duration,
    /// Time the kernel waited in this stage's mailbox.
    pub queue_wait: Duration,
}
