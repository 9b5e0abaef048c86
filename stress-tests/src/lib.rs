//! Stress and robustness tests live in `tests/`; this library only hosts shared helpers.
//!
//! ## What lives where
//!
//! capacity-1 mailboxes under load with planted panics, a 600-kernel module at every thread count,
//! 6000 mutated modules (no panic, no internal error).
