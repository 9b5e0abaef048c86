//! Byte tests sixteen bytes at a time (SSE2, part of every x86_64): the parser's fast path scans
//! most of a module's bytes as runs of name bytes, and the section splitter all of them for
//! braces and semicolons.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

/// Bit `k` set where byte `k` of the sixteen at `p` is not a name byte (`[A-Za-z0-9_$]`, and
/// `.` and `:` too when `form`).
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn outside_names(p: *const u8, form: bool) -> u32 {
    let v = _mm_loadu_si128(p as *const __m128i);
    // Signed compares: bytes past 0x7f are negative, below every range tested.
    let within = |x: __m128i, lo: u8, hi: u8| {
        _mm_and_si128(
            _mm_cmpgt_epi8(x, _mm_set1_epi8(lo as i8 - 1)),
            _mm_cmpgt_epi8(_mm_set1_epi8(hi as i8 + 1), x),
        )
    };
    let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
    let digit = within(v, b'0', b'9');
    let letter = within(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', b'z');
    let mut name = _mm_or_si128(
        _mm_or_si128(digit, letter),
        _mm_or_si128(is(b'_'), is(b'$')),
    );
    if form {
        name = _mm_or_si128(name, _mm_or_si128(is(b'.'), is(b':')));
    }
    !(_mm_movemask_epi8(name) as u32) & 0xffff
}

/// Where the sixteen bytes at `p` hold what the section splitter stops at: bit `k` of the first
/// mask set where byte `k` is `;`, of the second where it is one of `{`, `}`, `/`, `"`.
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn stops(p: *const u8) -> (u32, u32) {
    let v = _mm_loadu_si128(p as *const __m128i);
    let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
    let braces = _mm_or_si128(is(b'{'), is(b'}'));
    let others = _mm_or_si128(braces, _mm_or_si128(is(b'/'), is(b'"')));
    (
        _mm_movemask_epi8(is(b';')) as u32,
        _mm_movemask_epi8(others) as u32,
    )
}
