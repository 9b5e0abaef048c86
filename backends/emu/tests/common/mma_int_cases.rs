//! Cases of `kernels/mma_int{75,80,90}.ptx`: one mma.sync form per kernel over one warp, with the
//! expected D computed here from the PTX ISA's fragment layouts (integer sums exact, wrapping or
//! clamped with `.satfinite`; b1 popcounts of AND/XOR; f64 sums of small integers, exact), and
//! `kernels/cvt_pack.ptx`, the int8 epilogue's cvt.pack.sat.

use super::*;

/// What an mma form computes.
#[derive(Copy, Clone)]
enum Kind {
    Int { sat: bool },
    Bin { and: bool },
    F64,
}

/// One form: M, K, A's and B's element bits and signedness, and what it computes.
#[derive(Copy, Clone)]
struct Form {
    m: usize,
    k: usize,
    bits: u32,
    signed: [bool; 2],
    kind: Kind,
}

impl Form {
    fn per(&self) -> usize {
        if self.bits == 64 {
            1
        } else {
            32 / self.bits as usize
        }
    }
    /// Words of A's, B's and C's fragment per lane.
    fn words(&self) -> [usize; 3] {
        let w = |elems: usize| elems * self.bits as usize / 32 / 32;
        let cd = self.m * 8 / 32 * if self.bits == 64 { 2 } else { 1 };
        [w(self.m * self.k), w(self.k * 8), cd]
    }
}

fn field(words: &[u32], bits: u32, e: usize, signed: bool) -> i128 {
    if bits == 64 {
        return f64::from_bits(words[2 * e] as u64 | (words[2 * e + 1] as u64) << 32) as i128;
    }
    let per = 32 / bits as usize;
    let raw = (words[e / per] >> (bits * (e % per) as u32)) as i64 & ((1i64 << bits) - 1);
    if signed && raw >> (bits - 1) == 1 {
        (raw - (1 << bits)) as i128
    } else {
        raw as i128
    }
}

/// The expected `out` (8 words per lane) for `input` (32 words per lane).
fn reference(f: Form, input: &[u32]) -> Vec<u32> {
    let (m, k, per) = (f.m, f.k, f.per());
    let mut a = vec![vec![0i128; k]; m];
    let mut b = vec![vec![0i128; 8]; k];
    let mut c = vec![vec![0i128; 8]; m];
    let [na, nb, nc] = f.words();
    let elems = |words: usize| words * 32 / f.bits as usize;
    let cd_place = |lane: usize, e: usize| {
        let row = if m == 16 {
            lane / 4 + 8 * (e / 2)
        } else {
            lane / 4
        };
        (row, 2 * (lane % 4) + e % 2)
    };
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        let words = &input[32 * l..32 * l + 32];
        for e in 0..elems(na) {
            let r = e / per;
            let row = if m == 16 { g + 8 * (r % 2) } else { g };
            a[row][t * per + e % per + 4 * per * (r / 2)] =
                field(&words[..na], f.bits, e, f.signed[0]);
        }
        for e in 0..elems(nb) {
            b[t * per + e % per + 4 * per * (e / per)][g] =
                field(&words[16..16 + nb], f.bits, e, f.signed[1]);
        }
        for e in 0..m * 8 / 32 {
            let (row, col) = cd_place(l, e);
            let cbits = if f.bits == 64 { 64 } else { 32 };
            c[row][col] = field(&words[24..24 + nc], cbits, e, true);
        }
    }
    let mut out = vec![0u32; 256];
    for l in 0..32 {
        for e in 0..m * 8 / 32 {
            let (row, col) = cd_place(l, e);
            let terms = (0..k).map(|x| match f.kind {
                Kind::Bin { and: true } => a[row][x] & b[x][col],
                Kind::Bin { and: false } => a[row][x] ^ b[x][col],
                _ => a[row][x] * b[x][col],
            });
            let s = c[row][col] + terms.sum::<i128>();
            match f.kind {
                Kind::F64 => {
                    let v = (s as f64).to_bits();
                    out[8 * l + 2 * e] = v as u32;
                    out[8 * l + 2 * e + 1] = (v >> 32) as u32;
                }
                Kind::Int { sat: true } => {
                    out[8 * l + e] = s.clamp(i32::MIN as i128, i32::MAX as i128) as i32 as u32
                }
                _ => out[8 * l + e] = s as i32 as u32,
            }
        }
    }
    out
}

/// Random fragments; accumulators near the s32 limits half the time (so `.satfinite` clamps and
/// plain sums wrap), f64 elements small integers.
fn setup(f: Form, r: &mut Rng) -> Setup {
    let mut input = vec![0u32; 1024];
    for l in 0..32 {
        for j in 0..32 {
            let v = r.u32();
            input[32 * l + j] = match (f.kind, j >= 24) {
                (Kind::F64, _) => {
                    let x = ((v % 33) as i32 - 16) as f64;
                    let bits = x.to_bits();
                    if j % 2 == 0 {
                        bits as u32
                    } else {
                        (bits >> 32) as u32
                    }
                }
                (_, true) => match v % 4 {
                    0 => (i32::MAX - (r.u32() % 400_000) as i32) as u32,
                    1 => (i32::MIN + (r.u32() % 400_000) as i32) as u32,
                    _ => v,
                },
                _ => v,
            };
        }
        if let Kind::F64 = f.kind {
            // Each f64 is a word pair: rebuild the pairs from one value each.
            for j in (0..32).step_by(2) {
                let x = ((r.u32() % 33) as i32 - 16) as f64;
                input[32 * l + j] = x.to_bits() as u32;
                input[32 * l + j + 1] = (x.to_bits() >> 32) as u32;
            }
        }
    }
    let out = reference(f, &input);
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 256]), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &input)],
        unordered: vec![],
        f32_ulps: 0,
    }
}

const fn int(m: usize, k: usize, bits: u32, signed: [bool; 2], sat: bool) -> Form {
    Form {
        m,
        k,
        bits,
        signed,
        kind: Kind::Int { sat },
    }
}
const fn bin(m: usize, k: usize, and: bool) -> Form {
    Form {
        m,
        k,
        bits: 1,
        signed: [false; 2],
        kind: Kind::Bin { and },
    }
}
const fn dbl(m: usize, k: usize) -> Form {
    Form {
        m,
        k,
        bits: 64,
        signed: [true; 2],
        kind: Kind::F64,
    }
}

macro_rules! cases {
    ($($name:ident = $form:expr;)*) => {
        $(pub fn $name(r: &mut Rng) -> Setup { setup($form, r) })*
    };
}

cases! {
    imma_s8_sat = int(8, 16, 8, [true, true], true);
    imma_u8s8 = int(8, 16, 8, [false, true], false);
    imma_s4u4_sat = int(8, 32, 4, [true, false], true);
    bmma_xor_m8 = bin(8, 128, false);
    imma_16816_s8u8 = int(16, 16, 8, [true, false], false);
    imma_16832_sat = int(16, 32, 8, [true, true], true);
    imma_16832_u4_sat = int(16, 32, 4, [false, false], true);
    imma_16864_s4 = int(16, 64, 4, [true, true], false);
    bmma_and_k128 = bin(16, 128, true);
    bmma_xor_k256 = bin(16, 256, false);
    dmma_m8n8k4 = dbl(8, 4);
    dmma_m16n8k4 = dbl(16, 4);
    dmma_m16n8k8 = dbl(16, 8);
    dmma_m16n8k16 = dbl(16, 16);
}

/// `kernels/cvt_pack.ptx`: per thread, s8 and u8 packs of four words (two shifted down).
pub fn cvt_pack(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..256).map(|_| r.u32()).collect();
    let pack = |a: u32, b: u32, c: u32, signed: bool| {
        let (lo, hi) = if signed { (-128, 127) } else { (0, 255) };
        let sat = |v: u32| ((v as i32).clamp(lo, hi) as u32) & 0xff;
        (c & 0xffff) << 16 | sat(a) << 8 | sat(b)
    };
    let mut out = vec![0u32; 256];
    for t in 0..64 {
        let w = &input[4 * t..4 * t + 4];
        let (x, y, z, v) = (
            w[0],
            ((w[1] as i32) >> 23) as u32,
            w[2],
            ((w[3] as i32) >> 24) as u32,
        );
        let s6 = pack(z, v, 0, true);
        let u8_ = pack(z, v, 0, false);
        out[4 * t] = pack(x, y, s6, true);
        out[4 * t + 1] = pack(x, y, u8_, false);
        out[4 * t + 2] = pack(y, v, z, true);
        out[4 * t + 3] = s6;
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [64, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 256]), buf_u32(1, &input)],
        expected: vec![buf_u32(0, &out), buf_u32(1, &input)],
        unordered: vec![],
        f32_ulps: 0,
    }
}
