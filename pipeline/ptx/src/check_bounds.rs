//! ptxas's info on a load or store wider than the scalar variable it names as its address
//! (`ld.global.u64 %rd1, [p]` with `.global .f16 p`): "Potential out of bound access while
//! accessing symbol 'p' of type '.f16' with instruction type '.u64'.". An info never rejects the
//! module; ptxas gives it whatever the address's offset, in every state space (generic too).

use crate::ast::*;
use crate::check_instr::{Findings, Scope};
use crate::isa::Typing;
use crate::typing::{float_immediate_fits, int_immediate_fits, register_fits};

/// The info for `i` when it is an `ld`/`st` (not `ldu`, `atom`, `red`, `prefetch`) of a type (of
/// each element, for `.vN`) wider than `var`, the scalar variable it addresses (not an array,
/// `[1]` included, nor a `.v2`/`.v4` variable), provided its other operands fit their types:
/// ptxas says "Arguments mismatch" instead when they do not.
pub(crate) fn out_of_bound_access(i: &Instruction, var: &VarDecl, s: &Scope) -> Option<String> {
    let address = match i.opcode() {
        "ld" => 1,
        "st" => 0,
        _ => return None,
    };
    let ty = i.ty()?;
    if var.is_array || var.vector != 1 || ty.size_bytes() <= var.ty.size_bytes() {
        return None;
    }
    // The variable is that of the first symbol address, which must be this one.
    let Some(Operand::Addr {
        base: AddrBase::Symbol(name),
        ..
    }) = i.operands.get(address)
    else {
        return None;
    };
    if !other_operands_fit(i, address, ty, s) {
        return None;
    }
    Some(crate::diag::info_message(&format!(
        "Potential out of bound access while accessing symbol '{name}' of type '.{}' with instruction type '.{}'.",
        var.ty.name(),
        ty.name()
    )))
}

/// Whether the operands of `i` but its address (at `address`) fit as ptxas types them for this
/// check: the data (registers as wide as `ty` or wider, a vector by its first element, an
/// immediate of its kind) and a cache policy after the address (a 64-bit register).
fn other_operands_fit(i: &Instruction, address: usize, ty: Type, s: &Scope) -> bool {
    let data = 1 - address;
    i.operands.iter().enumerate().all(|(k, o)| match k {
        _ if k == address => true,
        _ if k == data => data_fits(o, ty, is_vector_access(i), s),
        _ => cache_policy_fits(o, s),
    })
}

/// Whether `i` has a vector width (`.v2`, `.v4`, `.v8`).
fn is_vector_access(i: &Instruction) -> bool {
    i.mods()
        .iter()
        .any(|m| matches!(m.as_str(), "v2" | "v4" | "v8"))
}

/// Whether the loaded or stored operand `o` fits the instruction type `ty`; without a vector
/// width (`vector_access`), a vector of registers fits also as `mov` packs one (`.b64` from two
/// 32-bit registers).
fn data_fits(o: &Operand, ty: Type, vector_access: bool, s: &Scope) -> bool {
    use crate::check_vectors::{data_vector_fits, mov_vector_fits};
    match o {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_none_or(|t| register_fits(ty, t, Typing::Relaxed)),
        Operand::Vector(v) => {
            data_vector_fits(v, Some(ty), Typing::Relaxed, s)
                || !vector_access && mov_vector_fits(v, Some(ty), s)
        }
        Operand::Imm(_) => int_immediate_fits(ty),
        Operand::F32(_) | Operand::F64(_) => float_immediate_fits(ty),
        _ => false,
    }
}

/// Whether a cache-policy operand (`ld ... [p], %rd1`) fits: a 64-bit register or an immediate.
fn cache_policy_fits(o: &Operand, s: &Scope) -> bool {
    match o {
        Operand::Reg(r) => s.regs.lookup(r).is_none_or(|t| t.size_bytes() == 8),
        Operand::Imm(_) => true,
        _ => false,
    }
}

/// Puts `info` among the messages of `i` (those from `start` on): after what ptxas says while
/// reading the instruction (its guard, unknown modifiers, an illegal vector size), before the rest
/// (a state space mismatch, a missing cache hint, a vector size mismatch).
pub(crate) fn place_info(i: &Instruction, start: usize, info: String, out: &mut Findings) {
    let read_before = |m: &str| {
        m == "Predicate expression expected"
            || m.starts_with("Unknown modifier '")
            || m.starts_with("Illegal vector size: ")
    };
    let at = start
        + out.first[start..]
            .iter()
            .take_while(|(l, m)| *l == i.line && read_before(m))
            .count();
    out.first.insert(at, (i.line, info));
}
