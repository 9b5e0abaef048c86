//! [`Name`]: the AST's string type for opcodes, modifiers, registers and symbols. Names of up to
//! 15 bytes (nearly all of them) live inline with no allocation, in 16 bytes whose length byte
//! leaves a niche (so `Option<Name>` and enums of names stay small); it reads like a `String`
//! (derefs to `&str`, compares with `&str` and `String`, hashes as a `str`).

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Longest name stored inline.
const INLINE: usize = 15;

/// An immutable string, inline when short. 16 bytes, built and moved as two words: the first
/// byte says the length of an inline name (the bytes after it, zero past the length) or that
/// the name lives on the heap (a pointer in the second word). Its values past [`Tag::Heap`]
/// are free for enum tags, so `Option<Name>` and enums of names stay small.
#[repr(C, align(8))]
pub struct Name {
    tag: Tag,
    bytes: [u8; INLINE],
}

/// An inline name's length, or [`Tag::Heap`]. (The lengths are made by [`Name::inline`]'s
/// transmute, not by name.)
#[allow(dead_code)]
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
#[rustfmt::skip]
enum Tag { L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15, Heap }

impl Name {
    /// The empty name.
    pub const EMPTY: Name = Name {
        tag: Tag::L0,
        bytes: [0; INLINE],
    };

    pub fn new(s: &str) -> Name {
        if s.len() > INLINE {
            return Name::on_heap(s.into());
        }
        Name::inline(s.len(), u128::from_le_bytes(inline_copy(s.as_bytes())))
    }

    /// The name `text[start..end]`, which must lie on character boundaries (the parser's tokens
    /// do). A short name is taken with one 16-byte load when the text goes on that far.
    #[inline]
    pub fn within(text: &str, start: usize, end: usize) -> Name {
        let len = end - start;
        match text.as_bytes().get(start..start + 16) {
            Some(window) if len <= INLINE => {
                let mut w = [0u8; 16];
                w.copy_from_slice(window);
                Name::inline(len, u128::from_le_bytes(w) & ((1u128 << (8 * len)) - 1))
            }
            _ => Name::new(&text[start..end]),
        }
    }

    /// The inline name of the low `len` bytes of `text` (little-endian).
    ///
    /// # Safety
    /// `len` is at most 15, those bytes are UTF-8 and the bytes of `text` past them are zero.
    #[inline]
    pub(crate) unsafe fn from_low_bytes(len: usize, text: u128) -> Name {
        Name::inline(len, text)
    }

    /// An inline name of `len` (at most [`INLINE`]) UTF-8 bytes, the low bytes of `text` (zero
    /// past `len`): made as one 16-byte value, so that reading it back soon after is one load
    /// the store forwards to (a name written piecewise stalls the load).
    #[inline]
    fn inline(len: usize, text: u128) -> Name {
        debug_assert!(len <= INLINE && text >> (8 * len) == 0);
        let word = text << 8 | len as u128;
        // SAFETY: `Name` is 16 plain bytes; a first byte of at most `INLINE` is an inline
        // length, and the bytes after it are `len` bytes of UTF-8 (the caller's) then zeros.
        unsafe { std::mem::transmute::<[u8; 16], Name>(word.to_le_bytes()) }
    }

    fn on_heap(s: Box<str>) -> Name {
        let mut bytes = [0; INLINE];
        let ptr = Box::into_raw(Box::new(s)) as usize as u64;
        bytes[INLINE - 8..].copy_from_slice(&ptr.to_le_bytes());
        Name {
            tag: Tag::Heap,
            bytes,
        }
    }

    /// The boxed string of a heap name.
    #[inline]
    fn heap(&self) -> *mut Box<str> {
        debug_assert!(self.tag == Tag::Heap);
        let mut word = [0; 8];
        word.copy_from_slice(&self.bytes[INLINE - 8..]);
        u64::from_le_bytes(word) as usize as *mut Box<str>
    }

    /// The two words of the name (an inline name's length and bytes, zero-padded): the low
    /// byte is the length of an inline name (above 15 for a heap name), the bytes above it the
    /// name's bytes.
    #[inline]
    pub(crate) fn words(&self) -> u128 {
        // SAFETY: `Name` is 16 plain bytes.
        u128::from_le_bytes(unsafe { std::mem::transmute_copy::<Name, [u8; 16]>(self) })
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        if self.tag == Tag::Heap {
            // SAFETY: a heap name owns its box until it is dropped.
            return unsafe { &*self.heap() };
        }
        // SAFETY: inline bytes are only ever UTF-8 taken whole from a `&str` (see `inline`),
        // and the tag of an inline name is its length, at most `INLINE`.
        unsafe { std::str::from_utf8_unchecked(self.bytes.get_unchecked(..self.tag as usize)) }
    }
}

impl Drop for Name {
    #[inline]
    fn drop(&mut self) {
        if self.tag == Tag::Heap {
            // SAFETY: the box was leaked into this name by `on_heap`, and only it owns it.
            drop(unsafe { Box::from_raw(self.heap()) });
        }
    }
}

impl Clone for Name {
    #[inline]
    fn clone(&self) -> Name {
        if self.tag == Tag::Heap {
            return Name::on_heap(self.as_str().into());
        }
        // SAFETY: an inline name is plain bytes, owning nothing.
        unsafe { std::mem::transmute::<[u8; 16], Name>(self.words().to_le_bytes()) }
    }
}

/// `b` (at most [`INLINE`] bytes) zero-padded, copied with fixed-size moves that may overlap
/// (a variable-length copy is a call into the C library).
#[inline]
fn inline_copy(b: &[u8]) -> [u8; 16] {
    let mut out = [0; 16];
    let n = b.len();
    if n >= 8 {
        out[..8].copy_from_slice(&b[..8]);
        out[n - 8..n].copy_from_slice(&b[n - 8..]);
    } else if n >= 4 {
        out[..4].copy_from_slice(&b[..4]);
        out[n - 4..n].copy_from_slice(&b[n - 4..]);
    } else {
        for (o, x) in out.iter_mut().zip(b) {
            *o = *x;
        }
    }
    out
}

impl Default for Name {
    fn default() -> Name {
        Name::EMPTY
    }
}

impl Deref for Name {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        if s.len() > INLINE {
            return Name::on_heap(s.into_boxed_str());
        }
        Name::new(&s)
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::new(s)
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.as_str().to_string()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialEq for Name {
    #[inline]
    fn eq(&self, o: &Name) -> bool {
        // Inline names are equal when their words are (the bytes past the length are zero); an
        // inline name and a heap one never are (their tags differ).
        if self.tag == Tag::Heap && o.tag == Tag::Heap {
            return self.as_str() == o.as_str();
        }
        self.words() == o.words()
    }
}

/// Byte equality without a call into the C library for short names (opcodes and modifiers are
/// compared with literals all through validation and lowering).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 16 {
        return a == b;
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

impl Eq for Name {}

impl PartialOrd for Name {
    fn partial_cmp(&self, o: &Name) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Name {
    fn cmp(&self, o: &Name) -> Ordering {
        self.as_str().cmp(o.as_str())
    }
}

/// `Name == str`, `Name == &str`, `Name == String` and the other way round.
macro_rules! compare_with {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Name {
            #[inline]
            fn eq(&self, o: &$t) -> bool {
                same_bytes(self.as_bytes(), AsRef::<str>::as_ref(o).as_bytes())
            }
        }
        impl PartialEq<Name> for $t {
            #[inline]
            fn eq(&self, o: &Name) -> bool {
                same_bytes(AsRef::<str>::as_ref(self).as_bytes(), o.as_bytes())
            }
        }
    )*};
}

compare_with!(str, &str, String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_names_read_back() {
        for s in [
            "",
            "%r1",
            "L2::cache_hint",
            "exactly_fifteen",
            "sixteen_bytes_ab",
            "_Z10kernelPfS_i_param_0",
        ] {
            let n = Name::from(s);
            assert_eq!(n.as_str(), s);
            assert_eq!(n, s);
            assert_eq!(Name::from(s.to_string()), n);
            assert_eq!(String::from(n.clone()), s);
            assert_eq!(format!("{n}"), s);
        }
        assert_eq!(std::mem::size_of::<Name>(), 16);
        assert_eq!(std::mem::size_of::<Option<Name>>(), 16);
        // Names cut from a longer text read back alike, at its end too.
        let text = "%rd12, [%rd4+8]; ld.global.nc.f32 _Z6kernelPfS_i_param_0 é";
        for start in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
            for end in (start..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(Name::within(text, start, end), Name::new(&text[start..end]));
                assert_eq!(Name::within(text, start, end).as_str(), &text[start..end]);
            }
        }
        // Every length, inline and not, reads back (the inline copy moves overlapping pieces).
        let text = "%abcdefghijklmnopqrstuvwxyz0123456789";
        for n in 0..text.len() {
            assert_eq!(Name::new(&text[..n]).as_str(), &text[..n]);
            assert_eq!(Name::new(&text[n..]).as_str(), &text[n..]);
        }
    }

    #[test]
    fn hashes_and_orders_as_str() {
        use std::collections::HashMap;
        let mut m: HashMap<Name, u32> = HashMap::new();
        m.insert("%rd12".into(), 1);
        m.insert("a_symbol_longer_than_the_inline_part".into(), 2);
        assert_eq!(m.get("%rd12"), Some(&1));
        assert_eq!(m.get("a_symbol_longer_than_the_inline_part"), Some(&2));
        assert!(Name::from("a") < Name::from("b"));
    }
}
