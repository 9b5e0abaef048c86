//! ptxas's info on a load or store wider than the scalar variable it names as its address
//! (`ld.global.u64 %rd1, [p]` with `.global .f16 p`): "Potential out of bound access while
//! accessing symbol 'p' of type '.f16' with instruction type '.u64'.". An info never rejects the
//! module; ptxas gives it whatever the address's offset, in every state space (generic too).

use crate::ast::*;
use crate::checks::instructions::{Findings, Scope};
use crate::checks::typing::{float_literal_fits, int_immediate_fits, register_fits};
use crate::isa::Typing;

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
/// check: the data (declared registers as wide as `ty` or wider, a vector by its first element,
/// an immediate of its kind) and a cache policy after the address (a declared 64-bit register).
fn other_operands_fit(i: &Instruction, address: usize, ty: Type, s: &Scope) -> bool {
    let data = 1 - address;
    i.operands.iter().enumerate().all(|(k, o)| match k {
        _ if k == address => true,
        _ if k == data => data_fits(o, ty, crate::checks::instructions::has_vector_width(i), s),
        _ => cache_policy_fits(o, s),
    })
}

/// Whether the loaded or stored operand `o` fits the instruction type `ty`; without a vector
/// width (`vector_access`), a vector of registers fits also as `mov` packs one (`.b64` from two
/// 32-bit registers).
fn data_fits(o: &Operand, ty: Type, vector_access: bool, s: &Scope) -> bool {
    use crate::checks::vectors::{data_vector_fits, mov_vector_fits};
    match o {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_some_and(|t| register_fits(ty, t, Typing::Relaxed)),
        Operand::Vector(v) => {
            data_vector_fits(v, Some(ty), Typing::Relaxed, s)
                || !vector_access && mov_vector_fits(v, Some(ty), s)
        }
        Operand::Imm(_) => int_immediate_fits(ty),
        Operand::F32(_) | Operand::F64(_) => float_literal_fits(o, ty),
        _ => false,
    }
}

/// Whether a cache-policy operand (`ld ... [p], %rd1`) fits: a 64-bit register or an immediate.
fn cache_policy_fits(o: &Operand, s: &Scope) -> bool {
    match o {
        Operand::Reg(r) => s.regs.lookup(r).is_some_and(|t| t.size_bytes() == 8),
        Operand::Imm(_) => true,
        _ => false,
    }
}

/// Puts `info` among the messages of `i` (those from `start` on): after what ptxas says while
/// reading the instruction ([`said_before`]), before the rest (a state space mismatch, a missing
/// cache hint, a vector size mismatch).
pub(crate) fn place_info(i: &Instruction, start: usize, info: String, out: &mut Findings) {
    out.insert_after(i, start, said_before, [info]);
}

/// Whether ptxas says `message` about an instruction before its out-of-bound info: about its
/// guard, unknown modifiers, the PTX version or target a feature or modifier needs, a store to
/// `.const`, an illegal vector size.
fn said_before(message: &str) -> bool {
    message == "Predicate expression expected"
        || message.starts_with("Unknown modifier '")
        || message.contains(" requires PTX ISA .version ")
        || message.contains(" requires .target ")
        || message.starts_with("State space incorrect for instruction ")
        || message.starts_with("Illegal vector size: ")
}

#[cfg(test)]
mod tests {
    use crate::Severity::{Error, Info};

    /// ptxas 13.5's messages on this module, in its order: each info after the instruction's
    /// guard, modifier, requirement and `.const` store errors, before its state space mismatch;
    /// none where a register does not fit; unknown symbols still after the function.
    #[test]
    fn infos_stand_where_ptxas_puts_them() {
        let src = "\
.version 7.0
.target sm_75
.address_size 64
.global .f16 p;
.const .u8 c;
.visible .entry k()
{
\t.reg .b64 %rd<2>;
\t.reg .b32 %r<2>;
\t@%r1 ld.global.u32 %r1, [p];
\tld.global.foo.u32 %r1, [p];
\tld.global.v8.u32 {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1}, [p];
\tst.const.u32 [c], %r1;
\tld.shared.u32 %r1, [p];
\tld.global.u32 %r9, [p];
\tld.global.u32 %r1, [p];
\tret;
}
";
        let info = |var: &str, ty: &str| {
            format!("Potential out of bound access while accessing symbol '{var}' of type '.{ty}' with instruction type '.u32'.")
        };
        let p = info("p", "f16");
        let want = [
            (10, Error, "Predicate expression expected".to_string()),
            (10, Info, p.clone()),
            (11, Error, "Unknown modifier '.foo'".to_string()),
            (11, Info, p.clone()),
            (
                12,
                Error,
                "Feature '256 bit wide load/store' requires PTX ISA .version 8.8 or later"
                    .to_string(),
            ),
            (
                12,
                Error,
                "Feature '256 bit wide load/store' requires .target sm_100 or higher".to_string(),
            ),
            (12, Info, p.clone()),
            (
                13,
                Error,
                "State space incorrect for instruction 'st'".to_string(),
            ),
            (13, Info, info("c", "u8")),
            (14, Info, p.clone()),
            (
                14,
                Error,
                "State space mismatch between instruction and address in instruction 'ld'"
                    .to_string(),
            ),
            (
                15,
                Error,
                "Arguments mismatch for instruction 'ld'".to_string(),
            ),
            (16, Info, p),
            (15, Error, "Unknown symbol '%r9'".to_string()),
        ];
        let diags = crate::parse_module(src, "u.ptx").unwrap_err();
        let got: Vec<_> = diags
            .into_iter()
            .map(|d| (d.line, d.severity, d.message))
            .collect();
        assert_eq!(got, want);
    }

    /// Infos do not count towards the cap on errors: an error after 105 infos is still reported
    /// (ptxas prints them all).
    #[test]
    fn infos_leave_room_for_errors() {
        let loads = "\tld.global.u32 %r1, [p];\n".repeat(105);
        let src = format!(".version 8.5\n.target sm_80\n.address_size 64\n.global .f16 p;\n.visible .entry k()\n{{\n\t.reg .b32 %r<2>;\n{loads}\tmov.u32 %r1, 1.0;\n\tret;\n}}\n");
        let diags = crate::parse_module(&src, "m.ptx").unwrap_err();
        assert_eq!(diags.len(), 106);
        assert!(diags[..105].iter().all(|d| d.severity == Info));
        assert_eq!((diags[105].line, diags[105].severity), (113, Error));
    }

    /// A module whose only findings are infos is accepted, with its infos among its warnings.
    #[test]
    fn infos_alone_accept_the_module() {
        let src = ".version 8.5\n.target sm_80\n.address_size 64\n.global .u32 q;\n.visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tld.global.u64 %rd1, [q+4];\n\tret;\n}\n";
        let m = crate::parse_module(src, "q.ptx").unwrap();
        let got: Vec<String> = m.warnings.iter().map(|d| d.to_string()).collect();
        assert_eq!(got, ["ptxas q.ptx, line 8; info    : Potential out of bound access while accessing symbol 'q' of type '.u32' with instruction type '.u64'."]);
    }
}
