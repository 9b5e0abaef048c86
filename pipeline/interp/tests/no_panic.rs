//! Robustness: thousands of randomly mutated kernels (opcodes, modifiers, operands swapped for
//! others seen in the filetests) run without a panic; every failure is a `SimError`.

mod common;
use common::*;

use ptxforge_interp::{pack_params, run_kernel, Limits};
use ptxforge_ptx::ast::{Instruction, Module, Name, Operand, Operands, Statement};
use std::sync::Arc;

const FILES: &[&str] = &[
    "block_reduce",
    "addr64",
    "bitops",
    "counted_loop",
    "cvt_int",
    "float_ops",
    "grid_stride",
    "handwritten_cvt_float",
    "handwritten_int64",
    "handwritten_preds",
    "handwritten_shared",
    "if_else",
    "index3d",
    "int_minmax",
    "laneid",
    "ldg_nc",
    "mul_wide",
    "saxpy",
    "select_pred",
    "u64_compare",
    "vadd",
];

const OPCODES: &[&str] = &[
    "add", "sub", "mul", "mad", "div", "rem", "min", "max", "shl", "shr", "and", "or", "xor",
    "not", "cvt", "mov", "ld", "st", "setp", "selp", "bra", "bar", "shfl", "vote", "atom", "fma",
    "rcp", "sqrt", "ex2", "prmt", "bfe", "bfi", "mma", "ldmatrix", "cp", "mbarrier", "call", "ret",
    "exit", "popc", "clz", "brev", "lop3", "shf", "cvta", "redux",
];

const MODS: &[&str] = &[
    "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "b16", "b32", "b64", "b128", "f16",
    "f16x2", "bf16", "f32", "f64", "pred", "rn", "rz", "rm", "rp", "rni", "ftz", "sat", "wide",
    "hi", "lo", "global", "shared", "local", "param", "const", "v2", "v4", "v8", "sync", "red",
    "popc", "and", "or", "up", "down", "idx", "bfly", "ballot", "m16n8k16", "x4", "trans",
    "e4m3x2", "cc", "approx", "to", "l", "wrap", "clamp", "f4e", "aligned", "parity",
];

fn mutate(m: &mut Module, rng: &mut Rng) {
    let f = &mut m.functions[0];
    let n = f
        .body
        .iter()
        .filter(|s| matches!(s, Statement::Instr(_)))
        .count();
    if n == 0 {
        return;
    }
    let k = (rng.next() % n as u64) as usize;
    let Some(Statement::Instr(ins)) = f
        .body
        .iter_mut()
        .filter(|s| matches!(s, Statement::Instr(_)))
        .nth(k)
    else {
        return;
    };
    match rng.next() % 5 {
        0 => {
            Arc::make_mut(&mut ins.form).opcode =
                OPCODES[(rng.next() % OPCODES.len() as u64) as usize].into()
        }
        1 => {
            let m = MODS[(rng.next() % MODS.len() as u64) as usize].into();
            let mut mods = ins.mods().to_vec();
            if mods.is_empty() || rng.next().is_multiple_of(2) {
                mods.push(m);
            } else {
                let i = (rng.next() % mods.len() as u64) as usize;
                mods[i] = m;
            }
            Arc::make_mut(&mut ins.form).mods = mods.into();
        }
        2 if !ins.operands.is_empty() => {
            let i = (rng.next() % ins.operands.len() as u64) as usize;
            let mut operands = ins.operands.to_vec();
            operands[i] = match rng.next() % 4 {
                0 => Operand::Imm((rng.next() as i64) as i128),
                1 => Operand::F32(rng.next() as u32),
                2 => Operand::Reg("%r1".into()),
                _ => Operand::Vector(vec![Operand::Reg("%r1".into()), Operand::Imm(3)]),
            };
            ins.operands = Operands::new(guard_of(ins), operands);
        }
        3 if !ins.operands.is_empty() => {
            ins.operands = Operands::new(
                guard_of(ins),
                ins.operands[..ins.operands.len() - 1].to_vec(),
            );
        }
        _ => {
            ins.operands = Operands::new(
                Some((rng.next().is_multiple_of(2), "%p1".into())),
                ins.operands.to_vec(),
            )
        }
    }
}

/// The instruction's guard, owned (to build its operands anew).
fn guard_of(ins: &Instruction) -> Option<(bool, Name)> {
    ins.guard().map(|(negated, p)| (negated, p.clone()))
}

#[test]
fn mutated_kernels_never_panic() {
    let mut rng = Rng(0xfeed_beef);
    let mut errors = 0;
    let mut runs = 0;
    for name in FILES {
        let base = load(&format!("pipeline/driver/tests/filetests/{name}.ptx"));
        for _ in 0..300 {
            let mut m = base.clone();
            for _ in 0..1 + rng.next() % 3 {
                mutate(&mut m, &mut rng);
            }
            let entry = m.functions[0].name.clone();
            let nparams = m.functions[0].params.len();
            let vals: Vec<u64> = (0..nparams)
                .map(|i| if i % 2 == 0 { A } else { 16 })
                .collect();
            let Ok(params) = pack_params(&m, &entry, &vals) else {
                continue;
            };
            let mut bufs = vec![zeros(A, 4096), zeros(B, 4096)];
            let limits = Limits {
                max_steps_per_thread: 2000,
                ..Limits::default()
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_kernel(
                    &m,
                    &entry,
                    &launch([2, 1, 1], [40, 1, 1]),
                    &params,
                    &mut bufs,
                    &limits,
                )
            }));
            let r = r.unwrap_or_else(|_| {
                panic!("panic on a mutation of {name}: {:#?}", m.functions[0].body)
            });
            runs += 1;
            if r.is_err() {
                errors += 1;
            }
        }
    }
    println!("{runs} mutated runs, {errors} stopped with an error");
    assert!(errors > runs / 10, "mutations do reach the error paths");
}
