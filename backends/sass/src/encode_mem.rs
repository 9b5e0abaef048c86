//! Encodings of global and generic loads and stores (LDG, STG, LD, ST) and of the L2 prefetch (CCTL).
//!
//! Fields learned from ptxas 13.5's output for the same PTX (nvdisasm -hex): address register
//! 24..31, offset 40..63 (sm_75's generic LD/ST: 32..55), wide address bit 72, size 73..75, and
//! the ordering field: on sm_75 scope 77..78 (3 = SYS/none, 2 = GPU, 1 = SM, 0 = CTA, which ptxas
//! uses for `.cta`) with strength 79..80
//! (0 = CONSTANT, 1 = weak, 2 = STRONG); on sm_80+ one field 77..80 (0 weak, 4 CONSTANT, 7
//! STRONG.GPU, 10 STRONG.SYS, 5 STRONG.SM) with bit 76 set; the cache hints in 84..86 (eviction)
//! and 68..69 (L2 prefetch).

use crate::arch::Sm;
use crate::encode::{mem_size_code, src_gpr, EResult, EncodeError, Word};
use crate::ir::*;

/// How a global or generic access is ordered and cached.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Weak,
    Constant,
    Strong(MemScope),
}

impl Order {
    pub(crate) fn of(constant: bool, scope: Option<MemScope>) -> Order {
        match (constant, scope) {
            (_, Some(s)) => Order::Strong(s),
            (true, None) => Order::Constant,
            (false, None) => Order::Weak,
        }
    }

    /// sm_80+ field 77..80.
    fn code_sm80(self) -> u64 {
        match self {
            Order::Weak => 0,
            Order::Constant => 4,
            Order::Strong(MemScope::Cta) => 5,
            Order::Strong(MemScope::Gpu) => 7,
            Order::Strong(MemScope::Sys) => 10,
        }
    }

    /// sm_75 fields (scope 77..78, strength 79..80).
    fn codes_sm75(self) -> (u64, u64) {
        match self {
            Order::Weak => (3, 1),
            Order::Constant => (3, 0),
            Order::Strong(MemScope::Cta) => (0, 2),
            Order::Strong(MemScope::Gpu) => (2, 2),
            Order::Strong(MemScope::Sys) => (3, 2),
        }
    }
}

fn ur(s: &Src, what: &str) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr => Ok(r.idx as u64),
        _ => Err(EncodeError(format!("{what} without a descriptor"))),
    }
}

fn set_order(sm: Sm, w: &mut Word, order: Order) {
    if sm.num == 75 {
        let (scope, strength) = order.codes_sm75();
        w.set(77, 2, scope);
        w.set(79, 2, strength);
    } else {
        w.set(76, 1, 1);
        w.set(77, 4, order.code_sm80());
    }
}

/// The cache hints: eviction priority 84..86, L2 prefetch size 68..69 (1 = 64B, 2 = 128B, 3 = 256B),
/// and before sm_90 bit 101 for a cache policy descriptor (sm_90 always names the descriptor).
fn set_hint(sm: Sm, w: &mut Word, hint: CacheHint) -> EResult<()> {
    w.set(84, 3, hint.evict as u64);
    if hint.policy && sm.num < 90 {
        w.set(101, 1, 1);
    }
    let ltc = match hint.l2_prefetch {
        0 => 0,
        64 => 1,
        128 => 2,
        256 => 3,
        n => return Err(EncodeError(format!("no L2 prefetch of {n} bytes"))),
    };
    w.set(68, 2, ltc);
    Ok(())
}

/// LDG (`generic == false`) or LD: d0 = [s0 + offset], descriptor s1 on sm_80+.
pub(crate) fn encode_load(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    generic: bool,
    size: MemSize,
    order: Order,
    hint: CacheHint,
    offset: i32,
) -> EResult<()> {
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(72, 1, 1);
    w.set(73, 3, mem_size_code(size));
    w.set(81, 3, if generic { 0 } else { 7 });
    set_hint(sm, w, hint)?;
    set_order(sm, w, order);
    match (sm.num, generic) {
        (75, false) => {
            w.set(0, 12, 0x381);
            w.set(40, 24, offset as u64);
        }
        (75, true) => {
            w.set(0, 12, 0x980);
            w.set(32, 32, offset as u64);
        }
        _ => {
            w.set(0, 12, if generic { 0x980 } else { 0x981 });
            w.set(32, 8, ur(&i.srcs[1], "LDG/LD")?);
            w.set(40, 24, offset as u64);
            w.set(90, 2, 3);
        }
    }
    Ok(())
}

/// STG (`generic == false`) or ST: [s0 + offset] = s1, descriptor s2 on sm_80+.
pub(crate) fn encode_store(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    generic: bool,
    size: MemSize,
    order: Order,
    hint: CacheHint,
    offset: i32,
) -> EResult<()> {
    let data = src_gpr(&i.srcs[1])?;
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(72, 1, 1);
    w.set(73, 3, mem_size_code(size));
    set_hint(sm, w, hint)?;
    set_order(sm, w, order);
    match (sm.num, generic) {
        (75, false) => {
            w.set(0, 12, 0x386);
            w.set(32, 8, data);
            w.set(40, 24, offset as u64);
        }
        (75, true) => {
            w.set(0, 12, 0x385);
            w.set(32, 32, offset as u64);
            w.set(64, 8, data);
        }
        _ => {
            w.set(0, 12, if generic { 0x985 } else { 0x986 });
            w.set(32, 8, data);
            w.set(40, 24, offset as u64);
            w.set(64, 8, ur(&i.srcs[2], "STG/ST")?);
            w.set(90, 2, 3);
        }
    }
    Ok(())
}

/// `ULDC.{U8,S8,U16,S16} URd, c[bank][offset]` (0xab9 with the size at 73..75).
pub(crate) fn encode_uldc_narrow(w: &mut Word, i: &Instr, size: MemSize) -> EResult<()> {
    let SrcVal::CBuf { bank, offset } = i.srcs[0].val else {
        return Err(EncodeError("ULDC needs a cbuf".into()));
    };
    let Dst::Reg(d) = i.dsts[0] else {
        return Err(EncodeError("ULDC destination".into()));
    };
    w.set(0, 12, 0xab9);
    w.set(16, 8, d.idx as u64);
    w.set(38, 16, offset as u64);
    w.set(54, 5, bank as u64);
    w.set(73, 3, mem_size_code(size));
    Ok(())
}

/// `CCTL.E.PF2 [Ra + offset]` (0x98f; offset at 32, .E at 72, PF2 = 1 at 87..90), as ptxas emits
/// for `prefetch.global.L2`.
pub(crate) fn encode_prefetch_l2(w: &mut Word, i: &Instr, offset: i32) -> EResult<()> {
    w.set(0, 12, 0x98f);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 32, offset as u64);
    w.set(72, 1, 1);
    w.set(87, 4, 1);
    Ok(())
}
