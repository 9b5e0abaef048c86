//! The recursive-descent PTX parser: tokens → [`ast::Module`], collecting ptxas-style diagnostics.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::lexer::{LineCursor, Tok, Token, TokenStream};
use std::mem::MaybeUninit;
use std::sync::Arc;

#[path = "const_expr.rs"]
mod const_expr;

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

/// What the declarators of one variable statement share.
#[derive(Copy, Clone)]
struct VarSpecifiers {
    space: StateSpace,
    align: u32,
    vector: u32,
    ty: Type,
    /// The line of the type modifier.
    type_line: u32,
    pointee: Option<Pointee>,
    /// A texture, sampler or surface reference: its initializer names fields.
    texture: bool,
    /// The fields a reference's initializer may name (none for other variables).
    texture_fields: &'static [&'static str],
    /// Where the specifiers end.
    end: u32,
}

impl VarSpecifiers {
    /// The variable that one declarator of the statement declares (see [`VarDecl`] for the
    /// fields).
    fn variable(
        &self,
        name: String,
        name_at: u32,
        line: u32,
        array_len: Option<u64>,
        init: Vec<i128>,
        span: Span,
    ) -> VarDecl {
        let VarSpecifiers {
            space,
            align,
            vector,
            ty,
            type_line,
            pointee,
            end: specifiers_end,
            ..
        } = *self;
        VarDecl {
            space,
            name,
            ty,
            align,
            array_len,
            is_array: false,
            vector,
            line,
            type_line,
            span,
            specifiers_end,
            name_at,
            init,
            pointee,
            range: None,
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
        m.files.push(FileDirective { index, line });
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

    // ---- declarations --------------------------------------------------------------------

    /// A variable statement after its state space: specifiers, then declarators separated by
    /// commas up to the `;`, one [`VarDecl`] each (`.global .u32 a, b[4] = {1, 2, 3, 4};`). They
    /// are appended to `out` only once the whole statement parsed: after a syntax error ptxas
    /// checks none of them.
    fn var_statement(
        &mut self,
        space: StateSpace,
        start: u32,
        out: &mut Vec<VarDecl>,
    ) -> PResult<()> {
        let first = out.len();
        let parsed = self.var_specifiers(space, false).and_then(|specifiers| {
            loop {
                out.push(self.declarator(&specifiers, start, true)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Semi)
        });
        if parsed.is_err() {
            out.truncate(first);
        }
        parsed
    }

    /// `.tex .u32 t;`, the texture reference of PTX before 1.5, at its `.tex`: ptxas refuses each
    /// declarator ("Deprecated feature", after its type unless `.u32`/`.u64` and outside module
    /// scope) but reads it on as a `.global .texref`, into `globals` (None in a function body,
    /// where it declares nothing); an initial value is its fatal "Initial value type mismatch".
    fn tex_statement(&mut self, start: u32, mut globals: Option<&mut Vec<VarDecl>>) -> PResult<()> {
        self.advance();
        let specifiers = self.var_specifiers(StateSpace::Global, false)?;
        let typed = specifiers.vector == 1
            && !specifiers.texture
            && matches!(specifiers.ty, Type::U32 | Type::U64);
        let texref = VarSpecifiers {
            ty: Type::B64,
            vector: 1,
            texture: true,
            ..specifiers
        };
        loop {
            if !matches!(self.peek(), Some(Tok::Ident) | Some(Tok::Percent)) {
                return self.syntax_error();
            }
            let name_at = self.offset();
            let name = self.bump().to_string();
            let line = self.line();
            let array = self.peek() == Some(Tok::LBracket);
            if array {
                self.array_lengths()?;
            }
            if !typed || array {
                self.error_at(
                    line,
                    format!("Variable '{name}' must be type .u32 or .u64"),
                    false,
                );
            }
            if globals.is_none() {
                self.error_at(
                    line,
                    "Texture variables must be declared at module scope".into(),
                    false,
                );
            }
            self.error_at(
                line,
                "Deprecated feature: '.tex' not supported as of PTX version 1.5".into(),
                false,
            );
            if self.eat(Tok::Eq) {
                self.initializer(1)?;
                self.error_at(line, "Initial value type mismatch".into(), true);
                return Err(Failed);
            }
            if let Some(globals) = globals.as_deref_mut() {
                globals.push(texref.variable(
                    name,
                    name_at,
                    line,
                    Some(1),
                    Vec::new(),
                    self.span_from(start),
                ));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)
    }

    /// A parameter after its state space: specifiers and one declarator (a comma starts the next
    /// parameter).
    fn var_decl(&mut self, space: StateSpace, start: u32) -> PResult<VarDecl> {
        let specifiers = self.var_specifiers(space, true)?;
        let v = self.declarator(&specifiers, start, false)?;
        if specifiers.texture {
            self.texture_params
                .push((v.line, v.name.clone(), space == StateSpace::Reg));
        }
        Ok(v)
    }

    /// `[.align N] [.vN] .type`, and for a parameter (`in_signature`) `.ptr [.space] [.align N]`,
    /// in any order.
    fn var_specifiers(&mut self, space: StateSpace, in_signature: bool) -> PResult<VarSpecifiers> {
        let (mut align, mut vector, mut ty, mut type_line) = (0, 1, None, 0);
        let (mut texture, mut texture_fields) = (false, &[][..]);
        // After `.ptr`, a state space and `.align N` are those of what the parameter points to.
        let mut pointee: Option<Pointee> = None;
        while self.peek() == Some(Tok::Dot) {
            let m = &self.text()[1..];
            if m == "align" {
                self.advance();
                let n = self.alignment()?;
                match &mut pointee {
                    Some(p) => p.align = n,
                    None => align = n,
                }
            } else if m == "ptr" && in_signature {
                self.advance();
                pointee = Some(Pointee::default());
            } else if let Some(n) = m.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
                if texture {
                    return self.syntax_error();
                }
                vector = self.declared_vector(n, vector)?;
            } else if let Some(t) = Type::from_mod(m) {
                type_line = self.line();
                ty = Some(self.declared_type(t, ty.is_some())?);
            } else if matches!(m, "texref" | "samplerref" | "surfref") {
                type_line = self.line();
                if vector != 1 {
                    self.error_at(
                        type_line,
                        "Vector type only allowed over basic types".into(),
                        false,
                    );
                }
                texture_fields = reference_fields(m);
                ty = Some(self.texture_reference(m, space, in_signature, ty.is_some())?);
                texture = true;
            } else if let Some(space) = pointee.as_mut().and_then(|_| pointee_space(m)) {
                self.advance();
                if let Some(p) = &mut pointee {
                    p.space = Some(space);
                }
            } else if is_state_space(m) {
                self.second_state_space();
            } else {
                break;
            }
        }
        let Some(ty) = ty else {
            return self.syntax_error();
        };
        self.scalar_predicate(ty, vector);
        Ok(VarSpecifiers {
            space,
            align,
            vector,
            ty,
            type_line,
            pointee,
            texture,
            texture_fields,
            end: self.prev_end,
        })
    }

    /// The type of a declaration, at the current token: not a second one, nor `.bf16`/`.bf16x2`
    /// (variables of those are `.b16`/`.b32`), both ptxas's syntax error.
    fn declared_type(&mut self, t: Type, second: bool) -> PResult<Type> {
        if second || matches!(t, Type::BF16 | Type::BF16x2) {
            return self.syntax_error();
        }
        self.advance();
        Ok(t)
    }

    /// A texture, sampler or surface reference (`.texref`, `.samplerref`, `.surfref`), read as the
    /// 64-bit handle it is. A sampler is separate from its texture only under
    /// `.target texmode_independent`; under `texmode_unified` (the default) ptxas refuses it.
    /// References are `.global` variables of the module, or parameters.
    fn texture_reference(
        &mut self,
        kind: &str,
        space: StateSpace,
        in_signature: bool,
        second: bool,
    ) -> PResult<Type> {
        let line = self.line();
        if kind == "samplerref" && self.header.texmode != Some("texmode_independent") {
            self.error_at(
                line,
                "Instruction or declaration violates .target texmode_unified setting".into(),
                false,
            );
        }
        if self.depth > 0 && !in_signature {
            self.error_at(
                line,
                "Texture/surface variable must be at module or entry parameter scope".into(),
                false,
            );
        } else if !in_signature && space != StateSpace::Global {
            self.error_at(
                line,
                "Texture and surface variables must be declared in .global space".into(),
                false,
            );
        }
        self.declared_type(Type::B64, second)
    }

    /// A declaration's `.vN`, at the current token: `.v2` or `.v4`, once (ptxas's syntax error
    /// otherwise). `vector` is the width so far (1: none yet).
    fn declared_vector(&mut self, n: u32, vector: u32) -> PResult<u32> {
        if vector != 1 || !matches!(n, 2 | 4) {
            return self.syntax_error();
        }
        self.advance();
        Ok(n)
    }

    /// `.pred` vectors: ptxas's error as it reads them.
    fn scalar_predicate(&mut self, ty: Type, vector: u32) {
        if ty == Type::Pred && vector > 1 {
            let line = self.line();
            self.predicate_not_scalar(line);
        }
    }

    /// ptxas's error for a `.pred` vector or array, at `line`.
    fn predicate_not_scalar(&mut self, line: u32) {
        self.error_at(
            line,
            "Predicate type can only be used to define scalar register variables".into(),
            false,
        );
    }

    /// A state space after the declaration's own: ptxas's error, and the declaration goes on.
    fn second_state_space(&mut self) {
        let line = self.line();
        self.error_at(line, "Multiple state spaces specified".into(), false);
        self.advance();
    }

    /// The `N` of `.align N`: a power of two (else ptxas's error, and the declaration goes on).
    fn alignment(&mut self) -> PResult<u32> {
        let line = self.line();
        let n = self.unsigned()?;
        if !(n as u64).is_power_of_two() {
            self.error_at(line, "Alignment must be a power of two".into(), false);
        }
        Ok(n as u32)
    }

    /// The rest of `name<N>` in a variable statement (see [`Parser::declarator`]).
    fn ranged_declarator(
        &mut self,
        specifiers: &VarSpecifiers,
        start: u32,
        mut name: String,
        name_at: u32,
        line: u32,
    ) -> PResult<VarDecl> {
        self.advance();
        let members = self.unsigned()?.clamp(0, i128::from(u64::MAX)) as u64;
        self.expect(Tok::Gt)?;
        if matches!(self.peek(), Some(Tok::LBracket | Tok::Eq)) {
            return self.syntax_error();
        }
        name.push('<');
        let range = specifiers.variable(
            name,
            name_at,
            line,
            Some(1),
            Vec::new(),
            self.span_from(start),
        );
        Ok(VarDecl {
            range: Some(members),
            ..range
        })
    }

    /// `[N]...` after a declared name: the product of the lengths, `None` for an open `[]`.
    fn array_lengths(&mut self) -> PResult<Option<u64>> {
        let mut array_len = Some(1u64);
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                array_len = None;
                continue;
            }
            let n = self.unsigned()?.max(0) as u64;
            array_len = array_len.map(|a| a.saturating_mul(n));
            self.expect(Tok::RBracket)?;
        }
        Ok(array_len)
    }

    /// A count or size in a declaration: an integer without a sign (a `-` is a syntax error).
    fn unsigned(&mut self) -> PResult<i128> {
        if self.peek() == Some(Tok::Minus) {
            return self.syntax_error();
        }
        self.integer()
    }

    /// `name[[N]...] [= init]`; its span runs from `start` (the statement's first token) to its
    /// last token.
    ///
    /// Outside parameter lists (`ranged`) a name may be a range, `%r<4>`, as for registers: ptxas
    /// names it `%r<`, takes neither brackets nor an initializer after it, and lays out one
    /// element for it when no instruction names a member (the checks resolve its members,
    /// [`crate::checks::instructions::VarScope`]).
    fn declarator(
        &mut self,
        specifiers: &VarSpecifiers,
        start: u32,
        ranged: bool,
    ) -> PResult<VarDecl> {
        if !matches!(self.peek(), Some(Tok::Ident) | Some(Tok::Percent)) {
            return self.syntax_error();
        }
        let name_at = self.offset();
        let name = self.bump().to_string();
        let line = self.line();
        if ranged && self.peek() == Some(Tok::Lt) {
            return self.ranged_declarator(specifiers, start, name, name_at, line);
        }
        let is_array = self.peek() == Some(Tok::LBracket);
        let array_len = if is_array {
            self.array_lengths()?
        } else {
            Some(1)
        };
        if is_array && specifiers.ty == Type::Pred {
            // ptxas says so as it reads the declarator, before any check of the declaration.
            let line = self.line();
            self.predicate_not_scalar(line);
        }
        let elements = array_len
            .unwrap_or(0)
            .saturating_mul(u64::from(specifiers.vector));
        if specifiers.texture && self.peek() == Some(Tok::Eq) {
            // The declaration's span stops before the fields, which no value check reads.
            let span = self.span_from(start);
            self.advance();
            self.texture_fields(specifiers.texture_fields)?;
            return Ok(specifiers.variable(name, name_at, line, array_len, Vec::new(), span));
        }
        let init = if self.eat(Tok::Eq) {
            self.initializer(elements)?
        } else {
            Vec::new()
        };
        let variable =
            specifiers.variable(name, name_at, line, array_len, init, self.span_from(start));
        Ok(VarDecl {
            is_array,
            ..variable
        })
    }

    /// A texture, sampler or surface reference's initializer, `{ field = value, ... }`, read past
    /// (the back end keeps no texture state) but for ptxas's checks: a value that is a name
    /// must be one of [`TEXTURE_VALUE_NAMES`] (an error where it stands); then, at the `}`, the
    /// first field that is none of `fields` is a fatal error.
    fn texture_fields(&mut self, fields: &[&str]) -> PResult<()> {
        self.expect(Tok::LBrace)?;
        let mut unknown_field = None;
        let empty = self.peek() == Some(Tok::RBrace);
        while !empty {
            if self.peek() != Some(Tok::Ident) {
                return self.syntax_error();
            }
            let field = self.bump();
            if !fields.contains(&field) && unknown_field.is_none() {
                unknown_field = Some(field);
            }
            self.expect(Tok::Eq)?;
            self.texture_field_value()?;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let line = self.line();
        self.expect(Tok::RBrace)?;
        match unknown_field {
            Some(field) => {
                self.error_at(
                    line,
                    format!("Unrecognized field name '{field}' in opaque struct initializer"),
                    true,
                );
                Err(Failed)
            }
            None => Ok(()),
        }
    }

    /// A field's value: a name (ptxas's error for one it does not know) or a number, which may
    /// be negative or floating.
    fn texture_field_value(&mut self) -> PResult<()> {
        if self.peek() == Some(Tok::Ident) {
            let line = self.line();
            let value = self.bump();
            if !TEXTURE_VALUE_NAMES.contains(&value) {
                self.error_at(
                    line,
                    format!("Unrecognized initial value symbol '{value}'"),
                    false,
                );
            }
            return Ok(());
        }
        self.eat(Tok::Minus);
        match self.peek() {
            Some(Tok::DecInt | Tok::HexInt | Tok::DecFloat | Tok::F32Hex | Tok::F64Hex) => {
                self.advance();
                Ok(())
            }
            _ => self.syntax_error(),
        }
    }

    /// An initializer of a variable of `elements` elements: the vector is sized for them up front
    /// (at most one per two bytes of the text left, so a declared size never allocates more than
    /// the input can fill).
    fn initializer(&mut self, elements: u64) -> PResult<Vec<i128>> {
        let text_left = (self.end as usize).saturating_sub(self.offset() as usize) / 2;
        let mut vals = Vec::with_capacity((elements as usize).min(text_left));
        self.initializer_into(&mut vals)?;
        Ok(vals)
    }

    /// Runs a recursive parse step, failing with a syntax error past `MAX_NESTING` levels.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.nesting >= MAX_NESTING {
            return self.syntax_error();
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        r
    }

    /// Appends an initializer's values to `vals` (one vector for the whole initializer: array
    /// initializers of thousands of values made a vector per value).
    fn initializer_into(&mut self, vals: &mut Vec<i128>) -> PResult<()> {
        self.nested(|p| p.initializer_inner(vals))
    }

    fn initializer_inner(&mut self, vals: &mut Vec<i128>) -> PResult<()> {
        if self.fast_path && self.peek() == Some(Tok::LBrace) && self.fast_integer_list(vals) {
            return Ok(());
        }
        if self.eat(Tok::LBrace) {
            // `{}` is a list (of no entries), `{1,}` a syntax error, as for ptxas.
            if self.eat(Tok::RBrace) {
                return Ok(());
            }
            loop {
                self.initializer_into(vals)?;
                if !self.eat(Tok::Comma) {
                    self.expect(Tok::RBrace)?;
                    break;
                }
            }
            return Ok(());
        }
        if self.peek() == Some(Tok::Ident)
            && self.text() == "generic"
            && self.peek_second() == Some(Tok::LParen)
        {
            return self.generic_address(vals);
        }
        // An integer is read as `operand` reads it, without building the operand.
        let integer = match self.peek() {
            Some(Tok::DecInt | Tok::HexInt) => true,
            Some(Tok::Minus) => self.peek_second() != Some(Tok::DecFloat),
            _ => false,
        };
        if integer && self.nesting < MAX_NESTING {
            let v = self.integer()?;
            vals.push(v);
            return Ok(());
        }
        let decimal = self.peek() == Some(Tok::DecFloat)
            || (self.peek() == Some(Tok::Minus) && self.peek_second() == Some(Tok::DecFloat));
        vals.push(match self.operand()? {
            Operand::Imm(v) => v,
            Operand::F32(b) => b as i128,
            // A decimal float entry is kept as single-precision bits (the element type is not
            // known here; `.f32` data is the common case).
            Operand::F64(b) if decimal => crate::ast::narrow_f64_literal(b) as i128,
            Operand::F64(b) => b as i128,
            _ => 0,
        });
        Ok(())
    }

    /// `generic(sym)[+n...]`: the generic address of a variable, kept as a symbol entry is (0; the
    /// declaration checks read the name from the source text).
    fn generic_address(&mut self, vals: &mut Vec<i128>) -> PResult<()> {
        self.advance();
        self.expect(Tok::LParen)?;
        if self.peek() != Some(Tok::Ident) {
            return self.syntax_error();
        }
        self.advance();
        self.expect(Tok::RParen)?;
        while self.eat(Tok::Plus) {
            self.integer()?;
        }
        vals.push(0);
        Ok(())
    }

    /// `.reg .b32 %r<5>, %x;`
    fn reg_decl(&mut self, out: &mut Vec<RegDecl>, start: u32) -> PResult<()> {
        let line = self.line();
        let first = out.len();
        let (mut ty, mut vector) = (None, 1);
        let mut texture = false;
        // Each step reads its own tokens.
        while self.peek() == Some(Tok::Dot) {
            let m = &self.text()[1..];
            if let Some(n) = m.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
                vector = self.declared_vector(n, vector)?;
            } else if let Some(t) = Type::from_mod(m) {
                ty = Some(self.declared_type(t, ty.is_some())?);
            } else if matches!(m, "texref" | "samplerref" | "surfref") {
                ty = Some(self.texture_reference(m, StateSpace::Reg, false, ty.is_some())?);
                texture = true;
            } else if m == "align" {
                self.advance();
                self.alignment()?;
            } else if is_state_space(m) {
                self.second_state_space();
            } else {
                return self.syntax_error();
            }
        }
        let Some(ty) = ty else {
            return self.syntax_error();
        };
        self.scalar_predicate(ty, vector);
        loop {
            if !matches!(self.peek(), Some(Tok::Percent) | Some(Tok::Ident)) {
                return self.syntax_error();
            }
            let name = self.bump().to_string();
            if texture {
                self.error_at(
                    line,
                    format!("Variable '{name}' cannot be allocated into a register"),
                    false,
                );
            }
            let count = if self.eat(Tok::Lt) {
                let n = self.unsigned()?;
                self.expect(Tok::Gt)?;
                Some(n.max(0) as u64)
            } else {
                None
            };
            // An array parses (a range takes neither brackets nor an initializer); ptxas says
            // registers hold none.
            let array = count.is_none() && self.peek() == Some(Tok::LBracket);
            if array {
                self.array_lengths()?;
            }
            if count.is_some() && self.peek() == Some(Tok::Eq) {
                return self.syntax_error();
            }
            if array && ty == Type::Pred {
                self.predicate_not_scalar(line);
            }
            if self.eat(Tok::Eq) {
                self.initializer(0)?;
                self.error_at(
                    line,
                    format!("No initial value is allowed for '{name}' in this state space"),
                    false,
                );
            }
            if array {
                self.error_at(
                    line,
                    format!("Variable '{name}' cannot be allocated into a register"),
                    false,
                );
            }
            out.push(RegDecl {
                name,
                ty,
                vector,
                count,
                line,
                span: Span::default(),
                scoped: self.depth > 1,
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)?;
        let span = self.span_from(start);
        out[first..].iter_mut().for_each(|d| d.span = span);
        Ok(())
    }

    // ---- functions -----------------------------------------------------------------------

    fn function(
        &mut self,
        is_entry: bool,
        visible: bool,
        is_extern: bool,
        line: u32,
        start: u32,
    ) -> PResult<Function> {
        self.texture_params.clear();
        let mut f = self.prototype(is_entry, visible, is_extern, line)?;
        // ptxas ends a `.func` declaration without its `;` where the next module item starts.
        if self.eat(Tok::Semi) || (!is_entry && self.peek() != Some(Tok::LBrace)) {
            f.span = self.span_from(start);
            return Ok(f);
        }
        if !is_entry {
            for (line, name, register) in std::mem::take(&mut self.texture_params) {
                let message = match register {
                    true => format!("Variable '{name}' cannot be allocated into a register"),
                    false => format!("Variable '{name}' cannot be allocated in .param state space"),
                };
                self.error_at(line, message, false);
            }
        }
        self.expect(Tok::LBrace)?;
        f.has_body = true;
        // Statements gather in a buffer reused across functions (its pages stay warm) and move
        // into a vector of exactly their count.
        self.body_buf.clear();
        self.operands_buf.clear();
        self.zero_padded_reg = false;
        self.blocks.start();
        let parsed = self.body(&mut f);
        f.declared_late = self.blocks.declared_late();
        self.take_body(&mut f);
        parsed?;
        f.span = self.span_from(start);
        Ok(f)
    }

    /// A function's name, parameter lists and the directives after them (`.noreturn`, ...).
    fn prototype(
        &mut self,
        is_entry: bool,
        visible: bool,
        is_extern: bool,
        line: u32,
    ) -> PResult<Function> {
        let mut ret_params = Vec::new();
        if !is_entry && self.peek() == Some(Tok::LParen) {
            ret_params = self.param_list()?;
        }
        let name = self.ident_name()?;
        let params = if self.peek() == Some(Tok::LParen) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let mut f = Function {
            name,
            is_entry,
            visible,
            is_extern,
            params,
            ret_params,
            regs: Vec::new(),
            vars: Vec::new(),
            body: Vec::new(),
            directives: Vec::new(),
            directive_spans: Vec::new(),
            directive_lines: Vec::new(),
            line,
            span: Span::default(),
            has_body: false,
            declared_late: None,
        };
        self.perf_directives(&mut f)?;
        Ok(f)
    }

    /// `[.extern] .func f(...);` in a body: declared for the whole module, as at module scope
    /// (ptxas wants its `;` here). The parser hands it on after the function it is in.
    fn body_function_declaration(&mut self, start: u32) -> PResult<()> {
        let (visible, is_extern) = match &self.text()[1..] {
            "extern" => (false, true),
            "func" => (false, false),
            _ => (true, false),
        };
        if self.text() != ".func" {
            self.advance();
        }
        let line = self.line();
        self.advance();
        let mut f = self.prototype(false, visible, is_extern, line)?;
        self.expect(Tok::Semi)?;
        f.span = self.span_from(start);
        self.body_declarations.push(f);
        Ok(())
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        if self.fast_path {
            if let Some(params) = self.fast_param_list() {
                return Ok(params);
            }
        }
        self.expect(Tok::LParen)?;
        let mut v = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            let start = self.offset();
            let space = self.state_space().unwrap_or(StateSpace::Param);
            v.push(self.var_decl(space, start)?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen)?;
        Ok(v)
    }

    /// `.maxntid 256, 1, 1` etc. between the signature and the body; also `.noreturn`.
    fn perf_directives(&mut self, f: &mut Function) -> PResult<()> {
        while self.peek() == Some(Tok::Dot) && !opens_module_item(&self.text()[1..]) {
            let start = self.offset();
            let line = self.line();
            let name = self.text()[1..].to_string();
            self.advance();
            let mut vals = Vec::new();
            while matches!(self.peek(), Some(Tok::DecInt) | Some(Tok::HexInt)) {
                vals.push(self.integer()? as u64);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            f.directives.push((name, vals));
            f.directive_spans.push(self.span_from(start));
            f.directive_lines.push(line);
        }
        Ok(())
    }

    /// Statements up to the matching `}`; nested `{ }` scopes are flattened.
    fn body(&mut self, f: &mut Function) -> PResult<()> {
        let mut depth = 1;
        while depth > 0 {
            if self.too_many_errors() {
                return Err(Failed);
            }
            match self.peek() {
                None => return self.syntax_error(),
                Some(Tok::LBrace) => {
                    self.blocks.open(self.offset(), self.body_buf.len());
                    self.advance();
                    depth += 1;
                }
                Some(Tok::RBrace) => {
                    if depth > 1 {
                        self.blocks.close(self.offset());
                    }
                    self.advance();
                    depth -= 1;
                }
                _ => {
                    self.depth = depth;
                    let start = self.consumed;
                    if self.statement(f).is_err() {
                        self.recover();
                    }
                    if self.consumed == start {
                        self.advance();
                    }
                }
            }
        }
        Ok(())
    }

    fn statement(&mut self, f: &mut Function) -> PResult<()> {
        if self.fast_path && self.fast_statements(f) {
            return Ok(());
        }
        if self.peek() == Some(Tok::Dot) {
            return self.body_directive(f);
        }
        if matches!(self.peek(), Some(Tok::Ident) | Some(Tok::Percent))
            && self.peek_second() == Some(Tok::Colon)
        {
            let line = self.line();
            let start = self.offset();
            let name = Name::new(self.bump());
            self.advance();
            let span = self.span_from(start);
            self.body_buf.push(Statement::Label { name, line, span });
            return Ok(());
        }
        self.instruction()
    }

    fn body_directive(&mut self, f: &mut Function) -> PResult<()> {
        let d = &self.text()[1..];
        let start = self.offset();
        match d {
            "reg" => {
                self.blocks.declaration(self.body_buf.len());
                self.advance();
                self.reg_decl(&mut f.regs, start)
            }
            "shared" | "local" | "const" | "global" | "param" => {
                self.blocks.declaration(self.body_buf.len());
                let space = self.state_space().unwrap();
                self.var_statement(space, start, &mut f.vars)
            }
            "tex" => self.tex_statement(start, None),
            "loc" => self.loc_directive(),
            "pragma" => self.pragma(true),
            // `.branchtargets`/`.calltargets`/`.callprototype` follow the label that names them.
            "branchtargets" | "calltargets" | "callprototype" => {
                self.skip_statement();
                Ok(())
            }
            d if is_declaration_specifier(d) => self.no_storage(),
            "func" => self.body_function_declaration(start),
            "extern" | "visible" | "weak" | "common"
                if self.peek_second() == Some(Tok::Dot) && self.next_text() == ".func" =>
            {
                self.body_function_declaration(start)
            }
            // Linkage is for module scope: ptxas names what follows it.
            "extern" | "visible" | "weak" | "common" => {
                self.advance();
                self.syntax_error()
            }
            _ => self.syntax_error(),
        }
    }

    // ---- instructions --------------------------------------------------------------------

    /// Parses an instruction into the body buffer (built in place: returning it through `Result`s
    /// copied it a few times).
    fn instruction(&mut self) -> PResult<()> {
        let line = self.line();
        let start = self.offset();
        let guard = if self.eat(Tok::At) {
            let neg = self.eat(Tok::Bang);
            if self.peek() != Some(Tok::Percent) && self.peek() != Some(Tok::Ident) {
                return self.syntax_error();
            }
            Some((neg, Name::new(self.bump())))
        } else {
            None
        };
        if self.peek() != Some(Tok::Ident) {
            return self.syntax_error();
        }
        let opcode = self.bump();
        self.mods_buf.clear();
        while self.peek() == Some(Tok::Dot) {
            let m = Name::new(&self.bump()[1..]);
            self.mods_buf.push(m);
        }
        let form = self.forms.intern(opcode, &self.mods_buf);
        let first = self.operands_buf.len();
        let guarded = self.push_guard(guard);
        if let Err(failed) = self.operand_list() {
            self.operands_buf.truncate(first);
            return Err(failed);
        }
        let operands = self.operands_since(first, guarded);
        let span = self.span_from(start);
        self.body_buf.push(Statement::Instr(Instruction {
            form,
            operands,
            line,
            span,
        }));
        Ok(())
    }

    /// The operands of an instruction up to and including its `;`, onto the function's operand
    /// buffer.
    fn operand_list(&mut self) -> PResult<()> {
        if self.eat(Tok::Semi) {
            return Ok(());
        }
        loop {
            let o = self.operand()?;
            self.operands_buf.push(o);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)
    }

    /// Starts an instruction's operands on the function's buffer with its guard, if any (as
    /// [`Operands`] keep it); whether there was one.
    pub(crate) fn push_guard(&mut self, guard: Option<(bool, Name)>) -> bool {
        match guard {
            Some((true, p)) => self.operands_buf.push(Operand::NotReg(p)),
            Some((false, p)) => self.operands_buf.push(Operand::Reg(p)),
            None => return false,
        }
        true
    }

    /// The instruction's operands: those pushed onto the function's buffer since `first` (the
    /// guard first when `guarded`), placed when the function ends ([`Parser::take_body`]).
    pub(crate) fn operands_since(&self, first: usize, guarded: bool) -> Operands {
        Operands::pending(first, self.operands_buf.len() - first, guarded)
    }

    /// Moves the function's statements and operands out of the reused buffers: the operands into
    /// one block that every instruction points into (resolved first: bare register names become
    /// registers, zero-padded register numbers lose their padding), the statements into a vector
    /// of exactly their count (a quarter of the tree's memory otherwise goes to spare capacity).
    fn take_body(&mut self, f: &mut Function) {
        self.close_loc();
        crate::checks::resolve::register_symbols(&f.regs, &mut self.operands_buf);
        if std::mem::take(&mut self.zero_padded_reg) {
            crate::checks::resolve::unpad_register_numbers(&f.regs, &mut self.operands_buf);
        }
        let block = take_shared(&mut self.operands_buf);
        for s in &mut self.body_buf {
            if let Statement::Instr(i) = s {
                i.operands.place_in(&block);
            }
        }
        f.body = take_exact(&mut self.body_buf);
    }

    fn operand(&mut self) -> PResult<Operand> {
        self.nested(|p| p.operand_inner())
    }

    fn operand_inner(&mut self) -> PResult<Operand> {
        match self.peek() {
            Some(Tok::Percent) => self.register_operand(),
            Some(Tok::Bang) => {
                self.advance();
                if self.peek() != Some(Tok::Percent) {
                    return self.syntax_error();
                }
                let name = Name::new(self.bump());
                self.note_register(&name);
                Ok(Operand::NotReg(name))
            }
            Some(Tok::Ident) if self.peek_second() == Some(Tok::Pipe) => self.register_operand(),
            Some(Tok::Ident) => {
                let t = self.bump();
                if t == "_" {
                    return Ok(Operand::Sink);
                }
                self.symbol_offset(t)
            }
            Some(Tok::LBracket) => self.address(),
            Some(Tok::LBrace) => self.vector(),
            Some(Tok::LParen) => self.paren_list(),
            Some(Tok::F32Hex) => Ok(Operand::F32(
                u32::from_str_radix(&self.bump()[2..], 16).unwrap_or(0),
            )),
            Some(Tok::F64Hex) => Ok(Operand::F64(
                u64::from_str_radix(&self.bump()[2..], 16).unwrap_or(0),
            )),
            // A decimal float is a double-precision value, as ptxas reads it.
            Some(Tok::DecFloat) => Ok(Operand::F64(
                self.bump().parse::<f64>().unwrap_or(0.0).to_bits(),
            )),
            Some(Tok::Minus) if self.peek_second() == Some(Tok::DecFloat) => {
                self.advance();
                Ok(Operand::F64(
                    (-self.bump().parse::<f64>().unwrap_or(0.0)).to_bits(),
                ))
            }
            Some(Tok::Minus) | Some(Tok::DecInt) | Some(Tok::HexInt) => {
                Ok(Operand::Imm(self.integer()?))
            }
            _ => self.syntax_error(),
        }
    }

    /// `sym` or `sym+4[+8...]` (ptxas adds the offsets; `sym-4` is a syntax error): a symbol
    /// operand, named `sym+<total>` when offset (see [`crate::ast::symbol_base`]).
    fn symbol_offset(&mut self, name: &str) -> PResult<Operand> {
        let mut offset: Option<i128> = None;
        while self.eat(Tok::Plus) {
            let n = self.integer()?;
            offset = Some(offset.unwrap_or(0).wrapping_add(n));
        }
        Ok(Operand::Symbol(match offset {
            Some(o) => Name::from(format!("{name}+{o}")),
            None => Name::new(name),
        }))
    }

    /// Notes a zero-padded register number (`%r01`), which ptxas reads as a member of a range.
    pub(crate) fn note_register(&mut self, name: &str) {
        if crate::ast::zero_padded_split(name).is_some() {
            self.zero_padded_reg = true;
        }
    }

    /// `%r1`, `%tid.x`, `%p|%q`, `%g+4`.
    fn register_operand(&mut self) -> PResult<Operand> {
        let name = Name::new(self.bump());
        self.note_register(&name);
        if self.eat(Tok::Pipe) {
            if !matches!(self.peek(), Some(Tok::Percent) | Some(Tok::Ident)) {
                return self.syntax_error();
            }
            let second = Name::new(self.bump());
            self.note_register(&second);
            return Ok(Operand::PredPair(Box::new((name, second))));
        }
        if self.peek() == Some(Tok::Plus) {
            // A `%`-named variable plus offsets (`%g+4`), which ptxas takes as a symbol does.
            return self.symbol_offset(&name.to_string());
        }
        if self.peek() == Some(Tok::Dot) {
            let comp = &self.text()[1..];
            if comp.len() == 1 && matches!(comp, "x" | "y" | "z" | "w" | "r" | "g" | "b" | "a") {
                let c = comp.chars().next();
                self.advance();
                return Ok(Operand::SpecialReg { name, comp: c });
            }
        }
        if is_special_register(&name) {
            return Ok(Operand::SpecialReg { name, comp: None });
        }
        Ok(Operand::Reg(name))
    }

    fn address(&mut self) -> PResult<Operand> {
        self.expect(Tok::LBracket)?;
        let base = match self.peek() {
            Some(Tok::Percent) => {
                let name = Name::new(self.bump());
                self.note_register(&name);
                AddrBase::Reg(name)
            }
            Some(Tok::Ident) => AddrBase::Symbol(Name::new(self.bump())),
            _ => AddrBase::None,
        };
        if self.peek() == Some(Tok::Comma) {
            return self.tensor_address(base);
        }
        // `[expr]`, `[base+expr]` (a constant expression: `[%rd1+4*2]`, `[%rd1+-8]`) or a bare
        // base; ptxas takes no `-` after a base (`[%rd1-8]` is a syntax error).
        let has_offset = base == AddrBase::None || self.eat(Tok::Plus);
        let offset = if has_offset {
            self.address_offset()?
        } else {
            0
        };
        self.expect(Tok::RBracket)?;
        Ok(Operand::Addr { base, offset })
    }

    /// An address offset: a constant expression (`const_expr.rs`). A float literal first is
    /// ptxas's error "Integer constant expression expected" (checking goes on, the offset taken
    /// as 0; integers may follow after `+`); one later is a syntax error.
    fn address_offset(&mut self) -> PResult<i64> {
        let float = matches!(self.peek(), Some(Tok::F32Hex | Tok::F64Hex | Tok::DecFloat));
        let offset = if float {
            self.advance();
            while self.eat(Tok::Plus) {
                self.integer()?;
            }
            0
        } else {
            self.const_expr()?
        };
        if float {
            let line = self.line();
            self.error_at(line, "Integer constant expression expected".into(), false);
            return Ok(0);
        }
        Ok(offset)
    }

    /// `[%rd32, {%r1, %r2}]`: a tensor map with coordinates, kept as a vector of operands.
    fn tensor_address(&mut self, base: AddrBase) -> PResult<Operand> {
        let mut v = vec![Operand::Addr { base, offset: 0 }];
        while self.eat(Tok::Comma) {
            v.push(self.operand()?);
        }
        self.expect(Tok::RBracket)?;
        Ok(Operand::Vector(v))
    }

    fn vector(&mut self) -> PResult<Operand> {
        self.expect(Tok::LBrace)?;
        let mut v = Vec::new();
        loop {
            v.push(self.operand()?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(Operand::Vector(v))
    }

    /// `(a, b)` argument lists of `call`.
    fn paren_list(&mut self) -> PResult<Operand> {
        self.expect(Tok::LParen)?;
        let mut v = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                v.push(self.operand()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
        Ok(Operand::Vector(v))
    }
}

/// Whether a directive names a state space a declaration may have.
fn is_state_space(directive: &str) -> bool {
    matches!(
        directive,
        "reg" | "param" | "shared" | "global" | "const" | "local"
    )
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

fn is_declaration_specifier(directive: &str) -> bool {
    Type::from_mod(directive).is_some()
        || directive == "align"
        || directive
            .strip_prefix('v')
            .is_some_and(|n| n.parse::<u32>().is_ok())
}

/// The state space a `.ptr` parameter points into (`.global` ...), by its directive's name.
fn pointee_space(directive: &str) -> Option<StateSpace> {
    match directive {
        "global" => Some(StateSpace::Global),
        "shared" => Some(StateSpace::Shared),
        "const" => Some(StateSpace::Const),
        "local" => Some(StateSpace::Local),
        _ => None,
    }
}

/// The contents of a reused buffer, moved into a shared block of exactly their length, leaving
/// the buffer empty with its capacity.
fn take_shared<T>(buf: &mut Vec<T>) -> Arc<[T]> {
    let mut block: Arc<[MaybeUninit<T>]> = (0..buf.len()).map(|_| MaybeUninit::uninit()).collect();
    let slots = Arc::get_mut(&mut block).expect("a block just made has one owner");
    // SAFETY: the block has room for the buffer's elements; once they are in place, the
    // `MaybeUninit` slice is the initialized `[T]` it has the layout of.
    unsafe {
        move_out(buf, slots.as_mut_ptr().cast::<T>());
        Arc::from_raw(Arc::into_raw(block) as *const [T])
    }
}

/// The contents of a reused buffer, moved into a vector of exactly their length (a quarter of the
/// tree's memory otherwise goes to spare capacity), leaving the buffer empty with its capacity.
fn take_exact<T>(buf: &mut Vec<T>) -> Vec<T> {
    let len = buf.len();
    let mut v = Vec::with_capacity(len);
    // SAFETY: `v` has room for the `len` elements moved in.
    unsafe {
        move_out(buf, v.as_mut_ptr());
        v.set_len(len);
    }
    v
}

/// Bytes copied at a time by [`move_out`]: copies of a few KiB run the C library's vector loop
/// (larger ones switch to `rep movsb`, which callgrind counts an instruction per byte, and
/// `collect` moves element by element).
const MOVE_CHUNK_BYTES: usize = 1024;

/// Moves the elements of `buf` to `dst`, leaving `buf` empty (its capacity kept).
///
/// # Safety
/// `dst` must be valid for writing `buf.len()` elements and must not overlap `buf`.
unsafe fn move_out<T>(buf: &mut Vec<T>, dst: *mut T) {
    let per_chunk = (MOVE_CHUNK_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    let len = buf.len();
    // The elements move: the buffer forgets them before they are copied.
    buf.set_len(0);
    let src = buf.as_ptr();
    let mut at = 0;
    while at < len {
        let n = per_chunk.min(len - at);
        std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), n);
        at += n;
    }
}

/// Special registers that take no component (the `%`-names PTX predefines).
#[inline]
pub(crate) fn is_special_register(name: &str) -> bool {
    // The commonest registers (`%r12`, `%f3`, `%p1`): a letter and a digit, tested inline.
    let b = name.as_bytes();
    if b.len() >= 3 && b[1].is_ascii_lowercase() && b[2].is_ascii_digit() {
        return false;
    }
    is_special_register_name(name)
}

/// [`is_special_register`] past its inline test.
#[inline(never)]
fn is_special_register_name(name: &str) -> bool {
    // The usual registers (`%r12`, `%rd3`, `%fd1`) are up to three letters and a number; of the
    // special ones only `%pm<n>` is.
    let b = name.as_bytes();
    let letter = |i: usize| b.get(i).is_some_and(u8::is_ascii_lowercase);
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if letter(1)
        && (digit(2) || letter(2) && (digit(3) || letter(3) && digit(4)))
        && !name.starts_with("%pm")
    {
        return false;
    }
    matches!(
        name,
        "%laneid"
            | "%warpid"
            | "%nwarpid"
            | "%smid"
            | "%nsmid"
            | "%gridid"
            | "%clock"
            | "%clock64"
            | "%clock_hi"
            | "%lanemask_eq"
            | "%lanemask_le"
            | "%lanemask_lt"
            | "%lanemask_ge"
            | "%lanemask_gt"
            | "%globaltimer"
            | "%globaltimer_lo"
            | "%globaltimer_hi"
            | "%dynamic_smem_size"
            | "%total_smem_size"
            | "%aggr_smem_size"
            | "%is_explicit_cluster"
            | "%cluster_ctarank"
            | "%cluster_nctarank"
            | "%current_graph_exec"
    ) || ["%pm", "%envreg", "%reserved_smem_offset"]
        .iter()
        .any(|p| name.starts_with(p))
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

/// The names a texture, sampler or surface reference's initializer value may be.
const TEXTURE_VALUE_NAMES: &[&str] = &[
    "wrap",
    "mirror",
    "clamp_ogl",
    "clamp_to_edge",
    "clamp_to_border",
    "nearest",
    "linear",
];

/// The fields that an initializer of a `.texref`, `.samplerref` or `.surfref` may name.
fn reference_fields(kind: &str) -> &'static [&'static str] {
    const SHAPE: [&str; 6] = [
        "width",
        "height",
        "depth",
        "channel_data_type",
        "channel_order",
        "array_size",
    ];
    match kind {
        "texref" => &[
            SHAPE[0],
            SHAPE[1],
            SHAPE[2],
            SHAPE[3],
            SHAPE[4],
            SHAPE[5],
            "normalized_coords",
            "filter_mode",
            "addr_mode_0",
            "addr_mode_1",
            "addr_mode_2",
            "num_mipmap_levels",
            "num_samples",
        ],
        "samplerref" => &[
            "filter_mode",
            "addr_mode_0",
            "addr_mode_1",
            "addr_mode_2",
            "force_unnormalized_coords",
        ],
        _ => &SHAPE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_exact_moves_everything_once() {
        for n in 0..8 {
            let mut buf: Vec<String> = (0..n)
                .map(|i| format!("value number {i} on the heap"))
                .collect();
            let want = buf.clone();
            let cap = buf.capacity();
            let got = take_exact(&mut buf);
            assert_eq!(got, want);
            assert_eq!(got.capacity(), n);
            assert!(buf.is_empty() && buf.capacity() == cap);
        }
    }

    /// Blocks past one copy chunk too: every element arrives once, in order, and the buffer
    /// keeps its capacity.
    #[test]
    fn take_shared_moves_everything_once() {
        for n in [0, 1, 7, 31, 32, 33, 100, 1000] {
            let mut buf: Vec<String> = (0..n).map(|i| format!("value {i} on the heap")).collect();
            let want = buf.clone();
            let cap = buf.capacity();
            let got = take_shared(&mut buf);
            assert_eq!(&got[..], &want[..]);
            assert!(buf.is_empty() && buf.capacity() == cap);
            let got = take_exact(&mut want.clone());
            assert_eq!(got, want);
        }
    }

    /// The quick answers agree with what they stand in for.
    #[test]
    fn register_name_shortcuts_agree() {
        let names = [
            "%r1",
            "%r01",
            "%r00",
            "%r0",
            "%r10",
            "%rd012",
            "%fd1",
            "%p1",
            "%pm0",
            "%pm7",
            "%pm0_64",
            "%envreg3",
            "%clock64",
            "%clock",
            "%laneid",
            "%smid",
            "%r",
            "%01",
            "%ab12",
            "%abcd1",
            "%rs010",
            "r01",
            "%reserved_smem_offset_0",
            "%lanemask_lt",
            "%h1",
            "%hh01",
            "%r1x",
            "%r12_",
            "%r0a",
            "000",
            "%0",
            "0",
            "",
        ];
        // Zero-padded numbers (also names that end in a letter after a digit: `%r1x` once indexed
        // past the end).
        let padded = ["%r01", "%r00", "%rd012", "%01", "%rs010", "%hh01", "r01"];
        for n in names {
            assert_eq!(
                crate::ast::zero_padded_split(n).is_some(),
                padded.contains(&n),
                "{n}"
            );
            assert_eq!(
                crate::ast::zero_padded_number(n).is_some(),
                padded.contains(&n),
                "{n}"
            );
            let slow = matches!(
                n,
                "%laneid" | "%smid" | "%clock" | "%clock64" | "%lanemask_lt"
            ) || ["%pm", "%envreg", "%reserved_smem_offset"]
                .iter()
                .any(|p| n.starts_with(p));
            assert_eq!(is_special_register(n), slow, "{n}");
        }
    }
}

/// The nested `{ }` blocks of the function body being read, and whether a declaration followed
/// an instruction of its block (nvcc declares first, so this is rare).
#[derive(Default)]
pub(crate) struct Blocks {
    /// The statement count when the innermost open block began (0 once a nested block closed:
    /// what its enclosing block read before it is not kept, so any statement counts).
    opened_at: usize,
    /// The open nested blocks, up to [`TRACKED_DEPTH`]: where each starts, and whether it
    /// declares something.
    open: Vec<(u32, bool)>,
    /// Open blocks nested deeper than [`TRACKED_DEPTH`].
    untracked: u32,
    /// The nested blocks closed so far that declare something, from `{` to `}`.
    closed: Vec<Span>,
    declared_late: bool,
    /// Whether a block went untracked: the body's blocks are then not known.
    lost: bool,
}

/// How deep [`Blocks`] follows nested blocks (memory stays bounded for any input).
const TRACKED_DEPTH: usize = 256;

impl Blocks {
    /// Forgets the last function's blocks; the body's statements start at 0.
    fn start(&mut self) {
        *self = Blocks {
            open: std::mem::take(&mut self.open),
            closed: std::mem::take(&mut self.closed),
            ..Blocks::default()
        };
        self.open.clear();
        self.closed.clear();
    }

    /// A nested block opens at `at` with `statements` read so far.
    fn open(&mut self, at: u32, statements: usize) {
        self.opened_at = statements;
        if self.untracked == 0 && self.open.len() < TRACKED_DEPTH {
            self.open.push((at, false));
        } else {
            self.untracked += 1;
            self.lost = true;
        }
    }

    /// The innermost nested block closes at `at` (its `}`).
    fn close(&mut self, at: u32) {
        self.opened_at = 0;
        if self.untracked > 0 {
            self.untracked -= 1;
        } else if let Some((start, true)) = self.open.pop() {
            self.closed.push(Span { start, end: at });
        }
    }

    /// A declaration starts with `statements` read so far.
    #[inline]
    pub(crate) fn declaration(&mut self, statements: usize) {
        self.declared_late |= statements > self.opened_at;
        if let Some(top) = self.open.last_mut() {
            top.1 = true;
        }
    }

    /// What [`Function::declared_late`] holds for the body read.
    fn declared_late(&self) -> Option<Box<[Span]>> {
        (self.declared_late && !self.lost).then(|| self.closed.clone().into_boxed_slice())
    }
}
