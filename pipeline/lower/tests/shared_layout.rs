//! Shared-memory layout against what ptxas 13.5 produced for the same modules (offsets read from
//! its LDS instructions, sizes and alignments from `cuobjdump -elf`'s `.nv.shared.<kernel>`).

use ptxforge_lower::lower_function;
use ptxforge_ptx::parse_module;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

const MODULE: &str = "
.version 8.0
.target sm_80
.address_size 64
.shared .align 4 .b8 a_unused[100];
.shared .align 8 .b8 b_used[12];
.extern .shared .align 16 .b8 shmem[];
.visible .entry k1(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 fs_unused[36];
  .shared .align 4 .b8 fs_used[20];
  ld.param.u64 %rd1, [p];
  ld.shared.u32 %r1, [b_used+4];
  ld.shared.u32 %r2, [fs_used+12];
  add.s32 %r1, %r1, %r2;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry k2(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.shared.u32 %r1, [shmem+8];
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry k3(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.shared.u32 %r1, [shmem+8];
  ld.shared.u32 %r2, [b_used+4];
  add.s32 %r1, %r1, %r2;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry k4(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  st.global.u32 [%rd1], 5;
  ret;
}
";

/// (LDS offsets in program order, static bytes, section alignment) of each kernel on sm_80.
fn layouts(src: &str) -> Vec<(Vec<i32>, u32, u32)> {
    let m = parse_module(src, "t.ptx").unwrap_or_else(|d| panic!("{d:?}"));
    m.functions
        .iter()
        .map(|f| {
            let k = lower_function(&m, f, Sm::new(80)).unwrap_or_else(|e| panic!("{e:?}"));
            let lds = k
                .func
                .instrs()
                .filter_map(|i| {
                    if let Opcode::Lds { offset, .. } = i.op {
                        Some(offset)
                    } else {
                        None
                    }
                })
                .collect();
            (lds, k.shared_bytes, k.shared_align)
        })
        .collect()
}

#[test]
fn used_own_then_used_module_then_unused_own_then_extern_as_ptxas() {
    let l = layouts(MODULE);
    // k1: fs_used at 0, b_used at 0x18, fs_unused at 0x24; 0x48 rounded to the extern's 16.
    assert_eq!(l[0], (vec![0x1c, 0xc], 0x50, 16));
    // k2: only the extern array, at 0; an empty section aligned for it.
    assert_eq!(l[1], (vec![0x8], 0, 16));
    // k3: b_used at 0 (12 bytes, rounded to 16), shmem after it.
    assert_eq!(l[2], (vec![0x18, 0x4], 0x10, 16));
    // k4 names no shared variable, yet the module's .extern .shared gives it an empty section.
    assert_eq!(l[3], (vec![], 0, 16));
}

#[test]
fn without_extern_arrays_the_size_is_exact_and_aligned_to_the_variables() {
    let src = MODULE
        .replace(".extern .shared .align 16 .b8 shmem[];", "")
        .replace("[shmem+8]", "[b_used+8]");
    let l = layouts(&src);
    assert_eq!((l[0].1, l[0].2), (0x48, 8));
    // 12 bytes aligned 8 stay 12 bytes.
    assert_eq!(l[2], (vec![0x8, 0x4], 0xc, 8));
    assert_eq!(l[3], (vec![], 0, 0));
}
