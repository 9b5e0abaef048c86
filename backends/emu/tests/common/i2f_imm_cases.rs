//! Case of `kernels/i2f_imm.ptx`: a division by 3 that ptxas does not fold (the divisor is an
//! `and.b32` of constants), whose sequence converts the immediate divisor with I2F.U32.RP R, 0x3.

use super::*;
use ptxforge_emu::Launch;

/// 64 threads: edge dividends (0, 1, 2, 3, u32::MAX and around multiples of 3) then random ones.
pub fn i2f_imm(r: &mut Rng) -> Setup {
    let n = 64;
    let mut a: Vec<u32> = vec![
        0,
        1,
        2,
        3,
        4,
        u32::MAX,
        u32::MAX - 1,
        u32::MAX - 2,
        0x5555_5555,
    ];
    while a.len() < n {
        a.push(r.u32());
    }
    let q: Vec<u32> = a.iter().map(|x| x / 3).collect();
    Setup {
        launch: Launch {
            grid: [1, 1, 1],
            block: [n as u32, 1, 1],
        },
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &a), buf_u32(1, &vec![0; n])],
        expected: vec![buf_u32(0, &a), buf_u32(1, &q)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
