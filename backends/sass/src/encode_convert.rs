//! Encodings of the conversions with a 64-bit side: I2F (0x312), F2I (0x311) and F2F (0x310).
//!
//! Fields, as ptxas 13.5 writes them on sm_75..sm_90: source B at 32..39; destination size 75..76
//! and source size 84..85 (2 = 32-bit, 3 = 64-bit); signed integer at 74 (I2F's source) or 72
//! (F2I's destination); rounding 78..79 (RN RM RP RZ, which F2I prints as -, FLOOR, CEIL, TRUNC).

use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::encode_double::round_code;
use crate::ir::*;

/// Encodes I2F/F2I/F2F with 64-bit operands into `w` (without guard, destination and control bits).
pub(crate) fn encode_convert(i: &Instr, w: &mut Word) -> EResult<()> {
    let (opcode, dst, src, rnd, signed_bit) = match i.op {
        Opcode::I2fWide { dst, src, rnd } => (0x312, dst, src, rnd, Some((74, src))),
        Opcode::F2iWide { dst, src, rnd } => (0x311, dst, src, rnd, Some((72, dst))),
        Opcode::F2f { dst, src, rnd } => (0x310, dst, src, rnd, None),
        _ => return Err(EncodeError(format!("{:?} is not a conversion", i.op))),
    };
    w.set(0, 12, opcode);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    w.set(75, 2, size_code(dst));
    w.set(84, 2, size_code(src));
    w.set(78, 2, round_code(rnd));
    if let Some((bit, int)) = signed_bit {
        w.set(bit, 1, int.is_signed() as u64);
    }
    Ok(())
}

fn size_code(f: NumFormat) -> u64 {
    if f.is_wide() {
        3
    } else {
        2
    }
}
