//! Stress and robustness tests live in `tests/`; this library only hosts shared helpers.
