//! nvdisasm as an oracle: decode raw instruction words and normalise the text like [`crate::print`]
//! (address column, `;` and anything after it, such as our control-bit comment, are dropped).

use std::process::Command;

use crate::arch::Sm;
use crate::nvtools;

/// Normalises one nvdisasm line: drops the address column, the trailing `;`, and extra spaces.
pub fn normalise(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("/*")?.split_once("*/")?.1;
    let text = rest.split(';').next().unwrap_or("").trim();
    Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Decodes `code` (16-byte words) with `nvdisasm -b SMxx`; `None` when nvdisasm is absent.
/// `Some(Err)` carries nvdisasm's complaint.
pub fn nvdisasm_raw(sm: Sm, code: &[u8]) -> Option<Result<Vec<String>, String>> {
    let nvdisasm = nvtools::tool("nvdisasm")?;
    let path = std::env::temp_dir().join(format!(
        "ptxforge-raw-{}-{:?}.bin",
        std::process::id(),
        std::thread::current().id()
    ));
    if std::fs::write(&path, code).is_err() {
        return Some(Err("cannot write temp file".into()));
    }
    let out = Command::new(nvdisasm)
        .arg("-b")
        .arg(sm.nvdisasm_name())
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let out = match out {
        Ok(o) => o,
        Err(e) => return Some(Err(e.to_string())),
    };
    if !out.status.success() {
        return Some(Err(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    Some(Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(normalise)
        .collect()))
}
