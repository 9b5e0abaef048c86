//! Operands of sm_90's cluster barrier (UCGABAR_ARV/WAIT), tensor-map cache control (UTMACCTL,
//! UTMACMDFLUSH) and USETMAXREG, as ptxas 13.5 encodes them (fields in `ptxforge-sass`'s
//! `encode_cluster.rs`). In the machine (clusters of one CTA) UCGABAR_ARV does nothing and
//! UCGABAR_WAIT waits at the CTA's barrier (every live thread of the cluster arrived before it
//! waits, as `barrier.cluster` requires); the tensor-map cache ops change nothing architectural;
//! USETMAXREG.TRY_ALLOC is always granted.

use super::{add_read, add_write, File, Inst, Op, Operand};

/// Fills the operand slots and read/write lists of one of these ops.
pub(super) fn operands(i: &mut Inst) -> Result<(), String> {
    if !matches!(i.op, Op::Utmacmdflush) && !i.bit(91) {
        return Err(format!("{} without bit 91", i.op.name()));
    }
    match i.op {
        Op::Ucgabar | Op::Utmacmdflush => {}
        // UTMACCTL.{PF,IV} [URa] (a generic address, 24..29).
        Op::Utmacctl => {
            i.a = Operand::Ur(i.f(24, 6) as u8);
            add_read(i, i.a, 2);
        }
        // USETMAXREG.{TRY_ALLOC,DEALLOC}.CTAPOOL [UPd,] count.
        Op::Usetmaxreg => {
            if !matches!(i.f(72, 2), 1 | 2) || !i.bit(74) {
                return Err("USETMAXREG other than .TRY_ALLOC/.DEALLOC.CTAPOOL".into());
            }
            add_write(i, File::Up, i.f(81, 3) as u8, 1);
        }
        _ => unreachable!("not a cluster op"),
    }
    Ok(())
}

/// Whether this UCGABAR is the wait (UCGABAR_WAIT, 0xdc7) rather than the arrive.
pub(crate) fn is_barrier_wait(i: &Inst) -> bool {
    i.op == Op::Ucgabar && i.f(0, 12) == 0xdc7
}
