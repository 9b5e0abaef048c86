//! Test support for the jobserver tests: a fifo jobserver holding some tokens, counting the tokens
//! left in it, and reading a process's `PTXFORGE_JOBSERVER_STATS` line.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A new fifo `js.fifo` in `dir` holding `tokens` bytes, and a descriptor kept open for reading
/// and writing (hold it while the test runs, so that readers never see the fifo's end).
pub fn fifo_with_tokens(dir: &Path, tokens: usize) -> (PathBuf, std::fs::File) {
    let path = dir.join("js.fifo");
    let _ = std::fs::remove_file(&path);
    assert!(Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap()
        .success());
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut f, &vec![b'+'; tokens]).unwrap();
    (path, f)
}

/// Reads (and so takes out) every token in the fifo; how many there were.
pub fn tokens_in(path: &Path) -> usize {
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(0o4000) // O_NONBLOCK
        .open(path)
        .unwrap();
    let mut buf = [0u8; 256];
    f.read(&mut buf).unwrap_or(0)
}

/// The most sections one process ran at once, from its `PTXFORGE_JOBSERVER_STATS` line.
pub fn max_concurrent(stderr: &str) -> usize {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("ptxforge jobserver:"))
        .and_then(|l| {
            l.split("max ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no jobserver stats in {stderr}"))
}
