//! The machine-level IR: SASS instructions over virtual (before regalloc) or physical registers.
//!
//! One shape for every instruction: an [`Opcode`] that carries its modifiers, up to two
//! destinations, up to five sources, a guard predicate and the control bits ([`Deps`]). Passes
//! (regalloc, scheduling, the hazard checker) walk operands generically; the encoder and the
//! printer read them by slot. The slot convention of each opcode is documented on its variant and
//! is the contract between lowering, the encoder and the printer.

/// Register files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// 32-bit general purpose registers R0..R254 (R255 = RZ is [`SrcVal::Zero`] / [`Dst::None`]).
    Gpr,
    /// Predicates P0..P6 (P7 = PT is [`SrcVal::True`] / [`Dst::None`]).
    Pred,
    /// Uniform registers UR0..UR62 (UR63 = URZ).
    UGpr,
    /// Uniform predicates UP0..UP6.
    UPred,
}

/// A register or an aligned group of `comps` consecutive registers (64-bit values are `comps == 2`).
///
/// Before register allocation `idx` is a virtual register number (dense per function, one number per
/// group); after it, `idx` is the physical number of the first register of the group.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub file: RegFile,
    pub idx: u32,
    pub comps: u8,
    /// Which register of the group this operand names, for views of one half of a 64-bit value
    /// (`comps == 1`, `comp == 1` is the high half). Register allocation folds it into `idx`.
    pub comp: u8,
}

impl Reg {
    pub const fn gpr(idx: u32) -> Reg {
        Reg {
            file: RegFile::Gpr,
            idx,
            comps: 1,
            comp: 0,
        }
    }
    pub const fn gpr64(idx: u32) -> Reg {
        Reg {
            file: RegFile::Gpr,
            idx,
            comps: 2,
            comp: 0,
        }
    }
    pub const fn pred(idx: u32) -> Reg {
        Reg {
            file: RegFile::Pred,
            idx,
            comps: 1,
            comp: 0,
        }
    }
    pub const fn ugpr(idx: u32, comps: u8) -> Reg {
        Reg {
            file: RegFile::UGpr,
            idx,
            comps,
            comp: 0,
        }
    }
    /// The `n`-th 32-bit register of this group (a one-register view).
    pub const fn part(self, n: u8) -> Reg {
        Reg {
            comps: 1,
            comp: self.comp + n,
            ..self
        }
    }
}

/// The value of a source operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SrcVal {
    Reg(Reg),
    /// RZ (or URZ in a uniform slot).
    Zero,
    /// PT, the always-true predicate.
    True,
    /// A 32-bit immediate (f32 operands hold IEEE bits).
    Imm(u32),
    /// `c[bank][offset]`.
    CBuf {
        bank: u8,
        offset: u16,
    },
}

/// A source operand with its modifiers. `neg` on a predicate source means `!P`; on a float or
/// IADD3 operand it means `-x`. `abs` applies to float operands only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    pub val: SrcVal,
    pub neg: bool,
    pub abs: bool,
}

impl Src {
    pub const fn new(val: SrcVal) -> Src {
        Src {
            val,
            neg: false,
            abs: false,
        }
    }
    pub const fn reg(r: Reg) -> Src {
        Src::new(SrcVal::Reg(r))
    }
    pub const fn imm(v: u32) -> Src {
        Src::new(SrcVal::Imm(v))
    }
    pub const fn cbuf(bank: u8, offset: u16) -> Src {
        Src::new(SrcVal::CBuf { bank, offset })
    }
    pub const ZERO: Src = Src::new(SrcVal::Zero);
    pub const TRUE: Src = Src::new(SrcVal::True);
    pub const FALSE: Src = Src {
        val: SrcVal::True,
        neg: true,
        abs: false,
    };
    /// An unused slot.
    pub const NONE: Src = Src::new(SrcVal::Zero);

    pub fn negated(self) -> Src {
        Src {
            neg: !self.neg,
            ..self
        }
    }
    pub fn absolute(self) -> Src {
        Src { abs: true, ..self }
    }
    pub fn as_reg(&self) -> Option<Reg> {
        match self.val {
            SrcVal::Reg(r) => Some(r),
            _ => None,
        }
    }
}

/// A destination: a register, or the discard register (RZ / PT / URZ depending on the slot).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dst {
    None,
    Reg(Reg),
}

impl Dst {
    pub fn as_reg(&self) -> Option<Reg> {
        match self {
            Dst::Reg(r) => Some(*r),
            Dst::None => None,
        }
    }
}

pub use crate::imma::{BmmaShape, DmmaShape, ImmaShape, IntElem};
pub use crate::mma::{MmaElem, MmaOp, MmaShape, MmaUnit};
pub use crate::warp::{BarMode, ReduxOp, Scope, ShflMode, VoteMode, WarpOp};
/// Special registers read by S2R.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    LaneId,
    TidX,
    TidY,
    TidZ,
    CtaIdX,
    CtaIdY,
    CtaIdZ,
    /// The CTA's rank in its cluster (sm_90), as used for the shared-memory window.
    CgaCtaId,
    /// The high word of generic shared addresses (sm_90's `cvta.shared`: `{shared, SR_SWINHI}`).
    SharedWindowHi,
    /// `%lanemask_eq/lt/le/gt/ge` (SR_EQMASK ...).
    LaneMaskEq,
    LaneMaskLt,
    LaneMaskLe,
    LaneMaskGt,
    LaneMaskGe,
    /// `%nwarpid` on sm_90: bits 8..15 (SR_VIRTCFG).
    VirtCfg,
    /// `%warpid`: bits 8..14 (SR_VIRTID).
    VirtId,
    /// `%total_smem_size` plus the reserved shared memory `c[0x0][0x114]` (SR_SMEMSZ).
    SmemSz,
    /// `%smid` (SR_VIRTUALSMID).
    VirtualSmId,
    /// `%clock`/`%clock_hi`/`%clock64` (CS2R SR_CLOCKLO/HI).
    ClockLo,
    ClockHi,
    /// `%globaltimer`, `_lo`, `_hi` (CS2R SR_GLOBALTIMERLO/HI).
    GlobalTimerLo,
    GlobalTimerHi,
    /// SRZ, reads as zero: `CS2R d, SRZ` zeroes a register pair (`zero_pairs.rs`).
    Zero,
}

/// Integer comparisons (ISETP).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntCmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    T,
}

/// Float comparisons (FSETP): ordered, unordered (`U` suffix), and NUM/NAN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatCmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    Num,
    Nan,
    Ltu,
    Equ,
    Leu,
    Gtu,
    Neu,
    Geu,
    T,
}

/// How a set-predicate result combines with its accumulator predicate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// IEEE rounding of FP64 arithmetic and conversions (the `.RN` default is not printed).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    Rn,
    Rm,
    Rp,
    Rz,
}

/// The functions of MUFU (its field at 74..79).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MufuFunc {
    /// cos(2 pi x): the source is in revolutions.
    Cos,
    /// sin(2 pi x).
    Sin,
    Ex2,
    Lg2,
    Rcp,
    Rsq,
    /// The high word of an f64 reciprocal, from the high word of the source.
    Rcp64h,
    /// The high word of an f64 reciprocal square root, from the high word of the source.
    Rsq64h,
    Sqrt,
    Tanh,
}

/// Number formats of the I2F/F2I/F2F conversions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumFormat {
    F16,
    Bf16,
    F32,
    F64,
    S8,
    U8,
    S16,
    U16,
    S32,
    U32,
    S64,
    U64,
}

impl NumFormat {
    /// Whether values of this format are 64-bit (a register pair).
    pub fn is_wide(self) -> bool {
        matches!(self, NumFormat::F64 | NumFormat::S64 | NumFormat::U64)
    }
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            NumFormat::S8 | NumFormat::S16 | NumFormat::S32 | NumFormat::S64
        )
    }
    pub fn is_float(self) -> bool {
        matches!(
            self,
            NumFormat::F16 | NumFormat::Bf16 | NumFormat::F32 | NumFormat::F64
        )
    }
    /// The size field of the conversions (75..76 for the result, 84..85 for the source):
    /// 0 = 8-bit, 1 = 16-bit, 2 = 32-bit, 3 = 64-bit.
    pub fn size_code(self) -> u64 {
        use NumFormat::*;
        match self {
            S8 | U8 => 0,
            F16 | Bf16 | S16 | U16 => 1,
            F32 | S32 | U32 => 2,
            F64 | S64 | U64 => 3,
        }
    }
}

/// Which halves of a 32-bit register feed the two lanes of a half-precision ALU op (the source's
/// swizzle field): both halves as they are, an f32 value, the low half twice, the high half twice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HalfSwizzle {
    H1H0,
    F32,
    H0H0,
    H1H1,
}

impl HalfSwizzle {
    /// The field's code.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// The operation of HADD2 (0x030), HMUL2 (0x032) and HFMA2 (0x031).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HalfOp {
    Add,
    Mul,
    Fma,
}

/// What DSETP computes: a float comparison, or the selector of a min/max.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DoubleTest {
    Cmp(FloatCmp),
    Min,
    Max,
}

/// IMAD variants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImadMode {
    /// Low 32 bits of a*b+c.
    Lo,
    /// High 32 bits of the 64-bit a*b (+c with carry semantics of the hardware).
    Hi,
    /// 64-bit a*b + c (c and dst are register pairs).
    Wide,
}

/// Memory access sizes and extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemSize {
    U8,
    S8,
    U16,
    S16,
    B32,
    B64,
    B128,
}

impl MemSize {
    pub fn bytes(self) -> u32 {
        match self {
            MemSize::U8 | MemSize::S8 => 1,
            MemSize::U16 | MemSize::S16 => 2,
            MemSize::B32 => 4,
            MemSize::B64 => 8,
            MemSize::B128 => 16,
        }
    }
    /// Registers a load of this size writes (or a store reads).
    pub fn regs(self) -> u8 {
        match self {
            MemSize::B64 => 2,
            MemSize::B128 => 4,
            _ => 1,
        }
    }
}

/// The operation of an atomic or reduction (ATOMS/ATOMG/RED field 87..90).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    /// Compare and swap (ATOMS.CAS / ATOMG.CAS, a different opcode).
    Cas,
}

/// The operand type of an atomic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomType {
    U32,
    S32,
    U64,
    S64,
    /// f32 add, flushing denormals and rounding to nearest (`.F32.FTZ.RN`).
    F32,
    /// f64 add, rounding to nearest (`.F64.RN`; global memory only).
    F64,
    /// Packed f16 pair add, each half rounded to nearest (`.F16x2.RN`; global memory only).
    F16x2,
    /// Packed bf16 pair add (`.BF16x2.RN`; global memory, sm_90).
    Bf16x2,
}

impl AtomType {
    pub fn is_wide(self) -> bool {
        matches!(self, AtomType::U64 | AtomType::S64 | AtomType::F64)
    }

    /// The float adds (`.F32.FTZ.RN`, `.F64.RN`).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            AtomType::F32 | AtomType::F64 | AtomType::F16x2 | AtomType::Bf16x2
        )
    }

    /// 32-bit registers one value takes: 2 for 64-bit types (CAS's new value sits this many
    /// registers after its compare value).
    pub fn words(self) -> u8 {
        if self.is_wide() {
            2
        } else {
            1
        }
    }
}

/// The L1 eviction priority of a global or generic access (`.EF`, `.EL`, `.LU`, `.EU`, `.NA`;
/// `Normal` prints nothing). The discriminant is the encoding's field value (bits 84..86).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evict {
    First = 0,
    #[default]
    Normal = 1,
    Last = 2,
    LastUse = 3,
    Unchanged = 4,
    NoAllocate = 5,
}

/// A global or generic access's cache hints: the L1 eviction priority and the L2 prefetch size
/// in bytes (`.LTC64B`/`.LTC128B`/`.LTC256B`; 0: none); `policy`: the descriptor operand is an
/// L2 cache policy (`.L2::cache_hint`), which sm_80 to sm_89 mark (bit 101) and print as
/// `desc[URn]`. Hints never change what a program computes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheHint {
    pub evict: Evict,
    pub l2_prefetch: u16,
    pub policy: bool,
}

impl CacheHint {
    /// No hint: what an access without cache operators gets.
    pub const NONE: CacheHint = CacheHint {
        evict: Evict::Normal,
        l2_prefetch: 0,
        policy: false,
    };
}

/// The scope of a global atomic (`.STRONG.SM` for `.cta`, `.STRONG.GPU`, `.STRONG.SYS`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemScope {
    Cta,
    Gpu,
    Sys,
}

/// PRMT's byte-selection mode: `Index` takes four selector nibbles; the others (PTX's `.f4e`,
/// `.b4e`, `.rc8`, `.ecl`, `.ecr`, `.rc16`) pick a fixed pattern by the selector's low bits.
/// The discriminant is the encoding's field value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrmtMode {
    Index = 0,
    F4e = 1,
    B4e = 2,
    Rc8 = 3,
    Ecl = 4,
    Ecr = 5,
    Rc16 = 6,
}

impl PrmtMode {
    /// The mode a PTX modifier names.
    pub fn from_ptx(m: &str) -> Option<PrmtMode> {
        Some(match m {
            "f4e" => PrmtMode::F4e,
            "b4e" => PrmtMode::B4e,
            "rc8" => PrmtMode::Rc8,
            "ecl" => PrmtMode::Ecl,
            "ecr" => PrmtMode::Ecr,
            "rc16" => PrmtMode::Rc16,
            _ => return None,
        })
    }

    /// nvdisasm's suffix (`.F4E`), empty for `Index`.
    pub fn suffix(self) -> &'static str {
        match self {
            PrmtMode::Index => "",
            PrmtMode::F4e => ".F4E",
            PrmtMode::B4e => ".B4E",
            PrmtMode::Rc8 => ".RC8",
            PrmtMode::Ecl => ".ECL",
            PrmtMode::Ecr => ".ECR",
            PrmtMode::Rc16 => ".RC16",
        }
    }
}

/// Opcodes with their modifiers. Slot conventions (`d` = dsts, `s` = srcs; unused slots hold
/// [`Dst::None`] / [`Src::NONE`]):
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    /// `MOV d0, s0` (s0: reg, uniform reg, imm or cbuf).
    Mov,
    /// `S2R d0, SR_x`.
    S2r(SpecialReg),
    /// `S2UR d0(UR), SR_x` (variable latency).
    S2ur(SpecialReg),
    /// `CS2R[.32] d0, SR_x`: the clocks and timers, fixed latency; `wide` reads the register pair
    /// (SR_x and the one after it) into a 64-bit d0.
    Cs2r { sr: SpecialReg, wide: bool },
    /// `UMOV d0(UR), s0(imm)`.
    Umov,
    /// `ULEA d0(UR), s0(UR), s1(UR), shift`: d = (s0 << shift) + s1.
    Ulea { shift: u8 },
    /// `LEA d0, d1(carry-out P, None=PT), s0, s1, shift`: d = (s0 << shift) + s1, the low word of
    /// a 64-bit address. With `hi`, `LEA.HI.X d0, s0, s1, s2, shift, s3(carry-in P)`: d = the high
    /// word of (s2:s0 << shift) + s1 + carry. s1 may be a cbuf; s2 a register or RZ.
    Lea { hi: bool, shift: u8 },
    /// `IADD3[.X] d0, d1(carry-out P, None=PT), s0, s1, s2, s3(carry-in P), s4(carry-in P)`.
    /// s0..s2 may be negated (`-R`); s1 may be imm/cbuf. With `x`, s3/s4 are the carry inputs.
    Iadd3 { x: bool },
    /// `IMAD[.HI|.WIDE][.U32][.X] d0, s0, s1, s2` (+ s3 = carry-in predicate with `x`).
    /// With `Wide`, d0 and s2 are pairs. s1 may be imm/cbuf; s2 may be cbuf.
    Imad {
        mode: ImadMode,
        signed: bool,
        x: bool,
    },
    /// `IABS d0, s0`.
    Iabs,
    /// `IMNMX[.U32] d0, s0, s1, s2(P: PT = min, !PT = max)`.
    Imnmx { signed: bool },
    /// `FADD[.FTZ][.rnd] d0, s0, s1` (neg/abs on both).
    Fadd { ftz: bool, rnd: Round },
    /// `FMUL[.FTZ] d0, s0, s1`.
    Fmul { ftz: bool },
    /// `FFMA[.FTZ] d0, s0, s1, s2` (d = s0*s1 + s2).
    Ffma { ftz: bool },
    /// `FMNMX[.FTZ] d0, s0, s1, s2(P: PT = min, !PT = max)`.
    Fmnmx { ftz: bool },
    /// `ISETP.cmp[.U32].combine[.EX] d0(P), d1(P), s0, s1, s2(accumulator P)` (+ s3 = carry P with `ex`).
    Isetp {
        cmp: IntCmp,
        signed: bool,
        combine: BoolOp,
        ex: bool,
    },
    /// `FSETP.cmp[.FTZ].combine d0(P), d1(P), s0, s1, s2(accumulator P)`.
    Fsetp {
        cmp: FloatCmp,
        combine: BoolOp,
        ftz: bool,
    },
    /// `DADD[.rnd] d0, s0, s1`: f64 d = s0 + s1 (all pairs or RZ; neg/abs on both sources).
    /// The encoding puts s1 in the C field. Variable latency (the FP64 unit).
    Dadd { rnd: Round },
    /// `DMUL[.rnd] d0, s0, s1`: f64 d = s0 * s1.
    Dmul { rnd: Round },
    /// `DFMA[.rnd] d0, s0, s1, s2`: f64 d = s0 * s1 + s2, rounded once.
    Dfma { rnd: Round },
    /// `DSETP.test.combine d0(P), d1(P), s0(pair), s1(pair), s2(accumulator P)`. A compare writes
    /// (s0 cmp s1) and its negation, each combined with s2; `.MIN`/`.MAX` write "s0 is the
    /// minimum/maximum" (NaN loses, -0 < +0) and "both are NaN".
    Dsetp { test: DoubleTest, combine: BoolOp },
    /// `I2F[.F16|.F64][.S8|.U8|.S16|.U16|.U32|.S64|.U64][.rnd] d0, s0`: an integer to a float
    /// (opcode 0x312 where a side is 64-bit (a pair), else 0x306; 8- and 16-bit sources are the
    /// register's low bits). Variable latency. (The 32-bit to f32 form is also [`Opcode::I2f`].)
    I2fWide {
        dst: NumFormat,
        src: NumFormat,
        rnd: Round,
    },
    /// `F2I[.S8|.U8|.S16|.U16|.U32|.S64|.U64][.F16|.F64][.FLOOR|.CEIL|.TRUNC][.NTZ] d0, s0`: a
    /// float to an integer (0x311 where a side is 64-bit, else 0x305 with `.NTZ`); saturating to
    /// the result type, NaN gives 0; an 8- or 16-bit result is sign- or zero-extended to 32 bits.
    /// Variable latency.
    F2iWide {
        dst: NumFormat,
        src: NumFormat,
        rnd: Round,
    },
    /// `F2F.<dst>.<src>[.rnd] d0, s0` between f16, f32 and f64 (0x310 where a side is 64-bit,
    /// else 0x304): widening is exact, narrowing rounds by `rnd`.
    F2f {
        dst: NumFormat,
        src: NumFormat,
        rnd: Round,
    },
    /// `I2F[.U32] d0, s0`: integer to f32, round to nearest (variable latency; sm_75/sm_80).
    I2f { signed: bool },
    /// `I2FP.F32.{S32,U32} d0, s0`: integer to f32 on the ALU (fixed latency; sm_86+).
    I2fp { signed: bool },
    /// `F2I[.U32][.TRUNC].NTZ d0, s0`: f32 to integer, truncating or to nearest (variable latency).
    F2i { signed: bool, truncate: bool },
    /// `HADD2|HMUL2|HFMA2[.F32][.BF16_V2][.FTZ][.SAT][.RELU] d0, s0, s1[, s2]`: two f16 (or bf16)
    /// lanes, each source's halves chosen by `swz` (s0..s2); neg/abs on every source. `f32_out`
    /// writes the low lane's result as one f32 (HADD2.F32, the f16 to f32 conversion).
    Half2 {
        op: HalfOp,
        bf16: bool,
        ftz: bool,
        sat: bool,
        relu: bool,
        f32_out: bool,
        swz: [HalfSwizzle; 3],
    },
    /// `HSETP2[.BF16_V2].cmp[.FTZ].combine d0(P), d1(P), s0, s1, s2(accumulator P)`: d0 from the
    /// low lanes, d1 from the high lanes, each combined with s2.
    Hsetp2 {
        cmp: FloatCmp,
        combine: BoolOp,
        ftz: bool,
        bf16: bool,
        swz: [HalfSwizzle; 2],
    },
    /// `HSET2[.BF16_V2][.BF].cmp[.FTZ].combine d0, s0, s1, s2(accumulator P)`: each lane of d0
    /// all ones (`.BF`: 1.0 of the lane's format) where its comparison, combined with s2, holds,
    /// else 0.
    Hset2 {
        cmp: FloatCmp,
        combine: BoolOp,
        ftz: bool,
        bf16: bool,
        bool_float: bool,
        swz: [HalfSwizzle; 2],
    },
    /// `HMNMX2[.BF16_V2][.FTZ][.NAN] d0, s0, s1, s2(P: PT = min, !PT = max)`, lane by lane.
    Hmnmx2 {
        bf16: bool,
        ftz: bool,
        nan: bool,
        swz: [HalfSwizzle; 2],
    },
    /// `F2FP[.RELU][.BF16].PACK_AB[.RZ] d0, s0, s1` (sm_80+): two f32 rounded to f16 (or bf16),
    /// s0 into the high half and s1 into the low half; `.RELU` makes negatives 0 (bit 75).
    F2fp { bf16: bool, rnd: Round, relu: bool },
    /// `F2FP.SATFINITE[.RELU].E4M3.F32.PACK_AB_MERGE_C d0, s0, s1, s2` and the other FP8 forms
    /// (sm_89+; `crate::fp8`): s0 (f32 packs only) into the high byte, s1 the low, s2 is RZ;
    /// `h1`: an unpack reads s1's upper half (`R7.H1`).
    F2fp8 {
        form: crate::fp8::Fp8Form,
        relu: bool,
        h1: bool,
    },
    /// `SEL d0, s0, s1, s2(P)`: d = P ? s0 : s1.
    Sel,
    /// `LOP3.LUT d1(P), d0, s0, s1, s2, lut, s3(P)`; d1 and s3 are usually PT / !PT.
    Lop3 { lut: u8 },
    /// `LOP3.LUT.PAND d1(P), d0, s0, s1, s2, lut, s3(P)`: as [`Opcode::Lop3`], but d1 is
    /// `d0 != 0` AND s3 (Lop3's d1 is `d0 != 0` OR s3); `lop3.and.b32 d|p, ...` (bit 80).
    Lop3Pand { lut: u8 },
    /// `PLOP3.LUT d0(P), d1(P), s0(P), s1(P), s2(P), lut`.
    Plop3 { lut: u8 },
    /// `SHF.{L,R}[.S32|.U32|.S64|.U64][.HI] d0, s0(lo), s1(shift), s2(hi)`.
    Shf {
        right: bool,
        signed: bool,
        wide: bool,
        hi: bool,
    },
    /// `VABSDIFF[.U32] d0, s0, s1, s2`: |s0 - s1| + s2 (PTX `sad`), the difference signed or not.
    Vabsdiff { signed: bool },
    /// `VABSDIFF4.U8[.ACC] d0, s0, s1, s2`: the four byte differences |s0.b - s1.b| (unsigned);
    /// `.ACC` writes their sum plus s2, else the bytes themselves (s2 unused).
    Vabsdiff4 { acc: bool },
    /// `PRMT[.mode] d0, s0, s1(selector), s2`.
    Prmt { mode: PrmtMode },
    /// `LDG.E[.evict][.LTCnB][.size][.CONSTANT] d0, [s0(addr pair) + offset]`; s1 = descriptor UR
    /// pair (sm_80+).
    /// `scope`: `.STRONG.{SM,GPU,SYS}` for `.relaxed`/`.volatile` accesses (None: weak).
    Ldg {
        size: MemSize,
        constant: bool,
        scope: Option<MemScope>,
        hint: CacheHint,
        offset: i32,
    },
    /// `STG.E[.evict][.size] [s0(addr pair) + offset], s1(data)`; s2 = descriptor UR pair (sm_80+).
    Stg {
        size: MemSize,
        scope: Option<MemScope>,
        hint: CacheHint,
        offset: i32,
    },
    /// `LD.E[.evict][.LTCnB][.size][.STRONG.scope] d0, [s0(addr pair) + offset]`: a generic-space load, slots as LDG.
    Ld {
        size: MemSize,
        scope: Option<MemScope>,
        hint: CacheHint,
        offset: i32,
    },
    /// `ST.E[.evict][.size][.STRONG.scope] [s0(addr pair) + offset], s1(data)`: a generic-space store, slots as STG.
    St {
        size: MemSize,
        scope: Option<MemScope>,
        hint: CacheHint,
        offset: i32,
    },
    /// `LDS[.size] d0, [s0(addr or Zero) + offset]`.
    Lds { size: MemSize, offset: i32 },
    /// `STS[.size] [s0(addr or Zero) + offset], s1(data)`.
    Sts { size: MemSize, offset: i32 },
    /// `LDL[.size] d0, [s0(32-bit local addr or Zero) + offset]`: a load from this thread's
    /// local memory (the stack frame, `frame.rs`).
    Ldl { size: MemSize, offset: i32 },
    /// `STL[.size] [s0(32-bit local addr or Zero) + offset], s1(data)`.
    Stl { size: MemSize, offset: i32 },
    /// `LDC[.64] d0, s0(cbuf)` (variable latency; sm_90 loads parameters this way).
    Ldc { wide: bool },
    /// `LDC[.size] d0, c[bank][s1 + offset]`: s0 the cbuf (bank, offset), s1 a 32-bit index
    /// register (a kernel parameter reached through a runtime offset, as ptxas reads it).
    LdcIndexed { size: MemSize },
    /// `ULDC[.64] d0(UR), s0(cbuf)`.
    Uldc { wide: bool },
    /// `ULDC.{U8,S8,U16,S16} d0(UR), s0(cbuf)`: a byte or half of the constant bank, extended
    /// (kernel parameters narrower than 32 bits, as ptxas reads them).
    UldcNarrow { size: MemSize },
    /// `CCTL.E.PF2 [s0(addr pair) + offset]`: prefetch a global line into L2 (`prefetch.global.L2`).
    CctlPf2 { offset: i32 },
    /// `LDGSTS.E[.BYPASS][.LTC128B][.64|.128][.ZFILL] [s0(shared addr or Zero) + dst_offset],
    /// [s1(addr pair) + src_offset][, s3(P)]`; s2 = descriptor UR pair (`cp.async.{ca,cg}`).
    /// An asynchronous global-to-shared copy of `size` bytes; with `zfill` the copy reads
    /// `size - (addr % size)` bytes from the aligned-down address, zeroes the rest, and all of it
    /// when s3 is false. Its sources are read late (read scoreboard); completion is tracked by
    /// LDGDEPBAR groups, not by a write scoreboard. `src_offset` is 12-bit signed.
    Ldgsts {
        size: MemSize,
        bypass: bool,
        ltc128b: bool,
        zfill: bool,
        dst_offset: i32,
        src_offset: i32,
    },
    /// `LDGDEPBAR` (`cp.async.commit_group`): closes the group of LDGSTS issued since the last
    /// one; the group counts on SB0 until its copies land (scheduled with write scoreboard SB0).
    Ldgdepbar,
    /// `DEPBAR.LE SB0, pending` (`cp.async.wait_group`): waits until at most `pending` LDGSTS
    /// groups are outstanding.
    DepbarLe { pending: u8 },
    /// The sm_90 mbarrier (SYNCS.*) and asynchronous-proxy fence instructions (`syncs.rs`).
    Syncs(crate::syncs::SyncsOp),
    /// sm_90 cluster barrier, tensor-map control and register reconfiguration (`cluster.rs`).
    Cluster(crate::cluster::ClusterOp),
    /// `R2UR [d1(P),] d0(UR), s0(R)` (sm_90 0x2ca, sm_80..89 0x3c2): the lowest executing lane's
    /// register into a uniform register (`mbarrier.init`'s count; encoding in `encode_sync.rs`);
    /// d1, where present, is set in the lanes whose s0 differs (`arrives.rs`' loop).
    R2ur,
    /// `R2UR d1(P), d0(UR), s0(R)`: R2UR with its predicate result, under a write scoreboard
    /// (ptxas's sm_80 code scoreboards it): the loop that makes a thread-varying address uniform
    /// one value at a time (`cp.async.mbarrier.arrive`, `pipeline/lower/src/cp_async_arrive.rs`).
    R2urPred,
    /// `LDSM.16.{M88,MT88}[.2|.4] d0(group of `count` regs), [s0(shared addr or Zero) + offset]`
    /// (`ldmatrix...m8n8...b16`): `count` 8x8 b16 matrices, rows addressed by lanes 8j..8j+7,
    /// `trans` transposed. Variable latency.
    Ldsm { count: u8, trans: bool, offset: i32 },
    /// `FLO[.U32][.SH] d0, s0`: index of the highest set bit (signed: of the highest bit that
    /// differs from the sign), 0xffffffff when there is none; `.SH` gives 31 - index instead
    /// (PTX `bfind.shiftamt`). Variable latency.
    Flo { signed: bool, sh: bool },
    /// `I2F[.U32].RP d0, s0`: 32-bit integer to f32 rounded up (integer division's reciprocal
    /// seed; variable latency, sources read late).
    I2fRp { signed: bool },
    /// `MUFU.RCP d0, s0`: approximate f32 reciprocal (variable latency).
    MufuRcp,
    /// `MUFU.RSQ d0, s0`: approximate f32 reciprocal square root (variable latency).
    MufuRsq,
    /// `FRND[.FTZ][.TRUNC|.FLOOR|.CEIL] d0, s0`: an f32 rounded to an integral f32 (`rnd`: RN, RZ,
    /// RM, RP); variable latency like the conversions.
    Frnd { ftz: bool, rnd: Round },
    /// `MUFU.<func> d0, s0`: the multi-function unit's approximations (variable latency); the
    /// 64H functions read and write the high word of an f64.
    Mufu { func: MufuFunc },
    /// `FMUL[.FTZ].rnd d0, s0, s1`: FMUL in a rounding mode (sin/cos's `x * 1/(2 pi)` is `.RZ`).
    FmulRound { ftz: bool, rnd: Round },
    /// `FFMA[.FTZ].rnd d0, s0, s1, s2`: FFMA in a directed rounding mode (`fma.{rz,rm,rp}.f32`;
    /// slots as `Ffma`, register sources).
    FfmaRound { ftz: bool, rnd: Round },
    /// `SHF.{L,R}.W.U32[.HI] d0, s0(lo), s1(shift), s2(hi)`: the 32-bit funnel shift with the
    /// amount taken modulo 32 (`shf.{l,r}.wrap.b32`).
    ShfWrap { right: bool, hi: bool },
    /// `FRND.F16|.BF16[.TRUNC|.FLOOR|.CEIL] d0, s0`: the f16 (bf16: sm_90) in the low half of s0
    /// rounded to an integral value of its format; variable latency like FRND.
    FrndHalf { rnd: Round, bf16: bool },
    /// `FRND.F64[.TRUNC|.FLOOR|.CEIL] d0(pair), s0(pair)`: an f64 rounded to an integral f64;
    /// variable latency, on the FP64 path.
    FrndF64 { rnd: Round },
    /// `POPC d0, s0`: number of set bits (variable latency).
    Popc,
    /// `BREV d0, s0`: bits reversed (variable latency).
    Brev,
    /// `BMSK[.W] d0, s0(start), s1(width)`: `width` ones from bit `start`, clamped at 32 bits
    /// (wrapped modulo 32 with `.W`).
    Bmsk { wrap: bool },
    /// `ATOMS.op[.S32|.64] d0, [s0(addr or Zero) + offset], s1(data)`; with `Cas` (ATOMS.CAS)
    /// s1 is one register group holding the compare value then the new value. d0 (RZ when the old
    /// value is unused) and the values are pairs for 64-bit types. Variable latency.
    Atoms {
        op: AtomOp,
        ty: AtomType,
        offset: i32,
    },
    /// `ATOMG.E.op[.type].STRONG.scope PT, d0, [s0(addr pair) + offset], s1(data)`; s2 =
    /// descriptor UR pair (sm_80+). d0 and s1 are pairs for 64-bit types. With `Cas`
    /// (ATOMG.E.CAS, no descriptor) s1 is one register group holding the compare value then the
    /// new value (a pair, or a quad for 64-bit types). Variable latency.
    Atomg {
        op: AtomOp,
        ty: AtomType,
        scope: MemScope,
        offset: i32,
    },
    /// `ATOM.E.op[.type].STRONG.scope PT, d0, [s0(addr pair) + offset], s1(data)`: a generic-space
    /// atomic (the address may be global or shared), slots and fields as [`Opcode::Atomg`]
    /// (opcodes 0x98a, 0x38a on sm_75, CAS 0x38b). d0 is RZ when the old value is unused.
    Atom {
        op: AtomOp,
        ty: AtomType,
        scope: MemScope,
        offset: i32,
    },
    /// `RED.E.op[.type].STRONG.scope [s0(addr pair) + offset], s1(data)`; s2 = descriptor UR pair
    /// (sm_80+): an atomic whose old value is unused.
    Red {
        op: AtomOp,
        ty: AtomType,
        scope: MemScope,
        offset: i32,
    },
    /// `BRA target` where target is a block index of the function.
    Bra { target: u32 },
    /// `EXIT`.
    Exit,
    /// `CALL.REL.NOINC target` (`subroutine.rs`): a call of the subroutine whose code starts at
    /// block `target`; control comes back to the next instruction. Reads s0..s4 (the arguments in
    /// the ABI registers, then the return address pair), writes d0, d1 (the results). Ends its
    /// block; before `expand_calls` its slots hold the arguments' and results' own values.
    Call { target: u32 },
    /// `RET.REL.NODEC s0(pair)`: returns to the address in s0 (an offset from the code's start);
    /// s1..s4 are the results handed back (read to keep them live, not encoded).
    Ret,
    /// `MOV d0, <offset of block>`: the return address of a call (the block after its CALL),
    /// which the encoder knows once the code is laid out.
    RetAddr { block: u32 },
    /// No code: the subroutine's arguments arrive in d0, d1 here (`subroutine.rs` removes it after
    /// register allocation).
    SubArgs,
    /// `CALL.ABS.NOINC s0(pair)` (`extern_call.rs`): a call of an external function (`vprintf`,
    /// `__assertfail`) whose address is in `.nv.constant4` slot `slot` (the module's extern number
    /// `ext`). Before `finish_extern_calls` s0..s4 hold the arguments (in the ABI registers after
    /// `expand_calls`) and d0, d1 the results; after it s0 is the address pair, s1 the return
    /// address R20:R21 (read by the callee). Does not end its
    /// block: control comes back to the next instruction.
    CallAbs { slot: u16, ext: u16 },
    /// `LEPC d0(pair)`: the address of this instruction.
    Lepc,
    /// `BAR.SYNC.DEFER_BLOCKING id`.
    BarSync { id: u32 },
    /// `NOP`.
    Nop,
    /// Warp-level and synchronisation ops; slot conventions on [`WarpOp`] (`warp.rs`).
    Warp(WarpOp),
    /// Integer tensor-core op: dst0 D (a group of 2 or 4), srcs A, B (groups), C (group or RZ).
    /// `scoreboarded`: the result takes a write scoreboard (sm_75) rather than the fixed latency
    /// of [`crate::imma::matrix_fixed_latency`] (sm_80+), as ptxas 13.5 does.
    Imma {
        shape: ImmaShape,
        a: IntElem,
        b: IntElem,
        sat: bool,
        scoreboarded: bool,
    },
    /// Single-bit tensor-core op (`.POPC` of A AND/XOR B, added to C); slots and `scoreboarded`
    /// as IMMA.
    Bmma {
        shape: BmmaShape,
        and: bool,
        scoreboarded: bool,
    },
    /// f64 tensor-core op; slots as IMMA, each element a register pair.
    Dmma { shape: DmmaShape },
    /// `I2IP.{S8,U8}.S32.SAT d0, s0, s1, s2`: d = s2's low half << 16 | sat8(s0) << 8 | sat8(s1)
    /// (`cvt.pack.sat.{s8,u8}.s32.b32`).
    I2ip { signed: bool },
    /// Tensor-core multiply-accumulate (HMMA, QMMA, ...); slot conventions on [`MmaOp`] (`mma.rs`).
    Mma(MmaOp),
    /// Sparse tensor-core multiply-accumulate (HMMA.SP, IMMA.SP, QMMA.SP); slots on
    /// [`crate::mma_sparse::SparseMma`].
    MmaSp(crate::mma_sparse::SparseMma),
    /// MOVM, STSM and sm_75's HMMA.884 steps; slot conventions on [`crate::matrix_move::MatrixOp`].
    Matrix(crate::matrix_move::MatrixOp),
    /// `SGXT[.W][.U32] d0, s0, s1(bit count: reg or imm)`: s0's low `n = min(s1, 32)` bits
    /// (`n = s1 mod 32` with `.W`), sign-extended from bit n-1 unless `.U32` (n = 0 gives 0).
    /// PTX `bfe`'s last step and `szext`.
    Sgxt { signed: bool, wrap: bool },
    /// `IDP.4A.{S8,U8}.{S8,U8} d0, s0, s1, s2` (`dp4a`): s2 + the four byte products of s0 and
    /// s1; `IDP.2A.{LO,HI}.{S16,U16}.{S8,U8}` (`dp2a`, `pairs`): s2 + s0's two halves times s1's
    /// bytes 0-1 (`.LO`) or 2-3 (`.HI`). `a_signed`/`b_signed`: s0's and s1's elements signed.
    /// s1 may be imm/cbuf. Fixed latency (the IMAD pipe).
    Idp {
        pairs: bool,
        hi: bool,
        a_signed: bool,
        b_signed: bool,
    },
    /// Warpgroup tensor-core op (HGMMA, IGMMA, QGMMA; `wgmma.mma_async`); slot conventions on
    /// [`crate::wgmma::WgmmaOp`] (`wgmma.rs`).
    Wgmma(crate::wgmma::WgmmaOp),
    /// sm_90's TMA and bulk copies and their lane loop's ELECT and VOTE ([`crate::tma::TmaOp`],
    /// `tma.rs`).
    Tma(crate::tma::TmaOp),
    /// Texture and surface instructions on object handles (TLD, TEX, TLD4, TXD, SULD, SUST);
    /// slot conventions on [`crate::texture::TexOp`] (`texture.rs`).
    Texture(crate::texture::TexOp),
    /// `WARPGROUP.ARRIVE` (`wgmma.fence`): registers written before it are visible to the
    /// warpgroup MMAs after it.
    WarpgroupArrive,
    /// `WARPGROUP.DEPBAR.LE gsb0, pending` (`wgmma.wait_group`): waits until at most `pending`
    /// groups of warpgroup MMAs are in flight. Its sources and destinations name the
    /// accumulator groups that may be in flight (read and written here: kept live and in place
    /// until here, read after it), encoded nowhere.
    WarpgroupDepbar { pending: u8 },
    /// `VOTEU.ANY d0(UP), s0(P)`: whether the predicate holds on any active lane, into a uniform
    /// predicate (the scale-d operand of `wgmma`).
    VoteuAny,
}

/// Control bits of one instruction (bits 105..125 of the encoding).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deps {
    /// Cycles before the next instruction of the warp may issue (0..15).
    pub stall: u8,
    /// Bit 109 (printed `Y` by CuAssembler when clear).
    pub yld: bool,
    /// Scoreboard incremented at issue, released when the result is written.
    pub wr_sb: Option<u8>,
    /// Scoreboard released once the sources have been read.
    pub rd_sb: Option<u8>,
    /// Scoreboards (bit i = SB i) that must reach zero before this instruction issues.
    pub wait: u8,
    /// Operand reuse flags (bit 0 = slot A, 1 = B, 2 = C, 3 = D).
    pub reuse: u8,
}

impl Default for Deps {
    /// The most conservative setting: wait 15 cycles, no scoreboards.
    fn default() -> Deps {
        Deps {
            stall: 15,
            yld: false,
            wr_sb: None,
            rd_sb: None,
            wait: 0,
            reuse: 0,
        }
    }
}

/// One instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    pub op: Opcode,
    pub dsts: [Dst; 2],
    pub srcs: [Src; 5],
    /// Guard predicate: `Src::TRUE` for unpredicated, a predicate register, optionally negated.
    pub guard: Src,
    pub deps: Deps,
    /// The PTX line it was lowered from (`-lineinfo`); equal to every other location.
    pub loc: crate::srcloc::SrcLoc,
}

/// How an instruction touches a register.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl Instr {
    /// An unpredicated instruction with default (conservative) control bits.
    pub fn new(op: Opcode, dsts: &[Dst], srcs: &[Src]) -> Instr {
        let mut d = [Dst::None; 2];
        d[..dsts.len()].copy_from_slice(dsts);
        let mut s = [Src::NONE; 5];
        s[..srcs.len()].copy_from_slice(srcs);
        Instr {
            op,
            dsts: d,
            srcs: s,
            guard: Src::TRUE,
            deps: Deps::default(),
            loc: crate::srcloc::SrcLoc::NONE,
        }
    }

    pub fn guarded(mut self, guard: Src) -> Instr {
        self.guard = guard;
        self
    }

    /// Calls `f` for every register operand: the guard and sources as reads, destinations as writes.
    pub fn visit_regs(&self, mut f: impl FnMut(Reg, Access)) {
        if let SrcVal::Reg(r) = self.guard.val {
            f(r, Access::Read);
        }
        for s in &self.srcs {
            if let SrcVal::Reg(r) = s.val {
                f(r, Access::Read);
            }
        }
        for d in &self.dsts {
            if let Dst::Reg(r) = d {
                f(*r, Access::Write);
            }
        }
    }

    /// Like [`Instr::visit_regs`], with the registers open to rewriting (register allocation).
    pub fn visit_regs_mut(&mut self, mut f: impl FnMut(&mut Reg, Access)) {
        if let SrcVal::Reg(r) = &mut self.guard.val {
            f(r, Access::Read);
        }
        for s in &mut self.srcs {
            if let SrcVal::Reg(r) = &mut s.val {
                f(r, Access::Read);
            }
        }
        for d in &mut self.dsts {
            if let Dst::Reg(r) = d {
                f(r, Access::Write);
            }
        }
    }

    /// Whether control leaves the straight line here (branch or exit).
    pub fn is_terminator(&self) -> bool {
        matches!(self.op, Opcode::Bra { .. } | Opcode::Exit | Opcode::Ret)
    }
}

/// A basic block: straight-line instructions; control flow only at the end (a guarded BRA or EXIT
/// may also appear mid-block when it is guarded).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    pub instrs: Vec<Instr>,
}

/// Register counts a function was allocated to (after regalloc).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RegUsage {
    /// Highest GPR used + 1, plus the two registers ptxas counts for the PC, as `-v` reports.
    pub gprs: u32,
    pub preds: u32,
    pub ugprs: u32,
}

/// One kernel (or device function) in machine form. Blocks are laid out in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub blocks: Vec<Block>,
    /// Number of virtual registers numbered so far (before regalloc).
    pub num_vregs: u32,
    /// Group size of each virtual register (index = vreg number).
    pub vreg_comps: Vec<u8>,
    /// Set once register allocation has rewritten every register to a physical one.
    pub allocated: bool,
    pub reg_usage: RegUsage,
    /// The stack frame (local variables, spill slots) and the stack pointer's register.
    pub frame: crate::frame::Frame,
    /// Virtual registers bound to fixed physical GPRs, the call convention's (`subroutine.rs`):
    /// `(vreg, phys)`.
    pub fixed: Vec<(u32, u32)>,
    /// The subroutines laid out after the entry's code (`subroutine.rs`).
    pub subroutines: Vec<crate::subroutine::Subroutine>,
}

impl Function {
    /// A fresh virtual register of the given file and width.
    pub fn new_vreg(&mut self, file: RegFile, comps: u8) -> Reg {
        let r = Reg {
            file,
            idx: self.num_vregs,
            comps,
            comp: 0,
        };
        self.num_vregs += 1;
        self.vreg_comps.push(comps);
        r
    }

    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.blocks.iter().flat_map(|b| b.instrs.iter())
    }

    pub fn num_instrs(&self) -> usize {
        self.blocks.iter().map(|b| b.instrs.len()).sum()
    }
}
