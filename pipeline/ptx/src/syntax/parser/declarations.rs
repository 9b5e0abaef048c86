//! Parsing declarations: variable statements (specifiers, declarators, array lengths,
//! initializers), texture/sampler/surface references and their fields, and `.reg` declarations.

use super::*;

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

impl<'s> Parser<'s> {
    /// A variable statement after its state space: specifiers, then declarators separated by
    /// commas up to the `;`, one [`VarDecl`] each (`.global .u32 a, b[4] = {1, 2, 3, 4};`). They
    /// are appended to `out` only once the whole statement parsed: after a syntax error ptxas
    /// checks none of them.
    pub(super) fn var_statement(
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
    pub(super) fn tex_statement(
        &mut self,
        start: u32,
        mut globals: Option<&mut Vec<VarDecl>>,
    ) -> PResult<()> {
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
    pub(super) fn var_decl(&mut self, space: StateSpace, start: u32) -> PResult<VarDecl> {
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
    pub(super) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
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
    pub(super) fn reg_decl(&mut self, out: &mut Vec<RegDecl>, start: u32) -> PResult<()> {
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
}

/// Whether a directive names a state space a declaration may have.
fn is_state_space(directive: &str) -> bool {
    matches!(
        directive,
        "reg" | "param" | "shared" | "global" | "const" | "local"
    )
}

pub(super) fn is_declaration_specifier(directive: &str) -> bool {
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
