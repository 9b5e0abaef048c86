//! `call` against the callee's prototype: argument and result counts and kinds.

use super::*;

/// `call (rets), f, (args)`: a known callee with as many results and arguments as its prototype.
pub(super) fn check_call(i: &Instruction, s: &Scope, out: &mut Findings) {
    let Some(pos) = i
        .operands
        .iter()
        .position(|o| matches!(o, Operand::Symbol(_) | Operand::Reg(_)))
    else {
        out.now(i.line, "Arguments mismatch for instruction 'call'".into());
        return;
    };
    let mut unknown = Vec::new();
    for o in &i.operands {
        if let Operand::Vector(v) = o {
            v.iter().for_each(|e| collect_unknown(e, s, &mut unknown));
        }
    }
    if let Operand::Symbol(name) = &i.operands[pos] {
        match s.function(name) {
            Some(f) if f.is_entry => out.now(
                i.line,
                "Illegal call target, device function expected".into(),
            ),
            Some(f) => {
                let rets = i.operands[..pos].iter().map(vector_len).sum::<usize>();
                let args = i.operands.get(pos + 1).map_or(0, vector_len);
                if rets != f.ret_params.len() || args != f.params.len() {
                    out.now(i.line, "Call has wrong number of parameters".into());
                }
            }
            None if s.regs.lookup(name).is_none() => {
                out.now(i.line, format!("Call to '{name}' requires call prototype"));
                unknown.insert(0, name.to_string());
            }
            None => {}
        }
    }
    for u in unknown {
        out.unknown.push((i.line, u));
    }
}
