//! Shared helpers for ptxforge's benchmarks (which print ratios against ptxas).
