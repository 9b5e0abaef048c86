//! Operands of ELECT, YIELD and of the sm_90 mbarrier unit (SYNCS.*, FENCE.VIEW.ASYNC), as ptxas 13.5
//! encodes them (fields in `ptxforge-sass`'s `encode_sync.rs`): the registers each reads and
//! writes, for the hazard model and the machine (`syncs.rs`).

use super::{add_pred_read, add_read, add_write, gpr, File, Inst, Op, Operand};

/// `[Ra+URb]`: the address register (24..31) and uniform register (64..69).
fn address(i: &mut Inst) {
    i.a = gpr(i.f(24, 8) as u8);
    i.c = Operand::Ur(i.f(64, 6) as u8);
    add_read(i, i.a, 1);
    add_read(i, i.c, 1);
}

/// Fills the operand slots and read/write lists of an ELECT, SYNCS or FENCE.VIEW.ASYNC.
pub(super) fn operands(i: &mut Inst) -> Result<(), String> {
    match i.op {
        // ELECT Pd(81..83), URd(16..21), Ps(87..90).
        Op::Elect => {
            let p = i.pred(87);
            add_pred_read(i, p);
            add_write(i, File::Ur, i.f(16, 6) as u8, 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        // SYNCS.EXCH.64 URd, [URa], URb (pairs).
        Op::SyncsExch => {
            if !i.bit(72) {
                return Err("SYNCS.EXCH other than .64".into());
            }
            i.a = Operand::Ur(i.f(24, 6) as u8);
            i.b = Operand::Ur(i.f(32, 6) as u8);
            add_read(i, i.a, 1);
            add_read(i, i.b, 2);
            add_write(i, File::Ur, i.f(16, 6) as u8, 2);
        }
        // SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT].mode Rd(pair), [Ra+URc], Rb.
        Op::SyncsArrive => {
            if !matches!(i.f(84, 3), 0..=5) {
                return Err(format!("SYNCS.ARRIVE mode {}", i.f(84, 3)));
            }
            address(i);
            i.b = gpr(i.f(32, 8) as u8);
            add_read(i, i.b, 1);
            add_write(i, File::R, i.dst(), 2);
        }
        // SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [Ra+URc], Rb.
        Op::SyncsPhasechk => {
            address(i);
            i.b = gpr(i.f(32, 8) as u8);
            add_read(i, i.b, 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Op::SyncsCctl => address(i),
        // ARRIVES.LDGSTSBAR.64[.ARVCNT|.TRANSCNT] [Ra+URc+offset] (count 70..71; 3 is not known).
        Op::Arrives => {
            if i.f(70, 2) == 3 {
                return Err("ARRIVES count 3".into());
            }
            address(i)
        }
        Op::FenceViewAsync | Op::Yield => {}
        _ => unreachable!("not an ELECT or SYNCS op"),
    }
    Ok(())
}
