//! Names used before their declaration. ptxas reads a function body in order: a register or
//! variable is in sight from its declaration to the end of its `{ }` block, and a name used where
//! none is in sight is an unknown symbol at the function's end, or, when a later declaration in a
//! block around the use names it exactly (not as a member of a `%r<N>` range), ptxas's fatal
//! "Label expected for forward reference". Only functions whose parser saw a declaration after an
//! instruction of its block ([`Function::declared_late`]) are checked this way; elsewhere every
//! declaration is in sight of every instruction.

use crate::ast::{Function, Span};
use crate::checks::instructions::Scope;

/// The declarations of one function with the blocks they belong to, and the places where what is
/// in sight changes.
pub struct InSight<'a> {
    f: &'a Function,
    /// Per register declaration of `f.regs`, then per variable of `f.vars`: (where it starts,
    /// its block).
    regs: Vec<(u32, Span)>,
    vars: Vec<(u32, Span)>,
    /// Where declarations start and blocks that hold some end, in order.
    changes: Vec<u32>,
    /// How many of `changes` came before the instruction the scope was last filled for.
    passed: Option<usize>,
}

impl<'a> InSight<'a> {
    /// `blocks` are the nested blocks of `f`'s body ([`Function::declared_late`]).
    pub fn new(f: &'a Function, blocks: &[Span]) -> InSight<'a> {
        let body = f.span;
        let block_of = |at: u32| {
            blocks
                .iter()
                .filter(|&&b| inside(b, at))
                .max_by_key(|b| b.start)
                .copied()
                .unwrap_or(body)
        };
        let regs: Vec<(u32, Span)> = f
            .regs
            .iter()
            .map(|d| (d.span.start, block_of(d.span.start)))
            .collect();
        let vars: Vec<(u32, Span)> = f
            .vars
            .iter()
            .map(|v| (v.span.start, block_of(v.span.start)))
            .collect();
        let mut changes: Vec<u32> = regs
            .iter()
            .chain(vars.iter())
            .flat_map(|&(at, block)| [at, block.end])
            .collect();
        changes.sort_unstable();
        changes.dedup();
        InSight {
            f,
            regs,
            vars,
            changes,
            passed: None,
        }
    }

    /// Fills `scope` with the registers and variables in sight at `at` (where an instruction
    /// starts), when they differ from those of the last call.
    pub fn fill(&mut self, at: u32, scope: &mut Scope<'a>) {
        let passed = self.changes.partition_point(|&c| c < at);
        if self.passed == Some(passed) {
            return;
        }
        self.passed = Some(passed);
        let f = self.f;
        let regs = f
            .regs
            .iter()
            .zip(&self.regs)
            .filter(|(_, &(decl, block))| in_sight(decl, block, at))
            .map(|(d, _)| d);
        scope
            .regs
            .fill(regs, f.params.iter().chain(f.ret_params.iter()));
        let vars = f
            .vars
            .iter()
            .zip(&self.vars)
            .filter(|(_, &(decl, block))| in_sight(decl, block, at))
            .map(|(v, _)| v);
        scope.vars.locals.clear();
        scope
            .vars
            .locals
            .extend(f.params.iter().chain(f.ret_params.iter()).chain(vars));
    }

    /// Whether `name`, not in sight at `at`, is declared exactly later in a block around `at`.
    pub fn forward_reference(&self, name: &str, at: u32) -> bool {
        let f = self.f;
        let later = |decl: u32, block: Span| decl > at && inside(block, at);
        let reg =
            f.regs.iter().zip(&self.regs).any(|(d, &(decl, block))| {
                d.count.is_none() && d.name == name && later(decl, block)
            });
        reg || f
            .vars
            .iter()
            .zip(&self.vars)
            .any(|(v, &(decl, block))| v.name == name && later(decl, block))
    }
}

/// Whether a declaration starting at `decl` in `block` is in sight at `at`.
fn in_sight(decl: u32, block: Span, at: u32) -> bool {
    decl < at && inside(block, at)
}

/// Whether `at` lies inside `block`, between its braces.
fn inside(block: Span, at: u32) -> bool {
    block.start < at && at < block.end
}
