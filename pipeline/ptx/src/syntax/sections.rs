//! Parallel parsing support: [`split_sections`] cuts a module at top-level function boundaries,
//! [`parse_section`] parses one piece, [`merge_sections`] joins the pieces into exactly what a
//! serial parse gives. The crate stays runtime-free: callers run the pieces as tasks.
//!
//! The splitter scans bytes, not tokens: it skips comments and strings as the lexer does and
//! cuts after a `}` that closes a top-level block (a function body or `.section`, never an
//! initializer). A piece whose parse reports anything (a cut in a wrong place always does: the
//! body or block it split runs into the end of the piece) makes the merge fall back to a serial
//! parse, so the result and its diagnostics are a serial parse's in every case.

use std::ops::Range;

use crate::ast::Module;
use crate::diag::Diagnostic;
use crate::syntax::lexer::count_newlines;
use crate::syntax::parser::{ModuleHeader, Parser};

/// A piece of a module made of whole top-level items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpan {
    /// Byte range in the module's text.
    pub range: Range<usize>,
    /// Line of `range.start` (1-based).
    pub first_line: u32,
    /// `;` outside comments and strings: the piece's size in PTX statements (the unit of
    /// `--threads-min-section-size`).
    pub statements: usize,
}

/// Cuts `src` into pieces of at least `min_statements` statements each (the last piece joins the
/// one before it when it is smaller). Every byte belongs to exactly one piece, in order; an empty
/// module is one empty piece.
pub fn split_sections(src: &str, min_statements: usize) -> Vec<SectionSpan> {
    let min = min_statements.max(1);
    let mut scan = Scanner {
        bytes: src.as_bytes(),
        pos: 0,
    };
    let mut sections = Vec::new();
    let mut current = SectionSpan {
        range: 0..0,
        first_line: 1,
        statements: 0,
    };
    while let Some(cut) = scan.next_cut(&mut current.statements) {
        if current.statements >= min {
            current.range.end = cut;
            let next = SectionSpan {
                range: cut..cut,
                first_line: 0,
                statements: 0,
            };
            sections.push(std::mem::replace(&mut current, next));
        }
    }
    current.range.end = src.len();
    match sections.last_mut() {
        Some(prev) if current.statements < min => {
            prev.range.end = current.range.end;
            prev.statements += current.statements;
        }
        _ => sections.push(current),
    }
    let mut line = 1;
    for pair in 1..sections.len() {
        let (before, after) = sections.split_at_mut(pair);
        line += count_newlines(&src.as_bytes()[before[pair - 1].range.clone()]);
        after[0].first_line = line;
    }
    sections
}

/// Bytes the scanner stops at: braces, semicolons, and what may open a comment or string.
const STOPS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b';' as usize] = true;
    t[b'/' as usize] = true;
    t[b'"' as usize] = true;
    t
};

/// A byte scanner that sees braces and semicolons as the lexer does: comments and strings (also
/// unterminated ones, which the lexer swallows as one error token) hide them.
struct Scanner<'s> {
    bytes: &'s [u8],
    pos: usize,
}

impl Scanner<'_> {
    /// Advances past the next `}` that closes a top-level function body or `.section` block and
    /// returns the offset after it, counting `;` into `statements`; `None` at the end. A block
    /// opened right after `=` is an initializer, never cut after.
    fn next_cut(&mut self, statements: &mut usize) -> Option<usize> {
        let mut depth = 0u32;
        let mut cuttable = false;
        loop {
            self.count_statements(statements);
            let Some((at, c)) = self.next_structural() else {
                break;
            };
            match c {
                b';' => *statements += 1,
                b'{' => {
                    if depth == 0 {
                        cuttable = self.previous_non_space(at) != Some(b'=');
                    }
                    depth += 1;
                }
                b'}' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 && cuttable {
                        return Some(at + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The next `{`, `}` or `;` outside comments and strings, with its offset.
    fn next_structural(&mut self) -> Option<(usize, u8)> {
        let b = self.bytes;
        loop {
            self.skip_to_stop();
            while self.pos < b.len() && !STOPS[b[self.pos] as usize] {
                self.pos += 1;
            }
            let c = *b.get(self.pos)?;
            if !self.skip_comment_or_string() {
                self.pos += 1;
                if c != b'/' {
                    return Some((self.pos - 1, c));
                }
            }
        }
    }

    /// Moves on sixteen bytes at a time while none of them is a byte of [`STOPS`] (the byte
    /// loop after it finishes the job).
    #[inline]
    fn skip_to_stop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        while self.pos + 16 <= self.bytes.len() {
            // SAFETY: SSE2 is part of x86_64, and the 16 bytes read lie inside `bytes`.
            let (semicolons, others) =
                unsafe { crate::syntax::wide::stops(self.bytes.as_ptr().add(self.pos)) };
            if semicolons | others != 0 {
                self.pos += (semicolons | others).trailing_zeros() as usize;
                return;
            }
            self.pos += 16;
        }
    }

    /// Moves on sixteen bytes at a time over semicolons and plain bytes, counting the semicolons
    /// into `statements`, up to the first brace, slash or quote (which [`Scanner::next_structural`]
    /// then reads, as it does what is left near the end).
    #[inline]
    fn count_statements(&mut self, statements: &mut usize) {
        #[cfg(target_arch = "x86_64")]
        while self.pos + 16 <= self.bytes.len() {
            // SAFETY: SSE2 is part of x86_64, and the 16 bytes read lie inside `bytes`.
            let (semicolons, others) =
                unsafe { crate::syntax::wide::stops(self.bytes.as_ptr().add(self.pos)) };
            if others != 0 {
                let before = others.trailing_zeros();
                *statements += (semicolons & ((1 << before) - 1)).count_ones() as usize;
                self.pos += before as usize;
                return;
            }
            *statements += semicolons.count_ones() as usize;
            self.pos += 16;
        }
    }

    /// The last byte before `at` that is not whitespace.
    fn previous_non_space(&self, at: usize) -> Option<u8> {
        self.bytes[..at]
            .iter()
            .rev()
            .find(|c| !c.is_ascii_whitespace())
            .copied()
    }

    /// At `/` or `"`: skips what the lexer takes as one comment, string or error token and
    /// returns true; false when none starts here.
    fn skip_comment_or_string(&mut self) -> bool {
        let rest = &self.bytes[self.pos..];
        let len = match rest {
            [b'/', b'/', ..] => rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len()),
            [b'/', b'*', tail @ ..] => tail
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4),
            [b'"', ..] => string_len(rest),
            _ => return false,
        };
        self.pos += len;
        true
    }
}

/// Length of the string literal at the start of `s` (`"([^"\\\n]|\\.)*"`), or of the part the
/// lexer swallows when it is unterminated (up to the newline or the end).
fn string_len(s: &[u8]) -> usize {
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'"' => return i + 1,
            b'\n' => return i,
            b'\\' if s.get(i + 1) == Some(&b'\n') => return i,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    s.len()
}

/// What one piece parsed to.
#[derive(Debug)]
pub struct ParsedSection {
    /// The piece's globals and functions (bare register names resolved).
    pub module: Module,
    /// The module-level directives the piece set.
    pub header: ModuleHeader,
    pub diags: Vec<Diagnostic>,
}

/// Parses one piece of `src` (spans and lines stay module-wide).
pub fn parse_section(src: &str, section: &SectionSpan, file_name: &str) -> ParsedSection {
    let mut p = Parser::for_section(src, section.range.clone(), section.first_line, file_name);
    let module = p.parse_module();
    ParsedSection {
        module,
        header: std::mem::take(&mut p.header),
        diags: std::mem::take(&mut p.diags),
    }
}

/// Joins the pieces of `src`, in order, into the module and syntax diagnostics that
/// [`crate::parse_syntax`] gives; when any piece reported something, that is a serial parse.
pub fn merge_sections(
    src: &str,
    file_name: &str,
    parts: Vec<ParsedSection>,
) -> (Module, Vec<Diagnostic>) {
    if parts.iter().any(|p| !p.diags.is_empty()) {
        return crate::parse_syntax(src, file_name);
    }
    let mut m = Module {
        address_size: 64,
        ..Module::default()
    };
    m.functions
        .reserve(parts.iter().map(|p| p.module.functions.len()).sum());
    for p in parts {
        m.globals.extend(p.module.globals);
        m.functions.extend(p.module.functions);
        m.aliases.extend(p.module.aliases);
        m.files.extend(p.module.files);
        m.locs.extend(p.module.locs);
        m.section_labels.extend(p.module.section_labels);
        p.header.apply(&mut m);
    }
    (m, Vec::new())
}

/// Split, parse each piece and merge, on the calling thread (tests and tools; the driver runs
/// the pieces as tasks).
pub fn parse_syntax_in_sections(
    src: &str,
    file_name: &str,
    min_statements: usize,
) -> (Module, Vec<Diagnostic>) {
    let parts = split_sections(src, min_statements)
        .iter()
        .map(|s| parse_section(src, s, file_name))
        .collect();
    merge_sections(src, file_name, parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lexer::{lex, Tok};

    const TWO: &str = ".version 8.0\n.target sm_80\n.global .u32 g[2] = {1, 2};\n\
        .entry a()\n{\n// } not a brace\n/* { */ ret;\n}\n.entry b()\n{\n.pragma \"}\";\nret;\n}\n";

    #[test]
    fn cuts_after_function_bodies_only() {
        let s = split_sections(TWO, 1);
        let texts: Vec<&str> = s.iter().map(|s| &TWO[s.range.clone()]).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[0].ends_with("ret;\n}"), "{texts:?}");
        assert!(texts[1].starts_with("\n.entry b()"));
        assert_eq!(s[1].first_line, 8);
        assert_eq!(s.iter().map(|s| s.statements).sum::<usize>(), 4);
    }

    #[test]
    fn small_pieces_join() {
        assert_eq!(split_sections(TWO, 100).len(), 1);
        assert_eq!(
            split_sections("", 1),
            vec![SectionSpan {
                range: 0..0,
                first_line: 1,
                statements: 0
            }]
        );
    }

    /// `{`, `}` and `;` as the lexer sees them and as the scanner does.
    fn structure_both_ways(text: &str) -> (Vec<usize>, Vec<usize>) {
        let by_lexer = lex(text)
            .iter()
            .filter(|t| matches!(t.kind, Tok::LBrace | Tok::RBrace | Tok::Semi))
            .map(|t| t.start as usize)
            .collect();
        let mut scan = Scanner {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let by_scanner = std::iter::from_fn(|| scan.next_structural())
            .filter(|(_, c)| matches!(c, b'{' | b'}' | b';'))
            .map(|(at, _)| at)
            .collect();
        (by_lexer, by_scanner)
    }

    #[test]
    fn scanner_sees_the_lexers_braces() {
        for text in [
            "// {\n}",
            "/* { */;",
            "\"{\";",
            "\"\\\"{\"}",
            "/*/ { */",
            "\"{\n{",
            "\"a\\\n{",
            "/* {",
            "/ {",
            "\"\\\"{\n}",
        ] {
            let (lexer, scanner) = structure_both_ways(text);
            assert_eq!(lexer, scanner, "{text:?}");
        }
    }

    /// Short texts dense in what the scanner stops at, and longer ones with runs of plain bytes
    /// that it skips sixteen at a time.
    #[test]
    fn scanner_agrees_with_the_lexer_on_random_text() {
        let dense: &[u8] = b"{};\"/*\\\n a.:0fex=%$_";
        let sparse: &[u8] = b"{};\"/*\\\n a.:0fex=%$_abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz";
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..40_000 {
            let (alphabet, len) = if round % 2 == 0 {
                (dense, (state % 24) as usize)
            } else {
                (sparse, (state % 80) as usize)
            };
            let text: String = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize] as char
                })
                .collect();
            let (lexer, scanner) = structure_both_ways(&text);
            assert_eq!(lexer, scanner, "{text:?}");
        }
    }

    #[test]
    fn lines_are_counted_through_comments_and_strings() {
        let text = "/* a\nb */ .entry a() {\nret;\n}\n// x\n.entry b() {\nret;\n}\n";
        let s = split_sections(text, 1);
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].first_line, 4);
    }
}
