//! Oracle tests against NVIDIA's tools, for every filetest on sm_75/80/86/89/90:
//! nvdisasm decodes our code to exactly our printer's text, and `cuobjdump -elf` accepts our cubin
//! with the same section names and `.nv.info` attribute kinds as ptxas's cubin for the same PTX.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{compile_for, filetest_inputs};
use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};
use ptxforge_sass::nvtools;

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Our printer's instruction texts, in order, from a kernel's `/*addr*/ text` listing.
fn printed_instrs(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(ptxforge_sass::oracle::normalise)
        .collect()
}

#[test]
fn nvdisasm_decodes_our_code_to_our_text() {
    if nvtools::tool("nvdisasm").is_none() {
        println!(
            "skipped: nvdisasm not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)"
        );
        return;
    }
    let mut compared = 0;
    let mut failures = Vec::new();
    for (name, src) in filetest_inputs() {
        for sm in SUPPORTED_SMS {
            let out = compile_for(&src, &name, sm);
            assert!(!out.failed(), "{name} {sm}: {:?}", out.diagnostics);
            compared += compare_with_nvdisasm(&name, sm, &out, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 500, "only {compared} instructions compared");
}

/// The same for the differential check's instruction kernels (`pipeline/sim/tests/kernels`,
/// written for sm_80 and retargeted), which use forms the filetests do not (float immediates,
/// math sequences, tensor cores); a kernel a target cannot compile is left out on that target.
#[test]
fn nvdisasm_decodes_sim_kernels_to_our_text() {
    if nvtools::tool("nvdisasm").is_none() {
        println!(
            "skipped: nvdisasm not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)"
        );
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    let (mut compared, mut compiled) = (0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let ptx = std::fs::read_to_string(file).unwrap();
        for sm in SUPPORTED_SMS {
            let retargeted = ptx.replacen("\n.target sm_80\n", &format!("\n.target {sm}\n"), 1);
            let out = compile_for(&retargeted, &name, sm);
            if out.cubin.is_none() {
                continue;
            }
            compiled += 1;
            compared += compare_with_nvdisasm(&name, sm, &out, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compiled > 100, "only {compiled} kernel files compiled");
    assert!(compared > 5000, "only {compared} instructions compared");
}

/// The same for every kernel of the corpus (`../shared/corpus`, real nvcc output) that compiles at
/// its module's own `.target`: about 860,000 instructions, each decoded by nvdisasm to our text.
#[test]
fn nvdisasm_decodes_corpus_to_our_text() {
    if nvtools::tool("nvdisasm").is_none() {
        println!(
            "skipped: nvdisasm not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)"
        );
        return;
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for group in std::fs::read_dir(&corpus).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(group.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|x| x == "ptx") {
                files.push(f.path());
            }
        }
    }
    if files.is_empty() {
        println!("skipped: no corpus at {}", corpus.display());
        return;
    }
    files.sort();
    let (mut compared, mut kernels) = (0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let src = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        let Some(sm) = own_target(&src) else {
            continue;
        };
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let out = compile_for(&src, &name, sm);
        kernels += out.kernels.iter().filter(|k| k.image.is_some()).count();
        compared += compare_with_nvdisasm(&name, sm, &out, &mut failures);
    }
    println!("nvdisasm read {compared} instructions of {kernels} corpus kernels as we print them");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(kernels > 100, "only {kernels} corpus kernels compiled");
}

/// A module's `.target` when the back end generates code for it.
fn own_target(src: &str) -> Option<Sm> {
    let line = src
        .lines()
        .find(|l| l.trim_start().starts_with(".target"))?;
    let first = line.trim_start()[".target".len()..].split(',').next()?;
    first
        .trim()
        .parse::<Sm>()
        .ok()
        .filter(|sm| sm.is_supported())
}

/// nvdisasm's text for each kernel of `out` against our printer's; returns how many instructions
/// were compared and pushes the first mismatch of each kernel onto `failures`.
fn compare_with_nvdisasm(
    name: &str,
    sm: Sm,
    out: &ptxforge_pipeline::CompileOutput,
    failures: &mut Vec<String>,
) -> usize {
    let mut compared = 0;
    for k in &out.kernels {
        let Some(image) = k.image.as_ref() else {
            continue;
        };
        let ours = printed_instrs(k.sass_text.as_deref().unwrap());
        match ptxforge_sass::oracle::nvdisasm_raw(sm, &image.code).expect("nvdisasm ran") {
            Err(e) => failures.push(format!(
                "{name}/{} {sm}: nvdisasm rejected our code: {e}",
                k.name
            )),
            Ok(theirs) if ours != theirs => {
                failures.push(first_mismatch(name, &k.name, sm, &ours, &theirs))
            }
            Ok(_) => {}
        }
        compared += ours.len();
    }
    compared
}

fn first_mismatch(file: &str, kernel: &str, sm: Sm, ours: &[String], theirs: &[String]) -> String {
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a != b {
            return format!("{file}/{kernel} {sm} instr {i}: ours `{a}` nvdisasm `{b}`");
        }
    }
    format!(
        "{file}/{kernel} {sm}: {} instrs printed, {} decoded",
        ours.len(),
        theirs.len()
    )
}

/// Section names and EIATTR kinds that `cuobjdump -elf` lists, or its complaint.
fn cuobjdump_summary(
    cuobjdump: &Path,
    cubin: &Path,
) -> Result<(BTreeSet<String>, BTreeSet<String>), String> {
    let out = Command::new(cuobjdump)
        .arg("-elf")
        .arg(cubin)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let sections = section_names(&text);
    let attrs = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Attribute:"))
        .map(|a| a.trim().to_string())
        .collect();
    Ok((sections, attrs))
}

/// The last column of the `Sections:` table.
fn section_names(text: &str) -> BTreeSet<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Sections:"))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
        .collect()
}

/// Filetests with `.func` calls, which ptxas keeps as subroutines (CALL.REL.NOINC) and we inline.
/// (`handwritten_volta_mma`: ptxas calls its m8n8k4 subroutine from sm_80 on; ours is inline.
/// `handwritten_scalar_rest`: ptxas calls a subroutine for `div.rz.f32`; ours computes inline.)
const CALLS_INLINED: &[&str] = &[
    "device_func",
    "handwritten_volta_mma",
    "handwritten_scalar_rest",
];

/// Filetests where ptxas branches inside an instruction's sequence (64-bit `bfind`, `fns`: BSSY
/// convergence regions, hence EIATTR_CRS_STACK_SIZE) and our selection is branch-free.
const BRANCH_FREE_HERE: &[&str] = &["handwritten_scalar"];

/// What only ptxas's subroutine calls bring: EIATTR_CRS_STACK_SIZE (the call-return stack, 0
/// here) and, on sm_90, an empty `.rela.text.<entry>`. Our inlined code makes no call.
fn forgive_subroutine_records(sections: &mut BTreeSet<String>, attrs: &mut BTreeSet<String>) {
    attrs.remove("EIATTR_CRS_STACK_SIZE");
    sections.retain(|s| !s.starts_with(".rela.text."));
}

#[test]
fn cuobjdump_accepts_our_cubins_like_ptxas() {
    let (Some(cuobjdump), Some(ptxas), Some(nvdisasm)) = (
        nvtools::tool("cuobjdump"),
        nvtools::tool("ptxas"),
        nvtools::tool("nvdisasm"),
    ) else {
        println!("skipped: cuobjdump/ptxas/nvdisasm not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    };
    let dir = scratch_dir();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, src) in filetest_inputs() {
        let ptx = dir.join(format!("{name}.ptx"));
        std::fs::write(&ptx, &src).unwrap();
        for sm in SUPPORTED_SMS {
            let ours = dir.join(format!("{name}.{sm}.ours.cubin"));
            let theirs = dir.join(format!("{name}.{sm}.ptxas.cubin"));
            let out = compile_for(&src, &name, sm);
            std::fs::write(&ours, out.cubin.as_ref().expect("cubin")).unwrap();
            let st = Command::new(&ptxas)
                .arg(format!("-arch={sm}"))
                .arg(&ptx)
                .arg("-o")
                .arg(&theirs)
                .status()
                .unwrap();
            assert!(st.success(), "ptxas failed on {name} {sm}");
            let (our_secs, our_attrs) = cuobjdump_summary(&cuobjdump, &ours)
                .unwrap_or_else(|e| panic!("{name} {sm}: cuobjdump rejected ours: {e}"));
            let (mut ref_secs, mut ref_attrs) = cuobjdump_summary(&cuobjdump, &theirs).unwrap();
            if CALLS_INLINED.contains(&name.as_str()) {
                forgive_subroutine_records(&mut ref_secs, &mut ref_attrs);
            }
            if BRANCH_FREE_HERE.contains(&name.as_str()) {
                ref_attrs.remove("EIATTR_CRS_STACK_SIZE");
            }
            if our_secs != ref_secs {
                failures.push(format!(
                    "{name} {sm}: section names differ: ours {our_secs:?} ptxas {ref_secs:?}"
                ));
            }
            if our_attrs != ref_attrs {
                let missing: Vec<_> = ref_attrs.difference(&our_attrs).collect();
                let extra: Vec<_> = our_attrs.difference(&ref_attrs).collect();
                failures.push(format!(
                    "{name} {sm}: EIATTR kinds differ: missing {missing:?} extra {extra:?}"
                ));
            }
            let dis = Command::new(&nvdisasm).arg(&ours).output().unwrap();
            assert!(
                dis.status.success(),
                "{name} {sm}: nvdisasm rejected ours: {}",
                String::from_utf8_lossy(&dis.stderr)
            );
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 75);
}
