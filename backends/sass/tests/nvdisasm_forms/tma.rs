//! The sm_90 TMA and bulk-copy forms (`tma.rs`): every dimension count and access, multicast,
//! cache hints, every bulk direction, and the bulk group's UTMACMDFLUSH.

use ptxforge_sass::ir::*;
use ptxforge_sass::tma::{BulkDir, BulkRed, TensorAccess, TmaOp::*};

pub fn tma_forms(v: &mut Vec<Instr>) {
    use Opcode::Tma;
    let ur = |i: u32, n: u8| Src::reg(Reg::ugpr(i, n));
    let none = Src::NONE;
    for dims in 1..=5u8 {
        let n = dims + 2;
        for access in [
            TensorAccess::Load,
            TensorAccess::Store,
            TensorAccess::Prefetch,
        ] {
            let op = Tma(Tensor { access, dims });
            v.push(Instr::new(op, &[], &[ur(8, n), ur(16, 2)]));
            v.push(Instr::new(op, &[], &[ur(8, n), ur(16, 2), none, ur(18, 2)]));
        }
        let load = Tma(Tensor {
            access: TensorAccess::Load,
            dims,
        });
        v.push(Instr::new(load, &[], &[ur(8, n), ur(16, 2), ur(4, 1)]));
        v.push(Instr::new(
            load,
            &[],
            &[ur(8, n), ur(16, 2), ur(4, 1), ur(18, 2)],
        ));
    }
    for red in BulkRed::ALL {
        let op = Tma(Tensor {
            access: TensorAccess::Reduce(red),
            dims: 2,
        });
        v.push(Instr::new(op, &[], &[ur(8, 4), ur(4, 2)]));
        v.push(Instr::new(op, &[], &[ur(8, 4), ur(4, 2), none, ur(22, 2)]));
    }
    for dir in [
        BulkDir::GlobalToShared,
        BulkDir::SharedToGlobal,
        BulkDir::SharedToShared,
    ] {
        for multicast in [false, true] {
            let op = Tma(Bulk { dir, multicast });
            v.push(Instr::new(op, &[], &[ur(8, 2), ur(4, 2), ur(6, 1)]));
            v.push(Instr::new(
                op,
                &[],
                &[ur(8, 2), ur(4, 2), ur(7, 1), ur(22, 2)],
            ));
        }
    }
    v.push(Instr::new(
        Tma(BulkPrefetch),
        &[],
        &[none, ur(4, 2), ur(6, 1)],
    ));
    v.push(Instr::new(
        Tma(BulkPrefetch),
        &[],
        &[none, ur(4, 2), ur(6, 1), ur(22, 2)],
    ));
    v.push(Instr::new(Tma(BulkCommit), &[], &[]));
}
