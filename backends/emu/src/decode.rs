//! SASS decoder: one 128-bit word into an opcode, its operands (per operand form), the registers it
//! reads and writes (for the hazard model), its guard predicate and its control bits.
//!
//! Field facts (shared with the encoder in ptxforge-sass, checked here on ptxas's cubins): opcode
//! 0..11 (ALU base 0..8, operand form 9..11), guard 12..15, dst 16..23, A 24..31, B 32..39 / imm
//! 32..63 / cbuf 38..58, C 64..71, modifiers 72..90, uniform 91, control bits 105..125.

#[path = "cluster_decode.rs"]
mod cluster_decode;
#[path = "syncs_decode.rs"]
mod syncs_decode;
#[path = "tma_decode.rs"]
pub(crate) mod tma_decode;
pub(crate) use cluster_decode::is_barrier_wait;

use crate::opcodes::opcode_table;
pub use crate::opcodes::{supported_names, Op, Queue, Timing};
use crate::EmuError;

pub const RZ: u8 = 255;
pub const URZ: u8 = 63;
pub const PT: u8 = 7;

/// Register files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    R,
    Ur,
    P,
    Up,
}

/// `n` consecutive registers of one file starting at `idx` (zero registers are never listed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RegRange {
    pub file: File,
    pub idx: u8,
    pub n: u8,
}

impl RegRange {
    pub fn name(file: File, idx: u8) -> String {
        match file {
            File::R => format!("R{idx}"),
            File::Ur => format!("UR{idx}"),
            File::P => format!("P{idx}"),
            File::Up => format!("UP{idx}"),
        }
    }
}

/// A source operand value slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    None,
    R(u8),
    Ur(u8),
    Imm(u32),
    Cb { bank: u8, off: u32 },
}

/// A predicate operand (guard or source): index 7 is PT.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PredSrc {
    pub idx: u8,
    pub neg: bool,
    pub uniform: bool,
}

/// Scheduling control bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Ctrl {
    pub stall: u32,
    pub yld: bool,
    pub wr_sb: Option<u8>,
    pub rd_sb: Option<u8>,
    pub wait: u8,
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub pc: u32,
    pub w: u128,
    pub op: Op,
    pub guard: PredSrc,
    pub ctrl: Ctrl,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    /// Registers read (guard and predicate sources included) and written.
    pub reads: Vec<RegRange>,
    pub writes: Vec<RegRange>,
}

impl Inst {
    /// `n` bits at `pos`.
    pub fn f(&self, pos: u32, n: u32) -> u32 {
        field(self.w, pos, n) as u32
    }

    pub fn bit(&self, pos: u32) -> bool {
        self.f(pos, 1) == 1
    }

    /// A predicate operand at `pos` (3-bit index, negation at pos+3).
    pub fn pred(&self, pos: u32) -> PredSrc {
        // PLOP3's source at 68 is a uniform predicate when bit 67 is set (`PLOP3.LUT P0, PT, PT, PT, UP0`).
        let uniform = self.op.is_uniform() || (self.op == Op::Plop3 && pos == 68 && self.bit(67));
        PredSrc {
            idx: self.f(pos, 3) as u8,
            neg: self.bit(pos + 3),
            uniform,
        }
    }

    pub fn dst(&self) -> u8 {
        self.f(16, 8) as u8
    }
}

pub fn field(w: u128, pos: u32, n: u32) -> u64 {
    ((w >> pos) & ((1u128 << n) - 1)) as u64
}

/// Sign-extends the low `bits` of `v`.
pub fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

fn ctrl_of(w: u128) -> Ctrl {
    let c = (w >> 105) as u32;
    let sb = |v: u32| if v == 7 { None } else { Some(v as u8) };
    Ctrl {
        stall: c & 0xf,
        yld: (c >> 4) & 1 == 1,
        wr_sb: sb((c >> 5) & 7),
        rd_sb: sb((c >> 8) & 7),
        wait: ((c >> 11) & 0x3f) as u8,
    }
}

/// Decodes the word at byte address `pc`.
/// Whether an ATOMS/ATOMG is the compare-and-swap form (ATOMS.CAS 0x38d, ATOMG.CAS 0x3a9): the
/// compare value at 32..39, the new value at 64..71.
pub fn is_cas(i: &Inst) -> bool {
    matches!(i.f(0, 12), 0x38d | 0x3a9 | 0x38b)
}

/// The operand of an integer ATOMS/ATOMG/RED: its size and signedness.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AtomicOperand {
    pub bytes: u8,
    pub signed: bool,
    /// ATOMG/RED `.F32.FTZ.RN` (type 3 before sm_90) or `.F64.RN` (type 6; 8 bytes): a float add.
    pub float: bool,
    /// ATOMG/RED `.F16x2.RN` (type 4 before sm_90; `Some(false)`) or `.BF16x2.RN` (`Some(true)`):
    /// a packed half-pair add.
    pub half2_bf16: Option<bool>,
}

/// The operand type field (73..75): ATOMS U32/S32/64; ATOMG and RED U32, S32, U64, then S64 (5,
/// or 3 on sm_90 where 3 is F32 before); F32 adds are `float` (type 3 before sm_90; on sm_90
/// their own opcodes, ATOMG 0x9a3 and REDG 0x9a6, with type 1).
pub fn atomic_operand(sm: u32, i: &Inst) -> Option<AtomicOperand> {
    // sm_90's generic float add ATOM.E.ADD.<float> is 0x9a2, laid out as ATOMG's 0x9a3.
    let float_sm90 = matches!(i.f(0, 12), 0x9a3 | 0x9a6 | 0x9a2);
    // f64 adds: type 6 before sm_90, 7 with sm_90's float-add opcodes. Generic ATOM.E (not CAS)
    // has ATOMG's float types.
    let global = matches!(i.op, Op::Atomg | Op::Red) || (i.op == Op::Atom && !is_cas(i));
    if (float_sm90 && i.f(73, 3) == 7) || (global && i.f(73, 3) == 6 && sm < 90) {
        return Some(AtomicOperand {
            bytes: 8,
            signed: false,
            float: true,
            half2_bf16: None,
        });
    }
    // Packed half pairs: type 4 before sm_90; 4-bit type 0 (F16x2) or 3 (BF16x2) on sm_90.
    let half2 = match (float_sm90, i.f(73, 4), i.f(73, 3)) {
        (true, 0, _) => Some(false),
        (true, 3, _) => Some(true),
        (false, _, 4) if global && sm < 90 => Some(false),
        _ => None,
    };
    if half2.is_some() {
        return Some(AtomicOperand {
            bytes: 4,
            signed: false,
            float: true,
            half2_bf16: half2,
        });
    }
    let f32_sm90 = float_sm90 && i.f(73, 3) == 1;
    if f32_sm90 || global && i.f(73, 3) == 3 && sm < 90 {
        return Some(AtomicOperand {
            bytes: 4,
            signed: false,
            float: true,
            half2_bf16: None,
        });
    }
    let (bytes, signed) = match (i.op, i.f(73, 3)) {
        (_, 0) => (4, false),
        (_, 1) => (4, true),
        (_, 2) => (8, false),
        (Op::Atomg | Op::Red | Op::Atom, 3) if sm >= 90 => (8, true),
        (Op::Atomg | Op::Red | Op::Atom, 5) if sm < 90 => (8, true),
        _ => return None,
    };
    Some(AtomicOperand {
        bytes,
        signed,
        float: false,
        half2_bf16: None,
    })
}

pub fn decode(sm: u32, pc: u32, w: u128) -> Result<Inst, EmuError> {
    let opc = field(w, 0, 12) as u32;
    let w = if sm == 75 {
        sm75_generic_to_common_layout(w).map_err(|what| EmuError::Unsupported {
            pc,
            opcode: opc,
            what,
        })?
    } else {
        w
    };
    let table = opcode_table(sm);
    let op = table
        .iter()
        .find(|(_, code, alu)| !alu && *code == opc)
        .or_else(|| {
            table
                .iter()
                .find(|(_, code, alu)| *alu && *code == opc & 0x1ff && field(w, 9, 3) != 0)
        })
        .map(|t| t.0)
        .ok_or(EmuError::Unsupported {
            pc,
            opcode: opc,
            what: "unknown opcode".into(),
        })?;
    let mut i = Inst {
        pc,
        w,
        op,
        guard: PredSrc {
            idx: 0,
            neg: false,
            uniform: false,
        },
        ctrl: ctrl_of(w),
        a: Operand::None,
        b: Operand::None,
        c: Operand::None,
        reads: Vec::new(),
        writes: Vec::new(),
    };
    i.guard = PredSrc {
        idx: i.f(12, 3) as u8,
        neg: i.bit(15),
        uniform: false,
    };
    // A uniform op's guard is a uniform predicate (`@!UP0 ULOP3`).
    if op.is_uniform() && (i.guard.idx != PT || i.guard.neg) {
        i.guard.uniform = true;
    }
    operands(sm, &mut i).map_err(|what| EmuError::Unsupported {
        pc,
        opcode: opc,
        what: format!("{}: {what}", op.name()),
    })?;
    Ok(i)
}

/// sm_75's generic LD (0x980) and ST (0x385) with a register address hold a 32-bit offset at
/// 32..63 and ST's data register at 64..71; moved to where LDG/STG and sm_80's LD/ST have them
/// (offset 40..63, data 32..39) so that one operand decoder serves all.
fn sm75_generic_to_common_layout(w: u128) -> Result<u128, String> {
    let opc = field(w, 0, 12);
    if opc != 0x980 && opc != 0x385 {
        return Ok(w);
    }
    if field(w, 90, 2) != 0 {
        return Err("sm_75 LD/ST with a uniform-register address".into());
    }
    let offset = field(w, 32, 32) as u32 as i32;
    if !(-(1 << 23)..1 << 23).contains(&offset) {
        return Err("sm_75 LD/ST offset beyond 24 bits".into());
    }
    let data = if opc == 0x385 { field(w, 64, 8) } else { 0 };
    let cleared = w & !(((1u128 << 32) - 1) << 32) & !(0xffu128 << 64);
    Ok(cleared | (data as u128) << 32 | ((offset as u32 & 0xff_ffff) as u128) << 40)
}

fn gpr(idx: u8) -> Operand {
    Operand::R(idx)
}

/// Source operands of an ALU op by operand form: (B, C) for three-source ops.
fn alu_bc(i: &Inst, uniform: bool) -> (Operand, Operand) {
    let reg = |pos| {
        if uniform {
            Operand::Ur(i.f(pos, 6) as u8)
        } else {
            gpr(i.f(pos, 8) as u8)
        }
    };
    let imm = Operand::Imm(i.f(32, 32));
    let cb = Operand::Cb {
        bank: i.f(54, 5) as u8,
        off: i.f(38, 16),
    };
    let ur32 = Operand::Ur(i.f(32, 6) as u8);
    match i.f(9, 3) {
        1 => (reg(32), reg(64)),
        2 => (reg(64), imm),
        3 => (reg(64), cb),
        4 => (imm, reg(64)),
        5 => (cb, reg(64)),
        6 => (ur32, reg(64)),
        _ => (reg(64), ur32),
    }
}

/// The second source of a two-source ALU op: whatever the form puts in bits 32..63.
fn alu_b2(i: &Inst, uniform: bool) -> Operand {
    match i.f(9, 3) {
        1 => {
            if uniform {
                Operand::Ur(i.f(32, 6) as u8)
            } else {
                gpr(i.f(32, 8) as u8)
            }
        }
        2 | 4 => Operand::Imm(i.f(32, 32)),
        3 | 5 => Operand::Cb {
            bank: i.f(54, 5) as u8,
            off: i.f(38, 16),
        },
        _ => Operand::Ur(i.f(32, 6) as u8),
    }
}

/// Width in registers of a memory access type (bits 73..75).
/// Whether a global or generic access's address register is a 64-bit pair: bit 72, except in the
/// sm_75 form with a UR offset, where bit 90 says `[R2.64+UR4]` and its absence `[R2.U32+UR4]`
/// (a 32-bit register, zero-extended; checked with nvdisasm).
pub fn wide_address(i: &Inst) -> bool {
    match i.c {
        Operand::Ur(u) if u < URZ && matches!(i.op, Op::Ldg | Op::Stg | Op::Ld | Op::St) => {
            i.bit(90)
        }
        _ => i.bit(72),
    }
}

pub fn mem_words(ty: u32) -> u8 {
    match ty {
        5 => 2,
        6 => 4,
        _ => 1,
    }
}

fn add_read(i: &mut Inst, o: Operand, n: u8) {
    match o {
        Operand::R(r) if r != RZ => i.reads.push(RegRange {
            file: File::R,
            idx: r,
            n,
        }),
        Operand::Ur(r) if r != URZ => i.reads.push(RegRange {
            file: File::Ur,
            idx: r,
            n,
        }),
        _ => {}
    }
}

fn add_pred_read(i: &mut Inst, p: PredSrc) {
    if p.idx != PT {
        i.reads.push(RegRange {
            file: if p.uniform { File::Up } else { File::P },
            idx: p.idx,
            n: 1,
        });
    }
}

fn add_write(i: &mut Inst, file: File, idx: u8, n: u8) {
    let zero = match file {
        File::R => RZ,
        File::Ur => URZ,
        File::P | File::Up => PT,
    };
    if idx != zero {
        i.writes.push(RegRange { file, idx, n });
    }
}

/// Fills the operand slots and the read/write lists.
fn operands(sm: u32, i: &mut Inst) -> Result<(), String> {
    use Op::*;
    let u = i.op.is_uniform();
    let rfile = if u { File::Ur } else { File::R };
    let pfile = if u { File::Up } else { File::P };
    let dst = if u { i.f(16, 6) as u8 } else { i.dst() };
    let a = if u {
        Operand::Ur(i.f(24, 6) as u8)
    } else {
        gpr(i.f(24, 8) as u8)
    };
    let guard = i.guard;
    add_pred_read(i, guard);
    match i.op {
        Mov | Iabs | Popc | Flo | Brev | Mufu | I2i => {
            i.b = alu_b2(i, false);
            add_read(i, i.b, 1);
            add_write(i, File::R, dst, 1);
        }
        Umov | Uflo => {
            i.b = alu_b2(i, true);
            add_read(i, i.b, 1);
            add_write(i, File::Ur, dst, 1);
        }
        Sel | Fsel | Fmnmx | Imnmx | Vimnmx | Usel | Fadd | Fmul | Viadd | I2fp | Bmsk | Ubmsk
        | Sgxt | Usgxt => {
            if i.op != I2fp {
                i.a = a;
            }
            i.b = alu_b2(i, u);
            add_read(i, i.a, 1);
            add_read(i, i.b, 1);
            if matches!(i.op, Sel | Fsel | Fmnmx | Imnmx | Vimnmx | Usel) {
                let p = i.pred(87);
                add_pred_read(i, p);
            }
            // (Rounding modes at 78..79 run; FMUL's scale at 84..86, 4 meaning none, does not.)
            if i.op == Fmul && i.f(84, 3) != 4 {
                return Err("scale modifier".into());
            }
            add_write(i, rfile, dst, 1);
        }
        Hadd2 | Hmul2 | Hmnmx2 | Hset2 | F2fp => {
            i.a = a;
            i.b = alu_b2(i, false);
            add_read(i, i.a, 1);
            add_read(i, i.b, 1);
            if matches!(i.op, Hmnmx2 | Hset2) {
                let p = i.pred(87);
                add_pred_read(i, p);
            }
            if i.op == F2fp {
                // C (MERGE_C of the FP8 forms; RZ otherwise).
                i.c = gpr(i.f(64, 8) as u8);
                add_read(i, i.c, 1);
            }
            add_write(i, File::R, dst, 1);
        }
        // FCHK Pd, Ra, Rb: one predicate at 81..83.
        Fchk => {
            i.a = a;
            i.b = alu_b2(i, false);
            add_read(i, i.a, 1);
            add_read(i, i.b, 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Isetp | Fsetp | Uisetp | Hsetp2 => {
            i.a = a;
            i.b = alu_b2(i, u);
            add_read(i, i.a, 1);
            add_read(i, i.b, 1);
            let acc = i.pred(87);
            add_pred_read(i, acc);
            if !matches!(i.op, Fsetp | Hsetp2) && i.bit(72) {
                let carry = i.pred(68);
                add_pred_read(i, carry);
            }
            add_write(i, pfile, i.f(81, 3) as u8, 1);
            add_write(i, pfile, i.f(84, 3) as u8, 1);
        }
        // PLOP3 over registers' sign bits (0x21f: `PLOP3.LUT P6, PT, R15.SIGN, R12.SIGN,
        // R4.SIGN, 0x2, 0x0`, ptxas's sm_90 overflow test of a saturating add): A 24, B 32, C 64.
        Plop3 if i.f(0, 12) == 0x21f => {
            (i.a, i.b, i.c) = (a, gpr(i.f(32, 8) as u8), gpr(i.f(64, 8) as u8));
            for o in [i.a, i.b, i.c] {
                add_read(i, o, 1);
            }
            add_write(i, File::P, i.f(81, 3) as u8, 1);
            add_write(i, File::P, i.f(84, 3) as u8, 1);
        }
        Plop3 => {
            for pos in [68, 77, 87] {
                let p = i.pred(pos);
                add_pred_read(i, p);
            }
            add_write(i, File::P, i.f(81, 3) as u8, 1);
            add_write(i, File::P, i.f(84, 3) as u8, 1);
        }
        Iadd3 | Uiadd3 | Lea | Ulea | Lop3 | Ulop3 | Prmt | Uprmt | Shf | Ushf | Imad
        | ImadWide | ImadHi | Uimad | UimadWide | Ffma | Hfma2Mma | Hfma2 | Viaddmnmx
        | Vabsdiff | Vabsdiff4 | Idp => {
            i.a = a;
            let (b, c) = alu_bc(i, u);
            i.b = b;
            i.c = c;
            let c_words = if matches!(i.op, ImadWide | UimadWide | ImadHi) {
                2
            } else {
                1
            };
            add_read(i, i.a, 1);
            add_read(i, i.b, 1);
            let lea_lo = matches!(i.op, Lea | Ulea) && !i.bit(80);
            if matches!(i.op, Lea | Ulea) && i.bit(72) {
                return Err("negated A".into());
            }
            let sign_extended = matches!(i.op, Lea | Ulea) && i.bit(73);
            if !(lea_lo || sign_extended) {
                add_read(i, i.c, c_words);
            }
            carry_preds(i);
            // LOP3's predicate output combines `result != 0` with the predicate at 87..90.
            if i.op == Viaddmnmx || i.op == Lop3 {
                let p = i.pred(87);
                add_pred_read(i, p);
            }
            let d_words = if matches!(i.op, ImadWide | UimadWide) {
                2
            } else {
                1
            };
            add_write(i, rfile, dst, d_words);
            if matches!(i.op, Iadd3 | Uiadd3) {
                add_write(i, pfile, i.f(81, 3) as u8, 1);
                add_write(i, pfile, i.f(84, 3) as u8, 1);
            } else if matches!(
                i.op,
                Lea | Ulea | Lop3 | Ulop3 | ImadWide | UimadWide | ImadHi
            ) {
                add_write(i, pfile, i.f(81, 3) as u8, 1);
            }
        }
        I2f | F2i | I2f64 | F2i64 | F2f | Frnd => {
            i.b = alu_b2(i, false);
            // The source size at 84..85 and the result size at 75..76 (3: a pair).
            let words = |code: u32| if code == 3 { 2 } else { 1 };
            add_read(i, i.b, words(i.f(84, 2)));
            add_write(i, File::R, dst, words(i.f(75, 2)));
        }
        S2r => add_write(i, File::R, dst, 1),
        Cs2r => {
            if !crate::special_regs::cs2r_reads(i.f(72, 8)) {
                return Err("CS2R from a register other than SRZ, the clocks and timers".into());
            }
            add_write(i, File::R, dst, if i.bit(80) { 2 } else { 1 });
        }
        S2ur => add_write(i, File::Ur, dst, 1),
        // R2UR URd, Ra: a lane's register into a uniform one (the predicate form is not run yet).
        // R2UR [.OR] [Pd,] URd, Ra: Pd (81..83) is whether the lane's Ra differs from the value
        // taken; with .OR (bit 84) it is or-ed into Pd (ptxas's loops over distinct values).
        R2ur => {
            i.a = a;
            add_read(i, a, 1);
            add_write(i, File::Ur, i.f(16, 6) as u8, 1);
            if i.f(81, 3) != PT as u32 {
                if i.bit(84) {
                    let p = PredSrc {
                        idx: i.f(81, 3) as u8,
                        neg: false,
                        uniform: false,
                    };
                    add_pred_read(i, p);
                }
                add_write(i, File::P, i.f(81, 3) as u8, 1);
            }
        }
        Uldc | Ldc => {
            i.b = Operand::Cb {
                bank: i.f(54, 5) as u8,
                off: i.f(38, 16),
            };
            if i.op == Ldc {
                i.a = a;
                add_read(i, a, 1);
            }
            add_write(i, rfile, dst, mem_words(i.f(73, 3)));
        }
        P2r => {
            if i.f(72, 19) != 0 {
                return Err("byte-selecting or other modified form".into());
            }
            i.a = a;
            i.b = alu_b2(i, false);
            add_read(i, a, 1);
            add_read(i, i.b, 1);
            let mask = if let Operand::Imm(m) = i.b {
                m
            } else {
                u32::MAX
            };
            for p in (0..PT).filter(|&p| mask >> p & 1 == 1) {
                add_pred_read(
                    i,
                    PredSrc {
                        idx: p,
                        neg: false,
                        uniform: false,
                    },
                );
            }
            add_write(i, File::R, dst, 1);
        }
        Ldg | Ld => {
            i.a = a;
            if sm == 75 && i.f(0, 12) == 0x981 {
                i.c = Operand::Ur(i.f(32, 6) as u8);
                add_read(i, i.c, 2);
            }
            add_read(i, a, if wide_address(i) { 2 } else { 1 });
            add_write(i, File::R, dst, mem_words(i.f(73, 3)));
        }
        Stg | St => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            if sm == 75 && matches!(i.f(0, 12), 0x986 | 0x985) {
                i.c = Operand::Ur(i.f(64, 6) as u8);
                add_read(i, i.c, 2);
            }
            add_read(i, a, if wide_address(i) { 2 } else { 1 });
            add_read(i, i.b, mem_words(i.f(73, 3)));
        }
        Ldgsts => {
            add_read(i, gpr(i.f(16, 8) as u8), 1);
            add_read(i, a, 2);
            if i.bit(82) {
                let p = i.pred(87);
                add_pred_read(i, p);
            }
        }
        Ldgdepbar => {}
        // DEPBAR.LE SBn, count: SB0 with any count (cp.async groups), other scoreboards with 0
        // (a plain wait for them, as ptxas waits for S2UR's clock reads).
        Depbar => {
            let mask_form = !i.bit(47) && i.f(38, 9) == 0;
            if !mask_form && (!i.bit(47) || (i.f(44, 3) != 0 && i.f(38, 6) != 0)) {
                return Err("DEPBAR other than .LE SB0, .LE SBn, 0x0 or {mask}".into());
            }
        }
        Hgmma | Igmma | Qgmma => {
            let (reads, (p, neg)) = crate::machine::gmma_operands(i)?;
            i.reads.extend(reads);
            add_pred_read(
                i,
                PredSrc {
                    idx: p,
                    neg,
                    uniform: true,
                },
            );
        }
        Warpgroup => {}
        Hmma | Qmma | Imma if crate::machine::sparse_form(i).is_some() => {
            let f = crate::machine::sparse_form(i).unwrap_or(Err(String::new()))?;
            let [na, nb, nc, _] = crate::machine::sparse_operand_regs(&f);
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            i.c = gpr(i.f(64, 8) as u8);
            add_read(i, i.a, na);
            add_read(i, i.b, nb);
            add_read(i, i.c, nc);
            add_read(i, gpr(i.f(40, 8) as u8), 1);
            add_write(i, File::R, dst, nc);
        }
        Hmma | Qmma => {
            let f = crate::mma::Form::decode(i.w, i.op == Qmma)?;
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            i.c = gpr(i.f(64, 8) as u8);
            add_read(i, i.a, f.a_regs() as u8);
            add_read(i, i.b, f.b_regs() as u8);
            add_read(i, i.c, f.acc_regs() as u8);
            add_write(i, File::R, dst, f.acc_regs() as u8);
        }
        Ldsm => {
            i.a = a;
            add_read(i, a, 1);
            add_write(i, File::R, dst, 1 << i.f(72, 2));
        }
        Stsm => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            add_read(i, a, 1);
            add_read(i, i.b, 1 << i.f(72, 2));
        }
        Movm => {
            i.a = a;
            add_read(i, a, 1);
            add_write(i, File::R, dst, 1);
        }
        Hmma884 => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            i.c = gpr(i.f(64, 8) as u8);
            add_read(i, i.a, 2);
            add_read(i, i.b, 2);
            add_read(i, i.c, 2);
            add_write(i, File::R, dst, 2);
        }
        Lds => {
            i.a = a;
            i.c = Operand::Ur(i.f(32, 6) as u8);
            add_read(i, a, 1);
            add_read(i, i.c, 1);
            add_write(i, File::R, dst, mem_words(i.f(73, 3)));
        }
        Sts => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            i.c = if i.f(0, 12) == 0x988 {
                Operand::Ur(i.f(64, 6) as u8)
            } else {
                Operand::Ur(URZ)
            };
            add_read(i, a, 1);
            add_read(i, i.b, mem_words(i.f(73, 3)));
            add_read(i, i.c, 1);
        }
        Ldl => {
            i.a = a;
            // Bit 91: the address adds a uniform register (bits 32..37): `LDL.64 R14, [UR5]`.
            if i.f(91, 1) == 1 {
                i.c = Operand::Ur(i.f(32, 6) as u8);
            }
            add_read(i, a, 1);
            add_read(i, i.c, 1);
            add_write(i, File::R, dst, mem_words(i.f(73, 3)));
        }
        Stl => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            add_read(i, a, 1);
            add_read(i, i.b, mem_words(i.f(73, 3)));
        }
        Vote | Voteu => {
            let p = i.pred(87);
            let p = PredSrc {
                uniform: false,
                ..p
            };
            add_pred_read(i, p);
            if i.op == Vote {
                add_write(i, File::R, i.dst(), 1);
                add_write(i, File::P, i.f(81, 3) as u8, 1);
            } else {
                add_write(i, File::Ur, i.f(16, 6) as u8, 1);
                add_write(i, File::Up, i.f(81, 3) as u8, 1);
            }
        }
        Match => {
            i.a = a;
            add_read(i, a, if i.bit(73) { 2 } else { 1 });
            add_write(i, File::R, i.dst(), 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Qspc => {
            i.a = a;
            add_read(i, a, 2);
            if i.f(0, 12) == 0x9aa {
                add_read(i, Operand::Ur(i.f(32, 6) as u8), 2);
            }
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Redux => {
            i.a = a;
            add_read(i, a, 1);
            add_write(i, File::Ur, i.f(16, 6) as u8, 1);
        }
        Shfl => {
            let form = i.f(9, 3);
            i.a = a;
            i.b = if form == 1 || form == 2 {
                gpr(i.f(32, 8) as u8)
            } else {
                Operand::Imm(i.f(53, 5))
            };
            i.c = if form == 1 || form == 4 {
                gpr(i.f(64, 8) as u8)
            } else {
                Operand::Imm(i.f(40, 13))
            };
            add_read(i, a, 1);
            add_read(i, i.b, 1);
            add_read(i, i.c, 1);
            add_write(i, File::R, dst, 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Atoms => {
            i.a = a;
            // ATOMS.POPC.INC (0xf8c, 88..90 = 5) has no data operand: bits 32..39 are not a source
            // (ptxas's sm_90 code overwrites R0, named there, under the op's read scoreboard).
            let popc_inc = i.f(0, 12) == 0xf8c && i.f(88, 3) == 5;
            // ATOMS.ARRIVE.64 (88..90 = 4, sm_80..89's mbarrier.arrive: barrier80.rs) neither.
            let arrive = i.f(0, 12) == 0xf8c && i.f(88, 3) == 4;
            i.b = gpr(if popc_inc || arrive {
                RZ
            } else {
                i.f(32, 8) as u8
            });
            i.c = if i.f(0, 12) == 0xf8c {
                Operand::Ur(i.f(64, 6) as u8)
            } else if is_cas(i) {
                gpr(i.f(64, 8) as u8)
            } else {
                Operand::Ur(URZ)
            };
            let data = if popc_inc {
                1
            } else {
                atomic_operand(sm, i).map_or(1, |t| t.bytes / 4)
            };
            add_read(i, a, 1);
            add_read(i, i.b, data);
            add_read(i, i.c, if is_cas(i) { data } else { 1 });
            add_write(i, File::R, dst, data);
        }
        Atomg | Red | Atom => {
            i.a = a;
            i.b = gpr(i.f(32, 8) as u8);
            let wide = if i.bit(72) { 2 } else { 1 };
            if is_cas(i) {
                // ATOMG.CAS: the new value's register at 64..71, no descriptor.
                i.c = gpr(i.f(64, 8) as u8);
                add_read(i, i.c, atomic_operand(sm, i).map_or(1, |t| t.bytes / 4));
            } else if sm == 75 {
                i.c = Operand::Ur(i.f(64, 6) as u8);
                add_read(i, i.c, wide);
            }
            let data = atomic_operand(sm, i).map_or(1, |t| t.bytes / 4);
            add_read(i, a, wide);
            add_read(i, i.b, data);
            if matches!(i.op, Atomg | Atom) {
                add_write(i, File::R, dst, data);
            }
            if i.op == Atom {
                // Whether a generic float add was done (its address global); PT elsewhere.
                add_write(i, File::P, i.f(81, 3) as u8, 1);
            }
        }
        Dadd | Dmul | Dfma => {
            // DADD's second source sits in the C slot (bits 64..71, or a UR at 32 in form 7).
            i.a = a;
            if i.op == Dfma {
                let (b, c) = alu_bc(i, false);
                (i.b, i.c) = (b, c);
            } else if i.op == Dmul {
                i.b = alu_b2(i, false);
            } else {
                i.c = alu_bc(i, false).1;
            }
            for o in [i.a, i.b, i.c] {
                add_read(i, o, 2);
            }
            add_write(i, File::R, dst, 2);
        }
        Dsetp => {
            i.a = a;
            i.b = alu_b2(i, false);
            add_read(i, i.a, 2);
            add_read(i, i.b, 2);
            let acc = i.pred(87);
            add_pred_read(i, acc);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
            add_write(i, File::P, i.f(84, 3) as u8, 1);
        }
        // WARPSYNC Rb (0x348) reads its mask from a register (32..39, on sm_90 24..31); 0x948
        // takes an immediate (any immediate means the whole warp on sm_90: WARPSYNC.ALL).
        Warpsync if i.f(0, 12) == 0x348 => {
            i.b = gpr(i.f(if sm >= 90 { 24 } else { 32 }, 8) as u8);
            add_read(i, i.b, 1);
        }
        Warpsync if sm >= 90 => i.b = Operand::Imm(u32::MAX),
        // BMOV.32[.CLEAR] Rd, Bn (0x355: the barrier's mask into Rd) and BMOV.32 Bn, Rb (0x356).
        Bmov if i.f(0, 12) == 0x356 => {
            i.b = Operand::R(i.f(32, 8) as u8);
            add_read(i, i.b, 1);
        }
        Bmov => add_write(i, File::R, i.dst(), 1),
        Bssy | Bsync | Break | Warpsync | Acqbulk | Preexit | Membar => {}
        // BRA's predicate input (87..90): the executing lanes whose predicate holds take it.
        // BRA.DIV URa (bit 91): branches while the lanes of the mask in URa are not converged.
        Bra => {
            let p = i.pred(87);
            add_pred_read(i, p);
            if i.bit(91) {
                i.a = Operand::Ur(i.f(24, 6) as u8);
                add_read(i, i.a, 1);
            }
        }
        // CALL.ABS.NOINC Ra: calls the address in Ra (and Ra+1).
        CallAbs => {
            i.a = a;
            add_read(i, a, 2);
            if i.f(87, 3) != PT as u32 || i.bit(90) {
                return Err("predicate input other than PT".into());
            }
        }
        Lepc => add_write(i, File::R, i.dst(), 2),
        // RET.REL.NODEC Ra: returns to the address in Ra (and Ra+1), relative to its target field.
        Ret | Call | Exit => {
            if i.op == Ret {
                i.a = a;
                add_read(i, a, 2);
            }
            if i.f(87, 3) != PT as u32 || i.bit(90) {
                return Err("predicate input other than PT".into());
            }
        }
        Bar => {
            if i.f(0, 12) == 0xb1d && sm >= 75 && i.f(54, 4) != 0 {
                return Err("barrier other than 0".into());
            }
            // Thread counts (42..53) and BAR.ARV (77..78 = 1) are not run yet.
            if i.f(42, 12) != 0 || !matches!(i.f(77, 2), 0 | 2) {
                return Err("BAR with a thread count or other than SYNC/RED".into());
            }
            if i.f(77, 2) == 2 {
                let p = i.pred(87);
                add_pred_read(i, p);
            }
        }
        // NANOSLEEP Rb (0x35d) reads its time from a register; the other forms take no register.
        Nanosleep => {
            if i.f(0, 12) == 0x35d {
                i.b = gpr(i.f(32, 8) as u8);
                add_read(i, i.b, 1);
            }
        }
        Errbar | Cgaerrbar => {}
        // BPT.TRAP (mode 3 at 84..86) only.
        Bpt if i.f(84, 3) != 3 => return Err("BPT other than .TRAP".into()),
        Bpt | Pmtrig => {}
        // CCTL.IVALL, and CCTL.E.PF2 [Ra] (a prefetch into L2: it only reads its address).
        Cctl => {
            let prefetch = i.f(87, 4) == 1;
            if !prefetch && (i.f(87, 4) != 4 || i.f(24, 8) != RZ as u32) {
                return Err("CCTL other than IVALL or PF2".into());
            }
            if prefetch {
                i.a = a;
                add_read(i, a, if i.bit(72) { 2 } else { 1 });
            }
        }
        B2r => {
            if !i.bit(78) {
                return Err("B2R other than .RESULT".into());
            }
            add_write(i, File::R, dst, 1);
            add_write(i, File::P, i.f(81, 3) as u8, 1);
        }
        Nop | Yield => {}
        I2ip => {
            // Saturating: bit 74 set on sm_90, clear before (nvdisasm: no .SAT otherwise).
            if i.bit(74) != (sm >= 90) {
                return Err("I2IP without .SAT".into());
            }
            (i.a, i.b, i.c) = (a, gpr(i.f(32, 8) as u8), gpr(i.f(64, 8) as u8));
            for o in [i.a, i.b, i.c] {
                add_read(i, o, 1);
            }
            add_write(i, File::R, dst, 1);
        }
        Elect | SyncsExch | SyncsArrive | SyncsPhasechk | SyncsCctl | FenceViewAsync | Arrives => {
            syncs_decode::operands(i)?
        }
        Ucgabar | Utmacctl | Utmacmdflush | Usetmaxreg => cluster_decode::operands(i)?,
        Utmaldg | Utmastg | Utmapf | Ublkcp | Ublkpf => tma_decode::operands(i)?,
        Imma | Bmma | Dmma => {
            let [na, nb, nc] = crate::machine::matrix_geometry(i)?.regs;
            let (b, c) = (gpr(i.f(32, 8) as u8), gpr(i.f(64, 8) as u8));
            add_read(i, a, na);
            add_read(i, b, nb);
            add_read(i, c, nc);
            add_write(i, File::R, dst, nc);
        }
    }
    Ok(())
}

/// Carry / predicate inputs of the three-source integer ops.
fn carry_preds(i: &mut Inst) {
    use Op::*;
    let x = i.bit(74);
    match i.op {
        Iadd3 | Uiadd3 if x => {
            let (p, q) = (i.pred(87), i.pred(77));
            add_pred_read(i, p);
            add_pred_read(i, q);
        }
        Imad | ImadWide | ImadHi | Uimad | UimadWide | Lea | Ulea if x => {
            let p = i.pred(87);
            add_pred_read(i, p);
        }
        _ => {}
    }
}

/// Bytes of a memory access by its size field (U8/S8, U16/S16, 32, 64, 128).
pub(crate) fn access_bytes(ty: u32) -> usize {
    match ty {
        0 | 1 => 1,
        2 | 3 => 2,
        5 => 8,
        6 => 16,
        _ => 4,
    }
}
