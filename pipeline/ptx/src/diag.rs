//! ptxas-style diagnostics: `ptxas <file>, line <N>; error   : <message>`.

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
        let severity = if fatal { Severity::Fatal } else { Severity::Error };
        Diagnostic { severity, file: file.to_string(), line, message }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning ",
            Severity::Error => "error   ",
            Severity::Fatal => "fatal   ",
        };
        write!(f, "ptxas {}, line {}; {}: {}", self.file, self.line, sev, self.message)
    }
}
