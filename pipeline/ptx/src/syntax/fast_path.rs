//! The parser's fast path: the common instruction shapes (guard, opcode, modifiers, registers,
//! immediates, symbols, `[base+offset]` addresses, flat `{...}` vectors), the one-line
//! declarations among them (`.reg`, `.shared [.align N] .b8 buf[N];`, `.pragma "nounroll";`) and
//! the common parameter lists read straight from the bytes, without a token per piece. Anything
//! else (comments inside, odd spacing of `%p|%q`, tensor addresses, call lists, floats in
//! decimal, overflowing constants, errors) leaves the parser untouched and the token parser reads
//! it, so the tree is the token parser's either way (a test compares the two on the corpus and
//! the conformance suite).

use std::sync::Arc;

use crate::ast::{
    AddrBase, Form, Function, Instruction, Name, Operand, RegDecl, Span, StateSpace, Statement,
    Type, VarDecl,
};
use crate::syntax::forms::FormKey;
use crate::syntax::parser::Parser;

/// A read position in the bytes of the parser's section (which end where the section does).
struct Cursor<'s> {
    bytes: &'s [u8],
    pos: usize,
    /// The class of the space skipped between tokens: [`SPACE`], or [`INLINE_SPACE`] inside a
    /// statement (whose lines then need no counting: one that goes on past a line end is
    /// declined).
    space: u8,
}

/// Nothing the fast path reads (the token parser takes over).
struct Declined;

type Read<T> = Result<T, Declined>;

/// Whether an instruction is guarded (its guard pushed), its form, and the byte after the form
/// and any space (the cursor on it).
type Head = (bool, Arc<Form>, u8);

impl<'s> Cursor<'s> {
    #[inline]
    fn peek(&self) -> u8 {
        self.bytes.get(self.pos).copied().unwrap_or(0)
    }

    /// Skips what the lexer skips between tokens, except comments (declined when met): the
    /// byte it stops at (0 at the end).
    #[inline]
    fn skip_space(&mut self) -> u8 {
        loop {
            let b = self.peek();
            // Every space byte is at most `' '`; most bytes met here are above it.
            if b > b' ' || !is(b, self.space) {
                return b;
            }
            self.pos += 1;
        }
    }

    /// Moves past the bytes of `class` from here. Name bytes (with or without `.` and `:`, the
    /// classes most bytes of a module belong to) are tested sixteen at a time where the text goes
    /// on that far.
    #[inline]
    fn skip_class(&mut self, class: u8) {
        #[cfg(target_arch = "x86_64")]
        if class == NAME || class == FORM {
            while self.pos + 16 <= self.bytes.len() {
                // SAFETY: SSE2 is part of x86_64, and the 16 bytes read lie inside `bytes`.
                let outside = unsafe {
                    crate::syntax::wide::outside_names(
                        self.bytes.as_ptr().add(self.pos),
                        class == FORM,
                    )
                };
                if outside != 0 {
                    self.pos += outside.trailing_zeros() as usize;
                    return;
                }
                self.pos += 16;
            }
        }
        while let Some(&b) = self.bytes.get(self.pos) {
            if !is(b, class) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips space and `//` comments up to the next statement's first byte, adding the line
    /// ends passed to `line`: false at the end of the text, or where a statement can't start (a
    /// brace, a block comment), which the token parser then reads.
    #[inline(always)]
    fn skip_space_and_line_comments(&mut self, line: &mut u32) -> bool {
        loop {
            match self.peek() {
                b'\n' => {
                    *line += 1;
                    self.pos += 1;
                }
                b if b <= b' ' && is(b, SPACE) => self.pos += 1,
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'/') => self.skip_to_line_end(),
                b'@' | b'%' | b'.' => return true,
                b => return is(b, IDENT_START),
            }
        }
    }

    /// Moves to the next line end (or the end of the text). Not inlined: it would crowd the
    /// statement loop, which most lines cross without a comment.
    #[inline(never)]
    fn skip_to_line_end(&mut self) {
        #[cfg(target_arch = "x86_64")]
        while self.pos + 16 <= self.bytes.len() {
            // SAFETY: SSE2 is part of x86_64, and the 16 bytes read lie inside `bytes`.
            let ends = unsafe { crate::syntax::wide::line_ends(self.bytes.as_ptr().add(self.pos)) };
            if ends != 0 {
                self.pos += ends.trailing_zeros() as usize;
                return;
            }
            self.pos += 16;
        }
        while self.bytes.get(self.pos).is_some_and(|&b| b != b'\n') {
            self.pos += 1;
        }
    }

    /// The next byte after any space, moved past (0 at the end).
    #[inline]
    fn next_byte_past_space(&mut self) -> u8 {
        let b = self.skip_space();
        self.pos += 1;
        b
    }

    #[inline]
    fn eat(&mut self, b: u8) -> bool {
        if self.skip_space() == b {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// The longest run from here of bytes of class `more`, after a first byte of class `first`
    /// (classes are bits of [`CLASS`]).
    #[inline]
    fn word(&mut self, first: u8, more: u8) -> Read<&'s str> {
        let start = self.pos;
        if !is(self.peek(), first) {
            return Err(Declined);
        }
        self.pos += 1;
        self.skip_class(more);
        // SAFETY: the bytes are ASCII (every accepted byte is), cut from a `&str`.
        Ok(unsafe { std::str::from_utf8_unchecked(&self.bytes[start..self.pos]) })
    }

    /// The key and length of the word from here (see [`FormKey`]), where it is shorter than
    /// 32 bytes and the text goes on that far.
    #[inline]
    fn word_key(&self) -> Option<(FormKey, usize)> {
        #[cfg(target_arch = "x86_64")]
        if self.pos + 32 <= self.bytes.len() {
            // SAFETY: SSE2 is part of x86_64, and the 32 bytes read lie inside `bytes`.
            return unsafe { crate::syntax::wide::word_key(self.bytes.as_ptr().add(self.pos)) };
        }
        None
    }

    /// `%name`, the lexer's `Percent` token, from here (callers have skipped space).
    fn percent_name(&mut self) -> Read<&'s str> {
        let start = self.pos;
        if self.peek() != b'%' {
            return Err(Declined);
        }
        self.pos += 1;
        self.word(NAME, NAME)?;
        Ok(text(self.bytes, start, self.pos))
    }

    /// A `%` name of under sixteen bytes from here (where the text goes on sixteen bytes), moved
    /// past: the name, whether its number is zero-padded (`%r01`), and whether it is a plain
    /// register (see [`plain_register`]). None (not moved) for anything else, which
    /// [`Cursor::percent_name`] reads.
    #[inline]
    fn short_percent_name(&mut self) -> Option<(Name, bool, bool)> {
        #[cfg(target_arch = "x86_64")]
        if self.peek() == b'%' && self.pos + 16 <= self.bytes.len() {
            // SAFETY: SSE2 is part of x86_64, and the 16 bytes read lie inside `bytes`.
            let (text, len, padded) = unsafe {
                crate::syntax::wide::short_percent_name(self.bytes.as_ptr().add(self.pos))
            }?;
            if len > 1 {
                self.pos += len;
                // SAFETY: the `%` and name bytes are ASCII, and `text` is zero past them.
                let name = unsafe { Name::from_low_bytes(len, text) };
                return Some((name, padded, plain_register(text)));
            }
        }
        None
    }

    /// An identifier, the lexer's `Ident` token, from here (callers have skipped space).
    fn ident(&mut self) -> Read<&'s str> {
        self.word(IDENT_START, NAME)
    }

    /// `.name` or `.a::b`, the lexer's `Dot` token, without its dot.
    fn modifier(&mut self) -> Read<&'s str> {
        let start = self.pos + 1;
        if self.peek() != b'.' {
            return Err(Declined);
        }
        self.pos += 1;
        self.word(WORD, NAME)?;
        while self.peek() == b':' && self.bytes.get(self.pos + 1) == Some(&b':') {
            self.pos += 2;
            self.word(WORD, WORD)?;
        }
        Ok(text(self.bytes, start, self.pos))
    }

    /// `[-]digits` or `[-]0x...` with an optional `U`, as the token parser's `integer`: the
    /// value, or declined (floats, overflow and octal oddities are the token parser's). The
    /// common short decimal is read here, inline; the rest by [`Cursor::any_integer`].
    #[inline(always)]
    fn integer(&mut self) -> Read<i128> {
        self.skip_space();
        self.integer_here()
    }

    /// [`Cursor::integer`] from here, where no space comes first.
    #[inline(always)]
    fn integer_here(&mut self) -> Read<i128> {
        match self.short_decimal() {
            Some(v) => Ok(v),
            None => self.any_integer(),
        }
    }

    /// [`Cursor::integer`] of any form.
    #[inline(never)]
    fn any_integer(&mut self) -> Read<i128> {
        let neg = self.skip_space() == b'-';
        if neg {
            self.pos += 1;
            self.skip_space();
        }
        let start = self.pos;
        if !self.peek().is_ascii_digit() {
            return Err(Declined);
        }
        let v = if self.at_plain_decimal() {
            self.decimal()?
        } else {
            // Hex, octal and their oddities, as the token parser reads them.
            if matches!(self.bytes.get(self.pos + 1), Some(b'x' | b'X')) {
                self.pos += 2;
                self.word(HEX, HEX)?;
            } else {
                self.word(DIGIT, DIGIT)?;
            }
            if matches!(self.peek(), b'u' | b'U') {
                self.pos += 1;
            }
            crate::syntax::parser::parse_int(text(self.bytes, start, self.pos)).ok_or(Declined)?
        };
        if is(self.peek(), NAME) || self.peek() == b'.' {
            return Err(Declined);
        }
        Ok(if neg { -v } else { v })
    }

    /// At decimal digits that don't start with a `0` unless it stands alone (no hex, octal or
    /// hex-float prefix).
    #[inline]
    fn at_plain_decimal(&self) -> bool {
        let first = self.peek();
        first.is_ascii_digit()
            && (first != b'0' || !is(self.bytes.get(self.pos + 1).copied().unwrap_or(0), NAME))
    }

    /// Decimal digits (not starting with a `0` unless alone) and an optional `U`, accumulated as
    /// ptxas does (see `parser::parse_int`); an overflow is declined, for the token parser to
    /// report.
    #[inline]
    fn decimal(&mut self) -> Read<i128> {
        let mut v: u64 = 0;
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_digit() {
                break;
            }
            if v >> 63 != 0 {
                return Err(Declined);
            }
            v = v.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            self.pos += 1;
        }
        if matches!(self.peek(), b'u' | b'U') {
            self.pos += 1;
        }
        Ok(i128::from(v))
    }

    /// The common integer, a decimal of at most 18 digits (no sign, no leading `0` unless alone,
    /// no `U`) from here that the next byte ends (not a name byte or `.`): its value, with the
    /// cursor past it, as [`Cursor::integer`] reads it. None (not moved) for anything else, which
    /// [`Cursor::integer`] then reads.
    #[inline(always)]
    fn short_decimal(&mut self) -> Option<i128> {
        let start = self.pos;
        let (mut at, mut v) = (start, 0u64);
        loop {
            let d = self.bytes.get(at).copied().unwrap_or(0).wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // At most 18 digits are taken: below 10^18, no overflow.
            v = v * 10 + u64::from(d);
            at += 1;
            if at - start > 18 {
                return None;
            }
        }
        let n = at - start;
        let next = self.bytes.get(at).copied().unwrap_or(0);
        if n == 0 || (n > 1 && self.bytes[start] == b'0') || is(next, NAME) || next == b'.' {
            return None;
        }
        self.pos = at;
        Some(i128::from(v))
    }

    /// The common list entry, `[space]decimal[space]` before a `,` or `}` (no sign, hex or
    /// octal): its value and that next byte, with the cursor on it. None for anything else, which
    /// [`Cursor::integer`] then reads.
    #[inline]
    fn small_decimal_entry(&mut self) -> Option<(i128, u8)> {
        self.skip_space();
        if !self.at_plain_decimal() {
            return None;
        }
        let v = self.decimal().ok()?;
        self.skip_space();
        let next = self.peek();
        matches!(next, b',' | b'}').then_some((v, next))
    }

    /// `0fXXXXXXXX` / `0dXXXXXXXXXXXXXXXX`: exactly the hex digits the lexer's float tokens take.
    fn hex_float(&mut self) -> Read<Operand> {
        let (kind, digits) = match self.bytes.get(self.pos + 1) {
            Some(b'f' | b'F') => (b'f', 8),
            Some(b'd' | b'D') => (b'd', 16),
            _ => return Err(Declined),
        };
        let start = self.pos + 2;
        let end = start + digits;
        if end > self.bytes.len() || !self.bytes[start..end].iter().all(|&b| is(b, HEX)) {
            return Err(Declined);
        }
        self.pos = end;
        if is(self.peek(), NAME) || self.peek() == b'.' {
            return Err(Declined);
        }
        let t = text(self.bytes, start, end);
        Ok(match kind {
            b'f' => Operand::F32(u32::from_str_radix(t, 16).map_err(|_| Declined)?),
            _ => Operand::F64(u64::from_str_radix(t, 16).map_err(|_| Declined)?),
        })
    }
}

/// Whether the `%` name whose bytes are the low bytes of `text` (zero past its end) is one of
/// the usual registers, a lowercase letter or up to three then a digit (`%r12`, `%rd3`,
/// `%fd1`), but not `%pm<n>`: no special register (see `parser::is_special_register`), told
/// from the bytes in hand without reading the name back.
#[inline(always)]
fn plain_register(text: u128) -> bool {
    let byte = |i: u32| (text >> (8 * i)) as u8;
    let lower = |i: u32| byte(i).is_ascii_lowercase();
    let digit = |i: u32| byte(i).is_ascii_digit();
    lower(1)
        && (digit(2)
            || lower(2)
                && (digit(3) || lower(3) && digit(4))
                && (text >> 8) as u16 != u16::from_le_bytes(*b"pm"))
}

fn text(bytes: &[u8], start: usize, end: usize) -> &str {
    // SAFETY: callers cut at ASCII bytes they accepted, inside a `&str`.
    unsafe { std::str::from_utf8_unchecked(&bytes[start..end]) }
}

/// Byte classes of the lexer's tokens, as bits of [`CLASS`]: name bytes (`[A-Za-z0-9_$]`),
/// word bytes (no `$`), identifier starts (`[A-Za-z_$]`), decimal and hex digits.
const NAME: u8 = 1;
const WORD: u8 = 2;
const IDENT_START: u8 = 4;
const DIGIT: u8 = 8;
const HEX: u8 = 16;
/// What the lexer skips between tokens: `[ \t\r\n\f]`.
const SPACE: u8 = 32;
/// Space within a line: `[ \t\r\f]`.
const INLINE_SPACE: u8 = 128;
/// Bytes of an instruction's form as written without space: name bytes, `.` and `:`.
const FORM: u8 = 64;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let alpha = c.is_ascii_alphabetic();
        let digit = c.is_ascii_digit();
        if alpha || digit || c == b'_' || c == b'$' {
            t[b] |= NAME;
        }
        if alpha || digit || c == b'_' {
            t[b] |= WORD;
        }
        if alpha || c == b'_' || c == b'$' {
            t[b] |= IDENT_START;
        }
        if digit {
            t[b] |= DIGIT;
        }
        if c.is_ascii_hexdigit() {
            t[b] |= HEX;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0c) {
            t[b] |= SPACE;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | 0x0c) {
            t[b] |= INLINE_SPACE;
        }
        if alpha || digit || matches!(c, b'_' | b'$' | b'.' | b':') {
            t[b] |= FORM;
        }
        b += 1;
    }
    t
};

#[inline]
fn is(b: u8, class: u8) -> bool {
    CLASS[b as usize] & class != 0
}

impl<'s> Parser<'s> {
    /// Reads the statements from the current token on, as long as they are labels, instructions
    /// or declarations of common shapes, straight from the bytes into the body buffer and `f`'s
    /// declarations; then the token stream resumes after the last one. False (with nothing
    /// changed) when the first statement is not one the fast path reads.
    pub(crate) fn fast_statements(&mut self, f: &mut Function) -> bool {
        let Some(first) = self.cur else { return false };
        let mut c = Cursor {
            bytes: &self.src.as_bytes()[..self.end as usize],
            pos: first.start as usize,
            space: INLINE_SPACE,
        };
        let mut line = self.lines.line(first.start);
        let mut read = 0;
        let mut last_line = line;
        while let Some(end) = self.fast_statement(&mut c, line, f) {
            read += 1;
            last_line = line;
            c.pos = end;
            if !c.skip_space_and_line_comments(&mut line) {
                break;
            }
        }
        if read > 0 {
            // The last statement read ends on the line it starts on.
            self.lines.seek(self.prev_end, last_line);
            self.resume_tokens_at(self.prev_end as usize, read);
        }
        read > 0
    }

    /// One label, instruction or declaration from `c.pos` (at its first byte, on `line`) into
    /// the body buffer or `f`'s declarations: the end of its last byte (also left in `prev_end`),
    /// or None with nothing changed.
    fn fast_statement(&mut self, c: &mut Cursor<'s>, line: u32, f: &mut Function) -> Option<usize> {
        let start = c.pos;
        if c.peek() == b'.' {
            return self.fast_declaration(c, line, f);
        }
        // Labels are tried first where an instruction rarely starts (`$L__BB0_1:`, `%l:`), last
        // elsewhere (`BB0_1:`).
        let label_first = matches!(c.peek(), b'$' | b'%');
        if label_first {
            if let Some(end) = self.fast_label(c, line) {
                return Some(end);
            }
            c.pos = start;
        }
        if let Some(end) = self.fast_instruction(c, line) {
            return Some(end);
        }
        if label_first {
            return None;
        }
        c.pos = start;
        self.fast_label(c, line)
    }

    /// One instruction from `c.pos` (at its first byte) into the body buffer: the end of its last
    /// byte (also left in `prev_end`), or None with nothing changed.
    fn fast_instruction(&mut self, c: &mut Cursor<'s>, line: u32) -> Option<usize> {
        let start = c.pos;
        let first = self.operands_buf.len();
        let (guarded, form, next) = match self.fast_head(c) {
            Ok(head) => head,
            Err(Declined) => {
                self.operands_buf.truncate(first);
                return None;
            }
        };
        if self.fast_operands(c, next).is_err() {
            self.operands_buf.truncate(first);
            return None;
        }
        let operands = self.operands_since(first, guarded);
        let span = Span {
            start: start as u32,
            end: c.pos as u32,
        };
        self.body_buf.push(Statement::Instr(Instruction {
            form,
            operands,
            line,
            span,
        }));
        self.prev_end = c.pos as u32;
        Some(c.pos)
    }

    /// `name:` or `%name:` (as the token parser reads a label).
    fn fast_label(&mut self, c: &mut Cursor<'s>, line: u32) -> Option<usize> {
        let start = c.pos;
        let name = if c.peek() == b'%' {
            c.percent_name().ok()?
        } else {
            c.ident().ok()?
        };
        if !c.eat(b':') {
            return None;
        }
        let span = Span {
            start: start as u32,
            end: c.pos as u32,
        };
        self.blocks.label();
        self.body_buf.push(Statement::Label {
            name: name_in(self.src, name),
            line,
            span,
        });
        self.prev_end = c.pos as u32;
        Some(c.pos)
    }

    /// Reads a flat `{n, n, ...}` list of integers (at the current `{` token) straight from the
    /// bytes onto `vals`, as the token parser reads one; false (with nothing changed) for
    /// anything else: nested braces, floats, symbols, comments, overflowing constants.
    pub(crate) fn fast_integer_list(&mut self, vals: &mut Vec<i128>) -> bool {
        let Some(open) = self.cur else { return false };
        let mut c = Cursor {
            bytes: &self.src.as_bytes()[..self.end as usize],
            pos: open.start as usize + 1,
            space: SPACE,
        };
        let before = vals.len();
        if c.eat(b'}') {
            return self.finish_list(c.pos);
        }
        loop {
            let start = c.pos;
            let (value, next) = match c.small_decimal_entry() {
                Some(entry) => entry,
                None => {
                    c.pos = start;
                    let Ok(v) = c.integer() else { break };
                    (v, c.skip_space())
                }
            };
            vals.push(value);
            c.pos += 1;
            match next {
                b'}' => return self.finish_list(c.pos),
                b',' => {}
                _ => break,
            }
        }
        vals.truncate(before);
        false
    }

    /// A declaration of a common shape on one line from `c.pos` (at its `.`, on `line`): the
    /// registers of `.reg .type %name<N>;` or `.reg .type name;` (see [`reg_declaration`]) onto
    /// `f`'s registers, the variable of `.space [.align N] .type name[N];` (see
    /// [`plain_declarator`]) onto its variables, each as the token parser reads it (into the
    /// same place among the body's blocks): the end of its `;` (also left in `prev_end`), or None
    /// with nothing changed for anything else: vectors, lists, initializers, comments, line
    /// breaks, errors.
    fn fast_declaration(
        &mut self,
        c: &mut Cursor<'s>,
        line: u32,
        f: &mut Function,
    ) -> Option<usize> {
        let start = c.pos;
        let space = match c.modifier().ok()? {
            "reg" => return self.fast_registers(c, start, line, &mut f.regs),
            "pragma" => return self.fast_pragma(c),
            "shared" => StateSpace::Shared,
            "local" => StateSpace::Local,
            "const" => StateSpace::Const,
            "global" => StateSpace::Global,
            "param" => StateSpace::Param,
            _ => return None,
        };
        let declared = plain_declarator(c).ok()?;
        if c.next_byte_past_space() != b';' {
            return None;
        }
        self.blocks.declaration(self.body_buf.len());
        f.vars
            .push(declared.variable(space, start as u32, line, line));
        self.prev_end = c.pos as u32;
        Some(c.pos)
    }

    /// The rest of `.pragma "nounroll";`, which leaves nothing in the tree (see
    /// [`Parser::pragma`]): the end of its `;`, or None for any other pragma.
    fn fast_pragma(&mut self, c: &mut Cursor<'s>) -> Option<usize> {
        const NOUNROLL: &[u8] = b"\"nounroll\"";
        c.skip_space();
        if !c.bytes[c.pos..].starts_with(NOUNROLL) {
            return None;
        }
        c.pos += NOUNROLL.len();
        if c.next_byte_past_space() != b';' {
            return None;
        }
        self.prev_end = c.pos as u32;
        Some(c.pos)
    }

    /// The rest of a `.reg` declaration that starts at `start` (see [`Parser::fast_declaration`]).
    fn fast_registers(
        &mut self,
        c: &mut Cursor<'s>,
        start: usize,
        line: u32,
        out: &mut Vec<RegDecl>,
    ) -> Option<usize> {
        let (ty, name, count) = reg_declaration(c).ok()?;
        self.blocks.declaration(self.body_buf.len());
        out.push(RegDecl {
            name: name.to_string(),
            ty,
            vector: 1,
            count,
            line,
            span: Span {
                start: start as u32,
                end: c.pos as u32,
            },
            scoped: self.depth > 1,
        });
        self.prev_end = c.pos as u32;
        Some(c.pos)
    }

    /// A parameter list of the common shape, `(.param [.align N] .type name[N], ...)` (the
    /// current token is its `(`), read straight from the bytes as [`Parser::param_list`] reads
    /// it, lines included; then the token stream resumes past its `)`. None (with nothing
    /// changed) for anything else: an empty list, `.ptr`, vectors, other state spaces, comments,
    /// errors.
    pub(crate) fn fast_param_list(&mut self) -> Option<Vec<VarDecl>> {
        let open = self
            .cur
            .filter(|t| t.kind == crate::syntax::lexer::Tok::LParen)?;
        let mut c = Cursor {
            bytes: &self.src.as_bytes()[..self.end as usize],
            pos: open.end as usize,
            space: SPACE,
        };
        let mut params = Vec::new();
        loop {
            c.skip_space();
            let start = c.pos;
            if c.modifier().ok()? != "param" {
                return None;
            }
            let declared = plain_declarator(&mut c).ok()?;
            let next = c.skip_space();
            if !matches!(next, b',' | b')') {
                return None;
            }
            // Asked in text order, so the line cursor counts on.
            let type_line = self.lines.line(declared.type_at as u32);
            let line = self.lines.line(declared.after_name as u32);
            params.push(declared.variable(StateSpace::Param, start as u32, line, type_line));
            c.pos += 1;
            if next == b')' {
                break;
            }
        }
        self.finish_list(c.pos);
        Some(params)
    }

    /// The token stream resumes past a list's closing `}` or `)`, which ended at `end`.
    fn finish_list(&mut self, end: usize) -> bool {
        self.prev_end = end as u32;
        self.resume_tokens_at(end, 1);
        true
    }

    /// Guard (onto the operand buffer, as [`Parser::push_guard`] puts it), then the form: opcode
    /// and modifiers.
    fn fast_head(&mut self, c: &mut Cursor<'s>) -> Read<Head> {
        // The cursor is at the statement's first byte (no space before it).
        let guarded = c.peek() == b'@';
        if guarded {
            c.pos += 1;
            let negated = c.eat(b'!');
            let name = match c.skip_space() {
                b'%' => match c.short_percent_name() {
                    Some((name, _, _)) => name,
                    None => name_in(self.src, c.percent_name()?),
                },
                _ => name_in(self.src, c.ident()?),
            };
            self.operands_buf.push(if negated {
                Operand::NotReg(name)
            } else {
                Operand::Reg(name)
            });
            c.skip_space();
        }
        let (form, next) = self.fast_form(c)?;
        Ok((guarded, form, next))
    }

    /// The opcode and modifiers from here, and the byte after them and any space (the cursor on
    /// it). A form the section has written before is found by its text (the run of name, dot and
    /// colon bytes from here) without reading it piece by piece.
    fn fast_form(&mut self, c: &mut Cursor<'s>) -> Read<(Arc<Form>, u8)> {
        let start = c.pos;
        if let Some(form) = self.known_form(c, start) {
            // The text is the whole form unless a modifier follows after space (`ld .global`).
            let next = c.skip_space();
            if next != b'.' {
                return Ok((form, next));
            }
        }
        c.pos = start;
        let opcode = c.ident()?;
        self.mods_buf.clear();
        let mut next = c.skip_space();
        while next == b'.' {
            let m = c.modifier()?;
            self.mods_buf.push(name_in(self.src, m));
            next = c.skip_space();
        }
        // A label (`BB0_1:`), not an instruction: made no form of its name.
        if next == b':' {
            return Err(Declined);
        }
        Ok((self.forms.intern(opcode, &self.mods_buf), next))
    }

    /// The form whose text is the run of form bytes from `start` (the cursor moved past it), if
    /// the table has it: looked up among the recent forms by the key of the word from `start`
    /// first (remembered only where the word is the run, so a word found is the run).
    #[inline]
    fn known_form(&mut self, c: &mut Cursor<'s>, start: usize) -> Option<Arc<Form>> {
        let key = c.word_key();
        if let Some((k, len)) = key {
            if let Some(form) = self.forms.recent(&k) {
                c.pos += len;
                return Some(form.clone());
            }
        }
        c.skip_class(FORM);
        let form = self.forms.get(text(c.bytes, start, c.pos))?.clone();
        if let Some((k, len)) = key {
            if start + len == c.pos {
                self.forms.remember(k, &form);
            }
        }
        Some(form)
    }

    /// Operands up to and including the `;` (into the operand buffer), from `first`, the byte
    /// at the cursor.
    fn fast_operands(&mut self, c: &mut Cursor<'s>, first: u8) -> Read<()> {
        let mut b = first;
        if b == b';' {
            c.pos += 1;
            return Ok(());
        }
        loop {
            // Registers, most operands, and short decimals are read here without the general
            // reader's call.
            let (o, next) = if b == b'%' {
                self.fast_register(c)?
            } else if let Some(v) = b.is_ascii_digit().then(|| c.short_decimal()).flatten() {
                (Operand::Imm(v), c.skip_space())
            } else if b == b'[' {
                (self.fast_address(c)?, c.skip_space())
            } else {
                let o = self.fast_operand(c, b, true)?;
                (o, c.skip_space())
            };
            self.operands_buf.push(o);
            c.pos += 1;
            match next {
                b';' => return Ok(()),
                b',' => {}
                _ => return Err(Declined),
            }
            b = c.skip_space();
        }
    }

    /// The operand that starts with `first`, the byte at the cursor.
    fn fast_operand(
        &mut self,
        c: &mut Cursor<'s>,
        first: u8,
        vector_allowed: bool,
    ) -> Read<Operand> {
        match first {
            b'%' => Ok(self.fast_register(c)?.0),
            b'!' => {
                c.pos += 1;
                c.skip_space();
                let name = self.fast_register_name(c)?;
                Ok(Operand::NotReg(name))
            }
            b'[' => self.fast_address(c),
            b'{' if vector_allowed => self.fast_vector(c),
            b'0' if matches!(c.bytes.get(c.pos + 1), Some(b'f' | b'F' | b'd' | b'D')) => {
                c.hex_float()
            }
            b'-' | b'0'..=b'9' => Ok(Operand::Imm(c.integer_here()?)),
            b if is(b, IDENT_START) => {
                let t = c.ident()?;
                if matches!(c.skip_space(), b'|' | b'+') {
                    return Err(Declined);
                }
                Ok(if t == "_" {
                    Operand::Sink
                } else {
                    Operand::Symbol(name_in(self.src, t))
                })
            }
            _ => Err(Declined),
        }
    }

    /// A `%` register (noted when zero-padded).
    #[inline]
    fn fast_register_name(&mut self, c: &mut Cursor<'s>) -> Read<Name> {
        if let Some((name, padded, _)) = c.short_percent_name() {
            self.zero_padded_reg |= padded;
            return Ok(name);
        }
        self.long_register_name(c)
    }

    /// [`Parser::fast_register_name`] for the rare names that the one-load reader leaves.
    #[cold]
    #[inline(never)]
    fn long_register_name(&mut self, c: &mut Cursor<'s>) -> Read<Name> {
        let name = name_in(self.src, c.percent_name()?);
        self.note_register(&name);
        Ok(name)
    }

    /// `%r1`, `%tid.x`, `%laneid` (a `%p|%q` pair is declined), and the byte after it and any
    /// space (the cursor on it). Inlined into the operand and vector loops, so that the operand
    /// is built where it is pushed from (a call returns it through memory).
    #[inline(always)]
    fn fast_register(&mut self, c: &mut Cursor<'s>) -> Read<(Operand, u8)> {
        let (name, plain) = match c.short_percent_name() {
            Some((name, padded, plain)) => {
                self.zero_padded_reg |= padded;
                (name, plain)
            }
            None => (self.long_register_name(c)?, false),
        };
        match c.skip_space() {
            b'|' => Err(Declined),
            b'.' => {
                let comp = c.modifier()?;
                let o = match comp {
                    "x" | "y" | "z" | "w" | "r" | "g" | "b" | "a" => Operand::SpecialReg {
                        name,
                        comp: comp.chars().next(),
                    },
                    _ => return Err(Declined),
                };
                Ok((o, c.skip_space()))
            }
            next if !plain && crate::syntax::parser::is_special_register(&name) => {
                Ok((Operand::SpecialReg { name, comp: None }, next))
            }
            next => Ok((Operand::Reg(name), next)),
        }
    }

    /// `[%rd1]`, `[%rd1+8]`, `[sym]`, `[sym+8]`, `[64]` (a `-` after the base, which ptxas
    /// refuses, and any longer expression go to the token parser).
    #[inline(never)]
    fn fast_address(&mut self, c: &mut Cursor<'s>) -> Read<Operand> {
        c.pos += 1;
        let base = match c.skip_space() {
            b'%' => AddrBase::Reg(self.fast_register_name(c)?),
            b if is(b, IDENT_START) => AddrBase::Symbol(name_in(self.src, c.ident()?)),
            _ => AddrBase::None,
        };
        let mut next = c.skip_space();
        let offset = match (&base, next) {
            (AddrBase::None, _) => c.integer_here()?,
            (_, b'+') => {
                c.pos += 1;
                c.integer()?
            }
            (_, b'-') => return Err(Declined),
            _ => return self.address_end(c, base, 0, next),
        };
        next = c.skip_space();
        self.address_end(c, base, offset, next)
    }

    /// The address of `base` and `offset` at its `]`, `next` (the byte at the cursor).
    #[inline(always)]
    fn address_end(
        &mut self,
        c: &mut Cursor<'s>,
        base: AddrBase,
        offset: i128,
        next: u8,
    ) -> Read<Operand> {
        if next != b']' {
            return Err(Declined);
        }
        c.pos += 1;
        Ok(Operand::Addr {
            base,
            offset: offset as i64,
        })
    }

    /// `{a, b, ...}` of plain operands (nested braces are declined).
    fn fast_vector(&mut self, c: &mut Cursor<'s>) -> Read<Operand> {
        c.pos += 1;
        let mut v = Vec::with_capacity(4);
        loop {
            let b = c.skip_space();
            let (o, next) = if b == b'%' {
                self.fast_register(c)?
            } else {
                let o = self.fast_operand(c, b, false)?;
                (o, c.skip_space())
            };
            v.push(o);
            c.pos += 1;
            match next {
                b'}' => return Ok(Operand::Vector(v)),
                b',' => {}
                _ => return Err(Declined),
            }
        }
    }

    /// Restarts the token stream at byte `pos` (just past the last statement read), as if the
    /// token parser had consumed the `statements` just read.
    fn resume_tokens_at(&mut self, pos: usize, statements: usize) {
        self.consumed += statements;
        self.start_tokens_at(pos as u32, pos as u32 - 1);
    }
}

/// What follows `.reg` in `.reg .type %name<N>;` or `.reg .type name;`, up to and including
/// the `;`: the type, the name and the count. Declined for anything the token parser reads
/// otherwise or reports (`.bf16`, a negative or overflowing count).
fn reg_declaration<'s>(c: &mut Cursor<'s>) -> Read<(Type, &'s str, Option<u64>)> {
    c.skip_space();
    let ty = Type::from_mod(c.modifier()?).ok_or(Declined)?;
    if matches!(ty, Type::BF16 | Type::BF16x2) {
        return Err(Declined);
    }
    let name = if c.skip_space() == b'%' {
        c.percent_name()?
    } else {
        c.ident()?
    };
    let count = if c.eat(b'<') {
        if c.skip_space() == b'-' {
            return Err(Declined);
        }
        let n = c.integer()?;
        if !c.eat(b'>') {
            return Err(Declined);
        }
        Some(n.max(0) as u64)
    } else {
        None
    };
    if !c.eat(b';') {
        return Err(Declined);
    }
    Ok((ty, name, count))
}

/// What [`plain_declarator`] reads: the specifiers and the one declarator of a common variable
/// declaration (offsets are into the text).
struct Declared<'s> {
    align: u32,
    ty: Type,
    /// Where the type starts (the line ptxas gives for it) and ends (where the specifiers do).
    type_at: usize,
    type_end: usize,
    name: &'s str,
    name_at: usize,
    /// Where the token after the name starts (ptxas gives the declarator the line it is on).
    after_name: usize,
    /// The product of the array lengths (1 for a scalar, None with a `[]`).
    array_len: Option<u64>,
    is_array: bool,
    /// The end of the declarator (its name, or its last `]`).
    end: usize,
}

impl Declared<'_> {
    /// The variable declared, in a statement (or parameter) that starts at `start`, on `line`
    /// (that of the token after the name) with its type on `type_line`: as
    /// [`Parser::declarator`] makes it.
    fn variable(&self, space: StateSpace, start: u32, line: u32, type_line: u32) -> VarDecl {
        VarDecl {
            space,
            name: self.name.to_string(),
            ty: self.ty,
            align: self.align,
            array_len: self.array_len,
            is_array: self.is_array,
            vector: 1,
            line,
            type_line,
            span: Span {
                start,
                end: (self.end as u32).max(start),
            },
            specifiers_end: self.type_end as u32,
            name_at: self.name_at as u32,
            init: Vec::new(),
            pointee: None,
            range: None,
        }
    }
}

/// What follows the state space in the common variable declaration `[.align N] .type name[N]`
/// (arrays of any dimensions, `[]` too), up to the declarator's end; the cursor is left there.
/// Declined for anything the token parser reads otherwise or reports: an alignment that is not
/// a power of two, `.bf16` and `.pred` (a syntax error, an array error), vectors, `.ptr`, a
/// second state space, a range (`%r<4>`), negative or overflowing lengths.
fn plain_declarator<'s>(c: &mut Cursor<'s>) -> Read<Declared<'s>> {
    c.skip_space();
    let mut type_at = c.pos;
    let mut m = c.modifier()?;
    let mut align = 0;
    if m == "align" {
        if !c.skip_space().is_ascii_digit() {
            return Err(Declined);
        }
        let n = c.integer()?;
        if !(n as u64).is_power_of_two() {
            return Err(Declined);
        }
        align = n as u32;
        c.skip_space();
        type_at = c.pos;
        m = c.modifier()?;
    }
    let ty = Type::from_mod(m).ok_or(Declined)?;
    if matches!(ty, Type::BF16 | Type::BF16x2 | Type::Pred) {
        return Err(Declined);
    }
    let type_end = c.pos;
    let name_at = match c.skip_space() {
        b'%' => c.pos,
        b if is(b, IDENT_START) => c.pos,
        _ => return Err(Declined),
    };
    let name = if c.peek() == b'%' {
        c.percent_name()?
    } else {
        c.ident()?
    };
    let end = c.pos;
    c.skip_space();
    let after_name = c.pos;
    let (mut array_len, mut is_array, mut end) = (Some(1u64), false, end);
    while c.skip_space() == b'[' {
        c.pos += 1;
        is_array = true;
        if !c.eat(b']') {
            if !c.skip_space().is_ascii_digit() {
                return Err(Declined);
            }
            let n = c.integer()?.max(0) as u64;
            array_len = array_len.map(|a| a.saturating_mul(n));
            if !c.eat(b']') {
                return Err(Declined);
            }
        } else {
            array_len = None;
        }
        end = c.pos;
    }
    Ok(Declared {
        align,
        ty,
        type_at,
        type_end,
        name,
        name_at,
        after_name,
        array_len,
        is_array,
        end,
    })
}

/// The [`Name`] of `piece`, a slice of `src`: one of under sixteen bytes where `src` goes on
/// sixteen bytes from it is cut out with one load.
#[inline]
fn name_in(src: &str, piece: &str) -> Name {
    let start = piece.as_ptr() as usize - src.as_ptr() as usize;
    #[cfg(target_arch = "x86_64")]
    if piece.len() < 16 && start + 16 <= src.len() {
        // SAFETY: SSE2 is part of x86_64; the 16 bytes read lie inside `src`, and the name's
        // bytes (under sixteen, all of `piece`, UTF-8) are kept with zeros past them.
        unsafe {
            let text = crate::syntax::wide::low_bytes(src.as_ptr().add(start), piece.len());
            return Name::from_low_bytes(piece.len(), text);
        }
    }
    Name::within(src, start, start + piece.len())
}

#[cfg(test)]
mod tests {
    use crate::syntax::parser::Parser;

    fn takes(instr: &str) -> bool {
        let mut p = Parser::new(instr, "t.ptx");
        p.fast_statements(&mut Default::default())
    }

    /// The sixteen-at-a-time skip stops where the byte-by-byte one does, for every byte value
    /// at every place in and after a block.
    #[test]
    fn wide_skips_agree_with_the_byte_table() {
        use super::{is, Cursor, FORM, NAME, SPACE};
        for class in [NAME, FORM] {
            for b in 0..=255u8 {
                for at in 0..40 {
                    let mut bytes = vec![b'a'; 48];
                    bytes[at] = b;
                    let mut c = Cursor {
                        bytes: &bytes,
                        pos: 0,
                        space: SPACE,
                    };
                    c.skip_class(class);
                    let want = bytes
                        .iter()
                        .position(|&x| !is(x, class))
                        .unwrap_or(bytes.len());
                    assert_eq!(c.pos, want, "byte {b:#x} at {at}");
                }
            }
        }
    }

    /// The one-load `%` name reader agrees with the byte-by-byte one and with
    /// `zero_padded_split`, for names of every length from mixes of letters, digits and zeros.
    #[test]
    fn short_percent_names_agree_with_the_byte_reader() {
        use super::{Cursor, SPACE};
        let pieces = ["r", "rd", "0", "1", "09", "00", "_", "$", "x7", "10"];
        let mut names = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = names
                .iter()
                .flat_map(|n| pieces.iter().map(move |p| format!("{n}{p}")))
                .collect();
            names.extend(longer);
        }
        for name in &names {
            for end in [",", ";", " ", ".x", "\u{e9}", "+4]"] {
                let text = format!("%{name}{end}{}", " ".repeat(20));
                let mut short = Cursor {
                    bytes: text.as_bytes(),
                    pos: 0,
                    space: SPACE,
                };
                let mut bytewise = Cursor {
                    bytes: text.as_bytes(),
                    pos: 0,
                    space: SPACE,
                };
                let want = bytewise.percent_name().ok();
                match short.short_percent_name() {
                    Some((got, padded, plain)) => {
                        assert_eq!(Some(&*got), want, "{text:?}");
                        assert_eq!(short.pos, bytewise.pos, "{text:?}");
                        let split = crate::ast::zero_padded_split(&got).is_some();
                        assert_eq!(padded, split, "{text:?}");
                        if plain {
                            assert!(
                                !crate::syntax::parser::is_special_register(&got),
                                "{text:?}"
                            );
                        }
                    }
                    None => assert!(name.len() >= 15 || want.is_none(), "{text:?}"),
                }
            }
        }
    }

    /// The one-load name of a piece is the name `Name::within` makes, for pieces of every
    /// length at every place, near the end of the text too.
    #[test]
    fn names_in_agree_with_within() {
        let src = "$L__BB0_12:abcdefghijklmnopqrstuvwxyz_0123456789$";
        for start in 0..src.len() {
            for end in start..=src.len() {
                let got = super::name_in(src, &src[start..end]);
                let want = crate::ast::Name::within(src, start, end);
                assert!(got == want, "{start}..{end}");
                assert_eq!(&*got, &src[start..end]);
            }
        }
    }

    /// No special register counts as a plain one, and the usual registers do.
    #[test]
    fn plain_registers_are_no_special_ones() {
        use super::{Cursor, SPACE};
        let plain = |name: &str| {
            let text = format!("{name},{}", " ".repeat(20));
            let mut c = Cursor {
                bytes: text.as_bytes(),
                pos: 0,
                space: SPACE,
            };
            c.short_percent_name().map(|(_, _, plain)| plain)
        };
        for name in [
            "%laneid",
            "%warpid",
            "%nwarpid",
            "%smid",
            "%clock",
            "%clock64",
            "%pm0",
            "%pm7",
            "%pm0_64",
            "%envreg1",
            "%envreg31",
            "%tid",
            "%ntid",
            "%ctaid",
            "%gridid",
            "%a1",
        ] {
            let special = crate::syntax::parser::is_special_register(name);
            assert!(plain(name) != Some(true) || !special, "{name}");
        }
        for name in ["%r1", "%rd12", "%fd3", "%rs0", "%p9", "%abc1", "%f10"] {
            assert_eq!(plain(name), Some(true), "{name}");
        }
        for name in ["%pm1", "%envreg1", "%r", "%abcd1", "%R1", "%_1"] {
            assert_eq!(plain(name), Some(false), "{name}");
        }
    }

    /// The 32-byte word key covers the bytes up to the first space, control byte, `;` or
    /// non-ASCII byte, and keys of different words differ.
    #[test]
    fn word_keys_cover_the_word() {
        use super::{Cursor, SPACE};
        let mut keys = std::collections::HashMap::new();
        for len in 0..34 {
            for end in [b' ', b'\t', b'\n', b';', b'\0', 0x7f, 0xc3] {
                let mut bytes: Vec<u8> = (0..len).map(|i| b"ld.global::x_$9,%"[i % 17]).collect();
                bytes.push(end);
                bytes.extend([b'a'; 40]);
                let c = Cursor {
                    bytes: &bytes,
                    pos: 0,
                    space: SPACE,
                };
                let word = bytes
                    .iter()
                    .position(|&b| b <= b' ' || b == b';' || b >= 0x80)
                    .unwrap_or(bytes.len());
                let key = c.word_key();
                assert_eq!(key.is_some(), cfg!(target_arch = "x86_64") && word < 32);
                if let Some((k, n)) = key {
                    assert_eq!(n, word, "{len} {end}");
                    let run = bytes[..n].to_vec();
                    assert_eq!(*keys.entry(k.0).or_insert_with(|| run.clone()), run);
                }
            }
        }
    }

    /// The inline short decimal gives what the general integer reader gives (value and end),
    /// or leaves the text to it, for numbers of every length, leading zeros and suffixes.
    #[test]
    fn short_decimals_agree_with_the_integer_reader() {
        use super::{Cursor, INLINE_SPACE};
        let mut numbers = vec![String::new(), "-5".into(), "- 5".into(), "0x1f".into()];
        for len in 1..22 {
            numbers.push("9".repeat(len));
            numbers.push(format!("1{}", "0".repeat(len - 1)));
            numbers.push(format!("0{}", "7".repeat(len - 1)));
            numbers.push(format!("18446744073709551615{}", "1".repeat(len % 3)));
        }
        for n in &numbers {
            for end in [
                "", ",", ";", "]", " ", "u", "U", "x", ".5", "e", "\u{e9}", "_",
            ] {
                let text = format!("{n}{end}");
                let mut quick = Cursor {
                    bytes: text.as_bytes(),
                    pos: 0,
                    space: INLINE_SPACE,
                };
                let mut general = Cursor {
                    bytes: text.as_bytes(),
                    pos: 0,
                    space: INLINE_SPACE,
                };
                let (a, b) = (quick.integer().ok(), general.any_integer().ok());
                assert_eq!(a, b, "{text:?}");
                if a.is_some() {
                    assert_eq!(quick.pos, general.pos, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn takes_the_common_shapes() {
        for i in [
            "@!%p1 bra $L__BB0_1;",
            "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];",
            "st.shared.u32 [%r4+-4], %r5;",
            "mov.u32 %r1, %tid.x;",
            "mov.f32 %f1, 0f3F800000;",
            "add.s64 %rd1, %rd2, -0x10;",
            "ld.param.u64 %rd1, [_Z6kernelPfS_i_param_0];",
            "selp.b32 %r1, 1, 0, !%p2;",
            "ld.global.L1::evict_last.u32 %r1, [%rd1];",
            "bar.sync 0;",
            "ret;",
            ".reg .b64 %rd<9>;",
            ".shared .align 4 .b8 _ZZ12block_reduceE3buf[1024];",
            ".local .u32 l;",
            ".param .b64 param0;",
            ".pragma \"nounroll\";",
        ] {
            assert!(takes(i), "{i}");
        }
    }

    #[test]
    fn takes_the_common_parameter_lists() {
        for (list, count) in [
            ("(.param .u64 a, .param .u64 b)", 2),
            ("(\n\t.param .align 8 .b8 a[16],\n\t.param .u32 b\n)", 2),
            ("(.param .b8 a[])", 1),
        ] {
            let mut p = Parser::new(list, "t.ptx");
            assert_eq!(p.fast_param_list().map(|v| v.len()), Some(count), "{list}");
        }
        for list in [
            "()",
            "(.param .u64 .ptr a)",
            "(.reg .u32 a)",
            "(.param .u32 a,)",
        ] {
            let mut p = Parser::new(list, "t.ptx");
            assert!(p.fast_param_list().is_none(), "{list}");
        }
    }

    #[test]
    fn leaves_the_rest_to_the_token_parser() {
        for i in [
            "setp.eq.s32 %p1|%p2, %r1, 0;",
            "mov.f32 %f1, 1.5;",
            "call (%r1), f, (%r2);",
            "add.s32 %r1, /* c */ %r2, 1;",
            "mov.u64 %rd1, g+4;",
            "mov.u32 %r1, %r2",
            ".shared .u32 s = 1;",
            ".shared .u32 s, t;",
            ".shared .v2 .u32 s;",
            ".reg .v2 .b32 %q;",
        ] {
            assert!(!takes(i), "{i}");
        }
    }
}
