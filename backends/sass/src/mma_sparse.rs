//! Sparse tensor-core ops (`Opcode::MmaSp`): `mma.sp` / `mma.sp::ordered_metadata` as HMMA.SP
//! (f16/bf16/tf32), IMMA.SP (s8/u8/s4/u4) and QMMA.SP (e4m3/e5m2, sm_89), with their encodings
//! and nvdisasm text.
//!
//! Slots: d0 = D, s0 = A (the compressed half of the logical m x k A), s1 = B, s2 = C (RZ for
//! zero), s3 = the metadata register; the sparsity selector is an immediate of the op.
//!
//! Encodings (learned from ptxas 13.5 + nvdisasm on sm_80..sm_90; `mma.sp` and
//! `mma.sp::ordered_metadata` give the same instruction): D 16..23, A 24..31, B 32..39, metadata
//! 40..47, selector 48..49, C 64..71. HMMA.SP (0x23c): bit 73 = sparse, bit 75 = k16 or k32,
//! bit 78 = k32 (with 75), bit 76 = f32 accumulator, 82 = bf16, 83 = tf32 (1688 and 16816).
//! IMMA.SP (0x237): bit 72 = sparse, 74 set, 76/78 = A/B signed, 82 = `.SAT`, 83/84 = A/B 4-bit,
//! shape (75, 85, 86): 16832 = (1,0,1), 16864 = (0,1,1), 168128 = (1,1,1). QMMA.SP (0x27a):
//! 16864.F32 only, bits 74, 76, 77, 80 set, 78/79 = A/B e5m2.

use crate::arch::Sm;
use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::ir::*;

/// One sparse multiply: the logical (uncompressed) shape and types of `op`, and the selector.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SparseMma {
    pub op: MmaOp,
    /// Which thread (or thread pair) of each group of four holds the metadata.
    pub selector: u8,
}

impl SparseMma {
    /// Registers of the compressed A fragment (half the dense one).
    pub fn a_regs(&self) -> u8 {
        self.op.a_regs() / 2
    }

    pub fn b_regs(&self) -> u8 {
        self.op.b_regs()
    }

    pub fn acc_regs(&self) -> u8 {
        self.op.acc_regs()
    }

    /// The selector's largest value: 3 where one thread of four holds a group's metadata, 1
    /// where a pair does, 0 where all four do (ptxas's own range checks).
    pub fn max_selector(&self) -> u8 {
        match self.metadata_threads() {
            1 => 3,
            2 => 1,
            _ => 0,
        }
    }

    /// Threads of each group of four that hold metadata: two 16-bit rows of one nibble per
    /// four-unit chunk (units: 16 bits for f16/bf16/tf32, 8 bits for the 8- and 4-bit types).
    pub fn metadata_threads(&self) -> u32 {
        let bits = self.op.a.bits();
        let unit = if bits >= 16 { 16 } else { 8 };
        let row_bits = self.op.shape.k as u32 * bits / unit;
        (2 * row_bits / 32).max(1)
    }

    /// Whether `sm` runs the form as one instruction (ptxas 13.5: sm_80+; QMMA.SP on sm_89
    /// only; sm_90 has no 4-bit IMMA).
    pub fn is_native(&self, sm: Sm) -> bool {
        let MmaShape { m, n, k } = self.op.shape;
        if sm.num < 80 || (m, n) != (16, 8) || self.selector > self.max_selector() {
            return false;
        }
        let (a, b, acc) = (self.op.a, self.op.b, self.op.acc);
        match self.op.unit() {
            MmaUnit::Hmma => {
                a == b
                    && match a {
                        MmaElem::F16 => {
                            matches!(k, 16 | 32) && matches!(acc, MmaElem::F16 | MmaElem::F32)
                        }
                        MmaElem::Bf16 => matches!(k, 16 | 32) && acc == MmaElem::F32,
                        _ => matches!(k, 8 | 16) && acc == MmaElem::F32,
                    }
            }
            MmaUnit::Imma => {
                let four = a.bits() == 4;
                acc == MmaElem::S32
                    && b.bits() == a.bits()
                    && if four {
                        sm.num < 90 && matches!(k, 64 | 128)
                    } else {
                        matches!(k, 32 | 64)
                    }
            }
            MmaUnit::Qmma => sm.num == 89 && k == 64 && acc == MmaElem::F32,
            _ => false,
        }
    }

    /// The "full-size" forms (as the dense HMMA.16816): those collect their operands twice.
    fn is_double_collect(&self) -> bool {
        let k = self.op.shape.k as u32;
        k * self.op.a.bits() >= 512
    }

    /// Cycles from issue to the first reader of D (the dense forms' figures, by size).
    pub fn fixed_latency(&self) -> u32 {
        if self.is_double_collect() {
            24
        } else {
            16
        }
    }

    /// Cycles during which the op may still read its sources.
    pub fn source_hold(&self) -> u32 {
        if self.is_double_collect() {
            7
        } else {
            1
        }
    }
}

fn fail<T>(op: &SparseMma) -> EResult<T> {
    Err(EncodeError(format!("sparse mma {op:?}")))
}

/// Encodes HMMA.SP, IMMA.SP or QMMA.SP into `w` (without guard and control bits).
pub(crate) fn encode_mma_sparse(sm: Sm, w: &mut Word, i: &Instr, sp: &SparseMma) -> EResult<()> {
    if !sp.is_native(sm) {
        return fail(sp);
    }
    let Dst::Reg(d) = i.dsts[0] else {
        return fail(sp);
    };
    w.set(16, 8, d.idx as u64);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 8, src_gpr(&i.srcs[1])?);
    w.set(64, 8, src_gpr(&i.srcs[2])?);
    w.set(40, 8, src_gpr(&i.srcs[3])?);
    w.set(48, 2, sp.selector as u64);
    let op = &sp.op;
    let k = op.shape.k;
    match op.unit() {
        MmaUnit::Hmma => {
            w.set(0, 12, 0x23c);
            w.set(73, 1, 1);
            let wide = (op.a == MmaElem::Tf32 && k == 16) || (op.a != MmaElem::Tf32 && k >= 16);
            w.set(75, 1, wide as u64);
            w.set(78, 1, (op.a != MmaElem::Tf32 && k == 32) as u64);
            w.set(76, 1, (op.acc == MmaElem::F32) as u64);
            w.set(82, 1, (op.a == MmaElem::Bf16) as u64);
            w.set(83, 1, (op.a == MmaElem::Tf32) as u64);
        }
        MmaUnit::Imma => {
            w.set(0, 12, 0x237);
            w.set(72, 1, 1);
            w.set(74, 1, 1);
            let four = op.a.bits() == 4;
            let (b75, b85, b86) = match (four, k) {
                (false, 32) => (1, 0, 1),
                (false, 64) | (true, 64) => (0, 1, 1),
                (true, 128) => (1, 1, 1),
                _ => return fail(sp),
            };
            w.set(75, 1, b75);
            w.set(85, 1, b85);
            w.set(86, 1, b86);
            w.set(76, 1, signed(op.a) as u64);
            w.set(78, 1, signed(op.b) as u64);
            w.set(82, 1, op.sat as u64);
            w.set(83, 1, four as u64);
            w.set(84, 1, four as u64);
        }
        MmaUnit::Qmma => {
            w.set(0, 12, 0x27a);
            for bit in [74, 76, 77, 80] {
                w.set(bit, 1, 1);
            }
            w.set(78, 1, (op.a == MmaElem::E5m2) as u64);
            w.set(79, 1, (op.b == MmaElem::E5m2) as u64);
        }
        _ => return fail(sp),
    }
    Ok(())
}

fn signed(e: MmaElem) -> bool {
    matches!(e, MmaElem::S8 | MmaElem::S4)
}

fn type_name(e: MmaElem) -> &'static str {
    match e {
        MmaElem::F16 => "F16",
        MmaElem::Bf16 => "BF16",
        MmaElem::Tf32 => "TF32",
        MmaElem::E4m3 => "E4M3",
        MmaElem::E5m2 => "E5M2",
        MmaElem::F32 => "F32",
        MmaElem::S8 => "S8",
        MmaElem::U8 => "U8",
        MmaElem::S4 => "S4",
        MmaElem::U4 => "U4",
        _ => "?",
    }
}

/// nvdisasm's text: `HMMA.SP.16832.F32.BF16 R4, R8, R12, R16, R2, 0x1`,
/// `IMMA.SP.16864.U8.S8.SAT R4, R8.ROW, R12.COL, RZ, R2, 0x0`.
pub(crate) fn print_mma_sparse(i: &Instr, sp: &SparseMma) -> String {
    let [a, b, c, e, _] = &i.srcs;
    let d = crate::print::dst(&i.dsts[0]);
    let src = crate::print::src;
    let op = &sp.op;
    let shape = op.shape.digits();
    let tail = format!("{}, {}, {:#x}", src(c), src(e), sp.selector);
    match op.unit() {
        MmaUnit::Hmma => {
            let input = if op.a == MmaElem::F16 {
                String::new()
            } else {
                format!(".{}", type_name(op.a))
            };
            let acc = type_name(op.acc);
            format!(
                "HMMA.SP.{shape}.{acc}{input} {d}, {}, {}, {tail}",
                src(a),
                src(b)
            )
        }
        MmaUnit::Imma => {
            let sat = if op.sat { ".SAT" } else { "" };
            format!(
                "IMMA.SP.{shape}.{}.{}{sat} {d}, {}.ROW, {}.COL, {tail}",
                type_name(op.a),
                type_name(op.b),
                src(a),
                src(b)
            )
        }
        _ => format!(
            "QMMA.SP.{shape}.{}.{}.{} {d}, {}.ROW, {}.COL, {tail}",
            type_name(op.acc),
            type_name(op.a),
            type_name(op.b),
            src(a),
            src(b)
        ),
    }
}
