//! Which sections and symbols a cubin holds, in ptxas's order, with their contents.

use crate::nvinfo;
use crate::{CubinModule, GlobalVar, KernelImage};

pub const SHT_PROGBITS: u32 = 1;
pub const SHT_SYMTAB: u32 = 2;
pub const SHT_STRTAB: u32 = 3;
pub const SHT_RELA: u32 = 4;
pub const SHT_NOTE: u32 = 7;
pub const SHT_NOBITS: u32 = 8;
pub const SHT_REL: u32 = 9;
pub const SHT_CUDA_INFO: u32 = 0x7000_0000;
pub const SHT_CUDA_CALLGRAPH: u32 = 0x7000_0001;
pub const SHT_CUDA_RELOCINFO: u32 = 0x7000_000b;
pub const SHT_CUDA_COMPAT: u32 = 0x7000_0086;
/// The relocation type of a 64-bit address (debug frames, `.nv.constant4` slots).
pub const R_CUDA_64: u32 = 2;

/// One section: header fields plus contents (`size` is used for NOBITS).
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub link: u32,
    pub info: u32,
    pub align: u64,
    pub entsize: u64,
    pub data: Vec<u8>,
    pub nobits_size: u64,
}

/// One ELF symbol.
#[derive(Clone, Debug, Default)]
pub struct Symbol {
    pub name: String,
    pub info: u8,
    pub other: u8,
    pub shndx: u16,
    pub value: u64,
    pub size: u64,
}

/// The complete plan the ELF layer writes out.
pub struct Layout {
    pub sections: Vec<Section>,
    pub symbols: Vec<Symbol>,
    /// Index of the `.symtab` section's sh_info (first global, or the count on sm_90).
    pub symtab_info: u32,
    pub cuinfo_index: u32,
}

const CUDA_API_VERSION: u16 = 0x87;

/// Section indices assigned before contents are built.
struct Indices {
    debug_frame: usize,
    tkinfo: usize,
    cuinfo: usize,
    compat: Option<usize>,
    text: Vec<usize>,
    constant0: Vec<usize>,
    shared: Vec<Option<usize>>,
    globals: GlobalSections,
}

/// The sections of module `.global` variables (all `None` when the module has none).
#[derive(Default)]
struct GlobalSections {
    /// `.nv.constant3`: the module's `.const` variables.
    constant3: Option<usize>,
    constant4: Option<usize>,
    init: Option<usize>,
    uninit: Option<usize>,
}

/// Builds the whole layout of `m`. Kernels are processed in reverse definition order, as ptxas does.
pub fn build(m: &CubinModule) -> Layout {
    let proc: Vec<&KernelImage> = m.kernels.iter().rev().collect();
    let new_family = m.sm.new_elf_family();
    let mut secs = vec![Section::default()];
    let mut push = |s: Section| {
        secs.push(s);
        secs.len() - 1
    };
    push(named(".shstrtab", SHT_STRTAB, 0, 1));
    push(named(".strtab", SHT_STRTAB, 0, 1));
    push(Section {
        entsize: 24,
        link: 2,
        ..named(".symtab", SHT_SYMTAB, 0, 8)
    });
    let debug_frame = push(named(".debug_frame", SHT_PROGBITS, 0, 1));
    let tkinfo = push(named(".note.nv.tkinfo", SHT_NOTE, 0x200_0000, 4));
    let cuinfo = push(Section {
        link: tkinfo as u32,
        ..named(".note.nv.cuinfo", SHT_NOTE, 0x100_0000, 4)
    });
    let info = push(Section {
        link: 3,
        ..named(".nv.info", SHT_CUDA_INFO, 0, 4)
    });
    let compat = new_family.then(|| push(named(".nv.compat", SHT_CUDA_COMPAT, 0, 4)));
    let info_f: Vec<usize> = proc
        .iter()
        .map(|k| {
            push(Section {
                link: 3,
                ..named(&format!(".nv.info.{}", k.name), SHT_CUDA_INFO, 0x40, 4)
            })
        })
        .collect();
    let callgraph = push(Section {
        link: 3,
        entsize: 8,
        ..named(".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, 4)
    });
    let rel_action = (!new_family).then(|| {
        push(Section {
            entsize: 8,
            ..named(".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 8)
        })
    });
    let rela_text: Vec<Option<usize>> = proc
        .iter()
        .map(|k| {
            // Empty, as ptxas writes it for a kernel that uses shared memory or makes calls.
            let calls = !k.subroutines.is_empty();
            (new_family && (k.shared_bytes > 0 || k.uses_shared || calls)).then(|| {
                push(Section {
                    link: 3,
                    entsize: 24,
                    ..named(&format!(".rela.text.{}", k.name), SHT_RELA, 0x40, 8)
                })
            })
        })
        .collect();
    let has_globals = !m.globals.is_empty() || !m.extern_funcs.is_empty();
    let rel_constant4 = has_globals.then(|| {
        let (name, kind, entsize) = if new_family {
            (".rela.nv.constant4", SHT_RELA, 24)
        } else {
            (".rel.nv.constant4", SHT_REL, 16)
        };
        push(Section {
            link: 3,
            entsize,
            ..named(name, kind, 0x40, 8)
        })
    });
    let rel_debug = if new_family {
        push(Section {
            link: 3,
            info: debug_frame as u32,
            entsize: 24,
            ..named(".rela.debug_frame", SHT_RELA, 0x40, 8)
        })
    } else {
        push(Section {
            link: 3,
            info: debug_frame as u32,
            entsize: 16,
            ..named(".rel.debug_frame", SHT_REL, 0x40, 8)
        })
    };
    let const_align = m.consts.iter().map(|v| v.align.max(4)).max();
    let constant3 = const_align.map(|a| push(named(".nv.constant3", SHT_PROGBITS, 0x2, a)));
    let constant4 = has_globals.then(|| push(named(".nv.constant4", SHT_PROGBITS, 0x2, 8)));
    let mut constant0 = Vec::new();
    if !new_family {
        constant0 = proc
            .iter()
            .map(|k| {
                push(named(
                    &format!(".nv.constant0.{}", k.name),
                    SHT_PROGBITS,
                    0x42,
                    4,
                ))
            })
            .collect();
    }
    let text: Vec<usize> = proc
        .iter()
        .map(|k| {
            push(Section {
                link: 3,
                ..named(&format!(".text.{}", k.name), SHT_PROGBITS, 0x6, 128)
            })
        })
        .collect();
    let var_align = |init: bool| {
        m.globals
            .iter()
            .filter(|g| g.init.is_some() == init)
            .map(|g| g.align.max(1))
            .max()
    };
    let init = var_align(true).map(|a| push(named(".nv.global.init", SHT_PROGBITS, 0x3, a)));
    // sm_90: ptxas puts the reserved window's section right after the first kernel's shared section.
    let mut shared: Vec<Option<usize>> = Vec::new();
    let mut reserved = None;
    for k in &proc {
        let align = if k.shared_align > 0 {
            k.shared_align as u64
        } else {
            4
        };
        let s = (k.shared_bytes > 0 || k.shared_align > 0).then(|| {
            push(named(
                &format!(".nv.shared.{}", k.name),
                SHT_NOBITS,
                0x43,
                align,
            ))
        });
        if s.is_some() && new_family && reserved.is_none() {
            reserved = Some(push(named(".nv.shared.reserved.0", SHT_NOBITS, 0x3, 1)));
        }
        shared.push(s);
    }
    if new_family && reserved.is_none() {
        reserved = Some(push(named(".nv.shared.reserved.0", SHT_NOBITS, 0x3, 1)));
    }
    let uninit = var_align(false).map(|a| push(named(".nv.global", SHT_NOBITS, 0x3, a)));
    if new_family {
        constant0 = proc
            .iter()
            .map(|k| {
                push(named(
                    &format!(".nv.constant0.{}", k.name),
                    SHT_PROGBITS,
                    0x42,
                    4,
                ))
            })
            .collect();
    }
    let idx = Indices {
        debug_frame,
        tkinfo,
        cuinfo,
        compat,
        text,
        constant0,
        shared,
        globals: GlobalSections {
            constant3,
            constant4,
            init,
            uninit,
        },
    };
    let var_offsets = fill_globals(&mut secs, &idx, m);
    if let Some(c3) = constant3 {
        secs[c3].data = const_bytes(m);
    }
    let (symbols, symtab_info, func_sym, const_sym, var_sym) = build_symbols(
        m,
        &proc,
        &secs,
        &idx,
        callgraph,
        rel_action,
        reserved,
        &var_offsets,
    );
    let ext_sym = crate::extern_calls::extern_symbols(m, &symbols);
    if let (Some(r), Some(c4)) = (rel_constant4, constant4) {
        secs[r].info = c4 as u32;
        let slots: Vec<u32> = var_sym.iter().chain(&ext_sym).copied().collect();
        secs[r].data = constant4_relocations(&slots, new_family);
    }

    fill_notes(&mut secs, &idx, m);
    if let Some(c) = compat {
        secs[c].data = nvinfo::compat_sm90(m.sm);
    }
    secs[info].data = nvinfo::global_info(m, &func_sym, &symbols);
    for (n, k) in proc.iter().enumerate() {
        secs[info_f[n]].info = idx.text[n] as u32;
        secs[info_f[n]].data = nvinfo::kernel_info(m.sm, k, const_sym[n], &symbols);
        let t = &mut secs[idx.text[n]];
        t.data = k.code.clone();
        t.info = if new_family {
            func_sym[n]
        } else {
            (k.num_gprs << 24) | func_sym[n]
        };
        let c0 = &mut secs[idx.constant0[n]];
        c0.data = vec![0; (m.sm.param_base() + k.param_bytes) as usize];
        c0.info = idx.text[n] as u32;
        if let Some(s) = idx.shared[n] {
            let window = if new_family { 0x400 } else { 0 };
            let bytes = if k.shared_align > 0 {
                k.shared_bytes
            } else {
                k.shared_bytes.div_ceil(4) * 4
            };
            secs[s].nobits_size = window + bytes as u64;
            secs[s].info = idx.text[n] as u32;
        }
        if let Some(r) = rela_text[n] {
            secs[r].info = idx.text[n] as u32;
        }
    }
    secs[callgraph].data = crate::extern_calls::callgraph(&proc, &func_sym, &symbols);
    if let Some(r) = rel_action {
        secs[r].data = vec![
            0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36,
        ];
    }
    let (frame, relocs) = debug_frame_contents(&proc, &func_sym, new_family);
    secs[debug_frame].data = frame;
    secs[rel_debug].data = relocs;
    Layout {
        sections: secs,
        symbols,
        symtab_info,
        cuinfo_index: cuinfo as u32,
    }
}

fn named(name: &str, sh_type: u32, flags: u64, align: u64) -> Section {
    Section {
        name: name.to_string(),
        sh_type,
        flags,
        align,
        ..Section::default()
    }
}

fn section_symbol(secs: &[Section], index: usize) -> Symbol {
    Symbol {
        name: secs[index].name.clone(),
        info: 0x03,
        shndx: index as u16,
        ..Symbol::default()
    }
}

/// Symbols in ptxas's order; returns them with the symtab sh_info, and per processed kernel the
/// index of its function symbol and of its `.nv.constant0` section symbol.
#[allow(clippy::too_many_arguments)]
fn build_symbols(
    m: &CubinModule,
    proc: &[&KernelImage],
    secs: &[Section],
    idx: &Indices,
    callgraph: usize,
    rel_action: Option<usize>,
    reserved: Option<usize>,
    var_offsets: &[(usize, u64)],
) -> (Vec<Symbol>, u32, Vec<u32>, Vec<u32>, Vec<u32>) {
    let new_family = m.sm.new_elf_family();
    let mut syms = vec![
        Symbol::default(),
        section_symbol(secs, idx.tkinfo),
        section_symbol(secs, idx.cuinfo),
    ];
    let mut const_sym = vec![0u32; proc.len()];
    let mut var_sym = vec![0u32; m.globals.len()];
    if proc.is_empty() {
        const_symbols(m, secs, idx, &mut syms, 0x01);
        local_variable_symbols(m, secs, idx, var_offsets, &mut syms, &mut var_sym);
    }
    for n in 0..proc.len() {
        syms.push(section_symbol(secs, idx.text[n]));
        for sub in &proc[n].subroutines {
            syms.push(Symbol {
                name: format!("${}${}", proc[n].name, sub.name),
                info: 0x02,
                shndx: idx.text[n] as u16,
                value: sub.offset as u64,
                size: sub.size as u64,
                ..Symbol::default()
            });
        }
        // An empty shared section (a module with `.extern .shared`) has no section symbol.
        if let Some(s) = idx.shared[n].filter(|_| proc[n].shared_bytes > 0) {
            syms.push(section_symbol(secs, s));
        }
        if n == 0 {
            const_symbols(m, secs, idx, &mut syms, 0x01);
            local_variable_symbols(m, secs, idx, var_offsets, &mut syms, &mut var_sym);
        }
        if !new_family {
            const_sym[n] = syms.len() as u32;
            syms.push(section_symbol(secs, idx.constant0[n]));
        }
    }
    syms.push(section_symbol(secs, idx.debug_frame));
    syms.push(section_symbol(secs, callgraph));
    if let Some(r) = rel_action {
        syms.push(section_symbol(secs, r));
    }
    let first_global = syms.len() as u32;
    let mut func_sym = vec![0u32; proc.len()];
    for (n, k) in proc.iter().enumerate() {
        func_sym[n] = syms.len() as u32;
        syms.push(Symbol {
            name: k.name.clone(),
            info: 0x12,
            other: 0x10,
            shndx: idx.text[n] as u16,
            size: k.code.len() as u64,
            ..Symbol::default()
        });
        crate::extern_calls::push_extern_symbols(k, &mut syms);
        if n == 0 {
            if let Some(r) = reserved {
                syms.push(Symbol {
                    name: ".nv.reservedSmem.offset0".into(),
                    info: 0x21,
                    size: 4,
                    ..Symbol::default()
                });
                syms.push(Symbol {
                    name: "__nv_reservedSMEM_offset_0_alias".into(),
                    info: 0x20,
                    other: 0xa0,
                    shndx: r as u16,
                    ..Symbol::default()
                });
            }
        }
    }
    for (n, g) in m.globals.iter().enumerate().filter(|(_, g)| g.visible) {
        var_sym[n] = syms.len() as u32;
        syms.push(variable_symbol(g, var_offsets[n], 0x11));
    }
    const_symbols(m, secs, idx, &mut syms, 0x11);
    if new_family {
        for n in 0..proc.len() {
            const_sym[n] = syms.len() as u32;
            syms.push(section_symbol(secs, idx.constant0[n]));
        }
    }
    let info = if new_family {
        syms.len() as u32
    } else {
        first_global
    };
    (syms, info, func_sym, const_sym, var_sym)
}

/// The section symbols of the variables' sections and the local variables' symbols, in slot
/// order, with `.nv.constant4`'s after the first variable's section, as ptxas orders them.
fn local_variable_symbols(
    m: &CubinModule,
    secs: &[Section],
    idx: &Indices,
    var_offsets: &[(usize, u64)],
    syms: &mut Vec<Symbol>,
    var_sym: &mut [u32],
) {
    let mut seen: Vec<usize> = Vec::new();
    for (n, g) in m.globals.iter().enumerate() {
        let (section, _) = var_offsets[n];
        if !seen.contains(&section) {
            seen.push(section);
            syms.push(section_symbol(secs, section));
        }
        if !g.visible {
            var_sym[n] = syms.len() as u32;
            syms.push(variable_symbol(g, var_offsets[n], 0x01));
        }
        if n == 0 {
            if let Some(c4) = idx.globals.constant4 {
                syms.push(section_symbol(secs, c4));
            }
        }
    }
}

/// The `.const` variables' symbols in `.nv.constant3`: with `info` 0x01, its section symbol and
/// the local (non-`.visible`) ones, as ptxas puts them after the first kernel's text; with 0x11,
/// the `.visible` ones among the global symbols.
fn const_symbols(
    m: &CubinModule,
    secs: &[Section],
    idx: &Indices,
    syms: &mut Vec<Symbol>,
    info: u8,
) {
    let Some(c3) = idx.globals.constant3 else {
        return;
    };
    if info == 0x01 {
        syms.push(section_symbol(secs, c3));
    }
    let (offsets, _) = crate::const_layout(&m.consts);
    for (v, at) in m.consts.iter().zip(offsets) {
        if v.visible == (info == 0x11) {
            syms.push(variable_symbol(v, (c3, at), info));
        }
    }
}

/// `.nv.constant3`'s bytes: each `.const` variable's initializer (zeros without one) at its offset.
fn const_bytes(m: &CubinModule) -> Vec<u8> {
    let (offsets, size) = crate::const_layout(&m.consts);
    let mut bytes = vec![0u8; size as usize];
    for (v, at) in m.consts.iter().zip(offsets) {
        if let Some(init) = &v.init {
            let at = at as usize;
            let n = init.len().min(v.size as usize);
            bytes[at..at + n].copy_from_slice(&init[..n]);
        }
    }
    bytes
}

/// An OBJECT symbol (`info` 0x01 local, 0x11 global) at its offset in its section.
fn variable_symbol(g: &GlobalVar, (section, offset): (usize, u64), info: u8) -> Symbol {
    Symbol {
        name: g.name.clone(),
        info,
        shndx: section as u16,
        value: offset,
        size: g.size,
        ..Symbol::default()
    }
}

/// Lays the variables out in `.nv.global.init` and `.nv.global` (slot order, each at its
/// alignment) and sizes `.nv.constant4`; returns each variable's section and offset.
fn fill_globals(secs: &mut [Section], idx: &Indices, m: &CubinModule) -> Vec<(usize, u64)> {
    let g = &idx.globals;
    let (offsets, ends) = crate::global_layout(&m.globals);
    let mut placed = Vec::with_capacity(m.globals.len());
    for (v, at) in m.globals.iter().zip(offsets) {
        let section = match (&v.init, g.init, g.uninit) {
            (Some(_), Some(s), _) => s,
            (None, _, Some(s)) => s,
            _ => unreachable!("a variable's section exists"),
        };
        if let Some(bytes) = &v.init {
            let data = &mut secs[section].data;
            data.resize(at as usize, 0);
            data.extend_from_slice(&bytes[..v.size as usize]);
        }
        placed.push((section, at));
    }
    if let Some(s) = g.uninit {
        secs[s].nobits_size = ends[1];
    }
    if let Some(c4) = g.constant4 {
        secs[c4].data = vec![0; 8 * (m.globals.len() + m.extern_funcs.len())];
    }
    placed
}

/// R_CUDA_64 of each variable's address into its `.nv.constant4` slot (last slot first, as ptxas).
fn constant4_relocations(var_sym: &[u32], rela: bool) -> Vec<u8> {
    let mut relocs = Vec::new();
    for (n, &sym) in var_sym.iter().enumerate().rev() {
        relocs.extend_from_slice(&(8 * n as u64).to_le_bytes());
        relocs.extend_from_slice(&(((sym as u64) << 32) | R_CUDA_64 as u64).to_le_bytes());
        if rela {
            relocs.extend_from_slice(&0u64.to_le_bytes());
        }
    }
    relocs
}

/// `.note.nv.tkinfo` and `.note.nv.cuinfo`.
fn fill_notes(secs: &mut [Section], idx: &Indices, m: &CubinModule) {
    if let Some(c) = idx.compat {
        secs[idx.cuinfo].flags = 0x100_0040;
        secs[idx.cuinfo].info = c as u32;
    }
    let mut cu = Vec::new();
    cu.extend_from_slice(&2u16.to_le_bytes());
    cu.extend_from_slice(&(m.virtual_sm as u16).to_le_bytes());
    cu.extend_from_slice(&CUDA_API_VERSION.to_le_bytes());
    cu.extend_from_slice(&0u16.to_le_bytes());
    secs[idx.cuinfo].data = note(1000, &cu);
    secs[idx.tkinfo].data = note(2000, &tkinfo_desc(m));
}

fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&12u32.to_le_bytes());
    v.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    v.extend_from_slice(&kind.to_le_bytes());
    v.extend_from_slice(b"NVIDIA Corp\0");
    v.extend_from_slice(desc);
    v
}

/// Tool information: which tool, version and options produced the file.
fn tkinfo_desc(m: &CubinModule) -> Vec<u8> {
    let strings = [
        String::new(),
        "ptxforge".to_string(),
        format!("ptxforge {}", env!("CARGO_PKG_VERSION")),
        "ptxforge".to_string(),
        format!("-arch {} ", m.sm),
    ];
    let mut blob = Vec::new();
    let mut offsets = Vec::new();
    for s in &strings {
        offsets.push(blob.len() as u32);
        blob.extend_from_slice(s.as_bytes());
        blob.push(0);
    }
    while blob.len() % 4 != 0 {
        blob.push(0);
    }
    let mut desc = 2u32.to_le_bytes().to_vec();
    offsets
        .iter()
        .for_each(|o| desc.extend_from_slice(&o.to_le_bytes()));
    desc.extend_from_slice(&blob);
    desc
}

/// The 64-bit-format DWARF CIE ptxas writes, unchanged for every cubin.
const CIE: [u8; 48] = [
    0xff, 0xff, 0xff, 0xff, 0x24, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0x03, 0x00, 0x04, 0x7c, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00,
    0x08, 0xff, 0x81, 0x80, 0x28, 0x08, 0x81, 0x80, 0x80, 0x28, 0x00, 0x00, 0x00,
];

/// `.debug_frame` (CIE + one FDE per kernel) and its R_CUDA_64 relocations of each FDE's start.
fn debug_frame_contents(proc: &[&KernelImage], func_sym: &[u32], rela: bool) -> (Vec<u8>, Vec<u8>) {
    let mut frame = CIE.to_vec();
    let mut relocs = Vec::new();
    for (n, k) in proc.iter().enumerate() {
        let body_len: u64 = 8 + 8 + 8 + 8;
        frame.extend_from_slice(&[0xff; 4]);
        frame.extend_from_slice(&body_len.to_le_bytes());
        frame.extend_from_slice(&0u64.to_le_bytes());
        let loc = frame.len() as u64;
        frame.extend_from_slice(&0u64.to_le_bytes());
        frame.extend_from_slice(&(k.code.len() as u64).to_le_bytes());
        frame.extend_from_slice(&[0u8; 8]);
        relocs.extend_from_slice(&loc.to_le_bytes());
        relocs.extend_from_slice(&(((func_sym[n] as u64) << 32) | 2).to_le_bytes());
        if rela {
            relocs.extend_from_slice(&0u64.to_le_bytes());
        }
    }
    (frame, relocs)
}
