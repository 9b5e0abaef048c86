//! Case of `kernels/intops.ptx`: dp4a/dp2a, bfe with register fields, a carry chain and
//! mad.hi.cc's carry, the expected words computed here from PTX's definitions.

use super::*;

/// Element `k` of `v` (`bits` wide), sign-extended when `signed`.
fn elem(v: u32, bits: u32, k: u32, signed: bool) -> i64 {
    let x = (v >> (bits * k)) & ((1u32 << bits) - 1);
    if signed {
        ((x << (32 - bits)) as i32 >> (32 - bits)) as i64
    } else {
        x as i64
    }
}

fn dp4a(a: u32, b: u32, c: u32, sa: bool, sb: bool) -> u32 {
    let s: i64 = (0..4).map(|k| elem(a, 8, k, sa) * elem(b, 8, k, sb)).sum();
    (c as i64 + s) as u32
}

fn dp2a(a: u32, b: u32, c: u32, hi: bool, sa: bool, sb: bool) -> u32 {
    let base = if hi { 2 } else { 0 };
    let s: i64 = (0..2)
        .map(|k| elem(a, 16, k, sa) * elem(b, 8, base + k, sb))
        .sum();
    (c as i64 + s) as u32
}

/// PTX's bfe on 32 bits: `len` bits from `pos` (low bytes only), sign-filled from the field's
/// top bit (bit 31 past the word) when signed; 0 for an empty field.
fn bfe(a: u32, pos: u32, len: u32, signed: bool) -> u32 {
    let (pos, len) = (pos & 0xff, len & 0xff);
    let sbit = signed && len != 0 && (a >> (pos + len - 1).min(31)) & 1 == 1;
    (0..32).fold(0u32, |d, i| {
        let bit = if i < len && pos + i <= 31 {
            (a >> (pos + i)) & 1 == 1
        } else {
            sbit
        };
        d | (bit as u32) << i
    })
}

pub fn intops(r: &mut Rng) -> Setup {
    let n = 64;
    let mut w = Vec::with_capacity(4 * n);
    for t in 0..n {
        let f = match t % 4 {
            // Fields past the word, and an empty one.
            0 => r.u32(),
            1 => 0,
            _ => r.u32() & 0x3f3f,
        };
        let a = if t % 8 == 5 { u32::MAX } else { r.u32() };
        w.extend([a, r.u32(), r.u32(), f]);
    }
    let mut e = Vec::with_capacity(16 * n);
    for t in w.chunks(4) {
        let (a, b, c, f) = (t[0], t[1], t[2], t[3]);
        let s0 = a as u64 + b as u64;
        let s1 = b as u64 + c as u64 + (s0 >> 32);
        let s2 = (c as u64 + a as u64 + (s1 >> 32)) as u32;
        let mh = ((a as u64 * b as u64) >> 32) + c as u64;
        let (mh, mc) = (mh as u32, f.wrapping_add((mh >> 32) as u32));
        e.extend([
            dp4a(a, b, c, false, false),
            dp4a(a, b, c, true, true),
            dp4a(a, b, c, false, true),
            dp4a(a, b, c, true, false),
            dp2a(a, b, c, false, false, true),
            dp2a(a, b, c, true, true, false),
            bfe(a, f, f >> 8, false),
            bfe(b, f, f >> 8, true),
            s0 as u32,
            s1 as u32,
            s2,
            a.wrapping_sub(c),
            mh,
            mc,
            mh,
            mc,
        ]);
    }
    let buffers = vec![buf_u32(0, &w), buf_u32(1, &vec![0; 16 * n])];
    let expected = vec![buf_u32(0, &w), buf_u32(1, &e)];
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// ATOM/RED .ADD.F32.FTZ.RN: subnormal operands and results flushed to zero of their sign.
fn f32_add_ftz(a: u32, b: u32) -> u32 {
    let flush = |x: u32| {
        if x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    let sum = f32::from_bits(flush(a)) + f32::from_bits(flush(b));
    if sum.is_nan() {
        0x7fff_ffff
    } else {
        flush(sum.to_bits())
    }
}

/// Each thread adds x to two words of its own (ATOMG and RED), values of mixed magnitude,
/// subnormals among them.
pub fn f32_atomics(r: &mut Rng) -> Setup {
    let n = 64;
    let word = |r: &mut Rng, k: usize| match k % 4 {
        0 => r.u32() & 0x807f_ffff, // subnormal
        1 => (r.u32() & 0x8fff_ffff) | 0x3000_0000,
        _ => (r.u32() & 0x83ff_ffff) | 0x3c00_0000,
    };
    let io: Vec<u32> = (0..2 * n).map(|k| word(r, k / 2 + k)).collect();
    let x: Vec<u32> = (0..n).map(|k| word(r, k + 1)).collect();
    let mut io_after = io.clone();
    for t in 0..n {
        io_after[2 * t] = f32_add_ftz(io[2 * t], x[t]);
        io_after[2 * t + 1] = f32_add_ftz(io[2 * t + 1], x[t]);
    }
    let old: Vec<u32> = (0..n).map(|t| io[2 * t]).collect();
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![buf_u32(0, &io), buf_u32(1, &x), buf_u32(2, &vec![0; n])],
        expected: vec![buf_u32(0, &io_after), buf_u32(1, &x), buf_u32(2, &old)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Generic atomics on global words: each thread's own add, CAS (half of them matching), exchange
/// and signed max.
pub fn generic_atomics(r: &mut Rng) -> Setup {
    let n = 64;
    let mut io: Vec<u32> = (0..4 * n + 4).map(|_| r.u32()).collect();
    let ins: Vec<u32> = (0..2 * n)
        .map(|k| {
            if k % 4 == 0 {
                io[4 * (k / 2) + 1]
            } else {
                r.u32()
            }
        })
        .collect();
    let start = io.clone();
    let mut out = vec![0u32; 2 * n];
    for t in 0..n {
        let (a, b) = (ins[2 * t], ins[2 * t + 1]);
        out[2 * t] = io[4 * t];
        io[4 * t] = io[4 * t].wrapping_add(a);
        out[2 * t + 1] = io[4 * t + 1];
        if io[4 * t + 1] == a {
            io[4 * t + 1] = b;
        }
        io[4 * t + 2] = b;
        io[4 * t + 3] = (io[4 * t + 3] as i32).max(a as i32) as u32;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers: vec![
            buf_u32(0, &start),
            buf_u32(1, &ins),
            buf_u32(2, &vec![0; 2 * n]),
        ],
        expected: vec![buf_u32(0, &io), buf_u32(1, &ins), buf_u32(2, &out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Every thread's value into one signed max (two warps).
pub fn contended_max(r: &mut Rng) -> Setup {
    let n = 64;
    let start = r.u32() | 0x8000_0000;
    let ins: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let max = ins.iter().fold(start as i32, |m, &v| m.max(v as i32)) as u32;
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[start, 7]), buf_u32(1, &ins)],
        expected: vec![buf_u32(0, &[max, 7]), buf_u32(1, &ins)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// Every thread's value added into one word through a CAS loop (two warps).
pub fn cas_loop(r: &mut Rng) -> Setup {
    let n = 64;
    let start = r.u32();
    let ins: Vec<u32> = (0..n).map(|_| r.u32() & 0xffff).collect();
    let sum = ins.iter().fold(start, |s, &v| s.wrapping_add(v));
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[start, 7]), buf_u32(1, &ins)],
        expected: vec![buf_u32(0, &[sum, 7]), buf_u32(1, &ins)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
