//! The opcodes the emulator runs: the `Op` enum with each op's mnemonic, timing class and queue, and
//! the per-architecture table of encodings that ran correctly on ptxas's code (`OPCODES.md`).

/// A set of [`Op`]s, one bit each (room for 256: `Op::ALL` outgrew a `u128`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OpSet([u64; 4]);

const _: () = assert!(Op::ALL.len() <= 256, "OpSet holds 256 opcodes");

impl OpSet {
    pub fn insert(&mut self, op: Op) {
        self.0[op as usize / 64] |= 1 << (op as usize % 64);
    }

    pub fn contains(&self, op: Op) -> bool {
        self.0[op as usize / 64] >> (op as usize % 64) & 1 == 1
    }
}

impl std::ops::BitOrAssign for OpSet {
    fn bitor_assign(&mut self, other: OpSet) {
        for (word, o) in self.0.iter_mut().zip(other.0) {
            *word |= o;
        }
    }
}

/// The opcodes the emulator executes. Each was first run on ptxas's code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Mov,
    Sel,
    Fmnmx,
    Fsetp,
    Isetp,
    Iadd3,
    Lea,
    Lop3,
    Iabs,
    Prmt,
    Imnmx,
    Shf,
    Plop3,
    Fmul,
    Fadd,
    Ffma,
    Imad,
    ImadWide,
    ImadHi,
    Hfma2Mma,
    Hmma,
    Qmma,
    Viadd,
    Vimnmx,
    I2fp,
    I2f,
    F2i,
    S2r,
    S2ur,
    Uldc,
    Ldc,
    Ldg,
    Stg,
    Lds,
    Sts,
    Ldgsts,
    Ldgdepbar,
    Depbar,
    Ldsm,
    Stsm,
    Movm,
    Hmma884,
    Ldl,
    Stl,
    Bra,
    Exit,
    Bar,
    Nop,
    Umov,
    Usel,
    Uisetp,
    Uiadd3,
    Ulea,
    Uimad,
    UimadWide,
    Popc,
    Flo,
    Brev,
    Vote,
    Voteu,
    Redux,
    Match,
    Qspc,
    Shfl,
    Atoms,
    Atomg,
    Red,
    Bssy,
    Bsync,
    Break,
    Bmov,
    Warpsync,
    Cs2r,
    Ulop3,
    Ushf,
    Fsel,
    Bmsk,
    Ubmsk,
    Sgxt,
    Usgxt,
    Dadd,
    Dmul,
    Dfma,
    Dsetp,
    Acqbulk,
    Preexit,
    P2r,
    Ld,
    St,
    Viaddmnmx,
    Membar,
    Uprmt,
    Mufu,
    /// FCHK: f32 division's range check (`fchk.rs`).
    Fchk,
    I2f64,
    F2i64,
    F2f,
    I2i,
    Call,
    Ret,
    /// CALL.ABS.NOINC: a call of an undefined function, run as its model (`syscalls.rs`).
    CallAbs,
    Lepc,
    Nanosleep,
    Bpt,
    Pmtrig,
    B2r,
    Errbar,
    Cgaerrbar,
    Cctl,
    R2ur,
    Vabsdiff,
    Vabsdiff4,
    Hadd2,
    Hfma2,
    Hmul2,
    Hsetp2,
    Hset2,
    Hmnmx2,
    F2fp,
    Frnd,
    Imma,
    Bmma,
    Dmma,
    I2ip,
    Elect,
    SyncsExch,
    SyncsArrive,
    SyncsPhasechk,
    SyncsCctl,
    Arrives,
    FenceViewAsync,
    /// UCGABAR_ARV / UCGABAR_WAIT: the cluster barrier (`cluster.rs`).
    Ucgabar,
    /// UTMACCTL.PF / .IV: tensor-map cache prefetch and invalidation.
    Utmacctl,
    Utmacmdflush,
    /// USETMAXREG: register reconfiguration (`setmaxnreg`).
    Usetmaxreg,
    Utmaldg,
    Utmastg,
    Utmapf,
    Ublkcp,
    Ublkpf,
    /// IDP.4A / IDP.2A: integer dot products (`dp4a`, `dp2a`).
    Idp,
    /// ATOM.E: a generic-space atomic (global or shared by its address).
    Atom,
    /// UFLO.U32: FLO on the uniform datapath (ptxas's warp-aggregated atomics elect a leader).
    Uflo,
    /// YIELD: a scheduling hint in spin loops (ptxas's CAS loops); no effect on state.
    Yield,
    /// Warpgroup MMAs (sm_90a, `gmma.rs`).
    Hgmma,
    Igmma,
    Qgmma,
    /// WARPGROUP.ARRIVE and WARPGROUP.DEPBAR.LE gsb0.
    Warpgroup,
}

/// How an op's results arrive, for the hazard model.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Integer/logic ALU pipe.
    Alu,
    /// FMA pipe (IMAD, FFMA, FADD, FMUL, HFMA2).
    Fma,
    /// Uniform datapath.
    Uniform,
    /// Variable latency (scoreboarded); `in_order` ops of one queue complete in issue order.
    Var { queue: Queue },
    /// No register result (branches, barriers, NOP).
    Control,
}

/// Queues of variable-latency ops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Queue {
    /// Conversions (I2F/F2I) and MUFU: results complete in issue order (ptxas relies on it; its
    /// integer division reads an unscoreboarded I2F result after waiting on a later MUFU).
    Conversion,
    /// MUFU: results complete in issue order. ptxas's sm_80..89 code gives a MUFU no write
    /// scoreboard when a later MUFU's is waited on before its result is read.
    Transcendental,
    /// Shared-memory loads, stores and atomics, and SHFL (the same pipe): complete in issue order
    /// (ptxas relies on it; its sm_90 code reads an ATOMS result after waiting only on a later
    /// ATOMS, a SHFL result after waiting on the next SHFL's scoreboard, and its sm_80 code one
    /// after waiting on a later LDS's).
    Shared,
    /// POPC, FLO and BREV: complete in issue order; ptxas reads their results after waiting on a
    /// later one's write or even read scoreboard (sm_75..sm_90), or gives them none at all.
    BitOps,
    /// S2UR: complete in issue order (ptxas's sm_90 code reads an S2UR result after waiting only
    /// on a later S2UR).
    UniformSpecial,
    /// Global memory, constant loads and special registers: no order assumed.
    Unordered,
}

impl Op {
    /// Every opcode, in declaration order (`op as usize` indexes it).
    pub const ALL: [Op; 148] = [
        Op::Mov,
        Op::Sel,
        Op::Fmnmx,
        Op::Fsetp,
        Op::Isetp,
        Op::Iadd3,
        Op::Lea,
        Op::Lop3,
        Op::Iabs,
        Op::Prmt,
        Op::Imnmx,
        Op::Shf,
        Op::Plop3,
        Op::Fmul,
        Op::Fadd,
        Op::Ffma,
        Op::Imad,
        Op::ImadWide,
        Op::ImadHi,
        Op::Hfma2Mma,
        Op::Hmma,
        Op::Qmma,
        Op::Viadd,
        Op::Vimnmx,
        Op::I2fp,
        Op::I2f,
        Op::F2i,
        Op::S2r,
        Op::S2ur,
        Op::Uldc,
        Op::Ldc,
        Op::Ldg,
        Op::Stg,
        Op::Lds,
        Op::Sts,
        Op::Ldgsts,
        Op::Ldgdepbar,
        Op::Depbar,
        Op::Ldsm,
        Op::Stsm,
        Op::Movm,
        Op::Hmma884,
        Op::Ldl,
        Op::Stl,
        Op::Bra,
        Op::Exit,
        Op::Bar,
        Op::Nop,
        Op::Umov,
        Op::Usel,
        Op::Uisetp,
        Op::Uiadd3,
        Op::Ulea,
        Op::Uimad,
        Op::UimadWide,
        Op::Popc,
        Op::Flo,
        Op::Brev,
        Op::Vote,
        Op::Voteu,
        Op::Redux,
        Op::Match,
        Op::Qspc,
        Op::Shfl,
        Op::Atoms,
        Op::Atomg,
        Op::Red,
        Op::Bssy,
        Op::Bsync,
        Op::Break,
        Op::Bmov,
        Op::Warpsync,
        Op::Cs2r,
        Op::Ulop3,
        Op::Ushf,
        Op::Fsel,
        Op::Bmsk,
        Op::Ubmsk,
        Op::Sgxt,
        Op::Usgxt,
        Op::Dadd,
        Op::Dmul,
        Op::Dfma,
        Op::Dsetp,
        Op::Acqbulk,
        Op::Preexit,
        Op::P2r,
        Op::Ld,
        Op::St,
        Op::Viaddmnmx,
        Op::Membar,
        Op::Uprmt,
        Op::Mufu,
        Op::Fchk,
        Op::I2f64,
        Op::F2i64,
        Op::F2f,
        Op::I2i,
        Op::Call,
        Op::Ret,
        Op::CallAbs,
        Op::Lepc,
        Op::Nanosleep,
        Op::Bpt,
        Op::Pmtrig,
        Op::B2r,
        Op::Errbar,
        Op::Cgaerrbar,
        Op::Cctl,
        Op::R2ur,
        Op::Vabsdiff,
        Op::Vabsdiff4,
        Op::Hadd2,
        Op::Hfma2,
        Op::Hmul2,
        Op::Hsetp2,
        Op::Hset2,
        Op::Hmnmx2,
        Op::F2fp,
        Op::Frnd,
        Op::Imma,
        Op::Bmma,
        Op::Dmma,
        Op::I2ip,
        Op::Elect,
        Op::SyncsExch,
        Op::SyncsArrive,
        Op::SyncsPhasechk,
        Op::SyncsCctl,
        Op::Arrives,
        Op::FenceViewAsync,
        Op::Ucgabar,
        Op::Utmacctl,
        Op::Utmacmdflush,
        Op::Usetmaxreg,
        Op::Utmaldg,
        Op::Utmastg,
        Op::Utmapf,
        Op::Ublkcp,
        Op::Ublkpf,
        Op::Idp,
        Op::Atom,
        Op::Uflo,
        Op::Yield,
        Op::Hgmma,
        Op::Igmma,
        Op::Qgmma,
        Op::Warpgroup,
    ];

    /// The mnemonic as nvdisasm prints its base name.
    pub fn name(self) -> &'static str {
        use Op::*;
        match self {
            Mov => "MOV",
            Sel => "SEL",
            Fmnmx => "FMNMX",
            Fsetp => "FSETP",
            Isetp => "ISETP",
            Iadd3 => "IADD3",
            Lea => "LEA",
            Lop3 => "LOP3",
            Iabs => "IABS",
            Prmt => "PRMT",
            Imnmx => "IMNMX",
            Shf => "SHF",
            Plop3 => "PLOP3",
            Fmul => "FMUL",
            Fadd => "FADD",
            Ffma => "FFMA",
            Imad => "IMAD",
            ImadWide => "IMAD.WIDE",
            ImadHi => "IMAD.HI",
            Hfma2Mma => "HFMA2.MMA",
            Hmma => "HMMA",
            Qmma => "QMMA",
            Viadd => "VIADD",
            Vimnmx => "VIMNMX",
            I2fp => "I2FP",
            I2f => "I2F",
            F2i => "F2I",
            S2r => "S2R",
            S2ur => "S2UR",
            Uldc => "ULDC",
            Ldc => "LDC",
            Ldg => "LDG",
            Stg => "STG",
            Lds => "LDS",
            Ldgsts => "LDGSTS",
            Ldgdepbar => "LDGDEPBAR",
            Depbar => "DEPBAR",
            Ldsm => "LDSM",
            Stsm => "STSM",
            Movm => "MOVM",
            Hmma884 => "HMMA.884",
            Sts => "STS",
            Ldl => "LDL",
            Stl => "STL",
            Bra => "BRA",
            Exit => "EXIT",
            Bar => "BAR.SYNC",
            Nop => "NOP",
            Umov => "UMOV",
            Usel => "USEL",
            Uisetp => "UISETP",
            Uiadd3 => "UIADD3",
            Ulea => "ULEA",
            Uimad => "UIMAD",
            UimadWide => "UIMAD.WIDE",
            Popc => "POPC",
            Flo => "FLO",
            Brev => "BREV",
            Vote => "VOTE",
            Voteu => "VOTEU",
            Redux => "REDUX",
            Match => "MATCH",
            Qspc => "QSPC",
            Shfl => "SHFL",
            Atoms => "ATOMS",
            Atomg => "ATOMG",
            Red => "RED",
            Bssy => "BSSY",
            Bsync => "BSYNC",
            Break => "BREAK",
            Bmov => "BMOV",
            Warpsync => "WARPSYNC",
            Cs2r => "CS2R",
            Ulop3 => "ULOP3",
            Ushf => "USHF",
            Fsel => "FSEL",
            Bmsk => "BMSK",
            Ubmsk => "UBMSK",
            Sgxt => "SGXT",
            Usgxt => "USGXT",
            Dadd => "DADD",
            Dmul => "DMUL",
            Dfma => "DFMA",
            Dsetp => "DSETP",
            Acqbulk => "ACQBULK",
            Preexit => "PREEXIT",
            P2r => "P2R",
            Ld => "LD",
            St => "ST",
            Viaddmnmx => "VIADDMNMX",
            Membar => "MEMBAR",
            Uprmt => "UPRMT",
            Mufu => "MUFU",
            Fchk => "FCHK",
            I2f64 => "I2F.64",
            F2i64 => "F2I.64",
            F2f => "F2F",
            Frnd => "FRND",
            I2i => "I2I",
            Call => "CALL.REL.NOINC",
            Ret => "RET.REL.NODEC",
            CallAbs => "CALL.ABS.NOINC",
            Lepc => "LEPC",
            R2ur => "R2UR",
            Vabsdiff => "VABSDIFF",
            Vabsdiff4 => "VABSDIFF4",
            Nanosleep => "NANOSLEEP",
            Bpt => "BPT",
            Pmtrig => "PMTRIG",
            B2r => "B2R",
            Errbar => "ERRBAR",
            Cgaerrbar => "CGAERRBAR",
            Cctl => "CCTL",
            Hadd2 => "HADD2",
            Hfma2 => "HFMA2",
            Hmul2 => "HMUL2",
            Hsetp2 => "HSETP2",
            Hset2 => "HSET2",
            Hmnmx2 => "HMNMX2",
            F2fp => "F2FP",
            Imma => "IMMA",
            Bmma => "BMMA",
            Dmma => "DMMA",
            I2ip => "I2IP",
            Elect => "ELECT",
            SyncsExch => "SYNCS.EXCH.64",
            SyncsArrive => "SYNCS.ARRIVE.TRANS64",
            SyncsPhasechk => "SYNCS.PHASECHK.TRANS64",
            SyncsCctl => "SYNCS.CCTL.IV",
            Arrives => "ARRIVES.LDGSTSBAR.64",
            FenceViewAsync => "FENCE.VIEW.ASYNC",
            Ucgabar => "UCGABAR",
            Utmacctl => "UTMACCTL",
            Utmacmdflush => "UTMACMDFLUSH",
            Usetmaxreg => "USETMAXREG",
            Utmaldg => "UTMALDG",
            Utmastg => "UTMASTG",
            Utmapf => "UTMAPF",
            Ublkcp => "UBLKCP",
            Ublkpf => "UBLKPF",
            Idp => "IDP",
            Atom => "ATOM",
            Uflo => "UFLO",
            Yield => "YIELD",
            Hgmma => "HGMMA",
            Igmma => "IGMMA",
            Qgmma => "QGMMA",
            Warpgroup => "WARPGROUP",
        }
    }

    pub fn timing(self) -> Timing {
        use Op::*;
        match self {
            Imad | ImadWide | ImadHi | Ffma | Fadd | Fmul | Hfma2Mma | Hadd2 | Hfma2 | Hmul2
            | Idp => Timing::Fma,
            Umov | Usel | Uisetp | Uiadd3 | Ulea | Uimad | UimadWide | Uldc | Voteu | Ulop3
            | Ushf | Ubmsk | Uprmt | Usgxt | Uflo => Timing::Uniform,
            I2f | F2i | I2f64 | F2i64 | F2f | Frnd => Timing::Var {
                queue: Queue::Conversion,
            },
            Lds | Sts | Atoms | Ldsm | Ldgsts | Ldgdepbar | Stsm | Movm => Timing::Var {
                queue: Queue::Shared,
            },
            Popc | Flo | Brev => Timing::Var {
                queue: Queue::BitOps,
            },
            S2ur => Timing::Var {
                queue: Queue::UniformSpecial,
            },
            Shfl => Timing::Var {
                queue: Queue::Shared,
            },
            Mufu | Fchk => Timing::Var {
                queue: Queue::Transcendental,
            },
            S2r | Ldc | Ldg | Stg | Ld | St | Ldl | Stl | Redux | Match | Qspc | Atomg | Red
            | Atom => Timing::Var {
                queue: Queue::Unordered,
            },
            // FP64 ops take a write scoreboard when ptxas gives them one; without one the model
            // treats the result as fixed-latency (`HazardModel::record`).
            Dadd | Dmul | Dfma | Dsetp => Timing::Var {
                queue: Queue::Unordered,
            },
            // Tensor-core ops: scoreboarded on sm_75 (and DMMA everywhere), else fixed-latency.
            Imma | Bmma | Dmma => Timing::Var {
                queue: Queue::Unordered,
            },
            Bra | Call | Ret | Exit | Bar | Nop | Bssy | Bsync | Break | Warpsync | Acqbulk
            | Preexit | Membar | Depbar | CallAbs => Timing::Control,
            // BMOV.32.CLEAR Rd, Bn gives its register under a write scoreboard (as B2R).
            Bmov => Timing::Var {
                queue: Queue::Unordered,
            },
            Nanosleep | Bpt | Pmtrig | Errbar | Cgaerrbar | Cctl | FenceViewAsync | SyncsCctl
            | Yield | Arrives => Timing::Control,
            // Their accumulators land at WARPGROUP.DEPBAR (checked by `gmma.rs`, not by latency).
            Hgmma | Igmma | Qgmma | Warpgroup => Timing::Control,
            Ucgabar | Utmacctl | Utmacmdflush => Timing::Control,
            // The copies read their uniform registers late (read scoreboard); their data lands
            // at once here (`tma.rs`).
            Utmaldg | Utmastg | Utmapf | Ublkcp | Ublkpf => Timing::Var {
                queue: Queue::Unordered,
            },
            Usetmaxreg => Timing::Var {
                queue: Queue::Unordered,
            },
            // The mbarrier unit (sm_90): results under a write scoreboard.
            SyncsExch | SyncsArrive | SyncsPhasechk => Timing::Var {
                queue: Queue::Unordered,
            },
            B2r => Timing::Var {
                queue: Queue::Unordered,
            },
            // R2UR: scoreboarded in ptxas's sm_80 code (its predicate form), fixed-latency where it
            // has no write scoreboard (`HazardModel::record`).
            R2ur => Timing::Var {
                queue: Queue::Unordered,
            },
            // Tensor ops take a write scoreboard on sm_75; without one (sm_80+) the model treats
            // the result as fixed-latency (`HazardModel::record`).
            Hmma | Qmma => Timing::Var {
                queue: Queue::Unordered,
            },
            // sm_75's HMMA.884 steps: each odd step under a write scoreboard in ptxas's code; the
            // sources are read at issue (ptxas overwrites a step's C with the next step's D).
            Hmma884 => Timing::Var {
                queue: Queue::Unordered,
            },
            _ => Timing::Alu,
        }
    }

    /// Whether the op reads its register sources after issue (so overwriters need its read scoreboard).
    pub fn reads_late(self) -> bool {
        matches!(
            self,
            Op::Ldg
                | Op::Stg
                | Op::Ld
                | Op::St
                | Op::Lds
                | Op::Sts
                | Op::Ldgsts
                | Op::Ldsm
                | Op::Stsm
                | Op::Movm
                | Op::Ldl
                | Op::Stl
                | Op::I2f
                | Op::F2i
                | Op::I2f64
                | Op::F2i64
                | Op::F2f
                | Op::Frnd
                | Op::Shfl
                | Op::Atoms
                | Op::Atomg
                | Op::Atom
                | Op::Red
                | Op::Redux
                | Op::Match
        ) || self.is_fp64()
    }

    /// Tensor-core ops (HMMA, QMMA): variable-latency with a write scoreboard, else fixed-latency.
    pub fn is_mma(self) -> bool {
        matches!(self, Op::Hmma | Op::Qmma)
    }

    /// FP64 ops: variable-latency when ptxas gives them a write scoreboard, else fixed-latency.
    pub fn is_fp64(self) -> bool {
        matches!(self, Op::Dadd | Op::Dmul | Op::Dfma | Op::Dsetp)
    }

    /// The tensor-core ops: variable-latency under a write scoreboard, else fixed-latency (ptxas's
    /// sm_80+ code covers IMMA and BMMA with stalls).
    pub fn is_matrix(self) -> bool {
        matches!(self, Op::Imma | Op::Bmma | Op::Dmma)
    }

    /// Whether the op runs once per warp on the uniform datapath.
    pub fn is_uniform(self) -> bool {
        matches!(self.timing(), Timing::Uniform) && self != Op::Voteu
            || matches!(
                self,
                Op::S2ur | Op::Ucgabar | Op::Utmacctl | Op::Utmacmdflush | Op::Usetmaxreg
            )
    }
}

/// SASS opcodes our back end writes that the emulator does not claim yet, and why (listed in
/// OPCODES.md; their encodings are checked against nvdisasm in `ptxforge-sass`'s tests).
pub const NOT_EMULATED: &[(&str, &str)] = &[
    (
        "UTMAREDG (cp.reduce.async.bulk.tensor)",
        "the reductions into global memory are not modelled yet",
    ),
    (
        "UTMAPF, UBLKPF (cp.async.bulk.prefetch[.tensor])",
        "decoded and run as no-ops (a prefetch changes nothing visible), but not in the opcode \
         table until a test has run them on ptxas's code",
    ),
    (
        "UTMALDG.MULTICAST, UBLKCP.MULTICAST",
        "clusters of one CTA only: a multicast mask naming CTA 0 alone is run, other CTAs are \
         not modelled; not in the opcode table until a test has run them on ptxas's code",
    ),
];

/// The opcodes accepted for `sm`, as (op, 12-bit opcode or 9-bit ALU base, whether ALU): those
/// that ran correctly on ptxas's code for that architecture (the tests check every entry).
pub(crate) fn opcode_table(sm: u32) -> Vec<(Op, u32, bool)> {
    use Op::*;
    let mut t = vec![
        (Mov, 0x002, true),
        (Sel, 0x007, true),
        (Fmnmx, 0x009, true),
        (Fsetp, 0x00b, true),
        (Isetp, 0x00c, true),
        (Iadd3, 0x010, true),
        (Lea, 0x011, true),
        (Lop3, 0x012, true),
        (Iabs, 0x013, true),
        (Prmt, 0x016, true),
        (Vabsdiff, 0x014, true),
        (Vabsdiff4, 0x015, true),
        (Shf, 0x019, true),
        (Plop3, 0x01c, true),
        (Plop3, 0x21f, false),
        (Fmul, 0x020, true),
        (Fadd, 0x021, true),
        (Ffma, 0x023, true),
        (Imad, 0x024, true),
        (ImadWide, 0x025, true),
        (ImadHi, 0x027, true),
        (Usel, 0x087, true),
        (Uisetp, 0x08c, true),
        (Uiadd3, 0x090, true),
        (Uimad, 0x0a4, true),
        (Ulop3, 0x092, true),
        (Ulea, 0x091, true),
        (Ushf, 0x099, true),
        (Fsel, 0x008, true),
        (Bmsk, 0x01b, true),
        (Sgxt, 0x01a, true),
        (Idp, 0x026, true),
        (Ubmsk, 0x09b, true),
        (Dadd, 0x029, true),
        (Dmul, 0x028, true),
        (Dfma, 0x02b, true),
        (Dsetp, 0x02a, true),
        (S2r, 0x919, false),
        (Uldc, 0xab9, false),
        (Lds, 0x984, false),
        (Sts, 0x388, false),
        (Sts, 0x988, false),
        (Ldl, 0x983, false),
        (Stl, 0x387, false),
        (Bra, 0x947, false),
        (Call, 0x944, false),
        (Ret, 0x950, false),
        (CallAbs, 0x343, false),
        (Exit, 0x94d, false),
        (Bar, 0xb1d, false),
        (Nop, 0x918, false),
        (F2i, 0x305, false),
        (Ldg, 0x981, false),
        (Stg, 0x986, false),
        (Popc, 0x109, true),
        (Flo, 0x100, true),
        (Brev, 0x101, true),
        (Mufu, 0x108, true),
        (Fchk, 0x302, false),
        (I2f, 0x306, false),
        // I2F.U32.RP R, imm: ptxas's division by a constant it does not fold (kernels/i2f_imm.ptx).
        (I2f, 0x906, false),
        (I2f64, 0x312, false),
        // I2F.U64.RP R, c[0x0][..]: a 64-bit divisor straight from a parameter (kernels/div64.ptx).
        (I2f64, 0xb12, false),
        (F2i64, 0x311, false),
        (F2f, 0x310, false),
        (F2f, 0x304, false),
        (Frnd, 0x307, false),
        (Frnd, 0x313, false),
        (Hadd2, 0x030, true),
        (Hfma2, 0x031, true),
        (Hmul2, 0x032, true),
        (Hsetp2, 0x034, true),
        (Hset2, 0x033, true),
        (I2i, 0x038, true),
        (Vote, 0x806, false),
        // MATCH.ANY/ALL[.U64] (kernels/match.ptx; sm_75's ptxas code has only MATCH.ANY).
        (Match, 0x3a1, false),
        // QSPC.E.S/.D: ptxas's generic float atomics ask whether the address is shared
        // (kernels/atomic_generic.ptx).
        (Qspc, 0x3aa, false),
        (Voteu, 0x886, false),
        (Shfl, 0x389, false),
        (Shfl, 0x589, false),
        (Shfl, 0x989, false),
        (Shfl, 0xf89, false),
        (Atoms, 0x38c, false),
        (Atoms, 0x38d, false),
        (Atomg, 0x9a8, false),
        (Atomg, 0x3a9, false),
        (Atom, 0x38b, false),
        (Red, 0x98e, false),
        (Bssy, 0x945, false),
        (Bsync, 0x941, false),
        // BMOV.32[.CLEAR] Rd, Bn and BMOV.32 Bn, Rb: ptxas's subroutines save and restore the
        // convergence barrier they use around their body (kernels/recursion.ptx).
        (Bmov, 0x355, false),
        (Bmov, 0x356, false),
        (Break, 0x942, false),
        (Membar, 0x992, false),
        (Nanosleep, 0x95d, false),
        (Bpt, 0x95c, false),
        (Pmtrig, 0x801, false),
        (Nanosleep, 0x35d, false),
        (Nanosleep, 0xb5d, false),
        (B2r, 0x31c, false),
        (Errbar, 0x9ab, false),
        (Cctl, 0x98f, false),
    ];
    match sm {
        75 => t.extend([
            (Ld, 0x980, false),
            (St, 0x385, false),
            // ST with a 64-bit UR base (`[R1.U32+UR4+0x18]`: cvta.local addresses), laid out as STG's 0x986.
            (St, 0x985, false),
            (Ldc, 0xb82, false),
            (Ldg, 0x381, false),
            (Stg, 0x386, false),
            (UimadWide, 0x0a5, true),
            (S2ur, 0x9c3, false),
            (Umov, 0x082, true),
            (Bmov, 0x355, false),
            (Warpsync, 0x348, false),
            (Atomg, 0x3a8, false),
            (Atom, 0x38a, false),
            (Atom, 0x98a, false),
            // QSPC.E.S P, RZ, [UR]: the uniform-address form (kernels/atomic_generic.ptx).
            (Qspc, 0x9aa, false),
        ]),
        80 => t.extend([
            (Hfma2Mma, 0x035, true),
            (Redux, 0x3c4, false),
            (Atoms, 0xf8c, false),
            (Warpsync, 0x948, false),
            (Warpsync, 0x348, false),
        ]),
        90 => t.extend([
            (Acqbulk, 0x82e, false),
            (Ldc, 0xb82, false),
            (Preexit, 0x82d, false),
            (Cgaerrbar, 0x5ab, false),
            (Redux, 0x3c4, false),
            (Atoms, 0xf8c, false),
            (Warpsync, 0x948, false),
            // A partial mask comes from a register on sm_90 (its mask at 24..31): ptxas's code
            // before elect.sync in divergent code, and ours.
            (Warpsync, 0x348, false),
            (Hfma2Mma, 0x035, true),
            (S2ur, 0x9c3, false),
            (Umov, 0x082, true),
            (Viadd, 0x036, true),
            (Vimnmx, 0x048, true),
            (Viaddmnmx, 0x046, true),
            (Uprmt, 0x096, true),
            (UimadWide, 0x0a5, true),
            (R2ur, 0x2ca, false),
            // elect.sync and the mbarrier unit (syncs.rs).
            (Elect, 0x82f, false),
            (SyncsExch, 0x5b2, false),
            (SyncsArrive, 0x9a7, false),
            (SyncsPhasechk, 0x5a7, false),
            (SyncsCctl, 0x9b1, false),
            (FenceViewAsync, 0x3c6, false),
            // The cluster barrier and tensor-map cache control (kernels/cluster.ptx).
            (Ucgabar, 0x9c7, false),
            (Ucgabar, 0xdc7, false),
            (Utmacctl, 0x9b9, false),
            (Utmacmdflush, 0x9b7, false),
            // USETMAXREG.{TRY_ALLOC,DEALLOC}.CTAPOOL (pipeline/sim's kernels/setmaxnreg_pressure.ptx).
            (Usetmaxreg, 0x9c8, false),
            // TMA tile loads and stores, bulk copies (kernels/tma.ptx).
            (Utmaldg, 0x5b4, false),
            (Utmastg, 0x3b5, false),
            (Ublkcp, 0x3ba, false),
            // f32 adds: ATOMG.E.ADD.F32.FTZ.RN and REDG.E.ADD.F32.FTZ.RN; the generic
            // ATOM.E.ADD.<float> (kernels/atomic_generic.ptx).
            (Atomg, 0x9a3, false),
            (Atom, 0x9a2, false),
            (Red, 0x9a6, false),
            // I2F.U64.RP R, UR6: a 64-bit divisor from a parameter (kernels/div64.ptx).
            (I2f64, 0xd12, false),
            // Warpgroup MMAs with A and B in shared memory, and their barriers (kernels/wgmma.ptx).
            (Hgmma, 0x9f0, false),
            (Igmma, 0x9f1, false),
            (Qgmma, 0x9f3, false),
            (Warpgroup, 0x9c5, false),
        ]),
        _ => t.extend([
            (Redux, 0x3c4, false),
            (Atoms, 0xf8c, false),
            (Warpsync, 0x948, false),
            (Warpsync, 0x348, false),
        ]),
    }
    // Generic-space atomics (ATOM.E; sm_75's register form is 0x38a, above).
    // UFLO.U32: sm_80+, warp-aggregated atomics elect their leader lane with it (kernels/uflo.ptx;
    // ptxas's sm_75 code elects it otherwise).
    // YIELD: in ptxas's CAS loops, loops around global atomics (kernels/yield.ptx) and in front of
    // a try_wait retry loop.
    t.push((Yield, 0x946, false));
    if sm >= 80 {
        // LDG.E without a descriptor (`LDG.E R16, [R6]`): the word load of ptxas's 16-bit CAS
        // loop (kernels/atomic_generic.ptx).
        t.push((Ldg, 0x381, false));
        t.push((Atom, 0x98a, false));
        t.push((Uflo, 0x0bd, true));
    }
    // Tensor-core ops (IMMA m8n8 and BMMA .XOR m8n8k128 on sm_75; DMMA from sm_80).
    t.extend([(Imma, 0x237, false), (Bmma, 0x23d, false)]);
    // cvt.pack.sat.{s8,u8}.s32.b32.
    t.push((I2ip, 0x239, false));
    if sm >= 80 {
        t.push((Dmma, 0x23f, false));
    }
    // Tensor cores: HMMA everywhere, QMMA (fp8) on sm_89.
    t.push((Hmma, 0x23c, false));
    // movmatrix (MOVM) from sm_75; Volta's m8n8k4 f16 mma natively on sm_75 only (HMMA.884).
    t.push((Movm, 0x23a, false));
    if sm == 75 {
        t.push((Hmma884, 0x236, false));
    }
    // stmatrix (STSM) on sm_90.
    if sm >= 90 {
        t.push((Stsm, 0x844, false));
    }
    if sm == 89 {
        t.push((Qmma, 0x27a, false));
    }
    if sm >= 80 {
        // Asynchronous copies (cp.async) and matrix loads (ldmatrix).
        t.extend([
            (Ldgsts, 0xfae, false),
            (Ldgdepbar, 0x9af, false),
            (Depbar, 0x91a, false),
        ]);
        // cp.async.mbarrier.arrive (arrives.rs; kernels/async_arrive.ptx), and R2UR's sm_80..89
        // opcode in the loop ptxas puts around it for a register address.
        t.push((Arrives, 0x9b0, false));
        if sm < 90 {
            t.push((R2ur, 0x3c2, false));
        }
    }
    // Matrix loads (ldmatrix, and ptxas's wmma.load from shared memory) from sm_75 on.
    t.push((Ldsm, 0x83b, false));
    if sm >= 80 {
        // Generic LD/ST (sm_75: other opcodes, rewritten by sm75_generic_to_common_layout).
        t.extend([(Cs2r, 0x805, false), (Ld, 0x980, false), (St, 0x985, false)]);
    } else {
        // CS2R of the clocks and timers on sm_75 (special_regs.rs), and DEPBAR.LE SBn, 0x0.
        t.extend([(Cs2r, 0x805, false), (Depbar, 0x91a, false)]);
    }
    // P2R on sm_75 as on sm_80+ (ptxas keeps predicates in GPRs with it: filetest
    // handwritten_pred_pressure).
    t.push((P2r, 0x003, true));
    if sm < 90 {
        t.push((Imnmx, 0x017, true));
        // ptxas packs byte parameters with UPRMT on sm_75..89 too (filetest handwritten_params).
        t.push((Uprmt, 0x096, true));
    }
    if sm >= 86 {
        t.push((I2fp, 0x045, true));
    }
    // USGXT has run on ptxas's sm_90 code only (kernels/special_regs.ptx).
    if sm >= 90 {
        t.push((Usgxt, 0x09a, true));
    }
    if sm >= 80 {
        t.extend([(Hmnmx2, 0x040, true), (F2fp, 0x03e, true)]);
    }
    if (80..90).contains(&sm) {
        t.extend([
            (Umov, 0x082, true),
            (UimadWide, 0x0a5, true),
            (Ldc, 0xb82, false),
            (S2ur, 0x9c3, false),
        ]);
    }
    if (80..90).contains(&sm) {
        t.extend([
            (Umov, 0x082, true),
            (UimadWide, 0x0a5, true),
            (Ldc, 0xb82, false),
        ]);
    }
    if (80..90).contains(&sm) {
        t.extend([(Umov, 0x082, true), (UimadWide, 0x0a5, true)]);
    }
    // LEPC: the PC alone before sm_90, the address of a later instruction from sm_90 on.
    t.push((Lepc, if sm >= 90 { 0x94e } else { 0x34e }, false));
    t
}

/// The mnemonics the emulator runs for `sm`, sorted.
pub fn supported_names(sm: u32) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = opcode_table(sm)
        .into_iter()
        .map(|(op, _, _)| op.name())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
