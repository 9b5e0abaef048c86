//! Parsing instructions: the opcode and modifiers (as one interned form), the guard, and the
//! operands (registers, symbols, addresses, vectors, `call` argument lists); which `%` names
//! are special registers.

use super::*;

impl<'s> Parser<'s> {
    /// Parses an instruction into the body buffer (built in place: returning it through `Result`s
    /// copied it a few times).
    pub(super) fn instruction(&mut self) -> PResult<()> {
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
    pub(super) fn take_body(&mut self, f: &mut Function) {
        self.close_loc();
        if let Some(blocks) = self.blocks.declaring_blocks() {
            crate::checks::scopes::scope_registers(
                &mut f.regs,
                &self.body_buf,
                &mut self.operands_buf,
                blocks,
            );
            crate::checks::scopes::scope_labels(&mut self.body_buf, &mut self.operands_buf, blocks);
        }
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

    pub(super) fn operand(&mut self) -> PResult<Operand> {
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

#[cfg(test)]
mod tests {
    use super::*;
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
