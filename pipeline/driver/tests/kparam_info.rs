//! `.ptr` kernel parameters: what they point to (state space, alignment) is recorded in the
//! cubin's KPARAM_INFO records as ptxas records it, and `.align` after `.ptr` does not move the
//! parameter itself.

mod common;

use ptxforge_sass::arch::Sm;

const MODULE: &str = ".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u32 a, .param .u64 .ptr .global .align 16 p, .param .u64 .ptr .align 8 q,
                  .param .u64 .ptr .shared r)
{
.reg .u32 %r<3>;
.reg .u64 %rd<5>;
ld.param.u32 %r1, [a];
ld.param.u64 %rd1, [p];
ld.param.u64 %rd2, [q];
ld.param.u64 %rd3, [r];
add.u64 %rd4, %rd2, %rd3;
st.global.u32 [%rd1], %r1;
st.u64 [%rd4], %rd1;
ret;
}
";

/// `(ordinal, offset, flags)` of every KPARAM_INFO record (format 0x04, attribute 0x17, 12 bytes).
fn kparam_records(cubin: &[u8]) -> Vec<(u32, u32, u32)> {
    let word = |at: usize| u32::from_le_bytes(cubin[at..at + 4].try_into().unwrap());
    let mut out: Vec<(u32, u32, u32)> = (0..cubin.len().saturating_sub(16))
        .filter(|&i| cubin[i..i + 4] == [0x04, 0x17, 0x0c, 0x00] && word(i + 4) == 0)
        .map(|i| (word(i + 8) & 0xffff, word(i + 8) >> 16, word(i + 12)))
        .collect();
    out.sort();
    out
}

#[test]
fn pointer_parameters_record_their_pointee() {
    let out = common::compile_for(MODULE, "kparam", Sm::new(80));
    let cubin = out.cubin.expect("the module compiles");
    let records = kparam_records(&cubin);
    let low_bits: Vec<(u32, u32, u32)> = records
        .iter()
        .map(|&(ord, off, flags)| (ord, off, flags & 0xfff))
        .collect();
    // Space codes and log2 alignments as ptxas 13.5 writes them: none, global 4, generic 5, shared 2.
    assert_eq!(
        low_bits,
        vec![(0, 0, 0), (1, 8, 0x404), (2, 16, 0x503), (3, 24, 0x200)]
    );
    let Some(ptxas) = ptxforge_sass::nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found, the comparison with its cubin");
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptxforge-kparam-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.ptx"), MODULE).unwrap();
    let status = std::process::Command::new(ptxas)
        .args(["-arch=sm_80", "k.ptx", "-o", "k.cubin"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let theirs = kparam_records(&std::fs::read(dir.join("k.cubin")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(records, theirs, "KPARAM_INFO differs from ptxas's");
}
