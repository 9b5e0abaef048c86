//! Byte tests sixteen bytes at a time (SSE2, part of every x86_64): the parser's fast path scans
//! most of a module's bytes as runs of name bytes, and the section splitter all of them for
//! braces and semicolons.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

use crate::syntax::forms::FormKey;

/// Bit `k` set where byte `k` of the sixteen at `p` is not a name byte (`[A-Za-z0-9_$]`, and
/// `.` and `:` too when `form`).
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn outside_names(p: *const u8, form: bool) -> u32 {
    outside_names_of(_mm_loadu_si128(p as *const __m128i), form)
}

/// [`outside_names`] of the sixteen bytes in `v`.
#[inline]
fn outside_names_of(v: __m128i, form: bool) -> u32 {
    // SAFETY: SSE2 is part of x86_64; nothing here reads memory.
    unsafe {
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
}

/// The `%` name at `p` (a `%` then name bytes), where it is shorter than sixteen bytes: its
/// bytes (zero past its end), its length, and whether its number is zero-padded (two or more
/// digits after a non-digit, the first a `0`, as [`crate::ast::zero_padded_split`] finds).
/// None for a longer name. The caller has seen the `%`.
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn short_percent_name(p: *const u8) -> Option<(u128, usize, bool)> {
    let v = _mm_loadu_si128(p as *const __m128i);
    // Bit k set where byte k + 1 is not a name byte.
    let after = outside_names_of(v, false) >> 1;
    if after == 0 {
        return None;
    }
    let len = after.trailing_zeros() as usize + 1;
    let at = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let text = _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8(len as i8), at));
    let inside = (1u32 << len) - 1;
    let zeros = _mm_movemask_epi8(_mm_cmpeq_epi8(text, _mm_set1_epi8(b'0' as i8))) as u32 & inside;
    let padded = zeros != 0 && {
        let digit = _mm_and_si128(
            _mm_cmpgt_epi8(text, _mm_set1_epi8(b'0' as i8 - 1)),
            _mm_cmpgt_epi8(_mm_set1_epi8(b'9' as i8 + 1), text),
        );
        let others = !(_mm_movemask_epi8(digit) as u32) & inside;
        // Where the name's last run of digits starts (byte 0, the `%`, is no digit).
        let run = 32 - others.leading_zeros() as usize;
        len - run >= 2 && zeros >> run & 1 != 0
    };
    Some((std::mem::transmute::<__m128i, u128>(text), len, padded))
}

/// Bit `k` set where byte `k` of the sixteen at `p` is a line end.
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn line_ends(p: *const u8) -> u32 {
    let v = _mm_loadu_si128(p as *const __m128i);
    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8))) as u32
}

/// The `len` (at most 16) bytes at `p` as the low bytes of a `u128`, zero past them.
///
/// # Safety
/// `p` must point at sixteen readable bytes.
#[inline]
pub(crate) unsafe fn low_bytes(p: *const u8, len: usize) -> u128 {
    let v = _mm_loadu_si128(p as *const __m128i);
    let at = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let kept = _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8(len as i8), at));
    std::mem::transmute::<__m128i, u128>(kept)
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

/// The run of bytes at the start of the 32 bytes at `p` up to the first space, control byte,
/// `;` or non-ASCII byte (none of them a form byte): its key (see [`FormKey`]) and length. None
/// when the run fills all 32 bytes.
///
/// # Safety
/// `p` must point at thirty-two readable bytes.
#[inline]
pub(crate) unsafe fn word_key(p: *const u8) -> Option<(FormKey, usize)> {
    let low = _mm_loadu_si128(p as *const __m128i);
    let high = _mm_loadu_si128(p.add(16) as *const __m128i);
    // Signed compares: bytes past 0x7f are negative, below `!`.
    let stops = |v: __m128i| {
        let stop = _mm_or_si128(
            _mm_cmpgt_epi8(_mm_set1_epi8(b'!' as i8), v),
            _mm_cmpeq_epi8(v, _mm_set1_epi8(b';' as i8)),
        );
        _mm_movemask_epi8(stop) as u32
    };
    let at = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // Most forms end within the first sixteen bytes: the second half is then all zero.
    let low_stop = stops(low);
    if low_stop != 0 {
        let len = low_stop.trailing_zeros() as usize;
        let low = _mm_and_si128(low, _mm_cmpgt_epi8(_mm_set1_epi8(len as i8), at));
        let words = [std::mem::transmute::<__m128i, u128>(low), 0];
        return Some((FormKey(words), len));
    }
    let stop = stops(high) << 16;
    if stop == 0 {
        return None;
    }
    let len = stop.trailing_zeros() as usize;
    let n = _mm_set1_epi8(len as i8);
    let low = _mm_and_si128(low, _mm_cmpgt_epi8(n, at));
    let high = _mm_and_si128(high, _mm_cmpgt_epi8(n, _mm_add_epi8(at, _mm_set1_epi8(16))));
    let words = [
        std::mem::transmute::<__m128i, u128>(low),
        std::mem::transmute::<__m128i, u128>(high),
    ];
    Some((FormKey(words), len))
}
