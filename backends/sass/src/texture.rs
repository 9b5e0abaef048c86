//! Texture and surface instructions on texture and surface objects (bindless handles): TLD, TEX,
//! TLD4, TXD, SULD and SUST, their dimensions, boundary modes and where the handle comes from.
//!
//! Slot convention of [`TexOp`] (the contract between lowering, encoder and printer):
//! - `Fetch`: d0 = Rd (the first two components, a pair when `mask` is 0xf), d1 = Rd2 (the last
//!   two, or `Dst::None`); s0 = Ra (the first coordinate group), s1 = Rb (the second group, or
//!   `Src::ZERO`); s2 = the handle's uniform pair when the handle is [`TexHandle::Uniform`].
//! - `SuLd`: d0 = data group; s0 = coordinates (x in bytes first); s2 = uniform handle pair.
//! - `SuSt`: s0 = coordinates; s1 = data group; s2 = uniform handle pair.
//!
//! Learned from ptxas 13.5 on sm_75..sm_90 (see `encode_texture.rs`): before sm_90 the handle is
//! read from `c[0x0]` at the kernel parameter holding it (the word index is encoded), from sm_90
//! on a uniform register pair holds it (`ULDC` of the parameter's low word, high word zero).

use crate::ir::MemSize;

/// Where a texture or surface handle comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexHandle {
    /// `c[0x0][4 * word]`: the kernel parameter holding the handle (sm_75..sm_89).
    Bank(u16),
    /// A uniform register pair in slot s2 (sm_90).
    Uniform,
}

/// Texture dimensionality as TEX/TLD/TLD4/TXD encode it (bits 61..63).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexDim {
    D1,
    D2,
    D3,
    Cube,
    Array1,
    Array2,
    ArrayCube,
}

impl TexDim {
    pub fn code(self) -> u64 {
        match self {
            TexDim::D1 => 0,
            TexDim::D2 => 1,
            TexDim::D3 => 2,
            TexDim::Cube => 3,
            TexDim::Array1 => 4,
            TexDim::Array2 => 5,
            TexDim::ArrayCube => 7,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TexDim::D1 => "1D",
            TexDim::D2 => "2D",
            TexDim::D3 => "3D",
            TexDim::Cube => "CUBE",
            TexDim::Array1 => "ARRAY_1D",
            TexDim::Array2 => "ARRAY_2D",
            TexDim::ArrayCube => "ARRAY_CUBE",
        }
    }
}

/// Surface dimensionality as SULD/SUST encode it (bits 61..63).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SurfDim {
    D1,
    Array1,
    D2,
    Array2,
    D3,
}

impl SurfDim {
    pub fn code(self) -> u64 {
        match self {
            SurfDim::D1 => 0,
            SurfDim::Array1 => 2,
            SurfDim::D2 => 3,
            SurfDim::Array2 => 4,
            SurfDim::D3 => 5,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            SurfDim::D1 => "1D",
            SurfDim::Array1 => "1D_ARRAY",
            SurfDim::D2 => "2D",
            SurfDim::Array2 => "2D_ARRAY",
            SurfDim::D3 => "3D",
        }
    }
    /// Coordinates the instruction reads from Ra (x in bytes, then y, z or the layer last).
    pub fn coords(self) -> u8 {
        match self {
            SurfDim::D1 => 1,
            SurfDim::Array1 | SurfDim::D2 => 2,
            SurfDim::Array2 | SurfDim::D3 => 3,
        }
    }
}

/// What a surface access does out of bounds (`.trap`, `.clamp`, `.zero`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SurfClamp {
    /// `.TRAP` (bit 60).
    Trap,
    /// No suffix (bit 59): the coordinates clamp to the edge.
    Clamp,
    /// `.IGN`: loads read zero, stores are dropped.
    Zero,
}

/// How a texture fetch samples.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FetchKind {
    /// `TLD.LZ`: integer texel coordinates at level 0.
    TldLz,
    /// `TEX.LL`: float coordinates with an explicit level in Rb's last register.
    TexLl,
    /// `TLD4.{R,G,B,A}`: the four texels bilinear filtering would read, one component each.
    Tld4 { comp: u8 },
    /// `TXD`: float coordinates with explicit gradients (Rb: dPdx.x, dPdx.y, dPdy.x, dPdy.y).
    Txd,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexOp {
    Fetch {
        kind: FetchKind,
        dim: TexDim,
        handle: TexHandle,
        /// Which of the four components are written (bit 0 = x).
        mask: u8,
    },
    SuLd {
        dim: SurfDim,
        size: MemSize,
        clamp: SurfClamp,
        handle: TexHandle,
    },
    SuSt {
        dim: SurfDim,
        size: MemSize,
        clamp: SurfClamp,
        handle: TexHandle,
    },
}

impl TexOp {
    /// Every texture and surface op is variable-latency (a scoreboard guards its results) and
    /// reads its registers after issue.
    pub fn is_variable_latency(self) -> bool {
        true
    }
}
