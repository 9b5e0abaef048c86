//! Two packed 16-bit integers in one `.b32` (`add`/`min`/`max` `.s16x2`/`.u16x2`, sm_90): each
//! half computed on its own, `.relu` clamping a negative signed half to 0.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::unsupported;
use crate::machine::{Cta, Flow};
use crate::prep::Ins;

/// Whether `ins` works on two packed 16-bit integers.
pub(crate) fn is_packed_i16(ins: &Ins) -> bool {
    ins.has("s16x2") || ins.has("u16x2")
}

impl Cta<'_, '_> {
    pub(crate) fn packed_i16(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        if ins.ops.len() != 3 {
            return Err(unsupported(ins, "packed 16-bit operands"));
        }
        let a = self.read(t, &ins.ops[1], Type::B32)? as u32;
        let b = self.read(t, &ins.ops[2], Type::B32)? as u32;
        let half = |v: u32, k: u32| (v >> (16 * k)) as u16;
        let mut out = 0u32;
        for k in 0..2 {
            let r = packed_half(ins, half(a, k), half(b, k))?;
            out |= (r as u32) << (16 * k);
        }
        self.write(t, &ins.ops[0], out as u64, Type::B32)?;
        Ok(Flow::Next)
    }
}

/// One 16-bit half of the result.
fn packed_half(ins: &Ins, x: u16, y: u16) -> Result<u16, SimError> {
    let signed = ins.has("s16x2");
    let less = if signed {
        (x as i16) < (y as i16)
    } else {
        x < y
    };
    let r = match ins.op.as_str() {
        "add" if !ins.has("sat") => x.wrapping_add(y),
        "min" => {
            if less {
                x
            } else {
                y
            }
        }
        "max" => {
            if less {
                y
            } else {
                x
            }
        }
        _ => return Err(unsupported(ins, "this packed 16-bit operation")),
    };
    Ok(if ins.has("relu") && signed && (r as i16) < 0 {
        0
    } else {
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(op: &str, mods: &[&str]) -> Ins {
        Ins {
            kind: crate::prep::Kind::Arith,
            op: op.into(),
            mods: mods.iter().map(|m| m.to_string()).collect(),
            ty: None,
            types: vec![],
            guard: None,
            ops: vec![],
            line: 1,
        }
    }

    #[test]
    fn halves_are_signed_or_unsigned_with_relu() {
        let s = ins("min", &["s16x2"]);
        assert_eq!(packed_half(&s, 0xfffe, 3).unwrap(), 0xfffe);
        let u = ins("min", &["u16x2"]);
        assert_eq!(packed_half(&u, 0xfffe, 3).unwrap(), 3);
        let relu = ins("max", &["s16x2", "relu"]);
        assert_eq!(packed_half(&relu, 0xfffe, 0x8000).unwrap(), 0);
        let add = ins("add", &["u16x2"]);
        assert_eq!(packed_half(&add, 0xffff, 2).unwrap(), 1);
    }
}
