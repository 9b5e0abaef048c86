//! Calls left to the linker and device functions compiled on their own (`-c`, what
//! `nvcc -rdc=true` asks for), with ptxas 13.5's ABI as its relocatable objects show it
//! (learned from `ptxas -c` and nvdisasm, sm_75..sm_90).
//!
//! ## A call of an `.extern .func`
//! ptxas writes `MOV R20, 32@lo(k + ret)`, `MOV R21, 32@hi(k + ret)` (R_CUDA_ABS32_LO_32 / _HI_32
//! against the caller) and `CALL.ABS.NOINC `(callee)` (opcode 0x943, the address in bits 32..80:
//! R_CUDA_ABS47_34 against the undefined callee). We keep the return address of
//! `extern_call.rs` (LEPC, which needs no relocation) and call through the immediate form, whose
//! address the linker writes: a `CallAbs` whose slot is [`LINKED_SLOT`]. Arguments from R4 up,
//! results from R4, the caller-saved registers as for `vprintf` (`extern_call::caller_saved`).
//!
//! ## A device function of its own
//! Its code is one subroutine (`subroutine.rs`) from block 0: arguments arrive in R4.., results
//! leave in R4.., every GPR it writes but its results is saved on the caller's stack (R1) and
//! restored, and it returns with `RET.ABS.NODEC R20` to the absolute address the caller left in
//! R20:R21 (the `Ret`'s s0 with `abs` set). ptxas's callers keep values in UR36 and up across a
//! call, so such a function may not write them.

use crate::encode::Word;
use crate::ir::*;

/// The `CallAbs` slot of a call whose target the linker resolves (no `.nv.constant4` slot).
pub const LINKED_SLOT: u16 = u16::MAX;

/// The first uniform register a callee must leave alone.
const FIRST_CALLEE_SAVED_UR: u32 = 36;

/// Whether `f` is a device function compiled on its own: a subroutine starts at block 0.
pub fn standalone(f: &Function) -> bool {
    f.subroutines.iter().any(|s| s.block == 0)
}

/// The GPRs a device function of its own need not save: ptxas's caller-saved registers but the
/// return address R20:R21.
pub(crate) fn callee_may_clobber(r: u32) -> bool {
    crate::extern_call::caller_saved(r) && r != 20 && r != 21
}

/// After `subroutine::add_frame`: every RET returns to an absolute address; no uniform register
/// the caller keeps is written.
pub(crate) fn finish_standalone(f: &mut Function) -> Result<(), String> {
    if f.subroutines.len() > 1 {
        return Err("recursion in a device function compiled with -c".into());
    }
    let mut writes_saved_ur = false;
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            if i.op == Opcode::Ret {
                i.srcs[0].abs = true;
            }
            for d in &i.dsts {
                if let Dst::Reg(r) = d {
                    let top = r.idx + r.comps.max(1) as u32 - 1;
                    writes_saved_ur |=
                        r.file == RegFile::UGpr && top >= FIRST_CALLEE_SAVED_UR && r.idx != 63;
                }
            }
        }
    }
    if writes_saved_ur {
        return Err("a device function compiled with -c that needs UR36 or above".into());
    }
    Ok(())
}

/// `CALL.ABS.NOINC 0x0`: the immediate form, its address (bits 32..80) left to the linker.
pub(crate) fn encode_linked_call(w: &mut Word) {
    w.set(0, 12, 0x943);
    w.set(86, 1, 1);
    w.set(87, 3, 7);
}

/// The byte offsets of the linked calls in `f`'s code and the extern number of each: where the
/// relocatable object puts its R_CUDA_ABS47_34 relocations.
pub fn linked_call_offsets(f: &Function) -> Vec<(u32, u16)> {
    f.instrs()
        .enumerate()
        .filter_map(|(n, i)| match i.op {
            Opcode::CallAbs { slot, ext } if slot == LINKED_SLOT => Some((16 * n as u32, ext)),
            _ => None,
        })
        .collect()
}
