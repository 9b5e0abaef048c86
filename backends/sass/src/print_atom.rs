//! nvdisasm's text for the atomics (ATOMS, ATOMG, RED), the bit ops (FLO, POPC, BREV, BMSK) and
//! integer division's reciprocal seed (I2F.RP, MUFU.RCP).

use super::{dst, global_addr, offset_suffix, pdst, shared_addr, src};
use crate::arch::Sm;
use crate::ir::*;

fn op_name(op: AtomOp) -> &'static str {
    match op {
        AtomOp::Add => "ADD",
        AtomOp::Min => "MIN",
        AtomOp::Max => "MAX",
        AtomOp::Inc => "INC",
        AtomOp::Dec => "DEC",
        AtomOp::And => "AND",
        AtomOp::Or => "OR",
        AtomOp::Xor => "XOR",
        AtomOp::Exch => "EXCH",
        AtomOp::Cas => "CAS",
    }
}

fn type_suffix(ty: AtomType) -> &'static str {
    match ty {
        AtomType::U32 => "",
        AtomType::S32 => ".S32",
        AtomType::U64 => ".64",
        AtomType::S64 => ".S64",
        AtomType::F32 => ".F32.FTZ.RN",
        AtomType::F64 => ".F64.RN",
        AtomType::F16x2 => ".F16x2.RN",
        AtomType::Bf16x2 => ".BF16x2.RN",
    }
}

fn scope_suffix(sm: Sm, scope: MemScope) -> &'static str {
    match scope {
        MemScope::Cta if sm.num < 80 => ".STRONG.CTA",
        MemScope::Cta => ".STRONG.SM",
        MemScope::Gpu => ".STRONG.GPU",
        MemScope::Sys => ".STRONG.SYS",
    }
}

/// `, Rn`: CAS's new value, the register after the compare value `b` (two after, for 64-bit
/// types); nothing for the other operations.
fn cas_new_value(op: AtomOp, ty: AtomType, b: &Src) -> String {
    match (op, b.as_reg()) {
        (AtomOp::Cas, Some(r)) => format!(", R{}", r.idx + ty.words() as u32),
        _ => String::new(),
    }
}

/// The text of an atomic or bit op, or `None` for other opcodes.
pub(super) fn print_atom_or_bits(sm: Sm, i: &Instr) -> Option<String> {
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    Some(match i.op {
        Opcode::Flo { signed, sh } => format!(
            "FLO{}{} {d0}, {}",
            if signed { "" } else { ".U32" },
            if sh { ".SH" } else { "" },
            src(a)
        ),
        Opcode::Popc => format!("POPC {d0}, {}", src(a)),
        Opcode::Brev => format!("BREV {d0}, {}", src(a)),
        Opcode::I2fRp { signed } => format!(
            "I2F{}.RP {d0}, {}",
            if signed { "" } else { ".U32" },
            src(a)
        ),
        Opcode::MufuRcp => format!("MUFU.RCP {d0}, {}", src(a)),
        Opcode::MufuRsq => format!("MUFU.RSQ {d0}, {}", src(a)),
        Opcode::Frnd { ftz, rnd } => format!(
            "FRND{}{} {d0}, {}",
            if ftz { ".FTZ" } else { "" },
            match rnd {
                Round::Rn => "",
                Round::Rz => ".TRUNC",
                Round::Rm => ".FLOOR",
                Round::Rp => ".CEIL",
            },
            src(a)
        ),
        Opcode::FrndHalf { rnd, bf16 } => format!(
            "FRND{}{} {d0}, {}",
            if bf16 { ".BF16" } else { ".F16" },
            match rnd {
                Round::Rn => "",
                Round::Rz => ".TRUNC",
                Round::Rm => ".FLOOR",
                Round::Rp => ".CEIL",
            },
            src(a)
        ),
        Opcode::Bmsk { wrap } => format!(
            "BMSK{} {d0}, {}, {}",
            if wrap { ".W" } else { "" },
            src(a),
            src(b)
        ),
        Opcode::Atoms { op, ty, offset } => {
            let suffix = if ty == AtomType::S64 {
                ".64"
            } else {
                type_suffix(ty)
            };
            format!(
                "ATOMS.{}{suffix} {d0}, {}, {}{}",
                op_name(op),
                shared_addr(a, offset),
                src(b),
                cas_new_value(op, ty, b)
            )
        }
        Opcode::Atomg {
            op: AtomOp::Cas,
            ty,
            scope,
            offset,
        } => format!(
            "ATOMG.E.CAS{}{} PT, {d0}, [{}{}], {}{}",
            type_suffix(ty),
            scope_suffix(sm, scope),
            src(a),
            offset_suffix(offset),
            src(b),
            cas_new_value(AtomOp::Cas, ty, b)
        ),
        Opcode::Atomg {
            op,
            ty,
            scope,
            offset,
        } => format!(
            "ATOMG.E.{}{}{} PT, {d0}, {}, {}",
            op_name(op),
            type_suffix(ty),
            scope_suffix(sm, scope),
            global_addr(sm, a, c, offset),
            src(b)
        ),
        Opcode::Atom {
            op: AtomOp::Cas,
            ty,
            scope,
            offset,
        } => format!(
            "ATOM.E.CAS{}{} PT, {d0}, [{}{}], {}{}",
            type_suffix(ty),
            scope_suffix(sm, scope),
            src(a),
            offset_suffix(offset),
            src(b),
            cas_new_value(AtomOp::Cas, ty, b)
        ),
        Opcode::Atom {
            op,
            ty,
            scope,
            offset,
        } => format!(
            "ATOM.E.{}{}{} {}, {d0}, {}, {}",
            op_name(op),
            type_suffix(ty),
            scope_suffix(sm, scope),
            pdst(&i.dsts[1]),
            global_addr(sm, a, c, offset),
            src(b)
        ),
        Opcode::Red {
            op,
            ty,
            scope,
            offset,
        } => format!(
            "{}.E.{}{}{} {}, {}",
            if sm.num >= 90 { "REDG" } else { "RED" },
            op_name(op),
            type_suffix(ty),
            scope_suffix(sm, scope),
            global_addr(sm, a, c, offset),
            src(b)
        ),
        _ => return None,
    })
}
