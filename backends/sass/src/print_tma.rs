//! nvdisasm's text for `tma.rs`'s instructions.

use crate::ir::*;
use crate::tma::{TensorAccess, TmaOp};

fn ur(s: &Src) -> String {
    match s.val {
        SrcVal::Reg(r) => format!("UR{}", r.idx),
        _ => "URZ".into(),
    }
}

/// `, desc[URn]` when the cache hint is present.
fn hint(i: &Instr) -> String {
    match i.srcs[3].as_reg() {
        Some(_) => format!(", desc[{}]", ur(&i.srcs[3])),
        None => String::new(),
    }
}

pub(crate) fn print_tma(i: &Instr, op: TmaOp) -> String {
    match op {
        TmaOp::Tensor { access, dims } => {
            let name = match access {
                TensorAccess::Load => "UTMALDG".to_string(),
                TensorAccess::Store => "UTMASTG".to_string(),
                TensorAccess::Reduce(_) => "UTMAREDG".to_string(),
                TensorAccess::Prefetch => "UTMAPF.L2".to_string(),
            };
            let red = match access {
                TensorAccess::Reduce(r) => format!(".{}", r.name()),
                _ => String::new(),
            };
            let (mc, mask) = match i.srcs[2].as_reg() {
                Some(_) => (".MULTICAST", format!(", {}", ur(&i.srcs[2]))),
                None => ("", String::new()),
            };
            format!(
                "{name}.{dims}D{red}{mc} [{}], [{}]{mask}{}",
                ur(&i.srcs[0]),
                ur(&i.srcs[1]),
                hint(i)
            )
        }
        TmaOp::Bulk { dir, multicast } => format!(
            "UBLKCP{}{} [{}], [{}], {}{}",
            dir.suffix(),
            if multicast { ".MULTICAST" } else { "" },
            ur(&i.srcs[0]),
            ur(&i.srcs[1]),
            ur(&i.srcs[2]),
            hint(i)
        ),
        TmaOp::BulkPrefetch => format!(
            "UBLKPF.L2 [{}], {}{}",
            ur(&i.srcs[1]),
            ur(&i.srcs[2]),
            hint(i)
        ),
        TmaOp::BulkCommit => "UTMACMDFLUSH".into(),
    }
}
