//! The `.param` buffers of inlined calls (nvcc's `param0`, `retval0`, which `calls.rs` made the
//! callee's parameters too): each slot of a buffer that is only ever accessed whole, as a
//! register (or immediate) of 2, 4 or 8 bytes, becomes a register (its `st.param` and `ld.param`
//! become `mov`s, which copy propagation then removes); the rest of the buffer (bytes, slots
//! read at another width or overlapping) becomes a `.local` variable of the frame, its accesses
//! `st.local`/`ld.local`.

use std::collections::{BTreeMap, HashMap};

use ptxforge_ptx::ast::{
    self, AddrBase, Instruction, Name, Operand, RegTable, StateSpace, Statement, Type,
};

use crate::calls::{instruction, mov_type};
use crate::ctx::LowerError;

/// One `ld.param`/`st.param` of a buffer: where, how wide each element, its value operands.
struct Access {
    offset: i64,
    elem: u32,
    values: Vec<Operand>,
}

/// Rewrites every access to the function's `.param` variables (not the entry's parameters).
pub fn lower_param_buffers(f: &mut ast::Function) -> Result<(), Vec<LowerError>> {
    let buffers: HashMap<String, (u64, u32)> = param_buffers(f);
    if buffers.is_empty() {
        return Ok(());
    }
    let mut accesses: HashMap<&str, Vec<Access>> = HashMap::new();
    let mut errors = Vec::new();
    for s in &f.body {
        let Some(i) = s.as_instr() else { continue };
        match buffer_access(i, &buffers) {
            Some((name, a)) => accesses.entry(name).or_default().push(a),
            None => {
                if let Some(name) = named_buffer(i, &buffers) {
                    errors.push(LowerError {
                        line: i.line,
                        message: format!(
                            "the address of the call parameter '{name}' is not supported yet"
                        ),
                    });
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let table = RegTable::new(&f.regs);
    let mut slots: HashMap<String, BTreeMap<i64, u32>> = HashMap::new();
    let mut in_memory: Vec<&String> = Vec::new();
    for name in buffers.keys() {
        let list = accesses.get(name.as_str()).map_or(&[][..], |l| &l[..]);
        let s = register_slots(list, &table);
        if list.iter().any(|a| !promoted(a, &s)) {
            in_memory.push(name);
        }
        slots.insert(name.clone(), s);
    }
    let mut new_regs = Vec::new();
    for (name, s) in &slots {
        for (&offset, &size) in s {
            new_regs.push(ast::RegDecl {
                name: slot_reg(name, offset),
                ty: match size {
                    2 => Type::B16,
                    8 => Type::B64,
                    _ => Type::B32,
                },
                vector: 1,
                count: None,
                line: 0,
                span: ast::Span::default(),
                scoped: true,
            });
        }
    }
    new_regs.sort_by(|a, b| a.name.cmp(&b.name));
    f.regs.extend(new_regs);
    let body = std::mem::take(&mut f.body);
    for s in body {
        let Some(i) = s.as_instr() else {
            f.body.push(s);
            continue;
        };
        match buffer_access(i, &buffers) {
            Some((name, a)) if promoted(&a, &slots[name]) => {
                let name = name.to_string();
                slot_moves(i, &name, &a, &mut f.body)
            }
            Some(_) => f.body.push(Statement::Instr(to_local(i))),
            None => f.body.push(s),
        }
    }
    f.vars.retain(|v| v.space != StateSpace::Param);
    in_memory.sort();
    for name in in_memory {
        let (size, align) = buffers[name];
        f.vars.push(local_buffer(name, size, align));
    }
    Ok(())
}

/// The `.param` variables declared in the body, by name: the largest size and alignment of the
/// declarations of one name (nvcc declares `param0` in every call's block).
fn param_buffers(f: &ast::Function) -> HashMap<String, (u64, u32)> {
    let mut out: HashMap<String, (u64, u32)> = HashMap::new();
    for v in f.vars.iter().filter(|v| v.space == StateSpace::Param) {
        let e = out.entry(v.name.clone()).or_insert((0, 1));
        e.0 = e.0.max(
            v.size_bytes()
                .max(v.ty.size_bytes() as u64 * v.vector as u64),
        );
        e.1 = e.1.max(v.alignment().max(1));
    }
    out
}

/// `ld.param`/`st.param` of `[buffer+offset]`: the buffer and the access.
fn buffer_access<'b>(
    i: &Instruction,
    buffers: &'b HashMap<String, (u64, u32)>,
) -> Option<(&'b str, Access)> {
    let load = match i.opcode() {
        "ld" => true,
        "st" => false,
        _ => return None,
    };
    if !i.has_mod("param") {
        return None;
    }
    let (addr, value) = if load {
        (i.operands.get(1)?, i.operands.first()?)
    } else {
        (i.operands.first()?, i.operands.get(1)?)
    };
    let Operand::Addr {
        base: AddrBase::Symbol(base),
        offset,
    } = addr
    else {
        return None;
    };
    let (name, _) = buffers.get_key_value(base.as_str())?;
    let values = match value {
        Operand::Vector(v) => v.clone(),
        v => vec![v.clone()],
    };
    let access = Access {
        offset: *offset,
        elem: i.ty()?.size_bytes(),
        values,
    };
    Some((name.as_str(), access))
}

/// A buffer named by an instruction other than its loads and stores (its address taken).
fn named_buffer<'b>(i: &Instruction, buffers: &'b HashMap<String, (u64, u32)>) -> Option<&'b str> {
    fn names(o: &Operand) -> Option<&str> {
        match o {
            Operand::Symbol(n)
            | Operand::Addr {
                base: AddrBase::Symbol(n),
                ..
            } => Some(ast::symbol_base(n)),
            _ => None,
        }
    }
    let mut all = i.operands.iter().flat_map(|o| match o {
        Operand::Vector(v) => v.iter().filter_map(names).collect::<Vec<_>>(),
        o => names(o).into_iter().collect(),
    });
    all.find_map(|n| buffers.get_key_value(n).map(|(k, _)| k.as_str()))
}

/// The slots (offset → size) of a buffer that become registers: those whose every access is a
/// whole register (or immediate) of 2, 4 or 8 bytes at exactly that slot, no other access
/// overlapping it, and whose accesses touch no slot kept in memory (a vector access is moved
/// whole or not at all). The rest of the buffer stays in memory.
fn register_slots(list: &[Access], table: &RegTable) -> BTreeMap<i64, u32> {
    // Every element's interval, and whether a register move can carry it.
    let mut intervals: BTreeMap<(i64, u32), bool> = BTreeMap::new();
    for a in list {
        for (k, v) in a.values.iter().enumerate() {
            let fits = matches!(a.elem, 2 | 4 | 8)
                && match v {
                    Operand::Reg(r) => table
                        .lookup(r)
                        .is_some_and(|t| t != Type::Pred && t.size_bytes() == a.elem),
                    Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) | Operand::Sink => true,
                    _ => false,
                };
            let e = intervals.entry((element_at(a, k), a.elem)).or_insert(true);
            *e &= fits;
        }
    }
    // Intervals that overlap another stay in memory.
    let keys: Vec<(i64, u32)> = intervals.keys().copied().collect();
    for (n, &(at, size)) in keys.iter().enumerate() {
        let overlaps = keys[n + 1..]
            .iter()
            .take_while(|(b, _)| *b < at + size as i64)
            .count()
            > 0;
        let overlapped = keys[..n].iter().any(|&(b, s)| b + s as i64 > at);
        if overlaps || overlapped {
            intervals.insert((at, size), false);
        }
    }
    // An access with one element in memory keeps all of them there.
    loop {
        let mut changed = false;
        for a in list {
            let slots = (0..a.values.len()).map(|k| (element_at(a, k), a.elem));
            if slots.clone().any(|s| !intervals[&s]) {
                for s in slots {
                    changed |= std::mem::replace(intervals.get_mut(&s).unwrap(), false);
                }
            }
        }
        if !changed {
            break;
        }
    }
    intervals
        .into_iter()
        .filter(|(_, promoted)| *promoted)
        .map(|((at, size), _)| (at, size))
        .collect()
}

/// Where element `k` of an access lies in its buffer.
fn element_at(a: &Access, k: usize) -> i64 {
    a.offset + (k as u32 * a.elem) as i64
}

/// Whether every element of `a` lies in a promoted slot.
fn promoted(a: &Access, slots: &BTreeMap<i64, u32>) -> bool {
    (0..a.values.len()).all(|k| slots.get(&element_at(a, k)) == Some(&a.elem))
}

fn slot_reg(buffer: &str, offset: i64) -> String {
    format!("%__pv_{}_{offset}", buffer.trim_start_matches(['%', '$']))
}

/// A promoted buffer access as one `mov` per element.
fn slot_moves(i: &Instruction, buffer: &str, a: &Access, out: &mut Vec<Statement>) {
    let load = i.opcode() == "ld";
    let guard = i.guard().map(|(neg, p)| (neg, p.clone()));
    let ty = i.ty().map_or("b32", mov_type);
    for (k, v) in a.values.iter().enumerate() {
        if matches!(v, Operand::Sink) {
            continue;
        }
        let at = element_at(a, k);
        let slot = Operand::Reg(Name::new(&slot_reg(buffer, at)));
        let ops = if load {
            vec![v.clone(), slot]
        } else {
            vec![slot, v.clone()]
        };
        let mov = instruction("mov", &[ty], guard.clone(), ops, i.line);
        out.push(Statement::Instr(mov));
    }
}

/// `ld.param`/`st.param` of a buffer kept in memory: the same access to the `.local` variable.
fn to_local(i: &Instruction) -> Instruction {
    let mods: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| {
            if m.as_str() == "param" {
                "local"
            } else {
                m.as_str()
            }
        })
        .collect();
    let guard = i.guard().map(|(neg, p)| (neg, p.clone()));
    let mut out = instruction(i.opcode(), &mods, guard, i.operands.to_vec(), i.line);
    out.span = i.span;
    out
}

/// The frame variable a buffer kept in memory becomes: `.local .align A .b8 name[size]`.
fn local_buffer(name: &str, size: u64, align: u32) -> ast::VarDecl {
    ast::VarDecl {
        space: StateSpace::Local,
        name: name.to_string(),
        ty: Type::B8,
        align,
        array_len: Some(size.max(1)),
        is_array: true,
        vector: 1,
        line: 0,
        type_line: 0,
        span: ast::Span::default(),
        specifiers_end: 0,
        name_at: 0,
        init: Vec::new(),
        pointee: None,
        range: None,
    }
}
