//! The integer, single-bit and f64 tensor-core instructions' modifiers (IMMA, BMMA, DMMA): shapes
//! and element kinds as data, with the fields ptxas 13.5 writes for them on sm_75..sm_90.
//!
//! Shared fields: D 16..23, A 24..31, B 32..39, C 64..71 (RZ for a zero accumulator), each the
//! first register of an aligned group. IMMA (0x237) and BMMA (0x23d): A's layout 73 (ROW = 0),
//! B's layout 74 (COL = 1). IMMA: A signed 76, B signed 78, A 4-bit 83, B 4-bit 84, `.SAT` 82,
//! the shape in 75, 85, 86. BMMA: the shape in 75..76, `.AND` 78 (else `.XOR`), `.POPC` 80.
//! DMMA (0x23f): the shape 76..77 (8x8x4, 16x8x4, 16x8x8, 16x8x16).
//!
//! Latency: ptxas 13.5 gives DMMA (everywhere) and sm_75's IMMA/BMMA a write scoreboard; on
//! sm_80+ it covers IMMA/BMMA with stalls that grow with the work (M K bits): 12 cycles to the
//! first reader for 1024 (IMMA.8816, IMMA.8832, BMMA.88128), 15 for 2048, 23 for 4096.

use crate::ir::Opcode;

/// Cycles from issue to the first reader of an unscoreboarded IMMA/BMMA's result (ptxas's
/// distance plus one), `None` for the other ops.
pub fn matrix_fixed_latency(op: &Opcode) -> Option<u32> {
    Some(match matrix_work(op)? {
        ..=1024 => 13,
        ..=2048 => 16,
        _ => 24,
    })
}

/// Cycles from an unscoreboarded IMMA/BMMA's issue to the next one's (the tensor pipe's rate):
/// ptxas 13.5 keeps IMMA.16832 (s8) 8 cycles apart on sm_80 (6 on sm_90) and the smaller shapes 4.
pub fn matrix_issue_gap(op: &Opcode) -> Option<u32> {
    Some(if matrix_work(op)? > 2048 { 8 } else { 4 })
}

/// Cycles from an unscoreboarded IMMA/BMMA's issue before a fixed-latency op may overwrite one of
/// its sources: 7 for the forms that collect their sources twice (the 4096-work ones, whose
/// latency matches HMMA.16816's), 1 for the others (Mesa NAK's sm_80 write-after-read table).
pub fn matrix_source_hold(op: &Opcode) -> Option<u32> {
    Some(if matrix_work(op)? > 2048 { 7 } else { 1 })
}

/// M K bits of an unscoreboarded IMMA/BMMA.
fn matrix_work(op: &Opcode) -> Option<u32> {
    let work = match *op {
        Opcode::Imma {
            shape,
            a,
            scoreboarded: false,
            ..
        } => {
            let (m, k) = match shape {
                ImmaShape::M8N8K16 => (8, 16),
                ImmaShape::M8N8K32 => (8, 32),
                ImmaShape::M16N8K16 => (16, 16),
                ImmaShape::M16N8K32 => (16, 32),
                ImmaShape::M16N8K64 => (16, 64),
            };
            m * k * if a.four_bit() { 4 } else { 8 }
        }
        Opcode::Bmma {
            shape,
            scoreboarded: false,
            ..
        } => match shape {
            BmmaShape::M8N8K128 => 1024,
            BmmaShape::M16N8K128 => 2048,
            BmmaShape::M16N8K256 => 4096,
        },
        _ => return None,
    };
    Some(work)
}

/// An IMMA shape (M, N, K) as nvdisasm names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImmaShape {
    M8N8K16,
    M8N8K32,
    M16N8K16,
    M16N8K32,
    M16N8K64,
}

impl ImmaShape {
    pub const ALL: [ImmaShape; 5] = [
        ImmaShape::M8N8K16,
        ImmaShape::M8N8K32,
        ImmaShape::M16N8K16,
        ImmaShape::M16N8K32,
        ImmaShape::M16N8K64,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ImmaShape::M8N8K16 => "8816",
            ImmaShape::M8N8K32 => "8832",
            ImmaShape::M16N8K16 => "16816",
            ImmaShape::M16N8K32 => "16832",
            ImmaShape::M16N8K64 => "16864",
        }
    }
    /// Bits 75, 85 and 86.
    pub fn code(self) -> (u64, u64, u64) {
        match self {
            ImmaShape::M8N8K16 => (0, 0, 0),
            ImmaShape::M8N8K32 => (0, 1, 0),
            ImmaShape::M16N8K16 => (0, 0, 1),
            ImmaShape::M16N8K32 => (1, 0, 1),
            ImmaShape::M16N8K64 => (0, 1, 1),
        }
    }
    /// The PTX shape, `m16n8k32`.
    pub fn from_ptx(s: &str) -> Option<ImmaShape> {
        ImmaShape::ALL.into_iter().find(|x| x.ptx() == s)
    }
    pub fn ptx(self) -> &'static str {
        match self {
            ImmaShape::M8N8K16 => "m8n8k16",
            ImmaShape::M8N8K32 => "m8n8k32",
            ImmaShape::M16N8K16 => "m16n8k16",
            ImmaShape::M16N8K32 => "m16n8k32",
            ImmaShape::M16N8K64 => "m16n8k64",
        }
    }
    /// Whether ptxas 13.5 has the shape on `sm` (sm_75: the m8n8 shapes only).
    pub fn exists_on(self, sm: u32) -> bool {
        sm >= 80 || !self.m16()
    }
    /// Whether the shape takes elements `a` and `b` natively on `sm`: 8-bit shapes take u8/s8,
    /// 4-bit shapes u4/s4 (not on sm_90, where ptxas widens 4-bit operands to 8 bits).
    pub fn takes(self, a: IntElem, b: IntElem, sm: u32) -> bool {
        let four = matches!(self, ImmaShape::M8N8K32 | ImmaShape::M16N8K64)
            || (self == ImmaShape::M16N8K32 && a.four_bit());
        self.exists_on(sm)
            && a.four_bit() == b.four_bit()
            && a.four_bit() == four
            && !(four && sm >= 90)
    }
    pub fn m16(self) -> bool {
        matches!(
            self,
            ImmaShape::M16N8K16 | ImmaShape::M16N8K32 | ImmaShape::M16N8K64
        )
    }
}

/// An IMMA operand's element kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntElem {
    U8,
    S8,
    U4,
    S4,
}

impl IntElem {
    pub fn name(self) -> &'static str {
        match self {
            IntElem::U8 => "U8",
            IntElem::S8 => "S8",
            IntElem::U4 => "U4",
            IntElem::S4 => "S4",
        }
    }
    pub fn signed(self) -> bool {
        matches!(self, IntElem::S8 | IntElem::S4)
    }
    pub fn four_bit(self) -> bool {
        matches!(self, IntElem::U4 | IntElem::S4)
    }
    pub fn from_ptx(s: &str) -> Option<IntElem> {
        Some(match s {
            "u8" => IntElem::U8,
            "s8" => IntElem::S8,
            "u4" => IntElem::U4,
            "s4" => IntElem::S4,
            _ => return None,
        })
    }
}

/// A BMMA shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BmmaShape {
    M8N8K128,
    M16N8K128,
    M16N8K256,
}

impl BmmaShape {
    pub const ALL: [BmmaShape; 3] = [
        BmmaShape::M8N8K128,
        BmmaShape::M16N8K128,
        BmmaShape::M16N8K256,
    ];
    pub fn name(self) -> &'static str {
        match self {
            BmmaShape::M8N8K128 => "88128",
            BmmaShape::M16N8K128 => "168128",
            BmmaShape::M16N8K256 => "168256",
        }
    }
    /// Bits 75..76.
    pub fn code(self) -> u64 {
        self as u64
    }
    /// Whether ptxas 13.5 has the shape and operation natively on `sm`: sm_75 only m8n8k128
    /// `.xor`; sm_90 only `.and` (ptxas writes `.xor` there as two `.and` BMMAs).
    pub fn exists_on(self, sm: u32, and: bool) -> bool {
        match sm {
            75 => self == BmmaShape::M8N8K128 && !and,
            90.. => and,
            _ => true,
        }
    }
    pub fn ptx(self) -> &'static str {
        match self {
            BmmaShape::M8N8K128 => "m8n8k128",
            BmmaShape::M16N8K128 => "m16n8k128",
            BmmaShape::M16N8K256 => "m16n8k256",
        }
    }
    pub fn from_ptx(s: &str) -> Option<BmmaShape> {
        BmmaShape::ALL.into_iter().find(|x| x.ptx() == s)
    }
}

/// A DMMA shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DmmaShape {
    M8N8K4,
    M16N8K4,
    M16N8K8,
    M16N8K16,
}

impl DmmaShape {
    pub const ALL: [DmmaShape; 4] = [
        DmmaShape::M8N8K4,
        DmmaShape::M16N8K4,
        DmmaShape::M16N8K8,
        DmmaShape::M16N8K16,
    ];
    /// nvdisasm's name: sm_80..89 write the m8n8k4 shape `884`, sm_90 `8x8x4`.
    pub fn name(self, sm: u32) -> &'static str {
        match self {
            DmmaShape::M8N8K4 if sm < 90 => "884",
            DmmaShape::M8N8K4 => "8x8x4",
            DmmaShape::M16N8K4 => "16x8x4",
            DmmaShape::M16N8K8 => "16x8x8",
            DmmaShape::M16N8K16 => "16x8x16",
        }
    }
    /// Bits 76..77.
    pub fn code(self) -> u64 {
        self as u64
    }
    pub fn ptx(self) -> &'static str {
        match self {
            DmmaShape::M8N8K4 => "m8n8k4",
            DmmaShape::M16N8K4 => "m16n8k4",
            DmmaShape::M16N8K8 => "m16n8k8",
            DmmaShape::M16N8K16 => "m16n8k16",
        }
    }
    pub fn from_ptx(s: &str) -> Option<DmmaShape> {
        DmmaShape::ALL.into_iter().find(|x| x.ptx() == s)
    }
    /// The lowest architecture with the shape (ptxas: m16n8kK f64 needs sm_90).
    pub fn min_sm(self) -> u32 {
        if self == DmmaShape::M8N8K4 {
            80
        } else {
            90
        }
    }
}
