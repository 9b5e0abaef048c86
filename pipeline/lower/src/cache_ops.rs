//! Cache operators and hints of global and generic loads and stores, as ptxas encodes them.
//!
//! A weak access's cache operator becomes a `.STRONG` scope or an eviction priority (learnt from
//! ptxas 13.5's code for each operator on sm_75..sm_90): loads `.ca` STRONG.SM, `.cg` STRONG.GPU,
//! `.cv` STRONG.SYS, `.cs` EF, `.lu` LU; stores `.wb` STRONG.SM, `.cg` STRONG.GPU, `.wt`
//! STRONG.SYS, `.cs` EF; a non-coherent (`.nc`) load keeps only `.cs`'s EF. `--def-load-cache` and
//! `--def-store-cache` give the operator of accesses that name none; `--force-load-cache` and
//! `--force-store-cache` replace every weak access's operator. An access with an L1 eviction
//! priority (`.L1::evict_*`, `.L1::no_allocate`) keeps it and takes no operator from the options,
//! and ordered accesses (`.relaxed`, `.volatile`, `.acquire`, `.release`) keep their scope.
//! `.L2::64B`/`128B`/`256B` become the L2 prefetch size.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::{CacheHint, Evict, MemScope};

use crate::ctx::LResult;
use crate::mem::Space;

/// A PTX cache operator (`.ca`, `.cg`, `.cs`, `.lu`, `.cv` on loads; `.wb`, `.cg`, `.cs`, `.wt` on
/// stores).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CacheOp {
    Ca,
    Cg,
    Cs,
    Lu,
    Cv,
    Wb,
    Wt,
}

impl CacheOp {
    /// The operator a load (`store == false`) or store spells `name`; None for any other name.
    pub fn parse(name: &str, store: bool) -> Option<CacheOp> {
        let op = match name {
            "ca" => CacheOp::Ca,
            "cg" => CacheOp::Cg,
            "cs" => CacheOp::Cs,
            "lu" => CacheOp::Lu,
            "cv" => CacheOp::Cv,
            "wb" => CacheOp::Wb,
            "wt" => CacheOp::Wt,
            _ => return None,
        };
        let for_store = matches!(op, CacheOp::Cg | CacheOp::Cs | CacheOp::Wb | CacheOp::Wt);
        let for_load = !matches!(op, CacheOp::Wb | CacheOp::Wt);
        (if store { for_store } else { for_load }).then_some(op)
    }
}

/// The command line's cache operators (`--def-load-cache` and friends); the default is none.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CachePolicy {
    pub default_load: Option<CacheOp>,
    pub force_load: Option<CacheOp>,
    pub default_store: Option<CacheOp>,
    pub force_store: Option<CacheOp>,
}

/// How one global or generic access is ordered (its `.STRONG` scope; None: weak) and cached.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct AccessOrder {
    pub scope: Option<MemScope>,
    pub hint: CacheHint,
}

impl AccessOrder {
    /// A weak access without hints.
    pub const WEAK: AccessOrder = AccessOrder {
        scope: None,
        hint: CacheHint::NONE,
    };
}

const EVICTION_PRIORITIES: [(&str, Evict); 5] = [
    ("L1::evict_first", Evict::First),
    ("L1::evict_normal", Evict::Normal),
    ("L1::evict_last", Evict::Last),
    ("L1::evict_unchanged", Evict::Unchanged),
    ("L1::no_allocate", Evict::NoAllocate),
];

const L2_PREFETCHES: [(&str, u16); 3] = [("L2::64B", 64), ("L2::128B", 128), ("L2::256B", 256)];

impl CachePolicy {
    /// `order` (the access's ordering scope) with the cache operator and hints of `i` applied.
    pub(crate) fn apply(
        &self,
        i: &Instruction,
        space: Space,
        mut order: AccessOrder,
    ) -> LResult<AccessOrder> {
        let nc = match space {
            Space::Global { nc } => nc,
            Space::Generic => false,
            Space::Shared | Space::Local => return Ok(order),
        };
        let store = i.opcode() == "st";
        order.hint.l2_prefetch = L2_PREFETCHES
            .iter()
            .find(|(m, _)| i.has_mod(m))
            .map_or(0, |&(_, bytes)| bytes);
        if let Some(&(_, evict)) = EVICTION_PRIORITIES.iter().find(|(m, _)| i.has_mod(m)) {
            order.hint.evict = evict;
            return Ok(order);
        }
        if order.scope.is_some() {
            return Ok(order);
        }
        let written = i.mods().iter().find_map(|m| CacheOp::parse(m, store));
        let (default, force) = if store {
            (self.default_store, self.force_store)
        } else {
            (self.default_load, self.force_load)
        };
        if let Some(op) = force.or(written).or(default) {
            apply_op(op, nc, &mut order);
        }
        Ok(order)
    }
}

/// One cache operator's effect on a weak access (`nc`: a non-coherent load).
fn apply_op(op: CacheOp, nc: bool, order: &mut AccessOrder) {
    match (op, nc) {
        (CacheOp::Cs, _) => order.hint.evict = Evict::First,
        (_, true) => {}
        (CacheOp::Lu, false) => order.hint.evict = Evict::LastUse,
        (CacheOp::Ca | CacheOp::Wb, false) => order.scope = Some(MemScope::Cta),
        (CacheOp::Cg, false) => order.scope = Some(MemScope::Gpu),
        (CacheOp::Cv | CacheOp::Wt, false) => order.scope = Some(MemScope::Sys),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_and_store_operators_are_told_apart() {
        assert_eq!(CacheOp::parse("cv", false), Some(CacheOp::Cv));
        assert_eq!(CacheOp::parse("cv", true), None);
        assert_eq!(CacheOp::parse("wt", true), Some(CacheOp::Wt));
        assert_eq!(CacheOp::parse("wt", false), None);
        assert_eq!(CacheOp::parse("cg", true), Some(CacheOp::Cg));
        assert_eq!(CacheOp::parse("v4", false), None);
    }

    #[test]
    fn a_non_coherent_load_keeps_only_evict_first() {
        let mut o = AccessOrder::WEAK;
        apply_op(CacheOp::Cg, true, &mut o);
        assert_eq!(o, AccessOrder::WEAK);
        apply_op(CacheOp::Cs, true, &mut o);
        assert_eq!(o.hint.evict, Evict::First);
        assert_eq!(o.scope, None);
        let mut o = AccessOrder::WEAK;
        apply_op(CacheOp::Wt, false, &mut o);
        assert_eq!(o.scope, Some(MemScope::Sys));
    }
}
