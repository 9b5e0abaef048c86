//! `-lineinfo` (issues 22 and 25): for PTX with `.file`/`.loc` directives (nvcc -lineinfo's in
//! `tests/lineinfo/`, Triton's in `tests/clients/triton/`, and nvcc -lineinfo's of the CUDA C in
//! `benches/gen-ptx/` when nvcc is here; the corpus has no `.loc`), `nvdisasm -g` must print at our instructions the source lines the `.loc`
//! directives name, the same lines as at ptxas's instructions where the two codes match (aligned
//! by mnemonic), and `.nv_debug_ptx_txt` must equal ptxas's. The cubins are deterministic: the
//! same bytes at any thread count and from any folder or file name; as ptxas, the tables follow
//! the `.loc` directives with or without `-lineinfo`, and `--suppress-debug-info` leaves them
//! out. Skipped (saying so) without NVIDIA's tools.

mod common;

use common::clients::{nv_tool, scratch};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One instruction as `nvdisasm -g` prints it: mnemonic and the source line annotated before it.
#[derive(Clone, Debug, PartialEq)]
struct Annotated {
    mnemonic: String,
    line: Option<(String, u32)>,
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The test's inputs: `(ptx, sm)`.
fn inputs() -> Vec<(PathBuf, String)> {
    let mut v = vec![(
        manifest().join("tests/lineinfo/kernels.sm_80.ptx"),
        "sm_80".to_string(),
    )];
    let triton = manifest().join("tests/clients/triton");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&triton)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    names.sort();
    for p in names {
        let sm = p.to_str().unwrap().rsplit('.').nth(1).unwrap().to_string();
        v.push((p, sm));
    }
    v
}

/// CUDA C of the generated-PTX survey (`benches/gen-ptx/`) through `nvcc -lineinfo -ptx`, when
/// nvcc is here: kernels nobody wrote for this test.
fn nvcc_inputs(dir: &Path) -> Vec<(PathBuf, String)> {
    let Some(nvcc) = nv_tool("nvcc") else {
        println!("nvcc not found: only the PTX kept in the repository");
        return Vec::new();
    };
    let mut v = Vec::new();
    for name in ["user_kernels", "half_bf16", "atomics_warp", "wmma_api"] {
        let cu = manifest().join(format!("../benches/gen-ptx/{name}.cu"));
        let ptx = dir.join(format!("{name}.sm_80.ptx"));
        let ok = Command::new(&nvcc)
            .args(["-lineinfo", "-ptx", "-arch=sm_80"])
            .arg(&cu)
            .arg("-o")
            .arg(&ptx)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "nvcc -lineinfo -ptx {name}.cu failed");
        v.push((ptx, "sm_80".to_string()));
    }
    v
}

fn ptxforge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .args(args)
        .output()
        .unwrap()
}

fn compile(program: &Path, ptx: &Path, sm: &str, out: &Path, extra: &[&str]) -> bool {
    Command::new(program)
        .args(extra)
        .arg(format!("-arch={sm}"))
        .arg(ptx)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
        .status
        .success()
}

/// `nvdisasm -g`'s instructions per function, each with the line annotated before it.
fn annotated(nvdisasm: &Path, cubin: &Path) -> Vec<(String, Vec<Annotated>)> {
    let o = Command::new(nvdisasm)
        .args(["-g", "-c"])
        .arg(cubin)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "nvdisasm -g: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    let mut funcs: Vec<(String, Vec<Annotated>)> = Vec::new();
    let mut line = None;
    for l in text.lines() {
        let t = l.trim();
        if let Some(name) = t.strip_prefix(".text.").and_then(|n| n.strip_suffix(':')) {
            funcs.push((name.to_string(), Vec::new()));
            line = None;
        } else if let Some(rest) = t.strip_prefix("//## File \"") {
            let (file, rest) = rest.split_once('"').unwrap();
            let n = rest
                .trim_start_matches(", line ")
                .split_whitespace()
                .next()
                .unwrap();
            line = Some((file.to_string(), n.parse().unwrap()));
        } else if t.starts_with("/*") && t.contains("*/") {
            let body = t.split_once("*/").unwrap().1.trim();
            let body = body.trim_start_matches(|c: char| c == '@' || c == '!');
            let body = if t.split_once("*/").unwrap().1.trim().starts_with('@') {
                body.split_once(' ').map_or(body, |(_, b)| b).trim()
            } else {
                body
            };
            let mnemonic = body
                .split(|c: char| c == ' ' || c == ';')
                .next()
                .unwrap()
                .to_string();
            if let Some((_, f)) = funcs.last_mut() {
                f.push(Annotated {
                    mnemonic,
                    line: line.clone(),
                });
            }
        }
    }
    funcs
}

/// The instructions before the trailer (the self-branch and the NOPs after the last EXIT/BRA).
fn body(f: &[Annotated]) -> &[Annotated] {
    let end = f
        .iter()
        .rposition(|a| a.mnemonic != "NOP")
        .map_or(0, |i| i + 1);
    let end = match f.get(end.wrapping_sub(1)) {
        Some(a) if a.mnemonic == "BRA" => end - 1,
        _ => end,
    };
    &f[..end]
}

/// Pairs of indices of a longest common subsequence of the two mnemonic sequences.
fn aligned(a: &[Annotated], b: &[Annotated]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let mut t = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i][j] = if a[i].mnemonic == b[j].mnemonic {
                t[i + 1][j + 1] + 1
            } else {
                t[i + 1][j].max(t[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        if a[i].mnemonic == b[j].mnemonic {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if t[i + 1][j] >= t[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// The shortest run of consecutive aligned instructions counted as the same code.
const MIN_RUN: usize = 4;

/// The pairs of `pairs` in runs of at least `min` consecutive instructions on both sides (an
/// instruction aligned alone is most often another instance of its mnemonic).
fn in_runs(pairs: &[(usize, usize)], min: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=pairs.len() {
        let continues =
            k < pairs.len() && pairs[k].0 == pairs[k - 1].0 + 1 && pairs[k].1 == pairs[k - 1].1 + 1;
        if !continues {
            if k - start >= min {
                out.extend_from_slice(&pairs[start..k]);
            }
            start = k;
        }
    }
    out
}

/// `(file name, line)` of every `.loc` of `ptx` (own and `inlined_at` positions).
fn loc_lines(ptx: &str) -> BTreeSet<(String, u32)> {
    let mut files = std::collections::HashMap::new();
    for l in ptx.lines() {
        let mut w = l.split_whitespace();
        if w.next() == Some(".file") {
            let n: u64 = w.next().unwrap().parse().unwrap();
            let name = l.split('"').nth(1).unwrap().to_string();
            files.insert(n, name);
        }
    }
    let mut out = BTreeSet::new();
    for l in ptx.lines() {
        let l = l.split("//").next().unwrap();
        let Some(rest) = l.trim().strip_prefix(".loc") else {
            continue;
        };
        for part in rest.split(',') {
            let nums: Vec<u64> = part
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            if nums.len() == 3 {
                if let Some(f) = files.get(&nums[0]) {
                    out.insert((f.clone(), nums[1] as u32));
                }
            }
        }
    }
    out
}

/// A section's bytes, by name (read by hand: ptxas may put the section header table at an
/// offset that is not 8-aligned, which the `object` crate refuses).
fn section(cubin: &[u8], name: &str) -> Option<Vec<u8>> {
    let u16_at =
        |o: usize| Some(u16::from_le_bytes(cubin.get(o..o + 2)?.try_into().ok()?) as usize);
    let u32_at =
        |o: usize| Some(u32::from_le_bytes(cubin.get(o..o + 4)?.try_into().ok()?) as usize);
    let u64_at =
        |o: usize| Some(u64::from_le_bytes(cubin.get(o..o + 8)?.try_into().ok()?) as usize);
    let (shoff, count, names) = (u64_at(0x28)?, u16_at(0x3c)?, u16_at(0x3e)?);
    let header = |i: usize| shoff + 64 * i;
    let names_at = u64_at(header(names) + 24)?;
    (0..count).find_map(|i| {
        let h = header(i);
        let at = names_at + u32_at(h)?;
        let end = at + cubin.get(at..)?.iter().position(|&b| b == 0)?;
        (&cubin[at..end] == name.as_bytes()).then(|| {
            let (offset, size) = (u64_at(h + 24)?, u64_at(h + 32)?);
            Some(cubin.get(offset..offset + size)?.to_vec())
        })?
    })
}

#[test]
fn nvdisasm_prints_the_loc_lines_at_our_instructions() {
    let (Some(ptxas), Some(nvdisasm)) = (nv_tool("ptxas"), nv_tool("nvdisasm")) else {
        println!("skipped: ptxas or nvdisasm not found (set PTXFORGE_NV)");
        return;
    };
    let dir = scratch("lineinfo");
    let mut all = inputs();
    all.extend(nvcc_inputs(&dir));
    let (mut modules, mut matched, mut same, mut ours_total, mut ours_lined) = (0, 0, 0, 0, 0);
    let mut same_code = (0, 0);
    for (n, (ptx, sm)) in all.iter().enumerate() {
        let ours = dir.join(format!("{n}.ours.cubin"));
        let theirs = dir.join(format!("{n}.ptxas.cubin"));
        let name = ptx.file_name().unwrap().to_string_lossy().to_string();
        if !compile(&ptxas, ptx, sm, &theirs, &["-lineinfo"]) {
            continue;
        }
        if !compile(
            Path::new(env!("CARGO_BIN_EXE_ptxforge")),
            ptx,
            sm,
            &ours,
            &["-lineinfo"],
        ) {
            println!("{name}: not compiled by ptxforge (left out)");
            continue;
        }
        modules += 1;
        let text = std::fs::read_to_string(ptx).unwrap();
        let named = loc_lines(&text);
        let our_bytes = std::fs::read(&ours).unwrap();
        let their_bytes = std::fs::read(&theirs).unwrap();
        let ptx_text = |b: &[u8]| {
            let s = section(b, ".nv_debug_ptx_txt").expect("no .nv_debug_ptx_txt");
            String::from_utf8_lossy(&s)
                .split('\0')
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let (ours_text, theirs_text) = (ptx_text(&our_bytes), ptx_text(&their_bytes));
        let differs = ours_text.iter().zip(&theirs_text).position(|(a, b)| a != b);
        assert!(
            differs.is_none() && ours_text.len() == theirs_text.len(),
            "{name}: .nv_debug_ptx_txt differs from ptxas's at line {:?}: {:?}",
            differs.map(|d| d + 1),
            differs.map(|d| (&ours_text[d], &theirs_text[d]))
        );
        let theirs_funcs = annotated(&nvdisasm, &theirs);
        let (mut m_matched, mut m_same) = (0, 0);
        for (func, our) in annotated(&nvdisasm, &ours) {
            let our = body(&our);
            for a in our {
                ours_total += 1;
                if let Some(l) = &a.line {
                    ours_lined += 1;
                    assert!(
                        named.contains(l),
                        "{name} {func}: line {l:?} at {} is named by no .loc",
                        a.mnemonic
                    );
                }
            }
            assert!(
                our.first().is_some_and(|a| a.line.is_some()),
                "{name} {func}: no line at the first instruction"
            );
            let Some((_, their)) = theirs_funcs.iter().find(|(f, _)| *f == func) else {
                continue;
            };
            let their = body(their);
            let identical = our.len() == their.len()
                && our.iter().zip(their).all(|(a, b)| a.mnemonic == b.mnemonic);
            let pairs = in_runs(&aligned(our, their), MIN_RUN);
            let same_here = pairs
                .iter()
                .filter(|&&(i, j)| our[i].line == their[j].line)
                .count();
            if identical {
                same_code.0 += same_here;
                same_code.1 += pairs.len();
            }
            m_matched += pairs.len();
            m_same += same_here;
        }
        println!("{name}: {m_same} of {m_matched} aligned instructions on ptxas's line");
        matched += m_matched;
        same += m_same;
    }
    println!(
        "{modules} modules: {same} of {matched} aligned instructions on ptxas's line \
         ({} of {} in kernels whose code is ptxas's); {ours_lined} of {ours_total} of ours under a line",
        same_code.0, same_code.1
    );
    assert!(modules >= 20, "only {modules} modules compiled");
    assert_eq!(
        ours_lined, ours_total,
        "instructions with no line above them"
    );
    assert!(
        same * 100 >= matched * 85,
        "only {same} of {matched} aligned instructions are on ptxas's line"
    );
}

#[test]
fn line_tables_are_deterministic_and_follow_the_loc_directives() {
    let ptx = manifest().join("tests/lineinfo/kernels.sm_80.ptx");
    let dir = scratch("lineinfo-det");
    let copy = dir.join("renamed input.ptx");
    std::fs::copy(&ptx, &copy).unwrap();
    let out = |input: &Path, name: &str, extra: &[&str]| {
        let o = dir.join(name);
        let mut args = vec!["-lineinfo", "-arch=sm_80"];
        args.extend_from_slice(extra);
        args.extend([input.to_str().unwrap(), "-o", o.to_str().unwrap()]);
        let r = ptxforge(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        std::fs::read(o).unwrap()
    };
    let one = out(&ptx, "one.cubin", &["--split-compile", "1"]);
    let four = out(&ptx, "four.cubin", &["--split-compile", "4"]);
    let all = out(&ptx, "all.cubin", &["--split-compile", "0"]);
    let moved = out(&copy, "moved.cubin", &[]);
    assert!(one == four && one == all, "thread count changes the cubin");
    assert_eq!(one, moved, "the input's folder or name reaches the cubin");
    for name in [".debug_line", ".nv_debug_line_sass", ".nv_debug_ptx_txt"] {
        assert!(section(&one, name).is_some(), "no {name}");
    }
    // ptxas writes the tables for PTX with `.loc` whether or not -lineinfo is given, and none
    // with --suppress-debug-info.
    let compile = |name: &str, extra: &[&str]| {
        let o = dir.join(name);
        let mut args = vec![
            "-arch=sm_80",
            ptx.to_str().unwrap(),
            "-o",
            o.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = ptxforge(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        std::fs::read(o).unwrap()
    };
    assert_eq!(
        compile("plain.cubin", &[]),
        one,
        "-lineinfo changes the cubin"
    );
    let suppressed = compile("suppressed.cubin", &["-lineinfo", "--suppress-debug-info"]);
    assert!(
        section(&suppressed, ".debug_line").is_none(),
        "line tables with --suppress-debug-info"
    );
    // Only the PTX's own paths: nothing of this machine's folders.
    let text = String::from_utf8_lossy(&one);
    assert!(!text.contains(dir.to_str().unwrap()) && !text.contains("/tmp"));
}
