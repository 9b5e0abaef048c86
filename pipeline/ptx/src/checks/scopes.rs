//! Nested `{ }` scopes: the parser flattens a body's blocks, so a register that a block declares
//! with a name declared elsewhere in the function (a sibling block's `.reg .b16 h` beside this
//! block's `.reg .b32 h`, or an outer name shadowed) gets a name of its own, `h$s<N>$`, and each
//! operand takes the declaration it sees: the innermost block around it that declared the name
//! before it, else the function's.

use crate::ast::{AddrBase, FastMap, Name, Operand, RegDecl, Span, Statement};

/// Renames the repeated names of `regs` declared in the nested blocks `blocks` (each from `{` to
/// `}`), and the operands of `body` (pending in `operands`) that refer to them.
pub fn scope_registers(
    regs: &mut [RegDecl],
    body: &[Statement],
    operands: &mut [Operand],
    blocks: &[Span],
) {
    let Some(groups) = repeated_names(regs) else {
        return;
    };
    let block_of = |at: u32| -> Option<Span> {
        blocks
            .iter()
            .filter(|b| b.start <= at && at < b.end)
            .min_by_key(|b| b.end - b.start)
            .copied()
    };
    let decl_blocks: Vec<Option<Span>> = regs
        .iter()
        .map(|r| r.scoped.then(|| block_of(r.span.start)).flatten())
        .collect();
    let renamed = rename_declarations(regs, &groups, &decl_blocks);
    if renamed.is_empty() {
        return;
    }
    let scope = Scope {
        regs,
        groups: &groups,
        decl_blocks: &decl_blocks,
        renamed: &renamed,
    };
    for s in body {
        if let Statement::Instr(i) = s {
            let at = i.span.start;
            for o in &mut operands[i.operands.pending_range()] {
                scope.rename_operand(o, at);
            }
        }
    }
}

/// Declarations by name, for the names declared more than once; `None` when none is.
fn repeated_names(regs: &[RegDecl]) -> Option<FastMap<String, Vec<usize>>> {
    if !regs.iter().any(|r| r.scoped) {
        return None;
    }
    let mut by_name: FastMap<String, Vec<usize>> = FastMap::default();
    for (k, r) in regs.iter().enumerate() {
        by_name.entry(r.name.clone()).or_default().push(k);
    }
    by_name.retain(|_, ds| ds.len() > 1);
    (!by_name.is_empty()).then_some(by_name)
}

/// Gives each repeated scoped declaration alone in its block a name of its own; returns the new
/// name by declaration (a repeat within one block is left for the duplicate check to report).
fn rename_declarations(
    regs: &mut [RegDecl],
    groups: &FastMap<String, Vec<usize>>,
    decl_blocks: &[Option<Span>],
) -> FastMap<usize, String> {
    let mut renamed = FastMap::default();
    for ds in groups.values() {
        for &k in ds {
            let alone = ds
                .iter()
                .all(|&j| j == k || decl_blocks[j] != decl_blocks[k]);
            if decl_blocks[k].is_some() && alone {
                renamed.insert(k, format!("{}$s{k}$", regs[k].name));
            }
        }
    }
    for (&k, name) in &renamed {
        regs[k].name = name.clone();
    }
    renamed
}

/// What a name means where an operand stands.
struct Scope<'a> {
    regs: &'a [RegDecl],
    groups: &'a FastMap<String, Vec<usize>>,
    decl_blocks: &'a [Option<Span>],
    renamed: &'a FastMap<usize, String>,
}

impl Scope<'_> {
    fn rename_operand(&self, o: &mut Operand, at: u32) {
        match o {
            Operand::Reg(n) | Operand::NotReg(n) | Operand::Symbol(n) => self.rename(n, at),
            Operand::PredPair(pair) => {
                self.rename(&mut pair.0, at);
                self.rename(&mut pair.1, at);
            }
            Operand::Addr {
                base: AddrBase::Reg(n) | AddrBase::Symbol(n),
                ..
            } => self.rename(n, at),
            Operand::Vector(v) => v.iter_mut().for_each(|x| self.rename_operand(x, at)),
            _ => {}
        }
    }

    /// `name` as the declaration seen at `at` calls it.
    fn rename(&self, name: &mut Name, at: u32) {
        let (decl, member) = match self.groups.get(name.as_str()) {
            Some(ds) => (ds, ""),
            None => match self.range_member(name) {
                Some(found) => found,
                None => return,
            },
        };
        let index: Option<u64> = member.parse().ok();
        let seen = decl
            .iter()
            .copied()
            .filter(|&k| match (self.regs[k].count, index) {
                (Some(n), Some(i)) => i < n,
                (None, None) => true,
                _ => false,
            })
            .filter(|&k| self.regs[k].span.start < at || self.decl_blocks[k].is_none())
            .filter(|&k| self.decl_blocks[k].is_none_or(|b| b.start <= at && at < b.end))
            .min_by_key(|&k| self.decl_blocks[k].map_or(u32::MAX, |b| b.end - b.start));
        if let Some(new) = seen.and_then(|k| self.renamed.get(&k)) {
            *name = Name::from(format!("{new}{member}"));
        }
    }

    /// `%r12` as member `12` of a repeated range prefix `%r`.
    fn range_member<'n>(&self, name: &'n str) -> Option<(&Vec<usize>, &'n str)> {
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (prefix, member) = name.split_at(name.len() - digits);
        if digits == 0 || prefix.is_empty() {
            return None;
        }
        let ds = self.groups.get(prefix)?;
        ds.iter()
            .any(|&k| self.regs[k].count.is_some())
            .then_some((ds, member))
    }
}

/// Renames the labels declared more than once in a body (each inline-asm block of CUTLASS's
/// mbarrier waits declares its own `LAB_WAIT:` and `DONE:`) when they stand in different nested
/// blocks `blocks`: each gets a name of its own, `L$l<N>$`, and each branch target (a symbol
/// operand) names the label it sees: the one in the innermost block around the branch that
/// declares the name, else the function's. Labels repeated within one block are left for the
/// duplicate check.
pub fn scope_labels(body: &mut [Statement], operands: &mut [Operand], blocks: &[Span]) {
    let mut by_name: FastMap<String, Vec<usize>> = FastMap::default();
    for (n, s) in body.iter().enumerate() {
        if let Statement::Label { name, .. } = s {
            by_name.entry(name.to_string()).or_default().push(n);
        }
    }
    by_name.retain(|_, ls| ls.len() > 1);
    if by_name.is_empty() {
        return;
    }
    let block_of = |at: u32| -> Option<Span> {
        blocks
            .iter()
            .filter(|b| b.start <= at && at < b.end)
            .min_by_key(|b| b.end - b.start)
            .copied()
    };
    let label_block = |n: usize| match &body[n] {
        Statement::Label { span, .. } => block_of(span.start),
        Statement::Instr(_) => None,
    };
    // (statement index, its block, new name) of each label renamed, by old name.
    let mut scoped: FastMap<String, Vec<(Option<Span>, Option<Name>)>> = FastMap::default();
    for (name, ls) in &by_name {
        let decls: Vec<Option<Span>> = ls.iter().map(|&n| label_block(n)).collect();
        let list = (ls.iter().zip(&decls))
            .map(|(&n, &b)| {
                let alone = decls.iter().filter(|&&d| d == b).count() == 1;
                let new = (b.is_some() && alone).then(|| Name::from(format!("{name}$l{n}$")));
                (b, new)
            })
            .collect();
        scoped.insert(name.clone(), list);
    }
    for s in body.iter() {
        let Statement::Instr(i) = s else { continue };
        let at = i.span.start;
        for o in &mut operands[i.operands.pending_range()] {
            let Operand::Symbol(n) = o else { continue };
            let Some(decls) = scoped.get(n.as_str()) else {
                continue;
            };
            let seen = (decls.iter())
                .filter(|(b, _)| b.is_none_or(|b| b.start <= at && at < b.end))
                .min_by_key(|(b, _)| b.map_or(u32::MAX, |b| b.end - b.start));
            if let Some((_, Some(new))) = seen {
                *n = new.clone();
            }
        }
    }
    for (name, ls) in &by_name {
        for (&n, (_, new)) in ls.iter().zip(&scoped[name]) {
            if let (Statement::Label { name, .. }, Some(new)) = (&mut body[n], new) {
                *name = new.clone();
            }
        }
    }
}
