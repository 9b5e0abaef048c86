//! MOVM (sm_75+), STSM (sm_90) and sm_75's HMMA.884 steps for the nvdisasm form list.

use super::*;
use ptxforge_sass::matrix_move::MatrixOp;

/// Every MatrixOp form that runs on `sm`.
pub(super) fn matrix_move_forms(sm: Sm) -> Vec<Instr> {
    let group = |idx: u32, comps: u8| Reg {
        comps,
        ..Reg::gpr(idx)
    };
    let mut v = vec![Instr::new(Opcode::Matrix(MatrixOp::Movm), &[d(9)], &[r(4)])];
    if sm.num >= 90 {
        for (count, offset) in [(1, 0), (2, 0x200), (4, -0x10)] {
            for trans in [false, true] {
                v.push(Instr::new(
                    Opcode::Matrix(MatrixOp::Stsm {
                        count,
                        trans,
                        offset,
                    }),
                    &[],
                    &[r(3), Src::reg(group(8, count))],
                ));
            }
        }
    }
    if sm.num == 75 {
        for (f32_d, f32_c) in [(true, true), (true, false), (false, false)] {
            for (a_col, b_col) in [(false, false), (false, true), (true, false), (true, true)] {
                let steps = if f32_d { 4 } else { 2 };
                for step in 0..steps {
                    v.push(Instr::new(
                        Opcode::Matrix(MatrixOp::Hmma884 {
                            step,
                            a_col,
                            b_col,
                            f32_d,
                            f32_c,
                        }),
                        &[Dst::Reg(group(12, 2))],
                        &[
                            Src::reg(group(4, 2)),
                            Src::reg(group(6, 2)),
                            Src::reg(group(8, 2)),
                        ],
                    ));
                }
            }
        }
    }
    v
}
