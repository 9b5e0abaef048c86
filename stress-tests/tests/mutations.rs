//! Robustness: thousands of mutated filetest modules (bytes flipped, lines dropped or repeated,
//! truncated) never panic and never produce an internal error: every failure is a diagnostic.

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
