//! Inputs and reference results of the packed 16-bit integer kernel (`kernels/packed_i16.ptx`),
//! computed here half by half.

use super::*;
use ptxforge_emu::Launch;

/// Each 16-bit half of `a` and `b` through `f`, packed again.
fn halves(a: u32, b: u32, f: impl Fn(u16, u16) -> u16) -> u32 {
    let lo = f(a as u16, b as u16) as u32;
    let hi = f((a >> 16) as u16, (b >> 16) as u16) as u32;
    lo | hi << 16
}

fn relu(v: i16) -> u16 {
    v.max(0) as u16
}

pub fn packed_i16(r: &mut Rng) -> Setup {
    let n = 32;
    // Halves near 0 and near the signed limits, so sums wrap and signed and unsigned orders differ.
    let pick = |r: &mut Rng| match r.u32() % 3 {
        0 => r.u32() % 8 ^ if r.u32() % 2 == 0 { 0 } else { 0xfff8 },
        1 => 0x7ff8 + r.u32() % 16,
        _ => r.u32() & 0xffff,
    };
    let input: Vec<u32> = (0..2 * n).map(|_| pick(r) | pick(r) << 16).collect();
    let mut e = Vec::with_capacity(8 * n);
    for t in 0..n {
        let (a, b) = (input[2 * t], input[2 * t + 1]);
        let sum = halves(a, b, u16::wrapping_add);
        e.push(sum);
        e.push(halves(sum, b, u16::wrapping_add));
        e.push(halves(a, b, |x, y| (x as i16).min(y as i16) as u16));
        e.push(halves(a, b, |x, y| x.min(y)));
        e.push(halves(a, b, |x, y| (x as i16).max(y as i16) as u16));
        e.push(halves(a, b, |x, y| x.max(y)));
        e.push(halves(a, b, |x, y| relu((x as i16).min(y as i16))));
        e.push(halves(a, b, |x, y| relu((x as i16).max(y as i16))));
    }
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &vec![0; 8 * n])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &e)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
