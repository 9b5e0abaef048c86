//! `--warn-on-spills` and `--warn-on-local-memory-usage`: ptxas's warnings, in its order and
//! wording, under `-w` and `-Werror` too. Oracle: ptxas 13.5 (skipped without it); the figures
//! of spilling kernels depend on the allocator and are masked, those of `.local` frames are not.

mod common;

use std::path::PathBuf;
use std::process::Output;

use regex::Regex;

use common::oracle::{ptxas_or_skip, ptxforge, repo, run, scratch_dir};

/// Stderr with the figures of spill warnings masked (`mask_frames`: frame sizes too).
fn masked(stderr: &[u8], mask_frames: bool) -> String {
    let text = String::from_utf8_lossy(stderr);
    let spills = Regex::new(r"[0-9]+ bytes spill (stores|loads)").unwrap();
    let text = spills.replace_all(&text, "N bytes spill $1");
    if !mask_frames {
        return text.into_owned();
    }
    let frame = Regex::new(r"size of stack frame: [0-9]+ bytes").unwrap();
    frame
        .replace_all(&text, "size of stack frame: N bytes")
        .into_owned()
}

#[test]
fn resource_warnings_are_ptxas_warnings() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let ours = ptxforge();
    let dir = scratch_dir("reswarn");
    let spill = repo("pipeline/driver/tests/filetests/handwritten_spill.ptx");
    let local = repo("pipeline/driver/tests/filetests/handwritten_local.ptx");
    let vadd = repo("examples/vadd.ptx");
    let both = ["--warn-on-spills", "--warn-on-local-memory-usage"];
    let cases: Vec<(Vec<&str>, &PathBuf, bool)> = vec![
        (both.to_vec(), &spill, true),
        (vec!["--warn-on-spills"], &spill, true),
        (vec!["--warn-on-local-memory-usage"], &local, false),
        (both.to_vec(), &vadd, false),
        (vec!["-w", "--warn-on-spills"], &spill, true),
        (vec!["-Werror", "--warn-on-spills"], &spill, true),
        (
            vec!["-v", "-Werror", "--warn-on-local-memory-usage"],
            &local,
            false,
        ),
    ];
    let mut warned = 0;
    for arch in ["sm_75", "sm_80", "sm_90"] {
        let arch_opt = format!("-arch={arch}");
        for (options, input, mask_frames) in &cases {
            let mut options = options.clone();
            options.push(&arch_opt);
            let theirs_out = dir.join("ptxas.cubin");
            let mine_out = dir.join("ptxforge.cubin");
            let theirs = run(&ptxas, &options, input, &theirs_out);
            let mine = run(&ours, &options, input, &mine_out);
            let what = format!("{options:?} {}", input.display());
            assert_eq!(mine.status.code(), theirs.status.code(), "{what}");
            assert_eq!(mine_out.exists(), theirs_out.exists(), "{what}");
            let (m, t) = if options.contains(&"-v") {
                // The -v lines are the verbose oracle's; here the warnings before them.
                let cut = |o: &Output| {
                    masked(&o.stderr, *mask_frames)
                        .lines()
                        .filter(|l| !l.starts_with("ptxas info") && !l.starts_with("    "))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                (cut(&mine), cut(&theirs))
            } else {
                (
                    masked(&mine.stderr, *mask_frames),
                    masked(&theirs.stderr, *mask_frames),
                )
            };
            assert_eq!(m, t, "{what}");
            warned += t.lines().count();
        }
    }
    assert!(warned >= 20, "{warned} warning lines");
}
