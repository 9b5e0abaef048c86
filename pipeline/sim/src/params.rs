//! Which 8-byte words of an entry's parameters hold pointers, read from how the PTX uses them:
//! a value loaded from a parameter (`ld.param.u64 %rd1, [p+8]`) that reaches, through moves,
//! `cvta` and address arithmetic, the address of a global or generic memory access is a pointer;
//! one that never does is a number. Structs passed by value (iterators, tile states, kernel
//! arguments) get their pointer fields found the same way.

use std::collections::{BTreeSet, HashMap};

use ptxforge_ptx::ast::{symbol_base, AddrBase, Function, Instruction, Operand, Statement};

/// A byte offset inside one parameter.
pub type ParamWord = (String, i64);

/// What the analysis found about an entry's parameter words.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ParamUses {
    /// Words whose value reaches a global or generic address.
    pub pointers: BTreeSet<ParamWord>,
    /// Words loaded as 64-bit values that never reach an address (counts, sizes, indices).
    pub numbers: BTreeSet<ParamWord>,
    /// Words whose value leaves the analysis (stored, passed to a call): nothing is known.
    pub escaped: BTreeSet<ParamWord>,
}

impl ParamUses {
    /// Whether the word at `offset` of `param` holds a pointer; `None` when the PTX does not say.
    pub fn is_pointer(&self, param: &str, offset: i64) -> Option<bool> {
        let key = (param.to_string(), offset);
        if self.pointers.contains(&key) {
            Some(true)
        } else if self.escaped.contains(&key) {
            None
        } else if self.numbers.contains(&key) {
            Some(false)
        } else {
            None
        }
    }
}

/// Runs the analysis over `f`'s body.
pub fn param_uses(f: &Function) -> ParamUses {
    let params: BTreeSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    let instrs: Vec<&Instruction> = f
        .body
        .iter()
        .filter_map(|s| match s {
            Statement::Instr(i) => Some(i),
            Statement::Label { .. } => None,
        })
        .collect();
    let addrs = param_address_regs(&instrs, &params);
    let mut origins: HashMap<String, BTreeSet<ParamWord>> = HashMap::new();
    // Registers are mostly written once (nvcc's PTX), so a few passes reach the fixed point
    // through loops; the union never shrinks, so it ends.
    for _ in 0..8 {
        let mut changed = false;
        for i in &instrs {
            changed |= propagate(i, &params, &addrs, &mut origins);
        }
        if !changed {
            break;
        }
    }
    let mut uses = ParamUses::default();
    for words in origins.values() {
        uses.numbers.extend(words.iter().cloned());
    }
    for i in &instrs {
        mark_uses(i, &origins, &mut uses);
    }
    uses.numbers.retain(|w| !uses.pointers.contains(w));
    uses
}

fn reg_name(o: &Operand) -> Option<&str> {
    match o {
        Operand::Reg(r) => Some(r.as_str()),
        _ => None,
    }
}

/// Adds what `i` tells about its destination's origins; true when something was added.
fn propagate(
    i: &Instruction,
    params: &BTreeSet<&str>,
    addrs: &HashMap<String, Option<ParamWord>>,
    origins: &mut HashMap<String, BTreeSet<ParamWord>>,
) -> bool {
    let op = i.opcode();
    let Some(dst) = i.operands.first() else {
        return false;
    };
    let sources: BTreeSet<ParamWord> = match op {
        "ld" if i.has_mod("param") && is_64bit(i) => {
            let (name, offset) = match i.operands.get(1) {
                Some(Operand::Addr {
                    base: AddrBase::Symbol(name),
                    offset,
                }) => (symbol_base(name.as_str()), *offset),
                Some(Operand::Addr {
                    base: AddrBase::Reg(r),
                    offset,
                }) => match addrs.get(r.as_str()) {
                    Some(Some((name, at))) => (name.as_str(), at + offset),
                    _ => return false,
                },
                _ => return false,
            };
            if !params.contains(name) {
                return false;
            }
            // A vector load fills consecutive words.
            let dsts: Vec<&Operand> = match dst {
                Operand::Vector(v) => v.iter().collect(),
                d => vec![d],
            };
            let mut changed = false;
            for (k, d) in dsts.iter().enumerate() {
                if let Some(r) = reg_name(d) {
                    changed |= origins
                        .entry(r.to_string())
                        .or_default()
                        .insert((name.to_string(), offset + 8 * k as i64));
                }
            }
            return changed;
        }
        "mov" | "cvta" | "add" | "sub" | "and" | "or" => sources_of(&i.operands[1..], origins),
        // The base of a wide multiply-add (`mad.wide.s32 %rd, %r, 4, %rdbase`).
        "mad" => sources_of(i.operands.get(3..).unwrap_or_default(), origins),
        _ => return false,
    };
    let Some(r) = reg_name(dst) else { return false };
    if sources.is_empty() {
        return false;
    }
    let entry = origins.entry(r.to_string()).or_default();
    let before = entry.len();
    entry.extend(sources);
    entry.len() != before
}

/// Registers holding a parameter's address plus a fixed offset (`mov.b64 %rd1, k_param_0;
/// add.s64 %rd2, %rd1, 24`), for `ld.param [%rd2+8]`; `None` where definitions disagree (a
/// pointer walked in a loop, a runtime offset).
fn param_address_regs(
    instrs: &[&Instruction],
    params: &BTreeSet<&str>,
) -> HashMap<String, Option<ParamWord>> {
    let mut addrs: HashMap<String, Option<ParamWord>> = HashMap::new();
    for _ in 0..8 {
        let mut changed = false;
        for i in instrs {
            let Some(Operand::Reg(d)) = i.operands.first() else {
                continue;
            };
            let known = |r: &str| addrs.get(r).cloned();
            let value: Option<Option<ParamWord>> = match (i.opcode(), &i.operands[1..]) {
                ("mov", [Operand::Symbol(s)]) if params.contains(s.as_str()) => {
                    Some(Some((s.to_string(), 0)))
                }
                ("mov", [Operand::Reg(s)]) => known(s),
                ("add", [Operand::Reg(s), Operand::Imm(k)]) => {
                    known(s).map(|v| v.map(|(p, o)| (p, o + *k as i64)))
                }
                ("add", [Operand::Reg(a), Operand::Reg(b)]) => {
                    known(a).or_else(|| known(b)).map(|_| None)
                }
                _ => None,
            };
            let Some(value) = value else { continue };
            let joined = match addrs.get(d.as_str()) {
                None => value,
                Some(old) if *old == value => value,
                Some(_) => None,
            };
            if addrs.get(d.as_str()) != Some(&joined) {
                addrs.insert(d.to_string(), joined);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    addrs
}

fn is_64bit(i: &Instruction) -> bool {
    ["u64", "b64", "s64"].iter().any(|t| i.has_mod(t))
}

fn sources_of(
    ops: &[Operand],
    origins: &HashMap<String, BTreeSet<ParamWord>>,
) -> BTreeSet<ParamWord> {
    ops.iter()
        .filter_map(reg_name)
        .filter_map(|r| origins.get(r))
        .flatten()
        .cloned()
        .collect()
}

/// Memory state spaces other than global: addresses there are not global pointers.
const OTHER_SPACES: &[&str] = &["shared", "local", "param", "const"];

/// Marks the words whose values `i` uses as global addresses, or lets escape.
fn mark_uses(
    i: &Instruction,
    origins: &HashMap<String, BTreeSet<ParamWord>>,
    uses: &mut ParamUses,
) {
    let op = i.opcode();
    let words_of = |r: &str| origins.get(r).into_iter().flatten().cloned();
    if op == "cvta" && i.has_mod("to") && i.has_mod("global") {
        if let Some(r) = i.operands.get(1).and_then(reg_name) {
            uses.pointers.extend(words_of(r));
        }
        return;
    }
    let memory = matches!(
        op,
        "ld" | "ldu"
            | "st"
            | "atom"
            | "red"
            | "prefetch"
            | "prefetchu"
            | "cp"
            | "multimem"
            | "wmma"
    );
    let global = i.has_mod("global") || !OTHER_SPACES.iter().any(|s| i.has_mod(s));
    for o in &i.operands {
        match o {
            Operand::Addr {
                base: AddrBase::Reg(r),
                ..
            } if memory && global => uses.pointers.extend(words_of(r.as_str())),
            // A value stored to memory or passed to a call: its use is out of sight.
            Operand::Reg(r) if matches!(op, "st" | "call") => {
                uses.escaped.extend(words_of(r.as_str()))
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses_of(body: &str) -> ParamUses {
        let ptx = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u64 n, \
             .param .align 8 .b8 s[24])\n{{\n.reg .b64 %rd<20>;\n.reg .b32 %r<10>;\n.reg .pred %p<4>;\n{body}\nret;\n}}\n"
        );
        let module = ptxforge_ptx::parse_module(&ptx, "t.ptx").unwrap();
        param_uses(&module.functions[0])
    }

    #[test]
    fn addresses_are_pointers_and_counts_are_numbers() {
        let u = uses_of(
            "ld.param.u64 %rd1, [p];\nld.param.u64 %rd2, [n];\ncvta.to.global.u64 %rd3, %rd1;\n\
             mul.wide.s32 %rd4, %r1, 4;\nadd.s64 %rd5, %rd3, %rd4;\nsetp.ge.u64 %p1, %rd4, %rd2;\nld.global.u32 %r2, [%rd5];",
        );
        assert_eq!(u.is_pointer("p", 0), Some(true));
        assert_eq!(u.is_pointer("n", 0), Some(false));
        assert_eq!(u.is_pointer("s", 0), None);
    }

    #[test]
    fn struct_fields_used_as_generic_addresses_are_pointers() {
        let u = uses_of(
            "ld.param.u64 %rd1, [s+8];\nld.param.u64 %rd2, [s+16];\nmad.wide.s32 %rd3, %r1, 8, %rd1;\n\
             st.u64 [%rd3], %rd2;",
        );
        assert_eq!(u.is_pointer("s", 8), Some(true));
        assert_eq!(u.is_pointer("s", 16), None, "a stored value escapes");
        assert_eq!(u.is_pointer("s", 0), None);
    }

    #[test]
    fn fields_loaded_through_a_parameter_address_register_are_found() {
        let u = uses_of(
            "mov.b64 %rd1, s;\nadd.s64 %rd2, %rd1, 8;\nld.param.u64 %rd3, [%rd2+8];\n\
             ld.param.u64 %rd4, [%rd1];\ncvta.to.global.u64 %rd5, %rd3;\nld.global.u32 %r1, [%rd5];\n\
             setp.ge.u64 %p1, %rd4, 4;\nmov.u64 %rd6, %rd1;\nadd.s64 %rd6, %rd6, 4;\nld.param.u64 %rd7, [%rd6];",
        );
        assert_eq!(u.is_pointer("s", 16), Some(true));
        assert_eq!(u.is_pointer("s", 0), Some(false));
        assert_eq!(
            u.is_pointer("s", 4),
            None,
            "a walked pointer has no fixed offset"
        );
    }
}
