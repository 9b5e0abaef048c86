//! The runner's command line: `ptxforge sim`'s launch options, plus what lets one line of a
//! launch list serve every architecture (ptxas run here, PTX retargeted, a per-architecture seed).
//!
//! ```text
//! ptxforge-gpu FILE.ptx [-arch sm_XX] --entry NAME --grid X[,Y,Z] --block X[,Y,Z] [--args a,b,...]
//!              [--buffer-bytes N] [--fill random|small] [--seed S | --seed-per-arch BASE]
//!              [--seed-structs] [--reference-cubin F | --ptxas PATH] [--retarget] [--ulps N]
//!              [--min-sm N]
//! ptxforge-gpu --probe
//! ```

use std::path::PathBuf;
use std::process::Command;

use ptxforge_sim::SimRequest;

/// A parsed command line: the launch, and how to finish it once the architecture is known.
#[derive(Clone, Debug, Default)]
pub struct GpuRequest {
    /// The launch (`sm`, `seed`, `ptx` and `reference_cubin` are filled in by [`Self::for_arch`]).
    pub launch: SimRequest,
    /// `-arch`: the architecture to compile for (default: the GPU's).
    pub arch: Option<u32>,
    /// `--probe`: only say whether there is a GPU and which architecture.
    pub probe: bool,
    /// Oldest architecture the kernel runs on (`--min-sm`).
    pub min_sm: u32,
    reference_cubin: Option<PathBuf>,
    ptxas: Option<PathBuf>,
    retarget: bool,
    seed_per_arch: Option<u64>,
}

impl GpuRequest {
    /// The request for `sm`: the PTX read (and its `.target sm_80` made `sm_XX` with
    /// `--retarget`, as the sim kernel tests do), the seed, and ptxas's cubin.
    pub fn for_arch(&self, sm: u32) -> Result<SimRequest, String> {
        let mut req = self.launch.clone();
        req.sm = sm;
        if let Some(base) = self.seed_per_arch {
            req.seed = base + sm as u64;
        }
        let bytes = std::fs::read(&req.file_name)
            .map_err(|_| format!("Input file '{}' could not be opened", req.file_name))?;
        req.ptx = String::from_utf8_lossy(&bytes).into_owned();
        if self.retarget {
            req.ptx = req
                .ptx
                .replacen("\n.target sm_80\n", &format!("\n.target sm_{sm}\n"), 1);
        }
        if let Some(path) = &self.reference_cubin {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
            req.reference_cubin = Some(bytes);
        }
        if let Some(ptxas) = &self.ptxas {
            req.reference_cubin = Some(ptxas_cubin(ptxas, &req)?);
        }
        Ok(req)
    }
}

/// ptxas's cubin for `req.ptx` on `req.sm` (through a temporary file).
fn ptxas_cubin(ptxas: &PathBuf, req: &SimRequest) -> Result<Vec<u8>, String> {
    let stem = format!("ptxforge-gpu-{}-{}", std::process::id(), req.entry);
    let input = std::env::temp_dir().join(format!("{stem}.ptx"));
    let output = std::env::temp_dir().join(format!("{stem}.cubin"));
    std::fs::write(&input, &req.ptx).map_err(|e| format!("cannot write {input:?}: {e}"))?;
    let run = Command::new(ptxas)
        .arg(format!("-arch=sm_{}", req.sm))
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", ptxas.display()));
    let _ = std::fs::remove_file(&input);
    let run = run?;
    if !run.status.success() {
        return Err(format!(
            "ptxas rejected {}: {}",
            req.file_name,
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    }
    let cubin = std::fs::read(&output).map_err(|e| format!("ptxas wrote no cubin: {e}"));
    let _ = std::fs::remove_file(&output);
    cubin
}

/// Reads the options (nothing is opened yet).
pub fn parse_args(argv: &[String]) -> Result<GpuRequest, String> {
    let mut r = GpuRequest::default();
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) if word.starts_with('-') => (n, Some(v.to_string())),
            _ => (word.as_str(), None),
        };
        if !name.starts_with('-') {
            if !r.launch.file_name.is_empty() {
                return Err(format!(
                    "one input file only ('{}' and '{name}')",
                    r.launch.file_name
                ));
            }
            r.launch.file_name = name.to_string();
            continue;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next().cloned())
                .ok_or(format!("'{name}' needs a value"))
        };
        let req = &mut r.launch;
        match name {
            "-arch" | "--gpu-name" => r.arch = Some(arch_number(&value()?)?),
            "--entry" | "-e" => req.entry = value()?,
            "--grid" => req.grid = ptxforge_sim::parse_dims(&value()?)?,
            "--block" => req.block = ptxforge_sim::parse_dims(&value()?)?,
            "--args" => {
                req.scalar_args = value()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "--buffer-bytes" => req.buffer_bytes = number(&value()?)? as usize,
            "--seed" => req.seed = number(&value()?)?,
            "--seed-per-arch" => r.seed_per_arch = Some(number(&value()?)?),
            "--seed-structs" => req.seed_structs = true,
            "--ulps" => req.ulps = number(&value()?)? as u32,
            "--fill" => req.fill = value()?.parse()?,
            "--reference-cubin" => r.reference_cubin = Some(value()?.into()),
            "--ptxas" => r.ptxas = Some(value()?.into()),
            "--retarget" => r.retarget = true,
            "--min-sm" => r.min_sm = number(&value()?)? as u32,
            "--probe" => r.probe = true,
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if r.probe {
        return Ok(r);
    }
    if r.launch.file_name.is_empty() {
        return Err("no input file".into());
    }
    if r.launch.entry.is_empty() {
        return Err("--entry is required".into());
    }
    Ok(r)
}

fn arch_number(arch: &str) -> Result<u32, String> {
    arch.strip_prefix("sm_")
        .and_then(|n| n.parse().ok())
        .ok_or(format!("'{arch}': expected sm_XX"))
}

/// A decimal or `0x` hexadecimal number.
fn number(v: &str) -> Result<u64, String> {
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
    .ok_or(format!("'{v}': expected a number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_launch_line_reads_like_ptxforge_sim() {
        let r = parse_args(&words(
            "k.ptx --entry e --grid 2,3 --block=64 --args 7,-1 --fill small --ulps 4 \
             --seed-per-arch 0x5eed --seed-structs --retarget --min-sm 80",
        ))
        .unwrap();
        assert_eq!(r.launch.entry, "e");
        assert_eq!(r.launch.grid, [2, 3, 1]);
        assert_eq!(r.launch.block, [64, 1, 1]);
        assert_eq!(r.launch.scalar_args, ["7", "-1"]);
        assert_eq!(r.launch.fill, ptxforge_sim::Fill::Small);
        assert_eq!(
            (r.launch.ulps, r.min_sm, r.seed_per_arch),
            (4, 80, Some(0x5eed))
        );
        assert!(r.launch.seed_structs && r.retarget && r.arch.is_none());
        assert!(parse_args(&words("k.ptx")).is_err());
        assert!(parse_args(&words("k.ptx --entry e --grid 0")).is_err());
        assert!(parse_args(&words("--probe")).unwrap().probe);
    }
}
