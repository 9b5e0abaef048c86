//! Case of `kernels/vabsdiff4.ptx`: VABSDIFF4.U8 and VABSDIFF4.U8.ACC against byte differences
//! computed here.

use super::*;

/// Per thread: the four byte differences of a and b, then their sum plus c. Every other thread
/// takes bytes 0x00 or 0xff in a and b (the largest differences) and c near 2^32 (the sum wraps).
pub fn vabsdiff4(r: &mut Rng) -> Setup {
    let n = 64;
    let w: Vec<u32> = (0..3 * n)
        .map(|k| match k % 6 {
            3 | 4 => r.u32() & 0xff00_ff00 | (r.u32() & 1) * 0x00ff_00ff,
            5 => u32::MAX - (r.u32() & 0x3ff),
            _ => r.u32(),
        })
        .collect();
    let mut e = Vec::with_capacity(2 * n);
    for t in w.chunks(3) {
        let (a, b, c) = (t[0], t[1], t[2]);
        let diff = |k: u32| u32::from(((a >> (8 * k)) as u8).abs_diff((b >> (8 * k)) as u8));
        let bytes = (0..4).fold(0, |word, k| word | diff(k) << (8 * k));
        let sum = (0..4).fold(c, |s, k| s.wrapping_add(diff(k)));
        e.extend([bytes, sum]);
    }
    let buffers = vec![buf_u32(0, &w), buf_u32(1, &vec![0; 2 * n])];
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
