//! Parsing functions: `.entry`/`.func` headers, prototypes and parameter lists, performance
//! directives, and the body's statements and nested `{ }` blocks ([`Blocks`]).

use super::*;

impl<'s> Parser<'s> {
    pub(super) fn function(
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
            self.blocks.label();
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

    /// A label is declared: its block is kept, as a declaring one's (labels are scoped too).
    pub(crate) fn label(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.1 = true;
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

    /// The body's nested blocks that declare something, from `{` to `}`; `None` when there are
    /// none or they are not all known.
    pub(crate) fn declaring_blocks(&self) -> Option<&[Span]> {
        (!self.closed.is_empty() && !self.lost).then_some(&self.closed[..])
    }

    /// What [`Function::declared_late`] holds for the body read.
    fn declared_late(&self) -> Option<Box<[Span]>> {
        (self.declared_late && !self.lost).then(|| self.closed.clone().into_boxed_slice())
    }
}
