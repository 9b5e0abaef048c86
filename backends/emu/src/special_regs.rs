//! The special registers of one simulated SM and the launch facts constant bank 0 holds for them:
//! one SM (SR_VIRTUALSMID 0, `%nsmid` = 1 at `c[0x0][0x10c]`), the warp's slot in SR_VIRTID and the
//! SM's warp count in SR_VIRTCFG (bits 8 up), SR_SMEMSZ as the kernel's shared bytes plus the
//! reserved `c[0x0][0x114]`, clusters of one CTA (`c[0x0][0x144..]` = 1, `%nclusterid` the grid,
//! SR_CgaCtaId 0, a cluster launch: `c[0x0][0x140]` = 1), the parameter block's generic base (`c[0x0][0x198]`, sm_90), no dynamic shared memory (`c[0x0][0x2c]` = 0), and the clocks: SR_CLOCKLO/HI
//! count the warp instructions issued so far in the launch, SR_GLOBALTIMERLO/HI 32 ns each, so
//! both only ever grow within a thread.

/// Where constant bank 0 holds what the special registers' code reads.
const CBANK_NSMID: usize = 0x10c;
const CBANK_RESERVED_SMEM: usize = 0x114;
const CBANK_CLUSTER_NCTAID: usize = 0x144;
/// 1.0 / `%cluster_nctaid` on each axis, as ptxas's quotient code multiplies by it.
const CBANK_CLUSTER_RCP: usize = 0x150;
const CBANK_NCLUSTERID: usize = 0x15c;
const CBANK_CLUSTER_NCTARANK: usize = 0x188;
/// 1 in a cluster launch (ptxas's `barrier.cluster` code then uses UCGABAR, else BAR.SYNC).
const CBANK_CLUSTER_LAUNCH: usize = 0x140;
/// sm_90: the generic address of the parameter block (64-bit), which `cvta.param` adds.
const CBANK_PARAM_WINDOW: usize = 0x198;

/// The shared memory an SM keeps for itself from sm_80 on (SR_SMEMSZ counts it).
fn reserved_smem(sm: u32) -> u32 {
    if sm >= 80 {
        0x400
    } else {
        0
    }
}

/// The most warps one SM holds (SR_VIRTCFG bits 8..15), as ptxas writes `%nwarpid`.
fn max_warps(sm: u32) -> u32 {
    match sm {
        75 => 32,
        86 | 87 | 89 => 48,
        _ => 64,
    }
}

fn put(cbank: &mut [u8], at: usize, v: u32) {
    cbank[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Fills the words of constant bank 0 that the special registers' code reads (the cluster words
/// only on sm_90, where the parameters start at 0x210: before it they start at 0x160).
pub(crate) fn fill_cbank(cbank: &mut [u8], sm: u32, grid: [u32; 3]) {
    put(cbank, CBANK_NSMID, 1);
    put(cbank, CBANK_RESERVED_SMEM, reserved_smem(sm));
    if sm < 90 {
        return;
    }
    for (k, n) in grid.iter().enumerate() {
        put(cbank, CBANK_CLUSTER_NCTAID + 4 * k, 1);
        put(cbank, CBANK_CLUSTER_RCP + 4 * k, 1.0f32.to_bits());
        put(cbank, CBANK_NCLUSTERID + 4 * k, *n);
    }
    put(cbank, CBANK_CLUSTER_NCTARANK, 1);
    put(cbank, CBANK_CLUSTER_LAUNCH, 1);
    let window = crate::machine::PARAM_WINDOW;
    put(cbank, CBANK_PARAM_WINDOW, window as u32);
    put(cbank, CBANK_PARAM_WINDOW + 4, (window >> 32) as u32);
}

/// What a thread's read of a special register depends on.
pub(crate) struct ThreadFacts {
    pub sm: u32,
    pub tid: [u32; 3],
    pub block: [u32; 3],
    pub shared_size: u32,
    /// Warp instructions issued so far in the launch.
    pub issued: u64,
}

/// The value of S2R/S2UR/CS2R's register `code` (`None`: not one of these).
pub(crate) fn value(code: u32, t: &ThreadFacts) -> Option<u32> {
    let linear = t.tid[0] + t.block[0] * (t.tid[1] + t.block[1] * t.tid[2]);
    let timer = t.issued.wrapping_mul(32);
    Some(match code {
        0x02 => max_warps(t.sm) << 8,
        0x03 => (linear / 32) << 8,
        0x32 => t.shared_size + reserved_smem(t.sm),
        0x43 => 0,
        0x50 => t.issued as u32,
        0x51 => (t.issued >> 32) as u32,
        0x52 => timer as u32,
        0x53 => (timer >> 32) as u32,
        _ => return None,
    })
}

/// Whether CS2R reads `code` (SRZ, the clocks and the global timer).
pub(crate) fn cs2r_reads(code: u32) -> bool {
    matches!(code, 0xff | 0x50..=0x53)
}
