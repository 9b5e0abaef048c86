//! Writes `benches/ISA_FAMILIES.md`: every PTX ISA instruction family of `benches/isa/families.txt`
//! compiled by ptxforge at each target. `--check-ptxas` first checks every snippet with NVIDIA's
//! ptxas (accepted exactly where the ISA allows it), so that a "rejected" means ptxforge's verdict.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin isa_family_table -- [--check-ptxas] [--stdout]`

use std::path::PathBuf;
use std::process::Command;

use ptxforge_benches::isa_families::{
    isa_allows, parse_families, render_table, survey, wrap_snippet, Family, FAMILIES_TXT,
};
use ptxforge_sass::arch::TARGETS;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let families = parse_families(FAMILIES_TXT).unwrap_or_else(|e| panic!("families.txt: {e}"));
    if args.iter().any(|a| a == "--check-ptxas") {
        let bad = check_with_ptxas(&families);
        if bad > 0 {
            eprintln!(
                "{bad} snippet/target pairs where ptxas disagrees with the ISA's first target"
            );
            std::process::exit(1);
        }
    }
    let table = render_table(&families, &survey(&families));
    if args.iter().any(|a| a == "--stdout") {
        print!("{table}");
        return;
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ISA_FAMILIES.md");
    std::fs::write(&path, table).unwrap();
    println!("wrote {}", path.display());
}

/// NVIDIA's ptxas, from `$PTXFORGE_NV` or the cache of `scripts/fetch-nvidia-tools.sh`.
fn ptxas() -> Option<PathBuf> {
    let root = std::env::var_os("PTXFORGE_NV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|h| PathBuf::from(h).join(".cache/ptxforge/nvidia-13.5.37/nvidia/cu13"))
        })?;
    let p = root.join("bin/ptxas");
    p.exists().then_some(p)
}

/// Runs ptxas on every snippet at every target; prints and counts the pairs where ptxas accepts
/// a snippet the ISA does not allow there, or rejects one it does.
fn check_with_ptxas(families: &[Family]) -> usize {
    let Some(ptxas) = ptxas() else {
        eprintln!("skipped: no ptxas (set PTXFORGE_NV)");
        return 0;
    };
    let dir = std::env::temp_dir().join(format!("isa-families-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bad = 0;
    for f in families {
        for &t in &TARGETS {
            let stem: String = f
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let file = dir.join(format!("{stem}.{t}.ptx"));
            std::fs::write(&file, wrap_snippet(f, t)).unwrap();
            let out = Command::new(&ptxas)
                .arg(format!("-arch={t}"))
                .arg(&file)
                .arg("-o")
                .arg(dir.join("out.cubin"))
                .output()
                .expect("run ptxas");
            let accepted = out.status.success();
            if accepted != isa_allows(&f.first, t) {
                bad += 1;
                let why = String::from_utf8_lossy(&out.stderr);
                let why = why.lines().find(|l| l.contains("error")).unwrap_or("");
                println!(
                    "{}\t{t}\tptxas {}\t{why}",
                    f.name,
                    if accepted { "accepts" } else { "rejects" }
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    bad
}
