//! ptxas's rules for vector expressions (`{%r1, %r2}`): what reading one says about its elements
//! (an undeclared register, an element of another size than the first register, no element to
//! take a type from), and how the data vector of `ld`/`st`/`ldu` and the vectors of `mov` are
//! typed and checked when their elements are registers and sinks.

use crate::ast::{Instruction, Operand, Type};
use crate::checks::instructions::Scope;
use crate::checks::typing::{float_literal_fits, is_float, register_fits};
use crate::isa::Typing;

/// What ptxas says reading an instruction's vector expressions, in operand and element order:
/// "Illegal expression" for an undeclared register, "Incompatible elements" for a register of
/// another size than the first, "Unable to infer type" when no element is a register or a
/// number; for `mov`, an illegal number of elements. (A `call`'s argument lists are no vectors.)
pub(crate) fn expression_notes(i: &Instruction, s: &Scope) -> Vec<String> {
    let mut notes = Vec::new();
    if i.opcode() == "call" {
        return notes;
    }
    let is_mov = i.opcode() == "mov";
    for o in i.operands.iter() {
        operand_notes(o, is_mov, s, &mut notes);
    }
    notes
}

fn operand_notes(o: &Operand, is_mov: bool, s: &Scope, notes: &mut Vec<String>) {
    let Operand::Vector(v) = o else { return };
    let mut first_size = None;
    let mut typed = false;
    let mut flat = true;
    for e in v {
        match e {
            Operand::Reg(r) => match s.regs.lookup(r) {
                Some(Type::Pred) => typed = true,
                Some(t) => {
                    typed = true;
                    if *first_size.get_or_insert(t.size_bytes()) != t.size_bytes() {
                        notes.push("Incompatible elements of vector expression".into());
                    }
                }
                None if r.as_str() != "_" && !s.vars.contains_key(r) => {
                    notes.push(format!("Illegal expression '{r}'"))
                }
                None => {}
            },
            Operand::Sink => {}
            Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => typed = true,
            _ => {
                flat = false;
                operand_notes(e, is_mov, s, notes);
            }
        }
    }
    if flat && !typed && !v.is_empty() {
        notes.push("Unable to infer type of vector elements (assuming .b8)".into());
    }
    if flat && is_mov && !matches!(v.len(), 1 | 2 | 4) {
        notes.push(format!("Illegal vector size: {}", v.len()));
    }
}

/// Whether ptxas's element rules below decide a vector: its elements are registers (not
/// predicates) and sinks.
pub(crate) fn is_register_vector(v: &[Operand], s: &Scope) -> bool {
    is_data_vector(v, false, s)
}

/// Whether the element rules decide the data vector of an `ld`/`st`/`ldu`: its elements are
/// registers (not predicates) and sinks, and for data a store reads (`stored`) number literals
/// too.
pub(crate) fn is_data_vector(v: &[Operand], stored: bool, s: &Scope) -> bool {
    v.iter().all(|e| match e {
        Operand::Reg(r) => s.regs.lookup(r) != Some(Type::Pred),
        Operand::Sink => true,
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => stored,
        _ => false,
    })
}

/// The type ptxas gives a vector of registers: the first declared element's size, of that
/// element's floating type when every declared element is floating, else a bit type
/// (`.b8` when no element is declared).
fn vector_type(v: &[Operand], s: &Scope) -> Type {
    let mut declared = v.iter().filter_map(|e| match e {
        Operand::Reg(r) => s.regs.lookup(r),
        _ => None,
    });
    let Some(first) = declared.next() else {
        return Type::B8;
    };
    if is_float(first) && declared.all(is_float) {
        return first;
    }
    bit_type(first.size_bytes())
}

fn bit_type(size: u32) -> Type {
    match size {
        1 => Type::B8,
        2 => Type::B16,
        4 => Type::B32,
        8 => Type::B64,
        _ => Type::B128,
    }
}

/// Whether the data vector of `ld`/`st`/`ldu` fits the instruction type `ty`: typed by its
/// registers as [`vector_type`] says; one of literals only, by their kind (integers fit a type
/// that is not floating, floats as [`float_literal_fits`]; literals of both kinds are
/// [`element_findings`]'s, no mismatch).
pub(crate) fn data_vector_fits(v: &[Operand], ty: Option<Type>, typing: Typing, s: &Scope) -> bool {
    let Some(ty) = ty else { return true };
    if v.iter().any(|e| matches!(e, Operand::Reg(_))) {
        return register_fits(ty, vector_type(v, s), typing);
    }
    let floats = v
        .iter()
        .filter(|e| matches!(e, Operand::F32(_) | Operand::F64(_)));
    let integers = v.iter().filter(|e| matches!(e, Operand::Imm(_))).count();
    match (floats.clone().count(), integers) {
        (0, 0) => register_fits(ty, Type::B8, typing),
        (0, _) => !is_float(ty),
        (_, 0) => floats.clone().all(|e| float_literal_fits(e, ty)),
        _ => true,
    }
}

/// Whether a vector of registers fits a `mov` of type `ty`: a bit type as wide as the vector
/// (its first declared element's size times its length).
pub(crate) fn mov_vector_fits(v: &[Operand], ty: Option<Type>, s: &Scope) -> bool {
    let Some(ty) = ty else { return true };
    let bits = matches!(ty, Type::B16 | Type::B32 | Type::B64 | Type::B128);
    bits && vector_type(v, s).size_bytes() as usize * v.len() == ty.size_bytes() as usize
}

/// Whether a vector operand of a `mov` with a vector width (`mov.v2.u32 {%r1, %r2}, {%r3, %r4}`)
/// fits its element type `ty`: as the data vector of an access does ([`data_vector_fits`]), and
/// for `.pred` when its registers are predicates.
pub(crate) fn mov_elements_fit(v: &[Operand], ty: Option<Type>, typing: Typing, s: &Scope) -> bool {
    if ty != Some(Type::Pred) {
        return data_vector_fits(v, ty, typing, s);
    }
    v.iter().all(|e| match e {
        Operand::Reg(r) => s.regs.lookup(r).is_none_or(|t| t == Type::Pred),
        _ => false,
    })
}

/// ptxas's messages on the shape of a `mov` with a vector width whose operands fit its type:
/// `.pred` takes no width; a vector of `width` elements wider than 128 bits is too large; the
/// result must be a vector ("Result vector expected") of `width` elements (a vector of another
/// length is a size mismatch twice, around the message on a `.pred` vector), a source vector too
/// (a scalar source is taken); a `.pred` vector is "not allowed" wherever it stands.
pub(crate) fn mov_width_findings(i: &Instruction, width: u32, ty: Option<Type>) -> Vec<String> {
    let mut said = Vec::new();
    let pred = ty == Some(Type::Pred);
    let mismatch = || "Argument vector size mismatch for instruction 'mov'".to_string();
    let not_allowed = || "Vector operand is not allowed for instruction 'mov'".to_string();
    if pred {
        said.push("Vector qualifier is not allowed for instruction 'mov'".into());
    }
    if ty.is_some_and(|t| t.size_bytes() * width > 16) {
        said.push("Vector type too large, exceeds 128 bit limit".into());
    }
    for (k, o) in i.operands.iter().enumerate().take(2) {
        let Operand::Vector(v) = o else {
            if k == 0 {
                said.push("Result vector expected".into());
                said.push(mismatch());
            }
            continue;
        };
        let wrong_size = v.len() as u32 != width;
        if wrong_size {
            said.push(mismatch());
        }
        if pred {
            said.push(not_allowed());
        }
        if wrong_size && k == 0 {
            said.push(mismatch());
        }
    }
    said
}

/// What kind of value an element is, for "Vector with elements of different types".
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Bit,
    Int,
    Float,
    Undeclared,
}

fn kind(e: &Operand, s: &Scope) -> Option<Kind> {
    let r = match e {
        Operand::Reg(r) => r,
        Operand::Imm(_) => return Some(Kind::Int),
        Operand::F32(_) | Operand::F64(_) => return Some(Kind::Float),
        _ => return None,
    };
    Some(match s.regs.lookup(r) {
        None => Kind::Undeclared,
        Some(t) if is_float(t) => Kind::Float,
        Some(Type::B8 | Type::B16 | Type::B32 | Type::B64 | Type::B128) => Kind::Bit,
        Some(_) => Kind::Int,
    })
}

/// ptxas's messages on the register vectors of an `ld`/`st`/`ldu`/`mov` whose operands fit:
/// a sink among a source's elements (once per vector), then for each pair of neighbouring
/// elements (sinks left out) of different kinds, "Vector with elements of different types"
/// (a bit type goes with any), then a `mov` between two vectors. `vectors` are the indexes of
/// the operands ptxas types so, `sources` of those read.
pub(crate) fn element_findings(
    i: &Instruction,
    vectors: &[usize],
    sources: &[usize],
    s: &Scope,
) -> Vec<String> {
    let mut said = Vec::new();
    let vector = |k: usize| match i.operands.get(k) {
        Some(Operand::Vector(v)) => Some(v.as_slice()),
        _ => None,
    };
    for v in sources.iter().filter_map(|&k| vector(k)) {
        if v.iter().any(|e| matches!(e, Operand::Sink)) {
            said.push("Sink '_' not allowed as a source operand".to_string());
        }
    }
    for v in vectors.iter().filter_map(|&k| vector(k)) {
        let kinds = v.iter().filter_map(|e| kind(e, s));
        let differing = kinds
            .clone()
            .zip(kinds.skip(1))
            .filter(|&(a, b)| a != b && a != Kind::Bit && b != Kind::Bit)
            .count();
        if differing > 0 {
            let message = format!(
                "Vector with elements of different types are not allowed in {} instruction",
                i.opcode()
            );
            said.extend(std::iter::repeat_n(message, differing));
        }
    }
    if i.opcode() == "mov"
        && vectors.len() == 2
        && !crate::checks::instructions::has_vector_width(i)
    {
        said.push(
            "Illegal vector-vector operands for vector-scalar or scalar-vector mov instruction"
                .into(),
        );
    }
    said
}
