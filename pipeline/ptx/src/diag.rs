//! ptxas-style diagnostics: `ptxas <file>, line <N>; error   : <message>`, or without a place
//! (line 0): `ptxas warning : <message>`.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Warning,
    Error,
    Fatal,
}

/// One diagnostic about the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, line: u32, message: String, fatal: bool) -> Diagnostic {
        let severity = if fatal {
            Severity::Fatal
        } else {
            Severity::Error
        };
        Diagnostic {
            severity,
            file: file.to_string(),
            line,
            message,
        }
    }

    /// A warning; `line` 0 for one ptxas prints without a place (`ptxas warning : ...`).
    pub fn warning(file: &str, line: u32, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            file: file.to_string(),
            line,
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning ",
            Severity::Error => "error   ",
            Severity::Fatal => "fatal   ",
        };
        if self.line == 0 {
            return write!(f, "ptxas {}: {}", sev, self.message);
        }
        write!(
            f,
            "ptxas {}, line {}; {}: {}",
            self.file, self.line, sev, self.message
        )
    }
}
