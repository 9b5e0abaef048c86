//! The mbarrier object as ptxas 13.5's sm_80..89 code builds and reads it with shared-memory
//! atomics (ATOMS.ARRIVE.64, ATOMS.POPC.INC, ATOMS.ADD, ARRIVES.LDGSTSBAR.64).
//!
//! Its `mbarrier.init` stores `2^30 - n` in the low word and `2^31 - n` in the high word; its
//! `pending_count` of a state is `2^31 - (hi & 0x7fffffff)`; its `test_wait` compares bit 31 of
//! the high word; `arrive_drop` adds one to the low word (ATOMS.POPC.INC) before arriving; an
//! arrive with `.noComplete` and a count adds the count to the high word (ATOMS.ADD) and
//! `cp.async.mbarrier.arrive` without `.noinc` subtracts one per thread from it first. So: the low
//! word holds `2^30 - expected`, the high word the phase in bit 31 and `2^31 - pending` below it.
//! An arrival adds one to the high word; when the pending count reaches zero the carry flips the
//! phase and the pending count reloads from the expected count (the reload is this model's
//! reading: ptxas's code never shows it).

/// The barrier word after one arrival.
pub(crate) fn arrive(word: u64) -> u64 {
    let (lo, hi) = (word as u32, (word >> 32) as u32);
    let mut hi = hi.wrapping_add(1);
    if hi & 0x7fff_ffff == 0 {
        let expected = 0x4000_0000u32.wrapping_sub(lo) & 0x3fff_ffff;
        hi |= 0x8000_0000u32.wrapping_sub(expected) & 0x7fff_ffff;
    }
    lo as u64 | (hi as u64) << 32
}

#[cfg(test)]
mod tests {
    use super::arrive;

    /// init(2) as ptxas stores it, two arrivals: the phase flips and the count reloads.
    #[test]
    fn two_arrivals_complete_a_phase() {
        let n = 2u64;
        let init = (0x4000_0000 - n) | (0x8000_0000 - n) << 32;
        let once = arrive(init);
        assert_eq!(once >> 32, 0x7fff_ffff);
        let twice = arrive(once);
        assert_eq!(twice >> 32, 0x8000_0000 | (0x8000_0000 - n));
        assert_eq!(arrive(arrive(twice)) >> 32, 0x8000_0000 - n);
    }
}
