//! Case of `kernels/div64.ptx`: 64-bit division and remainder (signed and unsigned) over edge
//! values (zero divisor, `i64::MIN / -1`, ±1, large and near-equal operands) and random ones,
//! with the results computed here.

use super::*;
use ptxforge_emu::Launch;

/// Division and remainder as ptxas 13.5's sequences define them where PTX leaves it open:
/// by zero both give all ones; `i64::MIN / -1 == i64::MIN` and `i64::MIN % -1 == 0` (wrapping).
fn expected(a: u64, b: u64) -> [u64; 4] {
    if b == 0 {
        return [u64::MAX; 4];
    }
    let (x, y) = (a as i64, b as i64);
    [
        x.wrapping_div(y) as u64,
        x.wrapping_rem(y) as u64,
        a / b,
        a % b,
    ]
}

const EDGES: &[u64] = &[
    0,
    1,
    u64::MAX,        // -1
    i64::MIN as u64, // 0x8000...
    i64::MAX as u64, // 0x7fff...
    2,
    3,
    u64::MAX - 1,  // -2
    0xffff_ffff,   // 2^32 - 1
    0x1_0000_0000, // 2^32
    0x1_0000_0001,
    0xffff_ffff_0000_0000,
    0x8000_0000_0000_0001,
    0x0123_4567_89ab_cdef,
    0xfedc_ba98_7654_3210,
    1 << 63 >> 1,
];

/// 64 threads: the first pairs are edge x edge combinations, the rest random (some with a small
/// divisor, some with near-equal operands).
pub fn div64(r: &mut Rng) -> Setup {
    let n = 64;
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    let pairs: &[(u64, u64)] = &[
        (i64::MIN as u64, u64::MAX),
        (i64::MIN as u64, 1),
        (i64::MIN as u64, i64::MIN as u64),
        (u64::MAX, u64::MAX),
        (u64::MAX, 1),
        (u64::MAX, 0),
        (0, 0),
        (1, 0),
        (i64::MIN as u64, 0),
        (0, u64::MAX),
        (i64::MAX as u64, u64::MAX - 1),
        (u64::MAX, 0xffff_ffff),
        (u64::MAX, 0x1_0000_0000),
        (0xffff_ffff_0000_0000, 0x1_0000_0001),
        (1, 2),
        (u64::MAX - 1, u64::MAX),
    ];
    for &(x, y) in pairs {
        a.push(x);
        b.push(y);
    }
    while a.len() < 40 {
        a.push(EDGES[r.u32() as usize % EDGES.len()]);
        b.push(EDGES[r.u32() as usize % EDGES.len()]);
    }
    while a.len() < n {
        let x = r.next();
        let y = match a.len() % 3 {
            0 => r.next() >> (r.u32() % 64),
            1 => (r.u32() % 100) as u64 + 1,
            _ => x.wrapping_sub((r.u32() % 5) as u64),
        };
        a.push(x);
        b.push(y);
    }
    let e: Vec<u64> = a
        .iter()
        .zip(&b)
        .flat_map(|(&x, &y)| expected(x, y))
        .collect();
    let inputs = vec![buf_u64(0, &a), buf_u64(1, &b)];
    let mut buffers = inputs.clone();
    buffers.push(buf_u64(2, &vec![0; 4 * n]));
    let mut expected = inputs;
    expected.push(buf_u64(2, &e));
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).u64(addr(2)).0,
        buffers,
        expected,
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// `div64_param`: 64 dividends (edges, then random) over one divisor passed as a parameter
/// (0, 1, u64::MAX, a 32-bit, or a random 64-bit one, by seed).
pub fn div64_param(r: &mut Rng) -> Setup {
    let n = 64;
    let d = match r.u32() % 5 {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => (r.u32() | 1) as u64,
        _ => r.next() >> (r.u32() % 32),
    };
    let mut a: Vec<u64> = EDGES.to_vec();
    while a.len() < n {
        a.push(r.next());
    }
    let q: Vec<u64> = a.iter().map(|&x| expected(x, d)[2]).collect();
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(d).u64(addr(1)).0,
        buffers: vec![buf_u64(0, &a), buf_u64(1, &vec![0; n])],
        expected: vec![buf_u64(0, &a), buf_u64(1, &q)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
