//! The concurrency substrate: work-stealing executor, bounded-channel actors, GNU make jobserver client.
