//! The mma filetest kernels (`kernels/mma{75,80,89}.ptx`): each lane's fragments drawn as small
//! integers (so every product and sum is exact, whatever order the hardware adds in), the
//! matrices put together from the fragment layouts of the PTX ISA's mma section, and the product
//! computed here as plain matrix arithmetic.

use super::*;
use ptxforge_emu::Launch;

/// How a fragment element is encoded.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    F16,
    Bf16,
    Tf32,
    E4m3,
    E5m2,
    F32,
}

impl Kind {
    fn bits(self) -> usize {
        match self {
            Kind::F16 | Kind::Bf16 => 16,
            Kind::Tf32 | Kind::F32 => 32,
            Kind::E4m3 | Kind::E5m2 => 8,
        }
    }
}

/// The f16 bits of an integer of magnitude below 2048.
fn f16_of(v: i32) -> u32 {
    if v == 0 {
        return 0;
    }
    let (s, a) = ((v < 0) as u32, v.unsigned_abs());
    let e = 31 - a.leading_zeros();
    s << 15 | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff)
}

/// The encoding of the integer `v` (|v| <= 4 for the fp8 kinds); tf32 gets random low bits,
/// which the tensor unit ignores.
fn encode(k: Kind, v: i32, r: &mut Rng) -> u32 {
    match k {
        Kind::F16 => f16_of(v),
        Kind::Bf16 => (v as f32).to_bits() >> 16,
        Kind::Tf32 => (v as f32).to_bits() | (r.u32() & 0x1fff),
        Kind::F32 => (v as f32).to_bits(),
        Kind::E5m2 => f16_of(v) >> 8,
        Kind::E4m3 => {
            if v == 0 {
                return 0;
            }
            let (s, a) = ((v < 0) as u32, v.unsigned_abs());
            let e = 31 - a.leading_zeros();
            s << 7 | (e + 7) << 3 | ((a << (3 - e)) & 7)
        }
    }
}

/// Per lane: `regs` registers of `k` elements, each a random integer in -4..=4; returns the
/// words and the integers.
fn fragment(r: &mut Rng, k: Kind, regs: usize) -> (Vec<Vec<u32>>, Vec<Vec<i32>>) {
    let per = 32 / k.bits();
    let mut words = vec![vec![0u32; regs]; 32];
    let mut vals = vec![vec![0i32; regs * per]; 32];
    for lane in 0..32 {
        for i in 0..regs * per {
            let v = (r.u32() % 9) as i32 - 4;
            vals[lane][i] = v;
            let e = encode(k, v, r);
            let shift = (i % per) * k.bits();
            words[lane][i / per] |= if k.bits() == 32 { e } else { e << shift };
        }
    }
    (words, vals)
}

/// Position (row, column) of element `i` of lane `(g, t)` in A (m16 x kk) per the PTX ISA's figures.
fn a_pos(k: Kind, kk: usize, g: usize, t: usize, i: usize) -> (usize, usize) {
    match (k.bits(), kk) {
        (16, 16) => (g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)),
        (16, 8) => (g + 8 * (i >> 1), 2 * t + (i & 1)),
        (32, 8) => (g + 8 * (i & 1), t + 4 * (i >> 1)),
        (32, 4) => (g + 8 * i, t),
        (8, 32) => (g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)),
        (8, 16) => (g + 8 * (i >> 2), 4 * t + (i & 3)),
        _ => unreachable!(),
    }
}

/// Row of element `i` of lane `t` in B (kk x n8); its column is the lane's group `g`.
fn b_row(k: Kind, kk: usize, t: usize, i: usize) -> usize {
    match (k.bits(), kk) {
        (16, 16) => 2 * t + (i & 1) + 8 * (i >> 1),
        (16, 8) => 2 * t + i,
        (32, 8) => t + 4 * i,
        (32, 4) => t,
        (8, 32) => 4 * t + (i & 3) + 16 * (i >> 2),
        (8, 16) => 4 * t + i,
        _ => unreachable!(),
    }
}

/// One m16n8kk product: fragments of A, B and C in, each lane's D words out.
struct Mma {
    kk: usize,
    a: Kind,
    b: Kind,
    acc: Kind,
}

impl Mma {
    fn product(&self, a: &[Vec<i32>], b: &[Vec<i32>], c: &[Vec<i32>]) -> Vec<Vec<u32>> {
        let mut ma = vec![vec![0i64; self.kk]; 16];
        let mut mb = vec![vec![0i64; 8]; self.kk];
        let mut mc = vec![vec![0i64; 8]; 16];
        let c_pos = |g: usize, t: usize, i: usize| (g + 8 * (i >> 1), 2 * t + (i & 1));
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for (i, v) in a[lane].iter().enumerate().take(16 * self.kk / 32) {
                let (row, col) = a_pos(self.a, self.kk, g, t, i);
                ma[row][col] = *v as i64;
            }
            for (i, v) in b[lane].iter().enumerate().take(8 * self.kk / 32) {
                mb[b_row(self.b, self.kk, t, i)][g] = *v as i64;
            }
            for (i, v) in c[lane].iter().enumerate().take(4) {
                let (row, col) = c_pos(g, t, i);
                mc[row][col] = *v as i64;
            }
        }
        (0..32)
            .map(|lane| {
                let (g, t) = (lane / 4, lane % 4);
                let d: Vec<i64> = (0..4)
                    .map(|i| {
                        let (row, col) = c_pos(g, t, i);
                        (0..self.kk).map(|x| ma[row][x] * mb[x][col]).sum::<i64>() + mc[row][col]
                    })
                    .collect();
                if self.acc == Kind::F32 {
                    d.iter().map(|v| (*v as f32).to_bits()).collect()
                } else {
                    d.chunks(2)
                        .map(|p| f16_of(p[0] as i32) | f16_of(p[1] as i32) << 16)
                        .collect()
                }
            })
            .collect()
    }
}

/// A lane's record of 32 words: fragments at their word offsets.
struct Records(Vec<u32>);

impl Records {
    fn put(&mut self, at: usize, frag: &[Vec<u32>]) {
        for (lane, regs) in frag.iter().enumerate() {
            for (k, w) in regs.iter().enumerate() {
                self.0[32 * lane + at + k] = *w;
            }
        }
    }
}

fn setup(input: Records, output: Records) -> Setup {
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &[0; 1024]), buf_u32(1, &input.0)],
        expected: vec![buf_u32(0, &output.0), buf_u32(1, &input.0)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// The first `n` elements of each lane's values.
fn first(v: &[Vec<i32>], n: usize) -> Vec<Vec<i32>> {
    v.iter().map(|l| l[..n].to_vec()).collect()
}

/// `kernels/mma75.ptx`: m16n8k8 f16 inputs, f32 and f16 accumulators, one chained.
pub fn mma75(r: &mut Rng) -> Setup {
    use Kind::*;
    let (mut inp, mut out) = (Records(vec![0; 1024]), Records(vec![0; 1024]));
    let (a, av) = fragment(r, F16, 2);
    let (a2, a2v) = fragment(r, F16, 2);
    let (b, bv) = fragment(r, F16, 2);
    let (cf, cfv) = fragment(r, F32, 4);
    let (ch, chv) = fragment(r, F16, 2);
    inp.put(0, &a);
    inp.put(2, &b);
    inp.put(4, &a2);
    inp.put(6, &ch);
    inp.put(8, &cf);
    let k8 = |acc| Mma {
        kk: 8,
        a: F16,
        b: F16,
        acc,
    };
    let b0: Vec<Vec<i32>> = first(&bv, 2);
    let b1: Vec<Vec<i32>> = bv.iter().map(|l| l[2..4].to_vec()).collect();
    let d0 = k8(F32).product(&av, &b0, &cfv);
    out.put(0, &d0);
    out.put(4, &k8(F16).product(&a2v, &b1, &chv));
    let d0v: Vec<Vec<i32>> = d0
        .iter()
        .map(|l| l.iter().map(|w| f32::from_bits(*w) as i32).collect())
        .collect();
    out.put(8, &k8(F32).product(&a2v, &b0, &d0v));
    setup(inp, out)
}

/// The values of each lane's f32 result words (integers).
fn ints_of_f32(d: &[Vec<u32>]) -> Vec<Vec<i32>> {
    d.iter()
        .map(|l| l.iter().map(|w| f32::from_bits(*w) as i32).collect())
        .collect()
}

/// `kernels/mma80.ptx`: f16 (k8, k16; f16 and f32 accumulators), bf16 (k8, k16), tf32 (k4, k8).
pub fn mma80(r: &mut Rng) -> Setup {
    use Kind::*;
    let (mut inp, mut out) = (Records(vec![0; 1024]), Records(vec![0; 1024]));
    let (a, av) = fragment(r, F16, 4);
    let (b, bv) = fragment(r, F16, 2);
    let (ch, chv) = fragment(r, F16, 2);
    let (cf, cfv) = fragment(r, F32, 4);
    let (ab, abv) = fragment(r, Bf16, 4);
    let (bb, bbv) = fragment(r, Bf16, 2);
    let (at, atv) = fragment(r, Tf32, 4);
    let (bt, btv) = fragment(r, Tf32, 2);
    for (at_word, f) in [
        (0, &a),
        (4, &b),
        (6, &ch),
        (8, &cf),
        (12, &ab),
        (16, &bb),
        (18, &at),
        (22, &bt),
    ] {
        inp.put(at_word, f);
    }
    let mma = |kk, k, acc| Mma {
        kk,
        a: k,
        b: k,
        acc,
    };
    let d0 = mma(16, F16, F32).product(&av, &bv, &cfv);
    out.put(0, &d0);
    out.put(4, &mma(16, F16, F16).product(&av, &bv, &chv));
    out.put(
        6,
        &mma(8, F16, F16).product(&first(&av, 4), &first(&bv, 2), &chv),
    );
    out.put(8, &mma(16, Bf16, F32).product(&abv, &bbv, &cfv));
    out.put(
        12,
        &mma(8, Bf16, F32).product(&first(&abv, 4), &first(&bbv, 2), &cfv),
    );
    out.put(16, &mma(8, Tf32, F32).product(&atv, &btv, &cfv));
    out.put(
        20,
        &mma(4, Tf32, F32).product(&first(&atv, 2), &first(&btv, 1), &cfv),
    );
    out.put(24, &mma(16, F16, F32).product(&av, &bv, &ints_of_f32(&d0)));
    let b_hi: Vec<Vec<i32>> = bv.iter().map(|l| l[2..4].to_vec()).collect();
    out.put(28, &mma(8, F16, F32).product(&first(&av, 4), &b_hi, &cfv));
    setup(inp, out)
}

/// `kernels/mma89.ptx`: e4m3/e5m2 inputs, k16 and k32, f16 and f32 accumulators.
pub fn mma89(r: &mut Rng) -> Setup {
    use Kind::*;
    let (mut inp, mut out) = (Records(vec![0; 1024]), Records(vec![0; 1024]));
    let (a4, a4v) = fragment(r, E4m3, 4);
    let (b4, b4v) = fragment(r, E4m3, 2);
    let (ch, chv) = fragment(r, F16, 2);
    let (cf, cfv) = fragment(r, F32, 4);
    let (a5, a5v) = fragment(r, E5m2, 4);
    let (b5, b5v) = fragment(r, E5m2, 2);
    for (at_word, f) in [(0, &a4), (4, &b4), (6, &ch), (8, &cf), (12, &a5), (16, &b5)] {
        inp.put(at_word, f);
    }
    let mma = |kk, a, b, acc| Mma { kk, a, b, acc };
    let d0 = mma(32, E4m3, E4m3, F32).product(&a4v, &b4v, &cfv);
    out.put(0, &d0);
    out.put(4, &mma(32, E4m3, E5m2, F16).product(&a4v, &b5v, &chv));
    out.put(8, &mma(32, E5m2, E5m2, F32).product(&a5v, &b5v, &cfv));
    out.put(
        12,
        &mma(16, E4m3, E4m3, F32).product(&first(&a4v, 8), &first(&b4v, 4), &cfv),
    );
    out.put(
        16,
        &mma(16, E5m2, E4m3, F16).product(&first(&a5v, 8), &first(&b4v, 4), &chv),
    );
    out.put(
        20,
        &mma(32, E5m2, E4m3, F32).product(&a5v, &b4v, &ints_of_f32(&d0)),
    );
    setup(inp, out)
}
