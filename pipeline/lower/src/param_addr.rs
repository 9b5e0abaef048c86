//! Kernel parameters reached through a register: `mov.b64 %rd1, k_param_0; add.s64 %rd2, %rd1, 24;
//! ld.param.u32 %r1, [%rd2+8]`, and with a runtime offset (`add.s64 %rd5, %rd1, %rd4`, a loop over
//! an array inside a struct parameter).
//!
//! A register whose value is only ever such an address, and that is only used as an `ld.param`
//! address or to derive another such register, never holds a 64-bit value: it stands for an
//! offset into the parameter block. Where every definition gives the same offset the register is
//! [`ParamAddr::Fixed`] and its loads read the constant-bank word directly (`c[0x0][0x17c]`);
//! otherwise it is [`ParamAddr::Indexed`], a 32-bit register holding the offset, and its loads are
//! register-indexed constant-bank loads (`LDC R4, c[0x0][R0+0x1e4]`), as ptxas emits them.

use std::collections::{HashMap, HashSet};

use ptxforge_ptx::ast::{self, AddrBase, Instruction, Operand, Statement};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// What a parameter-address register stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamAddr {
    /// The same byte offset into the parameter block at every definition.
    Fixed(i64),
    /// A runtime offset into the parameter block, held in a 32-bit register.
    Indexed,
}

/// How an instruction may define a parameter-address register from others.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum AddrDef<'i> {
    /// `mov.b64 %rd, k_param_N`.
    Param(&'i str),
    /// `mov.b64 %rd, %rs`.
    Copy(&'i str),
    /// `add.s64 %rd, %rs, imm` (or `sub` with the immediate negated).
    AddImm(&'i str, i64),
    /// `add.s64 %rd, %ra, %rb`: one of the two is the address, the other a runtime offset.
    AddReg(&'i str, &'i str),
}

/// The destination and the form of `i` if it has the shape of an address definition.
fn addr_def<'i>(
    i: &'i Instruction,
    is_param: &impl Fn(&str) -> bool,
) -> Option<(&'i str, AddrDef<'i>)> {
    let wide = i.ty().is_some_and(|t| t.size_bytes() == 8);
    if !wide || i.guard().is_some() {
        return None;
    }
    let plain = i.mods().len() == 1;
    match (i.opcode(), &i.operands[..]) {
        ("mov", [Operand::Reg(d), Operand::Symbol(s)]) if is_param(s) => {
            Some((d, AddrDef::Param(s)))
        }
        ("mov", [Operand::Reg(d), Operand::Reg(s)]) => Some((d, AddrDef::Copy(s))),
        ("add", [Operand::Reg(d), Operand::Reg(s), Operand::Imm(k)])
        | ("add", [Operand::Reg(d), Operand::Imm(k), Operand::Reg(s)])
            if plain =>
        {
            Some((d, AddrDef::AddImm(s, i64::try_from(*k).ok()?)))
        }
        ("sub", [Operand::Reg(d), Operand::Reg(s), Operand::Imm(k)]) if plain => Some((
            d,
            AddrDef::AddImm(s, i64::try_from(*k).ok()?.checked_neg()?),
        )),
        ("add", [Operand::Reg(d), Operand::Reg(a), Operand::Reg(b)]) if plain => {
            Some((d, AddrDef::AddReg(a, b)))
        }
        _ => None,
    }
}

/// The address register an allowed definition reads, given the current candidates (`None`: the
/// definition does not derive an address from them).
fn addr_source<'i>(def: AddrDef<'i>, set: &HashSet<&str>) -> Option<Option<&'i str>> {
    match def {
        AddrDef::Param(_) => Some(None),
        AddrDef::Copy(s) | AddrDef::AddImm(s, _) => set.contains(s).then_some(Some(s)),
        AddrDef::AddReg(a, b) => match (set.contains(a), set.contains(b)) {
            (true, false) => Some(Some(a)),
            (false, true) => Some(Some(b)),
            _ => None,
        },
    }
}

fn instructions(func: &ast::Function) -> impl Iterator<Item = &Instruction> {
    func.body.iter().filter_map(|s| match s {
        Statement::Instr(i) => Some(i),
        Statement::Label { .. } => None,
    })
}

/// Every register `o` mentions.
fn regs_in<'o>(o: &'o Operand, out: &mut Vec<&'o str>) {
    match o {
        Operand::Reg(r)
        | Operand::NotReg(r)
        | Operand::Addr {
            base: AddrBase::Reg(r),
            ..
        } => out.push(r),
        Operand::PredPair(pair) => out.extend([pair.0.as_str(), pair.1.as_str()]),
        Operand::Vector(v) => v.iter().for_each(|e| regs_in(e, out)),
        _ => {}
    }
}

/// The parameter-address registers of `func` and what each stands for; `offset_of` gives a
/// parameter's offset in the parameter block.
pub fn param_address_regs(
    func: &ast::Function,
    offset_of: impl Fn(&str) -> Option<u32>,
) -> HashMap<String, ParamAddr> {
    let is_param = |s: &str| offset_of(s).is_some();
    let defs: Vec<(&str, AddrDef)> = instructions(func)
        .filter_map(|i| addr_def(i, &is_param))
        .collect();
    let mut set = grow_candidates(&defs);
    prune_escaping(func, &is_param, &mut set);
    let values = offsets(&defs, &set, &offset_of);
    set.into_iter()
        .map(|r| {
            (
                r.to_string(),
                values.get(r).copied().unwrap_or(ParamAddr::Indexed),
            )
        })
        .collect()
}

/// Registers outside the `ld.param`-only set (their value escapes: `cvta.param`, a store) whose
/// every definition is an address definition giving the same offset: an `ld.param` through one
/// reads a fixed constant-bank slot (`[%rd2+-636]` after `add.s64 %rd2, %rd1, 640`, as ptxas
/// folds it).
pub fn fixed_address_regs(
    func: &ast::Function,
    offset_of: impl Fn(&str) -> Option<u32>,
) -> HashMap<String, i64> {
    let is_param = |s: &str| offset_of(s).is_some();
    let defs: Vec<(&str, AddrDef)> = instructions(func)
        .filter_map(|i| addr_def(i, &is_param))
        .collect();
    let mut set = grow_candidates(&defs);
    // Anything else that writes (or may write) a candidate takes it out.
    for i in instructions(func).filter(|i| addr_def(i, &is_param).is_none()) {
        if let Some(Operand::Reg(d)) = i.operands.first() {
            set.remove(d.as_str());
        }
    }
    loop {
        let before = set.len();
        for &(d, def) in &defs {
            if set.contains(d) && addr_source(def, &set).is_none() {
                set.remove(d);
            }
        }
        if set.len() == before {
            break;
        }
    }
    offsets(&defs, &set, &offset_of)
        .into_iter()
        .filter_map(|(r, v)| match v {
            ParamAddr::Fixed(o) => Some((r.to_string(), o)),
            ParamAddr::Indexed => None,
        })
        .collect()
}

/// Registers that some definition derives from a parameter's address (the widest candidate set).
fn grow_candidates<'i>(defs: &[(&'i str, AddrDef<'i>)]) -> HashSet<&'i str> {
    let mut set: HashSet<&str> = HashSet::new();
    loop {
        let before = set.len();
        for &(d, def) in defs {
            if addr_source(def, &set).is_some() {
                set.insert(d);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Drops candidates that an instruction touches other than as an `ld.param` address or as the
/// source or destination of an address definition, until none is left to drop (a dropped
/// register's sources and results are then dropped too).
fn prune_escaping<'f>(
    func: &'f ast::Function,
    is_param: &impl Fn(&str) -> bool,
    set: &mut HashSet<&'f str>,
) {
    let mut regs: Vec<&str> = Vec::new();
    loop {
        let mut drop: Vec<&'f str> = Vec::new();
        for i in instructions(func) {
            regs.clear();
            if let Some(g) = i.guard() {
                regs.push(g.1.as_str());
            }
            i.operands.iter().for_each(|o| regs_in(o, &mut regs));
            let allowed = allowed_touches(i, is_param, set);
            for &r in &regs {
                if set.contains(r) && !allowed.contains(&r) {
                    drop.push(r);
                }
            }
        }
        if drop.is_empty() {
            return;
        }
        for r in drop {
            set.remove(r);
        }
    }
}

/// The candidate registers `i` may mention: an `ld.param`'s address register, or an address
/// definition's destination and address source. An address register mentioned twice (`[%rd1]` as
/// both the address and the destination) is not allowed.
fn allowed_touches<'i>(
    i: &'i Instruction,
    is_param: &impl Fn(&str) -> bool,
    set: &HashSet<&str>,
) -> Vec<&'i str> {
    if i.opcode() == "ld" && i.has_mod("param") {
        if let [val, Operand::Addr {
            base: AddrBase::Reg(r),
            ..
        }] = &i.operands[..]
        {
            let mut in_val = Vec::new();
            regs_in(val, &mut in_val);
            if !in_val.contains(&r.as_str()) {
                return vec![r.as_str()];
            }
        }
        return Vec::new();
    }
    match addr_def(i, is_param) {
        Some((d, def)) if set.contains(d) => match addr_source(def, set) {
            Some(Some(s)) => vec![d, s],
            Some(None) => vec![d],
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Each register's offset where all its definitions agree (a lattice walk: unknown, one offset,
/// varying).
fn offsets<'i>(
    defs: &[(&'i str, AddrDef<'i>)],
    set: &HashSet<&str>,
    offset_of: &impl Fn(&str) -> Option<u32>,
) -> HashMap<&'i str, ParamAddr> {
    let mut values: HashMap<&str, ParamAddr> = HashMap::new();
    loop {
        let mut changed = false;
        for &(d, def) in defs {
            if !set.contains(d) {
                continue;
            }
            let Some(v) = def_value(def, set, &values, offset_of) else {
                continue;
            };
            let joined = match values.get(d) {
                None => v,
                Some(&old) if old == v => old,
                Some(_) => ParamAddr::Indexed,
            };
            if values.get(d) != Some(&joined) {
                values.insert(d, joined);
                changed = true;
            }
        }
        if !changed {
            return values;
        }
    }
}

/// The value one definition gives, `None` while its source is still unknown.
fn def_value(
    def: AddrDef,
    set: &HashSet<&str>,
    values: &HashMap<&str, ParamAddr>,
    offset_of: &impl Fn(&str) -> Option<u32>,
) -> Option<ParamAddr> {
    let source = |s: &str| values.get(s).copied();
    match def {
        AddrDef::Param(p) => Some(ParamAddr::Fixed(offset_of(p)? as i64)),
        AddrDef::Copy(s) => source(s),
        AddrDef::AddImm(s, k) => match source(s)? {
            ParamAddr::Fixed(o) => Some(ParamAddr::Fixed(o.checked_add(k)?)),
            ParamAddr::Indexed => Some(ParamAddr::Indexed),
        },
        AddrDef::AddReg(..) => {
            let _ = addr_source(def, set)?;
            Some(ParamAddr::Indexed)
        }
    }
}

/// Where a parameter load reads: a fixed constant-bank offset, or an index register plus one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamSlot {
    Fixed(u32),
    Indexed(Reg, u32),
}

impl Ctx<'_> {
    /// Whether `i` defines a parameter-address register (see [`param_address_regs`]).
    pub fn is_param_address_def(&self, i: &Instruction) -> bool {
        matches!(i.operands.first(), Some(Operand::Reg(r)) if self.param_regs.contains_key(r.as_str()))
            && matches!(i.opcode(), "mov" | "add" | "sub")
    }

    /// The 32-bit register holding an indexed parameter address's offset.
    fn param_index_reg(&mut self, name: &str) -> Reg {
        if let Some(r) = self.param_index.get(name) {
            return *r;
        }
        let r = self.temp();
        self.param_index.insert(name.to_string(), r);
        r
    }

    /// The offset a parameter-address register holds: an immediate or its index register.
    fn param_offset_src(&mut self, name: &str) -> LResult<Src> {
        match self.param_regs.get(name).copied() {
            Some(ParamAddr::Fixed(o)) => Ok(Src::imm(o as u32)),
            Some(ParamAddr::Indexed) => Ok(Src::reg(self.param_index_reg(name))),
            None => Err(format!("'{name}' does not hold a parameter address")),
        }
    }

    /// Lowers a definition of a parameter-address register: nothing for a fixed one, the offset
    /// computed into its index register for an indexed one.
    pub fn lower_param_address_def(&mut self, i: &Instruction) -> LResult<()> {
        let params = &self.ptx_function().params;
        let is_param = |s: &str| params.iter().any(|p| p.name.as_str() == s);
        let Some((d, def)) = addr_def(i, &is_param) else {
            return Err("unexpected parameter address definition".into());
        };
        if self.param_regs.get(d) != Some(&ParamAddr::Indexed) {
            return Ok(());
        }
        let dst = self.param_index_reg(d);
        let (base, addend) = match def {
            AddrDef::Param(p) => (Src::imm(self.param(p)?.offset), Src::ZERO),
            AddrDef::Copy(s) => (self.param_offset_src(s)?, Src::ZERO),
            AddrDef::AddImm(s, k) => (self.param_offset_src(s)?, Src::imm(k as u32)),
            AddrDef::AddReg(a, b) => {
                let (addr, other) = if self.param_regs.contains_key(a) {
                    (a, b)
                } else {
                    (b, a)
                };
                let other = self.src32(&Operand::Reg(other.into()))?;
                (self.param_offset_src(addr)?, other)
            }
        };
        self.emit_offset_sum(dst, base, addend);
        Ok(())
    }

    /// `dst = base + addend` in 32 bits: a MOV when one side is zero or both are immediates.
    fn emit_offset_sum(&mut self, dst: Reg, base: Src, addend: Src) {
        let sum = match (base.val, addend.val) {
            (_, SrcVal::Zero) | (_, SrcVal::Imm(0)) => Some(base),
            (SrcVal::Imm(0), _) => Some(addend),
            (SrcVal::Imm(x), SrcVal::Imm(y)) => Some(Src::imm(x.wrapping_add(y))),
            _ => None,
        };
        match sum {
            Some(s) => self.emit(Opcode::Mov, &[Dst::Reg(dst)], &[s]),
            None => {
                let (reg, other) = match base.val {
                    SrcVal::Imm(_) => (addend, base),
                    _ => (base, addend),
                };
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(dst), Dst::None],
                    &[reg, other, Src::ZERO],
                );
            }
        }
    }

    /// Where `ld.param [addr]` reads, `extra` bytes further on (a vector's later elements).
    pub fn param_slot(&mut self, addr: &Operand, extra: u32) -> LResult<ParamSlot> {
        let base = self.sm.param_base() as i64;
        let (start, index) = match self.address(addr)? {
            (AddrBase::Symbol(name), off) => (self.param(name)?.offset as i64 + off, None),
            (AddrBase::Reg(r), off) => match self.param_regs.get(r.as_str()).copied() {
                Some(ParamAddr::Fixed(o)) => (o + off, None),
                Some(ParamAddr::Indexed) => (off, Some(self.param_index_reg(r))),
                // A parameter-space address held as an ordinary 64-bit value (it also escapes to
                // `cvta.param` or elsewhere): its low word indexes the parameter block.
                None if self.sm.num >= 90 => match self.param_fixed.get(r.as_str()) {
                    Some(&o) => (o + off, None),
                    None => (off, Some(self.param_space_index(r)?)),
                },
                None => return Err("ld.param needs a parameter name".into()),
            },
            _ => return Err("ld.param needs a parameter name".into()),
        };
        let at = base + start + extra as i64;
        let at = u16::try_from(at)
            .map_err(|_| format!("parameter offset {start} lies outside the constant bank"))?
            as u32;
        Ok(match index {
            Some(r) => ParamSlot::Indexed(r, at),
            None => ParamSlot::Fixed(at),
        })
    }
}
