//! Finds NVIDIA's reference tools (ptxas, nvdisasm, cuobjdump, nvcc) for oracle tests and benches.
//!
//! Lookup order: `$PTXFORGE_NV` (the folder holding `bin/`), then the cache that
//! `scripts/fetch-nvidia-tools.sh` fills. Callers print `skipped: ...` when a tool is absent.

use std::path::PathBuf;

/// The reference toolkit version the oracles are pinned to.
pub const NV_VERSION: &str = "13.5.37";

/// The folder holding `bin/ptxas` etc., if the reference tools are installed.
pub fn nv_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PTXFORGE_NV") {
        let dir = PathBuf::from(dir);
        if dir.join("bin").is_dir() {
            return Some(dir);
        }
    }
    let cache = std::env::var_os("PTXFORGE_NV_CACHE").map(PathBuf::from).or_else(|| {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(base.join("ptxforge").join(format!("nvidia-{NV_VERSION}")))
    })?;
    let dir = cache.join("nvidia").join("cu13");
    dir.join("bin").is_dir().then_some(dir)
}

/// Path of one reference tool (`"ptxas"`, `"nvdisasm"`, `"cuobjdump"`, `"nvcc"`), if present.
pub fn tool(name: &str) -> Option<PathBuf> {
    let path = nv_root()?.join("bin").join(name);
    path.is_file().then_some(path)
}
