//! The parser's table of instruction forms (opcode with modifiers): each distinct one is built
//! once, and every instruction written that way shares it (a thread's parsers pass the table on
//! from section to section).

use std::sync::Arc;

use crate::ast::{FastMap, Form, Name};

/// Forms by their text: the opcode and modifiers joined by dots (`ld.global.f32`),
/// which names exactly one form (a modifier holds no dot).
pub(crate) struct FormTable {
    by_text: FastMap<Box<str>, Arc<Form>>,
    /// Forms lately found by their text, in slots picked by its [`FormKey`] (a newer form takes
    /// the slot of an older one): most instructions find theirs here, with no hashing of the text.
    recent: Box<[(FormKey, Option<Arc<Form>>)]>,
}

/// The text of an instruction's first word (up to space, `;` or a non-ASCII byte, none of them
/// a form byte), of at most 31 bytes, zero-padded to 32 (no byte of the word is zero, so the
/// key names the text). Remembered only for a word that is exactly a form's text.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FormKey(pub(crate) [u128; 2]);

/// Slots of [`FormTable::recent`] (a power of two; a module uses a few hundred forms at most).
const RECENT_SLOTS: usize = 256;

impl FormKey {
    /// The key's slot in [`FormTable::recent`].
    #[inline]
    fn slot(&self) -> usize {
        let [low, high] = self.0;
        let folded = (low ^ high.rotate_left(29)) as u64 ^ (low >> 64) as u64;
        (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize % RECENT_SLOTS
    }
}

impl Default for FormTable {
    fn default() -> FormTable {
        FormTable {
            by_text: FastMap::default(),
            recent: vec![(FormKey::default(), None); RECENT_SLOTS].into_boxed_slice(),
        }
    }
}

impl FormTable {
    /// The form lately found whose text has `key`, if it is still remembered.
    #[inline]
    pub(crate) fn recent(&self, key: &FormKey) -> Option<&Arc<Form>> {
        match &self.recent[key.slot()] {
            (k, Some(form)) if k == key => Some(form),
            _ => None,
        }
    }

    /// Remembers `form` as the one whose text has `key`.
    pub(crate) fn remember(&mut self, key: FormKey, form: &Arc<Form>) {
        self.recent[key.slot()] = (key, Some(form.clone()));
    }

    /// How many forms the table holds.
    pub(crate) fn len(&self) -> usize {
        self.by_text.len()
    }

    /// The form whose text is `text`, if it was made before.
    #[inline]
    pub(crate) fn get(&self, text: &str) -> Option<&Arc<Form>> {
        self.by_text.get(text)
    }

    /// The form of `opcode` with `mods`, made the first time its text is seen.
    pub(crate) fn intern(&mut self, opcode: &str, mods: &[Name]) -> Arc<Form> {
        let mut text =
            String::with_capacity(opcode.len() + mods.iter().map(|m| m.len() + 1).sum::<usize>());
        text.push_str(opcode);
        for m in mods {
            text.push('.');
            text.push_str(m);
        }
        if let Some(form) = self.by_text.get(text.as_str()) {
            return form.clone();
        }
        let form = Arc::new(Form {
            opcode: Name::new(opcode),
            mods: mods.into(),
        });
        self.by_text.insert(text.into_boxed_str(), form.clone());
        form
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_form_per_text() {
        let mut t = FormTable::default();
        let a = t.intern("ld", &[Name::new("global"), Name::new("f32")]);
        let b = t.intern("ld", &[Name::new("global"), Name::new("f32")]);
        let c = t.intern("ld", &[Name::new("global")]);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        assert!(Arc::ptr_eq(t.get("ld.global.f32").unwrap(), &a));
        assert_eq!(&*c.mods, &[Name::new("global")]);
        assert!(t.get("ld.global.f3").is_none());
    }
}
