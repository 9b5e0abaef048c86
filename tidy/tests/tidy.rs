//! The repository against its rules (see `src/lib.rs`): each test names every file or crate that
//! breaks its rule.

use ptxforge_tidy::*;

fn sources() -> Vec<(String, String)> {
    let root = repository_root();
    let files = rust_files(&root);
    assert!(files.len() > 100, "found only {} .rs files", files.len());
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p)).unwrap_or_default();
            (p.display().to_string(), text)
        })
        .collect()
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let files = sources();
    let missing = missing_module_docs(&files);
    assert!(
        missing.is_empty(),
        "these files do not open with a `//!` line saying what they are for: {missing:#?}"
    );
}

#[test]
fn no_rust_file_is_too_long() {
    let files = sources();
    let long = too_long(&files, MAX_LINES, LONG_FILES);
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines (split by concern, or list in LONG_FILES with a reason): {long:#?}"
    );
    let stale = stale_allowances(&files, MAX_LINES, LONG_FILES);
    assert!(
        stale.is_empty(),
        "LONG_FILES entries without a reason or no longer over {MAX_LINES} lines: {stale:?}"
    );
}

#[test]
fn architecture_names_every_crate() {
    let root = repository_root();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace_members(&cargo);
    assert!(members.len() > 5, "read members {members:?}");
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let unmapped = unmapped_members(&members, &map);
    assert!(
        unmapped.is_empty(),
        "ARCHITECTURE.md has no row for these workspace members: {unmapped:?}"
    );
}
