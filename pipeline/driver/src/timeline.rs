//! Per-kernel, per-stage spans: each stage actor stamps the kernels it runs (start, end, worker)
//! inside the message itself, and the sink joins the stamps with the runtime's record of the
//! message (its wait in the stage's mailbox) into [`StageTiming`]s relative to the compile's start.
//!
//! Nothing here takes a lock: stamps travel with their kernel and are read once, at the sink.
//! A section (several kernels in one message) gets one stamp per kernel, so a kernel's span is
//! its own work, not its section's.

use std::time::{Duration, Instant};

use ptxforge_runtime::{Executor, StageTiming as MessageTiming};

use crate::report::StageTiming;
use crate::stages::StageResult;

/// Room for one stamp per kernel stage, so stamping never reallocates.
const STAMPS_PER_KERNEL: usize = 8;

/// When and where one stage ran one kernel.
#[derive(Clone, Debug)]
pub struct Stamp {
    pub stage: &'static str,
    /// Runtime worker index, `None` on the caller's thread.
    pub worker: Option<usize>,
    pub start: Instant,
    pub end: Instant,
}

/// A kernel travelling through the stages with the stamps of the stages that ran it.
pub struct Traced {
    pub result: StageResult,
    pub stamps: Vec<Stamp>,
}

impl Traced {
    pub fn new(result: StageResult) -> Traced {
        Traced {
            result,
            stamps: Vec::with_capacity(STAMPS_PER_KERNEL),
        }
    }

    /// Runs `stage` on the kernel (skipped when an earlier stage failed) and stamps it.
    pub fn step(self, stage: &'static str, run: impl FnOnce(StageResult) -> StageResult) -> Traced {
        let Traced { result, mut stamps } = self;
        if result.is_err() {
            return Traced { result, stamps };
        }
        let start = Instant::now();
        let result = run(result);
        stamps.push(Stamp {
            stage,
            worker: Executor::current_worker(),
            start,
            end: Instant::now(),
        });
        Traced { result, stamps }
    }
}

/// The kernel's timings in pipeline order: its stamps, with the mailbox wait of its message in
/// that stage. Times are relative to `epoch` (the compile's start); worker 0 is the caller's
/// thread and runtime worker `i` is `i + 1`.
pub fn kernel_timings(
    stamps: &[Stamp],
    message: &[MessageTiming],
    epoch: Instant,
) -> Vec<StageTiming> {
    stamps
        .iter()
        .map(|s| StageTiming {
            stage: s.stage,
            worker: s.worker.map_or(0, |w| w + 1),
            start: s.start.saturating_duration_since(epoch),
            duration: s.end.saturating_duration_since(s.start),
            queue_wait: message
                .iter()
                .find(|m| m.stage == s.stage)
                .map_or(Duration::ZERO, |m| m.queue_wait),
        })
        .collect()
}

/// The runtime's record of a module-level message (a parse section, validation, the ELF stage)
/// as spans relative to `epoch`, on the thread that ran them (0 = the caller's, `i + 1` = worker `i`).
pub fn message_spans(message: &[MessageTiming], epoch: Instant) -> Vec<StageTiming> {
    message
        .iter()
        .map(|m| StageTiming {
            stage: m.stage,
            worker: if m.worker == usize::MAX {
                0
            } else {
                m.worker + 1
            },
            start: m.start.saturating_duration_since(epoch),
            duration: m.duration,
            queue_wait: m.queue_wait,
        })
        .collect()
}

/// Wall time of one kernel: from the start of its first stage to the end of its last.
pub fn kernel_wall(timings: &[StageTiming]) -> Duration {
    let first = timings.iter().map(|t| t.start).min();
    let last = timings.iter().map(|t| t.start + t.duration).max();
    match (first, last) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => Duration::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(epoch: Instant, us: u64) -> Instant {
        epoch + Duration::from_micros(us)
    }

    #[test]
    fn stamps_become_timings_relative_to_the_epoch_with_their_mailbox_wait() {
        let epoch = Instant::now();
        let stamps = vec![
            Stamp {
                stage: "lower",
                worker: None,
                start: at(epoch, 10),
                end: at(epoch, 30),
            },
            Stamp {
                stage: "encode",
                worker: Some(2),
                start: at(epoch, 50),
                end: at(epoch, 55),
            },
        ];
        let message = vec![MessageTiming {
            stage: "encode",
            worker: 2,
            start: at(epoch, 40),
            duration: Duration::from_micros(20),
            queue_wait: Duration::from_micros(7),
        }];
        let t = kernel_timings(&stamps, &message, epoch);
        assert_eq!(
            (t[0].worker, t[0].start, t[0].duration),
            (0, Duration::from_micros(10), Duration::from_micros(20))
        );
        assert_eq!(
            (t[1].worker, t[1].queue_wait),
            (3, Duration::from_micros(7))
        );
        assert_eq!(t[0].queue_wait, Duration::ZERO);
        assert_eq!(kernel_wall(&t), Duration::from_micros(45));
        assert_eq!(kernel_wall(&[]), Duration::ZERO);
    }

    #[test]
    fn message_spans_name_the_thread_that_ran_them() {
        let epoch = Instant::now();
        let timing = |worker| MessageTiming {
            stage: "elf",
            worker,
            start: at(epoch, 40),
            duration: Duration::from_micros(20),
            queue_wait: Duration::from_micros(3),
        };
        let spans = message_spans(&[timing(usize::MAX), timing(1)], epoch);
        assert_eq!(spans.iter().map(|s| s.worker).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(
            (spans[1].stage, spans[1].start, spans[1].duration),
            ("elf", Duration::from_micros(40), Duration::from_micros(20))
        );
    }
}
