//! The rules of the source tree, as functions that list what breaks them (`tests/tidy.rs` runs
//! them over the repository, in the spirit of rust-analyzer's tidy test):
//!
//! - every tracked `.rs` file opens with a `//!` line saying what it is for;
//! - no `.rs` file is over [`MAX_LINES`] lines unless [`LONG_FILES`] lists it with a reason;
//! - `ARCHITECTURE.md` names every workspace member (read from the root `Cargo.toml`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The most lines a `.rs` file may have: longer files are split by concern.
pub const MAX_LINES: usize = 1500;

/// Files allowed over [`MAX_LINES`], each with the reason (paths relative to the repository root).
pub const LONG_FILES: &[(&str, &str)] = &[(
    "backends/emu/tests/common/cases.rs",
    "the emulator's table of test cases, which several branches are adding to now; to be split by \
         instruction family once they are merged (issue 18, test support)",
)];

/// The repository root (this crate's parent folder).
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tidy/ sits in the repository root")
        .to_path_buf()
}

/// The `.rs` files git tracks under `root` (relative paths), or, where git cannot say (no git,
/// or not a checkout), every `.rs` file below `root` outside `target/` and hidden folders.
pub fn rust_files(root: &Path) -> Vec<PathBuf> {
    let tracked = Command::new("git")
        .args(["ls-files", "-z", "--", "*.rs"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success());
    let mut files = match tracked {
        Some(out) => out
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
            .filter(|p| root.join(p).is_file())
            .collect(),
        None => {
            let mut found = Vec::new();
            walk(root, root, &mut found);
            found
        }
    };
    files.sort();
    files
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(root, &path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
}

/// Whether a file's text opens with a `//!` line.
pub fn opens_with_module_doc(text: &str) -> bool {
    text.lines().next().is_some_and(|l| l.starts_with("//!"))
}

/// Of `(path, text)` files, those that do not open with a `//!` line.
pub fn missing_module_docs<'a>(files: &'a [(String, String)]) -> Vec<&'a str> {
    files
        .iter()
        .filter(|(_, text)| !opens_with_module_doc(text))
        .map(|(path, _)| path.as_str())
        .collect()
}

/// Of `(path, text)` files, those over `max` lines that `allowed` does not list, with their
/// line counts.
pub fn too_long<'a>(
    files: &'a [(String, String)],
    max: usize,
    allowed: &[(&str, &str)],
) -> Vec<(&'a str, usize)> {
    files
        .iter()
        .map(|(path, text)| (path.as_str(), text.lines().count()))
        .filter(|&(path, lines)| lines > max && !allowed.iter().any(|(p, _)| *p == path))
        .collect()
}

/// Entries of `allowed` whose reason is empty, or whose file is no longer over `max` lines
/// (or is gone): an allow-list entry must keep earning its place.
pub fn stale_allowances<'a>(
    files: &[(String, String)],
    max: usize,
    allowed: &[(&'a str, &str)],
) -> Vec<&'a str> {
    allowed
        .iter()
        .filter(|(path, reason)| {
            let long = files
                .iter()
                .any(|(p, text)| p == path && text.lines().count() > max);
            reason.trim().is_empty() || !long
        })
        .map(|(path, _)| *path)
        .collect()
}

/// The `members` of a `[workspace]` table, read from `Cargo.toml` text (one quoted path per entry).
pub fn workspace_members(cargo_toml: &str) -> Vec<String> {
    let Some(start) = cargo_toml.find("members") else {
        return Vec::new();
    };
    let rest = &cargo_toml[start..];
    let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .map(|m| m.trim().trim_matches('"').trim_end_matches('/').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// The members that `architecture` (the text of `ARCHITECTURE.md`) does not name as a path in
/// backquotes, `` `runtime/` ``.
pub fn unmapped_members<'a>(members: &'a [String], architecture: &str) -> Vec<&'a str> {
    members
        .iter()
        .filter(|m| !architecture.contains(&format!("`{m}/`")))
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn a_file_without_a_module_doc_is_reported() {
        let fs = files(&[
            ("a.rs", "//! What a is for.\nfn a() {}\n"),
            ("b.rs", "// not a module doc\nfn b() {}\n"),
            ("c.rs", "\n//! too late\n"),
            ("d.rs", ""),
        ]);
        assert_eq!(missing_module_docs(&fs), ["b.rs", "c.rs", "d.rs"]);
    }

    #[test]
    fn a_long_file_is_reported_unless_allowed() {
        let long = "//! x\n".repeat(11);
        let fs = files(&[
            ("long.rs", &long),
            ("short.rs", "//! x\n"),
            ("ok.rs", &long),
        ]);
        assert_eq!(
            too_long(&fs, 10, &[("ok.rs", "a table")]),
            [("long.rs", 11)]
        );
        assert!(too_long(&fs, 11, &[]).is_empty());
    }

    #[test]
    fn an_allowance_needs_a_reason_and_a_long_file() {
        let long = "//! x\n".repeat(11);
        let fs = files(&[("long.rs", &long), ("short.rs", "//! x\n")]);
        let allowed = [
            ("long.rs", "a table"),
            ("short.rs", "was long"),
            ("gone.rs", "deleted"),
            ("long.rs", " "),
        ];
        assert_eq!(
            stale_allowances(&fs, 10, &allowed),
            ["short.rs", "gone.rs", "long.rs"]
        );
    }

    #[test]
    fn members_are_read_and_each_must_be_named() {
        let toml = "[workspace]\nresolver = \"2\"\nmembers = [\n    \"runtime\",\n    \"pipeline/ptx\",\n    \"cli\",\n]\n\n[workspace.package]\n";
        let members = workspace_members(toml);
        assert_eq!(members, ["runtime", "pipeline/ptx", "cli"]);
        let map = "| `runtime/` | ... |\n| `pipeline/ptx/` | ... |\nthe cli crate\n";
        assert_eq!(unmapped_members(&members, map), ["cli"]);
        assert!(unmapped_members(&members, &format!("{map}| `cli/` |")).is_empty());
    }
}
