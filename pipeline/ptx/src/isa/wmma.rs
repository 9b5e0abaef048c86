//! The register fragments of `wmma.load`, `wmma.store` and `wmma.mma` as data: which matrix
//! element each lane holds in each element of each register, as ptxas 13.5 lays them out on
//! sm_75..sm_90 (the PTX ISA leaves the layout unspecified; these are read from ptxas's code run
//! in the emulator, and the three-way kernels check them).
//!
//! Every fragment is the `mma.sync` fragments of its tiles put one after another: with
//! `g = lane / 4` and `t = lane % 4`, element `e` of distinct register `r` sits at
//! `origins[r] + g * g_step + t * t_step + e * elem_step` (row, column) of the matrix (A is M x K,
//! B is K x N, C and D are M x N), whatever the memory layout. Registers past the distinct ones
//! repeat them (`r % origins.len()`): an f16 A or B fragment always has 8 registers, and
//! `wmma.mma` reads only the first copies. m8n32k16 is m32n8k16 transposed (D^T = B^T A^T), so its
//! B and float C fragments are laid out as m32n8k16's A and C transposed; its s32 C is the
//! transposed one from sm_80 on and four m8n8 tiles side by side on sm_75.

/// Which operand a fragment is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WmmaMatrix {
    A,
    B,
    /// C, and D (`wmma.load.c`, `wmma.store.d`).
    C,
}

/// Where each lane's elements of one fragment are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentLayout {
    /// Registers of the PTX operand (64-bit ones for f64).
    pub regs: usize,
    /// (row, column) of element 0 of each distinct register in lane 0.
    pub origins: &'static [(u32, u32)],
    /// Elements per register (packed from the low bits up).
    pub per_reg: u32,
    /// Bits per element.
    pub elem_bits: u32,
    /// From one element of a register to the next.
    pub elem_step: (u32, u32),
    /// From lane `4 g + t` to lane `4 g + t + 1`.
    pub t_step: (u32, u32),
    /// From lane `4 g + t` to lane `4 (g + 1) + t`.
    pub g_step: (u32, u32),
}

impl FragmentLayout {
    /// (row, column) of element `e` of register `reg` in `lane`.
    pub fn position(&self, lane: u32, reg: usize, e: u32) -> (u32, u32) {
        let (r0, c0) = self.origins[reg % self.origins.len()];
        let (g, t) = (lane / 4, lane % 4);
        (
            r0 + g * self.g_step.0 + t * self.t_step.0 + e * self.elem_step.0,
            c0 + g * self.g_step.1 + t * self.t_step.1 + e * self.elem_step.1,
        )
    }

    /// The distinct registers (those `wmma.mma` reads).
    pub fn distinct(&self) -> usize {
        self.origins.len()
    }
}

/// M, N and K of a wmma shape (`m16n16k16`).
pub fn wmma_dims(shape: &str) -> Option<(u32, u32, u32)> {
    let rest = shape.strip_prefix('m')?;
    let (m, rest) = rest.split_once('n')?;
    let (n, k) = rest.split_once('k')?;
    Some((m.parse().ok()?, n.parse().ok()?, k.parse().ok()?))
}

const ROW: (u32, u32) = (0, 1);
const COL: (u32, u32) = (1, 0);

/// A layout whose lanes step along columns with `t` and rows with `g` (A, and C of most shapes).
const fn across(origins: &'static [(u32, u32)], per_reg: u32, bits: u32) -> FragmentLayout {
    FragmentLayout {
        regs: origins.len(),
        origins,
        per_reg,
        elem_bits: bits,
        elem_step: ROW,
        t_step: (0, per_reg),
        g_step: (1, 0),
    }
}

/// The transposed kind: registers run down a column, `t` steps along rows and `g` along
/// columns (B, and m8n32k16's float C).
const fn down(origins: &'static [(u32, u32)], per_reg: u32, bits: u32) -> FragmentLayout {
    FragmentLayout {
        regs: origins.len(),
        origins,
        per_reg,
        elem_bits: bits,
        elem_step: COL,
        t_step: (per_reg, 0),
        g_step: (0, 1),
    }
}

/// A layout of one element per register whose pairs of registers are adjacent columns (C of
/// 32-bit elements), `t` stepping two columns.
const fn pairs_across(origins: &'static [(u32, u32)], bits: u32) -> FragmentLayout {
    FragmentLayout {
        regs: origins.len(),
        origins,
        per_reg: 1,
        elem_bits: bits,
        elem_step: ROW,
        t_step: (0, 2),
        g_step: (1, 0),
    }
}

const A16_M16: &[(u32, u32)] = &[(0, 0), (8, 0), (0, 8), (8, 8)];
const A16_M32: &[(u32, u32)] = &[
    (0, 0),
    (8, 0),
    (0, 8),
    (8, 8),
    (16, 0),
    (24, 0),
    (16, 8),
    (24, 8),
];
const A16_M8: &[(u32, u32)] = &[(0, 0), (0, 8)];
const B16_N16: &[(u32, u32)] = &[(0, 0), (8, 0), (0, 8), (8, 8)];
const B16_N8: &[(u32, u32)] = &[(0, 0), (8, 0)];
const B16_N32: &[(u32, u32)] = &[
    (0, 0),
    (0, 8),
    (8, 0),
    (8, 8),
    (0, 16),
    (0, 24),
    (8, 16),
    (8, 24),
];
const C32_M16N16: &[(u32, u32)] = &[
    (0, 0),
    (0, 1),
    (8, 0),
    (8, 1),
    (0, 8),
    (0, 9),
    (8, 8),
    (8, 9),
];
const C32_M32N8: &[(u32, u32)] = &[
    (0, 0),
    (0, 1),
    (8, 0),
    (8, 1),
    (16, 0),
    (16, 1),
    (24, 0),
    (24, 1),
];
const C32_M8N32: &[(u32, u32)] = &[
    (0, 0),
    (1, 0),
    (0, 8),
    (1, 8),
    (0, 16),
    (1, 16),
    (0, 24),
    (1, 24),
];
const C32_M8N32_SM75: &[(u32, u32)] = &[
    (0, 0),
    (0, 1),
    (0, 8),
    (0, 9),
    (0, 16),
    (0, 17),
    (0, 24),
    (0, 25),
];
const C16_M16N16: &[(u32, u32)] = &[(0, 0), (8, 0), (0, 8), (8, 8)];
const C16_M32N8: &[(u32, u32)] = &[(0, 0), (8, 0), (16, 0), (24, 0)];
const C16_M8N32: &[(u32, u32)] = &[(0, 0), (0, 8), (0, 16), (0, 24)];
const A8_M16: &[(u32, u32)] = &[(0, 0), (8, 0)];
const A8_M32: &[(u32, u32)] = &[(0, 0), (8, 0), (16, 0), (24, 0)];
const B8_N16: &[(u32, u32)] = &[(0, 0), (0, 8)];
const B8_N32: &[(u32, u32)] = &[(0, 0), (0, 8), (0, 16), (0, 24)];
const ONE: &[(u32, u32)] = &[(0, 0)];
const TF32_A: &[(u32, u32)] = &[(0, 0), (8, 0), (0, 4), (8, 4)];
const TF32_B: &[(u32, u32)] = &[(0, 0), (4, 0), (0, 8), (4, 8)];
const C_M8N8: &[(u32, u32)] = &[(0, 0), (0, 1)];

/// The layout of `matrix`'s fragment of `shape` with elements of type `elem` (`f16`, `bf16`,
/// `tf32`, `f64`, `s8`, `u8`, `s4`, `u4`, `b1`; for C `f16`, `f32`, `s32`, `f64`) on `sm`;
/// `None` for a combination the PTX ISA does not define.
pub fn wmma_fragment(
    matrix: WmmaMatrix,
    shape: &str,
    elem: &str,
    sm: u32,
) -> Option<FragmentLayout> {
    use WmmaMatrix::*;
    let f16_copies = |l: FragmentLayout| FragmentLayout { regs: 8, ..l };
    Some(match (matrix, shape, elem) {
        (A, "m16n16k16", "f16") => f16_copies(across(A16_M16, 2, 16)),
        (A, "m32n8k16", "f16") => f16_copies(across(A16_M32, 2, 16)),
        (A, "m8n32k16", "f16") => f16_copies(across(A16_M8, 2, 16)),
        (A, "m16n16k16", "bf16") => across(A16_M16, 2, 16),
        (A, "m32n8k16", "bf16") => across(A16_M32, 2, 16),
        (A, "m8n32k16", "bf16") => across(A16_M8, 2, 16),
        (B, "m16n16k16", "f16") => f16_copies(down(B16_N16, 2, 16)),
        (B, "m32n8k16", "f16") => f16_copies(down(B16_N8, 2, 16)),
        (B, "m8n32k16", "f16") => f16_copies(down(B16_N32, 2, 16)),
        (B, "m16n16k16", "bf16") => down(B16_N16, 2, 16),
        (B, "m32n8k16", "bf16") => down(B16_N8, 2, 16),
        (B, "m8n32k16", "bf16") => down(B16_N32, 2, 16),
        (A, "m16n16k16", "s8" | "u8") => across(A8_M16, 4, 8),
        (A, "m32n8k16", "s8" | "u8") => across(A8_M32, 4, 8),
        (A, "m8n32k16", "s8" | "u8") => across(ONE, 4, 8),
        (B, "m16n16k16", "s8" | "u8") => down(B8_N16, 4, 8),
        (B, "m32n8k16", "s8" | "u8") => down(ONE, 4, 8),
        (B, "m8n32k16", "s8" | "u8") => down(B8_N32, 4, 8),
        (C, "m16n16k16" | "m16n16k8", "f32" | "s32") => pairs_across(C32_M16N16, 32),
        (C, "m32n8k16", "f32" | "s32") => pairs_across(C32_M32N8, 32),
        (C, "m8n32k16", "s32") if sm < 80 => pairs_across(C32_M8N32_SM75, 32),
        (C, "m8n32k16", "f32" | "s32") => FragmentLayout {
            elem_step: COL,
            t_step: (2, 0),
            g_step: (0, 1),
            ..pairs_across(C32_M8N32, 32)
        },
        (C, "m16n16k16", "f16") => across(C16_M16N16, 2, 16),
        (C, "m32n8k16", "f16") => across(C16_M32N8, 2, 16),
        (C, "m8n32k16", "f16") => down(C16_M8N32, 2, 16),
        (A, "m16n16k8", "tf32") => FragmentLayout {
            t_step: (0, 1),
            ..across(TF32_A, 1, 32)
        },
        (B, "m16n16k8", "tf32") => FragmentLayout {
            t_step: (1, 0),
            ..down(TF32_B, 1, 32)
        },
        (A, "m8n8k4", "f64") => across(ONE, 1, 64),
        (B, "m8n8k4", "f64") => down(ONE, 1, 64),
        (C, "m8n8k4", "f64") => pairs_across(C_M8N8, 64),
        (A, "m8n8k32", "s4" | "u4") => across(ONE, 8, 4),
        (B, "m8n8k32", "s4" | "u4") => down(ONE, 8, 4),
        (A, "m8n8k128", "b1") => across(ONE, 32, 1),
        (B, "m8n8k128", "b1") => down(ONE, 32, 1),
        (C, "m8n8k32" | "m8n8k128", "s32") => pairs_across(C_M8N8, 32),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fragment covers its matrix exactly once over the warp (the distinct registers).
    #[test]
    fn fragments_tile_their_matrices() {
        let forms: &[(&str, &[&str], &[&str])] = &[
            (
                "m16n16k16",
                &["f16", "bf16", "s8", "u8"],
                &["f16", "f32", "s32"],
            ),
            (
                "m32n8k16",
                &["f16", "bf16", "s8", "u8"],
                &["f16", "f32", "s32"],
            ),
            (
                "m8n32k16",
                &["f16", "bf16", "s8", "u8"],
                &["f16", "f32", "s32"],
            ),
            ("m16n16k8", &["tf32"], &["f32"]),
            ("m8n8k4", &["f64"], &["f64"]),
            ("m8n8k32", &["s4", "u4"], &["s32"]),
            ("m8n8k128", &["b1"], &["s32"]),
        ];
        for sm in [75, 80] {
            for (shape, ab, cs) in forms {
                let (m, n, k) = wmma_dims(shape).unwrap();
                let mut all = vec![(WmmaMatrix::C, *cs, (m, n))];
                all.push((WmmaMatrix::A, *ab, (m, k)));
                all.push((WmmaMatrix::B, *ab, (k, n)));
                for (matrix, types, (rows, cols)) in all {
                    for ty in types {
                        let l = wmma_fragment(matrix, shape, ty, sm)
                            .unwrap_or_else(|| panic!("{matrix:?} {shape} {ty}"));
                        let mut seen = vec![0u32; (rows * cols) as usize];
                        for lane in 0..32 {
                            for r in 0..l.distinct() {
                                for e in 0..l.per_reg {
                                    let (i, j) = l.position(lane, r, e);
                                    assert!(i < rows && j < cols, "{matrix:?} {shape} {ty}");
                                    seen[(i * cols + j) as usize] += 1;
                                }
                            }
                        }
                        assert!(seen.iter().all(|&c| c == 1), "{matrix:?} {shape} {ty}");
                        let bits = if l.elem_bits == 64 { 64 } else { 32 };
                        assert_eq!(l.per_reg * l.elem_bits, bits, "{matrix:?} {shape} {ty}");
                    }
                }
            }
        }
    }
}
