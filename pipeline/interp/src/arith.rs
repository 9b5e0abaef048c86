//! Integer and floating-point arithmetic, logic, bit manipulation and shifts.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{extend, mask, sext, ty_of, unsupported, width};
use crate::float::{self, Fmt, Rnd};
use crate::machine::{Cta, Flow};
use crate::prep::{Ins, Opnd};

impl Cta<'_, '_> {
    pub(crate) fn arith(&mut self, t: usize, ins: &Ins) -> Result<Flow, SimError> {
        let ty = ty_of(ins)?;
        if crate::exec::width(ty) > 64 {
            return Err(unsupported(ins, "128-bit arithmetic"));
        }
        if ins.ops.is_empty() {
            return Err(unsupported(ins, "no operands"));
        }
        let mut buf = [0u64; 4];
        let n = (ins.ops.len() - 1).min(4);
        for (i, slot) in buf.iter_mut().enumerate().take(n) {
            *slot = self.read(t, &ins.ops[i + 1], ty)?;
        }
        let srcs = &buf[..n];
        let (v, dty) = if ty.is_float() {
            (float_op(ins, ty, srcs)?, ty)
        } else {
            let mut carry = self.threads[t].carry;
            let r = int_op(ins, ty, srcs, &mut carry)?;
            self.threads[t].carry = carry;
            r
        };
        self.write(t, &ins.ops[0], v, dty)?;
        // `lop3.{or,and}.b32 d|p, a, b, c, lut, q`: p = (d != 0) OR / AND q.
        if let (Opnd::Pair(_, p), Some(q), "lop3") = (&ins.ops[0], ins.ops.get(5), &*ins.op) {
            let q = self.read(t, q, Type::Pred)? & 1 != 0;
            let nonzero = v & 0xffff_ffff != 0;
            let set = if ins.has("and") {
                nonzero && q
            } else {
                nonzero || q
            };
            self.write(t, &Opnd::Reg(*p), set as u64, Type::Pred)?;
        }
        Ok(Flow::Next)
    }
}

/// The opcodes `arith` implements (everything else is reported unsupported before operands are read).
pub(crate) const ARITH_OPS: &[&str] = &[
    "add", "addc", "sub", "subc", "mul", "mad", "madc", "mul24", "mad24", "sad", "div", "rem",
    "abs", "neg", "min", "max", "popc", "clz", "bfind", "brev", "bfe", "bfi", "prmt", "shf", "shl",
    "shr", "and", "or", "xor", "not", "cnot", "lop3", "dp4a", "dp2a", "bmsk", "fns", "fma", "rcp",
    "szext", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "copysign",
];

fn arg(ins: &Ins, s: &[u64], i: usize) -> Result<u64, SimError> {
    s.get(i)
        .copied()
        .ok_or_else(|| unsupported(ins, "missing operand"))
}

/// Type with twice the width and the same signedness (`.wide` results).
fn wide_of(ty: Type) -> Type {
    match ty {
        Type::S16 => Type::S32,
        Type::S32 => Type::S64,
        Type::U16 | Type::B16 => Type::U32,
        _ => Type::U64,
    }
}

/// The full 2w-bit product of two w-bit operands (two's complement bits for signed types).
fn product(a: u64, b: u64, ty: Type) -> u128 {
    let w = width(ty);
    if ty.is_signed() {
        (sext(a, w) as i128 * sext(b, w) as i128) as u128
    } else {
        (a & mask(w)) as u128 * (b & mask(w)) as u128
    }
}

/// The high w bits of a 2w-bit product.
fn high(p: u128, w: u32) -> u64 {
    (p >> w) as u64 & mask(w)
}

/// Integer (and predicate) operations; returns the value and the type it is written with.
fn int_op(ins: &Ins, ty: Type, s: &[u64], carry: &mut bool) -> Result<(u64, Type), SimError> {
    let w = width(ty);
    let m = mask(w);
    let signed = ty.is_signed();
    let a = arg(ins, s, 0)?;
    let b = || arg(ins, s, 1);
    let c = || arg(ins, s, 2);
    let sv = |v: u64| {
        if signed {
            sext(v, w) as i128
        } else {
            (v & m) as i128
        }
    };
    let sat32 = |x: i128| x.clamp(i32::MIN as i128, i32::MAX as i128) as u64;
    let cc = ins.has("cc");
    let op = ins.op.as_str();
    let v: u64 = match op {
        "add" | "addc" | "sub" | "subc" => {
            let is_sub = op.starts_with("sub");
            let cin = (op.ends_with('c') && *carry) as i128;
            if ins.has("sat") && ty == Type::S32 {
                let r = if is_sub {
                    sv(a) - sv(b()?)
                } else {
                    sv(a) + sv(b()?)
                };
                sat32(r)
            } else {
                // As the hardware does it (and ptxas relies on, also in chains that mix add and
                // sub): a - b is a + !b + 1, sub.cc's flag is that sum's carry (set when nothing
                // is borrowed), and subc adds the flag in place of the 1.
                let x = (a & m) as i128;
                let (y, cin) = match (is_sub, op.ends_with('c')) {
                    (false, _) => ((b()? & m) as i128, cin),
                    (true, with_carry) => ((!b()? & m) as i128, if with_carry { cin } else { 1 }),
                };
                let r = x + y + cin;
                if cc {
                    *carry = r >> w != 0;
                }
                r as u64
            }
        }
        "mul" => {
            let p = product(a, b()?, ty);
            if ins.has("wide") {
                return Ok((p as u64, wide_of(ty)));
            }
            if ins.has("hi") {
                high(p, w)
            } else {
                p as u64
            }
        }
        "mad" | "madc" => {
            let p = product(a, b()?, ty);
            let cin = (op == "madc" && *carry) as u128;
            if ins.has("wide") {
                let wt = wide_of(ty);
                let r = p
                    .wrapping_add(sext_or_zext(c()?, wt) as u128)
                    .wrapping_add(cin);
                if cc {
                    *carry = (r >> (2 * w)) & 1 != 0;
                }
                return Ok((r as u64, wt));
            }
            let part = if ins.has("hi") {
                high(p, w)
            } else {
                p as u64 & m
            };
            if ins.has("sat") && ty == Type::S32 && ins.has("hi") {
                sat32(sext(part, 32) as i128 + sv(c()?))
            } else {
                let r = part as u128 + (c()? & m) as u128 + cin;
                if cc {
                    *carry = r >> w != 0;
                }
                r as u64
            }
        }
        "mul24" | "mad24" => {
            let low24 = |v: u64| {
                if signed {
                    sext(v & 0xff_ffff, 24)
                } else {
                    (v & 0xff_ffff) as i64
                }
            };
            let p = low24(a) * low24(b()?);
            let part = if ins.has("hi") {
                (p >> 16) as u64
            } else {
                p as u64
            };
            if op == "mad24" {
                part.wrapping_add(c()?)
            } else {
                part
            }
        }
        "sad" => ((sv(a) - sv(b()?)).unsigned_abs() as u64).wrapping_add(c()?),
        "vabsdiff4" => crate::video::vabsdiff4(ins, a, b()?, c()?)?,
        "vabsdiff2" => crate::video::vabsdiff2(ins, a, b()?, c()?)?,
        "div" | "rem" => div_rem(op == "div", a, b()?, ty),
        "abs" => sv(a).unsigned_abs() as u64,
        "neg" => (a as i64).wrapping_neg() as u64,
        "min" | "max" => {
            let (x, y) = (sv(a), sv(b()?));
            let mut r = if (op == "min") == (x <= y) { x } else { y };
            if ins.has("relu") {
                r = r.max(0);
            }
            r as u64
        }
        "popc" => return Ok(((a & m).count_ones() as u64, Type::U32)),
        "clz" => return Ok((((a & m).leading_zeros() - (64 - w)) as u64, Type::U32)),
        "bfind" => return Ok((bfind(a, ty, ins.has("shiftamt")), Type::U32)),
        "brev" => (a & m).reverse_bits() >> (64 - w),
        "bfe" => bfe(a, b()?, c()?, ty),
        "fns" => fns(a as u32, b()? as u32, c()? as u32 as i32) as u64,
        "bfi" => bfi(a, b()?, c()?, arg(ins, s, 3)?, w),
        "prmt" => prmt(ins, a as u32, b()? as u32, c()? as u32)? as u64,
        "shf" => shf(ins, a as u32, b()? as u32, c()? as u32) as u64,
        "shl" => {
            let n = b()? & 0xffff_ffff;
            if n >= w as u64 {
                0
            } else {
                a << n
            }
        }
        "shr" => {
            let n = (b()? & 0xffff_ffff).min(w as u64 - 1 + (!signed) as u64);
            if n >= w as u64 {
                0
            } else if signed {
                (sext(a, w) >> n) as u64
            } else {
                (a & m) >> n
            }
        }
        "bmsk" => {
            let (pos, len) = if ins.has("wrap") {
                (a & 31, b()? & 31)
            } else {
                (a.min(32), b()?.min(32))
            };
            (mask(len as u32) << pos) & 0xffff_ffff
        }
        "szext" => {
            let n = b()? & 0xffff_ffff;
            let n = if ins.has("wrap") { n & 31 } else { n.min(32) };
            match n {
                0 => 0,
                32 => a & 0xffff_ffff,
                n if signed => sext(a, n as u32) as u64 & 0xffff_ffff,
                n => a & mask(n as u32),
            }
        }
        "and" => a & b()?,
        "or" => a | b()?,
        "xor" => a ^ b()?,
        "not" => !a,
        "cnot" => (a & m == 0) as u64,
        "lop3" => lop3(a, b()?, c()?, arg(ins, s, 3)? as u8),
        "dp4a" | "dp2a" => dot(ins, a as u32, b()? as u32, c()? as u32)? as u64,
        _ => return Err(unsupported(ins, "")),
    };
    Ok((extend(v, ty), ty))
}

fn sext_or_zext(v: u64, ty: Type) -> i128 {
    let w = width(ty);
    if ty.is_signed() {
        sext(v, w) as i128
    } else {
        (v & mask(w)) as i128
    }
}

/// Integer division as the sequences ptxas 13.5 emits behave (sm_75..sm_90): division and remainder
/// by zero give all ones, signed and unsigned, 32 and 64 bits (the sequence ends by selecting `~0`
/// when the divisor is zero); `MIN / -1 == MIN`, `MIN % -1 == 0`.
fn div_rem(is_div: bool, a: u64, b: u64, ty: Type) -> u64 {
    let w = width(ty);
    let m = mask(w);
    if b & m == 0 {
        return m;
    }
    if !ty.is_signed() {
        let (x, y) = (a & m, b & m);
        return if is_div { x / y } else { x % y };
    }
    let (x, y) = (sext(a, w) as i128, sext(b, w) as i128);
    let r = if is_div { x / y } else { x % y };
    r as u64 & m
}

fn bfind(a: u64, ty: Type, shiftamt: bool) -> u64 {
    let w = width(ty);
    let mut x = a & mask(w);
    if ty.is_signed() && sext(a, w) < 0 {
        x = !x & mask(w);
    }
    if x == 0 {
        return 0xffff_ffff;
    }
    let idx = 63 - x.leading_zeros() as u64;
    if shiftamt {
        w as u64 - 1 - idx
    } else {
        idx
    }
}

/// `fns.b32`: the position of the `|offset|`-th set bit of `mask` counting from `base` upwards
/// (offset > 0) or downwards (offset < 0); with offset 0, `base` when that bit is set; 0xffffffff
/// when there is none (the PTX ISA's definition; `base` past 31 finds nothing).
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return u32::MAX;
    }
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base as i64;
    while (0..32).contains(&pos) {
        if mask >> pos & 1 == 1 {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += offset.signum() as i64;
    }
    u32::MAX
}

fn bfe(a: u64, b: u64, c: u64, ty: Type) -> u64 {
    let w = width(ty) as u64;
    let (pos, len) = (b & 0xff, c & 0xff);
    let msb = w - 1;
    let sbit = if ty.is_signed() && len != 0 {
        (a >> (pos + len - 1).min(msb)) & 1
    } else {
        0
    };
    let mut d = 0u64;
    for i in 0..w {
        let bit = if i < len && pos + i <= msb {
            (a >> (pos + i)) & 1
        } else {
            sbit
        };
        d |= bit << i;
    }
    d
}

fn bfi(a: u64, b: u64, c: u64, d: u64, w: u32) -> u64 {
    let (pos, len) = (c & 0xff, d & 0xff);
    let mut r = b;
    let mut i = 0;
    while i < len && pos + i < w as u64 {
        r = (r & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        i += 1;
    }
    r
}

/// `prmt` byte selection; mode tables list result bytes from b3 down to b0.
fn prmt(ins: &Ins, a: u32, b: u32, c: u32) -> Result<u32, SimError> {
    let tmp = ((b as u64) << 32) | a as u64;
    let byte = |i: u32| ((tmp >> (8 * (i & 7))) & 0xff) as u32;
    let mode = ins
        .mods
        .iter()
        .find(|m| matches!(m.as_str(), "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"));
    let Some(mode) = mode else {
        let mut d = 0;
        for i in 0..4 {
            let sel = (c >> (4 * i)) & 0xf;
            let mut v = byte(sel & 7);
            if sel & 8 != 0 {
                v = if v & 0x80 != 0 { 0xff } else { 0 };
            }
            d |= v << (8 * i);
        }
        return Ok(d);
    };
    let table: [[u32; 4]; 4] = match mode.as_str() {
        "f4e" => [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        "b4e" => [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        "rc8" => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        "ecl" => [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        "ecr" => [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        _ => [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    };
    let row = table[(c & 3) as usize];
    Ok((byte(row[0]) << 24) | (byte(row[1]) << 16) | (byte(row[2]) << 8) | byte(row[3]))
}

/// Funnel shift of the 64-bit pair `b:a`.
fn shf(ins: &Ins, a: u32, b: u32, c: u32) -> u32 {
    let n = if ins.has("clamp") { c.min(32) } else { c & 31 };
    let pair = ((b as u128) << 32) | a as u128;
    if ins.has("l") {
        ((pair << n) >> 32) as u32
    } else {
        (pair >> n) as u32
    }
}

fn lop3(a: u64, b: u64, c: u64, lut: u8) -> u64 {
    let mut d = 0u64;
    for i in 0..64 {
        let idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        d |= (((lut >> idx) & 1) as u64) << i;
    }
    d
}

/// `dp4a`/`dp2a`: byte (and half-word) dot products accumulated into `c`.
fn dot(ins: &Ins, a: u32, b: u32, c: u32) -> Result<u32, SimError> {
    let (ta, tb) = match ins.types.as_slice() {
        [x, y, ..] => (*x, *y),
        _ => return Err(unsupported(ins, "needs two types")),
    };
    let part = |v: u32, bits: u32, i: u32, signed: bool| -> i64 {
        let x = (v >> (bits * i)) as u64 & mask(bits);
        if signed {
            sext(x, bits)
        } else {
            x as i64
        }
    };
    let mut acc = c as i32 as i64;
    if ins.op == "dp4a" {
        for i in 0..4 {
            acc += part(a, 8, i, ta.is_signed()) * part(b, 8, i, tb.is_signed());
        }
    } else {
        let base = if ins.has("hi") { 2 } else { 0 };
        for i in 0..2 {
            acc += part(a, 16, i, ta.is_signed()) * part(b, 8, base + i, tb.is_signed());
        }
    }
    Ok(acc as u32)
}

/// Floating-point arithmetic on f64, f32, f16, bf16 and the packed x2 forms (lane by lane).
fn float_op(ins: &Ins, ty: Type, s: &[u64]) -> Result<u64, SimError> {
    match ty {
        Type::F64 => f64_op(ins, s),
        Type::F16x2 | Type::BF16x2 => {
            let f = float::fmt_of(ty).expect("half format");
            let lane = |sh: u32| -> Result<u64, SimError> {
                let ls: Vec<u64> = s.iter().map(|v| (v >> sh) & 0xffff).collect();
                Ok(narrow_op(ins, f, &ls)? << sh)
            };
            Ok(lane(0)? | lane(16)?)
        }
        _ => narrow_op(
            ins,
            float::fmt_of(ty).ok_or_else(|| unsupported(ins, "float type"))?,
            s,
        ),
    }
}

fn f64_op(ins: &Ins, s: &[u64]) -> Result<u64, SimError> {
    let rnd = float::rnd_of(&ins.mods);
    let x = |i: usize| -> Result<f64, SimError> { Ok(f64::from_bits(arg(ins, s, i)?)) };
    let a = x(0)?;
    let r = match ins.op.as_str() {
        "add" => float::add64(a, x(1)?, rnd),
        "sub" => float::add64(a, -x(1)?, rnd),
        "mul" => float::mul64(a, x(1)?, rnd),
        "fma" | "mad" => float::fma64(a, x(1)?, x(2)?, rnd),
        // ptxas's div.f64 writes 0xfff80000_00000000 for 0 / 0 and inf / inf.
        "div" if (a == 0.0 && x(1)? == 0.0) || (a.is_infinite() && x(1)?.is_infinite()) => {
            return Ok(0xfff8_0000_0000_0000)
        }
        "div" => float::div64(a, x(1)?, rnd),
        "rcp" => float::div64(1.0, a, rnd),
        // ptxas's sqrt.rn.f64 writes 0xfff80000_00000000 for a negative input (not -0 or NaN).
        "sqrt" if a < 0.0 => return Ok(0xfff8_0000_0000_0000),
        "sqrt" => float::sqrt64(a, rnd),
        // ptxas's rsqrt.approx.f64 (not .ftz) writes 0xfff80000_00000000 for a negative input.
        "rsqrt" if a < 0.0 && !ins.has("ftz") => return Ok(0xfff8_0000_0000_0000),
        // ptxas and ptxforge write abs/neg.f64 as DADD -RZ, |x| / -x (sm_75..sm_90): a NaN
        // propagates like any f64 NaN operand (quieted, its sign kept).
        "abs" | "neg" if a.is_nan() => return Ok(s[0] | 1 << 51),
        "abs" => return Ok(s[0] & !(1 << 63)),
        "neg" => return Ok(s[0] ^ (1 << 63)),
        "copysign" => return Ok((arg(ins, s, 1)? & !(1 << 63)) | (s[0] & (1 << 63))),
        "min" | "max" => match float::pick_first(ins.op == "min", a, x(1)?) {
            _ if ins.has("NaN") && (a.is_nan() || x(1)?.is_nan()) => f64::NAN,
            Some(true) => a,
            Some(false) => x(1)?,
            None => f64::NAN,
        },
        op => float::approx(op, a).ok_or_else(|| unsupported(ins, ""))?,
    };
    if !r.is_nan() {
        return Ok(r.to_bits());
    }
    // A NaN operand propagates (quieted, the first one wins); an invalid operation gives the canonical NaN.
    Ok(s.iter()
        .copied()
        .find(|b| f64::from_bits(*b).is_nan())
        .map_or(float::F64_NAN, |b| b | 1 << 51))
}

/// One f32, f16 or bf16 operation.
fn narrow_op(ins: &Ins, f: Fmt, s: &[u64]) -> Result<u64, SimError> {
    let ftz = ins.has("ftz");
    let rnd = float::rnd_of(&ins.mods);
    let bits = |i: usize| -> Result<u64, SimError> {
        let v = arg(ins, s, i)? & ((1u64 << (f.ebits + f.mbits + 1)) - 1);
        Ok(if ftz { float::flush(v, f) } else { v })
    };
    let x = |i: usize| -> Result<f64, SimError> { Ok(float::decode(bits(i)?, f)) };
    let sign = 1u64 << (f.ebits + f.mbits);
    let approx = ins.has("approx") || ins.has("full");
    let a = x(0)?;
    let r = match ins.op.as_str() {
        "add" => float::add_in(a, x(1)?, rnd, f),
        "sub" => float::add_in(a, -x(1)?, rnd, f),
        "mul" => float::mul_in(a, x(1)?, rnd, f),
        "fma" | "mad" => float::fma_in(a, x(1)?, x(2)?, rnd, f),
        "div" => float::div_in(a, x(1)?, if approx { Rnd::Rn } else { rnd }, f),
        "rcp" => float::div_in(1.0, a, if approx { Rnd::Rn } else { rnd }, f),
        "sqrt" => float::sqrt_in(a, if approx { Rnd::Rn } else { rnd }, f),
        // f32 abs and neg run as FADD, f16/bf16 ones as HADD2/HFMA2 (ptxas 13.5 and ptxforge
        // alike, sm_75..sm_90): a NaN comes out canonical. (ptxas folds neg(neg x) into x,
        // keeping the payload; the random driver accepts that difference in ptxas's cubin.)
        "abs" | "neg" if a.is_nan() => f.nan(),
        "abs" => return Ok(bits(0)? & !sign),
        "neg" => return Ok(bits(0)? ^ sign),
        "copysign" => return Ok((bits(1)? & !sign) | (bits(0)? & sign)),
        "min" | "max" => {
            let y = x(1)?;
            match float::pick_first(ins.op == "min", a, y) {
                _ if ins.has("NaN") && (a.is_nan() || y.is_nan()) => f.nan(),
                Some(true) => bits(0)?,
                Some(false) => bits(1)?,
                None => f.nan(),
            }
        }
        op => float::round_to(
            float::approx(op, a).ok_or_else(|| unsupported(ins, ""))?,
            0,
            Rnd::Rn,
            f,
        ),
    };
    Ok(finish(ins, r, f))
}

/// Output flushing, `.sat` clamping to [0, 1] and `.relu`.
fn finish(ins: &Ins, mut r: u64, f: Fmt) -> u64 {
    if ins.has("ftz") {
        r = float::flush(r, f);
    }
    let v = float::decode(r, f);
    if ins.has("sat") {
        if v.is_nan() || v <= 0.0 {
            r = 0;
        } else if v > 1.0 {
            r = float::round_to(1.0, 0, Rnd::Rn, f);
        }
    }
    if ins.has("relu") && (v.is_nan() || v < 0.0) {
        // fma's (and cvt's) .relu keeps a NaN, made canonical; a negative result becomes 0.
        r = if v.is_nan() && ins.op == "fma" {
            f.nan()
        } else {
            0
        };
    }
    r
}
