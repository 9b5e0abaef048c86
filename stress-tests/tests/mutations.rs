//! Robustness: thousands of mutated filetest modules (bytes flipped, lines dropped or repeated,
//! truncated), and mutated kernels of the corpus for a bounded time (`PTXFORGE_STRESS_SECONDS`,
//! default 20), never panic, hang or produce an internal error: every failure is a diagnostic.

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    match rng.below(4) {
        0 => {
            let i = rng.below(lines.len());
            lines.remove(i);
        }
        1 => {
            let i = rng.below(lines.len());
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let i = rng.below(lines.len());
            let mut bytes = lines[i].clone().into_bytes();
            if !bytes.is_empty() {
                let j = rng.below(bytes.len());
                const ALPHABET: &[u8] = b"%{}[];,.0123456789abcxyz@!|-+ \t";
                bytes[j] = ALPHABET[rng.below(ALPHABET.len())];
            }
            lines[i] = String::from_utf8_lossy(&bytes).into_owned();
        }
        _ => lines.truncate(rng.below(lines.len())),
    }
    lines.join("\n")
}

#[test]
fn mutated_modules_fail_with_diagnostics_only() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pipeline/driver/tests/filetests");
    let mut inputs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    inputs.sort();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut internal = Vec::new();
    for round in 0..6000 {
        let base = &inputs[round % inputs.len()];
        let src = mutate(base, &mut rng);
        let sm = [75, 80, 86, 89, 90][rng.below(5)];
        let opts = CompileOptions {
            sm: Sm::new(sm),
            check_hazards: true,
            ..CompileOptions::default()
        };
        let out = compile_module(&src, "m.ptx", &opts);
        if let Some(d) = out
            .diagnostics
            .iter()
            .find(|d| d.message.contains("internal error"))
        {
            internal.push(format!("round {round} sm_{sm}: {d}"));
        }
    }
    assert!(
        internal.is_empty(),
        "{} internal errors, first: {}",
        internal.len(),
        internal[0]
    );
}

/// A corpus module cut into its header (everything before the first kernel) and its kernels.
fn header_and_kernels(src: &str) -> (String, Vec<String>) {
    let starts: Vec<usize> = src
        .match_indices("\n.visible .entry ")
        .chain(src.match_indices("\n.entry "))
        .map(|(i, _)| i + 1)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let Some(&first) = starts.first() else {
        return (src.to_string(), Vec::new());
    };
    let mut kernels = Vec::new();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(src.len());
        kernels.push(src[s..end].to_string());
    }
    (src[..first].to_string(), kernels)
}

/// Compiles on another thread; `None` when it takes longer than `limit` (a hang).
fn compile_within(
    src: String,
    sm: u32,
    limit: std::time::Duration,
) -> Option<ptxforge_pipeline::CompileOutput> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let opts = CompileOptions {
            sm: Sm::new(sm),
            check_hazards: true,
            ..CompileOptions::default()
        };
        let _ = tx.send(compile_module(&src, "m.ptx", &opts));
    });
    rx.recv_timeout(limit).ok()
}

#[test]
fn mutated_corpus_kernels_fail_with_diagnostics_only() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let files = ptxforge_benches::corpus_files(&dir);
    if files.is_empty() {
        println!("skipped: no corpus at {}", dir.display());
        return;
    }
    let seconds: u64 = std::env::var("PTXFORGE_STRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let modules: Vec<(u32, String, Vec<String>)> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .filter_map(|src| {
            let sm = ptxforge_benches::module_target(&src)?
                .parse::<Sm>()
                .ok()?
                .num;
            let (header, kernels) = header_and_kernels(&src);
            (sm <= 90 && !kernels.is_empty()).then_some((sm, header, kernels))
        })
        .collect();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    let mut rng = Rng(0xc0ffee_5eed_2026);
    let (mut rounds, mut internal) = (0, Vec::new());
    while std::time::Instant::now() < deadline {
        let (sm, header, kernels) = &modules[rng.below(modules.len())];
        let kernel = &kernels[rng.below(kernels.len())];
        let src = mutate(&format!("{header}{kernel}"), &mut rng);
        let Some(out) = compile_within(src, *sm, std::time::Duration::from_secs(60)) else {
            panic!("round {rounds}: a mutated corpus kernel did not finish in 60 s");
        };
        if let Some(d) = out
            .diagnostics
            .iter()
            .find(|d| d.message.contains("internal error"))
        {
            internal.push(format!("round {rounds} sm_{sm}: {d}"));
        }
        rounds += 1;
    }
    println!("{rounds} mutated corpus kernels in {seconds} s");
    assert!(
        internal.is_empty(),
        "{} internal errors in {rounds} rounds, first: {}",
        internal.len(),
        internal[0]
    );
}
