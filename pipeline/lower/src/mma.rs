//! Tensor-core `mma.sync.aligned` to `Opcode::Mma`: the PTX form read into an [`MmaOp`] (shape,
//! element types, accumulator) and each fragment operand (`{%r1, %r2, %r3, %r4}`) moved into one
//! fresh register group, the aligned consecutive registers the hardware reads and writes, as CAS's
//! `{compare, new}` group is. Fragments of 64-bit elements (f64) take a register pair per element.
//! Which forms run natively on which architecture is `MmaOp::is_native`; the others get
//! ptxas's "not supported yet".
//!
//! Before the body is lowered, [`Ctx::bind_fragments`] gives each fragment tuple of PTX registers
//! that only ever appear together, in that order (an `ldmatrix` result feeding `mma`, an
//! accumulator updated in place), one register group, and binds each register to its part: such
//! fragments then need no moves in or out, as ptxas's code has none.

use std::collections::HashMap;

use ptxforge_ptx::ast::{Instruction, Operand, Statement};
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// The layouts and qualifiers every supported form carries (A row-major, B column-major).
fn is_plain_modifier(m: &str) -> bool {
    matches!(m, "sync" | "aligned" | "row" | "col" | "satfinite")
}

/// `m16n8k16` as a shape.
fn parse_shape(m: &str) -> Option<MmaShape> {
    let rest = m.strip_prefix('m')?;
    let (m_, rest) = rest.split_once('n')?;
    let (n, k) = rest.split_once('k')?;
    Some(MmaShape {
        m: m_.parse().ok()?,
        n: n.parse().ok()?,
        k: k.parse().ok()?,
    })
}

/// The machine op of an `mma` instruction, `None` where the form is not one `MmaOp` describes
/// (other layouts, sparse forms, scale factors, D and C of different types).
pub fn mma_op(i: &Instruction, sm: ptxforge_sass::arch::Sm) -> Option<MmaOp> {
    let mods = i.mods();
    let shape = mods.iter().find_map(|m| parse_shape(m))?;
    let types: Vec<MmaElem> = mods.iter().filter_map(|m| MmaElem::parse(m)).collect();
    let rest_known = mods
        .iter()
        .all(|m| is_plain_modifier(m) || parse_shape(m).is_some() || MmaElem::parse(m).is_some());
    if !rest_known || !i.has_mod("row") || !i.has_mod("col") {
        return None;
    }
    let [d, a, b, c] = types[..] else {
        return None;
    };
    if d != c {
        return None;
    }
    Some(MmaOp {
        shape,
        a,
        b,
        acc: d,
        sat: i.has_mod("satfinite"),
        scoreboarded: MmaOp::scoreboarded_on(sm),
    })
}

/// The 32-bit registers of each fragment operand of `i` with its register count: an `mma` this
/// module lowers, or an `ldmatrix` destination.
fn fragment_operands(i: &Instruction, sm: ptxforge_sass::arch::Sm) -> Vec<(&Operand, u8)> {
    match i.opcode() {
        "mma" if crate::mma_sparse::is_sparse(i) => {
            match crate::mma_sparse::fragment_sizes(i, sm) {
                Some(n) => i.operands.iter().zip(n).collect(),
                None => Vec::new(),
            }
        }
        "mma" => match mma_op(i, sm)
            .filter(|op| op.is_native(sm) || crate::mma_fp8::is_emulated(op, sm))
        {
            Some(op) if i.operands.len() == 4 => i
                .operands
                .iter()
                .zip([op.acc_regs(), op.a_regs(), op.b_regs(), op.acc_regs()])
                .collect(),
            // The integer, b1 and f64 forms (`mma_int.rs`).
            _ if i.operands.len() == 4 && crate::mma_int::is_int_form(i) => {
                match crate::mma_int::fragment_sizes(i, sm.num) {
                    Some(n) => i.operands.iter().zip(n).collect(),
                    None => Vec::new(),
                }
            }
            _ => Vec::new(),
        },
        "wgmma" => crate::wgmma::wgmma_fragments(i),
        "ldmatrix" => {
            let count = [4, 2, 1]
                .into_iter()
                .find(|n| i.has_mod(&format!("x{n}")))
                .unwrap_or(1);
            i.operands.first().map(|o| (o, count)).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

impl Ctx<'_> {
    /// Binds the registers of fragment tuples to register groups (see the module's comment). A
    /// tuple that is an aligned slice of a longer one (the two B fragments of an `ldmatrix.x4`)
    /// lives in the longer one's group. A register met in tuples of two different groups, twice
    /// in one tuple, or of another width than 32 bits, keeps its own register and is moved.
    pub fn bind_fragments(&mut self) {
        let func = self.ptx_function();
        let mut tuples: Vec<Vec<&str>> = Vec::new();
        let mut poisoned: Vec<&str> = Vec::new();
        for s in &func.body {
            let Statement::Instr(i) = s else { continue };
            let fragments = fragment_operands(i, self.sm)
                .into_iter()
                .map(|(op, n)| (Self::fragment_elems(op), n))
                .chain(crate::wmma_mma::wmma_fragment_slices(i, self.sm.num));
            for (elems, n) in fragments {
                let names: Vec<&str> = elems
                    .iter()
                    .filter_map(|e| match e {
                        Operand::Reg(r) => Some(&**r),
                        _ => None,
                    })
                    .collect();
                let narrow = |r: &&str| self.reg_type(r).is_some_and(|t| t.size_bytes() == 4);
                let distinct = names
                    .iter()
                    .enumerate()
                    .all(|(k, r)| !names[..k].contains(r));
                let ok = n > 1
                    && names.len() == n as usize
                    && names.len() == elems.len()
                    && distinct
                    && names.iter().all(narrow);
                if !ok {
                    poisoned.extend(names);
                } else if !tuples.contains(&names) {
                    tuples.push(names);
                }
            }
        }
        // Each tuple's root: the longest tuple it is an aligned slice of (itself at least).
        let slice_of = |t: &[&str], u: &[&str]| {
            u.len().is_multiple_of(t.len()) && u.chunks(t.len()).any(|c| c == t)
        };
        let root: Vec<usize> = tuples
            .iter()
            .map(|t| {
                (0..tuples.len())
                    .filter(|&u| slice_of(t, &tuples[u]))
                    .max_by_key(|&u| (tuples[u].len(), std::cmp::Reverse(u)))
                    .unwrap_or(0)
            })
            .collect();
        // Each register's root, or None once it is met under two.
        let mut home: HashMap<&str, Option<usize>> = HashMap::new();
        for (k, t) in tuples.iter().enumerate() {
            for r in t {
                let h = home.entry(r).or_insert(Some(root[k]));
                if *h != Some(root[k]) {
                    *h = None;
                }
            }
        }
        for (k, t) in tuples.iter().enumerate() {
            let own_root = root[k] == k;
            let all_home = t
                .iter()
                .all(|r| home.get(r) == Some(&Some(k)) && !poisoned.contains(r));
            if !own_root || !all_home || t.iter().any(|r| self.bound_vreg(r).is_some()) {
                continue;
            }
            let group = self.f.new_vreg(RegFile::Gpr, t.len() as u8);
            for (p, r) in t.iter().enumerate() {
                self.bind_vreg(r, group.part(p as u8));
            }
        }
    }

    /// The registers of a group a fragment operand of `regs` registers is bound to, if it is
    /// one: the whole group or an aligned slice of it.
    pub fn bound_fragment(&self, op: &Operand, regs: u8) -> Option<Reg> {
        let elems = Self::fragment_elems(op);
        if regs < 2 || elems.len() != regs as usize {
            return None;
        }
        let Operand::Reg(first) = &elems[0] else {
            return None;
        };
        let base = self.bound_vreg(first)?;
        let comps = *self.f.vreg_comps.get(base.idx as usize)?;
        if base.comps != 1 || !base.comp.is_multiple_of(regs) || base.comp + regs > comps {
            return None;
        }
        for (k, e) in elems.iter().enumerate() {
            let Operand::Reg(name) = e else { return None };
            let r = self.bound_vreg(name)?;
            if r.idx != base.idx || r.comps != 1 || r.comp != base.comp + k as u8 {
                return None;
            }
        }
        Some(Reg {
            comps: regs,
            ..base
        })
    }

    /// `mma.sync.aligned.shape.row.col.dtype.atype.btype.ctype d, a, b, c`.
    pub fn lower_mma(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || format!("'mma.{}' is not supported yet", i.mods().join("."));
        let op = mma_op(i, self.sm).ok_or_else(unsupported)?;
        if crate::mma_fp8::is_emulated(&op, self.sm) {
            return self.lower_mma_fp8_as_hmma(i, op);
        }
        if !op.is_native(self.sm) {
            return Err(unsupported());
        }
        let ops = operands_exactly(i, 4)?;
        let a = self.fragment_in(&ops[1], op.a_regs())?;
        let b = self.fragment_in(&ops[2], op.b_regs())?;
        let c = self.fragment_in(&ops[3], op.acc_regs())?;
        if let Some(d) = self.bound_fragment(&ops[0], op.acc_regs()) {
            self.emit(Opcode::Mma(op), &[Dst::Reg(d)], &[a, b, c]);
            return Ok(());
        }
        let d = self.f.new_vreg(RegFile::Gpr, op.acc_regs());
        self.emit(Opcode::Mma(op), &[Dst::Reg(d)], &[a, b, c]);
        self.fragment_out(&ops[0], d)
    }

    /// The elements of a fragment operand (a vector, or one register for one-register fragments).
    pub(crate) fn fragment_elems(op: &Operand) -> &[Operand] {
        match op {
            Operand::Vector(v) => v,
            o => std::slice::from_ref(o),
        }
    }

    /// A fragment source moved into one fresh group of `regs` 32-bit registers (RZ for an
    /// all-zero accumulator, as ptxas reads it). Elements of 64-bit registers fill two registers.
    pub fn fragment_in(&mut self, op: &Operand, regs: u8) -> LResult<Src> {
        let elems = Self::fragment_elems(op);
        if elems.is_empty() || !(regs as usize).is_multiple_of(elems.len()) {
            return Err(format!(
                "mma fragment of {} elements, expected {regs}",
                elems.len()
            ));
        }
        let words = regs as usize / elems.len();
        let zero = |o: &Operand| matches!(o, Operand::Imm(0) | Operand::F32(0) | Operand::F64(0));
        if elems.iter().all(zero) {
            return Ok(Src::ZERO);
        }
        if let Some(group) = self.bound_fragment(op, regs) {
            return Ok(Src::reg(group));
        }
        let group = self.f.new_vreg(RegFile::Gpr, regs);
        for (k, e) in elems.iter().enumerate() {
            let halves = match words {
                1 => vec![self.src32(e)?],
                2 => {
                    let (lo, hi) = self.src64(e)?;
                    vec![lo, hi]
                }
                _ => return Err(format!("mma fragment of {} elements", elems.len())),
            };
            for (h, s) in halves.into_iter().enumerate() {
                let part = group.part((k * words + h) as u8);
                self.emit(Opcode::Mov, &[Dst::Reg(part)], &[s]);
            }
        }
        Ok(Src::reg(group))
    }

    /// A fragment destination: the result group's registers moved out to the operand's elements
    /// (sinks `_` skipped).
    pub fn fragment_out(&mut self, op: &Operand, group: Reg) -> LResult<()> {
        let elems = Self::fragment_elems(op);
        let regs = group.comps as usize;
        if elems.is_empty() || !regs.is_multiple_of(elems.len()) {
            return Err(format!(
                "mma fragment of {} elements, expected {regs}",
                elems.len()
            ));
        }
        let words = regs / elems.len();
        for (k, e) in elems.iter().enumerate() {
            if *e == Operand::Sink {
                continue;
            }
            let d = self.dst(e)?;
            if words == 2 && d.comps == 2 {
                for h in 0..2u8 {
                    let part = group.part(k as u8 * 2 + h);
                    self.emit(Opcode::Mov, &[Dst::Reg(d.part(h))], &[Src::reg(part)]);
                }
            } else if words == 1 && d.comps == 1 {
                let part = group.part(k as u8);
                self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(part)]);
            } else {
                return Err(format!("mma fragment element {e:?} has the wrong width"));
            }
        }
        Ok(())
    }
}
