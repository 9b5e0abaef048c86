//! The operand summary: one walk over an instruction's operands that tells which kinds it has
//! (so the checks for symbols, special registers and symbol addresses run only where there are
//! some), keyed for the cache of operand verdicts.

use super::*;

pub(super) fn vector_len(o: &Operand) -> usize {
    match o {
        Operand::Vector(v) => v.len(),
        _ => 0,
    }
}

/// An instruction's operands in one pass: whether any names something undeclared ([`unknown_symbols`]
/// then says what), and a key of all that the operand checks ([`check_operand_forms`],
/// [`check_operands`]) read from them: their kinds, the registers' declared types, whether the
/// addresses and symbols are known. Operands with the same key under the same plan fit alike, so
/// the checks run once per key. No key for long operand lists or nested vectors.
pub(super) struct OperandSummary<'s> {
    /// The kinds of the operands proper.
    pub(super) kinds: OperandKinds,
    /// The variable of the first address operand that names one ([`check_space`]'s).
    pub(super) addressed: Option<&'s VarDecl>,
    pub(super) unknown: bool,
    pub(super) key: Option<OperandKey>,
    /// A vector operand holds something other than registers of one declared type, or has a
    /// length other than 1, 2, 4 or 8, or a vector follows another (`mov {..}, {..}`).
    pub(super) mixed_vectors: bool,
}

/// Codes of an instruction's operands under its plan, a byte each (the first in the low byte),
/// and the width of its vector access.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub(super) struct OperandKey {
    pub(super) codes: u128,
    /// The plan's id (the high 32 bits), the width (bits 8 to 31: 0 before it is known, then 1,
    /// 2, 4 or 8) and how many codes (the low byte), compared as one word.
    pub(super) meta: u64,
}

impl OperandKey {
    #[inline]
    pub(super) fn new(plan: u32, len: u8, width: u32, codes: u128) -> OperandKey {
        OperandKey {
            codes,
            meta: u64::from(plan) << 32 | u64::from(width) << 8 | u64::from(len),
        }
    }

    /// The key with the width of the vector access `width`.
    #[inline]
    pub(super) fn with_width(self, width: u32) -> OperandKey {
        OperandKey {
            meta: self.meta & !0xffff_ff00 | u64::from(width) << 8,
            ..self
        }
    }

    /// A slot of [`Verdicts::recent`]: one multiply of the key's folded words.
    #[inline]
    pub(super) fn slot(&self) -> usize {
        let words = self.codes as u64 ^ (self.codes >> 64) as u64 ^ self.meta;
        (words.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize % RECENT_VERDICTS
    }
}

impl<'s> OperandSummary<'s> {
    #[inline]
    pub(super) fn of(i: &Instruction, p: &Plan, s: &'s Scope) -> OperandSummary<'s> {
        let mut sum = Summing::new(s, p.takes_address);
        // Registers, numbers and addresses in registers (nearly all operands) are coded here:
        // they are of no kind that [`OperandKinds`] notes.
        for o in i.operands.iter() {
            let code = match o {
                Operand::Reg(r) => sum.register_code(r),
                Operand::Imm(_) => Summing::VALUE,
                Operand::Addr {
                    base: AddrBase::Reg(r),
                    ..
                } => sum.register_address_code(r),
                _ => {
                    sum.top_operand(o);
                    continue;
                }
            };
            sum.push(code);
        }
        let key = (sum.keyed && sum.len <= 16)
            .then(|| OperandKey::new(p.id, sum.len as u8, 0, u128::from_le_bytes(sum.codes)));
        OperandSummary {
            kinds: sum.kinds,
            addressed: sum.addressed,
            unknown: sum.unknown,
            key,
            mixed_vectors: sum.mixed_vectors,
        }
    }

    /// The kinds alone, for instructions not checked against an `isa` row.
    pub(super) fn kinds_of(i: &Instruction) -> OperandSummary<'s> {
        OperandSummary {
            kinds: OperandKinds::of(i),
            addressed: None,
            unknown: false,
            key: None,
            mixed_vectors: false,
        }
    }
}

pub(super) struct Summing<'s, 'a> {
    pub(super) s: &'s Scope<'a>,
    /// The variable of the first address operand proper that names one.
    pub(super) addressed: Option<&'s VarDecl>,
    pub(super) takes_address: bool,
    pub(super) unknown: bool,
    /// The codes of the first 16 operands (see [`OperandKey`]).
    pub(super) codes: [u8; 16],
    pub(super) len: usize,
    pub(super) keyed: bool,
    pub(super) mixed_vectors: bool,
    /// A vector operand was seen.
    pub(super) vectors: bool,
    pub(super) kinds: OperandKinds,
}

impl<'s, 'a> Summing<'s, 'a> {
    /// Operand codes: a kind in the top 3 bits, below it a register's type (0: undeclared) or a flag.
    pub(super) const REG: u8 = 0;
    pub(super) const NOT_REG: u8 = 1 << 5;
    pub(super) const PAIR: u8 = 2 << 5;
    pub(super) const VALUE: u8 = 3 << 5;
    pub(super) const SPECIAL: u8 = 4 << 5;
    pub(super) const ADDR: u8 = 5 << 5;
    pub(super) const SYMBOL: u8 = 6 << 5;
    pub(super) const VECTOR: u8 = 7 << 5;
    /// An undeclared `%tid`-like name.
    pub(super) const VECTOR_SPECIAL: u8 = 31;
    /// Not a code: [`Summing::symbol_code`]'s mark of a name with an offset.
    pub(super) const PLUS_OFFSET_NAME: u8 = 1 << 4;

    #[inline]
    pub(super) fn new(s: &'s Scope<'a>, takes_address: bool) -> Summing<'s, 'a> {
        Summing {
            s,
            addressed: None,
            takes_address,
            unknown: false,
            codes: [0; 16],
            len: 0,
            keyed: true,
            mixed_vectors: false,
            vectors: false,
            kinds: OperandKinds::NONE,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, code: u8) {
        if let Some(at) = self.codes.get_mut(self.len) {
            *at = code;
        }
        self.len += 1;
    }

    /// Whether the codes from `from` on are one declared register type (all known only within
    /// the first 16 operands: past them, no).
    pub(super) fn one_declared_type(&self, from: usize) -> bool {
        if self.len > 16 || from == self.len {
            return from == self.len;
        }
        let code = |k: usize| self.codes[k];
        let first = code(from);
        let declared = first != Self::REG
            && first != Self::REG | Self::VECTOR_SPECIAL
            && first >> 5 == Self::REG >> 5;
        declared && (from + 1..self.len).all(|k| code(k) == first)
    }

    /// A register's declared type (an undeclared one is unknown, but `_`), as a code.
    pub(super) fn register(&mut self, name: &Name) -> u8 {
        let ty = self.s.regs.lookup_name(name);
        self.unknown |= ty.is_none() && name != "_";
        ty.map_or(0, |t| t as u8 + 1)
    }

    /// The code of a register operand (`Operand::Reg`).
    #[inline]
    pub(super) fn register_code(&mut self, r: &Name) -> u8 {
        match self.s.regs.lookup_name(r) {
            Some(t) => Self::REG | (t as u8 + 1),
            None => self.undeclared_register_code(r),
        }
    }

    /// The code of an address whose base is a register (`[%rd1+8]`), as
    /// [`Summing::address_base_known`] makes it.
    #[inline]
    pub(super) fn register_address_code(&mut self, r: &Name) -> u8 {
        if self.s.regs.lookup_name(r).is_some() {
            return Self::ADDR | 1;
        }
        self.undeclared_address_code(r)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn undeclared_address_code(&mut self, r: &Name) -> u8 {
        Self::ADDR | u8::from(self.address_base_known(&AddrBase::Reg(r.clone())))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn undeclared_register_code(&mut self, r: &str) -> u8 {
        if is_vector_special(r) {
            return Self::REG | Self::VECTOR_SPECIAL;
        }
        self.unknown |= r != "_";
        Self::REG
    }

    /// A label, variable or function (or a `__` name), or else unknown.
    /// Whether it is a label (without an offset).
    pub(super) fn symbol(&mut self, name: &str) -> bool {
        let n = symbol_base(name);
        let label = self.s.labels.contains(n);
        let known = label || self.s.vars.contains_key(n) || self.s.knows_function(n);
        self.unknown |= !known && !n.starts_with("__") && n != "_";
        label && n == name
    }

    /// An operand proper (not inside a vector) other than a register, noting its kind.
    #[inline(never)]
    pub(super) fn top_operand(&mut self, o: &Operand) {
        match o {
            // The symbol's code finds whether it has an offset (the kind's other half).
            Operand::Symbol(n) => {
                self.kinds.symbols = true;
                let code = self.symbol_code(n);
                self.kinds.offset_symbols |= code & Self::PLUS_OFFSET_NAME != 0;
                self.push(code & !Self::PLUS_OFFSET_NAME);
            }
            Operand::Addr {
                base: AddrBase::Symbol(n),
                ..
            } => {
                self.kinds.symbol_addresses = true;
                let code = Self::ADDR | u8::from(self.symbol_address_known(n, true));
                self.push(code);
            }
            _ => {
                self.kinds.note(o);
                self.operand(o, true);
            }
        }
    }

    pub(super) fn operand(&mut self, o: &Operand, top: bool) {
        let code = match o {
            Operand::Reg(r) => self.register_code(r),
            Operand::NotReg(r) => Self::NOT_REG | self.register(r),
            Operand::PredPair(pair) => {
                let first = self.register(&pair.0);
                self.push(Self::PAIR | first);
                self.register(&pair.1)
            }
            Operand::Imm(_) => Self::VALUE,
            Operand::F32(_) | Operand::F64(_) => Self::VALUE | 1,
            Operand::Sink => Self::VALUE | 2,
            Operand::SpecialReg { name, comp } => {
                let undeclared_vector =
                    comp.is_none() && is_vector_special(name) && self.s.regs.lookup(name).is_none();
                // The sizes it is read as, in bits 1 to 3.
                Self::SPECIAL | u8::from(undeclared_vector) | special_register_sizes(name, *comp)
            }
            Operand::Addr { base, .. } => Self::ADDR | u8::from(self.address_base_known(base)),
            Operand::Symbol(n) => self.symbol_code(n) & !Self::PLUS_OFFSET_NAME,
            Operand::Vector(v) => {
                self.keyed &= top && v.len() < 32;
                self.push(Self::VECTOR | v.len().min(31) as u8);
                let from = self.len;
                v.iter().for_each(|e| self.operand(e, false));
                // Eight elements are no vector of a `mov` (the one opcode here that takes addresses
                // and vectors).
                self.mixed_vectors |= !matches!(v.len(), 1 | 2 | 4 | 8)
                    || (v.len() == 8 && self.takes_address)
                    || !self.one_declared_type(from)
                    || (top && self.vectors);
                self.vectors |= top;
                return;
            }
        };
        self.push(code);
    }

    /// Whether an address's base names something (noting an unknown one).
    pub(super) fn address_base_known(&mut self, base: &AddrBase) -> bool {
        match base {
            AddrBase::Reg(r) => self.register(r) != 0 || is_known_name(r, self.s),
            AddrBase::Symbol(n) => self.symbol_address_known(n, false),
            AddrBase::None => true,
        }
    }

    /// [`Summing::address_base_known`] of a symbol base `n`; the variable of an operand
    /// proper (`top`) is [`Summing::addressed`] when none was before.
    pub(super) fn symbol_address_known(&mut self, n: &str, top: bool) -> bool {
        // A variable (the usual base) is known as a symbol too: one look. Its name (as a
        // function's) has no offset.
        let var = self.s.vars.decl(n);
        if top && self.addressed.is_none() {
            self.addressed = var;
        }
        let var_or_function = var.is_some() || self.s.knows_function(n);
        if !var_or_function {
            self.symbol(n);
        }
        var_or_function || n.starts_with("__") || self.s.regs.lookup(n).is_some()
    }

    /// The code of a symbol operand, with [`Summing::PLUS_OFFSET_NAME`] when its name has an
    /// offset (`g+4`). Variables and other names than labels are told apart: ptxas names a
    /// variable where a register belongs, anything but a label where a label does. Each name
    /// is looked up once ([`symbol_is_address`], [`is_variable_plus_offset`] and
    /// [`Summing::symbol`] in one).
    pub(super) fn symbol_code(&mut self, n: &Name) -> u8 {
        // A label (the usual symbol: `bra L`; its name has no `+`): known, no variable, no offset.
        if self.s.labels.contains_name(n) {
            let address =
                self.takes_address && (self.s.vars.contains_key(n) || self.s.knows_function(n));
            return Self::SYMBOL | u8::from(address);
        }
        let n = n.as_str();
        let base = symbol_base(n);
        let plus = base.len() != n.len();
        let label = plus && self.s.labels.contains(base);
        let variable = self.s.vars.contains_key(base);
        let var_or_function = variable || self.s.knows_function(base);
        let known = label || var_or_function;
        self.unknown |= !known && !base.starts_with("__") && base != "_";
        let address = self.takes_address && (var_or_function || (base.starts_with("__") && !label));
        Self::SYMBOL
            | u8::from(address)
            | u8::from(variable && !plus) << 1
            | 1 << 2
            | u8::from(plus && var_or_function) << 3
            | match plus {
                true => Self::PLUS_OFFSET_NAME,
                false => 0,
            }
    }
}
