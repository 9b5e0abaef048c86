//! ptxas-style diagnostics: `ptxas <file>, line <N>; error   : <message>`, or without a place
//! (line 0): `ptxas warning : <message>`; infos (`info    :`) that never fail a module.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// A note that accepts the module all the same (ptxas's `info    :`), shown even with `-w`.
    Info,
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

/// The checks hand their findings on as (line, message) pairs; an info's message starts with this
/// mark ([`info_message`]), which [`Diagnostic::new`] takes off, making the diagnostic an info.
const INFO_MARK: &str = "\u{1}info\u{1}";

/// `message` marked as an info's, for a finding that [`Diagnostic::new`] makes a
/// [`Severity::Info`].
pub(crate) fn info_message(message: &str) -> String {
    format!("{INFO_MARK}{message}")
}

impl Diagnostic {
    /// An error (a fatal one if `fatal`), or an info when `message` is an [`info_message`].
    pub fn new(file: &str, line: u32, message: String, fatal: bool) -> Diagnostic {
        if let Some(text) = message.strip_prefix(INFO_MARK) {
            return Diagnostic::info(file, line, text.to_string());
        }
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

    /// An info: printed as ptxas prints it, never an error.
    pub fn info(file: &str, line: u32, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Info,
            file: file.to_string(),
            line,
            message,
        }
    }

    /// Whether this diagnostic rejects the module (an error or a fatal error).
    pub fn is_error(&self) -> bool {
        matches!(self.severity, Severity::Error | Severity::Fatal)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info    ",
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
