//! Encoding of LEA and LEA.HI.X (shift-and-add of an address's low and high words), learned from
//! ptxas 13.5's output for `shl.b64` + `add.s64` on sm_75..sm_90 and checked against nvdisasm.
//!
//! An ALU form (base 0x011; A 24..31, B 32..39 or a cbuf, C 64..71): `.X` at 74, the shift at
//! 75..79, `.HI` at 80, the carry out at 81..83 (PT when none), the carry in at 87..90 (`!PT`
//! when none).

use crate::encode::{pred_dst, set_alu_abc, set_pred, EResult, EncodeError, Word};
use crate::ir::*;

/// LEA (`hi == false`) or LEA.HI.X (the destination is written by the caller).
pub(crate) fn encode_lea(w: &mut Word, i: &Instr, hi: bool, shift: u8) -> EResult<()> {
    let [a, b, c, carry_in, _] = &i.srcs;
    if shift >= 32 || matches!(b.val, SrcVal::Imm(_)) || a.neg || b.neg || c.neg {
        return Err(EncodeError(format!("LEA form {:?}", i.srcs)));
    }
    let (c, carry_out, carry_in) = if hi {
        (c, Dst::None, carry_in)
    } else {
        (&Src::ZERO, i.dsts[1], &Src::FALSE)
    };
    set_alu_abc(w, 0x011, a, b, c)?;
    w.set(74, 1, hi as u64);
    w.set(75, 5, shift as u64);
    w.set(80, 1, hi as u64);
    w.set(81, 3, pred_dst(&carry_out)?);
    set_pred(w, 87, carry_in)
}

#[cfg(test)]
mod tests {
    use crate::arch::SUPPORTED_SMS;
    use crate::encode::encode_instr;
    use crate::ir::*;

    /// ptxas 13.5's words (sm_75, sm_80 and sm_90 alike) with the control bits (105..127) cleared.
    #[test]
    fn lea_forms_match_ptxas_words() {
        let (r, p) = (|i| Src::reg(Reg::gpr(i)), |i| Src::reg(Reg::pred(i)));
        let d = |i| Dst::Reg(Reg::gpr(i));
        let lea = |hi, shift| Opcode::Lea { hi, shift };
        let cases = [
            // LEA R6, P0, R13, R2, 0x2
            (
                Instr::new(
                    lea(false, 2),
                    &[d(6), Dst::Reg(Reg::pred(0))],
                    &[r(13), r(2)],
                ),
                [0x000000020d067211, 0x078010ff],
            ),
            // LEA R8, R13, R8, 0x3
            (
                Instr::new(lea(false, 3), &[d(8)], &[r(13), r(8)]),
                [0x000000080d087211, 0x078e18ff],
            ),
            // LEA.HI.X R11, R8, R3, R9, 0x4, P1
            (
                Instr::new(lea(true, 4), &[d(11)], &[r(8), r(3), r(9), p(1)]),
                [0x00000003080b7211, 0x008f2409],
            ),
            // LEA R4, P0, R0, c[0x0][0x168], 0x3
            (
                Instr::new(
                    lea(false, 3),
                    &[d(4), Dst::Reg(Reg::pred(0))],
                    &[r(0), Src::cbuf(0, 0x168)],
                ),
                [0x00005a0000047a11, 0x078018ff],
            ),
            // LEA.HI.X R5, R0, c[0x0][0x16c], R3, 0x3, P0
            (
                Instr::new(
                    lea(true, 3),
                    &[d(5)],
                    &[r(0), Src::cbuf(0, 0x16c), r(3), p(0)],
                ),
                [0x00005b0000057a11, 0x000f1c03],
            ),
        ];
        for sm in SUPPORTED_SMS {
            for (i, want) in &cases {
                let [lo, hi] = encode_instr(sm, i, 0, &[]).unwrap();
                assert_eq!([lo, hi & ((1 << 41) - 1)], *want, "{sm} {:?}", i.op);
            }
        }
    }
}
