//! Name resolution after parsing: bare identifiers that name declared registers become registers;
//! [`Registers`], the checks' lookup of a register's declared type; [`Labels`], their set of a
//! function's labels.

use std::cell::Cell;

use crate::ast::{
    prefix_word, zero_padded_number, AddrBase, FastMap, FastSet, Name, Operand, RegDecl, RegTable,
    StateSpace, Type, VarDecl,
};

/// PTX allows registers without `%` (`.reg .pred p;`); the parser can't tell them from labels.
/// Registers declared with `%` can't be bare identifiers, so a function whose registers all start
/// with `%` (nvcc's output) is left untouched without a walk over its operands. `operands` are
/// those of the function that declares `regs`.
pub fn register_symbols(regs: &[RegDecl], operands: &mut [Operand]) {
    if regs.iter().all(|r| r.name.starts_with('%')) {
        return;
    }
    let table = RegTable::new(regs);
    for o in operands.iter_mut() {
        // Only names can name a register: most operands are registers and numbers already.
        if matches!(
            o,
            Operand::Symbol(_) | Operand::Addr { .. } | Operand::Vector(_)
        ) {
            resolve_operand(o, &table);
        }
    }
}

fn resolve_operand(o: &mut Operand, table: &RegTable) {
    match o {
        Operand::Symbol(s) if table.lookup(s).is_some() => *o = Operand::Reg(std::mem::take(s)),
        Operand::Addr { base, .. } => {
            if let AddrBase::Symbol(s) = base {
                if table.lookup(s).is_some() {
                    *base = AddrBase::Reg(std::mem::take(s));
                }
            }
        }
        Operand::Vector(v) => v.iter_mut().for_each(|x| resolve_operand(x, table)),
        _ => {}
    }
}

/// Renames zero-padded members of register ranges (`%r01` of `%r<4>`) to their plain names
/// (`%r1`), as ptxas reads them, so later stages see one name per register. `operands` are those
/// of the function that declares `regs`.
pub fn unpad_register_numbers(regs: &[RegDecl], operands: &mut [Operand]) {
    let table = RegTable::new(regs);
    let unpad = |name: &mut Name| {
        if table.is_exact(name) || table.lookup(name).is_none() {
            return;
        }
        if let Some(plain) = zero_padded_number(name) {
            *name = Name::from(plain);
        }
    };
    operands.iter_mut().for_each(|o| unpad_operand(o, &unpad));
}

fn unpad_operand(o: &mut Operand, unpad: &impl Fn(&mut Name)) {
    match o {
        Operand::Reg(n) | Operand::NotReg(n) => unpad(n),
        Operand::PredPair(pair) => {
            unpad(&mut pair.0);
            unpad(&mut pair.1);
        }
        Operand::Addr {
            base: AddrBase::Reg(n),
            ..
        } => unpad(n),
        Operand::Vector(v) => v.iter_mut().for_each(|x| unpad_operand(x, unpad)),
        _ => {}
    }
}

/// The declared registers of a function, for the checks: what [`RegTable`] answers, with the
/// prefixes of `%r<N>` ranges of up to 8 bytes (`%r`, `%rd`, `%f`: nearly all) held as one word
/// each, so a lookup splits the name and compares words, without hashing or string compares.
/// [`Registers::fill`] reuses its memory from one function to the next.
pub struct Registers<'a> {
    exact: FastMap<&'a str, Type>,
    /// The last bytes of the names in `exact` (bit `b % 64` of word `b / 64`): a register of a
    /// range ends in a digit, a name declared alone seldom does, so most lookups skip the hash.
    exact_ends: [u64; 4],
    /// The names of `exact` of 1 to 8 bytes, as words ([`prefix_word`]) with their lengths and
    /// types (a later declaration replaces an earlier one).
    exact_short: Vec<(u64, usize, Type)>,
    /// Ranges with short prefixes: (prefix bytes as a little-endian word, prefix length, type, N).
    short: Vec<(u64, usize, Type, u64)>,
    /// `short` of the function before (its memory reused).
    previous_short: Vec<(u64, usize, Type, u64)>,
    /// Where in `short` the range of a prefix is, by a hash of the prefix word
    /// ([`prefix_slot`]): [`NO_RANGE`], [`SHARED_SLOT`] (look through `short`) or the index.
    short_slots: [u8; PREFIX_SLOTS],
    long: FastMap<&'a str, (Type, u64)>,
    /// Answers for names of up to 8 bytes ([`Remembered`]), in a slot picked by a hash of the
    /// name and overwritten on a conflict. An instruction's registers come back again and again,
    /// and a module's functions name the same ones: most lookups end here, and most of the rest
    /// find the name split already (by an earlier function).
    memo: Box<[Cell<Remembered>; MEMO_SLOTS]>,
    /// The generation of the memo's answers for the registers held now (from 1: the empty
    /// slots' tags hold none).
    generation: u32,
}

impl Default for Registers<'_> {
    fn default() -> Self {
        let memo: Box<[Cell<Remembered>]> = vec![Cell::default(); MEMO_SLOTS].into();
        Registers {
            exact: Default::default(),
            exact_ends: [0; 4],
            exact_short: Vec::new(),
            short: Vec::new(),
            previous_short: Vec::new(),
            short_slots: [NO_RANGE; PREFIX_SLOTS],
            long: Default::default(),
            memo: memo
                .try_into()
                .unwrap_or_else(|_| unreachable!("MEMO_SLOTS slots")),
            generation: 1,
        }
    }
}

/// A name of up to 8 bytes, split into prefix and number (`%rd` and 12 for `%rd12`; `%r` and 1
/// for `%r01`), which holds for every function, and the answer for one function's registers.
#[derive(Clone, Copy, Default)]
struct Remembered {
    /// The name's bytes as a little-endian word, zero-padded ([`prefix_word`]).
    word: u64,
    /// The generation of `answer` ([`Registers::fill`]'s) and the name's length, `generation
    /// << 4 | length`.
    tag: u32,
    /// The number after the prefix (for a name that ends in a digit).
    number: u32,
    /// The length of the prefix: the name's bytes before its last digits.
    prefix_len: u8,
    answer: Option<Type>,
}

impl Remembered {
    /// The name `word` (`len` bytes, from 1 to 8) split; its answer is not known.
    fn split(word: u64, len: usize) -> Remembered {
        let non_digits = non_digit_bytes(word) & (u64::MAX >> (64 - 8 * len));
        let prefix_len = match non_digits {
            0 => 0,
            _ => (63 - non_digits.leading_zeros() as usize) / 8 + 1,
        };
        let number = word.to_le_bytes()[prefix_len..len]
            .iter()
            .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
        Remembered {
            word,
            tag: len as u32,
            number,
            prefix_len: prefix_len as u8,
            answer: None,
        }
    }

    /// The prefix's bytes as a word (for a name that ends in a digit: at most 7 bytes).
    fn prefix(&self) -> u64 {
        self.word & ((1 << (8 * u32::from(self.prefix_len))) - 1)
    }
}

/// Slots of [`Registers::short_slots`], and what they may hold besides an index.
const PREFIX_SLOTS: usize = 16;
const NO_RANGE: u8 = u8::MAX;
const SHARED_SLOT: u8 = u8::MAX - 1;

/// The slot of [`Registers::short_slots`] for a prefix word.
#[inline]
fn prefix_slot(word: u64) -> usize {
    (word.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60) as usize % PREFIX_SLOTS
}

/// Up to how many names declared alone a lookup looks through ([`Registers::exact_short`]);
/// past them, it hashes.
const FEW_EXACT: usize = 8;

/// Slots of [`Registers::memo`] (a power of two).
const MEMO_SLOTS: usize = 4096;

impl<'a> Registers<'a> {
    /// Holds `decls` and the `.reg` parameters among `params` (registers of the body like any
    /// declared one), forgetting what it held; a later declaration of a name or prefix wins.
    pub fn fill(
        &mut self,
        decls: impl IntoIterator<Item = &'a RegDecl>,
        params: impl Iterator<Item = &'a VarDecl>,
    ) {
        let ranges_only = self.exact.is_empty() && self.long.is_empty();
        std::mem::swap(&mut self.short, &mut self.previous_short);
        self.exact.clear();
        self.exact_short.clear();
        self.exact_ends = [0; 4];
        self.short.clear();
        self.long.clear();
        for d in decls {
            match d.count {
                Some(n) => self.add_range(&d.name, d.ty, n),
                None => self.add_exact(&d.name, d.ty),
            }
        }
        for p in params.filter(|p| p.space == StateSpace::Reg) {
            self.add_exact(&p.name, p.ty);
        }
        // The memo's answers hold for the same short ranges (and nothing else) again.
        let same = ranges_only
            && self.exact.is_empty()
            && self.long.is_empty()
            && self.short == self.previous_short;
        if !same {
            self.forget_answers();
        }
        self.fill_short_slots();
    }

    /// Starts a new generation of the memo's answers.
    fn forget_answers(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << 28 {
            self.memo
                .iter()
                .for_each(|slot| slot.set(Remembered::default()));
            self.generation = 1;
        }
    }

    fn fill_short_slots(&mut self) {
        self.short_slots = [NO_RANGE; PREFIX_SLOTS];
        for (k, e) in self.short.iter().enumerate() {
            let slot = &mut self.short_slots[prefix_slot(e.0)];
            *slot = if *slot == NO_RANGE && k < usize::from(SHARED_SLOT) {
                k as u8
            } else {
                SHARED_SLOT
            };
        }
    }

    fn add_exact(&mut self, name: &'a str, ty: Type) {
        let end = name.as_bytes().last().map_or(0, |&b| usize::from(b));
        self.exact_ends[end / 64] |= 1 << (end % 64);
        let again = self.exact.insert(name, ty).is_some();
        if (1..=8).contains(&name.len()) {
            let entry = (prefix_word(name.as_bytes()), name.len(), ty);
            match self
                .exact_short
                .iter_mut()
                .find(|e| again && (e.0, e.1) == (entry.0, entry.1))
            {
                Some(e) => *e = entry,
                None => self.exact_short.push(entry),
            }
        }
    }

    fn add_range(&mut self, prefix: &'a str, ty: Type, n: u64) {
        if prefix.len() > 8 {
            self.long.insert(prefix, (ty, n));
            return;
        }
        let entry = (prefix_word(prefix.as_bytes()), prefix.len(), ty, n);
        match self
            .short
            .iter_mut()
            .find(|e| (e.0, e.1) == (entry.0, entry.1))
        {
            Some(e) => *e = entry,
            None => self.short.push(entry),
        }
    }

    /// The declared type of register `name`; `%r01` is `%r1` of `%r<N>` (ptxas reads the number).
    #[inline]
    pub fn lookup(&self, name: &str) -> Option<Type> {
        let bytes = name.as_bytes();
        if bytes.is_empty() || bytes.len() > 8 {
            return self.resolve(name);
        }
        self.lookup_short(name, prefix_word(bytes), bytes.len())
    }

    /// [`Registers::lookup`] of a [`Name`]: a name of 1 to 8 bytes is taken as the word it holds
    /// already, and its length from its tag, without reading its bytes one by one.
    #[inline]
    pub fn lookup_name(&self, name: &Name) -> Option<Type> {
        let words = name.words();
        let len = (words & 0xff) as usize;
        if !(1..=8).contains(&len) {
            return self.resolve(name);
        }
        self.lookup_short(name, (words >> 8) as u64, len)
    }

    /// [`Registers::lookup`] of a name of `len` bytes, from 1 to 8, `word` ([`prefix_word`]);
    /// `name` is read only when the memo has no answer.
    #[inline]
    fn lookup_short(
        &self,
        name: &(impl AsRef<str> + ?Sized),
        word: u64,
        len: usize,
    ) -> Option<Type> {
        let tag = self.generation << 4 | len as u32;
        let slot =
            &self.memo[(word.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % MEMO_SLOTS];
        let remembered = slot.get();
        if (remembered.word, remembered.tag) == (word, tag) {
            return remembered.answer;
        }
        self.lookup_again(name.as_ref(), word, slot)
    }

    /// [`Registers::lookup`] of a name of up to 8 bytes (`word`) that `slot` holds no answer
    /// for (this function's): split again unless `slot` has it, answered, and remembered.
    #[inline(never)]
    fn lookup_again(&self, name: &str, word: u64, slot: &Cell<Remembered>) -> Option<Type> {
        let len = name.len();
        let mut split = slot.get();
        if (split.word, split.tag & 15) != (word, len as u32) {
            split = Remembered::split(word, len);
        }
        let answer = match self.short_range_member(len, &split) {
            Some(answer) => answer,
            None => self.resolve(name),
        };
        slot.set(Remembered {
            word,
            tag: self.generation << 4 | len as u32,
            number: split.number,
            prefix_len: split.prefix_len,
            answer,
        });
        answer
    }

    /// The answer for a name of 1 to 8 bytes (`split`) found with word operations: a name
    /// declared alone among the few (nearly always) that are, or else a member of a short-prefix
    /// range or nothing; `None` (not answered) where many names are declared alone.
    #[inline]
    fn short_range_member(&self, len: usize, split: &Remembered) -> Option<Option<Type>> {
        // A name of up to 8 bytes is none of `exact`'s longer ones.
        if self.exact_short.len() > FEW_EXACT {
            return None;
        }
        // Names declared alone, when one ends in the name's last byte.
        let end = (split.word >> (8 * (len - 1))) as u8;
        if self.exact_ends[usize::from(end / 64)] & (1 << (end % 64)) != 0 {
            let declared_alone = |e: &&(u64, usize, Type)| (e.0, e.1) == (split.word, len);
            if let Some(&(_, _, ty)) = self.exact_short.iter().find(declared_alone) {
                return Some(Some(ty));
            }
        }
        // A range's member ends in a digit after a prefix (the bytes before its last digits).
        if split.prefix_len == 0 || usize::from(split.prefix_len) == len {
            return Some(None);
        }
        let prefix_len = usize::from(split.prefix_len);
        let Some(&(_, _, ty, n)) = self.short_range(split.prefix(), prefix_len) else {
            return Some(None);
        };
        Some((u64::from(split.number) < n).then_some(ty))
    }

    /// The range with the short prefix `prefix` (its bytes as a word, `len` of them), found
    /// through its slot of [`Registers::short_slots`].
    #[inline]
    fn short_range(&self, prefix: u64, len: usize) -> Option<&(u64, usize, Type, u64)> {
        let same = |e: &&(u64, usize, Type, u64)| (e.0, e.1) == (prefix, len);
        match self.short_slots[prefix_slot(prefix)] {
            NO_RANGE => None,
            SHARED_SLOT => self.short.iter().find(same),
            k => self.short.get(usize::from(k)).filter(same),
        }
    }

    /// [`Registers::lookup`] without the memo.
    fn resolve(&self, name: &str) -> Option<Type> {
        let end = name.as_bytes().last().map_or(0, |&b| usize::from(b));
        if self.exact_ends[end / 64] & (1 << (end % 64)) != 0 {
            if let Some(t) = self.exact_type(name) {
                return Some(t);
            }
        }
        self.range_type(name)
    }

    #[inline(never)]
    fn exact_type(&self, name: &str) -> Option<Type> {
        self.exact.get(name).copied()
    }

    /// The type of `name` as a member of a `%r<N>` range.
    #[inline]
    fn range_type(&self, name: &str) -> Option<Type> {
        let bytes = name.as_bytes();
        let mut at = bytes.len();
        while at > 0 && bytes[at - 1].is_ascii_digit() {
            at -= 1;
        }
        if at == bytes.len() || at == 0 {
            return None;
        }
        let (ty, n) = if at <= 8 {
            let &(_, _, ty, n) = self.short_range(prefix_word(&bytes[..at]), at)?;
            (ty, n)
        } else {
            self.long_range(&name[..at])?
        };
        (decimal(&bytes[at..])? < n).then_some(ty)
    }

    #[inline(never)]
    fn long_range(&self, prefix: &str) -> Option<(Type, u64)> {
        self.long.get(prefix).copied()
    }
}

/// A function's labels, for the checks: those of up to 15 bytes (nearly all) by their inline
/// [`Name::words`], hashed as two words and compared without reading their bytes; longer ones
/// by their text. [`Labels::clear`] keeps the memory for the next function.
#[derive(Default)]
pub struct Labels<'a> {
    short: FastSet<u128>,
    long: FastSet<&'a str>,
}

/// The longest name [`Labels`] keeps by its words (a [`Name`] holds up to 15 bytes inline).
const INLINE_NAME: usize = 15;

impl<'a> Labels<'a> {
    pub fn clear(&mut self) {
        self.short.clear();
        self.long.clear();
    }

    /// Adds a label; false when it was there already.
    pub fn insert(&mut self, name: &'a Name) -> bool {
        match inline_words(name) {
            Some(words) => self.short.insert(words),
            None => self.long.insert(name.as_str()),
        }
    }

    /// How many distinct labels there are.
    pub fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `name` is a label.
    #[inline]
    pub fn contains_name(&self, name: &Name) -> bool {
        match inline_words(name) {
            Some(words) => self.short.contains(&words),
            None => self.long.contains(name.as_str()),
        }
    }

    /// Whether `name` is a label.
    pub fn contains(&self, name: &str) -> bool {
        match name.len() <= INLINE_NAME {
            true => !self.short.is_empty() && self.short.contains(&Name::from(name).words()),
            false => self.long.contains(name),
        }
    }
}

/// The words of a name held inline ([`Name::words`]), whose low byte is its length.
#[inline]
fn inline_words(name: &Name) -> Option<u128> {
    let words = name.words();
    ((words & 0xff) as usize <= INLINE_NAME).then_some(words)
}

/// The value of ASCII decimal digits; `None` past `u64::MAX`.
#[inline]
fn decimal(digits: &[u8]) -> Option<u64> {
    if digits.len() <= 19 {
        let mut value = 0;
        for &d in digits {
            value = value * 10 + u64::from(d - b'0');
        }
        return Some(value);
    }
    digits.iter().try_fold(0u64, |v, d| {
        v.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// Bit 7 of each byte of `word` that is not an ASCII digit (`0x30..=0x39`), others clear.
#[inline]
fn non_digit_bytes(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Per byte, x ^ 0x30 is 0..=9 exactly for digits; adding 0x76 to its low seven bits reaches
    // bit 7 from 10 up (no carry leaves the byte), and or-ing the byte itself catches bit 7.
    let t = word ^ 0x3030_3030_3030_3030;
    (((t & LOW7) + 0x7676_7676_7676_7676) | t) & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Span;

    #[test]
    fn prefix_word_is_the_zero_padded_bytes() {
        let names: [&[u8]; 10] = [
            b"",
            b"%",
            b"%r",
            b"%rd",
            b"%rd1",
            b"%rd12",
            b"%rd123",
            b"%rd1234",
            b"%rd12345",
            b"%rd123456789",
        ];
        for name in names {
            let mut padded = [0u8; 8];
            let n = name.len().min(8);
            padded[..n].copy_from_slice(&name[..n]);
            assert_eq!(prefix_word(name), u64::from_le_bytes(padded), "{name:?}");
        }
    }

    #[test]
    fn non_digit_bytes_marks_every_byte_but_digits() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let word = u64::from(b) << (8 * at) | 0x3131_3131_3131_3131 & !(0xff << (8 * at));
                let want = if b.is_ascii_digit() {
                    0
                } else {
                    0x80 << (8 * at)
                };
                assert_eq!(non_digit_bytes(word), want, "byte {b:#x} at {at}");
            }
        }
    }

    /// The word-wise answer for short names agrees with the plain one, on names made of the
    /// declared prefixes, digits and other bytes.
    #[test]
    fn short_range_members_agree_with_resolve() {
        let decls = vec![
            decl("%r", Type::U32, Some(120)),
            decl("%rd", Type::U64, Some(7)),
            decl("%p", Type::Pred, Some(3)),
            decl("%f1x", Type::F32, Some(20)),
            decl("%q", Type::B16, Some(5)),
            decl("%q5", Type::S8, None),
        ];
        let mut regs = Registers::default();
        regs.fill(&decls, std::iter::empty());
        let pieces = ["%", "r", "d", "p", "f", "1", "x", "0", "5", "9", "q", "_"];
        let mut state = 0x9e37_79b9u64;
        for _ in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 9) as usize;
            let name: String = (0..len)
                .map(|k| pieces[((state >> (4 * k + 8)) % pieces.len() as u64) as usize])
                .collect();
            assert_eq!(regs.lookup(&name), regs.resolve(&name), "{name}");
            let word_wise = regs.word_wise(&name);
            assert!(
                word_wise.is_none_or(|answer| answer == regs.resolve(&name)),
                "{name}"
            );
        }
        assert_eq!(regs.lookup("%r119"), Some(Type::U32));
        assert_eq!(regs.lookup("%r120"), None);
        assert_eq!(regs.lookup("%r007"), Some(Type::U32));
        assert_eq!(regs.lookup("%q5"), Some(Type::S8));
        assert_eq!(regs.lookup("%q4"), Some(Type::B16));
        // More prefixes than slots: some share one, and are found by looking through them all.
        let many: Vec<RegDecl> = (0..40)
            .map(|k| {
                decl(
                    &format!("%{}", (b'a' + k % 26) as char).repeat(1 + k as usize / 26),
                    Type::U32,
                    Some(u64::from(k) + 1),
                )
            })
            .collect();
        regs.fill(&many, std::iter::empty());
        for d in &many {
            for n in 0..45 {
                let name = format!("{}{n}", d.name);
                assert_eq!(regs.lookup(&name), regs.resolve(&name), "{name}");
                assert_eq!(regs.word_wise(&name), Some(regs.resolve(&name)), "{name}");
            }
        }
    }

    impl Registers<'_> {
        /// [`Registers::short_range_member`] of a name.
        fn word_wise(&self, name: &str) -> Option<Option<Type>> {
            let bytes = name.as_bytes();
            if !(1..=8).contains(&bytes.len()) {
                return None;
            }
            let split = Remembered::split(prefix_word(bytes), bytes.len());
            self.short_range_member(bytes.len(), &split)
        }
    }

    /// Answers kept for a function whose ranges are the one before's hold; any other
    /// declarations start afresh.
    #[test]
    fn answers_follow_each_functions_declarations() {
        let mut regs = Registers::default();
        let ranges = vec![
            decl("%r", Type::U32, Some(10)),
            decl("%p", Type::Pred, Some(2)),
        ];
        regs.fill(&ranges, std::iter::empty());
        assert_eq!(regs.lookup("%r5"), Some(Type::U32));
        regs.fill(&ranges, std::iter::empty());
        assert_eq!(regs.lookup("%r5"), Some(Type::U32));
        assert_eq!(regs.lookup("%p2"), None);
        let fewer = vec![
            decl("%r", Type::U32, Some(3)),
            decl("%p", Type::Pred, Some(2)),
        ];
        regs.fill(&fewer, std::iter::empty());
        assert_eq!(regs.lookup("%r5"), None);
        let mut with_exact = fewer.clone();
        with_exact.push(decl("%r5", Type::F32, None));
        regs.fill(&with_exact, std::iter::empty());
        assert_eq!(regs.lookup("%r5"), Some(Type::F32));
        regs.fill(&fewer, std::iter::empty());
        assert_eq!(regs.lookup("%r5"), None);
        let other_type = vec![
            decl("%r", Type::S32, Some(3)),
            decl("%p", Type::Pred, Some(2)),
        ];
        regs.fill(&other_type, std::iter::empty());
        assert_eq!(regs.lookup("%r1"), Some(Type::S32));
    }

    fn decl(name: &str, ty: Type, count: Option<u64>) -> RegDecl {
        RegDecl {
            name: name.into(),
            ty,
            vector: 1,
            count,
            line: 1,
            span: Span::default(),
            scoped: false,
        }
    }

    #[test]
    fn registers_answer_as_reg_table() {
        let decls = vec![
            decl("%r", Type::U32, Some(10)),
            decl("%rd", Type::U64, Some(3)),
            decl("%p", Type::Pred, Some(2)),
            decl("%r", Type::B32, Some(5)),
            decl("%verylongprefix", Type::F32, Some(4)),
            decl("%exact7", Type::F64, None),
            decl("x", Type::U16, None),
            decl("%12345678", Type::S32, Some(2)),
            decl("%rd1", Type::F32, None),
        ];
        let table = RegTable::new(&decls);
        let mut regs = Registers::default();
        regs.fill(&decls, std::iter::empty());
        let names = [
            "%r0",
            "%r4",
            "%r5",
            "%r9",
            "%r01",
            "%r",
            "%rd2",
            "%rd3",
            "%p1",
            "%p",
            "%verylongprefix3",
            "%verylongprefix4",
            "%exact7",
            "%exact",
            "x",
            "y1",
            "%r99999999999999999999999",
            "123",
            "%12345678",
            "%123456781",
            "%1234567",
            "%rd0x",
            "%rd1",
            "",
        ];
        for _ in 0..2 {
            for name in names {
                assert_eq!(regs.lookup(name), table.lookup(name), "{name}");
            }
        }
        assert_eq!(regs.lookup("%r4"), Some(Type::B32));
        // Another function's registers: nothing remembered from the first.
        let other = vec![decl("%r", Type::F64, Some(2)), decl("%p", Type::U16, None)];
        regs.fill(&other, std::iter::empty());
        assert_eq!(regs.lookup("%r1"), Some(Type::F64));
        assert_eq!(regs.lookup("%r4"), None);
        assert_eq!(regs.lookup("%rd2"), None);
        assert_eq!(regs.lookup("%p"), Some(Type::U16));
    }
}
