//! Test helpers: load PTX files of the repository, build buffers and parameters, run kernels.
#![allow(dead_code)]

use std::path::PathBuf;

use ptxforge_interp::{pack_params, run_kernel, Buffer, Launch, Limits, RunStats, SimError};
use ptxforge_ptx::ast::Module;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn load(rel: &str) -> Module {
    let path = repo_root().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&src)
}

pub fn parse(src: &str) -> Module {
    ptxforge_ptx::parse_module(src, "test.ptx")
        .unwrap_or_else(|d| panic!("parse errors: {:?}", d.first().map(|x| x.to_string())))
}

/// Base addresses of the test buffers.
pub const A: u64 = 0x1000_0000;
pub const B: u64 = 0x2000_0000;
pub const C: u64 = 0x3000_0000;
pub const D: u64 = 0x4000_0000;
pub const E: u64 = 0x5000_0000;

pub fn buf<T: Copy>(addr: u64, vals: &[T], to_bytes: impl Fn(T) -> Vec<u8>) -> Buffer {
    Buffer {
        addr,
        bytes: vals.iter().flat_map(|v| to_bytes(*v)).collect(),
    }
}

pub fn f32s(addr: u64, v: &[f32]) -> Buffer {
    buf(addr, v, |x| x.to_le_bytes().to_vec())
}
pub fn u32s(addr: u64, v: &[u32]) -> Buffer {
    buf(addr, v, |x| x.to_le_bytes().to_vec())
}
pub fn u64s(addr: u64, v: &[u64]) -> Buffer {
    buf(addr, v, |x| x.to_le_bytes().to_vec())
}
pub fn zeros(addr: u64, n: usize) -> Buffer {
    Buffer {
        addr,
        bytes: vec![0; n],
    }
}

pub fn read_f32(b: &Buffer) -> Vec<f32> {
    b.bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn read_u32(b: &Buffer) -> Vec<u32> {
    b.bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn read_u64(b: &Buffer) -> Vec<u64> {
    b.bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn launch(grid: [u32; 3], block: [u32; 3]) -> Launch {
    Launch { grid, block }
}

/// Runs `entry` with one value per parameter.
pub fn run(
    m: &Module,
    entry: &str,
    l: Launch,
    params: &[u64],
    bufs: &mut [Buffer],
) -> Result<RunStats, SimError> {
    let p = pack_params(m, entry, params).expect("params");
    run_kernel(m, entry, &l, &p, bufs, &Limits::default())
}

/// A small deterministic generator (xorshift) for test inputs.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn small_f32(&mut self) -> f32 {
        (self.next() % 2001) as f32 / 8.0 - 125.0
    }
}
