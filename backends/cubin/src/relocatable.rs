//! `-c`: the relocatable object (ET_REL) ptxas writes for `nvcc -rdc=true`, for `nvlink` to link
//! (layout learned from `ptxas -c`, `readelf` and `cuobjdump -elf`; `../shared/docs/cubin.md`).
//!
//! The entries' sections are the executable cubin's (`sections::build`), changed where an object
//! differs: ET_REL without program headers, `.nv.constant0.<entry>` of type CUDA_CONSTANT_B0,
//! `.nv.prototype` where the executable has `.nv.rel.action`, the module-wide `.nv.info` with
//! REGCOUNT, MAX_STACK_SIZE and FRAME_SIZE per function (the linker computes the stack sizes).
//! Device functions compiled on their own follow: each its `.text.<name>` and `.nv.info.<name>`
//! and a GLOBAL FUNC symbol. Each linked call gets an R_CUDA_ABS47_34 relocation in
//! `.rel.text.<caller>` against the undefined callee; `.nv.callgraph` lists every call edge.

use crate::sections::{Layout, Section, Symbol, SHT_CUDA_INFO, SHT_PROGBITS, SHT_REL};
use crate::{CubinError, CubinModule, KernelImage};

const ET_REL: u16 = 1;
const SHT_CUDA_PROTOTYPE: u32 = 0x7000_0002;
const SHT_CUDA_CONSTANT_B0: u32 = 0x7000_0064;
/// The relocation of `CALL.ABS.NOINC`'s address: (S + A) >> 2 into bits 34..80.
pub const R_CUDA_ABS47_34: u32 = 0x3a;

const EIFMT_NVAL: u8 = 1;
const EIFMT_HVAL: u8 = 3;
const EIFMT_SVAL: u8 = 4;
const FRAME_SIZE: u8 = 0x11;
const EXTERNS: u8 = 0x0f;
const MAX_STACK_SIZE: u8 = 0x23;
const REGCOUNT: u8 = 0x2f;
const SW2861232_WAR: u8 = 0x35;
const CUDA_API_VERSION: u8 = 0x37;
const MERCURY_ISA_VERSION: u8 = 0x5f;
const LANGUAGE: u8 = 0x66;

/// Writes the relocatable object of `m`, whose images may include device functions.
pub fn write_relocatable(m: &CubinModule) -> Result<Vec<u8>, CubinError> {
    if !m.sm.is_supported() {
        return Err(CubinError(format!("unsupported architecture {}", m.sm)));
    }
    if m.address_size != 64 {
        return Err(CubinError(".address_size 32 is not supported".into()));
    }
    let (functions, kernels): (Vec<KernelImage>, Vec<KernelImage>) =
        m.kernels.iter().cloned().partition(|k| k.device_function);
    let entries = CubinModule {
        kernels,
        ..m.clone()
    };
    let mut layout = crate::sections::build(&entries);
    retype_sections(&mut layout);
    let mut images: Vec<(usize, u32, &KernelImage)> = entries
        .kernels
        .iter()
        .rev()
        .map(|k| {
            let sym = defined_symbol(&layout, &k.name).unwrap_or(0);
            let text = layout.symbols[sym as usize].shndx as usize;
            (text, sym, k)
        })
        .collect();
    for f in &functions {
        let (text, sym) = add_function(&mut layout, m, f);
        images.push((text, sym, f));
    }
    for (_, _, k) in &images {
        for name in &k.externs {
            undefined_symbol(&mut layout, name);
        }
    }
    // The EXTERNS records of the functions name symbols that exist only now.
    for f in &functions {
        let info = format!(".nv.info.{}", f.name);
        if let Some(s) = layout.sections.iter().position(|s| s.name == info) {
            let data = function_info(m, f, &layout.symbols);
            layout.sections[s].data = data;
        }
    }
    for &(text, sym, k) in &images {
        add_text_relocations(&mut layout, text, sym, k);
    }
    let info = section_index(&layout, ".nv.info");
    layout.sections[info].data = module_info(&images);
    let callgraph = section_index(&layout, ".nv.callgraph");
    layout.sections[callgraph].data = callgraph_edges(&layout.symbols, &images);
    let mut bytes = crate::elf::write(m.sm, &layout);
    make_relocatable(&mut bytes);
    Ok(bytes)
}

fn section_index(layout: &Layout, name: &str) -> usize {
    layout
        .sections
        .iter()
        .position(|s| s.name == name)
        .expect("the executable's layout has it")
}

/// The object's section types: constant bank 0 as CUDA_CONSTANT_B0, `.nv.rel.action` (an
/// executable's) made `.nv.prototype` (an object's), or `.nv.prototype` added.
fn retype_sections(layout: &mut Layout) {
    for s in &mut layout.sections {
        if s.name.starts_with(".nv.constant0.") {
            s.sh_type = SHT_CUDA_CONSTANT_B0;
        }
    }
    let prototype = Section {
        name: ".nv.prototype".into(),
        sh_type: SHT_CUDA_PROTOTYPE,
        link: 3,
        align: 4,
        entsize: 8,
        ..Section::default()
    };
    match layout
        .sections
        .iter()
        .position(|s| s.name == ".nv.rel.action")
    {
        Some(at) => {
            layout.sections[at] = prototype;
            for sym in &mut layout.symbols {
                if sym.shndx as usize == at && sym.info == 0x03 {
                    sym.name = ".nv.prototype".into();
                }
            }
        }
        None => layout.sections.push(prototype),
    }
}

/// The index of the defined GLOBAL (or WEAK) symbol `name`.
fn defined_symbol(layout: &Layout, name: &str) -> Option<u32> {
    layout
        .symbols
        .iter()
        .position(|s| s.name == name && s.shndx != 0 && s.info >> 4 != 0)
        .map(|n| n as u32)
}

/// The undefined FUNC symbol `name`, added at the end when new.
fn undefined_symbol(layout: &mut Layout, name: &str) -> u32 {
    if let Some(n) = layout
        .symbols
        .iter()
        .position(|s| s.name == name && s.shndx == 0 && s.info == 0x12)
    {
        return n as u32;
    }
    layout.symbols.push(Symbol {
        name: name.to_string(),
        info: 0x12,
        ..Symbol::default()
    });
    (layout.symbols.len() - 1) as u32
}

/// A device function's `.text.<name>` and `.nv.info.<name>` (filled later) and its GLOBAL FUNC
/// symbol; returns its text section and symbol.
fn add_function(layout: &mut Layout, m: &CubinModule, f: &KernelImage) -> (usize, u32) {
    let sym = layout.symbols.len() as u32;
    let text = layout.sections.len() + 1;
    layout.sections.push(Section {
        name: format!(".nv.info.{}", f.name),
        sh_type: SHT_CUDA_INFO,
        flags: 0x40,
        link: 3,
        info: text as u32,
        align: 4,
        ..Section::default()
    });
    layout.sections.push(Section {
        name: format!(".text.{}", f.name),
        sh_type: SHT_PROGBITS,
        flags: 0x6,
        link: 3,
        info: if m.sm.new_elf_family() {
            sym
        } else {
            (f.num_gprs << 24) | sym
        },
        align: 128,
        data: f.code.clone(),
        ..Section::default()
    });
    layout.symbols.push(Symbol {
        name: f.name.clone(),
        info: 0x12,
        shndx: text as u16,
        size: f.code.len() as u64,
        ..Symbol::default()
    });
    (text, sym)
}

/// A device function's bytes of stack: its one subroutine's frame.
fn frame_of(k: &KernelImage) -> u32 {
    match (k.device_function, k.subroutines.first()) {
        (true, Some(s)) => s.frame_size,
        _ => k.frame_size,
    }
}

struct Records(Vec<u8>);

impl Records {
    fn words(&mut self, attr: u8, words: &[u32]) {
        self.0.extend_from_slice(&[EIFMT_SVAL, attr]);
        self.0
            .extend_from_slice(&(4 * words.len() as u16).to_le_bytes());
        words
            .iter()
            .for_each(|w| self.0.extend_from_slice(&w.to_le_bytes()));
    }
    fn hval(&mut self, attr: u8, v: u16) {
        self.0.extend_from_slice(&[EIFMT_HVAL, attr]);
        self.0.extend_from_slice(&v.to_le_bytes());
    }
}

/// A device function's `.nv.info.<name>`, as ptxas writes it: LANGUAGE, CUDA_API_VERSION, the
/// sm_80 family's workaround flag, EXTERNS of what it calls, the ISA version.
fn function_info(m: &CubinModule, f: &KernelImage, symbols: &[Symbol]) -> Vec<u8> {
    let mut r = Records(Vec::new());
    r.words(LANGUAGE, &[3]);
    r.words(CUDA_API_VERSION, &[0x87]);
    if matches!(m.sm.num, 80 | 86 | 87 | 88) {
        r.0.extend_from_slice(&[EIFMT_NVAL, SW2861232_WAR, 0, 0]);
    }
    let externs: Vec<u32> = f
        .externs
        .iter()
        .filter_map(|n| {
            symbols
                .iter()
                .position(|s| s.name == *n && s.shndx == 0)
                .map(|x| x as u32)
        })
        .collect();
    if !externs.is_empty() {
        r.words(EXTERNS, &externs);
    }
    let isa = if m.sm.new_elf_family() { 0x0101 } else { 0 };
    r.hval(MERCURY_ISA_VERSION, isa);
    r.0
}

/// The module-wide `.nv.info` of an object: per function REGCOUNT, MAX_STACK_SIZE, FRAME_SIZE.
fn module_info(images: &[(usize, u32, &KernelImage)]) -> Vec<u8> {
    let mut r = Records(Vec::new());
    for &(_, sym, k) in images {
        r.words(REGCOUNT, &[sym, k.num_gprs]);
        // 0 as ptxas writes it whatever the frame (the linker sums frames along the call graph).
        r.words(MAX_STACK_SIZE, &[sym, 0]);
        r.words(FRAME_SIZE, &[sym, frame_of(k)]);
    }
    r.0
}

/// `.rel.text.<name>`: R_CUDA_ABS47_34 of each linked call against its callee.
fn add_text_relocations(layout: &mut Layout, text: usize, _sym: u32, k: &KernelImage) {
    if k.linked_calls.is_empty() {
        return;
    }
    let mut data = Vec::new();
    for (at, callee) in &k.linked_calls {
        let callee = undefined_symbol(layout, callee);
        data.extend_from_slice(&(*at as u64).to_le_bytes());
        let info = ((callee as u64) << 32) | R_CUDA_ABS47_34 as u64;
        data.extend_from_slice(&info.to_le_bytes());
    }
    layout.sections.push(Section {
        name: format!(".rel.text.{}", k.name),
        sh_type: SHT_REL,
        flags: 0x40,
        link: 3,
        info: text as u32,
        align: 8,
        entsize: 16,
        data,
        ..Section::default()
    });
}

/// `.nv.callgraph`: the four list markers, each function's call edges (last callee first, as
/// ptxas lists them) after the first.
fn callgraph_edges(symbols: &[Symbol], images: &[(usize, u32, &KernelImage)]) -> Vec<u8> {
    let mut v = Vec::new();
    let mut pair = |a: u32, b: i32| {
        v.extend_from_slice(&a.to_le_bytes());
        v.extend_from_slice(&b.to_le_bytes());
    };
    pair(0, -1);
    for &(_, sym, k) in images {
        for name in k.externs.iter().rev() {
            if let Some(s) = symbols.iter().position(|s| s.name == *name && s.shndx == 0) {
                pair(sym, s as i32);
            }
        }
    }
    for marker in [-2, -3, -4] {
        pair(0, marker);
    }
    v
}

/// The executable's ELF header made an object's: ET_REL, and no program headers (they are the
/// file's last bytes, after the section header table).
fn make_relocatable(bytes: &mut Vec<u8>) {
    let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8"));
    let phoff = u64_at(bytes, 0x20) as usize;
    bytes[0x10..0x12].copy_from_slice(&ET_REL.to_le_bytes());
    if phoff > 0 && phoff <= bytes.len() {
        bytes.truncate(phoff);
    }
    bytes[0x20..0x28].copy_from_slice(&0u64.to_le_bytes());
    bytes[0x38..0x3a].copy_from_slice(&0u16.to_le_bytes());
}
