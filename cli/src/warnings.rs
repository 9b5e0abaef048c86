//! `-w` and `-Werror`: which warnings are printed, and which become errors, as ptxas decides.
//!
//! `-w` wins over `-Werror` (nothing is printed and nothing fails). A warning made an error is
//! printed once per place and message, and fails the run with exit status 255.

use std::cell::Cell;
use std::collections::HashSet;

use ptxforge_pipeline::report::{Diagnostic, Severity};

/// How warnings are reported for one run.
pub struct WarningPolicy {
    suppress: bool,
    as_errors: bool,
    errored: Cell<bool>,
}

/// What printing a compile's diagnostics came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Printed {
    /// An error (or a warning made one) was printed: the run fails.
    pub failed: bool,
    /// ptxas follows these errors with `Ptx assembly aborted due to errors`: errors, and fatals
    /// that point into the input (not fatals about the run as a whole, like `Unknown function`).
    pub aborted_line: bool,
}

impl WarningPolicy {
    pub fn new(suppress: bool, as_errors: bool) -> WarningPolicy {
        WarningPolicy {
            suppress,
            as_errors,
            errored: Cell::new(false),
        }
    }

    /// Whether a warning was printed as an error.
    pub fn errored(&self) -> bool {
        self.errored.get()
    }

    /// Prints one warning without a place in the input.
    pub fn warning(&self, message: &str) {
        if self.suppress {
            return;
        }
        if self.as_errors {
            self.errored.set(true);
            eprintln!("ptxas error   : {message}");
        } else {
            eprintln!("ptxas warning : {message}");
        }
    }

    /// The diagnostics as this policy prints them: warnings dropped or made errors.
    pub fn apply(&self, diags: &[Diagnostic]) -> Vec<Diagnostic> {
        let mut promoted = HashSet::new();
        let mut shown = Vec::new();
        for d in diags {
            if d.severity != Severity::Warning {
                shown.push(d.clone());
            } else if self.as_errors && !self.suppress {
                if promoted.insert((d.location.clone(), d.message.clone())) {
                    shown.push(Diagnostic {
                        severity: Severity::Error,
                        ..d.clone()
                    });
                }
            } else if !self.suppress {
                shown.push(d.clone());
            }
        }
        shown
    }

    /// Prints a compile's diagnostics on stderr.
    pub fn print(&self, diags: &[Diagnostic]) -> Printed {
        let shown = self.apply(diags);
        for d in &shown {
            eprintln!("{d}");
        }
        Printed {
            failed: shown.iter().any(Diagnostic::is_error),
            aborted_line: shown.iter().any(|d| {
                d.severity == Severity::Error
                    || (d.severity == Severity::Fatal && d.location.is_some())
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(line: u32) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            location: Some(("k.ptx".into(), line)),
            message: "w".into(),
        }
    }

    #[test]
    fn werror_promotes_once_per_place_and_w_wins() {
        let diags = [warning(3), warning(3), warning(4)];
        assert_eq!(WarningPolicy::new(false, false).apply(&diags).len(), 3);
        let promoted = WarningPolicy::new(false, true).apply(&diags);
        assert_eq!(promoted.len(), 2);
        assert!(promoted.iter().all(|d| d.severity == Severity::Error));
        assert!(WarningPolicy::new(true, true).apply(&diags).is_empty());
    }

    #[test]
    fn run_level_fatals_have_no_aborted_line() {
        let fatal = Diagnostic::fatal("Unknown function k".into());
        let p = WarningPolicy::new(false, false).print(&[fatal]);
        assert_eq!(
            p,
            Printed {
                failed: true,
                aborted_line: false
            }
        );
    }
}
