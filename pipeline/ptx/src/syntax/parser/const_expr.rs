//! Integer constant expressions in addresses (`[%rd1+4*2]`, `[g+(8-4)]`, `[16*2]`) as ptxas reads
//! them: C's operators with C's precedence on 64-bit values (wrapping; division and remainder by
//! zero give 0). The lexer knows no `*`, `/`, `%`, `~`, `&`, `^` or `?`: each comes as a
//! one-character error token, read here by its text.

use super::{PResult, Parser};
use crate::syntax::lexer::Tok;

/// A binary operator: its precedence (higher binds tighter) and how many tokens it takes.
#[derive(Copy, Clone)]
enum Binary {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Xor,
    Or,
    LogicalAnd,
    LogicalOr,
}

impl Binary {
    fn precedence(self) -> u8 {
        use Binary::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Le | Gt | Ge => 7,
            Eq | Ne => 6,
            And => 5,
            Xor => 4,
            Or => 3,
            LogicalAnd => 2,
            LogicalOr => 1,
        }
    }

    fn apply(self, a: i64, b: i64) -> i64 {
        use Binary::*;
        match self {
            Mul => a.wrapping_mul(b),
            Div => a.checked_div(b).unwrap_or(0),
            Rem => a.checked_rem(b).unwrap_or(0),
            Add => a.wrapping_add(b),
            Sub => a.wrapping_sub(b),
            Shl => a.wrapping_shl(b as u32),
            Shr => a.wrapping_shr(b as u32),
            Lt => i64::from(a < b),
            Le => i64::from(a <= b),
            Gt => i64::from(a > b),
            Ge => i64::from(a >= b),
            Eq => i64::from(a == b),
            Ne => i64::from(a != b),
            And => a & b,
            Xor => a ^ b,
            Or => a | b,
            LogicalAnd => i64::from(a != 0 && b != 0),
            LogicalOr => i64::from(a != 0 || b != 0),
        }
    }
}

impl Parser<'_> {
    /// A constant expression: `a ? b : c` over the binary operators.
    pub(super) fn const_expr(&mut self) -> PResult<i64> {
        let condition = self.binary_expr(1)?;
        if !self.eat_char("?") {
            return Ok(condition);
        }
        let then = self.const_expr()?;
        if !self.eat(Tok::Colon) {
            return self.syntax_error();
        }
        let otherwise = self.const_expr()?;
        Ok(if condition != 0 { then } else { otherwise })
    }

    /// Operators of precedence `min` and tighter, left to right.
    fn binary_expr(&mut self, min: u8) -> PResult<i64> {
        let mut value = self.unary_expr()?;
        while let Some((op, tokens)) = self.binary_operator() {
            if op.precedence() < min {
                break;
            }
            for _ in 0..tokens {
                self.advance();
            }
            let rhs = self.binary_expr(op.precedence() + 1)?;
            value = op.apply(value, rhs);
        }
        Ok(value)
    }

    /// The binary operator at the current token, and how many tokens it spans.
    fn binary_operator(&self) -> Option<(Binary, usize)> {
        let second = self.next_text();
        Some(match (self.peek()?, self.text()) {
            (Tok::Plus, _) => (Binary::Add, 1),
            (Tok::Minus, _) => (Binary::Sub, 1),
            (Tok::Lt, _) if second == "<" => (Binary::Shl, 2),
            (Tok::Lt, _) if second == "=" => (Binary::Le, 2),
            (Tok::Lt, _) => (Binary::Lt, 1),
            (Tok::Gt, _) if second == ">" => (Binary::Shr, 2),
            (Tok::Gt, _) if second == "=" => (Binary::Ge, 2),
            (Tok::Gt, _) => (Binary::Gt, 1),
            (Tok::Eq, _) if second == "=" => (Binary::Eq, 2),
            (Tok::Bang, _) if second == "=" => (Binary::Ne, 2),
            (Tok::Pipe, _) if second == "|" => (Binary::LogicalOr, 2),
            (Tok::Pipe, _) => (Binary::Or, 1),
            (Tok::Error, "*") => (Binary::Mul, 1),
            (Tok::Error, "/") => (Binary::Div, 1),
            (Tok::Error, "%") => (Binary::Rem, 1),
            (Tok::Error, "^") => (Binary::Xor, 1),
            (Tok::Error, "&") if second == "&" => (Binary::LogicalAnd, 2),
            (Tok::Error, "&") => (Binary::And, 1),
            _ => return None,
        })
    }

    /// A number, a parenthesized expression, or one after `-`, `+`, `~`, `!`.
    fn unary_expr(&mut self) -> PResult<i64> {
        if self.eat(Tok::Minus) {
            return Ok(self.unary_expr()?.wrapping_neg());
        }
        if self.eat(Tok::Plus) {
            return self.unary_expr();
        }
        if self.eat_char("~") {
            return Ok(!self.unary_expr()?);
        }
        if self.eat(Tok::Bang) {
            return Ok(i64::from(self.unary_expr()? == 0));
        }
        if self.eat(Tok::LParen) {
            let value = self.const_expr()?;
            if !self.eat(Tok::RParen) {
                return self.syntax_error();
            }
            return Ok(value);
        }
        Ok(self.integer()? as i64)
    }

    /// Consumes a one-character error token `c` (an operator the lexer does not know).
    fn eat_char(&mut self, c: &str) -> bool {
        let found = self.peek() == Some(Tok::Error) && self.text() == c;
        if found {
            self.advance();
        }
        found
    }
}
