//! Cases of `kernels/syscalls.ptx`: printf and assert calls (CALL.ABS.NOINC to vprintf and
//! __assertfail, whose models record and return); the buffers the kernels leave, computed here.
//! `tests/syscalls.rs` checks the records themselves.

use super::*;
use ptxforge_emu::Launch;

fn launch32() -> Launch {
    Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
    }
}

/// out[t] = in[t] * 3 + in[t + 32], the odd threads printing in between.
pub fn printf_calls(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..64).map(|_| r.u32()).collect();
    let out: Vec<u32> = (0..32)
        .map(|t| input[t].wrapping_mul(3).wrapping_add(input[t + 32]))
        .collect();
    Setup {
        launch: launch32(),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &vec![0; 32])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}

/// out[t] = in[t] + t, the threads whose word is 5 mod 8 failing the assert in between.
pub fn assert_calls(r: &mut Rng) -> Setup {
    let input: Vec<u32> = (0..32).map(|_| r.u32()).collect();
    let out: Vec<u32> = (0..32).map(|t| input[t].wrapping_add(t as u32)).collect();
    Setup {
        launch: launch32(),
        params: Params::default().u64(addr(0)).u64(addr(1)).0,
        buffers: vec![buf_u32(0, &input), buf_u32(1, &vec![0; 32])],
        expected: vec![buf_u32(0, &input), buf_u32(1, &out)],
        f32_ulps: 0,
        unordered: vec![],
    }
}
