//! Per-thread (and uniform) ALU semantics: integer, logic, shift, compare, IEEE-exact f32 ops (all
//! four rounding modes) and the MUFU approximations (modelled in f64, see `mufu`).
//! Pure functions of the operand values; the machine reads operands and writes results.

use crate::decode::{Inst, Op, Operand, PredSrc};

/// Results of one ALU op for one thread: up to two consecutive registers and two predicates
/// (the predicate destinations at bits 81..83 and 84..86).
#[derive(Default, Debug)]
pub struct AluOut {
    pub r: [Option<u32>; 2],
    pub p: [Option<bool>; 2],
}

/// Operand access for one thread (or for the uniform datapath).
pub trait Operands {
    fn val(&self, o: Operand) -> u32;
    /// A 64-bit value: a register pair or an 8-byte constant.
    fn val64(&self, o: Operand) -> u64;
    fn pred(&self, p: PredSrc) -> bool;
}

pub(crate) fn lo(v: u64) -> u32 {
    v as u32
}

pub(crate) fn hi(v: u64) -> u32 {
    (v >> 32) as u32
}

/// Executes an ALU op; `Err` names a modifier the emulator does not implement.
pub fn exec_alu(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    use Op::*;
    let mut out = AluOut::default();
    let (a, b, c) = (x.val(i.a), x.val(i.b), x.val(i.c));
    let r0 = match i.op {
        Mov | Umov => b,
        // `POPC R, ~R2` / `FLO.U32 R, ~R2`: the B operand's negation bit is a bitwise not.
        Popc => inverted_b(i, b).count_ones(),
        Brev => b.reverse_bits(),
        Flo | Uflo => {
            let b = inverted_b(i, b);
            // Signed (bit 73 set): the highest bit that differs from the sign bit.
            let b = if i.bit(73) && (b as i32) < 0 { !b } else { b };
            match (b, i.bit(74)) {
                (0, _) => u32::MAX,
                (_, true) => b.leading_zeros(),
                (_, false) => 31 - b.leading_zeros(),
            }
        }
        Iabs => (b as i32).wrapping_abs() as u32,
        Bmsk | Ubmsk => bmsk(a, b, i.bit(75)),
        // SGXT[.W][.U32] d, a, n: a's low n bits (n mod 32 with .W, bit 75), sign-extended
        // unless .U32 (bit 73 clear).
        Sgxt | Usgxt => sgxt(
            a,
            if i.op == Sgxt && i.bit(75) { b & 31 } else { b },
            i.bit(73),
        ),
        // P2R: the predicate bits P0..P6 (PT as bit 7) under mask B, A's bits elsewhere.
        P2r => {
            let pr = (0..8u8).fold(0u32, |m, p| {
                m | (x.pred(PredSrc {
                    idx: p,
                    neg: false,
                    uniform: false,
                }) as u32)
                    << p
            });
            (pr & b) | (a & !b)
        }
        Dadd | Dmul | Dfma => {
            let r = dop(i, x)?;
            out.r = [Some(lo(r)), Some(hi(r))];
            return Ok(out);
        }
        Dsetp => return Ok(dsetp(i, x)),
        Fchk => {
            out.p[0] = Some(crate::fchk::needs_slow_path(a, b));
            return Ok(out);
        }
        Sel | Usel => {
            if x.pred(i.pred(87)) {
                a
            } else {
                b
            }
        }
        // FSEL applies its sources' neg/abs modifiers as sign-bit operations (ptxas folds the
        // negation of an f64's high word into it).
        Fsel => {
            let (fa, fb) = (fsrc_a(i, a).to_bits(), fsrc_b(i, b).to_bits());
            if x.pred(i.pred(87)) {
                fa
            } else {
                fb
            }
        }
        Imnmx | Vimnmx => {
            let signed = if i.op == Imnmx { i.bit(73) } else { i.bit(72) };
            let min = x.pred(i.pred(87));
            let less = if signed {
                (a as i32) < (b as i32)
            } else {
                a < b
            };
            let r = if less == min { a } else { b };
            // VIMNMX.RELU (bit 76, sm_90): a negative result becomes 0 (ptxas folds
            // max.s32(max.s32(a, b), 0) into one).
            if i.op == Vimnmx && i.bit(76) && (r as i32) < 0 {
                0
            } else {
                r
            }
        }
        // `VIADD R8, R0, -UR4` (ptxas's sm_90 unrolled loops): B's negation bit.
        Viadd => {
            let neg = mod_bits(i, false).is_some_and(|(n, _)| i.bit(n));
            a.wrapping_add(if neg { b.wrapping_neg() } else { b })
        }
        // VIADDMNMX: min (predicate 87..90 true) or max of A + B (B negated at its modifier bit)
        // and C, signed at bit 72.
        Viaddmnmx => {
            let b = if mod_bits(i, false).is_some_and(|(n, _)| i.bit(n)) {
                b.wrapping_neg()
            } else {
                b
            };
            let sum = a.wrapping_add(b);
            let less = if i.bit(72) {
                (sum as i32) < (c as i32)
            } else {
                sum < c
            };
            if less == x.pred(i.pred(87)) {
                sum
            } else {
                c
            }
        }
        Iadd3 | Uiadd3 => return Ok(iadd3(i, x, a, b, c)),
        Lea | Ulea => return Ok(lea(i, x, a, b, c)),
        Cs2r => {
            out.r = [Some(0), i.bit(80).then_some(0)];
            return Ok(out);
        }
        // LOP3's predicate: `r != 0` OR the predicate at 87..90 (AND with `.PAND`, bit 80).
        Lop3 => {
            let r = lut3(i.f(72, 8), a, b, c);
            let q = x.pred(i.pred(87));
            out.p[0] = Some(if i.bit(80) { r != 0 && q } else { r != 0 || q });
            r
        }
        Ulop3 => {
            let r = lut3(i.f(72, 8), a, b, c);
            out.p[0] = Some(r != 0);
            r
        }
        // |a - b| + c, the difference taken signed when bit 73 is set (VABSDIFF vs .U32).
        Vabsdiff => {
            let diff = if i.bit(73) {
                (a as i32 as i64 - b as i32 as i64).unsigned_abs() as u32
            } else {
                a.abs_diff(b)
            };
            diff.wrapping_add(c)
        }
        // VABSDIFF4.U8: the four unsigned byte differences; .ACC (bit 75) their sum plus c.
        Vabsdiff4 => {
            let bytes = (0..4).map(|k| {
                let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
                (u32::from(x.abs_diff(y)), k)
            });
            if i.bit(75) {
                bytes.fold(c, |sum, (d, _)| sum.wrapping_add(d))
            } else {
                bytes.fold(0, |word, (d, k)| word | d << (8 * k))
            }
        }
        Prmt | Uprmt => match i.f(72, 3) {
            0 => prmt(a, b, c),
            mode @ 1..=6 => prmt_mode(mode, a, b, c),
            _ => return Err("PRMT mode 7".into()),
        },
        Shf | Ushf => shf(i, a, b, c),
        Plop3 if i.f(0, 12) == 0x21f => {
            // The LUT's inputs are A's, B's and C's sign bits; its two tables at 72..79, 16..23.
            let idx = (a >> 31) << 2 | (b >> 31) << 1 | c >> 31;
            out.p[0] = Some((i.f(72, 8) >> idx) & 1 == 1);
            out.p[1] = Some((i.f(16, 8) >> idx) & 1 == 1);
            return Ok(out);
        }
        Plop3 => {
            // nvdisasm prints the sources as 87, 77, 68, and the first printed is the LUT's
            // most significant input (0xf0), as LOP3's A: `PLOP3.LUT P0, PT, P0, P1, PT, 0xa8`
            // is (P0 | P1) & PT.
            let idx = (x.pred(i.pred(87)) as u32) << 2
                | (x.pred(i.pred(77)) as u32) << 1
                | x.pred(i.pred(68)) as u32;
            let lut = i.f(72, 5) << 3 | i.f(64, 3);
            out.p[0] = Some((lut >> idx) & 1 == 1);
            out.p[1] = Some((i.f(16, 8) >> idx) & 1 == 1);
            return Ok(out);
        }
        Isetp | Uisetp => {
            let r = icmp(i, x, a, b);
            return Ok(setp_out(i, x, r));
        }
        Fsetp => {
            let r = fcmp(i, fsrc_a(i, a), fsrc_b(i, b));
            return Ok(setp_out(i, x, r));
        }
        Imad | Uimad | ImadHi | ImadWide | UimadWide => return imad(i, x, a, b),
        Hfma2Mma => return crate::half::arith(i, x),
        Fadd | Fmul | Ffma => fop(i, a, b, c)?,
        Fmnmx => {
            let ftz = i.bit(80);
            fminmax(
                flush(fsrc_a(i, a), ftz),
                flush(fsrc_b(i, b), ftz),
                x.pred(i.pred(87)),
            )
        }
        I2fp => i2f(i, b)?,
        // `MUFU.RCP R5, |R0|` (ptxas's rcp.rn.f32 of an abs.f32): B's abs (62) and neg (63) bits.
        Mufu => mufu(i.f(74, 4), signed_b(i, b))?,
        I2i => i2i_sat(i, b)?,
        I2ip => i2ip(i, a, b, c)?,
        Idp => idp(i, a, b, c),
        I2f | I2f64 => return crate::convert::i2f(i, x),
        F2i | F2i64 => return crate::convert::f2i(i, x),
        F2f => return crate::convert::f2f(i, x),
        Frnd => return crate::convert::frnd(i, x),
        Hadd2 | Hmul2 | Hfma2 => return crate::half::arith(i, x),
        Hsetp2 => return crate::half::setp(i, x),
        Hmnmx2 => return crate::half::minmax(i, x),
        Hset2 => return crate::half::set(i, x),
        F2fp => return crate::half::f2fp(i, x),
        _ => return Err("not an ALU op".into()),
    };
    out.r[0] = Some(r0);
    Ok(out)
}

/// ISETP/FSETP/UISETP destinations: d0 = r OP acc, d1 = !r OP acc.
fn setp_out(i: &Inst, x: &impl Operands, r: bool) -> AluOut {
    let acc = x.pred(i.pred(87));
    let comb = |v: bool| match i.f(74, 2) {
        0 => v && acc,
        1 => v || acc,
        _ => v ^ acc,
    };
    AluOut {
        r: [None, None],
        p: [Some(comb(r)), Some(comb(!r))],
    }
}

fn icmp(i: &Inst, x: &impl Operands, a: u32, b: u32) -> bool {
    let signed = i.bit(73);
    let ord = if signed {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    let cmp = i.f(76, 3);
    if i.bit(72) {
        // .EX: compares the high words of a 64-bit pair; ties fall back to the low compare (68..71).
        let low = x.pred(i.pred(68));
        return match cmp {
            0 => false,
            1 => ord == Less || (ord == Equal && low),
            2 => ord == Equal && low,
            3 => ord == Less || (ord == Equal && low),
            4 => ord == Greater || (ord == Equal && low),
            5 => ord != Equal || low,
            6 => ord == Greater || (ord == Equal && low),
            _ => true,
        };
    }
    compare_code(cmp, ord)
}

/// The compare codes shared by ISETP, FSETP and DSETP (low three bits: F LT EQ LE GT NE GE T) on
/// an ordering.
fn compare_code(code: u32, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match code & 7 {
        0 => false,
        1 => ord == Less,
        2 => ord == Equal,
        3 => ord != Greater,
        4 => ord == Greater,
        5 => ord != Equal,
        6 => ord != Less,
        _ => true,
    }
}

/// IADD3: a + b + c (each optionally negated) as two adds, each giving one carry out (so the
/// carries of a 64-bit chain add up); .X adds two carry-in predicates and negation is a bitwise NOT.
fn iadd3(i: &Inst, x: &impl Operands, a: u32, b: u32, c: u32) -> AluOut {
    let xmode = i.bit(74);
    let term = |v: u32, neg: bool| -> u64 {
        if !neg {
            v as u64
        } else if xmode {
            (!v) as u64
        } else {
            (!v) as u64 + 1
        }
    };
    let neg_of = |slot_c: bool| mod_bits(i, slot_c).is_some_and(|(n, _)| i.bit(n));
    let (cin0, cin1) = if xmode {
        (x.pred(i.pred(87)) as u64, x.pred(i.pred(77)) as u64)
    } else {
        (0, 0)
    };
    let first = term(a, i.bit(72)) + term(b, neg_of(false)) + cin0;
    let second = (first & 0xffff_ffff) + term(c, neg_of(true)) + cin1;
    AluOut {
        r: [Some(lo(second)), None],
        p: [Some(first >> 32 != 0), Some(second >> 32 != 0)],
    }
}

/// B, bitwise inverted when its negation bit is set (POPC and FLO write it as `~R`).
/// Operand B's bits with its abs and neg modifiers applied to the sign bit (bit 31).
fn signed_b(i: &Inst, b: u32) -> u32 {
    match mod_bits(i, false) {
        Some((neg, abs)) => {
            let b = if i.bit(abs) { b & !(1 << 31) } else { b };
            if i.bit(neg) {
                b ^ 1 << 31
            } else {
                b
            }
        }
        None => b,
    }
}

fn inverted_b(i: &Inst, b: u32) -> u32 {
    match mod_bits(i, false) {
        Some((neg, _)) if i.bit(neg) => !b,
        _ => b,
    }
}

/// Bit positions (neg, abs) of the modifiers of operand B (or C with `slot_c`): they belong to the
/// operand's field (bits 32..63: 63/62; bits 64..71: 75/74), which the operand form decides.
/// None for an immediate.
pub fn mod_bits(i: &Inst, slot_c: bool) -> Option<(u32, u32)> {
    let o = if slot_c { i.c } else { i.b };
    if matches!(o, Operand::Imm(_) | Operand::None) {
        return None;
    }
    let field32 = if i.c == Operand::None && !slot_c {
        true
    } else {
        matches!(i.f(9, 3), 1 | 4 | 5 | 6) != slot_c
    };
    Some(if field32 { (63, 62) } else { (75, 74) })
}

/// LEA: (a << s) + b with a carry out; LEA.HI: high word of ({c:a} << s) + b (+ carry in with .X);
/// .SX32 takes the high word as a's sign.
fn lea(i: &Inst, x: &impl Operands, a: u32, b: u32, c: u32) -> AluOut {
    let s = i.f(75, 5);
    let cin = if i.bit(74) {
        x.pred(i.pred(87)) as u64
    } else {
        0
    };
    let b = match mod_bits(i, false) {
        Some((n, _)) if i.bit(n) && i.bit(74) => !b,
        Some((n, _)) if i.bit(n) => b.wrapping_neg(),
        _ => b,
    };
    let shifted = if i.bit(80) {
        let high = if i.bit(73) {
            ((a as i32) >> 31) as u32
        } else {
            c
        };
        hi(((high as u64) << 32 | a as u64) << s)
    } else {
        a << s
    };
    let sum = shifted as u64 + b as u64 + cin;
    AluOut {
        r: [Some(lo(sum)), None],
        p: [Some(sum >> 32 & 1 == 1), None],
    }
}

fn lut3(lut: u32, a: u32, b: u32, c: u32) -> u32 {
    let mut r = 0;
    for k in 0..32 {
        let idx = ((a >> k) & 1) << 2 | ((b >> k) & 1) << 1 | ((c >> k) & 1);
        r |= ((lut >> idx) & 1) << k;
    }
    r
}

fn prmt(a: u32, sel: u32, c: u32) -> u32 {
    let pool = (c as u64) << 32 | a as u64;
    let mut r = 0u32;
    for k in 0..4 {
        let s = (sel >> (4 * k)) & 0xf;
        let byte = (pool >> (8 * (s & 7))) as u8;
        let v = if s & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        r |= (v as u32) << (8 * k);
    }
    r
}

/// PRMT with a fixed pattern (`.F4E` = 1 .. `.RC16` = 6) chosen by the selector's low two bits;
/// each row lists the result's bytes from b3 down to b0, out of the pool {c:a}.
fn prmt_mode(mode: u32, a: u32, sel: u32, c: u32) -> u32 {
    const ROWS: [[[u8; 4]; 4]; 6] = [
        [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    ];
    let pool = (c as u64) << 32 | a as u64;
    let row = ROWS[mode as usize - 1][(sel & 3) as usize];
    row.iter()
        .fold(0, |r, &byte| r << 8 | ((pool >> (8 * byte)) & 0xff) as u32)
}

/// SHF: funnel shift of {c:a} by b; type at 73..74 (0 S64, 1 U64, 2 S32, 3 U32), right at 76, HI at 80.
fn shf(i: &Inst, a: u32, b: u32, c: u32) -> u32 {
    let ty = i.f(73, 2);
    let signed = ty == 0 || ty == 2;
    let limit = if ty >= 2 { 32 } else { 64 };
    // `.W` (bit 75) wraps the shift amount modulo the width; otherwise it clamps.
    let s = if i.bit(75) {
        b & (limit - 1)
    } else {
        b.min(limit)
    };
    let val = (c as u64) << 32 | a as u64;
    let r = if i.bit(76) {
        if signed {
            let v = val as i64;
            (if s >= 64 { v >> 63 } else { v >> s }) as u64
        } else if s >= 64 {
            0
        } else {
            val >> s
        }
    } else if s >= 64 {
        0
    } else {
        val << s
    };
    if i.bit(80) {
        hi(r)
    } else {
        lo(r)
    }
}

fn imad(i: &Inst, x: &impl Operands, a: u32, b: u32) -> Result<AluOut, String> {
    let signed = i.bit(73);
    let xmode = i.bit(74);
    let neg_c = mod_bits(i, true).is_some_and(|(n, _)| i.bit(n));
    let cin = if xmode { x.pred(i.pred(87)) as u64 } else { 0 };
    let prod = if signed {
        ((a as i32 as i64) * (b as i32 as i64)) as u64
    } else {
        a as u64 * b as u64
    };
    let mut out = AluOut::default();
    match i.op {
        // The 64-bit sum's carry goes to the predicate at 81..83 (`IMAD.WIDE.U32 R2, P0, ...`),
        // which a `.X` form adds back in.
        Op::ImadWide | Op::UimadWide => {
            let c = x.val64(i.c);
            let c = if neg_c { c.wrapping_neg() } else { c };
            let sum = prod as u128 + c as u128 + cin as u128;
            let r = sum as u64;
            out.r = [Some(lo(r)), Some(hi(r))];
            out.p[0] = Some(sum >> 64 != 0);
        }
        // IMAD.HI adds a 64-bit C (a register pair) to the 64-bit product: ptxas writes
        // `mad.hi.u32` as IMAD.HI Rd, Ra, Rb, R4 with R4 = 0 and the addend in R5.
        // The 64-bit sum's carry goes to the predicate at 81..83 (`IMAD.HI.U32 R12, P1, ...` in
        // ptxas's 64-bit division), as IMAD.WIDE's does.
        // A negated C is negated as the 64-bit pair (`IMAD.HI R5, R9, R0, -R4`: ptxas's sm_90
        // mad.hi.s32 with a constant addend -1 in R5).
        Op::ImadHi => {
            let c = x.val64(i.c);
            let c = match (neg_c, xmode) {
                (false, _) => c,
                (true, true) => !c,
                (true, false) => c.wrapping_neg(),
            };
            let sum = prod as u128 + c as u128 + cin as u128;
            out.r[0] = Some(hi(sum as u64));
            out.p[0] = Some(sum >> 64 != 0);
        }
        _ => {
            let c = x.val(i.c);
            let c = if !neg_c {
                c
            } else if xmode {
                !c
            } else {
                c.wrapping_neg()
            };
            out.r[0] = Some(lo(prod).wrapping_add(c).wrapping_add(cin as u32));
        }
    }
    Ok(out)
}

pub(crate) fn flush(v: f32, ftz: bool) -> f32 {
    if ftz && v.is_subnormal() {
        0.0f32.copysign(v)
    } else {
        v
    }
}

fn fmods(v: u32, neg: bool, abs: bool) -> f32 {
    let mut f = f32::from_bits(v);
    if abs {
        f = f.abs();
    }
    if neg {
        f = -f;
    }
    f
}

fn fsrc_a(i: &Inst, a: u32) -> f32 {
    fmods(a, i.bit(72), i.bit(73))
}

/// Operand B (or C) of a float op with its neg/abs modifiers.
fn fsrc(i: &Inst, v: u32, slot_c: bool) -> f32 {
    match mod_bits(i, slot_c) {
        Some((n, a)) => fmods(v, i.bit(n), i.bit(a)),
        None => f32::from_bits(v),
    }
}

fn fsrc_b(i: &Inst, b: u32) -> f32 {
    fsrc(i, b, false)
}

fn fcmp(i: &Inst, a: f32, b: f32) -> bool {
    let ftz = i.bit(80);
    fcmp_code(i.f(76, 4), flush(a, ftz).partial_cmp(&flush(b, ftz)))
}

/// The f32 NaN NVIDIA GPUs return.
pub(crate) const CANONICAL_NAN: u32 = 0x7fff_ffff;

fn fop(i: &Inst, a: u32, b: u32, c: u32) -> Result<u32, String> {
    let ftz = i.bit(80);
    let fa = flush(fsrc_a(i, a), ftz);
    let fb = flush(fsrc_b(i, b), ftz);
    // The exact result as an unevaluated f64 pair (sum, error): an f32 product is exact in f64
    // and TwoSum gives the error of the addition.
    let (fa, fb) = (fa as f64, fb as f64);
    let (sum, err) = match i.op {
        Op::Fadd => two_sum(fa, fb),
        Op::Fmul => (fa * fb, 0.0),
        Op::Ffma => two_sum(fa * fb, flush(fsrc(i, c, true), ftz) as f64),
        _ => return Err("not a float op".into()),
    };
    let rm = i.f(78, 2);
    // Round to nearest straight from f32 arithmetic: rounding the f64 sum first would round twice.
    let mut r = match rm {
        0 => native_round_to_nearest(i.op, fa as f32, fb as f32, || flush(fsrc(i, c, true), ftz)),
        _ => round_f32(sum, err, rm),
    };
    // An exact zero sum is -0 when rounding down unless both addends are +0 (IEEE 754 6.3); the
    // host's f64 addition above rounded to nearest and gave +0 for x + (-x).
    if rm == 1 && sum == 0.0 && err == 0.0 && i.op != Op::Fmul {
        let (x, y) = match i.op {
            Op::Fadd => (fa, fb),
            _ => (fa * fb, flush(fsrc(i, c, true), ftz) as f64),
        };
        if !(x.to_bits() == 0 && y.to_bits() == 0) {
            r = -0.0;
        }
    }
    // .SAT (bit 77): the rounded result clamped to [+0, 1], a NaN to +0.
    if i.bit(77) {
        r = match r {
            r if r.is_nan() || r <= 0.0 => 0.0,
            r if r > 1.0 => 1.0,
            r => r,
        };
    }
    // The hardware returns the quiet NaN 0x7fffffff for any f32 result that is NaN (CUDA
    // programming guide, "Floating-Point Standard"); input payloads are not propagated.
    if r.is_nan() {
        return Ok(CANONICAL_NAN);
    }
    Ok(flush(r, ftz).to_bits())
}

/// FADD / FMUL / FFMA rounded to nearest even, as f32 arithmetic (and `mul_add`) does.
fn native_round_to_nearest(op: Op, a: f32, b: f32, c: impl Fn() -> f32) -> f32 {
    match op {
        Op::Fadd => a + b,
        Op::Fmul => a * b,
        _ => a.mul_add(b, c()),
    }
}

/// a + b as the rounded sum and its exact error (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, if err.is_finite() { err } else { 0.0 })
}

/// The f32 nearest to sum + err in rounding mode `rm` (78..79: RN, RM, RP, RZ).
pub(crate) fn round_f32(sum: f64, err: f64, rm: u32) -> f32 {
    let near = sum as f32;
    if rm == 0 || sum.is_nan() || near as f64 == sum && err == 0.0 {
        return near;
    }
    // The sign of near - (sum + err); near - sum is exact (both are close).
    let above = match (near as f64 - sum) - err {
        d if d > 0.0 => true,
        d if d < 0.0 => false,
        _ => return near,
    };
    let down = match rm {
        1 => true,
        2 => false,
        _ => sum > 0.0,
    };
    match (down, above) {
        (true, true) => step_f32(near, false),
        (false, false) => step_f32(near, true),
        _ => near,
    }
}

/// The next f32 above (`up`) or below `v` (v not NaN).
fn step_f32(v: f32, up: bool) -> f32 {
    if v == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = v.to_bits();
    let away = (v > 0.0) == up;
    f32::from_bits(if away { bits + 1 } else { bits - 1 })
}

/// MUFU: the function at 74..77 of B. The hardware's tables are not public; the emulator computes
/// each in f64 and rounds to f32 (NaN as the canonical NaN), with denormal sources and results
/// flushed to zero (ptxas wraps non-.ftz approximations in scaling code for that reason). The
/// hardware is only as close as the PTX ISA's bounds for the `.approx` instructions it serves
/// (ex2 and lg2: 2 ulp plus range-dependent terms; rcp and rsqrt: 1 ulp; sin and cos on
/// [-pi, pi]: absolute error 2^-20.5; tanh: relative error 2^-11), so tests compare MUFU results
/// within those tolerances (pipeline/interp's `APPROX_TOLERANCE` holds the same table).
/// SIN and COS take revolutions (ptxas multiplies by 1/(2 pi) first). RCP64H and RSQ64H read B
/// as the high word of an f64 (low word zero) and give the high word of the f64 result.
pub fn mufu(func: u32, b: u32) -> Result<u32, String> {
    let wide = |f: fn(f64) -> f64| (f(f64::from_bits((b as u64) << 32)).to_bits() >> 32) as u32;
    let x = flush(f32::from_bits(b), true) as f64;
    let r = match func {
        0 => (x * std::f64::consts::TAU).cos(),
        1 => (x * std::f64::consts::TAU).sin(),
        2 => x.exp2(),
        3 => x.log2(),
        4 => 1.0 / x,
        5 => 1.0 / x.sqrt(),
        6 => return Ok(wide(|v| 1.0 / v)),
        7 => return Ok(wide(|v| 1.0 / v.sqrt())),
        8 => x.sqrt(),
        9 => x.tanh(),
        _ => return Err(format!("MUFU function {func}")),
    };
    let r = r as f32;
    Ok(if r.is_nan() {
        CANONICAL_NAN
    } else {
        flush(r, true).to_bits()
    })
}

/// FMNMX: the predicate (87..90) true selects the minimum; NaN yields the other operand; -0 < +0.
fn fminmax(a: f32, b: f32, min: bool) -> u32 {
    if a.is_nan() && b.is_nan() {
        return CANONICAL_NAN;
    }
    if a.is_nan() {
        return b.to_bits();
    }
    if b.is_nan() {
        return a.to_bits();
    }
    // Orders -0 below +0 by comparing the sign as well.
    let a_less = a < b || (a == b && a.is_sign_negative() && !b.is_sign_negative());
    if a_less == min {
        a.to_bits()
    } else {
        b.to_bits()
    }
}

/// Integer to f32 (I2F/I2FP): signed at bit 74, rounding 78..79 (RN, RM, RP, RZ); a 32-bit
/// integer is exact in f64.
pub fn i2f(i: &Inst, v: u32) -> Result<u32, String> {
    let exact = if i.bit(74) { v as i32 as f64 } else { v as f64 };
    Ok(round_f32(exact, 0.0, i.f(78, 2)).to_bits())
}

/// I2I.<dst>.S32.SAT: a signed 32-bit integer clamped to the range of the 8- or 16-bit type at
/// 76..77 (U8, S8, U16, S16), as a 32-bit value (ptxas sign-extends the narrow result itself).
/// Other source types (72..75 nonzero) have not been seen.
fn i2i_sat(i: &Inst, v: u32) -> Result<u32, String> {
    if i.f(72, 4) != 0 {
        return Err("I2I source type".into());
    }
    let (lo, hi) = match i.f(76, 2) {
        0 => (0, u8::MAX as i32),
        1 => (i8::MIN as i32, i8::MAX as i32),
        2 => (0, u16::MAX as i32),
        _ => (i16::MIN as i32, i16::MAX as i32),
    };
    Ok((v as i32).clamp(lo, hi) as u32)
}

/// BMSK: a mask of `width` (B) ones starting at bit `start` (A); .W (bit 75) wraps both to 0..31,
/// otherwise they clamp at 32 (bits past 31 are dropped).
fn sgxt(a: u32, bits: u32, signed: bool) -> u32 {
    match bits.min(32) {
        0 => 0,
        32 => a,
        n if signed => (((a << (32 - n)) as i32) >> (32 - n)) as u32,
        n => a & ((1u32 << n) - 1),
    }
}

fn bmsk(start: u32, width: u32, wrap: bool) -> u32 {
    let (s, w) = if wrap {
        (start & 31, width & 31)
    } else {
        (start.min(32), width.min(32))
    };
    ((((1u64 << w) - 1) << s) & 0xffff_ffff) as u32
}

/// The f64 NaN the emulator returns for an invalid FP64 operation (no NaN operand): the one the
/// PTX interpreter uses (NVIDIA documents 0x7fffffff only for f32 results).
const CANONICAL_NAN64: u64 = 0x7fff_ffff_ffff_ffff;

/// The first NaN among an FP64 op's register or immediate sources (A, B, C as the op reads them,
/// without their neg/abs modifiers), quieted: double precision keeps NaN payloads, unlike f32 (the
/// PTX interpreter's rule; not yet confirmed on a GPU).
fn propagated_nan64(i: &Inst, x: &impl Operands) -> Option<u64> {
    let raw = |o: Operand| match o {
        Operand::Imm(high) => (high as u64) << 32,
        o => x.val64(o),
    };
    let mut srcs = vec![x.val64(i.a)];
    match i.op {
        Op::Dadd => srcs.push(raw(i.c)),
        Op::Dmul => srcs.push(raw(i.b)),
        _ => srcs.extend([raw(i.b), raw(i.c)]),
    }
    srcs.into_iter()
        .find(|v| f64::from_bits(*v).is_nan())
        .map(|v| v | 1 << 51)
}

/// An f64 source with neg/abs modifier bits.
fn dmods(v: u64, neg: bool, abs: bool) -> f64 {
    let mut f = f64::from_bits(v);
    if abs {
        f = f.abs();
    }
    if neg {
        f = -f;
    }
    f
}

/// An f64 source operand B (or C with `slot_c`) with its modifiers.
fn dsrc(i: &Inst, x: &impl Operands, slot_c: bool) -> f64 {
    // A 32-bit immediate of an FP64 op is the high word of the f64 (the low word is zero).
    let v = match if slot_c { i.c } else { i.b } {
        Operand::Imm(high) => (high as u64) << 32,
        o => x.val64(o),
    };
    match mod_bits(i, slot_c) {
        Some((n, a)) => dmods(v, i.bit(n), i.bit(a)),
        None => f64::from_bits(v),
    }
}

/// DADD (A + C), DMUL (A * B) and DFMA (A * B + C), rounded by 78..79 (RN, RM, RP, RZ).
fn dop(i: &Inst, x: &impl Operands) -> Result<u64, String> {
    let a = dmods(x.val64(i.a), i.bit(72), i.bit(73));
    let rm = i.f(78, 2);
    let r = match i.op {
        Op::Dadd => {
            let c = dsrc(i, x, true);
            crate::round64::round_op(Some(a + c), a, c, None, rm)
        }
        Op::Dmul => crate::round64::round_op(None, a, dsrc(i, x, false), None, rm),
        _ => crate::round64::round_op(None, a, dsrc(i, x, false), Some(dsrc(i, x, true)), rm),
    };
    Ok(if r.is_nan() {
        propagated_nan64(i, x).unwrap_or(CANONICAL_NAN64)
    } else {
        r.to_bits()
    })
}

/// DSETP: compare codes as FSETP's (76..79); code 0 is .MIN and 15 is .MAX, which write "A is the
/// minimum (maximum)" (NaN loses, -0 < +0) to the first destination and "both are NaN" to the
/// second, each combined with the accumulator.
fn dsetp(i: &Inst, x: &impl Operands) -> AluOut {
    let a = dmods(x.val64(i.a), i.bit(72), i.bit(73));
    let b = dsrc(i, x, false);
    let acc = x.pred(i.pred(87));
    let comb = |v: bool| match i.f(74, 2) {
        0 => v && acc,
        1 => v || acc,
        _ => v ^ acc,
    };
    let code = i.f(76, 4);
    let (first, second) = match code {
        0 | 15 => {
            let a_less = a < b || (a == b && a.is_sign_negative() && !b.is_sign_negative());
            let pick_a = !a.is_nan() && (b.is_nan() || a_less == (code == 0));
            (pick_a, a.is_nan() && b.is_nan())
        }
        _ => {
            let r = fcmp_code(code, a.partial_cmp(&b));
            (r, !r)
        }
    };
    AluOut {
        r: [None, None],
        p: [Some(comb(first)), Some(comb(second))],
    }
}

/// A float compare code (FSETP/DSETP 76..79: F LT EQ LE GT NE GE NUM NAN LTU EQU LEU GTU NEU GEU
/// T) on an ordering (None: unordered).
pub(crate) fn fcmp_code(code: u32, ord: Option<std::cmp::Ordering>) -> bool {
    match ord {
        None => matches!(code, 8..=15),
        Some(o) => compare_code(code, o),
    }
}

/// I2IP.{U8,S8}.S32.SAT: A and B saturated to 8 bits, A in bits 8..15 and B in 0..7, C's low half
/// (high half with `.H1`, bit 72) in 16..31 (the decoder accepts only the saturating forms).
fn i2ip(i: &Inst, a: u32, b: u32, c: u32) -> Result<u32, String> {
    let (lo, hi) = match i.f(76, 3) {
        0 => (0i64, 255i64),
        1 => (-128, 127),
        _ => return Err("I2IP other than U8/S8".into()),
    };
    if i.bit(73) {
        return Err("I2IP C selector".into());
    }
    let sat = |v: u32| ((v as i32 as i64).clamp(lo, hi) as u32) & 0xff;
    let c_half = if i.bit(72) { c >> 16 } else { c & 0xffff };
    Ok(c_half << 16 | sat(a) << 8 | sat(b))
}

/// IDP.4A / IDP.2A.{LO,HI}: c + the products of A's bytes (`.4A`) or halves (`.2A`) with B's
/// bytes (B's bytes 2-3 with `.HI`); A signed at bit 73, B at 74, `.2A` at 76, `.HI` at 77.
fn idp(i: &Inst, a: u32, b: u32, c: u32) -> u32 {
    let (a_signed, b_signed, pairs, hi) = (i.bit(73), i.bit(74), i.bit(76), i.bit(77));
    let elem = |v: u32, bits: u32, k: u32, signed: bool| -> i64 {
        let x = (v >> (bits * k)) & ((1u32 << bits) - 1);
        if signed {
            ((x << (32 - bits)) as i32 >> (32 - bits)) as i64
        } else {
            x as i64
        }
    };
    let sum: i64 = if pairs {
        let base = if hi { 2 } else { 0 };
        (0..2)
            .map(|k| elem(a, 16, k, a_signed) * elem(b, 8, base + k, b_signed))
            .sum()
    } else {
        (0..4)
            .map(|k| elem(a, 8, k, a_signed) * elem(b, 8, k, b_signed))
            .sum()
    };
    (c as i64).wrapping_add(sum) as u32
}
