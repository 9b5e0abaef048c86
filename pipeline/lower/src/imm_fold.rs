//! Immediate-operand folding: a register set once by `MOV r, imm` (or `MOV r, RZ`) is read as the
//! immediate in the operand slot that takes one, as ptxas does (`FFMA R3, R3, 2, R4` instead of
//! `MOV R5, 0x40000000` + `FFMA R3, R3, R5, R4`); a zero is read as RZ in any ALU source slot; a
//! copy of a constant becomes a move of the constant. The MOVs left unread go to dead-code
//! elimination.

use std::collections::HashMap;

use ptxforge_sass::ir::*;

/// A constant a register part holds for its whole life.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Known {
    Zero,
    Imm(u32),
}

/// Folds single-definition constant registers into immediate and RZ operand slots.
pub fn fold_immediates(f: &mut Function) {
    let consts = constant_moves(f);
    if consts.is_empty() {
        return;
    }
    let known = |s: &Src| -> Option<Known> {
        let r = s.as_reg()?;
        if r.comps != 1 || r.file != RegFile::Gpr {
            return None;
        }
        consts.get(&(r.idx, r.comp)).copied()
    };
    for b in &mut f.blocks {
        for i in &mut b.instrs {
            fold_one(i, &known);
        }
    }
}

/// `(vreg, part) -> constant` for GPR parts written exactly once, by an unguarded MOV of an
/// immediate or RZ.
fn constant_moves(f: &Function) -> HashMap<(u32, u8), Known> {
    let mut writes: HashMap<(u32, u8), u32> = HashMap::new();
    for i in f.instrs() {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                for c in r.comp..r.comp + r.comps {
                    *writes.entry((r.idx, c)).or_default() += 1;
                }
            }
        });
    }
    let mut consts = HashMap::new();
    for i in f.instrs() {
        let Opcode::Mov = i.op else { continue };
        let Dst::Reg(d) = i.dsts[0] else { continue };
        let s = i.srcs[0];
        let value = match s.val {
            SrcVal::Zero if !s.neg && !s.abs => Known::Zero,
            SrcVal::Imm(0) if !s.neg && !s.abs => Known::Zero,
            SrcVal::Imm(v) if !s.neg && !s.abs => Known::Imm(v),
            _ => continue,
        };
        if i.guard == Src::TRUE
            && d.file == RegFile::Gpr
            && d.comps == 1
            && writes.get(&(d.idx, d.comp)) == Some(&1)
        {
            consts.insert((d.idx, d.comp), value);
        }
    }
    consts
}

/// How an opcode's sources A (0), B (1), C (2) may hold constants.
struct Slots {
    /// Sources that are plain GPRs (RZ allowed in each).
    gprs: &'static [usize],
    /// Whether B (or C, for three-source forms, when B is a register) takes a 32-bit immediate.
    three_source: bool,
    /// C takes the immediate when B is a register (checked with nvdisasm and ptxas: IADD3, IMAD,
    /// FFMA).
    c_imm: bool,
    /// B takes a 32-bit immediate (FADD's immediate is a different form, not taken here).
    b_imm: bool,
    /// A and B may be swapped.
    commutative: bool,
    /// Float operands: neg/abs on an immediate are folded into its sign bit.
    float: bool,
}

fn slots(op: &Opcode) -> Option<Slots> {
    let s = |gprs, three_source, commutative, float| {
        Some(Slots {
            gprs,
            three_source,
            c_imm: matches!(
                op,
                Opcode::Iadd3 { .. } | Opcode::Imad { .. } | Opcode::Ffma { .. }
            ),
            b_imm: !matches!(op, Opcode::Fadd { .. }),
            commutative,
            float,
        })
    };
    match op {
        Opcode::Iadd3 { .. } => s(&[0, 1, 2], true, true, false),
        Opcode::Imad {
            mode: ImadMode::Lo | ImadMode::Hi,
            ..
        } => s(&[0, 1, 2], true, true, false),
        Opcode::Imad {
            mode: ImadMode::Wide,
            ..
        } => s(&[0, 1], false, true, false),
        Opcode::Ffma { .. } => s(&[0, 1, 2], true, true, true),
        Opcode::Fmul { .. } => s(&[0, 1], false, true, true),
        Opcode::Fadd { .. } => s(&[0, 1], false, true, true),
        Opcode::Fmnmx { .. } => s(&[0, 1], false, true, true),
        Opcode::Fsetp { .. } => s(&[0, 1], false, false, true),
        Opcode::Isetp { .. } => s(&[0, 1], false, false, false),
        Opcode::Imnmx { .. } => s(&[0, 1], false, true, false),
        Opcode::Sel => s(&[0, 1], false, false, false),
        Opcode::Lop3 { .. } => s(&[0, 1, 2], true, false, false),
        Opcode::Shf { .. } => s(&[0, 1, 2], true, false, false),
        Opcode::Prmt { .. } => s(&[0, 1, 2], true, false, false),
        Opcode::Vabsdiff { .. } => s(&[0, 1, 2], true, false, false),
        _ => None,
    }
}

fn is_plain(s: &Src) -> bool {
    matches!(s.val, SrcVal::Reg(_) | SrcVal::Zero)
}

fn fold_one(i: &mut Instr, known: &impl Fn(&Src) -> Option<Known>) {
    if i.op == Opcode::Mov {
        if let Some(k) = known(&i.srcs[0]).filter(|_| !i.srcs[0].neg && !i.srcs[0].abs) {
            i.srcs[0] = match k {
                Known::Zero => Src::ZERO,
                Known::Imm(v) => Src::imm(v),
            };
        }
        return;
    }
    let Some(sl) = slots(&i.op) else { return };
    // Zeros: RZ in any register slot, with the operand's modifiers kept as they are.
    for &n in sl.gprs {
        if known(&i.srcs[n]) == Some(Known::Zero) {
            i.srcs[n].val = SrcVal::Zero;
        }
    }
    let takes_imm = |s: &Src| matches!(known(s), Some(Known::Imm(_)));
    // One constant slot per instruction: IMAD.WIDE's C (a pair) may already be the constant bank.
    let c_is_operand = sl.three_source
        || matches!(
            i.op,
            Opcode::Imad {
                mode: ImadMode::Wide,
                ..
            }
        );
    let c_plain = !c_is_operand || is_plain(&i.srcs[2]);
    if !sl.b_imm {
        return;
    }
    if takes_imm(&i.srcs[1]) && c_plain && is_plain(&i.srcs[0]) {
        fold_into(i, 1, &sl, known);
    } else if sl.commutative
        && takes_imm(&i.srcs[0])
        && is_plain(&i.srcs[1])
        && c_plain
        && swap_allowed(i, &sl)
    {
        i.srcs.swap(0, 1);
        fold_into(i, 1, &sl, known);
    } else if sl.three_source
        && sl.c_imm
        && takes_imm(&i.srcs[2])
        && is_plain(&i.srcs[0])
        && is_plain(&i.srcs[1])
    {
        fold_into(i, 2, &sl, known);
    }
}

/// Float operands carry their neg/abs with them through a swap (both slots encode them); integer
/// operands are swapped only without modifiers.
fn swap_allowed(i: &Instr, sl: &Slots) -> bool {
    sl.float || (!i.srcs[0].neg && !i.srcs[1].neg && !i.srcs[0].abs && !i.srcs[1].abs)
}

/// Puts the constant of slot `n` there as an immediate, folding modifiers into its bits where
/// that is exact; leaves the register when it is not.
fn fold_into(i: &mut Instr, n: usize, sl: &Slots, known: &impl Fn(&Src) -> Option<Known>) {
    let Some(Known::Imm(mut v)) = known(&i.srcs[n]) else {
        return;
    };
    let s = i.srcs[n];
    if sl.float {
        if s.abs {
            v &= 0x7fff_ffff;
        }
        if s.neg {
            v ^= 0x8000_0000;
        }
        // Only the short constants this pass was checked on (see `simple_f32_immediate`).
        if !simple_f32_immediate(v) {
            return;
        }
    } else if s.abs {
        return;
    } else if s.neg {
        // Only IADD3 negates integer operands; with a carry in or out, `-R` is not `0 - R`.
        let plain_add = matches!(i.op, Opcode::Iadd3 { x: false }) && i.dsts[1] == Dst::None;
        if !plain_add {
            return;
        }
        v = v.wrapping_neg();
    }
    i.srcs[n] = Src::imm(v);
}

/// A non-zero f32 that is a multiple of 1/16 below 2^20 in magnitude (`2`, `-0.5`, `1.5`): the
/// float constants this pass folds into immediates; others stay in registers (not yet measured).
fn simple_f32_immediate(bits: u32) -> bool {
    let x = f32::from_bits(bits) as f64;
    x != 0.0 && x.is_finite() && x.abs() < 1048576.0 && (x * 16.0).fract() == 0.0
}
