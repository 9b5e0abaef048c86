//! Where a kernel's `.shared` variables live, as ptxas lays them out (learned from its cubins):
//! the kernel's own variables that it references, then the module-scope variables it references,
//! then its own unreferenced variables, each in declaration order at its alignment; module-scope
//! variables it never names take no room. `.extern .shared` arrays (`[]`, dynamic shared memory)
//! all start at the end of that block, which is then rounded up to the largest alignment of the
//! module's `.extern .shared` declarations (the size is exact without them). The section is aligned
//! to the largest alignment placed or declared `.extern`; a module that declares an `.extern .shared`
//! array gives every kernel a `.nv.shared` section, even an empty one.

use std::collections::{HashMap, HashSet};

use ptxforge_ptx::ast::{self, AddrBase, Operand, StateSpace, Statement, VarDecl};

/// The shared-memory layout of one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedLayout {
    /// Byte offset of each variable from the start of the kernel's shared window.
    pub offsets: HashMap<String, u32>,
    /// Static bytes (the `.nv.shared.<kernel>` size before sm_90's reserved window).
    pub bytes: u32,
    /// Alignment of the `.nv.shared.<kernel>` section; 0 when the kernel has none.
    pub align: u32,
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// Lays out the shared variables `func` can reach.
pub fn layout(module: &ast::Module, func: &ast::Function) -> SharedLayout {
    let named = referenced_symbols(func);
    let is_shared = |v: &&VarDecl| v.space == StateSpace::Shared;
    let own: Vec<&VarDecl> = func
        .vars
        .iter()
        .filter(is_shared)
        .filter(|v| v.array_len.is_some())
        .collect();
    let externs: Vec<&VarDecl> = module
        .globals
        .iter()
        .filter(is_shared)
        .filter(|v| v.array_len.is_none())
        .collect();
    let module_fixed = module
        .globals
        .iter()
        .filter(is_shared)
        .filter(|v| v.array_len.is_some());
    let placed = own
        .iter()
        .copied()
        .filter(|v| named.contains(v.name.as_str()))
        .chain(module_fixed.filter(|v| named.contains(v.name.as_str())))
        .chain(
            own.iter()
                .copied()
                .filter(|v| !named.contains(v.name.as_str())),
        );
    let mut out = SharedLayout::default();
    let mut end = 0u32;
    for v in placed {
        let a = v.alignment().max(1);
        let off = align_up(end, a);
        out.offsets.insert(v.name.to_string(), off);
        end = off + v.size_bytes() as u32;
        out.align = out.align.max(a);
    }
    let extern_align = externs
        .iter()
        .map(|v| v.alignment().max(1))
        .max()
        .unwrap_or(0);
    out.align = out.align.max(extern_align);
    out.bytes = align_up(end, extern_align);
    for v in externs {
        out.offsets
            .insert(v.name.to_string(), align_up(out.bytes, v.alignment()));
    }
    out
}

/// Names of the symbols the function's instructions mention (without `+offset`).
fn referenced_symbols(func: &ast::Function) -> HashSet<&str> {
    let mut names = HashSet::new();
    for s in &func.body {
        if let Statement::Instr(i) = s {
            for o in &i.operands {
                collect_symbols(o, &mut names);
            }
        }
    }
    names
}

fn collect_symbols<'a>(o: &'a Operand, names: &mut HashSet<&'a str>) {
    match o {
        Operand::Symbol(s)
        | Operand::Addr {
            base: AddrBase::Symbol(s),
            ..
        } => {
            names.insert(s.split('+').next().unwrap_or(s).trim());
        }
        Operand::Vector(v) => v.iter().for_each(|e| collect_symbols(e, names)),
        _ => {}
    }
}

/// Whether the kernel declares shared variables or names one of `shared`.
pub fn names_shared(func: &ast::Function, shared: &HashMap<String, u32>) -> bool {
    func.vars.iter().any(|v| v.space == StateSpace::Shared)
        || referenced_symbols(func)
            .iter()
            .any(|s| shared.contains_key(*s))
}
