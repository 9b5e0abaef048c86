//! `ld.acquire` and `st.release` (with `.cta`/`.gpu`/`.sys` scope) as ptxas emits them: the access
//! itself is a `.STRONG` one of the scope (`.SM` for `.cta`); an acquiring load beyond the CTA is
//! followed by `CCTL.IVALL` (the L1 invalidation), and a releasing store is preceded by
//! `MEMBAR.ALL.<scope>`, beyond the CTA with `ERRBAR` (and `CGAERRBAR` on sm_90) after it.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;
use ptxforge_sass::warp::{Scope, WarpOp};

use crate::ctx::{Ctx, LResult};

/// The ordering of an `ld`/`st` that needs fences around the access.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ordering {
    Acquire(Scope),
    Release(Scope),
}

/// The scope named by `.cta`/`.gpu`/`.sys` (`None`: no scope given).
pub(crate) fn scope_of(i: &Instruction) -> Option<Scope> {
    if i.has_mod("cta") {
        Some(Scope::Cta)
    } else if i.has_mod("gpu") {
        Some(Scope::Gpu)
    } else if i.has_mod("sys") {
        Some(Scope::Sys)
    } else {
        None
    }
}

/// `.acquire` on a load or `.release` on a store, with its scope; `Ok(None)` for other accesses.
pub(crate) fn ordering(i: &Instruction) -> LResult<Option<Ordering>> {
    let load = i.opcode() != "st";
    let acquire = i.has_mod("acquire");
    let release = i.has_mod("release");
    if !acquire && !release {
        return Ok(None);
    }
    let form = || {
        format!(
            "'{}.{}' is not supported yet",
            i.opcode(),
            i.mods().join(".")
        )
    };
    let scope = scope_of(i).ok_or_else(form)?;
    match (load, acquire) {
        (true, true) => Ok(Some(Ordering::Acquire(scope))),
        (false, false) => Ok(Some(Ordering::Release(scope))),
        _ => Err(form()),
    }
}

/// The `.STRONG` scope of an ordered access's SASS.
pub(crate) fn strong_scope(scope: Scope) -> MemScope {
    match scope {
        Scope::Cta => MemScope::Cta,
        Scope::Gpu => MemScope::Gpu,
        Scope::Sys => MemScope::Sys,
    }
}

impl Ctx<'_> {
    /// What goes before the access: a releasing store's fence.
    pub(crate) fn ordering_prologue(&mut self, ord: Option<Ordering>) {
        let Some(Ordering::Release(scope)) = ord else {
            return;
        };
        self.emit(Opcode::Warp(WarpOp::Membar { sc: false, scope }), &[], &[]);
        if scope != Scope::Cta {
            self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
            if self.sm.num >= 90 {
                self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
            }
        }
    }

    /// What goes after the access: an acquiring load's L1 invalidation beyond the CTA.
    pub(crate) fn ordering_epilogue(&mut self, ord: Option<Ordering>) {
        if let Some(Ordering::Acquire(Scope::Gpu | Scope::Sys)) = ord {
            self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
        }
    }
}
