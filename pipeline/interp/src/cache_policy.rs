//! `createpolicy`: the 64-bit L2 cache policy values, computed as ptxas's code computes them (the
//! layout is in `ptxforge_lower`'s `cache_policy.rs`), so that a kernel that stores a policy
//! agrees with the hardware's result.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::machine::{Cta, Flow};
use crate::prep::{Ins, MemBase, Opnd};

/// Bit 28, set in every policy; bit 27 marks an address-range policy.
const POLICY_VALID: u32 = 1 << 28;
const POLICY_RANGE: u32 = 1 << 27;

/// The priority bits of the `.L2::evict_*` modifiers (primary, then the optional secondary).
fn priority_bits(ins: &Ins) -> Option<u32> {
    let mut priorities = ins.mods.iter().filter_map(|m| m.strip_prefix("L2::"));
    let primary = match priorities.next()? {
        "evict_unchanged" => 0,
        "evict_first" => 1,
        "evict_last" => 2,
        "evict_normal" => 3,
        _ => return None,
    };
    let secondary = u32::from(priorities.next() == Some("evict_first"));
    Some(POLICY_VALID | primary << 25 | secondary << 24)
}

/// The high word of a range policy: a granule of `2^g` bytes, the first granule of the primary
/// range and how many granules it spans (at most 127); a total size of 0 gives the bare range.
pub(crate) fn range_word(bits: u32, addr: u64, primary: u32, total: u32) -> u32 {
    if total == 0 {
        return POLICY_VALID | POLICY_RANGE;
    }
    let log = (total as f32).log2().ceil() as i32;
    let g = (log - 7).max(12) as u32;
    let first = addr >> g;
    let end = addr.wrapping_add(u64::from(primary) + (1u64 << g) - 1) >> g;
    let count = end.wrapping_sub(first).min(0x7f) as u32;
    bits | POLICY_RANGE
        | ((first as u32) << 12 & 0x7_f000)
        | ((g - 12) << 20 & 0xf0_0000)
        | (count << 5 & 0xfe0)
}

/// The high word of a fractional policy.
pub(crate) fn fraction_word(bits: u32, fraction: f32) -> u32 {
    bits | (((fraction * 15.99) as u32) & 0xf) << 20
}

impl Cta<'_, '_> {
    pub(crate) fn createpolicy(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let bad = || SimError::BadModule(format!("line {}: malformed createpolicy", ins.line));
        let bits = priority_bits(ins).ok_or_else(bad)?;
        let high = if ins.has("fractional") {
            let fraction = match ins.ops.get(1) {
                None => 1.0,
                Some(o) => f32::from_bits(self.read(t, o, Type::F32)? as u32),
            };
            fraction_word(bits, fraction)
        } else {
            let (Some(Opnd::Mem(base, off)), Some(p), Some(n)) =
                (ins.ops.get(1), ins.ops.get(2), ins.ops.get(3))
            else {
                return Err(bad());
            };
            let base = match base {
                MemBase::Reg(r) => self.read(t, &Opnd::Reg(*r), Type::B64)?,
                _ => 0,
            };
            let addr = base.wrapping_add(*off as u64);
            let primary = self.read(t, p, Type::B32)? as u32;
            let total = self.read(t, n, Type::B32)? as u32;
            range_word(bits, addr, primary, total)
        };
        let d = ins.ops.first().ok_or_else(bad)?;
        self.write(t, d, u64::from(high) << 32, Type::B64)?;
        Ok(Flow::Next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fractional words are those ptxas 13.5 folded for constant fractions (sm_80); the range
    /// words follow its instruction sequence (the sim kernel `cache_policy` checks them against
    /// ptxas's code run on the emulator): evict_last with a secondary evict_first over
    /// `[0, 4096)` of 8192 bytes is one 4 KB granule.
    #[test]
    fn policy_words_are_ptxas_words() {
        let last_first = POLICY_VALID | 2 << 25 | 1 << 24;
        assert_eq!(range_word(last_first, 0, 4096, 8192), 0x1d00_0020);
        assert_eq!(range_word(last_first, 0, 4096, 0), 0x1800_0000);
        let last = POLICY_VALID | 2 << 25;
        assert_eq!(fraction_word(last, 0.1), 0x1410_0000);
        assert_eq!(fraction_word(last, 0.5), 0x1470_0000);
        assert_eq!(fraction_word(last, 1.0), 0x14f0_0000);
    }
}
