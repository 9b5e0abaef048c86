//! Kernels `ptxforge sim --random` found, reduced, each with the `// Rerun:` line it was written
//! with. `fixed_*.ptx`: bugs fixed since; the interpreter, our cubin and (with ptxas) ptxas's cubin
//! must agree. `open_*.ptx`: bugs not fixed yet (the file's header says which runner is at fault);
//! their verdict is printed, not asserted, so that a fix shows up as "now agrees".
//! `ptxasfold_*.ptx`: ptxas folds an instruction away and keeps a NaN payload the instruction
//! would make canonical; our cubin must agree with the interpreter and ptxas's differ from it in
//! NaN payloads only (what the random driver accepts).
//! `ptxasbug_*.ptx`: ptxas miscompiles the kernel (the header says why); our cubin must agree with
//! the interpreter; ptxas's verdict is printed, so that a ptxas that fixes it shows up.

use std::path::{Path, PathBuf};

use ptxforge_sass::nvtools;
use ptxforge_sim::random::driver::ptxas_cubin;
use ptxforge_sim::{check_cubins, compile_ours, Fill, SimRequest, Verdict};

fn found_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/random_found")
}

/// The request a found kernel's `// Rerun:` line describes.
fn request(file: &Path) -> SimRequest {
    let ptx = std::fs::read_to_string(file).unwrap();
    let rerun = ptx
        .lines()
        .find_map(|l| l.strip_prefix("// Rerun: ptxforge sim FILE "))
        .unwrap_or_else(|| panic!("{} has no '// Rerun:' line", file.display()));
    let words: Vec<&str> = rerun.split_whitespace().collect();
    let value = |flag: &str| -> &str {
        let at = words.iter().position(|w| *w == flag);
        at.and_then(|k| words.get(k + 1))
            .unwrap_or_else(|| panic!("{}: no {flag}", file.display()))
    };
    SimRequest {
        ptx: ptx.clone(),
        file_name: file.file_name().unwrap().to_string_lossy().into_owned(),
        entry: value("--entry").into(),
        sm: value("-arch").trim_start_matches("sm_").parse().unwrap(),
        block: [value("--block").parse().unwrap(), 1, 1],
        buffer_bytes: value("--buffer-bytes").parse().unwrap(),
        seed: value("--seed").parse().unwrap(),
        fill: Fill::Random,
        ..SimRequest::default()
    }
}

fn verdict(req: &SimRequest) -> Result<Verdict, String> {
    let ours = compile_ours(req)?;
    let reference = match nvtools::tool("ptxas") {
        Some(tool) => Some(ptxas_cubin(&tool, &req.ptx, req.sm)?),
        None => None,
    };
    let mut cubins: Vec<(&str, &[u8])> = Vec::new();
    if let Some(c) = &reference {
        cubins.push(("ptxas cubin", c));
    }
    cubins.push(("ptxforge cubin", &ours));
    check_cubins(req, &cubins)
}

fn found(prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(found_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".ptx")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn fixed_kernels_agree() {
    if nvtools::tool("ptxas").is_none() {
        println!("note: ptxas not found: the interpreter and ptxforge's cubin only");
    }
    let files = found("fixed_");
    assert!(!files.is_empty());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| match verdict(&request(f)) {
            Ok(Verdict::Agree) => None,
            other => Some(format!("{}: {other:?}", f.display())),
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn open_kernels_still_run() {
    for f in found("open_") {
        let req = request(&f);
        let v = verdict(&req);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        match v {
            Ok(Verdict::Agree) => println!("{name}: now agrees (move it to fixed_)"),
            Ok(v) => println!("{name}: {v}"),
            Err(e) => println!("{name}: {e}"),
        }
    }
}

#[test]
fn ptxas_folds_differ_in_nan_payloads_only() {
    let files = found("ptxasfold_");
    assert!(!files.is_empty());
    for f in files {
        let req = request(&f);
        let ours = compile_ours(&req).unwrap();
        let v = check_cubins(&req, &[("ptxforge cubin", &ours)]);
        assert_eq!(v, Ok(Verdict::Agree), "{}", f.display());
        let Some(tool) = nvtools::tool("ptxas") else {
            continue;
        };
        let theirs = ptxas_cubin(&tool, &req.ptx, req.sm).unwrap();
        match check_cubins(&req, &[("ptxas cubin", &theirs)]) {
            Ok(Verdict::Differ { mismatch, .. }) => {
                assert!(mismatch.nan_payloads_only, "{}: {mismatch}", f.display())
            }
            other => panic!("{}: ptxas's cubin: {other:?}", f.display()),
        }
    }
}

#[test]
fn ptxas_bugs_leave_ours_agreeing() {
    let files = found("ptxasbug_");
    assert!(!files.is_empty());
    for f in files {
        let req = request(&f);
        let ours = compile_ours(&req).unwrap();
        let v = check_cubins(&req, &[("ptxforge cubin", &ours)]);
        assert_eq!(v, Ok(Verdict::Agree), "{}", f.display());
        if let Some(tool) = nvtools::tool("ptxas") {
            let theirs = ptxas_cubin(&tool, &req.ptx, req.sm).unwrap();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            match check_cubins(&req, &[("ptxas cubin", &theirs)]) {
                Ok(Verdict::Agree) => println!("{name}: ptxas's cubin agrees now"),
                other => println!("{name}: ptxas's cubin: {other:?}"),
            }
        }
    }
}
