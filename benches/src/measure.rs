//! Runs a compiler as a child process and measures it: wall time, CPU time (user + system) and
//! peak resident memory, all read from the kernel's accounting of that one child (`wait4`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One measured run of a child process.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_rss_kb: u64,
    pub success: bool,
}

/// Runs `exe args...` with its output thrown away and returns what it cost.
pub fn measure(exe: &Path, args: &[String]) -> std::io::Result<Run> {
    let start = Instant::now();
    let child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: all-zero bytes are a valid `rusage` (plain integers and timevals).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (the `Child` is never waited on: dropping
    // it does not reap); `status` and `usage` are valid, writable locals.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    if rc != pid {
        return Err(std::io::Error::last_os_error());
    }
    let seconds = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok(Run {
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_rss_kb: usage.ru_maxrss as u64,
        success: libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
    })
}

/// The median of some durations or sizes (the upper middle one of an even count).
pub fn median<T: Copy + Ord>(values: &[T]) -> T {
    let mut v = values.to_vec();
    v.sort();
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_measured_and_its_status_kept() {
        let ok = measure(Path::new("/bin/sh"), &["-c".into(), "exit 0".into()]).unwrap();
        assert!(ok.success);
        assert!(ok.peak_rss_kb > 0);
        let bad = measure(Path::new("/bin/sh"), &["-c".into(), "exit 3".into()]).unwrap();
        assert!(!bad.success);
    }

    #[test]
    fn cpu_time_counts_the_child_work() {
        let busy = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done";
        let run = measure(Path::new("/bin/sh"), &["-c".into(), busy.into()]).unwrap();
        assert!(run.cpu > Duration::from_millis(20), "{run:?}");
        assert!(run.wall >= run.cpu / 2, "{run:?}");
    }

    #[test]
    fn median_takes_the_middle() {
        assert_eq!(median(&[3, 1, 2]), 2);
        assert_eq!(median(&[4, 1, 3, 2]), 3);
    }
}
