//! What calls of external functions (`vprintf`, `__assertfail`) add to a cubin, as ptxas 13.5
//! writes them: an undefined GLOBAL FUNC symbol per function after the first kernel (in
//! processing order) that calls it, its address in a `.nv.constant4` slot after the module
//! variables' (R_CUDA_64), EIATTR_EXTERNS (the callees' symbols) and EIATTR_SYSCALL_OFFSETS (the
//! `CALL.ABS` offsets) in the kernel's `.nv.info`, and `(kernel, callee)` edges in
//! `.nv.callgraph`.

use crate::sections::Symbol;
use crate::{CubinModule, KernelImage};

const EIFMT_SVAL: u8 = 4;
const EXTERNS: u8 = 0x0f;
const SYSCALL_OFFSETS: u8 = 0x46;

fn symbol_index(symbols: &[Symbol], name: &str) -> Option<u32> {
    symbols
        .iter()
        .position(|s| s.name == name && s.shndx == 0 && s.info == 0x12)
        .map(|n| n as u32)
}

/// After kernel `k`'s function symbol: the undefined symbols of the functions it calls first.
pub(crate) fn push_extern_symbols(k: &KernelImage, syms: &mut Vec<Symbol>) {
    for name in &k.externs {
        if symbol_index(syms, name).is_none() {
            syms.push(Symbol {
                name: name.clone(),
                info: 0x12,
                ..Symbol::default()
            });
        }
    }
}

/// The symbol of each of the module's external functions, in slot order.
pub(crate) fn extern_symbols(m: &CubinModule, symbols: &[Symbol]) -> Vec<u32> {
    m.extern_funcs
        .iter()
        .map(|n| symbol_index(symbols, n).unwrap_or(0))
        .collect()
}

fn sval_words(out: &mut Vec<u8>, attr: u8, words: &[u32]) {
    out.extend_from_slice(&[EIFMT_SVAL, attr]);
    out.extend_from_slice(&(4 * words.len() as u16).to_le_bytes());
    words
        .iter()
        .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
}

/// EIATTR_EXTERNS: the symbols of the functions `k` calls.
pub(crate) fn externs_record(out: &mut Vec<u8>, k: &KernelImage, symbols: &[Symbol]) {
    let words: Vec<u32> = k
        .externs
        .iter()
        .filter_map(|n| symbol_index(symbols, n))
        .collect();
    if !words.is_empty() {
        sval_words(out, EXTERNS, &words);
    }
}

/// EIATTR_SYSCALL_OFFSETS: where `k`'s `CALL.ABS` instructions are.
pub(crate) fn syscall_record(out: &mut Vec<u8>, k: &KernelImage) {
    if !k.syscall_offsets.is_empty() {
        sval_words(out, SYSCALL_OFFSETS, &k.syscall_offsets);
    }
}

/// `.nv.callgraph`: the four list markers, the direct edges `(kernel, callee)` after the first
/// (kernels in processing order, each kernel's callees in reverse order of first call).
pub(crate) fn callgraph(proc: &[&KernelImage], func_sym: &[u32], symbols: &[Symbol]) -> Vec<u8> {
    let mut v = Vec::new();
    let mut pair = |a: u32, b: i32| {
        v.extend_from_slice(&a.to_le_bytes());
        v.extend_from_slice(&b.to_le_bytes());
    };
    pair(0, -1);
    for (n, k) in proc.iter().enumerate() {
        // A kernel's edges last callee first, as ptxas lists them.
        for name in k.externs.iter().rev() {
            if let Some(s) = symbol_index(symbols, name) {
                pair(func_sym[n], s as i32);
            }
        }
    }
    for marker in [-2, -3, -4] {
        pair(0, marker);
    }
    v
}
