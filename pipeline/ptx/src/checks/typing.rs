//! ptxas's operand-type rules: which register types fit an instruction type, strictly (same size;
//! bit-size registers fit any type of their size) or relaxed (`ld`/`st`/`cvt`: wider registers too).

use crate::ast::{Operand, Type};
use crate::isa::Typing;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Class {
    Bit,
    Int,
    Float,
    Pred,
}

fn class(t: Type) -> Class {
    use Type::*;
    match t {
        B8 | B16 | B32 | B64 | B128 => Class::Bit,
        U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64 => Class::Int,
        F16 | F16x2 | BF16 | BF16x2 | F32 | F64 => Class::Float,
        Pred => Class::Pred,
    }
}

/// Whether a register declared `reg` may stand where the instruction's type is `ty`.
pub fn register_fits(ty: Type, reg: Type, typing: Typing) -> bool {
    let (tc, rc) = (class(ty), class(reg));
    if tc == Class::Pred || rc == Class::Pred {
        return tc == rc;
    }
    let (ts, rs) = (ty.size_bytes(), reg.size_bytes());
    let size_ok = match typing {
        Typing::Strict => rs == ts,
        Typing::Relaxed => rs >= ts,
    };
    match tc {
        Class::Bit => size_ok,
        Class::Int => rc != Class::Float && size_ok,
        Class::Float => reg == ty || (rc == Class::Bit && size_ok),
        Class::Pred => unreachable!(),
    }
}

/// Whether a register of type `reg` may hold an element of a vector `atom`/`red` of type `elem`
/// (ptxas 13.5): the type itself or a bit-size register of its size; for `.f32` and `.f16`
/// integer registers of the size too (not for `.bf16`, `.f16x2`, `.bf16x2`).
pub fn vector_atom_element_fits(elem: Type, reg: Type) -> bool {
    let integers_too = matches!(elem, Type::F32 | Type::F16) && class(reg) == Class::Int;
    reg == elem
        || (reg.size_bytes() == elem.size_bytes() && (class(reg) == Class::Bit || integers_too))
}

/// Whether an integer immediate may stand where the type is `ty` (not for floating-point types).
pub fn int_immediate_fits(ty: Type) -> bool {
    !matches!(class(ty), Class::Float)
}

/// Whether a float literal may stand where the type is `ty`: one of `.f32`/`.f64` (ptxas converts
/// between them), or the bit type of the literal's own size (`0f` of `.b32`; `0d` or a decimal of
/// `.b64`); never a half-precision or other type.
pub fn float_literal_fits(o: &Operand, ty: Type) -> bool {
    match o {
        Operand::F32(_) => matches!(ty, Type::F32 | Type::F64 | Type::B32),
        Operand::F64(_) => matches!(ty, Type::F32 | Type::F64 | Type::B64),
        _ => false,
    }
}

pub fn is_float(ty: Type) -> bool {
    class(ty) == Class::Float
}

pub fn is_int(ty: Type) -> bool {
    class(ty) == Class::Int
}

/// The type of twice the size and the same kind (`u32` → `u64`), for `.wide` results.
pub fn widened(ty: Type) -> Option<Type> {
    use Type::*;
    Some(match ty {
        U16 => U32,
        U32 => U64,
        S16 => S32,
        S32 => S64,
        B16 => B32,
        B32 => B64,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Type::*;

    #[test]
    fn strict_and_relaxed_rules() {
        assert!(register_fits(F32, B32, Typing::Strict));
        assert!(register_fits(B32, F32, Typing::Strict));
        assert!(!register_fits(U32, F32, Typing::Strict));
        assert!(register_fits(U32, S32, Typing::Strict));
        assert!(!register_fits(U64, U32, Typing::Strict));
        assert!(register_fits(U32, B64, Typing::Relaxed));
        assert!(!register_fits(U32, B16, Typing::Relaxed));
        assert!(register_fits(F32, B64, Typing::Relaxed));
        assert!(!register_fits(F32, F64, Typing::Relaxed));
        assert!(!register_fits(U32, Pred, Typing::Relaxed));
    }
}
