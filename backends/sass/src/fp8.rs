//! FP8 conversions on sm_89+: `F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C` (two f32 into two e4m3 or
//! e5m2 bytes), `F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C` (an f16x2 into two bytes) and
//! `F2FP.F16.E4M3.UNPACK_B` (two bytes into an f16x2), each optionally `.RELU`: the forms, their
//! encoding bits and nvdisasm's text.
//!
//! All are F2FP (0x03e, register form) with A at 24, B at 32, C at 64; what the form is lives in
//! bits 72..91 (the types, `.SATFINITE`, the pack/unpack/merge variant), `.RELU` at 75, an unpack's
//! `.H1` on B at 88, as ptxas
//! 13.5 writes them on sm_89 and sm_90. The packing forms put A's byte above B's; the f16x2 forms
//! read B only (A is RZ); MERGE_C puts C's lower half into the result's upper half (RZ: zeros).

use crate::encode::{src_gpr, EResult, EncodeError, Word, FORM_RRR};
use crate::ir::*;
use crate::print::{dst, join, src};

/// Which FP8 conversion an `F2FP` performs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fp8Form {
    /// Two f32 (A high, B low) rounded with saturation into two e4m3 (or e5m2) bytes.
    PackF32 { e4m3: bool },
    /// The two f16 halves of B rounded with saturation into two bytes (high half, high byte).
    PackF16x2 { e4m3: bool },
    /// The two bytes of B's low half widened exactly into an f16x2.
    Unpack { e4m3: bool },
}

/// `.RELU`: negative results become zero.
pub const RELU_BIT: u32 = 75;
/// An unpack's `.H1` on B: the upper two bytes.
pub const H1_BIT: u32 = 88;

impl Fp8Form {
    /// Every form, for decoders and tests.
    pub const ALL: [Fp8Form; 6] = [
        Fp8Form::PackF32 { e4m3: true },
        Fp8Form::PackF32 { e4m3: false },
        Fp8Form::PackF16x2 { e4m3: true },
        Fp8Form::PackF16x2 { e4m3: false },
        Fp8Form::Unpack { e4m3: true },
        Fp8Form::Unpack { e4m3: false },
    ];

    /// Bits 72..91 of the instruction (without `.RELU`).
    pub const fn bits_72(self) -> u64 {
        // Set bit positions, less 72: types at 72..74 and 76..78, the variant at 87, 89, 90.
        let set: &[u32] = match self {
            Fp8Form::PackF32 { e4m3: true } => &[4, 5, 6, 15, 18],
            Fp8Form::PackF32 { e4m3: false } => &[5, 6, 15, 18],
            Fp8Form::PackF16x2 { e4m3: true } => &[1, 4, 5, 15, 18],
            Fp8Form::PackF16x2 { e4m3: false } => &[1, 5, 15, 18],
            Fp8Form::Unpack { e4m3: true } => &[1, 2, 17],
            Fp8Form::Unpack { e4m3: false } => &[2, 17],
        };
        let mut v = 0;
        let mut k = 0;
        while k < set.len() {
            v |= 1 << set[k];
            k += 1;
        }
        v
    }

    /// The form whose bits 72..91 (`.RELU` and `.H1` cleared) are `bits`.
    pub fn from_bits_72(bits: u64) -> Option<Fp8Form> {
        let bits = bits & !(1 << (RELU_BIT - 72)) & !(1 << (H1_BIT - 72));
        Fp8Form::ALL.into_iter().find(|f| f.bits_72() == bits)
    }

    pub fn e4m3(self) -> bool {
        match self {
            Fp8Form::PackF32 { e4m3 } | Fp8Form::PackF16x2 { e4m3 } | Fp8Form::Unpack { e4m3 } => {
                e4m3
            }
        }
    }

    fn fp8_name(self) -> &'static str {
        if self.e4m3() {
            "E4M3"
        } else {
            "E5M2"
        }
    }
}

/// Encodes `F2fp8` into `w` (without guard, destination and control bits): slots A, B, C.
pub(crate) fn encode_f2fp8(i: &Instr, w: &mut Word) -> EResult<()> {
    let Opcode::F2fp8 { form, relu, h1 } = i.op else {
        return Err(EncodeError(format!("{:?} is not an FP8 F2FP", i.op)));
    };
    if h1 && !matches!(form, Fp8Form::Unpack { .. }) {
        return Err(EncodeError("`.H1` on an FP8 pack".into()));
    }
    let [a, b, c, ..] = &i.srcs;
    for s in [a, b, c] {
        if !matches!(s.val, SrcVal::Reg(_) | SrcVal::Zero) {
            return Err(EncodeError(format!("FP8 F2FP source {s:?}")));
        }
    }
    w.set(0, 9, 0x03e);
    w.set(9, 3, FORM_RRR);
    w.set(24, 8, src_gpr(a)?);
    w.set(32, 8, src_gpr(b)?);
    w.set(64, 8, src_gpr(c)?);
    w.set(72, 20, form.bits_72());
    w.set(RELU_BIT, 1, relu as u64);
    w.set(H1_BIT, 1, h1 as u64);
    Ok(())
}

/// nvdisasm's text of `F2fp8` (without guard).
pub(crate) fn f2fp8_body(i: &Instr) -> String {
    let Opcode::F2fp8 { form, relu, h1 } = i.op else {
        return format!("{:?}", i.op);
    };
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    let relu = if relu { ".RELU" } else { "" };
    let f8 = form.fp8_name();
    match form {
        Fp8Form::PackF32 { .. } => format!(
            "F2FP.SATFINITE{relu}.{f8}.F32.PACK_AB_MERGE_C {}",
            join(&[d0, src(a), src(b), src(c)])
        ),
        Fp8Form::PackF16x2 { .. } => format!(
            "F2FP.SATFINITE{relu}.{f8}.F16.UNPACK_B_MERGE_C {}",
            join(&[d0, src(b), src(c)])
        ),
        Fp8Form::Unpack { .. } => {
            let b = format!("{}{}", src(b), if h1 { ".H1" } else { "" });
            format!("F2FP{relu}.F16.{f8}.UNPACK_B {}", join(&[d0, b]))
        }
    }
}
