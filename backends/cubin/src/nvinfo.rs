//! `.nv.info` / `.nv.info.<kernel>` EIATTR records, `.nv.compat` and `.nv.callgraph` contents.

use ptxforge_sass::arch::Sm;

use crate::{CubinModule, KernelImage};

const EIFMT_NVAL: u8 = 1;
const EIFMT_BVAL: u8 = 2;
const EIFMT_HVAL: u8 = 3;
const EIFMT_SVAL: u8 = 4;

const CTAIDZ_USED: u8 = 0x04;
const MAX_THREADS: u8 = 0x05;
const GEN_ERRBAR_AT_EXIT: u8 = 0x53;
const REQNTID: u8 = 0x10;
const CRS_STACK_SIZE: u8 = 0x1e;
const PARAM_CBANK: u8 = 0x0a;
const FRAME_SIZE: u8 = 0x11;
const MIN_STACK_SIZE: u8 = 0x12;
const KPARAM_INFO: u8 = 0x17;
const CBANK_PARAM_SIZE: u8 = 0x19;
const MAXREG_COUNT: u8 = 0x1b;
/// Per-instruction notes; ptxas lists each spill store and reload as `SpillRefill` (kind 1).
const ANNOTATIONS: u8 = 0x55;
const SPILL_REFILL: u32 = 1;
const EXIT_INSTR_OFFSETS: u8 = 0x1c;
const REGCOUNT: u8 = 0x2f;
const SW2861232_WAR: u8 = 0x35;
const SW_WAR: u8 = 0x36;
const CUDA_API_VERSION: u8 = 0x37;
const NUM_BARRIERS: u8 = 0x4c;
const SPARSE_MMA_MASK: u8 = 0x50;
const MERCURY_ISA_VERSION: u8 = 0x5f;
const LANGUAGE: u8 = 0x66;
const NVSAL_SW_WAR: u8 = 0x6b;
const PREEXIT_USED: u8 = 0x6d;
const COOP_GROUP_INSTR_OFFSETS: u8 = 0x28;
const COOP_GROUP_MASK_REGIDS: u8 = 0x29;
const CTA_PER_CLUSTER: u8 = 0x3d;
const EXPLICIT_CLUSTER: u8 = 0x3e;
const MAX_CLUSTER_RANK: u8 = 0x3f;

/// The most `(SpillRefill, offset)` pairs one 16-bit-sized ANNOTATIONS record holds.
const MAX_SPILL_ANNOTATIONS: usize = (u16::MAX as usize) / 8;

/// Appends EIATTR records.
#[derive(Default)]
struct Records(Vec<u8>);

impl Records {
    fn nval(&mut self, attr: u8) {
        self.0.extend_from_slice(&[EIFMT_NVAL, attr, 0, 0]);
    }
    fn bval(&mut self, attr: u8, v: u8) {
        self.0.extend_from_slice(&[EIFMT_BVAL, attr, v, 0]);
    }
    fn hval(&mut self, attr: u8, v: u16) {
        self.0.extend_from_slice(&[EIFMT_HVAL, attr]);
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn sval(&mut self, attr: u8, payload: &[u8]) {
        debug_assert!(
            payload.len() <= usize::from(u16::MAX),
            "EIATTR {attr:#x} too long"
        );
        self.0.extend_from_slice(&[EIFMT_SVAL, attr]);
        self.0
            .extend_from_slice(&(payload.len() as u16).to_le_bytes());
        self.0.extend_from_slice(payload);
    }
    fn words(&mut self, attr: u8, words: &[u32]) {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.sval(attr, &bytes);
    }
}

/// The module-wide `.nv.info`: REGCOUNT and FRAME_SIZE (and GEN_ERRBAR_AT_EXIT under
/// `--make-errors-visible-at-exit`) per kernel in PTX order, then MIN_STACK_SIZE
/// per kernel in processing (reverse) order. `func_sym` is indexed in processing order.
/// A kernel's subroutines (`symbols` to find theirs) get FRAME_SIZE records before the kernel's
/// own, and a kernel with subroutines (recursion) an unknown stack size, as ptxas writes them.
pub fn global_info(
    m: &CubinModule,
    func_sym: &[u32],
    symbols: &[crate::sections::Symbol],
) -> Vec<u8> {
    let n = m.kernels.len();
    let mut r = Records::default();
    for (k, image) in m.kernels.iter().enumerate() {
        let sym = func_sym[n - 1 - k];
        r.words(REGCOUNT, &[sym, image.num_gprs]);
        for sub in &image.subroutines {
            let name = format!("${}${}", image.name, sub.name);
            if let Some(s) = symbols.iter().position(|s| s.name == name) {
                r.words(FRAME_SIZE, &[s as u32, sub.frame_size]);
            }
        }
        r.words(FRAME_SIZE, &[sym, image.frame_size]);
        if image.errbar_at_exit {
            r.nval(GEN_ERRBAR_AT_EXIT);
        }
    }
    for (p, sym) in func_sym.iter().enumerate() {
        let image = &m.kernels[n - 1 - p];
        r.words(MIN_STACK_SIZE, &[*sym, stack_size(image)]);
    }
    r.0
}

/// EIATTR_MIN_STACK_SIZE: the frame, or "cannot be statically determined" with recursion.
fn stack_size(k: &KernelImage) -> u32 {
    if k.subroutines.is_empty() {
        k.frame_size
    } else {
        u32::MAX
    }
}

/// The per-kernel `.nv.info.<kernel>` in the order of the architecture's writer family.
pub fn kernel_info(
    sm: Sm,
    k: &KernelImage,
    const_sym: u32,
    symbols: &[crate::sections::Symbol],
) -> Vec<u8> {
    if sm.new_elf_family() {
        kernel_info_new(sm, k, const_sym, symbols)
    } else {
        kernel_info_legacy(sm, k, const_sym, symbols)
    }
}

/// EIATTR_ANNOTATIONS: `(SpillRefill, offset)` words for every spill store and reload, as ptxas
/// writes them right after MAXREG_COUNT (none when nothing spilled). The record's size is 16
/// bits and nvdisasm rejects a second ANNOTATIONS record, so past 8,191 accesses the list names
/// the first 8,191 only (the annotations are hints for tools; nothing runs on them).
fn spill_annotations(r: &mut Records, k: &KernelImage) {
    if k.spill_offsets.is_empty() {
        return;
    }
    let payload: Vec<u8> = k
        .spill_offsets
        .iter()
        .take(MAX_SPILL_ANNOTATIONS)
        .flat_map(|&o| [SPILL_REFILL, o])
        .flat_map(u32::to_le_bytes)
        .collect();
    r.sval(ANNOTATIONS, &payload);
}

fn kernel_info_legacy(
    sm: Sm,
    k: &KernelImage,
    const_sym: u32,
    symbols: &[crate::sections::Symbol],
) -> Vec<u8> {
    let mut r = Records::default();
    r.words(LANGUAGE, &[3]);
    if sm.num == 75 {
        r.words(SW_WAR, &[1]);
    }
    r.words(CUDA_API_VERSION, &[0x87]);
    if matches!(sm.num, 80 | 86 | 87 | 88) {
        r.nval(SW2861232_WAR);
    }
    if !k.params.is_empty() {
        param_cbank(&mut r, sm, k, const_sym);
        r.hval(CBANK_PARAM_SIZE, k.param_bytes as u16);
        kparams(&mut r, k);
    }
    code_records(&mut r, k, symbols, 0, k.uses_ctaid_z);
    r.0
}

fn kernel_info_new(
    sm: Sm,
    k: &KernelImage,
    const_sym: u32,
    symbols: &[crate::sections::Symbol],
) -> Vec<u8> {
    let mut r = Records::default();
    r.words(LANGUAGE, &[3]);
    r.words(CUDA_API_VERSION, &[0x87]);
    kparams(&mut r, k);
    cluster_records(&mut r, k);
    r.hval(SPARSE_MMA_MASK, 0);
    code_records(&mut r, k, symbols, 0x0101, false);
    if !k.params.is_empty() {
        r.hval(CBANK_PARAM_SIZE, k.param_bytes as u16);
        param_cbank(&mut r, sm, k, const_sym);
    }
    r.words(SW_WAR, &[8]);
    r.hval(NVSAL_SW_WAR, 1);
    r.bval(PREEXIT_USED, k.preexit_used as u8);
    r.0
}

/// The records both families write in the same order, from MAXREG_COUNT to CRS_STACK_SIZE:
/// the register budget, spills, barriers, calls, the ISA version (`mercury`), exits, CTAIDZ_USED
/// (`ctaid_z`, the legacy family only) and `.maxntid`/`.reqntid` (x, y, z).
fn code_records(
    r: &mut Records,
    k: &KernelImage,
    symbols: &[crate::sections::Symbol],
    mercury: u16,
    ctaid_z: bool,
) {
    r.hval(
        MAXREG_COUNT,
        k.launch.max_regs.map_or(0xff, |n| n.min(0xff)) as u16,
    );
    spill_annotations(r, k);
    if k.uses_barrier {
        r.bval(NUM_BARRIERS, k.num_barriers.clamp(1, 16) as u8);
    }
    crate::extern_calls::externs_record(&mut r.0, k, symbols);
    r.hval(MERCURY_ISA_VERSION, mercury);
    coop_groups(r, k);
    crate::extern_calls::syscall_record(&mut r.0, k);
    r.words(EXIT_INSTR_OFFSETS, &k.exit_offsets);
    if ctaid_z {
        r.nval(CTAIDZ_USED);
    }
    if let Some(dims) = k.launch.max_threads {
        r.words(MAX_THREADS, &dims);
    }
    if let Some(dims) = k.launch.req_threads {
        r.words(REQNTID, &dims);
    }
    if !k.subroutines.is_empty() {
        r.words(CRS_STACK_SIZE, &[u32::MAX]);
    } else if k.divergent_loop {
        r.words(CRS_STACK_SIZE, &[0]);
    }
}

/// The cluster directives' records, after KPARAM_INFO and in ptxas's order (0x3f, 0x3e, 0x3d).
fn cluster_records(r: &mut Records, k: &KernelImage) {
    let c = &k.cluster;
    if let Some(n) = c.max_cluster_rank {
        r.words(MAX_CLUSTER_RANK, &[n]);
    }
    if c.explicit {
        r.nval(EXPLICIT_CLUSTER);
    }
    if let Some(dims) = c.cta_per_cluster {
        r.words(CTA_PER_CLUSTER, &dims);
    }
}

/// Warp-synchronous instructions with their member-mask registers (0xffffffff: an immediate).
fn coop_groups(r: &mut Records, k: &KernelImage) {
    if !k.coop_group_offsets.is_empty() {
        r.words(
            COOP_GROUP_MASK_REGIDS,
            &vec![u32::MAX; k.coop_group_offsets.len()],
        );
        r.words(COOP_GROUP_INSTR_OFFSETS, &k.coop_group_offsets);
    }
}

fn param_cbank(r: &mut Records, sm: Sm, k: &KernelImage, const_sym: u32) {
    let packed = (k.param_bytes << 16) | sm.param_base();
    r.words(PARAM_CBANK, &[const_sym, packed]);
}

/// KPARAM_INFO, one record per parameter, highest ordinal first.
fn kparams(r: &mut Records, k: &KernelImage) {
    for (ordinal, p) in k.params.iter().enumerate().rev() {
        let flags = (0x1f << 12) | (p.size << 18) | (p.pointee_space << 8) | p.pointee_log_align;
        let ord_off = (ordinal as u32) | (p.offset << 16);
        r.words(KPARAM_INFO, &[0, ord_off, flags]);
    }
}

/// `.nv.compat` for sm_90 and sm_90a: the first record (EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET)
/// is 1 for an architecture-specific `a` target, which is how `cuobjdump` tells `sm=90a`.
pub fn compat_sm90(sm: Sm) -> Vec<u8> {
    let mut r = Records::default();
    r.bval(0x09, u8::from(sm.accel));
    r.bval(0x0c, 0);
    r.bval(0x02, 1);
    r.hval(0x0d, 0x0101);
    r.bval(0x03, 0);
    r.words(0x0b, &[0, 0]);
    r.hval(0x0e, 0x0440);
    r.0
}
