//! The shared-memory atomics of ptxas 13.5's sm_80..89 mbarrier code (the barrier is a 64-bit
//! word that plain atomics update; sm_90 has the SYNCS unit instead): ATOMS.ARRIVE.64
//! (`mbarrier.arrive`: one arrival, the word before it returned) and ATOMS.POPC.INC.32
//! (`mbarrier.arrive_drop`'s one fewer expected arrival), as `SyncsOp::AtomsArrive` and
//! `SyncsOp::AtomsPopcInc`.
//!
//! Fields learned from ptxas's sm_80/86/89 code (nvdisasm -hex): opcode 0xf8c, destination
//! 16..23 (RZ for POPC.INC), address register 24..31 (RZ for none), 32..39 zero, offset 40..63,
//! address UR 64..69 (URZ in ptxas's code), address scale 78..79 (unused here), the operation
//! 88..90 (4 ARRIVE, 5 POPC.INC), bit 91; ARRIVE also `.64` (73..75 = 2) and bit 87. Printed as
//! `ATOMS.ARRIVE.64 R4, [R7+URZ+0x8]` and `ATOMS.POPC.INC.32 RZ, [URZ+0x20]`.

use crate::encode::{EResult, EncodeError, Word};
use crate::ir::*;

const RZ: u64 = 255;

/// Encodes ATOMS.ARRIVE.64 (`pop_inc` false) or ATOMS.POPC.INC.32 with the `[R+UR+offset]`
/// address already set by the caller (guard and control bits are the caller's too).
pub(crate) fn encode_atoms_mbarrier(w: &mut Word, i: &Instr, popc_inc: bool) -> EResult<()> {
    w.set(0, 12, 0xf8c);
    let d = match i.dsts[0] {
        Dst::None => RZ,
        Dst::Reg(r) if r.file == RegFile::Gpr && r.idx < 255 && !popc_inc => r.idx as u64,
        d => return Err(EncodeError(format!("ATOMS mbarrier: destination {d:?}"))),
    };
    w.set(16, 8, d);
    if popc_inc {
        w.set(88, 3, 5);
    } else {
        w.set(73, 3, 2);
        w.set(87, 1, 1);
        w.set(88, 3, 4);
    }
    w.set(91, 1, 1);
    Ok(())
}

/// The mnemonic of the two (operands are printed by the caller).
pub(crate) fn mnemonic(popc_inc: bool) -> &'static str {
    if popc_inc {
        "ATOMS.POPC.INC.32"
    } else {
        "ATOMS.ARRIVE.64"
    }
}
