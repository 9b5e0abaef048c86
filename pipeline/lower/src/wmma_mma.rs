//! `wmma.mma` as the `mma.sync` tiles ptxas runs it as: each tile an `mma` instruction over a
//! slice of the wmma fragments, lowered by `mma.rs` (HMMA) or `mma_int.rs` (IMMA, BMMA, DMMA).
//! The tiles, the fragment layouts they read (`ptxforge_ptx::isa::wmma_fragment`) and the
//! architectures are described in `wmma.rs`'s module documentation.

use ptxforge_ptx::ast::{Instruction, Name, Operand};
use ptxforge_ptx::isa::{wmma_fragment, WmmaMatrix};

use crate::ctx::{Ctx, LResult};

/// The element kinds of wmma's multiplicands.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    /// f16 or bf16.
    Half,
    Int8,
    Tf32,
    F64,
    Int4,
    B1,
}

/// One `mma` of a wmma: its shape, the registers of its A and B (indices into wmma's B and A
/// operands when `swap`), the accumulator slice it updates, and whether it starts from C (else
/// from its own D: the second k-step of a tile).
struct Tile {
    shape: &'static str,
    swap: bool,
    a: Vec<usize>,
    b: Vec<usize>,
    acc: usize,
    from_c: bool,
}

fn tile(shape: &'static str, a: &[usize], b: &[usize], acc: usize) -> Tile {
    Tile {
        shape,
        swap: false,
        a: a.to_vec(),
        b: b.to_vec(),
        acc,
        from_c: true,
    }
}

/// `tile` with wmma's B as its A and wmma's A as its B (m8n32k16 = m32n8k16 transposed).
fn swapped(shape: &'static str, b_regs: &[usize], a_regs: &[usize], acc: usize) -> Tile {
    Tile {
        swap: true,
        ..tile(shape, b_regs, a_regs, acc)
    }
}

/// The second k-step of a tile.
fn then(t: Tile) -> Tile {
    Tile { from_c: false, ..t }
}

/// The tiles of a wmma shape and kind on `sm`, `None` where there are none.
fn tiles(shape: &str, kind: Kind, sm: u32) -> Option<Vec<Tile>> {
    use Kind::*;
    let new = sm >= 80;
    Some(match (kind, shape) {
        (Half, "m16n16k16") if new => (0..2)
            .map(|j| tile("m16n8k16", &[0, 1, 2, 3], &[2 * j, 2 * j + 1], j))
            .collect(),
        (Half, "m32n8k16") if new => (0..2)
            .map(|i| {
                tile(
                    "m16n8k16",
                    &[4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3],
                    &[0, 1],
                    i,
                )
            })
            .collect(),
        (Half, "m8n32k16") if new => (0..2)
            .map(|j| {
                swapped(
                    "m16n8k16",
                    &[4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3],
                    &[0, 1],
                    j,
                )
            })
            .collect(),
        (Half, "m16n16k16") => (0..2)
            .flat_map(|j| {
                [
                    tile("m16n8k8", &[0, 1], &[2 * j], j),
                    then(tile("m16n8k8", &[2, 3], &[2 * j + 1], j)),
                ]
            })
            .collect(),
        (Half, "m32n8k16") => (0..2)
            .flat_map(|i| {
                [
                    tile("m16n8k8", &[4 * i, 4 * i + 1], &[0], i),
                    then(tile("m16n8k8", &[4 * i + 2, 4 * i + 3], &[1], i)),
                ]
            })
            .collect(),
        (Half, "m8n32k16") => (0..2)
            .flat_map(|j| {
                [
                    swapped("m16n8k8", &[4 * j, 4 * j + 1], &[0], j),
                    then(swapped("m16n8k8", &[4 * j + 2, 4 * j + 3], &[1], j)),
                ]
            })
            .collect(),
        (Int8, "m16n16k16") if new => (0..2).map(|j| tile("m16n8k16", &[0, 1], &[j], j)).collect(),
        (Int8, "m32n8k16") if new => (0..2)
            .map(|i| tile("m16n8k16", &[2 * i, 2 * i + 1], &[0], i))
            .collect(),
        (Int8, "m8n32k16") if new => (0..2)
            .map(|j| swapped("m16n8k16", &[2 * j, 2 * j + 1], &[0], j))
            .collect(),
        (Int8, "m16n16k16") => (0..4)
            .map(|x| tile("m8n8k16", &[x % 2], &[x / 2], x))
            .collect(),
        (Int8, "m32n8k16") => (0..4).map(|i| tile("m8n8k16", &[i], &[0], i)).collect(),
        (Int8, "m8n32k16") => (0..4).map(|j| tile("m8n8k16", &[0], &[j], j)).collect(),
        (Tf32, "m16n16k8") if new => (0..2)
            .map(|j| tile("m16n8k8", &[0, 1, 2, 3], &[2 * j, 2 * j + 1], j))
            .collect(),
        (F64, "m8n8k4") if new => vec![tile("m8n8k4", &[0], &[0], 0)],
        (Int4, "m8n8k32") => vec![tile("m8n8k32", &[0], &[0], 0)],
        (B1, "m8n8k128") => vec![tile("m8n8k128", &[0], &[0], 0)],
        _ => return None,
    })
}

fn kind_of(t: &str) -> Option<Kind> {
    Some(match t {
        "f16" | "bf16" => Kind::Half,
        "s8" | "u8" => Kind::Int8,
        "tf32" => Kind::Tf32,
        "f64" => Kind::F64,
        "s4" | "u4" => Kind::Int4,
        "b1" => Kind::B1,
        _ => return None,
    })
}

fn is_type(m: &str) -> bool {
    kind_of(m).is_some() || matches!(m, "f32" | "s32")
}

fn is_plain(m: &str) -> bool {
    matches!(
        m,
        "mma" | "sync" | "aligned" | "row" | "col" | "satfinite" | "rn" | "xor" | "and" | "popc"
    )
}

impl Ctx<'_> {
    /// `wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape{.rnd}.types{.satfinite} d, a, b, c`.
    pub(crate) fn lower_wmma_mma(&mut self, i: &Instruction) -> LResult<()> {
        let unsupported = || format!("'wmma.{}' is not supported yet", i.mods().join("."));
        let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
        let shape = *mods
            .iter()
            .find(|m| ptxforge_ptx::isa::wmma_dims(m).is_some())
            .ok_or_else(unsupported)?;
        let types: Vec<&str> = mods.iter().copied().filter(|m| is_type(m)).collect();
        let [d_t, a_t, b_t, c_t] = match types[..] {
            [d, c] => [d, "f16", "f16", c],
            [d, a, b, c] => [d, a, b, c],
            _ => return Err(unsupported()),
        };
        let kind = kind_of(a_t).ok_or_else(unsupported)?;
        let int = matches!(kind, Kind::Int8 | Kind::Int4 | Kind::B1);
        let known = mods
            .iter()
            .all(|m| is_plain(m) || *m == shape || is_type(m));
        let sat_ok = !i.has_mod("satfinite") || matches!(kind, Kind::Int8 | Kind::Int4);
        let rn_ok = !i.has_mod("rn") || kind == Kind::F64;
        let op_ok = (kind == Kind::B1) == i.has_mod("popc");
        // D and C may differ only as f16 and f32 (C is converted into D first).
        let mixed = d_t != c_t;
        let types_ok = !mixed || (kind == Kind::Half && a_t == "f16");
        if !known || !sat_ok || !rn_ok || !op_ok || !types_ok || kind_of(b_t) != Some(kind) {
            return Err(unsupported());
        }
        let sm = self.sm.num;
        let tiles = tiles(shape, kind, sm).ok_or_else(unsupported)?;
        let layout = |m, t| wmma_fragment(m, shape, t, sm).ok_or_else(unsupported);
        let (la, lb) = (layout(WmmaMatrix::A, a_t)?, layout(WmmaMatrix::B, b_t)?);
        let lc = layout(WmmaMatrix::C, c_t)?;
        let ops = crate::ctx::operands_exactly(i, 4)?;
        let elems: Vec<Vec<Operand>> = ops
            .iter()
            .map(|o| Self::fragment_elems(o).to_vec())
            .collect();
        let [d, a, b, c] = &elems[..] else {
            return Err(unsupported());
        };
        if a.len() != la.regs || b.len() != lb.regs || c.len() != lc.regs {
            return Err(format!(
                "wmma fragments of {}, {}, {} and {} elements, expected {}, {}, {} and {}",
                d.len(),
                a.len(),
                b.len(),
                c.len(),
                lc.regs,
                la.regs,
                lb.regs,
                lc.regs
            ));
        }
        // A later tile must not read a register an earlier one wrote.
        let reg = |o: &Operand| match o {
            Operand::Reg(r) => Some(r.clone()),
            _ => None,
        };
        let d_regs: Vec<Option<Name>> = d.iter().map(reg).collect();
        let clobbers = d_regs.iter().enumerate().any(|(p, r)| {
            r.is_some()
                && (a.iter().chain(b).any(|x| reg(x) == *r)
                    || c.iter().enumerate().any(|(q, x)| q != p && reg(x) == *r))
        });
        if clobbers || (tiles.iter().any(|t| !t.from_c) && d.contains(&Operand::Sink)) {
            return Err(unsupported());
        }
        let ld = layout(WmmaMatrix::C, d_t)?;
        if d.len() != ld.regs || (mixed && d.contains(&Operand::Sink)) {
            return Err(unsupported());
        }
        if mixed {
            self.wmma_convert_accumulator(c, d, d_t == "f32")?;
        }
        let per_tile = ld.regs / tiles.iter().map(|t| t.acc + 1).max().unwrap_or(1);
        for t in &tiles {
            let (a_src, b_src, at, bt) = if t.swap {
                (b, a, b_t, a_t)
            } else {
                (a, b, a_t, b_t)
            };
            let pick = |from: &[Operand], idx: &[usize]| {
                Operand::Vector(idx.iter().map(|&k| from[k].clone()).collect())
            };
            let slice: Vec<usize> = (t.acc * per_tile..(t.acc + 1) * per_tile).collect();
            let acc_in = if t.from_c && !mixed { c } else { d };
            let mut sub_mods = vec!["sync", "aligned", t.shape, "row", "col"];
            if kind == Kind::B1 {
                sub_mods.extend([if i.has_mod("and") { "and" } else { "xor" }, "popc"]);
            }
            sub_mods.extend([d_t, at, bt, d_t]);
            if int && i.has_mod("satfinite") {
                sub_mods.push("satfinite");
            }
            let sub = crate::calls::instruction(
                "mma",
                &sub_mods,
                None,
                vec![
                    pick(d, &slice),
                    pick(a_src, &t.a),
                    pick(b_src, &t.b),
                    pick(acc_in, &slice),
                ],
                i.line,
            );
            if crate::mma_int::is_int_form(&sub) {
                self.lower_mma_int(&sub)?;
            } else {
                self.lower_mma(&sub)?;
            }
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// C of one float type written into D of the other (f16 register `q` holds the f32 elements
    /// `2q` and `2q + 1`, in every shape), so that the tiles accumulate onto D.
    fn wmma_convert_accumulator(
        &mut self,
        c: &[Operand],
        d: &[Operand],
        to_f32: bool,
    ) -> LResult<()> {
        use ptxforge_sass::ir::*;
        if to_f32 {
            for (q, word) in c.iter().enumerate() {
                let w = self.src32(word)?;
                let w = self.in_reg(w);
                for (e, swz) in [HalfSwizzle::H0H0, HalfSwizzle::H1H1]
                    .into_iter()
                    .enumerate()
                {
                    let dst = self.dst(d.get(2 * q + e).ok_or("wmma fragment size")?)?;
                    let op = Opcode::Half2 {
                        op: HalfOp::Add,
                        bf16: false,
                        ftz: false,
                        sat: false,
                        relu: false,
                        f32_out: true,
                        swz: [swz, HalfSwizzle::H0H0, HalfSwizzle::H0H0],
                    };
                    self.emit(op, &[Dst::Reg(dst)], &[w, Src::ZERO.negated()]);
                }
            }
            return Ok(());
        }
        for (q, word) in d.iter().enumerate() {
            let lo = self.src32(c.get(2 * q).ok_or("wmma fragment size")?)?;
            let hi = self.src32(c.get(2 * q + 1).ok_or("wmma fragment size")?)?;
            let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
            let dst = self.dst(word)?;
            if self.sm.num >= 80 {
                let op = Opcode::F2fp {
                    bf16: false,
                    rnd: Round::Rn,
                    relu: false,
                };
                self.emit(op, &[Dst::Reg(dst)], &[hi, lo]);
            } else {
                let half = |ctx: &mut Self, x: Src| {
                    let t = ctx.temp();
                    let op = Opcode::F2f {
                        dst: NumFormat::F16,
                        src: NumFormat::F32,
                        rnd: Round::Rn,
                    };
                    ctx.emit(op, &[Dst::Reg(t)], &[x]);
                    Src::reg(t)
                };
                let (l, h) = (half(self, lo), half(self, hi));
                let op = Opcode::Prmt {
                    mode: PrmtMode::Index,
                };
                self.emit(op, &[Dst::Reg(dst)], &[l, Src::imm(0x5410), h]);
            }
        }
        Ok(())
    }
}

/// The fragment tuples of a wmma instruction that `mma.rs`'s `bind_fragments` gives register
/// groups: each operand's distinct registers (an f16 A or B fragment's copies keep registers of
/// their own, which dead-code elimination drops when nothing reads them), so that the `mma`
/// tiles read aligned slices of them in place and loads write them in place.
pub(crate) fn wmma_fragment_slices(i: &Instruction, sm: u32) -> Vec<(&[Operand], u8)> {
    if i.opcode() != "wmma" {
        return Vec::new();
    }
    let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
    let Some(shape) = mods
        .iter()
        .copied()
        .find(|m| ptxforge_ptx::isa::wmma_dims(m).is_some())
    else {
        return Vec::new();
    };
    let distinct = |m, t: &str| wmma_fragment(m, shape, t, sm).map(|l| l.distinct());
    let sizes: Vec<(usize, Option<usize>)> = match mods.first().copied() {
        Some("load") => {
            let m = match mods.get(1) {
                Some(&"a") => WmmaMatrix::A,
                Some(&"b") => WmmaMatrix::B,
                _ => WmmaMatrix::C,
            };
            vec![(0, mods.last().and_then(|t| distinct(m, t)))]
        }
        Some("store") => vec![(1, mods.last().and_then(|t| distinct(WmmaMatrix::C, t)))],
        Some("mma") => {
            let types: Vec<&str> = mods.iter().copied().filter(|m| is_type(m)).collect();
            let [d, a, b, c] = match types[..] {
                [d, c] => [d, "f16", "f16", c],
                [d, a, b, c] => [d, a, b, c],
                _ => return Vec::new(),
            };
            vec![
                (0, distinct(WmmaMatrix::C, d)),
                (1, distinct(WmmaMatrix::A, a)),
                (2, distinct(WmmaMatrix::B, b)),
                (3, distinct(WmmaMatrix::C, c)),
            ]
        }
        _ => return Vec::new(),
    };
    sizes
        .into_iter()
        .filter_map(|(at, n)| {
            let elems = Ctx::fragment_elems(i.operands.get(at)?);
            let n = n?;
            (n > 1 && elems.len() >= n).then(|| (&elems[..n], n as u8))
        })
        .collect()
}
