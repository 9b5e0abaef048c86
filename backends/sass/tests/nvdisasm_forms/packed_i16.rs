//! Forms of the two packed 16-bit integer ops of sm_90: VIADD.16x2 and VIMNMX.{S,U}16x2 with and
//! without `.RELU`, as min (PT) and max (!PT).

use super::*;

pub(super) fn packed_i16_forms() -> Vec<Instr> {
    let mut v = vec![Instr::new(Opcode::Viadd16x2, &[d(7)], &[r(0), r(5)])];
    for signed in [false, true] {
        for relu in [false, signed] {
            for minmax in [Src::TRUE, Src::FALSE] {
                let op = Opcode::Vimnmx16x2 { signed, relu };
                v.push(Instr::new(op, &[d(11)], &[r(3), r(250), minmax]));
            }
        }
    }
    v
}
