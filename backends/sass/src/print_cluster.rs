//! nvdisasm's text for `cluster.rs`'s instructions.

use crate::cluster::ClusterOp;
use crate::ir::*;

pub(crate) fn print_cluster(i: &Instr, op: ClusterOp) -> String {
    match op {
        ClusterOp::BarArrive => "UCGABAR_ARV".into(),
        ClusterOp::BarWait => "UCGABAR_WAIT".into(),
        ClusterOp::TmaCtl { prefetch } => format!(
            "UTMACCTL.{} [{}]",
            if prefetch { "PF" } else { "IV" },
            crate::print::src(&i.srcs[0])
        ),
        ClusterOp::TmaCmdFlush => "UTMACMDFLUSH".into(),
        ClusterOp::SetMaxReg { inc, count } => {
            let mode = if inc { "TRY_ALLOC" } else { "DEALLOC" };
            match i.dsts[0] {
                Dst::Reg(r) => format!("USETMAXREG.{mode}.CTAPOOL UP{}, {count:#x}", r.idx),
                Dst::None => format!("USETMAXREG.{mode}.CTAPOOL {count:#x}"),
            }
        }
        ClusterOp::UisetpEq { imm } => format!(
            "UISETP.EQ.U32.AND {}, UPT, {}, {imm:#x}, UPT",
            crate::print::dst(&i.dsts[0]),
            crate::print::src(&i.srcs[0])
        ),
        ClusterOp::PredFromUniform => format!(
            "PLOP3.LUT {}, PT, PT, PT, {}, 0x80, 0x0",
            crate::print::dst(&i.dsts[0]),
            crate::print::pred(&i.srcs[0])
        ),
        ClusterOp::DepbarAll => "DEPBAR {5,4,3,2,1,0}".into(),
    }
}
