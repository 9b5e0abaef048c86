//! sm_90 kernel facts the cubin records as ptxas 13.5 does: the cluster directives
//! (EIATTR_MAX_CLUSTER_RANK 0x3f, _EXPLICIT_CLUSTER 0x3e, _CTA_PER_CLUSTER 0x3d, in that order
//! after KPARAM_INFO), parameters aligned in constant bank 0 itself (a `.align 128` parameter at
//! 0x210 + 0x70), and a `setmaxnreg` kernel's register count (its entry budget).

mod common;

use ptxforge_sass::arch::Sm;

const MODULE: &str = ".version 8.5
.target sm_90a
.address_size 64
.visible .entry cta2(.param .u64 out) .reqnctapercluster 2, 1, 1
{
.reg .u64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry rank4(.param .u64 out) .explicitcluster .maxclusterrank 4
{
.reg .u64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 2;
ret;
}
.visible .entry explicit2(.param .u64 out) .explicitcluster .reqnctapercluster 2, 2
{
.reg .u64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 3;
ret;
}
.visible .entry aligned(.param .u32 a, .param .align 128 .b8 blk[256], .param .align 32 .b8 s[32],
                        .param .u64 out)
.maxntid 384, 1, 1
.minnctapersm 1
{
.reg .u32 %r<4>;
.reg .u64 %rd<4>;
.reg .pred %p<2>;
mov.b64 %rd1, blk;
cvta.param.u64 %rd2, %rd1;
prefetch.tensormap [%rd2];
ld.param.u32 %r1, [s+4];
ld.param.u64 %rd3, [out];
mov.u32 %r2, %tid.x;
setp.lt.u32 %p1, %r2, 128;
@%p1 bra LOW;
setmaxnreg.inc.sync.aligned.u32 232;
bra DONE;
LOW:
setmaxnreg.dec.sync.aligned.u32 40;
DONE:
st.global.u32 [%rd3], %r1;
ret;
}
";

/// Every cluster record, KPARAM_INFO record and REGCOUNT word of a cubin, in file order.
fn records(cubin: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= cubin.len() {
        let len = match cubin[i..i + 4] {
            [0x04, 0x3d, 0x0c, 0x00] | [0x04, 0x17, 0x0c, 0x00] => 16,
            [0x04, 0x3f, 0x04, 0x00] => 8,
            [0x01, 0x3e, 0x00, 0x00] => 4,
            // EIATTR_REGCOUNT: symbol index (ours and ptxas's differ), register count.
            [0x04, 0x2f, 0x08, 0x00] if i + 12 <= cubin.len() => {
                let mut r = cubin[i..i + 4].to_vec();
                r.extend_from_slice(&cubin[i + 8..i + 12]);
                out.push(r);
                i += 12;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        if i + len <= cubin.len() {
            out.push(cubin[i..i + len].to_vec());
        }
        i += len;
    }
    out
}

#[test]
fn cluster_directives_parameters_and_setmaxnreg_are_recorded_as_ptxas() {
    let out = common::compile_for(MODULE, "cluster", Sm::accelerated(90));
    let ours = records(&out.cubin.expect("the module compiles"));
    let cluster = |r: &Vec<u8>| matches!(r[1], 0x3d..=0x3f);
    assert_eq!(ours.iter().filter(|r| cluster(r)).count(), 5, "{ours:x?}");
    let Some(ptxas) = ptxforge_sass::nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found, the comparison with its cubin");
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptxforge-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.ptx"), MODULE).unwrap();
    let status = std::process::Command::new(ptxas)
        .args(["-arch=sm_90a", "k.ptx", "-o", "k.cubin"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let theirs = records(&std::fs::read(dir.join("k.cubin")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    let without_regcount =
        |v: &[Vec<u8>]| -> Vec<Vec<u8>> { v.iter().filter(|r| r[1] != 0x2f).cloned().collect() };
    assert_eq!(without_regcount(&ours), without_regcount(&theirs));
    // The setmaxnreg kernel reports its entry budget (168 for 384 threads), as ptxas.
    let counts = |v: &[Vec<u8>]| -> Vec<u32> {
        v.iter()
            .filter(|r| r[1] == 0x2f)
            .map(|r| u32::from_le_bytes(r[4..8].try_into().unwrap()))
            .collect()
    };
    assert!(counts(&ours).contains(&168), "{:?}", counts(&ours));
    assert!(counts(&theirs).contains(&168), "{:?}", counts(&theirs));
}
