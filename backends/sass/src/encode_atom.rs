//! Encodings of the atomics (ATOMS, ATOMG, RED), the bit-manipulation ops (FLO, POPC, BREV,
//! BMSK) and integer division's reciprocal seed (I2F.RP, MUFU.RCP), learned from ptxas 13.5's output for the same PTX and checked against nvdisasm.
//!
//! Memory atomics share one layout: d 16..23, address 24..31, data 32..39, offset 40..63, type
//! 73..75, scope 76..80, operation 87..90 (RED: 87..89). The type and scope codes differ per
//! architecture (tables below).

use super::{dst_gpr, err, set_alu_ab, src_gpr, ureg, EResult, Word, PT, RZ};
use crate::arch::Sm;
use crate::ir::*;

/// FLO[.U32][.SH] / POPC / BREV: one source in the B slot, variable latency.
pub(super) fn encode_bit_unary(w: &mut Word, i: &Instr) -> EResult<()> {
    let opcode = match i.op {
        Opcode::Flo { .. } => 0x300,
        Opcode::Popc => 0x309,
        Opcode::Brev => 0x301,
        _ => return err(i, "not a unary bit op"),
    };
    w.set(0, 12, opcode);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    if let Opcode::Flo { signed, sh } = i.op {
        // ptxas: FLO.U32 0x000, FLO 0x200, FLO.U32.SH 0x400, FLO.SH 0x600 at bit 64.
        w.set(73, 1, signed as u64);
        w.set(74, 1, sh as u64);
        w.set(81, 3, PT);
    }
    Ok(())
}

/// I2F[.U32].RP d, s: ptxas's bits for the reciprocal seed of integer division (all of sm_75..sm_90).
pub(super) fn encode_i2f_rp(w: &mut Word, i: &Instr, signed: bool) -> EResult<()> {
    w.set(0, 12, 0x306);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    // Bits 76 and 85 as every I2F, .RP = 2 in the rounding field 78..79, .S32 at 74 (0x209000 /
    // 0x209400 in ptxas's `I2F.U32.RP` / `I2F.RP`).
    w.set(64, 24, 0x20_9000 | (signed as u64) << 10);
    Ok(())
}

/// MUFU's function field (74..79): RCP and RSQ.
pub(super) const MUFU_RCP: u64 = 4;
pub(super) const MUFU_RSQ: u64 = 5;

/// MUFU.<func> d, a (register source).
pub(super) fn encode_mufu(w: &mut Word, i: &Instr, func: u64) -> EResult<()> {
    w.set(0, 12, 0x308);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    w.set(74, 6, func);
    Ok(())
}

/// FRND[.FTZ].rnd d, a on f32: result and source sizes 2 (32-bit) at 75..76 and 84..85, the
/// rounding at 78..79, .FTZ at 80 (ptxas's 0x201000 | rnd << 14).
pub(super) fn encode_frnd(w: &mut Word, i: &Instr, ftz: bool, rnd: Round) -> EResult<()> {
    w.set(0, 12, 0x307);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    w.set(75, 2, 2);
    w.set(84, 2, 2);
    w.set(78, 2, crate::encode_double::round_code(rnd));
    w.set(80, 1, ftz as u64);
    Ok(())
}

/// FRND.F16 (sizes 1 at 75..76 and 84..85) or FRND.BF16 (sizes 0, bits 77 and 86), rounding at
/// 78..79.
pub(super) fn encode_frnd_half(w: &mut Word, i: &Instr, rnd: Round, bf16: bool) -> EResult<()> {
    w.set(0, 12, 0x307);
    w.set(32, 8, src_gpr(&i.srcs[0])?);
    let size = if bf16 { 0 } else { 1 };
    w.set(75, 2, size);
    w.set(84, 2, size);
    w.set(77, 1, bf16 as u64);
    w.set(86, 1, bf16 as u64);
    w.set(78, 2, crate::encode_double::round_code(rnd));
    Ok(())
}

/// BMSK[.W] d, start, width.
pub(super) fn encode_bmsk(w: &mut Word, i: &Instr, wrap: bool) -> EResult<()> {
    set_alu_ab(w, 0x01b, &i.srcs[0], &i.srcs[1])?;
    w.set(75, 1, wrap as u64);
    Ok(())
}

/// The operation field (87..90).
fn op_code(op: AtomOp) -> u64 {
    match op {
        AtomOp::Add | AtomOp::Cas => 0,
        AtomOp::Min => 1,
        AtomOp::Max => 2,
        AtomOp::Inc => 3,
        AtomOp::Dec => 4,
        AtomOp::And => 5,
        AtomOp::Or => 6,
        AtomOp::Xor => 7,
        AtomOp::Exch => 8,
    }
}

/// The type field (73..75) of ATOMG/RED: S64 moved on sm_90 (where f32 adds are another opcode).
fn global_type_code(sm: Sm, ty: AtomType) -> u64 {
    match ty {
        AtomType::U32 => 0,
        AtomType::S32 => 1,
        AtomType::U64 => 2,
        AtomType::F32 => 3,
        AtomType::F64 => 6,
        AtomType::F16x2 | AtomType::Bf16x2 => 4,
        AtomType::S64 if sm.num >= 90 => 3,
        AtomType::S64 => 5,
    }
}

/// sm_90's float adds (ATOMG 0x9a3, REDG 0x9a6) with a 4-bit type at 73..76 (over the scope's
/// low bit): F16x2 0, BF16x2 3, F32 9, F64 15, as ptxas 13.5 writes `ATOMG.E.ADD.F32.FTZ.RN`,
/// `REDG.E.ADD.F64.RN`, `ATOMG.E.ADD.BF16x2.RN` there.
fn f32_add_sm90(sm: Sm, ty: AtomType) -> bool {
    ty.is_float() && sm.num >= 90
}

/// The type (73..75) and scope (76..80) fields of ATOMG/RED.
fn set_type_and_scope(sm: Sm, w: &mut Word, ty: AtomType, scope: MemScope) {
    if f32_add_sm90(sm, ty) {
        let code = match ty {
            AtomType::F16x2 => 0,
            AtomType::Bf16x2 => 3,
            AtomType::F64 => 15,
            _ => 9,
        };
        w.set(76, 5, scope_code(sm, scope));
        w.set(73, 4, code);
    } else {
        w.set(73, 3, global_type_code(sm, ty));
        w.set(76, 5, scope_code(sm, scope));
    }
}

/// The scope field (76..80) of ATOMG/RED.
fn scope_code(sm: Sm, scope: MemScope) -> u64 {
    match (sm.num >= 80, scope) {
        (false, MemScope::Cta) => 0x10,
        (false, MemScope::Gpu) => 0x14,
        (false, MemScope::Sys) => 0x16,
        (true, MemScope::Cta) => 0x0a,
        (true, MemScope::Gpu) => 0x0e,
        (true, MemScope::Sys) => 0x14,
    }
}

fn set_mem_operands(w: &mut Word, i: &Instr, offset: i32) -> EResult<()> {
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 8, src_gpr(&i.srcs[1])?);
    w.set(40, 24, offset as u64);
    Ok(())
}

/// CAS's new value: the register after the compare value (two after, for 64-bit types) in s1's
/// group.
fn cas_new_value_reg(i: &Instr, ty: AtomType) -> EResult<u64> {
    Ok(src_gpr(&i.srcs[1])? + ty.words() as u64)
}

/// ATOMS.op[.S32|.64] d, [a + offset], b.
pub(super) fn encode_atoms(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    op: AtomOp,
    ty: AtomType,
    offset: i32,
) -> EResult<()> {
    if ty.is_float() || (ty.is_wide() && !matches!(op, AtomOp::Exch | AtomOp::Cas)) {
        return err(i, "ATOMS form not supported");
    }
    w.set(0, 12, if op == AtomOp::Cas { 0x38d } else { 0x38c });
    w.set(16, 8, dst_gpr(&i.dsts[0])?);
    set_mem_operands(w, i, offset)?;
    if op == AtomOp::Cas {
        w.set(64, 8, cas_new_value_reg(i, ty)?);
    } else if sm.num < 80 {
        w.set(64, 8, RZ);
    }
    let ty_code = match ty {
        AtomType::S32 => 1,
        AtomType::U64 | AtomType::S64 => 2,
        _ => 0,
    };
    w.set(73, 3, ty_code);
    w.set(87, 4, op_code(op));
    Ok(())
}

/// The descriptor byte of ATOMG/RED (64..71): URZ-like 0xff on sm_75, else the UR with `flags` on top.
fn set_descriptor(sm: Sm, w: &mut Word, i: &Instr, flags: u64) -> EResult<()> {
    if sm.num < 80 {
        w.set(64, 8, flags);
        return Ok(());
    }
    let desc = i.srcs[2]
        .as_reg()
        .ok_or_else(|| super::EncodeError("global atomic without a descriptor".into()))?;
    w.set(64, 6, ureg(&desc)?);
    w.set(70, 2, flags >> 6);
    Ok(())
}

/// ATOMG.E.op[.type].STRONG.scope PT, d, [a.64 + offset], b.
pub(super) fn encode_atomg(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    op: AtomOp,
    ty: AtomType,
    scope: MemScope,
    offset: i32,
) -> EResult<()> {
    let cas = op == AtomOp::Cas;
    if ty.is_float() && op != AtomOp::Add {
        return err(i, "ATOMG form not supported");
    }
    w.set(
        0,
        12,
        if cas {
            0x3a9
        } else if f32_add_sm90(sm, ty) {
            0x9a3
        } else if sm.num >= 80 {
            0x9a8
        } else {
            0x3a8
        },
    );
    w.set(16, 8, dst_gpr(&i.dsts[0])?);
    set_mem_operands(w, i, offset)?;
    if cas {
        // No descriptor: the new value's register takes its byte.
        w.set(64, 8, cas_new_value_reg(i, ty)?);
    } else {
        set_descriptor(sm, w, i, if sm.num >= 80 { 0xc0 } else { 0xff })?;
    }
    w.set(72, 1, 1);
    set_type_and_scope(sm, w, ty, scope);
    w.set(81, 3, PT);
    w.set(84, 1, 1);
    w.set(87, 4, op_code(op));
    w.set(91, 1, (sm.num >= 80 && !cas) as u64);
    Ok(())
}

/// ATOM.E.op[.type].STRONG.scope P, d, [a.64 + offset], b: the generic-space atomic, laid out as
/// ATOMG with its own opcodes (0x98a, 0x38a on sm_75; CAS 0x38b). Float adds (0x98a with the
/// ATOMG type codes; sm_90: 0x9a2 with the 4-bit float type) work on global memory only and set
/// the predicate d1 (81..83) when they did; PT elsewhere.
pub(super) fn encode_atom_generic(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    op: AtomOp,
    ty: AtomType,
    scope: MemScope,
    offset: i32,
) -> EResult<()> {
    if ty.is_float() && op != AtomOp::Add {
        return err(i, "generic float ATOM other than ADD not supported");
    }
    encode_atomg(sm, w, i, op, ty, scope, offset)?;
    let opcode = match (op, sm.num >= 80) {
        (AtomOp::Cas, _) => 0x38b,
        _ if f32_add_sm90(sm, ty) => 0x9a2,
        (_, true) => 0x98a,
        (_, false) => 0x38a,
    };
    w.set(0, 12, opcode);
    w.set(81, 3, super::pred_dst(&i.dsts[1])?);
    Ok(())
}

/// RED.E.op[.type].STRONG.scope [a.64 + offset], b.
pub(super) fn encode_red(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    op: AtomOp,
    ty: AtomType,
    scope: MemScope,
    offset: i32,
) -> EResult<()> {
    if matches!(op, AtomOp::Cas | AtomOp::Exch) || (ty.is_float() && op != AtomOp::Add) {
        return err(i, "RED form not supported");
    }
    w.set(0, 12, if f32_add_sm90(sm, ty) { 0x9a6 } else { 0x98e });
    set_mem_operands(w, i, offset)?;
    set_descriptor(sm, w, i, if sm.num >= 80 { 0x80 } else { 0 })?;
    w.set(72, 1, 1);
    set_type_and_scope(sm, w, ty, scope);
    w.set(84, 1, 1);
    w.set(87, 3, op_code(op));
    if sm.num >= 80 {
        w.set(90, 2, 3);
    }
    Ok(())
}
