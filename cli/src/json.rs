//! A small JSON value with a reader and a compact writer, for `--compiler-stats-json` and for
//! merging into an existing `--fdevice-time-trace` file.
//!
//! Numbers keep their text, so a document read and written back keeps every value as it was;
//! only insignificant whitespace is dropped. Nesting deeper than [`MAX_DEPTH`] is refused, so no
//! input can exhaust the stack.

use std::fmt::Write;

/// Deepest nesting of arrays and objects the reader accepts.
pub const MAX_DEPTH: usize = 512;

/// A JSON value; object members keep their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number's text as written.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// A number with `decimals` digits after the point (non-finite values become 0).
    pub fn fixed(v: f64, decimals: usize) -> Json {
        let v = if v.is_finite() { v } else { 0.0 };
        Json::Num(format!("{v:.decimals$}"))
    }

    /// An integer.
    pub fn int(v: impl Into<i128>) -> Json {
        Json::Num(v.into().to_string())
    }

    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    /// An object from `(key, value)` pairs, in that order.
    pub fn obj<const N: usize>(members: [(&str, Json); N]) -> Json {
        Json::Obj(
            members
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value of a number, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The compact text (no whitespace between tokens).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(n),
            Json::Str(s) => write_string(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Obj(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }

    /// Reads one JSON document (surrounding whitespace allowed, nothing else after it).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut r = Reader {
            s: text.as_bytes(),
            pos: 0,
        };
        let v = r.value(0)?;
        r.skip_ws();
        if r.pos != r.s.len() {
            return Err(r.error("trailing characters"));
        }
        Ok(v)
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.pos)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        let hit = self.peek() == Some(b);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.word(),
            None => Err(self.error("unexpected end")),
        }
    }

    fn word(&mut self) -> Result<Json, String> {
        for (text, v) in [
            ("null", Json::Null),
            ("true", Json::Bool(true)),
            ("false", Json::Bool(false)),
        ] {
            if self.s[self.pos..].starts_with(text.as_bytes()) {
                self.pos += text.len();
                return Ok(v);
            }
        }
        Err(self.error("unexpected character"))
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.pos += 1;
        let mut members = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Obj(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return Err(self.error("expected ':'"));
            }
            members.push((key, self.value(depth + 1)?));
            if self.eat(b',') {
                continue;
            }
            if self.eat(b'}') {
                return Ok(Json::Obj(members));
            }
            return Err(self.error("expected ',' or '}'"));
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.pos += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Ok(Json::Arr(items));
            }
            return Err(self.error("expected ',' or ']'"));
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        let digits = |r: &mut Self| {
            let from = r.pos;
            while r.peek().is_some_and(|b| b.is_ascii_digit()) {
                r.pos += 1;
            }
            r.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if !digits(self) {
            return Err(self.error("bad number"));
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.error("bad number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.error("bad number"));
            }
        }
        Ok(Json::Num(
            String::from_utf8_lossy(&self.s[start..self.pos]).into_owned(),
        ))
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("unterminated string"));
            };
            self.pos += 1;
            match b {
                b'"' => return String::from_utf8(bytes).map_err(|_| self.error("bad UTF-8")),
                b'\\' => self.escape(&mut bytes)?,
                b if b < 0x20 => return Err(self.error("control character in string")),
                b => bytes.push(b),
            }
        }
    }

    fn escape(&mut self, bytes: &mut Vec<u8>) -> Result<(), String> {
        let Some(b) = self.peek() else {
            return Err(self.error("unterminated string"));
        };
        self.pos += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => return Err(self.error("bad escape")),
        };
        let mut buf = [0u8; 4];
        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    /// `\uXXXX`, with a following low surrogate when this one is high; lone surrogates become U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) && self.s[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4()?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            self.pos = save;
        }
        Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let text = self
            .s
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("bad \\u escape"))?;
        let text = std::str::from_utf8(text).map_err(|_| self.error("bad \\u escape"))?;
        let v = u32::from_str_radix(text, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_back_compactly_keeping_number_text_and_order() {
        let text = r#" {"b": [1.50, -2e3, true, null], "a": {"s": "q\"\\\n\u00e9\ud83d\ude00"}} "#;
        let v = Json::parse(text).unwrap();
        assert_eq!(
            v.to_text(),
            "{\"b\":[1.50,-2e3,true,null],\"a\":{\"s\":\"q\\\"\\\\\\n\u{e9}\u{1F600}\"}}"
        );
        assert_eq!(Json::parse(&v.to_text()).unwrap(), v);
        assert_eq!(
            v.get("b"),
            Some(&Json::Arr(vec![
                Json::Num("1.50".into()),
                Json::Num("-2e3".into()),
                Json::Bool(true),
                Json::Null
            ]))
        );
    }

    #[test]
    fn refuses_malformed_documents_without_panicking() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01x",
            "\"\\u12\"",
            "\"\\x\"",
            "tru",
            "{} {}",
            "-",
            "1.",
            "\"\u{1}\"",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?} was accepted");
        }
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        assert!(Json::parse(&deep).is_err());
        let ok = "[".repeat(100) + &"]".repeat(100);
        assert!(Json::parse(&ok).is_ok());
    }

    #[test]
    fn writes_control_characters_escaped() {
        assert_eq!(Json::str("a\u{1}b\tc").to_text(), "\"a\\u0001b\\tc\"");
        assert_eq!(Json::fixed(f64::NAN, 2).to_text(), "0.00");
        assert_eq!(Json::obj([("k", Json::int(-3))]).to_text(), "{\"k\":-3}");
    }
}
