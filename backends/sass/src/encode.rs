//! The SASS encoder for sm_75..sm_90: one 128-bit word per instruction.
//!
//! Field positions (verified against ptxas 13.5 output and nvdisasm): opcode 0..11 (base 0..8, operand
//! form 9..11), guard 12..15, dst 16..23, A 24..31, B 32..39 / imm 32..63 / cbuf 38..58, C 64..71,
//! modifiers 72..90, uniform flag 91, control bits 105..125. See `../shared/docs/sass.md`.

use std::fmt;

use crate::arch::Sm;
use crate::encode_mem::{encode_load, encode_store, Order};
use crate::ir::*;

#[path = "encode_atom.rs"]
mod encode_atom;

#[path = "encode_mufu.rs"]
mod encode_mufu;

#[path = "encode_warp.rs"]
mod encode_warp;

#[path = "encode_async.rs"]
mod encode_async;

#[path = "encode_mma.rs"]
mod encode_mma;

#[path = "encode_scalar.rs"]
mod encode_scalar;

/// Why an instruction could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode {}", self.0)
    }
}

pub(crate) type EResult<T> = Result<T, EncodeError>;

/// A 128-bit instruction word under construction.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Word(pub u128);

impl Word {
    /// Sets `width` bits at `pos` to `value` (extra high bits of `value` are dropped).
    pub fn set(&mut self, pos: u32, width: u32, value: u64) {
        let mask: u128 = if width == 128 {
            !0
        } else {
            (1u128 << width) - 1
        };
        self.0 = (self.0 & !(mask << pos)) | ((value as u128 & mask) << pos);
    }

    pub fn get(&self, pos: u32, width: u32) -> u64 {
        ((self.0 >> pos) & ((1u128 << width) - 1)) as u64
    }

    pub fn halves(&self) -> [u64; 2] {
        [self.0 as u64, (self.0 >> 64) as u64]
    }
}

const RZ: u64 = 255;
const PT: u64 = 7;

/// Encodes every instruction of `f` (blocks in order) into little-endian bytes.
pub fn encode_function(sm: Sm, f: &Function) -> EResult<Vec<u8>> {
    let offsets = block_offsets(f);
    let mut out = Vec::with_capacity(f.num_instrs() * 16);
    let mut pc = 0u32;
    for b in &f.blocks {
        for i in &b.instrs {
            let [lo, hi] = encode_instr(sm, i, pc, &offsets)?;
            out.extend_from_slice(&lo.to_le_bytes());
            out.extend_from_slice(&hi.to_le_bytes());
            pc += 16;
        }
    }
    Ok(out)
}

/// Byte offset of each block.
pub fn block_offsets(f: &Function) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(f.blocks.len() + 1);
    let mut pc = 0u32;
    for b in &f.blocks {
        offsets.push(pc);
        pc += 16 * b.instrs.len() as u32;
    }
    offsets
}

/// Encodes one instruction at byte address `pc`.
pub fn encode_instr(sm: Sm, i: &Instr, pc: u32, block_offsets: &[u32]) -> EResult<[u64; 2]> {
    let mut w = Word::default();
    encode_op(sm, i, pc, block_offsets, &mut w)?;
    set_guard(&mut w, &i.guard)?;
    set_deps(&mut w, &i.deps);
    Ok(w.halves())
}

fn err<T>(i: &Instr, why: &str) -> EResult<T> {
    Err(EncodeError(format!("{:?}: {why}", i.op)))
}

fn set_deps(w: &mut Word, d: &Deps) {
    w.set(105, 4, d.stall as u64);
    w.set(109, 1, d.yld as u64);
    w.set(110, 3, d.wr_sb.map_or(7, u64::from));
    w.set(113, 3, d.rd_sb.map_or(7, u64::from));
    w.set(116, 6, d.wait as u64);
    w.set(122, 4, d.reuse as u64);
}

/// Predicate index and negation of a predicate source (`PT` = 7).
fn pred_src(s: &Src) -> EResult<(u64, bool)> {
    match s.val {
        SrcVal::True => Ok((PT, s.neg)),
        SrcVal::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => Ok((r.idx as u64, s.neg)),
        _ => Err(EncodeError(format!("predicate operand {s:?}"))),
    }
}

fn set_guard(w: &mut Word, g: &Src) -> EResult<()> {
    // A uniform instruction's guard is a uniform predicate (`@UP0 UCGABAR_ARV`), same field.
    let (p, n) = match g.val {
        SrcVal::Reg(r) if r.file == RegFile::UPred && r.idx < 7 => (r.idx as u64, g.neg),
        _ => pred_src(g)?,
    };
    w.set(12, 3, p);
    w.set(15, 1, n as u64);
    Ok(())
}

pub(crate) fn set_pred(w: &mut Word, pos: u32, s: &Src) -> EResult<()> {
    let (p, n) = pred_src(s)?;
    w.set(pos, 3, p);
    w.set(pos + 3, 1, n as u64);
    Ok(())
}

pub(crate) fn pred_dst(d: &Dst) -> EResult<u64> {
    match d {
        Dst::None => Ok(PT),
        Dst::Reg(r) if r.file == RegFile::Pred && r.idx < 7 => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("predicate destination {d:?}"))),
    }
}

fn gpr(idx: u32) -> EResult<u64> {
    if idx < 255 {
        Ok(idx as u64)
    } else {
        Err(EncodeError(format!("register R{idx} out of range")))
    }
}

fn dst_gpr(d: &Dst) -> EResult<u64> {
    match d {
        Dst::None => Ok(RZ),
        Dst::Reg(r) if r.file == RegFile::Gpr => gpr(r.idx),
        _ => Err(EncodeError(format!("GPR destination {d:?}"))),
    }
}

pub(crate) fn src_gpr(s: &Src) -> EResult<u64> {
    match s.val {
        SrcVal::Zero => Ok(RZ),
        SrcVal::Reg(r) if r.file == RegFile::Gpr => gpr(r.idx),
        _ => Err(EncodeError(format!("GPR source {s:?}"))),
    }
}

fn ureg(r: &Reg) -> EResult<u64> {
    if r.file == RegFile::UGpr && r.idx < 63 {
        Ok(r.idx as u64)
    } else {
        Err(EncodeError(format!("uniform register {r:?}")))
    }
}

fn set_cbuf(w: &mut Word, bank: u8, offset: u16) {
    w.set(38, 16, offset as u64);
    w.set(54, 5, bank as u64);
}

/// Operand forms of the ALU encoding (bits 9..11).
pub(crate) const FORM_RRR: u64 = 1;
const FORM_IMM_C: u64 = 2;
const FORM_CBUF_C: u64 = 3;
const FORM_IMM_B: u64 = 4;
const FORM_CBUF_B: u64 = 5;

/// A (24..31), B (reg 32..39 / imm / cbuf) and C (64..71) of a three-source ALU op, choosing the form.
/// Only one of B and C may be an immediate or constant.
pub(crate) fn set_alu_abc(w: &mut Word, base: u64, a: &Src, b: &Src, c: &Src) -> EResult<()> {
    w.set(24, 8, src_gpr(a)?);
    let form = match (b.val, c.val) {
        (SrcVal::Imm(v), _) => {
            w.set(32, 32, v as u64);
            w.set(64, 8, src_gpr(c)?);
            FORM_IMM_B
        }
        (SrcVal::CBuf { bank, offset }, _) => {
            set_cbuf(w, bank, offset);
            w.set(64, 8, src_gpr(c)?);
            FORM_CBUF_B
        }
        (_, SrcVal::Imm(v)) => {
            w.set(32, 32, v as u64);
            w.set(64, 8, src_gpr(b)?);
            FORM_IMM_C
        }
        (_, SrcVal::CBuf { bank, offset }) => {
            set_cbuf(w, bank, offset);
            w.set(64, 8, src_gpr(b)?);
            FORM_CBUF_C
        }
        _ => {
            w.set(32, 8, src_gpr(b)?);
            w.set(64, 8, src_gpr(c)?);
            FORM_RRR
        }
    };
    w.set(0, 9, base);
    w.set(9, 3, form);
    Ok(())
}

/// Two-source ALU op: A and B (reg, imm or cbuf).
fn set_alu_ab(w: &mut Word, base: u64, a: &Src, b: &Src) -> EResult<()> {
    let none = Src::ZERO;
    set_alu_abc(w, base, a, b, &none)?;
    w.set(64, 8, 0);
    Ok(())
}

pub(crate) fn encode_op(sm: Sm, i: &Instr, pc: u32, offsets: &[u32], w: &mut Word) -> EResult<()> {
    let [a, b, c, d, _] = &i.srcs;
    match i.op {
        Opcode::Mov => {
            match a.as_reg() {
                Some(u) if u.file == RegFile::UGpr => {
                    w.set(0, 12, 0xc02);
                    w.set(32, 8, ureg(&u)?);
                    w.set(91, 1, 1);
                }
                _ => {
                    set_alu_ab(w, 0x002, &Src::ZERO, a)?;
                    w.set(24, 8, 0);
                }
            }
            w.set(72, 4, 0xf);
        }
        Opcode::S2ur(sr) => {
            w.set(0, 12, 0x9c3);
            w.set(16, 8, udst(i)?);
            w.set(72, 8, special_reg_code(sr));
            return Ok(());
        }
        Opcode::Umov => {
            let SrcVal::Imm(v) = a.val else {
                return err(i, "UMOV takes an immediate");
            };
            w.set(0, 12, 0x882);
            w.set(16, 8, udst(i)?);
            w.set(32, 32, v as u64);
            return Ok(());
        }
        Opcode::Ulea { shift } => {
            let (Some(x), Some(y)) = (a.as_reg(), b.as_reg()) else {
                return err(i, "ULEA takes uniform registers");
            };
            w.set(0, 12, 0x291);
            w.set(16, 8, udst(i)?);
            w.set(24, 8, ureg(&x)?);
            w.set(32, 8, ureg(&y)?);
            w.set(64, 8, 63);
            w.set(75, 5, shift as u64);
            w.set(81, 3, PT);
            set_pred(w, 87, &Src::FALSE)?;
            w.set(91, 1, 1);
            return Ok(());
        }
        Opcode::S2r(sr) => {
            w.set(0, 12, 0x919);
            w.set(72, 8, special_reg_code(sr));
        }
        Opcode::Cs2r { sr, wide } => {
            w.set(0, 12, 0x805);
            w.set(72, 8, special_reg_code(sr));
            w.set(80, 1, wide as u64);
        }
        Opcode::Iadd3 { x } => encode_iadd3(w, i, x)?,
        Opcode::Lea { hi, shift } => crate::encode_lea::encode_lea(w, i, hi, shift)?,
        Opcode::Imad { mode, signed, x } => {
            let base = match mode {
                ImadMode::Lo => 0x024,
                ImadMode::Wide => 0x025,
                ImadMode::Hi => 0x027,
            };
            set_alu_abc(w, base, a, b, c)?;
            w.set(73, 1, signed as u64);
            w.set(74, 1, x as u64);
            w.set(75, 1, c.neg as u64);
            w.set(81, 3, PT);
            w.set(84, 3, 0);
            let carry = if x { *d } else { Src::FALSE };
            set_pred(w, 87, &carry)?;
        }
        Opcode::I2f { signed } | Opcode::I2fp { signed } => {
            w.set(
                0,
                12,
                if matches!(i.op, Opcode::I2f { .. }) {
                    0x306
                } else {
                    0x245
                },
            );
            w.set(32, 8, src_gpr(a)?);
            w.set(74, 1, signed as u64);
            w.set(76, 1, 1);
            w.set(85, 1, 1);
        }
        Opcode::F2i { signed, truncate } => {
            w.set(0, 12, 0x305);
            w.set(32, 8, src_gpr(a)?);
            w.set(72, 1, signed as u64);
            w.set(76, 2, 3);
            w.set(78, 2, if truncate { 3 } else { 0 });
            w.set(85, 1, 1);
        }
        Opcode::Iabs => {
            w.set(0, 9, 0x013);
            w.set(9, 3, FORM_RRR);
            w.set(32, 8, src_gpr(a)?);
        }
        Opcode::Imnmx { signed } => {
            if sm.num >= 90 {
                return err(i, "IMNMX on sm_90 (VIMNMX) not yet supported");
            }
            set_alu_ab(w, 0x017, a, b)?;
            w.set(73, 1, signed as u64);
            set_pred(w, 87, c)?;
        }
        Opcode::Fadd { ftz, rnd } => {
            let b = &float_imm(b);
            set_alu_ab(w, 0x021, a, b)?;
            // FADD's immediate and constant-bank second operands use the C forms (ptxas:
            // `FADD R5, R4, -24` is 0x...7421, `FADD R5, R0, c[0x0][0x168]` 0x...7621).
            match w.get(9, 3) {
                FORM_IMM_B => w.set(9, 3, FORM_IMM_C),
                FORM_CBUF_B => w.set(9, 3, FORM_CBUF_C),
                _ => {}
            }
            set_float_mods(w, a, b);
            w.set(80, 1, ftz as u64);
            w.set(78, 2, crate::encode_double::round_code(rnd));
        }
        Opcode::Fmul { ftz } => {
            let b = &float_imm(b);
            set_alu_ab(w, 0x020, a, b)?;
            set_float_mods(w, a, b);
            w.set(80, 1, ftz as u64);
            w.set(84, 3, 4);
        }
        Opcode::Ffma { ftz } => {
            let (a, b, c) = (&float_imm(a), &float_imm(b), &float_imm(c));
            set_alu_abc(w, 0x023, a, b, c)?;
            if matches!(c.val, SrcVal::Imm(_) | SrcVal::CBuf { .. }) {
                // C forms: the register B sits in the C slot (64..71) with C's modifier bits, and
                // 32..63 hold the immediate (whose sign is its own) or the bank address.
                w.set(72, 1, a.neg as u64);
                w.set(73, 1, a.abs as u64);
                w.set(75, 1, b.neg as u64);
                w.set(74, 1, b.abs as u64);
            } else {
                set_float_mods(w, a, b);
                w.set(75, 1, c.neg as u64);
                w.set(74, 1, c.abs as u64);
            }
            w.set(80, 1, ftz as u64);
        }
        Opcode::Fmnmx { ftz } => {
            let b = &float_imm(b);
            set_alu_ab(w, 0x009, a, b)?;
            set_float_mods(w, a, b);
            w.set(80, 1, ftz as u64);
            set_pred(w, 87, c)?;
        }
        Opcode::Isetp {
            cmp,
            signed,
            combine,
            ex,
        } => {
            set_alu_ab(w, 0x00c, a, b)?;
            w.set(72, 1, ex as u64);
            w.set(73, 1, signed as u64);
            w.set(74, 2, bool_op_code(combine));
            w.set(76, 3, int_cmp_code(cmp));
            set_setp_preds(w, i)?;
            let carry = if ex { *d } else { Src::TRUE };
            set_pred(w, 68, &carry)?;
        }
        Opcode::Fsetp { cmp, combine, ftz } => {
            let b = &float_imm(b);
            set_alu_ab(w, 0x00b, a, b)?;
            set_float_mods(w, a, b);
            w.set(74, 2, bool_op_code(combine));
            w.set(76, 4, float_cmp_code(cmp));
            w.set(80, 1, ftz as u64);
            set_setp_preds(w, i)?;
        }
        Opcode::Dadd { .. } | Opcode::Dmul { .. } | Opcode::Dfma { .. } | Opcode::Dsetp { .. } => {
            crate::encode_double::encode_double(i, w)?
        }
        Opcode::I2fWide { .. } | Opcode::F2iWide { .. } | Opcode::F2f { .. } => {
            crate::encode_convert::encode_convert(i, w)?
        }
        Opcode::Half2 { .. }
        | Opcode::Hsetp2 { .. }
        | Opcode::Hset2 { .. }
        | Opcode::Hmnmx2 { .. }
        | Opcode::F2fp { .. } => crate::encode_half::encode_half(i, w)?,
        Opcode::F2fp8 { .. } => crate::fp8::encode_f2fp8(i, w)?,
        Opcode::Imma { .. } | Opcode::Bmma { .. } | Opcode::Dmma { .. } => {
            return crate::encode_imma::encode_matrix(i, w)
        }
        Opcode::I2ip { .. } => return crate::encode_pack::encode_i2ip(sm, w, i),
        Opcode::Sel => {
            set_alu_ab(w, 0x007, a, b)?;
            set_pred(w, 87, c)?;
        }
        Opcode::Lop3 { lut } | Opcode::Lop3Pand { lut } => {
            set_alu_abc(w, 0x012, a, b, c)?;
            w.set(72, 8, lut as u64);
            w.set(80, 1, matches!(i.op, Opcode::Lop3Pand { .. }) as u64);
            w.set(81, 3, pred_dst(&i.dsts[1])?);
            set_pred(
                w,
                87,
                if d.val == SrcVal::Zero {
                    &Src::FALSE
                } else {
                    d
                },
            )?;
        }
        Opcode::Plop3 { .. } => return err(i, "PLOP3 not yet supported"),
        Opcode::Shf {
            right,
            signed,
            wide,
            hi,
        } => {
            set_alu_abc(w, 0x019, a, b, c)?;
            let ty = match (wide, signed) {
                (true, true) => 0,
                (true, false) => 1,
                (false, true) => 2,
                (false, false) => 3,
            };
            w.set(73, 2, ty);
            w.set(76, 1, right as u64);
            w.set(80, 1, hi as u64);
        }
        Opcode::Vabsdiff { signed } => {
            set_alu_abc(w, 0x014, a, b, c)?;
            w.set(73, 1, signed as u64);
            w.set(81, 3, PT);
        }
        Opcode::Vabsdiff4 { acc } => {
            set_alu_abc(w, 0x015, a, b, c)?;
            w.set(75, 1, acc as u64);
            w.set(81, 3, PT);
        }
        Opcode::Prmt { mode } => {
            set_alu_abc(w, 0x016, a, b, c)?;
            w.set(72, 3, mode as u64);
        }
        Opcode::Ldg {
            size,
            constant,
            scope,
            hint,
            offset,
        } => encode_load(
            sm,
            w,
            i,
            false,
            size,
            Order::of(constant, scope),
            hint,
            offset,
        )?,
        Opcode::UldcNarrow { size } => return crate::encode_mem::encode_uldc_narrow(w, i, size),
        Opcode::CctlPf2 { offset } => return crate::encode_mem::encode_prefetch_l2(w, i, offset),
        Opcode::Ldgsts { .. } => return encode_async::encode_ldgsts(w, i),
        Opcode::Ldgdepbar => {
            encode_async::encode_ldgdepbar(w);
            return Ok(());
        }
        Opcode::DepbarLe { pending } => return encode_async::encode_depbar_le(w, pending),
        Opcode::Syncs(op) => return crate::encode_sync::encode_syncs(w, i, op),
        Opcode::Cluster(op) => return crate::encode_cluster::encode_cluster(w, i, op),
        Opcode::Tma(op) => return crate::encode_tma::encode_tma(w, i, op),
        Opcode::Texture(op) => return crate::encode_texture::encode_texture(sm, w, i, op),
        Opcode::R2ur | Opcode::R2urPred => return crate::encode_sync::encode_r2ur(sm, w, i),
        Opcode::Wgmma(op) => return crate::encode_wgmma::encode_wgmma(w, i, op),
        Opcode::WarpgroupArrive => {
            crate::encode_wgmma::encode_warpgroup_arrive(w);
            return Ok(());
        }
        Opcode::WarpgroupDepbar { pending } => {
            return crate::encode_wgmma::encode_warpgroup_depbar(w, pending)
        }
        Opcode::VoteuAny => return crate::encode_wgmma::encode_voteu_any(w, i),
        Opcode::Ldsm {
            count,
            trans,
            offset,
        } => return encode_async::encode_ldsm(w, i, count, trans, offset),
        Opcode::Ld {
            size,
            scope,
            hint,
            offset,
        } => encode_load(sm, w, i, true, size, Order::of(false, scope), hint, offset)?,
        Opcode::Stg {
            size,
            scope,
            hint,
            offset,
        } => encode_store(sm, w, i, false, size, Order::of(false, scope), hint, offset)?,
        Opcode::St {
            size,
            scope,
            hint,
            offset,
        } => encode_store(sm, w, i, true, size, Order::of(false, scope), hint, offset)?,
        Opcode::Lds { size, offset } => {
            w.set(0, 12, 0x984);
            w.set(24, 8, src_gpr(a)?);
            w.set(32, 8, 63);
            w.set(40, 24, offset as u64);
            w.set(73, 3, mem_size_code(size));
        }
        Opcode::Sts { size, offset } => {
            w.set(0, 12, 0x388);
            w.set(24, 8, src_gpr(a)?);
            w.set(32, 8, src_gpr(b)?);
            w.set(40, 24, offset as u64);
            w.set(73, 3, mem_size_code(size));
        }
        Opcode::Ldl { size, offset } => {
            w.set(0, 12, 0x983);
            w.set(24, 8, src_gpr(a)?);
            w.set(40, 24, offset as u64);
            w.set(73, 3, mem_size_code(size));
            w.set(84, 3, 1);
        }
        Opcode::Stl { size, offset } => {
            w.set(0, 12, 0x387);
            w.set(24, 8, src_gpr(a)?);
            w.set(32, 8, src_gpr(b)?);
            w.set(40, 24, offset as u64);
            w.set(73, 3, mem_size_code(size));
            w.set(84, 3, 1);
        }
        Opcode::Ldc { wide } => {
            let SrcVal::CBuf { bank, offset } = a.val else {
                return err(i, "LDC needs a cbuf");
            };
            w.set(0, 12, 0xb82);
            w.set(24, 8, RZ);
            set_cbuf(w, bank, offset);
            w.set(73, 3, if wide { 5 } else { 4 });
        }
        Opcode::LdcIndexed { size } => {
            let SrcVal::CBuf { bank, offset } = a.val else {
                return err(i, "LDC needs a cbuf");
            };
            w.set(0, 12, 0xb82);
            w.set(24, 8, src_gpr(b)?);
            set_cbuf(w, bank, offset);
            w.set(73, 3, mem_size_code(size));
        }
        Opcode::Uldc { wide } => {
            let SrcVal::CBuf { bank, offset } = a.val else {
                return err(i, "ULDC needs a cbuf");
            };
            w.set(0, 12, 0xab9);
            let Dst::Reg(r) = i.dsts[0] else {
                return err(i, "ULDC destination");
            };
            w.set(16, 8, ureg(&r)?);
            set_cbuf(w, bank, offset);
            w.set(73, 3, if wide { 5 } else { 4 });
            return Ok(());
        }
        Opcode::Bra { target } => {
            let Some(&t) = offsets.get(target as usize) else {
                return err(i, "branch target");
            };
            w.set(0, 12, 0x947);
            set_branch_offset(sm, w, t as i64 - (pc as i64 + 16));
            w.set(87, 3, PT);
        }
        Opcode::Exit => {
            w.set(0, 12, 0x94d);
            w.set(87, 3, PT);
        }
        Opcode::Call { .. } | Opcode::Ret | Opcode::RetAddr { .. } | Opcode::SubArgs => {
            return crate::subroutine::encode_call_family(sm, w, i, pc, offsets);
        }
        Opcode::CallAbs { .. } | Opcode::Lepc => {
            return crate::extern_call::encode_extern_call(sm, w, i);
        }
        Opcode::BarSync { id } => {
            w.set(0, 12, 0xb1d);
            w.set(54, 4, id as u64);
            w.set(80, 1, (sm.num >= 80) as u64);
        }
        Opcode::Nop => w.set(0, 12, 0x918),
        Opcode::Flo { .. } | Opcode::Popc | Opcode::Brev => encode_atom::encode_bit_unary(w, i)?,
        Opcode::I2fRp { signed } => encode_atom::encode_i2f_rp(w, i, signed)?,
        Opcode::MufuRcp => encode_atom::encode_mufu(w, i, encode_atom::MUFU_RCP)?,
        Opcode::MufuRsq => encode_atom::encode_mufu(w, i, encode_atom::MUFU_RSQ)?,
        Opcode::Frnd { ftz, rnd } => encode_atom::encode_frnd(w, i, ftz, rnd)?,
        Opcode::FrndHalf { rnd, bf16 } => encode_atom::encode_frnd_half(w, i, rnd, bf16)?,
        Opcode::Mufu { .. } | Opcode::FmulRound { .. } | Opcode::FrndF64 { .. } => {
            encode_mufu::encode_mufu_family(w, i)?
        }
        Opcode::FfmaRound { .. } | Opcode::ShfWrap { .. } => {
            encode_scalar::encode_scalar(sm, i, pc, offsets, w)?
        }
        Opcode::Bmsk { wrap } => encode_atom::encode_bmsk(w, i, wrap)?,
        Opcode::Atoms { op, ty, offset } => encode_atom::encode_atoms(sm, w, i, op, ty, offset)?,
        Opcode::Atomg {
            op,
            ty,
            scope,
            offset,
        } => encode_atom::encode_atomg(sm, w, i, op, ty, scope, offset)?,
        Opcode::Atom {
            op,
            ty,
            scope,
            offset,
        } => encode_atom::encode_atom_generic(sm, w, i, op, ty, scope, offset)?,
        Opcode::Red {
            op,
            ty,
            scope,
            offset,
        } => encode_atom::encode_red(sm, w, i, op, ty, scope, offset)?,
        Opcode::Warp(op) => return encode_warp::encode_warp(sm, w, i, op),
        Opcode::Mma(op) => return encode_mma::encode_mma(sm, w, i, &op),
        Opcode::MmaSp(op) => return crate::mma_sparse::encode_mma_sparse(sm, w, i, &op),
        Opcode::Matrix(op) => return crate::matrix_move::encode_matrix_move(w, i, op),
        Opcode::Sgxt { .. } | Opcode::Idp { .. } => crate::encode_int::encode_int(w, i)?,
    }
    if !matches!(i.op, Opcode::Uldc { .. }) {
        set_dst(w, i)?;
    }
    Ok(())
}

/// Writes d0 into 16..23 for ops that have a GPR destination there.
fn set_dst(w: &mut Word, i: &Instr) -> EResult<()> {
    let has_gpr_dst = !matches!(
        i.op,
        Opcode::Isetp { .. }
            | Opcode::Fsetp { .. }
            | Opcode::Hsetp2 { .. }
            | Opcode::Dsetp { .. }
            | Opcode::Plop3 { .. }
            | Opcode::Stg { .. }
            | Opcode::St { .. }
            | Opcode::Sts { .. }
            | Opcode::Stl { .. }
            | Opcode::Red { .. }
            | Opcode::Bra { .. }
            | Opcode::Exit
            | Opcode::BarSync { .. }
            | Opcode::Nop
            | Opcode::Call { .. }
            | Opcode::Ret
    );
    if has_gpr_dst {
        w.set(16, 8, dst_gpr(&i.dsts[0])?);
    }
    Ok(())
}

/// A uniform destination register (d0).
fn udst(i: &Instr) -> EResult<u64> {
    match i.dsts[0] {
        Dst::Reg(r) => ureg(&r),
        Dst::None => Ok(63),
    }
}

/// An f32 immediate with its neg/abs folded into the bits (the encoding has no modifier bits for
/// an immediate: they would overlap its sign); other operands unchanged.
fn float_imm(s: &Src) -> Src {
    match s.val {
        SrcVal::Imm(v) => {
            let v = if s.abs { v & 0x7fff_ffff } else { v };
            Src::imm(if s.neg { v ^ 0x8000_0000 } else { v })
        }
        _ => *s,
    }
}

fn set_float_mods(w: &mut Word, a: &Src, b: &Src) {
    w.set(72, 1, a.neg as u64);
    w.set(73, 1, a.abs as u64);
    if matches!(b.val, SrcVal::Reg(_) | SrcVal::Zero | SrcVal::CBuf { .. }) {
        w.set(63, 1, b.neg as u64);
        w.set(62, 1, b.abs as u64);
    }
}

/// ISETP/FSETP: d0 at 81..83, d1 at 84..86, accumulator s2 at 87..90.
pub(crate) fn set_setp_preds(w: &mut Word, i: &Instr) -> EResult<()> {
    w.set(81, 3, pred_dst(&i.dsts[0])?);
    w.set(84, 3, pred_dst(&i.dsts[1])?);
    set_pred(w, 87, &i.srcs[2])
}

fn encode_iadd3(w: &mut Word, i: &Instr, x: bool) -> EResult<()> {
    let [a, b, c, d, e] = &i.srcs;
    // IADD3 has no immediate or constant-bank form for C: such an operand belongs in B.
    if matches!(c.val, SrcVal::Imm(_) | SrcVal::CBuf { .. }) {
        return err(
            i,
            "IADD3 takes an immediate or constant-bank operand only as B",
        );
    }
    let b_imm = match b.val {
        SrcVal::Imm(v) if b.neg => Src::imm(v.wrapping_neg()),
        _ => *b,
    };
    set_alu_abc(w, 0x010, a, &b_imm, c)?;
    w.set(72, 1, a.neg as u64);
    // -RZ is a register operand too: its negation sets the carry (a - 0 in a 64-bit subtract).
    if matches!(b.val, SrcVal::Reg(_) | SrcVal::CBuf { .. } | SrcVal::Zero) {
        w.set(63, 1, b.neg as u64);
    }
    w.set(75, 1, c.neg as u64);
    w.set(74, 1, x as u64);
    w.set(81, 3, pred_dst(&i.dsts[1])?);
    w.set(84, 3, PT);
    let (c0, c1) = if x {
        (*d, *e)
    } else {
        (Src::FALSE, Src::FALSE)
    };
    set_pred(w, 87, &c0)?;
    set_pred(
        w,
        77,
        if c1.val == SrcVal::Zero {
            &Src::FALSE
        } else {
            &c1
        },
    )?;
    Ok(())
}

pub(crate) fn set_branch_offset(sm: Sm, w: &mut Word, rel: i64) {
    let words = rel / 4;
    if sm.split_branch_offset() {
        w.set(16, 8, (words & 0xff) as u64);
        w.set(34, 48, (words >> 8) as u64);
    } else {
        w.set(34, 48, words as u64);
    }
}

pub fn mem_size_code(s: MemSize) -> u64 {
    match s {
        MemSize::U8 => 0,
        MemSize::S8 => 1,
        MemSize::U16 => 2,
        MemSize::S16 => 3,
        MemSize::B32 => 4,
        MemSize::B64 => 5,
        MemSize::B128 => 6,
    }
}

fn special_reg_code(sr: SpecialReg) -> u64 {
    match sr {
        SpecialReg::LaneId => 0x00,
        SpecialReg::TidX => 0x21,
        SpecialReg::TidY => 0x22,
        SpecialReg::TidZ => 0x23,
        SpecialReg::CtaIdX => 0x25,
        SpecialReg::CtaIdY => 0x26,
        SpecialReg::CtaIdZ => 0x27,
        SpecialReg::CgaCtaId => 0x88,
        SpecialReg::SharedWindowHi => 0x2f,
        SpecialReg::LaneMaskEq => 0x38,
        SpecialReg::LaneMaskLt => 0x39,
        SpecialReg::LaneMaskLe => 0x3a,
        SpecialReg::LaneMaskGt => 0x3b,
        SpecialReg::LaneMaskGe => 0x3c,
        SpecialReg::VirtCfg => 0x02,
        SpecialReg::VirtId => 0x03,
        SpecialReg::SmemSz => 0x32,
        SpecialReg::VirtualSmId => 0x43,
        SpecialReg::ClockLo => 0x50,
        SpecialReg::ClockHi => 0x51,
        SpecialReg::GlobalTimerLo => 0x52,
        SpecialReg::GlobalTimerHi => 0x53,
        SpecialReg::Zero => 0xff,
    }
}

pub(crate) fn bool_op_code(b: BoolOp) -> u64 {
    match b {
        BoolOp::And => 0,
        BoolOp::Or => 1,
        BoolOp::Xor => 2,
    }
}

fn int_cmp_code(c: IntCmp) -> u64 {
    match c {
        IntCmp::F => 0,
        IntCmp::Lt => 1,
        IntCmp::Eq => 2,
        IntCmp::Le => 3,
        IntCmp::Gt => 4,
        IntCmp::Ne => 5,
        IntCmp::Ge => 6,
        IntCmp::T => 7,
    }
}

pub(crate) fn float_cmp_code(c: FloatCmp) -> u64 {
    use FloatCmp::*;
    match c {
        F => 0,
        Lt => 1,
        Eq => 2,
        Le => 3,
        Gt => 4,
        Ne => 5,
        Ge => 6,
        Num => 7,
        Nan => 8,
        Ltu => 9,
        Equ => 10,
        Leu => 11,
        Gtu => 12,
        Neu => 13,
        Geu => 14,
        T => 15,
    }
}
