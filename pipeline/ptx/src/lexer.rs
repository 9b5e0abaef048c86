//! The PTX lexer (logos): tokens with byte spans; comments and whitespace are skipped.

use logos::Logos;

/// PTX tokens. Identifiers include PTX's `$` and `%` characters; `.name` is a directive or modifier.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
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
    /// Any character no other token matches (reported as a syntax error by the parser).
    Error,
}

/// One token with its text span.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

/// Lexes the whole input. Unknown characters become [`Tok::Error`] tokens; lexing never fails.
pub fn lex(src: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(src.len() / 4);
    let mut lexer = Tok::lexer(src);
    while let Some(res) = lexer.next() {
        let span = lexer.span();
        let kind = res.unwrap_or(Tok::Error);
        out.push(Token { kind, start: span.start as u32, end: span.end as u32 });
    }
    out
}

/// Maps byte offsets to 1-based line numbers.
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(src.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
        LineIndex { starts }
    }

    pub fn line(&self, offset: u32) -> u32 {
        match self.starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
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
            vec![At, Bang, Percent, Ident, Dot, Dot, Dot, Percent, Comma, LBracket, Percent, Plus, Minus, DecInt, RBracket, Semi]
        );
    }

    #[test]
    fn floats_and_lines() {
        let src = "0f3F800000 0d3FF0000000000000 1.5\n0x10U";
        let kinds: Vec<Tok> = lex(src).iter().map(|t| t.kind).collect();
        assert_eq!(kinds, vec![Tok::F32Hex, Tok::F64Hex, Tok::DecFloat, Tok::HexInt]);
        let idx = LineIndex::new(src);
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(src.len() as u32 - 1), 2);
    }
}
