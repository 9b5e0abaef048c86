//! The post-register-allocation list scheduler: reorders instructions within a basic block so
//! that long-latency results (loads above all) issue early and their latency is hidden behind
//! independent work, before `schedule.rs` sets the control bits for the new order.
//!
//! Safety comes first. Only *pure* instructions (integer, float and conversion arithmetic whose
//! result depends on nothing but its register and constant operands), *weak loads* (LDG/LD
//! without a `.STRONG` scope, LDS, LDL, LDC, ULDC) and *weak stores* (STG/ST without a scope,
//! STS, STL) ever move. Every other instruction (atomics, fences, barriers, warp-synchronous
//! ops, calls, branches, EXIT, tensor ops, special registers, asynchronous copies, anything not
//! listed) splits the block: nothing moves across it. Within a stretch between two such
//! instructions the dependencies are those of the physical registers and predicates (uniform
//! ones and carry outputs included: every register `Instr::visit_regs` names): read after
//! write, write after read, write after write; and memory order: a store stays in order with
//! every load and store, loads move freely past loads and arithmetic.
//!
//! The order is a cycle-aware list schedule: among the instructions whose predecessors are all
//! placed, the one that can issue now with the longest latency-weighted path to the end of the
//! stretch goes first (ties: original order), so the result is deterministic.

use crate::fast_hash::FastMap as HashMap;
use crate::ir::*;
use crate::latency::{fixed_latency, is_variable_latency};

/// Whether blocks are reordered at all (off: instructions keep their lowering order).
pub const ENABLED: bool = true;

/// Whether this process reorders: [`ENABLED`], unless the environment sets
/// `PTXFORGE_NO_LIST_SCHEDULE` (a switch for measuring the scheduler's effect, e.g. with the
/// `sim_cycles` bench; read once).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| ENABLED && std::env::var_os("PTXFORGE_NO_LIST_SCHEDULE").is_none())
}

/// Nominal latency of a variable-latency result, for priorities only (the numbers of the
/// emulator's modelled cycles, `ptxforge_emu::modelled`: Mesa NAK's estimates).
fn variable_latency(op: &Opcode) -> u32 {
    match op {
        Opcode::Ldg { .. } | Opcode::Ld { .. } | Opcode::Ldl { .. } => 32,
        Opcode::Lds { .. } => 19,
        Opcode::Ldc { .. } | Opcode::LdcIndexed { .. } => 4,
        Opcode::Dadd { .. } | Opcode::Dmul { .. } => 48,
        Opcode::Dfma { .. } | Opcode::Dsetp { .. } => 54,
        _ => 15,
    }
}

/// How an instruction takes part in reordering.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    /// Arithmetic on registers and constants only.
    Pure,
    /// A weak load: may pass loads and arithmetic, never a store.
    Load,
    /// A weak store: stays in order with every memory access.
    Store,
    /// Anything else: nothing moves across it.
    Fixed,
}

fn kind(i: &Instr) -> Kind {
    if i.op.names_registers_only() {
        return Kind::Fixed;
    }
    match i.op {
        Opcode::Mov
        | Opcode::Umov
        | Opcode::Ulea { .. }
        | Opcode::Lea { .. }
        | Opcode::Iadd3 { .. }
        | Opcode::Imad { .. }
        | Opcode::Iabs
        | Opcode::Imnmx { .. }
        | Opcode::Fadd { .. }
        | Opcode::Fmul { .. }
        | Opcode::Ffma { .. }
        | Opcode::Fmnmx { .. }
        | Opcode::Isetp { .. }
        | Opcode::Fsetp { .. }
        | Opcode::Dadd { .. }
        | Opcode::Dmul { .. }
        | Opcode::Dfma { .. }
        | Opcode::Dsetp { .. }
        | Opcode::I2fWide { .. }
        | Opcode::F2iWide { .. }
        | Opcode::F2f { .. }
        | Opcode::I2f { .. }
        | Opcode::I2fp { .. }
        | Opcode::F2i { .. }
        | Opcode::Half2 { .. }
        | Opcode::Hsetp2 { .. }
        | Opcode::Hset2 { .. }
        | Opcode::Hmnmx2 { .. }
        | Opcode::F2fp { .. }
        | Opcode::F2fp8 { .. }
        | Opcode::Sel
        | Opcode::Lop3 { .. }
        | Opcode::Plop3 { .. }
        | Opcode::Shf { .. }
        | Opcode::Vabsdiff { .. }
        | Opcode::Prmt { .. }
        | Opcode::Flo { .. }
        | Opcode::I2fRp { .. }
        | Opcode::MufuRcp
        | Opcode::MufuRsq
        | Opcode::Frnd { .. }
        | Opcode::Mufu { .. }
        | Opcode::FmulRound { .. }
        | Opcode::FfmaRound { .. }
        | Opcode::ShfWrap { .. }
        | Opcode::FrndHalf { .. }
        | Opcode::FrndF64 { .. }
        | Opcode::Popc
        | Opcode::Brev
        | Opcode::Bmsk { .. }
        | Opcode::Sgxt { .. }
        | Opcode::Idp { .. }
        | Opcode::Ldc { .. }
        | Opcode::LdcIndexed { .. }
        | Opcode::Uldc { .. }
        | Opcode::UldcNarrow { .. } => Kind::Pure,
        Opcode::Ldg { scope: None, .. }
        | Opcode::Ld { scope: None, .. }
        | Opcode::Lds { .. }
        | Opcode::Ldl { .. } => Kind::Load,
        Opcode::Stg { scope: None, .. }
        | Opcode::St { scope: None, .. }
        | Opcode::Sts { .. }
        | Opcode::Stl { .. } => Kind::Store,
        _ => Kind::Fixed,
    }
}

/// One 32-bit register of one file.
type PhysReg = (RegFile, u32);

fn phys_regs(r: Reg) -> impl Iterator<Item = PhysReg> {
    (0..r.comps as u32).map(move |k| (r.file, r.idx + k))
}

/// The dependence graph of one stretch: successors with the cycles they wait, and counts of
/// unplaced predecessors.
struct Graph {
    succs: Vec<Vec<(usize, u32)>>,
    preds: Vec<usize>,
}

impl Graph {
    fn edge(&mut self, from: usize, to: usize, latency: u32) {
        if from != to {
            self.succs[from].push((to, latency));
            self.preds[to] += 1;
        }
    }
}

/// Cycles after `producer` issues before a reader of its result in `file` may issue.
fn result_latency(producer: &Instr, file: RegFile) -> u32 {
    if is_variable_latency(&producer.op) {
        variable_latency(&producer.op)
    } else {
        fixed_latency(producer, file)
    }
}

fn build_graph(instrs: &[Instr]) -> Graph {
    let n = instrs.len();
    let mut g = Graph {
        succs: vec![Vec::new(); n],
        preds: vec![0; n],
    };
    let mut last_write: HashMap<PhysReg, usize> = HashMap::default();
    let mut reads_since: HashMap<PhysReg, Vec<usize>> = HashMap::default();
    let mut last_store: Option<usize> = None;
    let mut loads_since_store: Vec<usize> = Vec::new();
    for (j, i) in instrs.iter().enumerate() {
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        i.visit_regs(|r, a| match a {
            Access::Read => reads.extend(phys_regs(r)),
            Access::Write => writes.extend(phys_regs(r).map(|p| (p, r.file))),
        });
        for &p in &reads {
            if let Some(&w) = last_write.get(&p) {
                g.edge(w, j, result_latency(&instrs[w], p.0));
            }
            reads_since.entry(p).or_default().push(j);
        }
        for &(p, _) in &writes {
            if let Some(&w) = last_write.get(&p) {
                g.edge(w, j, 1);
            }
            for r in reads_since.remove(&p).unwrap_or_default() {
                g.edge(r, j, 1);
            }
            last_write.insert(p, j);
        }
        match kind(i) {
            Kind::Load => {
                if let Some(s) = last_store {
                    g.edge(s, j, 1);
                }
                loads_since_store.push(j);
            }
            Kind::Store => {
                if let Some(s) = last_store {
                    g.edge(s, j, 1);
                }
                for l in loads_since_store.drain(..) {
                    g.edge(l, j, 1);
                }
                last_store = Some(j);
            }
            Kind::Pure | Kind::Fixed => {}
        }
    }
    g
}

/// The longest latency-weighted path from each instruction to the end of the stretch, counting
/// its own result's latency.
fn priorities(instrs: &[Instr], g: &Graph) -> Vec<u32> {
    let mut prio = vec![0u32; instrs.len()];
    // Edges only go forward, so a reverse sweep sees every successor first.
    for j in (0..instrs.len()).rev() {
        let own = instrs[j]
            .dsts
            .iter()
            .filter_map(Dst::as_reg)
            .map(|r| result_latency(&instrs[j], r.file))
            .max()
            .unwrap_or(1);
        prio[j] = g.succs[j]
            .iter()
            .map(|&(s, l)| l + prio[s])
            .max()
            .unwrap_or(0)
            .max(own);
    }
    prio
}

/// The new order of one stretch of movable instructions (indices into it).
fn list_order(instrs: &[Instr]) -> Vec<usize> {
    let mut g = build_graph(instrs);
    let prio = priorities(instrs, &g);
    let n = instrs.len();
    let mut earliest = vec![0u32; n];
    let mut ready: Vec<usize> = (0..n).filter(|&j| g.preds[j] == 0).collect();
    let mut order = Vec::with_capacity(n);
    let mut t = 0u32;
    while !ready.is_empty() {
        let pick = ready
            .iter()
            .enumerate()
            .min_by_key(|&(_, &j)| (earliest[j].max(t), std::cmp::Reverse(prio[j]), j))
            .map(|(k, _)| k)
            .unwrap();
        let j = ready.swap_remove(pick);
        t = earliest[j].max(t) + 1;
        order.push(j);
        for k in 0..g.succs[j].len() {
            let (s, l) = g.succs[j][k];
            earliest[s] = earliest[s].max(t - 1 + l);
            g.preds[s] -= 1;
            if g.preds[s] == 0 {
                ready.push(s);
            }
        }
    }
    debug_assert_eq!(order.len(), n, "dependence graph has a cycle");
    order
}

/// Reorders every stretch of movable instructions of a block (between fixed instructions).
pub fn reorder_block(b: &mut Block) {
    if !enabled() {
        return;
    }
    let input = std::mem::take(&mut b.instrs);
    let mut out = Vec::with_capacity(input.len());
    let mut stretch: Vec<Instr> = Vec::new();
    for i in input {
        if kind(&i) == Kind::Fixed {
            flush(&mut stretch, &mut out);
            out.push(i);
        } else {
            stretch.push(i);
        }
    }
    flush(&mut stretch, &mut out);
    b.instrs = out;
}

fn flush(stretch: &mut Vec<Instr>, out: &mut Vec<Instr>) {
    if stretch.len() > 1 {
        let order = list_order(stretch);
        out.extend(order.into_iter().map(|j| stretch[j]));
        stretch.clear();
    } else {
        out.append(stretch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ldg(d: u32, addr: u32) -> Instr {
        Instr::new(
            Opcode::Ldg {
                size: MemSize::B32,
                constant: false,
                scope: None,
                hint: CacheHint::NONE,
                offset: 0,
            },
            &[Dst::Reg(Reg::gpr(d))],
            &[Src::reg(Reg {
                comps: 2,
                ..Reg::gpr(addr)
            })],
        )
    }

    fn stg(addr: u32, data: u32) -> Instr {
        Instr::new(
            Opcode::Stg {
                size: MemSize::B32,
                scope: None,
                hint: CacheHint::NONE,
                offset: 0,
            },
            &[],
            &[
                Src::reg(Reg {
                    comps: 2,
                    ..Reg::gpr(addr)
                }),
                Src::reg(Reg::gpr(data)),
            ],
        )
    }

    fn add(d: u32, a: u32, b: u32) -> Instr {
        Instr::new(
            Opcode::Fadd {
                ftz: false,
                rnd: Round::Rn,
            },
            &[Dst::Reg(Reg::gpr(d))],
            &[Src::reg(Reg::gpr(a)), Src::reg(Reg::gpr(b))],
        )
    }

    fn order_of(instrs: Vec<Instr>) -> Vec<Instr> {
        let mut b = Block { instrs };
        reorder_block(&mut b);
        b.instrs
    }

    #[test]
    fn a_later_independent_load_issues_before_arithmetic() {
        let code = vec![add(10, 11, 12), add(13, 10, 10), ldg(20, 2)];
        let out = order_of(code.clone());
        assert_eq!(out[0], code[2]);
        assert_eq!(&out[1..], &code[..2]);
    }

    #[test]
    fn a_load_never_passes_a_store_nor_its_address_writer() {
        let code = vec![add(2, 4, 5), stg(6, 8), ldg(20, 2)];
        assert_eq!(order_of(code.clone()), code);
    }

    #[test]
    fn a_write_waits_for_earlier_reads_of_its_register() {
        // R11 is read by the first add and rewritten by the second: the second stays after.
        let code = vec![add(10, 11, 12), add(11, 13, 13), ldg(20, 2)];
        let out = order_of(code.clone());
        let pos = |i: &Instr| out.iter().position(|o| o == i).unwrap();
        assert!(pos(&code[0]) < pos(&code[1]));
    }

    #[test]
    fn nothing_crosses_a_fixed_instruction() {
        let bar = Instr::new(Opcode::BarSync { id: 0 }, &[], &[]);
        let code = vec![add(10, 11, 12), bar, ldg(20, 2)];
        assert_eq!(order_of(code.clone()), code);
    }
}
