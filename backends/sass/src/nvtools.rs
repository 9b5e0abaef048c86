//! Finds NVIDIA's reference tools (ptxas, nvdisasm, cuobjdump, nvcc) for oracle tests and benches.
//!
//! Lookup order: `$PTXFORGE_NV` (the folder holding `bin/`), then the cache that
//! `scripts/fetch-nvidia-tools.sh` fills. Callers print `skipped: ...` when a tool is absent.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    let cache = std::env::var_os("PTXFORGE_NV_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
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

/// Compiles the PTX file `ptx` with the reference ptxas for `sm_<sm>` and returns the cubin: None
/// when ptxas is not installed, `Some(Err(stderr))` when it rejects the input.
pub fn ptxas_cubin(ptx: &Path, sm: u32) -> Option<Result<Vec<u8>, String>> {
    ptxas_cubin_for(ptx, &format!("sm_{sm}"))
}

/// As [`ptxas_cubin`], for an architecture named in full (`sm_90a`).
pub fn ptxas_cubin_for(ptx: &Path, arch: &str) -> Option<Result<Vec<u8>, String>> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let ptxas = tool("ptxas")?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!("ptxforge-ptxas-{}-{n}.cubin", std::process::id()));
    let run = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(&out)
        .output();
    let result = match run {
        Err(e) => Err(format!("ptxas did not run: {e}")),
        Ok(o) if !o.status.success() => Err(String::from_utf8_lossy(&o.stderr).into_owned()),
        Ok(_) => std::fs::read(&out).map_err(|e| format!("ptxas wrote no cubin: {e}")),
    };
    let _ = std::fs::remove_file(&out);
    Some(result)
}

/// Whether nvdisasm decodes every instruction of `cubin` (no "error" on its stderr): None when
/// nvdisasm is not installed, `Some(Err(stderr))` when it rejects the code.
pub fn nvdisasm_accepts(cubin: &[u8]) -> Option<Result<(), String>> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let nvdisasm = tool("nvdisasm")?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("ptxforge-dis-{}-{n}.cubin", std::process::id()));
    if let Err(e) = std::fs::write(&path, cubin) {
        return Some(Err(format!("cannot write {}: {e}", path.display())));
    }
    let run = Command::new(nvdisasm).arg(&path).output();
    let _ = std::fs::remove_file(&path);
    Some(match run {
        Err(e) => Err(format!("nvdisasm did not run: {e}")),
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
            match o.status.success() && !stderr.contains("error") {
                true => Ok(()),
                false => Err(stderr),
            }
        }
    })
}
