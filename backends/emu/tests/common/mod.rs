//! Shared helpers of the emulator tests: compiling filetests with ptxas and with ptxforge, building
//! parameter buffers, deterministic inputs, and the per-kernel cases with their reference results.
#![allow(dead_code)]

pub mod arrive_cases;
pub mod atomic_generic_cases;
pub mod cases;
pub mod fp8_cases;
pub mod i2f_imm_cases;
pub mod int64_div_cases;
pub mod intops_cases;
pub mod mma_cases;
pub mod mma_int_cases;
pub mod packed_i16_cases;
pub mod scalar_cases;
pub mod special_cases;
pub mod sync_cases;
pub mod syscall_cases;
pub mod tma_cases;
pub mod uflo_cases;
pub mod video_cases;
pub mod volta_cases;
pub mod warp_match_cases;
pub mod wgmma_cases;
pub mod yield_cases;

use std::path::{Path, PathBuf};

use ptxforge_emu::{Buffer, Launch};

pub const SMS: [u32; 5] = [75, 80, 86, 89, 90];

pub fn filetest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pipeline/driver/tests/filetests")
}

/// A test PTX file: `kernels/...` lives in this crate's tests, anything else is a filetest.
pub fn ptx_path(file: &str) -> PathBuf {
    if file.starts_with("kernels/") {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(file)
    } else {
        filetest_dir().join(file)
    }
}

pub fn read_ptx(file: &str) -> String {
    std::fs::read_to_string(ptx_path(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The architecture a PTX file targets (`.target sm_NN`): its cases run only on that one and later.
pub fn target_sm(file: &str) -> u32 {
    let text = read_ptx(file);
    let target = text
        .lines()
        .find_map(|l| l.trim().strip_prefix(".target sm_"));
    target
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .unwrap_or(0)
}

/// Whether `file` targets an architecture-specific `a` target (`.target sm_90a`: wgmma), which
/// it is compiled for at its own architecture.
pub fn accelerated(file: &str) -> bool {
    read_ptx(file)
        .lines()
        .find_map(|l| l.trim().strip_prefix(".target sm_"))
        .is_some_and(|t| {
            t.trim_start_matches(|c: char| c.is_ascii_digit())
                .starts_with('a')
        })
}

/// Compiles `file` with NVIDIA's ptxas for `sm_<sm>`; None when ptxas is not installed.
pub fn ptxas_cubin(file: &str, sm: u32) -> Option<Vec<u8>> {
    let arch = format!("sm_{sm}{}", if accelerated(file) { "a" } else { "" });
    let cubin = ptxforge_sass::nvtools::ptxas_cubin_for(&ptx_path(file), &arch)?;
    Some(cubin.unwrap_or_else(|e| panic!("ptxas failed on {file} for sm_{sm}: {e}")))
}

/// Compiles `file` with ptxforge; Err carries the diagnostics.
pub fn our_cubin(file: &str, sm: u32) -> Result<Vec<u8>, String> {
    // As ptxas (and our CLI) refuse a `.target` above the architecture compiled for.
    let ptx = read_ptx(file);
    let target = ptx.lines().find_map(|l| {
        let t = l
            .trim()
            .strip_prefix(".target")?
            .trim()
            .strip_prefix("sm_")?;
        t.trim_end_matches(|c: char| !c.is_ascii_digit())
            .parse::<u32>()
            .ok()
    });
    if target.is_some_and(|t| t > sm) {
        return Err(format!(
            "{file}: .target sm_{} is above sm_{sm}",
            target.unwrap()
        ));
    }
    let opts = ptxforge_pipeline::CompileOptions {
        sm: if accelerated(file) {
            ptxforge_sass::arch::Sm::accelerated(sm)
        } else {
            ptxforge_sass::arch::Sm::new(sm)
        },
        ..Default::default()
    };
    let out = ptxforge_pipeline::compile_module(&ptx, file, &opts);
    out.cubin.ok_or_else(|| {
        out.diagnostics
            .iter()
            .map(|d| format!("{d:?}"))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// A parameter buffer laid out as PTX does (natural alignment, declaration order).
#[derive(Default)]
pub struct Params(pub Vec<u8>);

impl Params {
    fn push(mut self, bytes: &[u8]) -> Self {
        while self.0.len() % bytes.len() != 0 {
            self.0.push(0);
        }
        self.0.extend_from_slice(bytes);
        self
    }
    pub fn u64(self, v: u64) -> Self {
        self.push(&v.to_le_bytes())
    }
    pub fn u32(self, v: u32) -> Self {
        self.push(&v.to_le_bytes())
    }
    pub fn u8(self, v: u8) -> Self {
        self.push(&[v])
    }
    pub fn f32(self, v: f32) -> Self {
        self.push(&v.to_le_bytes())
    }
}

/// Address of the `n`-th buffer.
pub fn addr(n: usize) -> u64 {
    0x7f00_0000_0000 + (n as u64) * 0x10_0000
}

/// Deterministic pseudo-random words (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    /// A float in [-range, range) with a few specials mixed in.
    pub fn f32(&mut self, range: f32) -> f32 {
        match self.next() % 16 {
            0 => -0.0,
            1 => 0.0,
            _ => ((self.u32() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * range,
        }
    }
}

pub fn buf_u32(n: usize, v: &[u32]) -> Buffer {
    Buffer {
        addr: addr(n),
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
pub fn buf_f32(n: usize, v: &[f32]) -> Buffer {
    Buffer {
        addr: addr(n),
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
pub fn buf_u64(n: usize, v: &[u64]) -> Buffer {
    Buffer {
        addr: addr(n),
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}
pub fn buf_bytes(n: usize, v: Vec<u8>) -> Buffer {
    Buffer {
        addr: addr(n),
        bytes: v,
    }
}
pub fn u32s(b: &Buffer) -> Vec<u32> {
    b.bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn f32s(b: &Buffer) -> Vec<f32> {
    u32s(b).into_iter().map(f32::from_bits).collect()
}
pub fn u64s(b: &Buffer) -> Vec<u64> {
    b.bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// One kernel launch with its inputs and the expected global memory afterwards.
pub struct Setup {
    pub launch: Launch,
    pub params: Vec<u8>,
    pub buffers: Vec<Buffer>,
    pub expected: Vec<Buffer>,
    /// Buffers whose 32-bit words are compared as multisets (results of contended atomics).
    pub unordered: Vec<usize>,
    /// How many f32 ulps a word may differ from the expected one (0: bit-exact), for results of
    /// hardware approximations (MUFU) whose tables are not public.
    pub f32_ulps: u32,
}

/// A filetest kernel and how to run and check it.
pub struct Case {
    pub file: &'static str,
    pub kernel: &'static str,
    pub setup: fn(&mut Rng) -> Setup,
}

pub(crate) fn launch1(block: u32) -> Launch {
    Launch {
        grid: [1, 1, 1],
        block: [block, 1, 1],
    }
}

/// The distance in f32 ulps between two f32 bit patterns (u32::MAX when either is NaN).
fn ulp_distance(a: u32, b: u32) -> u32 {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() || fb.is_nan() {
        return u32::MAX;
    }
    // Maps the sign-magnitude bits to a monotonic integer line.
    let line = |v: u32| {
        if v >> 31 == 1 {
            -((v & 0x7fff_ffff) as i64)
        } else {
            v as i64
        }
    };
    (line(a) - line(b)).unsigned_abs().min(u32::MAX as u64) as u32
}

/// Compares the buffers bit-exactly, or within `f32_ulps` (the `unordered` ones as sorted words),
/// naming the first differing 32-bit word.
pub fn compare(got: &[Buffer], s: &Setup) -> Result<(), String> {
    for (n, (g, e)) in got.iter().zip(&s.expected).enumerate() {
        let (mut gw, mut ew) = (u32s(g), u32s(e));
        if s.unordered.contains(&n) {
            gw.sort_unstable();
            ew.sort_unstable();
        }
        let far = |(a, b): (&u32, &u32)| a != b && ulp_distance(*a, *b) > s.f32_ulps;
        if gw.len() != ew.len() || gw.iter().zip(&ew).any(far) {
            let k = gw.iter().zip(&ew).position(far).unwrap_or(0);
            return Err(format!(
                "buffer {n} word {k}: got {:#010x}, expected {:#010x}",
                gw[k], ew[k]
            ));
        }
    }
    Ok(())
}
