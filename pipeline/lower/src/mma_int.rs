//! Integer, single-bit and f64 `mma.sync.aligned` to IMMA, BMMA and DMMA, on the fragment groups
//! of `mma.rs` (`fragment_in`/`fragment_out`).
//!
//! Forms (ptxas 13.5): s8/u8 m8n8k16, m16n8k16, m16n8k32 and s4/u4 m8n8k32, m16n8k32, m16n8k64
//! with or without `.satfinite` (sm_75: the m8n8 shapes; sm_90 has no 4-bit IMMA: `mma_int4.rs`
//! widens those to two 8-bit ones); b1 `.xor.popc`/`.and.popc` m8n8k128, m16n8k128,
//! m16n8k256 (sm_75: m8n8k128 `.xor` only; sm_90 has no `.xor`, which is written as ptxas does:
//! popc(A & ~B) + popc(~A & B) + C, two `.and` BMMAs); f64 m8n8k4 (sm_80+) and m16n8k4/8/16
//! (sm_90). Also `cvt.pack.sat.{s8,u8}.s32.b32` (I2IP), the int8 GEMM epilogue's packing.

use ptxforge_ptx::ast::{Instruction, Name};
use ptxforge_sass::imma::{BmmaShape, DmmaShape, ImmaShape, IntElem};
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// The families this file lowers.
enum Form {
    Imma {
        shape: ImmaShape,
        a: IntElem,
        b: IntElem,
        sat: bool,
    },
    Bmma {
        shape: BmmaShape,
        and: bool,
    },
    Dmma {
        shape: DmmaShape,
    },
}

/// Whether `i` is an integer, b1 or f64 `mma` (the others go to `lower_mma`).
pub fn is_int_form(i: &Instruction) -> bool {
    let types: Vec<&str> = i.mods().iter().map(|m| m.as_str()).collect();
    types
        .iter()
        .any(|t| matches!(*t, "s8" | "u8" | "s4" | "u4" | "b1" | "f64"))
}

/// The modifiers every supported form may carry besides its shape, types and b1 operation.
fn plain(m: &str) -> bool {
    matches!(m, "sync" | "aligned" | "row" | "col" | "satfinite")
}

fn form(i: &Instruction) -> Option<Form> {
    let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
    if !i.has_mod("row") || !i.has_mod("col") || !i.has_mod("sync") || !i.has_mod("aligned") {
        return None;
    }
    let shape = *mods
        .iter()
        .find(|m| m.starts_with('m') && m.contains('k'))?;
    let types: Vec<&str> = mods
        .iter()
        .copied()
        .filter(|m| matches!(*m, "s8" | "u8" | "s4" | "u4" | "b1" | "f64" | "s32"))
        .collect();
    let known = |extra: &[&str]| {
        mods.iter()
            .all(|m| plain(m) || *m == shape || types.contains(m) || extra.contains(m))
    };
    match types[..] {
        ["s32", a, b, "s32"] if a == "b1" && b == "b1" => {
            let and = i.has_mod("and");
            let op_ok = i.has_mod("popc") && (and != i.has_mod("xor"));
            (op_ok && known(&["and", "xor", "popc"]) && !i.has_mod("satfinite")).then_some(())?;
            Some(Form::Bmma {
                shape: BmmaShape::from_ptx(shape)?,
                and,
            })
        }
        ["s32", a, b, "s32"] => {
            known(&[]).then_some(())?;
            Some(Form::Imma {
                shape: ImmaShape::from_ptx(shape)?,
                a: IntElem::from_ptx(a)?,
                b: IntElem::from_ptx(b)?,
                sat: i.has_mod("satfinite"),
            })
        }
        ["f64", "f64", "f64", "f64"] => {
            (known(&["rn"]) && !i.has_mod("satfinite")).then_some(())?;
            Some(Form::Dmma {
                shape: DmmaShape::from_ptx(shape)?,
            })
        }
        _ => None,
    }
}

/// The machine op of a form this file lowers on `sm` and its fragments' register counts (A, B,
/// C/D), `None` where the form or architecture is not supported.
struct Plan {
    op: Opcode,
    regs: [u8; 3],
}

fn plan(i: &Instruction, sm: u32) -> Option<Plan> {
    let (op, (m, k), bits) = match form(i)? {
        Form::Imma { shape, a, b, sat } => {
            let int4_on_90 = sm >= 90 && shape.takes(a, b, 89);
            if !shape.takes(a, b, sm) && !int4_on_90 {
                return None;
            }
            let op = Opcode::Imma {
                shape,
                a,
                b,
                sat,
                scoreboarded: sm < 80,
            };
            (op, dims(shape.ptx()), if a.four_bit() { 4 } else { 8 })
        }
        Form::Bmma { shape, and } => {
            if !shape.exists_on(sm, and) && !(sm >= 90 && !and) {
                return None;
            }
            let op = Opcode::Bmma {
                shape,
                and,
                scoreboarded: sm < 80,
            };
            (op, dims(shape.ptx()), 1)
        }
        Form::Dmma { shape } => {
            if sm < shape.min_sm() {
                return None;
            }
            (Opcode::Dmma { shape }, dims(shape.ptx()), 64)
        }
    };
    let acc = regs(m * 8, if bits == 64 { 64 } else { 32 });
    Some(Plan {
        op,
        regs: [regs(m * k, bits), regs(k * 8, bits), acc],
    })
}

/// The register counts of `i`'s D, A, B and C fragments where this file lowers it (for
/// `mma.rs`'s fragment binding).
pub fn fragment_sizes(i: &Instruction, sm: u32) -> Option<[u8; 4]> {
    let [a, b, acc] = plan(i, sm)?.regs;
    Some([acc, a, b, acc])
}

/// Registers per lane of a fragment of `elems` elements of `bits` bits over the warp.
fn regs(elems: usize, bits: usize) -> u8 {
    (elems * bits / (32 * 32)) as u8
}

impl Ctx<'_> {
    /// `mma.sync.aligned.shape.row.col[.satfinite].s32.atype.btype.s32[.satfinite]`, the b1
    /// `.xor.popc`/`.and.popc` forms and the f64 forms.
    pub fn lower_mma_int(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || format!("'mma.{}' is not supported yet", i.mods().join("."));
        let sm = self.sm.num;
        let Plan {
            op,
            regs: [na, nb, acc],
        } = plan(i, sm).ok_or_else(unsupported)?;
        let ops = operands_exactly(i, 4)?;
        let a = self.fragment_in(&ops[1], na)?;
        let b = self.fragment_in(&ops[2], nb)?;
        let c = self.fragment_in(&ops[3], acc)?;
        // D in place where its registers are bound to a group (`mma.rs`'s bind_fragments).
        let bound = self.bound_fragment(&ops[0], acc);
        let d = bound.unwrap_or_else(|| self.f.new_vreg(RegFile::Gpr, acc));
        match op {
            Opcode::Imma {
                shape,
                a: a_e,
                b: b_e,
                sat,
                ..
            } if !shape.takes(a_e, b_e, sm) => {
                self.imma_int4(shape, (a_e, b_e), sat, [a, b, c], (na, nb, acc), d)
                    .ok_or_else(unsupported)?;
            }
            Opcode::Bmma {
                shape,
                and: false,
                scoreboarded,
            } if !shape.exists_on(sm, false) => {
                self.xor_popc_as_and(shape, scoreboarded, [a, b, c], d, acc)
            }
            _ => self.emit(op, &[Dst::Reg(d)], &[a, b, c]),
        }
        if bound.is_some() {
            return Ok(());
        }
        self.fragment_out(&ops[0], d)
    }

    /// sm_90's b1 `.xor.popc`: D = C + popc(A & ~B) + popc(~A & B), as ptxas writes it.
    fn xor_popc_as_and(
        &mut self,
        shape: BmmaShape,
        scoreboarded: bool,
        [a, b, c]: [Src; 3],
        d: Reg,
        acc: u8,
    ) {
        let and = Opcode::Bmma {
            shape,
            and: true,
            scoreboarded,
        };
        let not_b = self.complement(b, regs(dims(shape.ptx()).1 * 8, 1));
        let not_a = self.complement(a, regs(dims(shape.ptx()).0 * dims(shape.ptx()).1, 1));
        let p = self.f.new_vreg(RegFile::Gpr, acc);
        let q = self.f.new_vreg(RegFile::Gpr, acc);
        self.emit(and, &[Dst::Reg(p)], &[a, not_b, Src::ZERO]);
        self.emit(and, &[Dst::Reg(q)], &[not_a, b, Src::ZERO]);
        for j in 0..acc {
            let cj = match c.as_reg() {
                Some(r) => Src::reg(r.part(j)),
                None => Src::ZERO,
            };
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d.part(j)), Dst::None],
                &[cj, Src::reg(p.part(j)), Src::reg(q.part(j))],
            );
        }
    }

    /// A new group of `n` registers holding the bitwise complement of a fragment group (of RZ:
    /// all ones).
    fn complement(&mut self, s: Src, n: u8) -> Src {
        let g = self.f.new_vreg(RegFile::Gpr, n);
        for j in 0..n {
            let part = s.as_reg().map_or(Src::ZERO, |r| Src::reg(r.part(j)));
            self.emit(
                Opcode::Lop3 { lut: 0x0f },
                &[Dst::Reg(g.part(j)), Dst::None],
                &[part, Src::ZERO, Src::ZERO, Src::FALSE],
            );
        }
        Src::reg(g)
    }
}

/// M and K of a PTX shape (`m16n8k32`).
fn dims(shape: &str) -> (usize, usize) {
    let rest = shape.trim_start_matches('m');
    let (m, rest) = rest.split_once('n').unwrap_or(("0", "0k0"));
    let k = rest.split_once('k').map_or("0", |x| x.1);
    (m.parse().unwrap_or(0), k.parse().unwrap_or(0))
}

impl Ctx<'_> {
    /// `cvt.pack.sat.{s8,u8}.s32.b32 d, a, b, c` as one I2IP (the other pack types: not yet).
    pub fn lower_cvt_pack(&mut self, i: &Instruction) -> LResult<()> {
        let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
        let signed = match mods[..] {
            ["pack", "sat", "s8", "s32", "b32"] => true,
            ["pack", "sat", "u8", "s32", "b32"] => false,
            _ => return Err(format!("'cvt.{}' is not supported yet", mods.join("."))),
        };
        let ops = operands_exactly(i, 4)?;
        let d = self.dst(&ops[0])?;
        let a = self.src32(&ops[1])?;
        let a = self.in_reg(a);
        let b = self.src32(&ops[2])?;
        let b = self.in_reg(b);
        let c = self.src32(&ops[3])?;
        let c = self.in_reg(c);
        self.emit(Opcode::I2ip { signed }, &[Dst::Reg(d)], &[a, b, c]);
        Ok(())
    }
}
