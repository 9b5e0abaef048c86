//! Global and generic loads and stores with cache hints (eviction priority, L2 prefetch) and
//! ordering scopes, as ptxas writes them for PTX's cache operators, for the nvdisasm form list.

use super::*;

/// Every eviction priority on LDG/LD/STG/ST, with each L2 prefetch size on the loads, weak, strong
/// and non-coherent (256-byte prefetch from sm_80).
pub(super) fn cache_hint_forms(sm: Sm) -> Vec<Instr> {
    let evicts = [
        Evict::First,
        Evict::Normal,
        Evict::Last,
        Evict::LastUse,
        Evict::Unchanged,
        Evict::NoAllocate,
    ];
    let mut v = Vec::new();
    for (k, evict) in evicts.into_iter().enumerate() {
        let l2_prefetch = [0, 64, 128, 256][k % 4].min(if sm.num >= 80 { 256 } else { 128 });
        let scope = [None, Some(MemScope::Cta), Some(MemScope::Gpu)][k % 3];
        let size = [MemSize::B32, MemSize::B128, MemSize::U8][k % 3];
        // A cache policy descriptor on every other form (sm_80+).
        let policy = sm.num >= 80 && k % 2 == 1;
        let load = CacheHint {
            evict,
            l2_prefetch,
            policy,
        };
        let store = CacheHint {
            evict,
            l2_prefetch: 0,
            policy,
        };
        for constant in [false, true] {
            let scope = if constant { None } else { scope };
            v.push(Instr::new(
                Opcode::Ldg {
                    size,
                    constant,
                    scope,
                    hint: load,
                    offset: 0x40,
                },
                &[d(4)],
                &[r(2), ur(4)],
            ));
        }
        v.push(Instr::new(
            Opcode::Ld {
                size,
                scope,
                hint: load,
                offset: 0x10,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            Opcode::Stg {
                size,
                scope,
                hint: store,
                offset: -4,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
        v.push(Instr::new(
            Opcode::St {
                size,
                scope,
                hint: store,
                offset: 8,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
    }
    v
}
