//! Volta's quad-pair `mma.sync.aligned.m8n8k4.{row,col}.{row,col}.dtype.f16.f16.ctype` (f32 or
//! f16 D and C; f16 D with f32 C is not a PTX form). On sm_75 the hardware has it: HMMA.884 in
//! steps, as ptxas writes it (four steps of two accumulator registers with an f32 D, two with an
//! f16 D; an f16 C group feeds the two steps of its half). From sm_80 on there is no HMMA.884:
//! ptxas calls a subroutine of shuffles and FFMAs; here the same arithmetic is inline. Each lane
//! gathers the A and B elements its outputs need from its quad pair with SHFL.IDX, widens them
//! with HADD2.F32, and sums `a0 b0 + a1 b1 + a2 b2 + a3 b3` with an FFMA chain from zero before
//! adding C with FADD, as ptxas's subroutine does (an f16 D is then packed by F2FP.PACK_AB).
//!
//! Fragment layouts (PTX ISA, m8n8k4 with .f16; `interp/src/mma_volta.rs` has the same): quad
//! pair q is lanes 4q..4q+3 and 4q+16..4q+19, `hi` = 4 for lanes 16 and up, `t = lane % 4`:
//! A row-major: row `t + hi`, column `i`; A column-major: row `i + hi`, column `t`;
//! B row-major: row `t`, column `i + hi`; B column-major: row `i`, column `t + hi`;
//! f16 C/D: row `t + hi`, column `i`; f32 C/D: row `(lane & 1) + (i & 2) + hi`, column
//! `(i & 4) + (lane & 2) + (i & 1)`.
//! So an element's owner lane is always `(lane & mask) + k` for a mask and constant of its own,
//! its register and half either constants or one bit of the lane.

use std::collections::HashMap;

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;
use ptxforge_sass::matrix_move::MatrixOp;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// Whether `i` is the quad-pair m8n8k4 form with f16 inputs.
pub fn is_volta_form(i: &Instruction) -> bool {
    i.opcode() == "mma"
        && i.has_mod("m8n8k4")
        && i.mods().iter().filter(|m| m.as_str() == "f16").count() >= 2
}

/// The form: layouts of A and B (column-major?), f32 D and C?
#[derive(Copy, Clone)]
struct Form {
    a_col: bool,
    b_col: bool,
    f32_d: bool,
    f32_c: bool,
}

fn form(i: &Instruction) -> Option<Form> {
    let mods = i.mods();
    let known = mods.iter().all(|m| {
        matches!(
            m.as_str(),
            "sync" | "aligned" | "m8n8k4" | "row" | "col" | "f16" | "f32"
        )
    });
    let layouts: Vec<bool> = mods
        .iter()
        .filter_map(|m| match m.as_str() {
            "row" => Some(false),
            "col" => Some(true),
            _ => None,
        })
        .collect();
    let types: Vec<&str> = mods
        .iter()
        .map(|m| m.as_str())
        .filter(|m| matches!(*m, "f16" | "f32"))
        .collect();
    let (&[a_col, b_col], &[d, "f16", "f16", c]) = (&layouts[..], &types[..]) else {
        return None;
    };
    let (f32_d, f32_c) = (d == "f32", c == "f32");
    (known && (f32_d || !f32_c)).then_some(Form {
        a_col,
        b_col,
        f32_d,
        f32_c,
    })
}

/// Which register of the owner's fragment: a constant, or `base + 1` where the lane has `bit`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Pick {
    Const(u8),
    Bit { base: u8, bit: u32 },
}

/// Where an element lives: owner lane `(lane & mask) + add`, its register, and its half.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct Place {
    mask: u32,
    add: u32,
    reg: Pick,
    half: Pick,
}

/// The fragments' registers and what has been gathered so far.
struct Gather {
    lane: Src,
    frags: [Src; 3],
    owners: HashMap<(u32, u32), Src>,
    shuffled: HashMap<(usize, u8, u32, u32), Src>,
    bits: HashMap<u32, Src>,
    values: HashMap<(usize, Place), Src>,
}

impl Ctx<'_> {
    /// `mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype d, a, b, c`.
    pub fn lower_mma_volta(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || format!("'mma.{}' is not supported yet", i.mods().join("."));
        let f = form(i).ok_or_else(unsupported)?;
        let ops = operands_exactly(i, 4)?;
        let a = self.fragment_in(&ops[1], 2)?;
        let b = self.fragment_in(&ops[2], 2)?;
        let c = self.fragment_in(&ops[3], if f.f32_c { 8 } else { 4 })?;
        let out = if self.sm.num == 75 {
            self.volta_native(f, a, b, c)
        } else {
            self.volta_emulated(f, a, b, c)
        };
        let elems = Self::fragment_elems(&ops[0]);
        if elems.len() != out.len() {
            return Err(unsupported());
        }
        for (e, v) in elems.iter().zip(out) {
            if *e != ptxforge_ptx::ast::Operand::Sink {
                let d = self.dst(e)?;
                self.emit(Opcode::Mov, &[Dst::Reg(d)], &[v]);
            }
        }
        Ok(())
    }

    /// HMMA.884 steps (sm_75); returns D's registers.
    fn volta_native(&mut self, f: Form, a: Src, b: Src, c: Src) -> Vec<Src> {
        let steps = if f.f32_d { 4 } else { 2 };
        let slice = |s: Src, first: u8| match s.as_reg() {
            Some(r) => Src::reg(Reg {
                comps: 2,
                comp: r.comp + first,
                ..r
            }),
            None => s,
        };
        let mut out = Vec::new();
        for step in 0..steps {
            let c_first = match (f.f32_d, f.f32_c) {
                (true, false) => 2 * (step / 2),
                _ => 2 * step,
            };
            let d = self.f.new_vreg(RegFile::Gpr, 2);
            let op = MatrixOp::Hmma884 {
                step,
                a_col: f.a_col,
                b_col: f.b_col,
                f32_d: f.f32_d,
                f32_c: f.f32_c,
            };
            self.emit(
                Opcode::Matrix(op),
                &[Dst::Reg(d)],
                &[a, b, slice(c, c_first)],
            );
            out.extend([Src::reg(d.part(0)), Src::reg(d.part(1))]);
        }
        out
    }

    /// The inline shuffle-and-FFMA product (sm_80 on); returns D's registers.
    fn volta_emulated(&mut self, f: Form, a: Src, b: Src, c: Src) -> Vec<Src> {
        let lane = self.temp();
        self.emit(Opcode::S2r(SpecialReg::LaneId), &[Dst::Reg(lane)], &[]);
        let mut g = Gather {
            lane: Src::reg(lane),
            frags: [a, b, c],
            owners: HashMap::new(),
            shuffled: HashMap::new(),
            bits: HashMap::new(),
            values: HashMap::new(),
        };
        let mut sums = Vec::new();
        for i in 0..8u32 {
            let mut s = Src::ZERO;
            for k in 0..4u32 {
                let x = self.volta_value(&mut g, 0, a_place(f, i, k));
                let y = self.volta_value(&mut g, 1, b_place(f, i, k));
                let t = self.temp();
                self.emit(Opcode::Ffma { ftz: false }, &[Dst::Reg(t)], &[x, y, s]);
                s = Src::reg(t);
            }
            let cv = self.volta_value(&mut g, 2, c_place(f, i));
            let t = self.temp();
            let add = Opcode::Fadd {
                ftz: false,
                rnd: Round::Rn,
            };
            self.emit(add, &[Dst::Reg(t)], &[s, cv]);
            sums.push(Src::reg(t));
        }
        if f.f32_d {
            return sums;
        }
        sums.chunks(2)
            .map(|p| {
                let t = self.temp();
                let pack = Opcode::F2fp {
                    bf16: false,
                    rnd: Round::Rn,
                    relu: false,
                };
                self.emit(pack, &[Dst::Reg(t)], &[p[1], p[0]]);
                Src::reg(t)
            })
            .collect()
    }

    /// The f32 value of an element of fragment `frag` (0 A, 1 B, 2 C) at `p`.
    fn volta_value(&mut self, g: &mut Gather, frag: usize, p: Place) -> Src {
        if let Some(v) = g.values.get(&(frag, p)) {
            return *v;
        }
        let word = match p.reg {
            Pick::Const(r) => self.volta_word(g, frag, r, p),
            Pick::Bit { base, bit } => {
                let w0 = self.volta_word(g, frag, base, p);
                let w1 = self.volta_word(g, frag, base + 1, p);
                let has = self.volta_bit(g, bit);
                self.volta_select(w1, w0, has)
            }
        };
        // Const(2) marks an f32 element (a whole register).
        let v = if p.half == Pick::Const(2) || word == Src::ZERO {
            word
        } else {
            match p.half {
                Pick::Const(h) => self.widen_half(word, h),
                Pick::Bit { bit, .. } => {
                    let lo = self.widen_half(word, 0);
                    let hi = self.widen_half(word, 1);
                    let has = self.volta_bit(g, bit);
                    self.volta_select(hi, lo, has)
                }
            }
        };
        g.values.insert((frag, p), v);
        v
    }

    /// Register `r` of the owner's fragment `frag`, shuffled in (the lane's own when it is it).
    fn volta_word(&mut self, g: &mut Gather, frag: usize, r: u8, p: Place) -> Src {
        let own = match g.frags[frag].as_reg() {
            Some(group) => Src::reg(group.part(r)),
            None => return Src::ZERO,
        };
        if p.mask == 0x1f && p.add == 0 {
            return own;
        }
        if let Some(v) = g.shuffled.get(&(frag, r, p.mask, p.add)) {
            return *v;
        }
        let owner = match g.owners.get(&(p.mask, p.add)) {
            Some(o) => *o,
            None => {
                let m = self.temp();
                let lut = Opcode::Lop3 { lut: 0xc0 };
                self.emit(
                    lut,
                    &[Dst::Reg(m), Dst::None],
                    &[g.lane, Src::imm(p.mask), Src::ZERO, Src::FALSE],
                );
                let o = self.temp();
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(o), Dst::None],
                    &[Src::reg(m), Src::imm(p.add), Src::ZERO],
                );
                g.owners.insert((p.mask, p.add), Src::reg(o));
                Src::reg(o)
            }
        };
        let t = self.temp();
        self.emit(
            Opcode::Warp(WarpOp::Shfl(ShflMode::Idx)),
            &[Dst::Reg(t), Dst::None],
            &[own, owner, Src::imm(0x1f), Src::NONE, Src::imm(u32::MAX)],
        );
        g.shuffled.insert((frag, r, p.mask, p.add), Src::reg(t));
        Src::reg(t)
    }

    /// A predicate: the lane has `bit`.
    fn volta_bit(&mut self, g: &mut Gather, bit: u32) -> Src {
        if let Some(p) = g.bits.get(&bit) {
            return *p;
        }
        let m = self.temp();
        let lut = Opcode::Lop3 { lut: 0xc0 };
        self.emit(
            lut,
            &[Dst::Reg(m), Dst::None],
            &[g.lane, Src::imm(bit), Src::ZERO, Src::FALSE],
        );
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp: IntCmp::Ne,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(
            op,
            &[Dst::Reg(p), Dst::None],
            &[Src::reg(m), Src::ZERO, Src::TRUE],
        );
        g.bits.insert(bit, Src::reg(p));
        Src::reg(p)
    }

    fn volta_select(&mut self, if_set: Src, if_clear: Src, p: Src) -> Src {
        let t = self.temp();
        self.emit(Opcode::Sel, &[Dst::Reg(t)], &[if_set, if_clear, p]);
        Src::reg(t)
    }

    /// Half `h` of `word` as an f32 (HADD2.F32 d, -RZ, word.H0_H0 / .H1_H1).
    fn widen_half(&mut self, word: Src, h: u8) -> Src {
        let z = if h == 0 {
            HalfSwizzle::H0H0
        } else {
            HalfSwizzle::H1H1
        };
        let t = self.temp();
        self.emit(
            Opcode::Half2 {
                op: HalfOp::Add,
                bf16: false,
                ftz: false,
                sat: false,
                relu: false,
                f32_out: true,
                swz: [z, z, z],
            },
            &[Dst::Reg(t)],
            &[word, Src::ZERO.negated()],
        );
        Src::reg(t)
    }
}

/// Where the thread's output element `i` lies: (row, column) as (constant part, lane bits).
/// f32 D: row `(lane & 1) + (i & 2) + hi`, column `(i & 4) + (lane & 2) + (i & 1)`;
/// f16 D: row `t + hi`, column `i`.
fn quad_of_column(i: u32, f32_d: bool) -> u32 {
    let n_high = if f32_d { i & 4 != 0 } else { i >= 4 };
    16 * n_high as u32
}

/// A[row(i)][k].
fn a_place(f: Form, i: u32, k: u32) -> Place {
    match (f.a_col, f.f32_d) {
        // Row-major: the row's owner holds columns 0..3 in registers 0, 1.
        (false, true) => Place {
            mask: 0x1d,
            add: i & 2,
            reg: Pick::Const((k / 2) as u8),
            half: Pick::Const((k % 2) as u8),
        },
        (false, false) => Place {
            mask: 0x1f,
            add: 0,
            reg: Pick::Const((k / 2) as u8),
            half: Pick::Const((k % 2) as u8),
        },
        // Column-major: column k's owner (in the row's quad) holds rows 0..3 (+4).
        (true, true) => Place {
            mask: 0x1c,
            add: k,
            reg: Pick::Const(((i & 2) / 2) as u8),
            half: Pick::Bit { base: 0, bit: 1 },
        },
        (true, false) => Place {
            mask: 0x1c,
            add: k,
            reg: Pick::Bit { base: 0, bit: 2 },
            half: Pick::Bit { base: 0, bit: 1 },
        },
    }
}

/// B[k][column(i)].
fn b_place(f: Form, i: u32, k: u32) -> Place {
    let q = quad_of_column(i, f.f32_d);
    match (f.b_col, f.f32_d) {
        // Row-major: row k's owner (in the column's quad) holds columns 0..3 (+4).
        (false, true) => Place {
            mask: 0xc,
            add: q + k,
            reg: Pick::Bit { base: 0, bit: 2 },
            half: Pick::Const((i & 1) as u8),
        },
        (false, false) => Place {
            mask: 0xc,
            add: q + k,
            reg: Pick::Const(((i % 4) / 2) as u8),
            half: Pick::Const((i % 2) as u8),
        },
        // Column-major: the column's owner holds rows 0..3.
        (true, true) => Place {
            mask: 0xe,
            add: q + (i & 1),
            reg: Pick::Const((k / 2) as u8),
            half: Pick::Const((k % 2) as u8),
        },
        (true, false) => Place {
            mask: 0xc,
            add: q + i % 4,
            reg: Pick::Const((k / 2) as u8),
            half: Pick::Const((k % 2) as u8),
        },
    }
}

/// C's element at output element `i`'s position (`half` Const(2) marks an f32 element).
fn c_place(f: Form, i: u32) -> Place {
    match (f.f32_d, f.f32_c) {
        (true, true) => Place {
            mask: 0x1f,
            add: 0,
            reg: Pick::Const(i as u8),
            half: Pick::Const(2),
        },
        (false, _) => Place {
            mask: 0x1f,
            add: 0,
            reg: Pick::Const((i / 2) as u8),
            half: Pick::Const((i % 2) as u8),
        },
        // f16 C under an f32 D: C[row][col] is held by the row's owner, column col in register
        // col / 2 = 2 (i / 4) + (lane & 2) / 2, half i & 1.
        (true, false) => Place {
            mask: 0x1d,
            add: i & 2,
            reg: Pick::Bit {
                base: (2 * (i / 4)) as u8,
                bit: 2,
            },
            half: Pick::Const((i & 1) as u8),
        },
    }
}
