//! Encodings of the conversions I2F, F2I and F2F between every integer width, f16, f32 and f64.
//!
//! Fields, as ptxas 13.5 writes them on sm_75..sm_90: where a side is 64-bit the opcodes are I2F
//! 0x312, F2I 0x311, F2F 0x310, else 0x306, 0x305 (always `.NTZ`, bit 77) and 0x304; source B at
//! 32..39; result size 75..76 and source size 84..85 (0 = 8-bit, 1 = 16-bit, 2 = 32-bit, 3 =
//! 64-bit); signed integer at 74 (I2F's source) or 72 (F2I's result); rounding 78..79 (RN RM RP
//! RZ, which F2I prints as -, FLOOR, CEIL, TRUNC).

use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::encode_double::round_code;
use crate::ir::*;

/// Encodes I2F/F2I/F2F into `w` (without guard, destination and control bits).
pub(crate) fn encode_convert(i: &Instr, w: &mut Word) -> EResult<()> {
    let (opcode, dst, src, rnd, signed_bit) = match i.op {
        Opcode::I2fWide { dst, src, rnd } => (0x306, dst, src, rnd, Some((74, src))),
        Opcode::F2iWide { dst, src, rnd } => (0x305, dst, src, rnd, Some((72, dst))),
        Opcode::F2f { dst, src, rnd } => (0x304, dst, src, rnd, None),
        _ => return Err(EncodeError(format!("{:?} is not a conversion", i.op))),
    };
    let wide = dst.is_wide() || src.is_wide();
    w.set(0, 12, if wide { opcode + 0xc } else { opcode });
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    w.set(75, 2, dst.size_code());
    w.set(84, 2, src.size_code());
    w.set(78, 2, round_code(rnd));
    if let Some((bit, int)) = signed_bit {
        w.set(bit, 1, int.is_signed() as u64);
    }
    if opcode == 0x305 && !wide {
        w.set(77, 1, 1);
    }
    // F2I from bf16: source size 0 with the bf16 bit.
    if opcode == 0x305 && src == NumFormat::Bf16 {
        w.set(84, 2, 0);
        w.set(86, 1, 1);
    }
    // F2F to bf16: result size 0 with the bf16 bit.
    if opcode == 0x304 && dst == NumFormat::Bf16 {
        w.set(75, 2, 0);
        w.set(77, 1, 1);
    }
    Ok(())
}
