//! The parser's table of instruction forms (opcode with modifiers): each distinct one is built
//! once, and every instruction written that way shares it (a thread's parsers pass the table on
//! from section to section).

use std::sync::Arc;

use crate::ast::{FastMap, Form, Name};

/// Forms by their text: the opcode and modifiers joined by dots (`ld.global.f32`),
/// which names exactly one form (a modifier holds no dot).
#[derive(Default)]
pub(crate) struct FormTable {
    by_text: FastMap<Box<str>, Arc<Form>>,
}

impl FormTable {
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
