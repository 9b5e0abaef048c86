//! Opcodes that ptxas reads together with their first modifiers as one token (`mad.hi`,
//! `cvta.to`), which its syntax errors name whole.

/// Opcodes that ptxas reads with their first modifiers as one token (`mad.hi`, `cvta.to`,
/// `mbarrier.try_wait.parity`), which its syntax errors name whole.
const COMPOUND_OPCODES: &[&str] = &[
    "mul.lo",
    "mul.hi",
    "mul.wide",
    "mad.lo",
    "mad.hi",
    "mad.wide",
    "mul24.lo",
    "mul24.hi",
    "mad24.lo",
    "mad24.hi",
    "madc.lo",
    "madc.hi",
    "cvta.to",
    "suld.b",
    "sust.b",
    "sust.p",
    "sured.b",
    "sured.p",
    "bar.warp",
    "bar.cta",
    "bar.arrive",
    "bar.red",
    "barrier.cta",
    "barrier.arrive",
    "barrier.cluster.arrive",
    "barrier.cluster.wait",
    "cp.async",
    "cp.async.bulk",
    "cp.async.bulk.tensor",
    "cp.async.bulk.prefetch",
    "cp.async.bulk.commit_group",
    "cp.async.bulk.wait_group",
    "cp.async.wait_group",
    "cp.async.commit_group",
    "cp.async.wait_all",
    "cp.async.mbarrier.arrive",
    "cp.reduce.async.bulk",
    "cp.reduce.async.bulk.tensor",
    "fence.proxy",
    "div.full",
    "cvt.pack",
    "dp2a.lo",
    "dp2a.hi",
    "st.async",
    "red.async",
    "wgmma.fence",
    "wgmma.mma_async",
    "wgmma.commit_group",
    "wgmma.wait_group",
    "shf.l",
    "shf.r",
    "pmevent.mask",
    "setmaxnreg.inc",
    "setmaxnreg.dec",
    "tcgen05.alloc",
    "tcgen05.mma",
    "tcgen05.ld",
    "tcgen05.st",
    "tcgen05.commit",
    "tcgen05.cp",
    "tcgen05.shift",
    "tcgen05.wait",
    "tcgen05.fence",
    "tcgen05.dealloc",
    "tcgen05.relinquish_alloc_permit",
    "tensormap.replace",
    "tensormap.cp_fenceproxy",
    "multimem.ld_reduce",
    "multimem.st",
    "multimem.red",
    "mbarrier.init",
    "mbarrier.arrive",
    "mbarrier.arrive.expect_tx",
    "mbarrier.arrive_drop",
    "mbarrier.try_wait",
    "mbarrier.try_wait.parity",
    "mbarrier.test_wait",
    "mbarrier.inval",
    "mbarrier.pending_count",
    "mbarrier.complete_tx",
    "mbarrier.expect_tx",
    "wmma.load.a",
    "wmma.load.b",
    "wmma.load.c",
    "wmma.mma",
    "wmma.store.d",
    "clusterlaunchcontrol.query_cancel",
    "tex.grad",
];

/// The longest [`COMPOUND_OPCODES`] entry that `text` (from an opcode on) starts with, whole
/// words only.
pub fn compound_opcode(text: &str) -> Option<&'static str> {
    let chain_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(text.len());
    let chain = &text[..chain_len];
    COMPOUND_OPCODES
        .iter()
        .filter(|c| {
            chain
                .strip_prefix(**c)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
        .max_by_key(|c| c.len())
        .copied()
}
