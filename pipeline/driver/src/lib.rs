//! The compile pipeline: each stage runs as an actor on the runtime; kernels flow through as messages.
