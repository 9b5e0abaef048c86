//! The recursive-descent PTX parser: tokens → [`crate::ast::Module`], collecting ptxas-style
//! diagnostics, with byte spans and error recovery at `;`.
//!
//! This file holds the [`Parser`] itself, its token helpers and error recovery, and the module
//! level (`.version`/`.target`, linkage, `.file`/`.loc`, pragmas, `.section`). The rest is in
//! `parser/` by what it reads: `declarations.rs`, `functions.rs` (headers, bodies, blocks),
//! `instructions.rs` (instructions and operands), `const_expr.rs` (an address offset's constant
//! expression) and `buffers.rs` (moving reused buffers into the tree).

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::lexer::{LineCursor, Tok, Token, TokenStream};
use std::mem::MaybeUninit;
use std::sync::Arc;

mod buffers;
mod const_expr;
mod declarations;
mod functions;
mod instructions;

use buffers::{take_exact, take_shared};
use declarations::is_declaration_specifier;
pub(crate) use functions::Blocks;
pub(crate) use instructions::is_special_register;

/// Most errors reported before giving up.
const MAX_ERRORS: usize = 100;
/// Deepest nesting of `{ }` in operands and initializers.
const MAX_NESTING: u32 = 256;

/// Parses a module, or one section of it, pulling tokens from the lexer one at a time (no token
/// vector) and counting lines forward as it goes.
pub struct Parser<'s> {
    pub(crate) src: &'s str,
    /// End of the text this parser reads (its section's end).
    pub(crate) end: u32,
    pub(crate) tokens: TokenStream<'s>,
    /// The current token and the one after it (the only lookahead the grammar needs).
    pub(crate) cur: Option<Token>,
    pub(crate) next: Option<Token>,
    /// Tokens consumed so far (progress checks after error recovery).
    pub(crate) consumed: usize,
    /// Start of the last token seen: where diagnostics at the end of input point.
    pub(crate) last_start: u32,
    /// End of the last consumed token: where spans end.
    pub(crate) prev_end: u32,
    pub(crate) lines: LineCursor<'s>,
    file: String,
    /// Brace depth inside a function body (1 = the body itself).
    pub(crate) depth: u32,
    /// The `{ }` blocks of the body being read, for [`Function::declared_late`].
    pub(crate) blocks: Blocks,
    /// Nesting of recursive operand/initializer parsing (bounded, so no input overflows the stack).
    nesting: u32,
    /// Module-level directives seen (`.version`, `.target`, `.address_size`).
    pub header: ModuleHeader,
    /// Reused buffers for one function's statements and one instruction's modifiers and operands
    /// (taken from and given back to the thread's [`SPARE`]).
    pub(crate) body_buf: Vec<Statement>,
    pub(crate) mods_buf: Vec<Name>,
    pub(crate) operands_buf: Vec<Operand>,
    /// The instruction forms made so far (on this thread: see [`Spare`]), each made once.
    pub(crate) forms: crate::syntax::forms::FormTable,
    /// Whether instructions of common shapes are read by [`crate::syntax::fast_path`] (off only to
    /// compare the two readers in tests).
    pub fast_path: bool,
    /// Whether the current function names a register with a zero-padded number (`%r01`).
    pub(crate) zero_padded_reg: bool,
    /// The `.loc` directives read so far, moved into the module at its end.
    locs: Vec<LocDirective>,
    /// The last `.loc` of the function being read, while no instruction has followed it: its
    /// index in `locs` and the number of statements before it.
    open_loc: Option<(usize, usize)>,
    /// Functions declared in the body being read (`.extern .func f(...);`), module items of their own.
    body_declarations: Vec<Function>,
    /// The texture, sampler and surface references among the parameters of the prototype being
    /// read (line, name, whether declared `.reg`): a `.func` with a body may not take them.
    texture_params: Vec<(u32, String, bool)>,
    /// Whether the header (`.version`, `.target`s, `.address_size`) is over: something else came
    /// (a section after the first starts past a function).
    header_over: bool,
    pub diags: Vec<Diagnostic>,
}

/// The module-level directives a module (or section) set, in the order a serial parse applies them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleHeader {
    pub version: Option<(u32, u32)>,
    pub target: Option<String>,
    /// The last `texmode_*` option of `.target`, to find one contradicting it.
    pub texmode: Option<&'static str>,
    pub address_size: Option<u32>,
}

impl ModuleHeader {
    /// Writes the directives that were set into `m` (later sections override earlier ones).
    pub fn apply(&self, m: &mut Module) {
        if let Some(v) = self.version {
            m.version = v;
        }
        if let Some(t) = &self.target {
            m.target = t.clone();
        }
        if let Some(a) = self.address_size {
            m.address_size = a;
        }
    }
}

/// A parse failure already recorded in `diags`; the caller recovers.
pub struct Failed;

type PResult<T> = Result<T, Failed>;

/// What a parser leaves to the next one on its thread: its buffers, so a worker parsing section
/// after section reuses warm memory instead of growing fresh buffers for each, and its table of
/// instruction forms, so each section does not build the forms the last one already made.
#[derive(Default)]
struct Spare {
    body: Vec<Statement>,
    mods: Vec<Name>,
    operands: Vec<Operand>,
    forms: crate::syntax::forms::FormTable,
}

/// Larger statement and operand buffers (one giant function's) go back to the allocator, not to
/// the thread.
const MAX_SPARE_STATEMENTS: usize = 1 << 16;
const MAX_SPARE_OPERANDS: usize = 1 << 18;
/// A thread keeps at most this many forms between parsers (a long-lived process parsing module
/// after module keeps a bounded table).
const MAX_SPARE_FORMS: usize = 1 << 14;

thread_local! {
    static SPARE: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        let mut spare = Spare {
            body: std::mem::take(&mut self.body_buf),
            mods: std::mem::take(&mut self.mods_buf),
            operands: std::mem::take(&mut self.operands_buf),
            forms: std::mem::take(&mut self.forms),
        };
        if spare.body.capacity() > MAX_SPARE_STATEMENTS {
            spare.body = Vec::new();
        }
        if spare.operands.capacity() > MAX_SPARE_OPERANDS {
            spare.operands = Vec::new();
        }
        if spare.forms.len() > MAX_SPARE_FORMS {
            spare.forms = Default::default();
        }
        spare.body.clear();
        spare.mods.clear();
        spare.operands.clear();
        let _ = SPARE.try_with(|s| s.set(Some(spare)));
    }
}

impl<'s> Parser<'s> {
    /// A parser for the whole of `src`.
    pub fn new(src: &'s str, file: &str) -> Parser<'s> {
        Parser::for_section(src, 0..src.len(), 1, file)
    }

    /// A parser for `src[range]`, which starts on line `first_line`; spans and lines stay
    /// module-wide. Texts past 4 GiB (offsets are 32-bit) get a fatal diagnostic and no tokens.
    pub fn for_section(
        src: &'s str,
        range: std::ops::Range<usize>,
        first_line: u32,
        file: &str,
    ) -> Parser<'s> {
        let too_large = src.len() > u32::MAX as usize;
        let start = if too_large { 0 } else { range.start as u32 };
        let spare = SPARE.with(|s| s.take()).unwrap_or_default();
        let mut p = Parser {
            src,
            end: if too_large { 0 } else { range.end as u32 },
            tokens: TokenStream::new("", start),
            cur: None,
            next: None,
            consumed: 0,
            last_start: start,
            prev_end: start,
            lines: LineCursor::new(src, start, first_line),
            file: file.to_string(),
            depth: 0,
            blocks: Blocks::default(),
            nesting: 0,
            header: ModuleHeader::default(),
            body_buf: spare.body,
            mods_buf: spare.mods,
            operands_buf: spare.operands,
            forms: spare.forms,
            fast_path: true,
            zero_padded_reg: false,
            header_over: range.start > 0,
            body_declarations: Vec::new(),
            locs: Vec::new(),
            open_loc: None,
            texture_params: Vec::new(),
            diags: Vec::new(),
        };
        p.start_tokens_at(start, start);
        if too_large {
            p.error_at(
                1,
                format!(
                    "Input file too large ({} bytes; at most {} supported)",
                    src.len(),
                    u32::MAX
                ),
                true,
            );
        }
        p
    }

    /// Lexes on from byte `pos` to the section's end: the current and next tokens, and where the
    /// current one starts (`fallback` when the text is used up).
    pub(crate) fn start_tokens_at(&mut self, pos: u32, fallback: u32) {
        self.tokens = TokenStream::new(&self.src[pos as usize..self.end as usize], pos);
        self.cur = self.tokens.next();
        self.next = self.tokens.next();
        self.last_start = self.cur.map_or(fallback, |t| t.start);
    }

    // ---- token helpers -------------------------------------------------------------------

    #[inline]
    fn peek(&self) -> Option<Tok> {
        self.cur.map(|t| t.kind)
    }

    #[inline]
    fn peek_second(&self) -> Option<Tok> {
        self.next.map(|t| t.kind)
    }

    /// The text of the token after the current one.
    fn next_text(&self) -> &'s str {
        self.next
            .map_or("", |t| &self.src[t.start as usize..t.end as usize])
    }

    #[inline]
    fn text(&self) -> &'s str {
        match self.cur {
            Some(t) => &self.src[t.start as usize..t.end as usize],
            None => "",
        }
    }

    /// Byte offset of the current token (the end of input once tokens run out).
    fn offset(&self) -> u32 {
        self.cur.map_or(self.last_start, |t| t.start)
    }

    fn line(&mut self) -> u32 {
        let off = self.offset();
        self.lines.line(off)
    }

    /// Moves to the next token.
    #[inline]
    fn advance(&mut self) {
        if let Some(t) = self.cur {
            self.prev_end = t.end;
            self.consumed += 1;
        }
        self.cur = self.next;
        self.next = self.tokens.next();
        if let Some(t) = self.cur {
            self.last_start = t.start;
        }
    }

    #[inline]
    fn bump(&mut self) -> &'s str {
        let t = self.text();
        self.advance();
        t
    }

    /// The span from `start` to the end of the last consumed token.
    fn span_from(&self, start: u32) -> Span {
        Span {
            start,
            end: self.prev_end.max(start),
        }
    }

    #[inline]
    fn eat(&mut self, k: Tok) -> bool {
        if self.peek() == Some(k) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn eat_dot(&mut self, name: &str) -> bool {
        if self.peek() == Some(Tok::Dot) && &self.text()[1..] == name {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, k: Tok) -> PResult<()> {
        if self.eat(k) {
            Ok(())
        } else {
            self.syntax_error()
        }
    }

    /// ptxas's wording: `Parsing error near '<token>': syntax error`.
    fn syntax_error<T>(&mut self) -> PResult<T> {
        // At the end of input ptxas names '' and the line the end is on.
        let mut near: String = self.text().chars().take(64).collect();
        let line = if self.cur.is_some() {
            self.line()
        } else {
            self.lines.line(self.src.len() as u32)
        };
        let mut what = "syntax error";
        if let Some(token) = self.compound_opcode_here() {
            near = token.to_string();
        }
        if self.peek() == Some(Tok::Error) {
            // A comment left open runs to the end of the text; of a string left open ptxas
            // names its quote.
            if near.starts_with("/*") {
                (near, what) = (String::new(), "unexpected EOF while scanning");
            } else if near.starts_with('"') {
                near = "\"".into();
            }
        }
        self.error_at(line, format!("Parsing error near '{near}': {what}"), true);
        Err(Failed)
    }

    /// The opcode with modifiers that ptxas reads as one token at the current token, if any
    /// ([`crate::isa::compound_opcode`]).
    #[cold]
    #[inline(never)]
    fn compound_opcode_here(&self) -> Option<&'static str> {
        let t = self.cur.filter(|t| t.kind == Tok::Ident)?;
        crate::isa::compound_opcode(&self.src[t.start as usize..])
    }

    pub fn error_at(&mut self, line: u32, message: String, fatal: bool) {
        if self.diags.len() < MAX_ERRORS {
            self.diags
                .push(Diagnostic::new(&self.file, line, message, fatal));
        }
    }

    /// Skips past the next `;` (or up to a `}` at this level) after a syntax error.
    fn recover(&mut self) {
        while let Some(k) = self.peek() {
            match k {
                Tok::Semi => {
                    self.advance();
                    return;
                }
                Tok::RBrace => return,
                _ => self.advance(),
            }
        }
    }

    fn too_many_errors(&self) -> bool {
        self.diags.len() >= MAX_ERRORS
    }

    // ---- module level --------------------------------------------------------------------

    /// Parses module items to the end of the text; the header directives are applied at the end.
    pub fn parse_module(&mut self) -> Module {
        let mut m = Module {
            address_size: 64,
            ..Module::default()
        };
        while self.peek().is_some() && !self.too_many_errors() {
            let start = self.consumed;
            if self.module_item(&mut m).is_err() {
                self.recover_module();
            }
            if self.consumed == start {
                self.advance();
            }
        }
        self.header.apply(&mut m);
        m.locs = std::mem::take(&mut self.locs);
        m
    }

    /// After a bad module item: skip to the next top-level directive.
    fn recover_module(&mut self) {
        let mut depth = 0i32;
        while let Some(k) = self.peek() {
            match k {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth <= 0 {
                        self.advance();
                        return;
                    }
                }
                Tok::Semi if depth == 0 => {
                    self.advance();
                    return;
                }
                _ => {}
            }
            self.advance();
        }
    }

    fn module_item(&mut self, m: &mut Module) -> PResult<()> {
        if self.peek() != Some(Tok::Dot) {
            return self.syntax_error();
        }
        let directive = &self.text()[1..];
        if matches!(directive, "version" | "target" | "address_size") {
            self.header_order(directive)?;
        } else {
            self.header_over = true;
        }
        match directive {
            "version" => {
                self.advance();
                self.header.version = Some(self.version_number()?);
            }
            "target" => {
                let directive_line = self.line();
                self.advance();
                // Only the first entry of the first `.target` must name an architecture.
                let architecture_named = self
                    .header
                    .target
                    .as_deref()
                    .and_then(crate::checks::module::target_number)
                    .is_some();
                if architecture_named {
                    self.target_entry(directive_line)?;
                } else {
                    self.header.target = Some(self.bump().to_string());
                }
                while self.eat(Tok::Comma) {
                    self.target_entry(directive_line)?;
                }
                if self.header.version.is_none() {
                    let line = self.line();
                    return self.header_error(line, ".version");
                }
            }
            "address_size" => {
                self.advance();
                self.header.address_size = Some(self.integer()? as u32);
            }
            "alias" => self.alias(m)?,
            "file" => self.file_directive(m)?,
            "section" => self.section_block(m)?,
            "pragma" => self.pragma(false)?,
            _ => self.linkage_item(m)?,
        }
        Ok(())
    }

    /// An entry of `.target` after the first, as ptxas reads it: an architecture (the last one
    /// named is the module's target), or an option: `map_f64_to_f32` is an error on SM 1.3 and
    /// higher, `texmode_unified`/`texmode_independent` contradicting the one before is an error,
    /// `debug` is checked with the module (`check_module::check_target_debug`); anything else is
    /// ptxas's fatal "Unsupported .target". Each is reported on the directive's `line`.
    fn target_entry(&mut self, line: u32) -> PResult<()> {
        if self.peek() != Some(Tok::Ident) {
            return self.syntax_error();
        }
        let entry = self.bump();
        let sm = self
            .header
            .target
            .as_deref()
            .and_then(crate::checks::module::target_number);
        if sm.is_none() {
            // A first entry that is no architecture: ptxas's "Target architecture not defined".
            return Ok(());
        }
        match entry {
            "debug" => {}
            "map_f64_to_f32" if sm >= Some(13) => {
                self.error_at(
                    line,
                    "Directive map_f64_to_f32 is not supported with SM 1.3 or higher".into(),
                    false,
                );
            }
            "map_f64_to_f32" => {}
            "texmode_unified" | "texmode_independent" => {
                if self.header.texmode.is_some_and(|t| t != entry) {
                    self.error_at(line, format!("Conflicting .target option '{entry}'"), false);
                }
                self.header.texmode = Some(if entry == "texmode_unified" {
                    "texmode_unified"
                } else {
                    "texmode_independent"
                });
            }
            t if t.starts_with("sm_") || t.starts_with("compute_") => {
                self.header.target = Some(t.to_string())
            }
            t => {
                self.error_at(line, format!("Unsupported .target '{t}'"), true);
                return Err(Failed);
            }
        }
        Ok(())
    }

    /// `.alias fAlias, fAliasee;` (checked against the functions in `checks::declarations`).
    fn alias(&mut self, m: &mut Module) -> PResult<()> {
        self.advance();
        let line = self.line();
        let alias = self.ident_name()?;
        self.expect(Tok::Comma)?;
        let aliasee = self.ident_name()?;
        self.expect(Tok::Semi)?;
        m.aliases.push(Alias {
            name: alias,
            aliasee,
            line,
        });
        Ok(())
    }

    /// An identifier (a function or alias name), or ptxas's syntax error.
    fn ident_name(&mut self) -> PResult<String> {
        if self.peek() != Some(Tok::Ident) {
            return self.syntax_error();
        }
        Ok(self.bump().to_string())
    }

    /// `.version major.minor`. ptxas takes a malformed number (`8`, `8.x`) as no `.version` at
    /// all, and a third part (`8.0.1`) as the end of the header before its `.target`.
    fn version_number(&mut self) -> PResult<(u32, u32)> {
        let line = self.line();
        let t = self.text();
        let parsed = t
            .split_once('.')
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
        let Some(version) = parsed.filter(|_| self.cur.is_some() && self.peek() != Some(Tok::Dot))
        else {
            return self.header_error(line, ".version");
        };
        self.advance();
        let third_part = self.peek() == Some(Tok::Dot)
            && self.line() == line
            && self.text()[1..].bytes().all(|b| b.is_ascii_digit());
        if third_part {
            return self.header_error(line, ".target");
        }
        Ok(version)
    }

    /// A header directive where ptxas's grammar has it: `.version`, then one or more `.target`,
    /// then at most one `.address_size`, before anything else. Out of order, ptxas misses the
    /// `.target` (after `.version` alone) or finds a syntax error (`.version 8.0` named whole).
    fn header_order(&mut self, directive: &str) -> PResult<()> {
        let line = self.line();
        let h = &self.header;
        let past = self.header_over
            || h.address_size.is_some()
            || (directive == "version" && h.target.is_some());
        if past {
            if directive != "version" {
                return self.syntax_error();
            }
            let end = self.next.map_or(self.cur.map_or(0, |t| t.end), |t| t.end);
            let near = self.src[self.cur.map_or(0, |t| t.start) as usize..end as usize].to_string();
            self.error_at(
                line,
                format!("Parsing error near '{near}': syntax error"),
                true,
            );
            return Err(Failed);
        }
        if h.version.is_some() && h.target.is_none() && directive != "target" {
            return self.header_error(line, ".target");
        }
        Ok(())
    }

    /// ptxas's fatal "Missing <directive> directive at start of file" for a malformed header.
    fn header_error<T>(&mut self, line: u32, directive: &str) -> PResult<T> {
        let message = format!(
            "Missing {directive} directive at start of file '{}'",
            self.file
        );
        self.error_at(line, message, true);
        Err(Failed)
    }

    /// `.visible .entry ...`, `.extern .func ...`, `.global .u32 x;` and friends.
    fn linkage_item(&mut self, m: &mut Module) -> PResult<()> {
        let start = self.offset();
        let (mut visible, mut is_extern) = (false, false);
        loop {
            if self.eat_dot("visible") {
                visible = true;
            } else if self.eat_dot("extern") {
                is_extern = true;
            } else if self.eat_dot("weak") || self.eat_dot("common") {
                visible = true;
            } else {
                break;
            }
        }
        let line = self.line();
        let kind = if self.eat_dot("entry") {
            Some(true)
        } else if self.eat_dot("func") {
            Some(false)
        } else {
            None
        };
        if let Some(is_entry) = kind {
            let f = self.function(is_entry, visible, is_extern, line, start);
            // Functions declared in its body come after it.
            let declared = std::mem::take(&mut self.body_declarations);
            let parsed = f.map(|f| m.functions.push(f));
            m.functions.extend(declared);
            parsed?;
        } else if let Some(space) = self.state_space() {
            self.var_statement(space, start, &mut m.globals)?;
        } else if self.peek() == Some(Tok::Dot) && self.text() == ".tex" {
            self.tex_statement(start, Some(&mut m.globals))?;
        } else if self.peek() == Some(Tok::Dot) && is_declaration_specifier(&self.text()[1..]) {
            return self.no_storage();
        } else {
            return self.syntax_error();
        }
        Ok(())
    }

    /// A declaration that opens with its type (or alignment, or vector width): ptxas's fatal
    /// "No variable storage specified".
    fn no_storage<T>(&mut self) -> PResult<T> {
        let line = self.line();
        self.error_at(line, "No variable storage specified".into(), true);
        Err(Failed)
    }

    fn state_space(&mut self) -> Option<StateSpace> {
        let s = match self.peek() {
            Some(Tok::Dot) => &self.text()[1..],
            _ => return None,
        };
        let space = match s {
            "reg" => StateSpace::Reg,
            "param" => StateSpace::Param,
            "shared" => StateSpace::Shared,
            "global" => StateSpace::Global,
            "const" => StateSpace::Const,
            "local" => StateSpace::Local,
            _ => return None,
        };
        self.advance();
        Some(space)
    }

    /// `.file <index> "<name>"[, <timestamp>[, <size>]]` (module scope only), as ptxas reads it.
    fn file_directive(&mut self, m: &mut Module) -> PResult<()> {
        self.advance();
        let index = u64::try_from(self.unsigned_integer()?).unwrap_or(u64::MAX);
        let name = self.text().trim_matches('"').to_string();
        self.expect(Tok::Str)?;
        let (mut numbers, mut size_line) = (0, 0);
        while numbers < 2 && self.eat(Tok::Comma) {
            size_line = self.line();
            self.unsigned_integer()?;
            numbers += 1;
        }
        let line = if numbers == 2 {
            size_line
        } else {
            self.line_of_next_token()
        };
        m.files.push(FileDirective { index, line, name });
        Ok(())
    }

    /// The line of the current token, or past the text's last byte at its end.
    fn line_of_next_token(&mut self) -> u32 {
        match self.cur {
            Some(_) => self.line(),
            None => self.lines.line(self.end),
        }
    }

    /// `.loc <file> <line> <column>[, function_name <label>[+<n>], inlined_at <file> <line> <column>]`
    /// (in a function only), as ptxas reads it.
    fn loc_directive(&mut self) -> PResult<()> {
        let directive_line = self.line();
        self.advance();
        let (at, _) = self.source_location()?;
        let (mut function_name, mut inlined_at) = (None, None);
        if self.eat(Tok::Comma) {
            self.keyword("function_name")?;
            if self.peek() != Some(Tok::Ident) {
                return self.syntax_error();
            }
            function_name = Some(self.bump().to_string());
            if self.eat(Tok::Plus) {
                self.unsigned_integer()?;
            }
            self.expect(Tok::Comma)?;
            self.keyword("inlined_at")?;
            inlined_at = Some(self.source_location()?);
        }
        self.close_loc();
        self.open_loc = Some((self.locs.len(), self.body_buf.len()));
        self.locs.push(LocDirective {
            at,
            function_name,
            inlined_at,
            describes_instruction: false,
            line: directive_line,
        });
        Ok(())
    }

    /// Settles whether the open `.loc` (if any) describes an instruction: one read since it.
    fn close_loc(&mut self) {
        if let Some((index, statements)) = self.open_loc.take() {
            let followed = self
                .body_buf
                .get(statements..)
                .is_some_and(|s| s.iter().any(|s| s.as_instr().is_some()));
            self.locs[index].describes_instruction = followed;
        }
    }

    /// Three unsigned integers, file, line and column, with the line of the last.
    fn source_location(&mut self) -> PResult<([u64; 3], u32)> {
        let mut at = [0; 3];
        let mut line = 0;
        for n in &mut at {
            line = self.line();
            *n = u64::try_from(self.unsigned_integer()?).unwrap_or(u64::MAX);
        }
        Ok((at, line))
    }

    /// An integer without a sign.
    fn unsigned_integer(&mut self) -> PResult<i128> {
        match self.peek() {
            Some(Tok::DecInt) | Some(Tok::HexInt) => self.integer(),
            _ => self.syntax_error(),
        }
    }

    /// The name `word` (a keyword written without a dot).
    fn keyword(&mut self, word: &str) -> PResult<()> {
        match self.peek() == Some(Tok::Ident) && self.text() == word {
            true => {
                self.advance();
                Ok(())
            }
            false => self.syntax_error(),
        }
    }

    /// `.pragma "..."[, "..."];`: ptxas takes only strings. An unknown pragma is a warning in a
    /// function and an error at module level, both without a line.
    fn pragma(&mut self, in_function: bool) -> PResult<()> {
        self.advance();
        if self.peek() != Some(Tok::Str) {
            return self.syntax_error();
        }
        while let Some(k) = self.peek() {
            if k == Tok::Str {
                let text = self.text();
                let name = text[1..text.len().saturating_sub(1).max(1)].to_string();
                self.check_pragma(&name, in_function);
            }
            self.advance();
            if k == Tok::Semi {
                break;
            }
        }
        Ok(())
    }

    fn check_pragma(&mut self, name: &str, in_function: bool) {
        let word = name.split_whitespace().next().unwrap_or("");
        if matches!(
            word,
            "nounroll" | "used_bytes_mask" | "enable_smem_spilling"
        ) {
            return;
        }
        if in_function {
            let warning =
                Diagnostic::warning(&self.file, 0, format!("Pragma '{name}' unsupported"));
            self.diags.push(warning);
        } else {
            self.error_at(0, format!("Pragma '{name}' not supported"), false);
        }
    }

    fn skip_statement(&mut self) {
        while let Some(k) = self.peek() {
            self.advance();
            if k == Tok::Semi {
                return;
            }
        }
    }

    /// `.section <name> { ... }`: skipped, but for the labels it declares (`$L__info_string0:`).
    fn section_block(&mut self, m: &mut Module) -> PResult<()> {
        while self.peek().is_some() && self.peek() != Some(Tok::LBrace) {
            self.advance();
        }
        self.expect(Tok::LBrace)?;
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                Some(Tok::LBrace) => depth += 1,
                Some(Tok::RBrace) => depth -= 1,
                Some(Tok::Ident) if self.peek_second() == Some(Tok::Colon) => {
                    m.section_labels.push(self.text().to_string())
                }
                None => return self.syntax_error(),
                _ => {}
            }
            self.advance();
        }
        Ok(())
    }

    fn integer(&mut self) -> PResult<i128> {
        let neg = self.eat(Tok::Minus);
        let v = match self.peek() {
            Some(Tok::DecInt) | Some(Tok::HexInt) => {
                let at = self.offset();
                let value = parse_int(self.bump());
                if value.is_none() {
                    let line = self.lines.line(at);
                    self.error_at(line, "Constant overflow".into(), false);
                }
                Some(value.unwrap_or(0))
            }
            _ => None,
        };
        match v {
            Some(v) => Ok(if neg { -v } else { v }),
            None => self.syntax_error(),
        }
    }
}

/// Whether a directive can only open the part of a declaration after its state space (`.u32`,
/// `.align`, `.v4`): a declaration without one, "No variable storage specified".
/// Whether a directive opens a module item (`.visible`, `.func`, `.global`, `.pragma`, ...),
/// which ends the directives after a function's prototype.
fn opens_module_item(directive: &str) -> bool {
    const OPENERS: &[&str] = &[
        "visible",
        "extern",
        "weak",
        "common",
        "entry",
        "func",
        "global",
        "const",
        "shared",
        "local",
        "param",
        "reg",
        "tex",
        "surf",
        "sampler",
        "samplerref",
        "texref",
        "surfref",
        "alias",
        "file",
        "loc",
        "section",
        "pragma",
        "version",
        "target",
        "address_size",
    ];
    OPENERS.contains(&directive)
}

/// Decimal or hex integer with an optional `U` suffix; `None` on overflow.
pub(crate) fn parse_int(t: &str) -> Option<i128> {
    let t = t.trim_end_matches(['u', 'U']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    accumulate_like_ptxas(digits, radix).map(|v| v as i128)
}

/// ptxas's integer reading: digits accumulate into 64 bits, wrapping, and the constant overflows
/// only when a digit comes while the top bit is set (so 0x1FFFFFFFFFFFFFFFF and 2^64 pass as
/// their low 64 bits, 0x80000000000000000 overflows).
fn accumulate_like_ptxas(digits: &str, radix: u32) -> Option<u64> {
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        if v >> 63 != 0 {
            return None;
        }
        v = v.wrapping_mul(radix as u64).wrapping_add(d as u64);
    }
    Some(v)
}
