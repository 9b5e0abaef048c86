//! HMMA.SP, IMMA.SP and QMMA.SP (`mma.sp`) for the nvdisasm form list: every native shape and
//! type on the architecture, each selector, `.SAT`, and a zero (RZ) accumulator.

use super::*;
use ptxforge_sass::mma_sparse::SparseMma;

/// Every sparse form that runs on `sm`.
pub(super) fn mma_sparse_forms(sm: Sm) -> Vec<Instr> {
    use MmaElem::*;
    let group = |idx: u32, comps: u8| Reg {
        comps,
        ..Reg::gpr(idx)
    };
    let inputs = [
        (F16, F16, &[16, 32][..]),
        (Bf16, Bf16, &[16, 32][..]),
        (Tf32, Tf32, &[8, 16][..]),
        (S8, S8, &[32, 64][..]),
        (U8, S8, &[32, 64][..]),
        (S8, U8, &[32, 64][..]),
        (U4, U4, &[64, 128][..]),
        (S4, U4, &[64, 128][..]),
        (E4m3, E5m2, &[64][..]),
        (E5m2, E4m3, &[64][..]),
        (E4m3, E4m3, &[64][..]),
    ];
    let mut v = Vec::new();
    for (a, b, ks) in inputs {
        for acc in [F16, F32, S32] {
            for &k in ks {
                for sat in [false, true] {
                    for selector in 0..4 {
                        let sp = SparseMma {
                            op: MmaOp {
                                shape: MmaShape { m: 16, n: 8, k },
                                a,
                                b,
                                acc,
                                sat,
                                scoreboarded: false,
                            },
                            selector,
                        };
                        let int = acc == S32;
                        if !sp.is_native(sm) || (sat && !int) {
                            continue;
                        }
                        let c = if selector == 1 {
                            Src::ZERO
                        } else {
                            Src::reg(group(20, sp.acc_regs()))
                        };
                        v.push(Instr::new(
                            Opcode::MmaSp(sp),
                            &[Dst::Reg(group(4, sp.acc_regs()))],
                            &[
                                Src::reg(group(8, sp.a_regs())),
                                Src::reg(group(12, sp.b_regs())),
                                c,
                                r(3 + selector as u32),
                            ],
                        ));
                    }
                }
            }
        }
    }
    v
}
