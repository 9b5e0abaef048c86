//! The PTX lexer (logos): a stream of tokens with byte spans (comments and whitespace skipped) and
//! a forward-counting line cursor.

use logos::Logos;

/// PTX tokens. Identifiers include PTX's `$` and `%` characters; `.name` is a directive or modifier.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
pub enum Tok {
    #[regex(r"\.[A-Za-z_0-9][A-Za-z0-9_$]*(::[A-Za-z0-9_]+)*")]
    Dot,
    #[regex(r"%[A-Za-z0-9_$]+")]
    Percent,
    #[regex(r"[A-Za-z_$][A-Za-z0-9_$]*")]
    Ident,
    #[regex(r"0[fF][0-9a-fA-F]{8}")]
    F32Hex,
    #[regex(r"0[dD][0-9a-fA-F]{16}")]
    F64Hex,
    #[regex(r"0[xX][0-9a-fA-F]+[uU]?")]
    HexInt,
    #[regex(r"[0-9]+[uU]?", priority = 3)]
    DecInt,
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+")]
    DecFloat,
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("@")]
    At,
    #[token("!")]
    Bang,
    #[token("|")]
    Pipe,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("=")]
    Eq,
    /// `/* ... */` (skipped). A callback rather than a skip regex: logos' DFA does not match the
    /// usual block-comment regex. An unterminated comment runs to the end and is an error.
    #[token("/*", block_comment)]
    BlockComment,
    /// Any character no other token matches (reported as a syntax error by the parser).
    Error,
}

/// One token with its byte span in the module's text.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

/// Lexes the whole input. Unknown characters become [`Tok::Error`] tokens; lexing never fails.
pub fn lex(src: &str) -> Vec<Token> {
    TokenStream::new(src, 0).collect()
}

/// Tokens of `text` one at a time (no token vector); spans are offset by `base`, the position
/// of `text` in the whole module, so a section's tokens carry module-wide byte offsets.
pub struct TokenStream<'s> {
    lexer: logos::Lexer<'s, Tok>,
    base: u32,
}

impl<'s> TokenStream<'s> {
    pub fn new(text: &'s str, base: u32) -> TokenStream<'s> {
        TokenStream {
            lexer: Tok::lexer(text),
            base,
        }
    }
}

impl Iterator for TokenStream<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        let kind = self.lexer.next()?.unwrap_or(Tok::Error);
        let span = self.lexer.span();
        Some(Token {
            kind,
            start: self.base + span.start as u32,
            end: self.base + span.end as u32,
        })
    }
}

/// Maps byte offsets to 1-based line numbers by counting newlines forward from the last query,
/// so a parser that asks in increasing order scans the text once and stores nothing per line.
pub struct LineCursor<'s> {
    bytes: &'s [u8],
    /// Where counting may restart from: the section's first byte and its line.
    origin: (u32, u32),
    /// The last answer: offset and its line.
    at: (u32, u32),
}

impl<'s> LineCursor<'s> {
    /// A cursor over `src` whose offset `start` is on line `line`.
    pub fn new(src: &'s str, start: u32, line: u32) -> LineCursor<'s> {
        LineCursor {
            bytes: src.as_bytes(),
            origin: (start, line),
            at: (start, line),
        }
    }

    /// Notes that `offset` (not before the section's start) is on `line`, as a reader that
    /// counted the lines itself found: later queries count on from there.
    pub fn seek(&mut self, offset: u32, line: u32) {
        debug_assert!(offset >= self.origin.0);
        self.at = (offset, line);
    }

    pub fn line(&mut self, offset: u32) -> u32 {
        let offset = offset.min(self.bytes.len() as u32);
        if offset < self.at.0 {
            self.at = if offset >= self.origin.0 {
                self.origin
            } else {
                (0, 1)
            };
        }
        let (from, line) = self.at;
        let line = line + count_newlines(&self.bytes[from as usize..offset as usize]);
        self.at = (offset, line);
        line
    }
}

/// Newlines in `bytes` (the loop vectorises).
pub fn count_newlines(bytes: &[u8]) -> u32 {
    // Counted per block of at most 255 bytes into byte lanes, a loop the compiler vectorizes
    // (a per-byte sum into a `u32` it does not).
    bytes
        .chunks(255)
        .map(|block| u32::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// Skips a block comment up to its first `*/`, as the section splitter does.
fn block_comment(lex: &mut logos::Lexer<Tok>) -> logos::FilterResult<(), ()> {
    match lex.remainder().find("*/") {
        Some(end) => {
            lex.bump(end + 2);
            logos::FilterResult::Skip
        }
        None => {
            lex.bump(lex.remainder().len());
            logos::FilterResult::Error(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_instruction() {
        let src = "@!%p1 ld.global.nc.f32 %f1, [%rd2+-4]; // c\n";
        let kinds: Vec<Tok> = lex(src).iter().map(|t| t.kind).collect();
        use Tok::*;
        assert_eq!(
            kinds,
            vec![
                At, Bang, Percent, Ident, Dot, Dot, Dot, Percent, Comma, LBracket, Percent, Plus,
                Minus, DecInt, RBracket, Semi
            ]
        );
    }

    #[test]
    fn floats_and_lines() {
        let src = "0f3F800000 0d3FF0000000000000 1.5\n0x10U";
        let kinds: Vec<Tok> = lex(src).iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            vec![Tok::F32Hex, Tok::F64Hex, Tok::DecFloat, Tok::HexInt]
        );
        let mut lines = LineCursor::new(src, 0, 1);
        assert_eq!(lines.line(0), 1);
        assert_eq!(lines.line(src.len() as u32 - 1), 2);
        assert_eq!(lines.line(3), 1, "a query behind the cursor recounts");
    }
}
