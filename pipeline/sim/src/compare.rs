//! Compares the global buffers two runs left behind: bit-exact, or within an ulp budget for f32 words.

/// One global allocation as the differential check hands it to a runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceBuffer {
    /// The kernel parameter it was passed through.
    pub param: String,
    pub addr: u64,
    pub bytes: Vec<u8>,
}

/// The first place where two runs disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub param: String,
    /// Byte offset of the differing 32-bit word in the buffer.
    pub offset: usize,
    pub expected: u32,
    pub actual: u32,
    /// The thread whose store the interpreter last made to this word (filled in by the caller).
    pub writer: Option<String>,
    /// Whether every differing word of every buffer differs only in which NaN it holds (see
    /// [`crate::nan_payload::same_but_nan_payloads`]).
    pub nan_payloads_only: bool,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let writer = self
            .writer
            .as_deref()
            .unwrap_or("no thread in the interpreter");
        write!(
            f,
            "buffer '{}' offset {:#x} (written by {writer}): expected {:#010x} ({}), got {:#010x} ({})",
            self.param,
            self.offset,
            self.expected,
            f32::from_bits(self.expected),
            self.actual,
            f32::from_bits(self.actual)
        )
    }
}

/// Finds the first 32-bit word (in buffer order) that differs by more than `ulps` f32 units in the
/// last place; `ulps == 0` means bit-exact.
pub fn first_mismatch(
    expected: &[DeviceBuffer],
    actual: &[DeviceBuffer],
    ulps: u32,
) -> Option<Mismatch> {
    for (e, a) in expected.iter().zip(actual) {
        for (i, (we, wa)) in words(&e.bytes).zip(words(&a.bytes)).enumerate() {
            if we != wa && !within_ulps(we, wa, ulps) {
                return Some(Mismatch {
                    param: e.param.clone(),
                    offset: i * 4,
                    expected: we,
                    actual: wa,
                    writer: None,
                    nan_payloads_only: crate::nan_payload::same_but_nan_payloads(expected, actual),
                });
            }
        }
    }
    None
}

/// The buffer as little-endian 32-bit words (a short tail is zero-padded).
fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks(4).map(|c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        u32::from_le_bytes(w)
    })
}

/// Whether two f32 bit patterns are finite, of the same sign, and at most `ulps` apart.
fn within_ulps(x: u32, y: u32, ulps: u32) -> bool {
    if ulps == 0 {
        return false;
    }
    let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
    if !fx.is_finite() || !fy.is_finite() || (x >> 31) != (y >> 31) {
        return false;
    }
    x.abs_diff(y) <= ulps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(words: &[u32]) -> Vec<DeviceBuffer> {
        let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        vec![DeviceBuffer {
            param: "p".into(),
            addr: 0,
            bytes,
        }]
    }

    #[test]
    fn equal_buffers_agree_and_the_first_difference_is_reported() {
        assert_eq!(first_mismatch(&buf(&[1, 2, 3]), &buf(&[1, 2, 3]), 0), None);
        let m = first_mismatch(&buf(&[1, 2, 3, 4]), &buf(&[1, 2, 9, 8]), 0).unwrap();
        assert_eq!((m.offset, m.expected, m.actual), (8, 3, 9));
    }

    #[test]
    fn ulp_budget_applies_to_finite_floats_only() {
        let one = 1.0f32.to_bits();
        assert!(first_mismatch(&buf(&[one]), &buf(&[one + 2]), 2).is_none());
        assert!(first_mismatch(&buf(&[one]), &buf(&[one + 3]), 2).is_some());
        assert!(first_mismatch(&buf(&[one]), &buf(&[one + 1]), 0).is_some());
        let inf = f32::INFINITY.to_bits();
        assert!(first_mismatch(&buf(&[inf]), &buf(&[inf - 1]), 4).is_some());
    }
}
