//! The 128-byte CUtensorMap a TMA copy reads from global memory, decoded once for the interpreter
//! and the emulator, with the field layout that ptxas 13.5's `tensormap.replace` code writes: the
//! global address (bytes 0..7); word 0x08: element type 7..10 (CUtensorMapDataType order),
//! interleave 11..12, swizzle 13..14, fill mode 15; word 0x0c + 4k: the low 32 bits of (stride of
//! dimension k+1) >> 4, whose bits 32..35 are nibble k of word 0x1c; word 0x20 + 4k: global
//! dimension k minus one; word 0x34: element strides minus one (3 bits each); bytes 0x37 + k: box
//! dimension k minus one. Only the tile mode without interleave, swizzle or element strides is
//! modelled; any other map is refused with the reason.

/// Element sizes of CUtensorMapDataType 0..12.
const ELEMENT_BYTES: [u64; 13] = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4];

/// The fields of a tensor map that the tile mode uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The tensor's global address.
    pub base: u64,
    /// Bytes per element.
    pub esize: u64,
    /// Elements in dimensions 0..4 (1 past the rank).
    pub dims: [u64; 5],
    /// Byte strides of dimensions 0..4 (dimension 0: the element size).
    pub strides: [u64; 5],
    /// The box (the part one copy moves) in elements per dimension.
    pub boxes: [u64; 5],
}

fn word(m: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(m[off..off + 4].try_into().expect("4 bytes"))
}

impl TensorMap {
    /// Decodes the first `rank` dimensions of the 128 bytes `m`; the error names what is not
    /// modelled.
    pub fn parse(m: &[u8; 128], rank: usize) -> Result<TensorMap, String> {
        let flags = word(m, 8);
        let ty = (flags >> 7 & 0xf) as usize;
        let esize = *ELEMENT_BYTES
            .get(ty)
            .ok_or_else(|| format!("tensor map element type {ty}"))?;
        if flags >> 11 & 0xf != 0 {
            return Err("interleaved or swizzled tensor maps".into());
        }
        if word(m, 0x34) & 0x7fff != 0 {
            return Err("element strides other than 1".into());
        }
        let mut t = TensorMap {
            base: u64::from_le_bytes(m[..8].try_into().expect("8 bytes")),
            esize,
            dims: [1; 5],
            strides: [esize; 5],
            boxes: [1; 5],
        };
        let nibbles = word(m, 0x1c);
        for k in 0..rank.min(5) {
            t.dims[k] = word(m, 0x20 + 4 * k) as u64 + 1;
            t.boxes[k] = m[0x37 + k] as u64 + 1;
            if k > 0 {
                let units = word(m, 0x0c + 4 * (k - 1)) as u64
                    | ((nibbles >> (4 * (k - 1)) & 0xf) as u64) << 32;
                t.strides[k] = units << 4;
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_dimensional_f32_map_decodes() {
        let mut m = [0u8; 128];
        m[..8].copy_from_slice(&0x1000u64.to_le_bytes());
        m[8..12].copy_from_slice(&(7u32 << 7).to_le_bytes()); // f32 (type 7)
        m[0x0c..0x10].copy_from_slice(&(256u32 >> 4).to_le_bytes()); // row stride 256 bytes
        m[0x20..0x24].copy_from_slice(&63u32.to_le_bytes());
        m[0x24..0x28].copy_from_slice(&31u32.to_le_bytes());
        m[0x37] = 15;
        m[0x38] = 7;
        let t = TensorMap::parse(&m, 2).unwrap();
        assert_eq!((t.base, t.esize), (0x1000, 4));
        assert_eq!(t.dims, [64, 32, 1, 1, 1]);
        assert_eq!(t.strides, [4, 256, 4, 4, 4]);
        assert_eq!(t.boxes, [16, 8, 1, 1, 1]);
        m[9] |= 1 << 5; // swizzle (bits 13..14 of word 0x08)
        assert!(TensorMap::parse(&m, 2).is_err());
    }
}
