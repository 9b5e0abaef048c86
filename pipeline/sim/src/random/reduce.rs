//! The reducer: delta debugging over a disagreeing kernel's statements, structure, operands and
//! observed outputs, keeping each change after which the kernel still gives the same kind of
//! result ([`Outcome::same_kind`]).

use std::collections::BTreeSet;

use super::program::{Program, Src, Stmt, Var};
use super::Outcome;

/// Shrinks `program` while `check(candidate)` still gives a result of `target`'s kind; `budget`
/// bounds the checks made.
pub fn reduce(
    program: &Program,
    target: &Outcome,
    budget: usize,
    check: &mut dyn FnMut(&Program) -> Outcome,
) -> Program {
    let mut best = program.clone();
    let mut left = budget;
    let mut keeps = |p: &Program, left: &mut usize| -> bool {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        target.same_kind(&check(p))
    };
    for _ in 0..4 {
        let before = best.clone();
        best = chunks(best, &mut left, &mut keeps);
        best = single_edits(best, &mut left, &mut keeps);
        best = observed(best, &mut left, &mut keeps);
        if best == before || left == 0 {
            break;
        }
    }
    best
}

type Keeps<'a> = dyn FnMut(&Program, &mut usize) -> bool + 'a;

/// Removes runs of top-level statements, halves first.
fn chunks(mut best: Program, left: &mut usize, keeps: &mut Keeps) -> Program {
    let mut size = best.body.len() / 2;
    while size >= 2 {
        let mut at = 0;
        while at < best.body.len() {
            let mut candidate = best.clone();
            let end = (at + size).min(candidate.body.len());
            candidate.body.drain(at..end);
            if keeps(&candidate, left) {
                best = candidate;
            } else {
                at += size;
            }
        }
        size /= 2;
    }
    best
}

/// One edit at a time, every kind, until none is kept.
fn single_edits(mut best: Program, left: &mut usize, keeps: &mut Keeps) -> Program {
    let mut at = 0;
    loop {
        let candidates = edits(&best);
        if at >= candidates.len() || *left == 0 {
            return best;
        }
        let mut kept = false;
        for (k, c) in candidates.into_iter().enumerate().skip(at) {
            if keeps(&c, left) {
                best = c;
                at = k;
                kept = true;
                break;
            }
        }
        if !kept {
            return best;
        }
    }
}

/// Drops stored outputs, halves first.
fn observed(mut best: Program, left: &mut usize, keeps: &mut Keeps) -> Program {
    let mut size = best.observed.len().div_ceil(2);
    while size >= 1 {
        let vars: Vec<Var> = best.observed.iter().copied().collect();
        for chunk in vars.chunks(size) {
            let mut candidate = best.clone();
            let drop: BTreeSet<Var> = chunk.iter().copied().collect();
            candidate.observed.retain(|v| !drop.contains(v));
            if !candidate.observed.is_empty() && keeps(&candidate, left) {
                best = candidate;
            }
        }
        if size == 1 {
            break;
        }
        size /= 2;
    }
    best
}

/// Every program one edit away from `p`: a statement removed, a branch or loop replaced by its
/// body, a guard dropped, a variable operand made a constant.
fn edits(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect_paths(&p.body, &mut Vec::new(), &mut paths);
    for path in &paths {
        let mut c = p.clone();
        splice(&mut c.body, path, Vec::new());
        out.push(c);
    }
    for path in &paths {
        let stmt = get(&p.body, path).clone();
        let bodies = match stmt {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::Loop { body, .. } => vec![body],
            Stmt::Op(op) => {
                let mut variants = Vec::new();
                if op.guard.is_some() {
                    let mut o = op.clone();
                    o.guard = None;
                    variants.push(o);
                }
                for (k, s) in op.srcs.iter().enumerate() {
                    if let Src::Var(v) = s {
                        if !v.kind.zero().is_empty() && v.kind != super::program::Kind::H {
                            let mut o = op.clone();
                            o.srcs[k] = Src::Imm(v.kind.zero().into());
                            variants.push(o);
                        }
                    }
                }
                for o in variants {
                    let mut c = p.clone();
                    splice(&mut c.body, path, vec![Stmt::Op(o)]);
                    out.push(c);
                }
                continue;
            }
        };
        for b in bodies {
            let mut c = p.clone();
            splice(&mut c.body, path, b);
            out.push(c);
        }
    }
    out
}

fn collect_paths(body: &[Stmt], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    for (k, s) in body.iter().enumerate() {
        prefix.push(k);
        out.push(prefix.clone());
        match s {
            Stmt::Op(_) => {}
            Stmt::If { then, els, .. } => {
                prefix.push(0);
                collect_paths(then, prefix, out);
                prefix.pop();
                prefix.push(1);
                collect_paths(els, prefix, out);
                prefix.pop();
            }
            Stmt::Loop { body, .. } => {
                prefix.push(0);
                collect_paths(body, prefix, out);
                prefix.pop();
            }
        }
        prefix.pop();
    }
}

/// A path is statement indices, with 0 (then, loop body) or 1 (else) between nesting levels.
fn list_mut<'a>(body: &'a mut Vec<Stmt>, path: &[usize]) -> &'a mut Vec<Stmt> {
    match path {
        [_] | [] => body,
        [k, arm, rest @ ..] => match &mut body[*k] {
            Stmt::If { then, els, .. } => list_mut(if *arm == 0 { then } else { els }, rest),
            Stmt::Loop { body, .. } => list_mut(body, rest),
            Stmt::Op(_) => unreachable!("paths only go through branches and loops"),
        },
    }
}

fn get<'a>(body: &'a [Stmt], path: &[usize]) -> &'a Stmt {
    match path {
        [k] => &body[*k],
        [k, arm, rest @ ..] => match &body[*k] {
            Stmt::If { then, els, .. } => get(if *arm == 0 { then } else { els }, rest),
            Stmt::Loop { body, .. } => get(body, rest),
            Stmt::Op(_) => unreachable!("paths only go through branches and loops"),
        },
        [] => unreachable!("a path names a statement"),
    }
}

/// Replaces the statement at `path` by `with`.
fn splice(body: &mut Vec<Stmt>, path: &[usize], with: Vec<Stmt>) {
    let last = *path.last().expect("a path names a statement");
    let list = list_mut(body, path);
    list.splice(last..last + 1, with);
}
