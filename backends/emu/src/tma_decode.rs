//! Operands of sm_90's TMA and bulk copies (UTMALDG, UTMASTG, UTMAPF, UBLKCP, UBLKPF) as ptxas
//! 13.5 encodes them (fields in `ptxforge-sass`'s `encode_tma.rs`): the uniform registers each
//! reads, for the hazard model and the machine (`tma.rs`).

use super::{add_read, Inst, Op, Operand};

/// The dimension count of a tensor op (bits 79..81, plus one).
pub(crate) fn dims(i: &Inst) -> u8 {
    i.f(79, 3) as u8 + 1
}

/// Registers in a tensor op's group (32..37): shared address, mbarrier (loads), coordinates.
pub(crate) fn group_len(i: &Inst) -> u8 {
    dims(i)
        + match i.op {
            Op::Utmaldg => 2,
            Op::Utmastg => 1,
            _ => 0,
        }
}

/// Fills the operand slots and read lists: `a` the group or destination (32..37), `b` the tensor
/// map or source (24..29), `c` the size or multicast register (64..69); the cache hint's pair
/// (40..45, bit 76) is read but has no effect here.
pub(super) fn operands(i: &mut Inst) -> Result<(), String> {
    if !i.bit(91) {
        return Err(format!("{} without bit 91", i.op.name()));
    }
    if dims(i) > 5 {
        return Err("more than five dimensions".into());
    }
    let (a, b, c) = (
        Operand::Ur(i.f(32, 6) as u8),
        Operand::Ur(i.f(24, 6) as u8),
        Operand::Ur(i.f(64, 6) as u8),
    );
    match i.op {
        Op::Utmaldg | Op::Utmastg | Op::Utmapf => {
            let n = group_len(i);
            (i.a, i.b) = (a, b);
            add_read(i, a, n);
            add_read(i, b, 2);
            if i.bit(75) {
                i.c = c;
                add_read(i, c, 1);
            }
        }
        Op::Ublkcp => {
            let dir = i.f(73, 2);
            if dir == 0 {
                return Err("UBLKCP direction 0".into());
            }
            let (na, nb) = match dir {
                2 => (2, 1),
                1 => (2, 2),
                _ => (2, 1),
            };
            (i.a, i.b, i.c) = (a, b, c);
            add_read(i, a, na);
            add_read(i, b, nb);
            add_read(i, c, 1);
        }
        Op::Ublkpf => {
            (i.b, i.c) = (b, c);
            add_read(i, b, 2);
            add_read(i, c, 1);
        }
        _ => unreachable!("not a TMA op"),
    }
    if i.bit(76) {
        add_read(i, Operand::Ur(i.f(40, 6) as u8), 2);
    }
    Ok(())
}
