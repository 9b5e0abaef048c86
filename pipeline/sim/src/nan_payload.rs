//! Whether two runs' buffers differ only in NaN payloads: each differing 16-bit half holds a NaN
//! in both runs (as f16, or as bf16), or the differing 32-bit word holds an f32 NaN in both, or
//! the aligned 64-bit word around it an f64 NaN in both.
//!
//! The random driver accepts such a difference in ptxas's cubin (not in ours): ptxas folds
//! `neg(neg x)` and `max(x, x)` into `x`, keeping an input NaN's payload where the instruction
//! itself (HADD2, HMNMX2) would return the canonical NaN; the interpreter follows the instruction.

use crate::compare::DeviceBuffer;

fn f16_nan(h: u16) -> bool {
    h & 0x7c00 == 0x7c00 && h & 0x03ff != 0
}

fn bf16_nan(h: u16) -> bool {
    h & 0x7f80 == 0x7f80 && h & 0x007f != 0
}

fn f32_nan(w: u32) -> bool {
    f32::from_bits(w).is_nan()
}

fn f64_nan(d: u64) -> bool {
    f64::from_bits(d).is_nan()
}

/// The 32-bit word at byte `at` (zero-padded past the end).
fn word(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    let end = (at + 4).min(bytes.len());
    w[..end - at].copy_from_slice(&bytes[at..end]);
    u32::from_le_bytes(w)
}

/// Whether the two halves of a word pair are equal or both NaNs of the same 16-bit format.
fn halves_nan_or_equal(e: u32, a: u32) -> bool {
    [0, 16].iter().all(|&s| {
        let (x, y) = ((e >> s) as u16, (a >> s) as u16);
        x == y || (f16_nan(x) && f16_nan(y)) || (bf16_nan(x) && bf16_nan(y))
    })
}

/// Whether the words at byte `at` (a multiple of 4) differ only in which NaN they hold.
fn nan_payload_word(e: &[u8], a: &[u8], at: usize) -> bool {
    let (we, wa) = (word(e, at), word(a, at));
    if f32_nan(we) && f32_nan(wa) || halves_nan_or_equal(we, wa) {
        return true;
    }
    let base = at & !7;
    let pair = |b: &[u8]| (word(b, base + 4) as u64) << 32 | word(b, base) as u64;
    base + 8 <= e.len().min(a.len()) && f64_nan(pair(e)) && f64_nan(pair(a))
}

/// Whether `expected` and `actual` differ, and only in NaN payloads.
pub fn same_but_nan_payloads(expected: &[DeviceBuffer], actual: &[DeviceBuffer]) -> bool {
    let mut differs = false;
    for (e, a) in expected.iter().zip(actual) {
        if e.bytes.len() != a.bytes.len() {
            return false;
        }
        for at in (0..e.bytes.len()).step_by(4) {
            if word(&e.bytes, at) == word(&a.bytes, at) {
                continue;
            }
            if !nan_payload_word(&e.bytes, &a.bytes, at) {
                return false;
            }
            differs = true;
        }
    }
    differs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(words: &[u32]) -> Vec<DeviceBuffer> {
        vec![DeviceBuffer {
            param: "out".into(),
            addr: 0,
            bytes: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }]
    }

    #[test]
    fn half_float_and_double_nan_payloads_are_accepted() {
        // f16 halves: 0x7ef3 and 0x7fff are both f16 NaNs; the other half is equal.
        assert!(same_but_nan_payloads(
            &buf(&[0x5ed8_7fff]),
            &buf(&[0x5ed8_7ef3])
        ));
        // bf16 halves: 0xffc1 and 0x7fff.
        assert!(same_but_nan_payloads(
            &buf(&[0x1234_ffc1]),
            &buf(&[0x1234_7fff])
        ));
        // f32 NaNs.
        assert!(same_but_nan_payloads(
            &buf(&[0x7fc0_0001]),
            &buf(&[0xffff_ffff])
        ));
        // An f64 NaN whose low words differ.
        assert!(same_but_nan_payloads(
            &buf(&[0, 0xfff8_0000]),
            &buf(&[0xffff_ffff, 0xffff_ffff])
        ));
    }

    #[test]
    fn any_other_difference_or_none_is_refused() {
        assert!(!same_but_nan_payloads(&buf(&[1, 2]), &buf(&[1, 2])));
        // A NaN against a number, an f32 infinity against an f32 NaN, a half that is not NaN.
        // (Without types, 0x7f80 counts as an f16 NaN although it is also bf16's infinity.)
        assert!(!same_but_nan_payloads(
            &buf(&[0x7fc0_0000]),
            &buf(&[0x3f80_0000])
        ));
        assert!(!same_but_nan_payloads(
            &buf(&[0x7f80_0000]),
            &buf(&[0x7f80_0001])
        ));
        assert!(!same_but_nan_payloads(
            &buf(&[0x0001_7fff]),
            &buf(&[0x0002_7ef3])
        ));
        // One NaN-only word and one real difference.
        assert!(!same_but_nan_payloads(
            &buf(&[0x7fc0_0000, 5]),
            &buf(&[0x7fc0_0001, 6])
        ));
    }
}
