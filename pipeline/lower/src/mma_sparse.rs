//! Sparse `mma.sp` / `mma.sp::ordered_metadata` to `Opcode::MmaSp` (HMMA.SP, IMMA.SP, QMMA.SP):
//! the PTX form read into a [`SparseMma`] (logical shape, types, `.satfinite`, the immediate
//! sparsity selector) and the fragments moved into register groups as `mma.rs` does; the
//! metadata operand is one register. ptxas 13.5 gives both variants the same instruction.
//! Forms that are not one instruction on the target (sm_90's 4-bit and fp8 sparse forms, which
//! ptxas rewrites with metadata shuffles) get "not supported yet".

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;
use ptxforge_sass::mma_sparse::SparseMma;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// Whether `i` is a sparse `mma`.
pub fn is_sparse(i: &Instruction) -> bool {
    i.opcode() == "mma" && i.mods().iter().any(|m| is_sparse_variant(m))
}

fn is_sparse_variant(m: &str) -> bool {
    m == "sp" || m == "sp::ordered_metadata"
}

/// The machine op of a sparse `mma` on `sm`, `None` where the form is not one instruction there.
pub fn sparse_op(i: &Instruction, sm: Sm) -> Option<SparseMma> {
    let mods = i.mods();
    let shape = mods.iter().find_map(|m| {
        let (n, k) = m.strip_prefix("m16n")?.split_once('k')?;
        Some(MmaShape {
            m: 16,
            n: n.parse().ok()?,
            k: k.parse().ok()?,
        })
    })?;
    let types: Vec<MmaElem> = mods.iter().filter_map(|m| MmaElem::parse(m)).collect();
    let known = mods.iter().all(|m| {
        is_sparse_variant(m)
            || matches!(m.as_str(), "sync" | "aligned" | "row" | "col" | "satfinite")
            || m.starts_with("m16n")
            || MmaElem::parse(m).is_some()
    });
    let [d, a, b, c] = types[..] else {
        return None;
    };
    let sat = i.has_mod("satfinite");
    if !known || d != c || !i.has_mod("row") || !i.has_mod("col") || sat && d != MmaElem::S32 {
        return None;
    }
    let Some(Operand::Imm(selector)) = i.operands.get(5) else {
        return None;
    };
    let sp = SparseMma {
        op: MmaOp {
            shape,
            a,
            b,
            acc: d,
            sat,
            scoreboarded: false,
        },
        selector: u8::try_from(*selector).ok()?,
    };
    sp.is_native(sm).then_some(sp)
}

/// The register counts of D, A, B and C of a sparse `mma` this file lowers (for fragment binding).
pub fn fragment_sizes(i: &Instruction, sm: Sm) -> Option<[u8; 4]> {
    let sp = sparse_op(i, sm)?;
    Some([sp.acc_regs(), sp.a_regs(), sp.b_regs(), sp.acc_regs()])
}

impl Ctx<'_> {
    /// `mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
    /// d, a, b, c, e, f`.
    pub fn lower_mma_sparse(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || format!("'mma.{}' is not supported yet", i.mods().join("."));
        let sp = sparse_op(i, self.sm).ok_or_else(unsupported)?;
        let ops = operands_exactly(i, 6)?;
        let a = self.fragment_in(&ops[1], sp.a_regs())?;
        let b = self.fragment_in(&ops[2], sp.b_regs())?;
        let c = self.fragment_in(&ops[3], sp.acc_regs())?;
        let e = self.src32(&ops[4])?;
        let e = self.in_reg(e);
        let op = Opcode::MmaSp(sp);
        if let Some(d) = self.bound_fragment(&ops[0], sp.acc_regs()) {
            self.emit(op, &[Dst::Reg(d)], &[a, b, c, e]);
            return Ok(());
        }
        let d = self.f.new_vreg(RegFile::Gpr, sp.acc_regs());
        self.emit(op, &[Dst::Reg(d)], &[a, b, c, e]);
        self.fragment_out(&ops[0], d)
    }
}
