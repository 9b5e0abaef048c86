//! ELF64 layout: header, section contents in section order, the section header table, then the
//! program headers, as ptxas places them.

use ptxforge_sass::arch::Sm;

use crate::sections::{Layout, Section, SHT_NOBITS};

const EM_CUDA: u16 = 190;
const ET_EXEC: u16 = 2;
const PT_LOAD: u32 = 1;
const PT_PHDR: u32 = 6;

/// Serialises `layout` (string tables and symbol table are generated here).
pub fn write(sm: Sm, layout: &Layout) -> Vec<u8> {
    let mut secs = layout.sections.clone();
    let (shstrtab, name_offs) = string_table(secs.iter().map(|s| s.name.as_str()));
    let (strtab, sym_offs) = string_table(layout.symbols.iter().map(|s| s.name.as_str()));
    secs[1].data = shstrtab;
    secs[2].data = strtab;
    secs[3].data = symtab_bytes(layout, &sym_offs);
    secs[3].info = layout.symtab_info;

    // Sized once for the sections, their alignment and the headers: growing by doubling copied a
    // large cubin several times over into fresh pages (the ELF stage runs alone, after all kernels).
    let data_bytes: usize = secs
        .iter()
        .map(|s| s.data.len() + s.align.max(1) as usize)
        .sum();
    let mut out = Vec::with_capacity(64 + data_bytes + 64 * secs.len() + 56 * 8);
    out.resize(64, 0u8);
    let mut offsets = vec![0u64; secs.len()];
    for (i, s) in secs.iter().enumerate().skip(1) {
        align_to(&mut out, s.align.max(1) as usize);
        offsets[i] = out.len() as u64;
        if s.sh_type != SHT_NOBITS {
            out.extend_from_slice(&s.data);
        }
    }
    // The header tables are 8-byte aligned, as ptxas writes them (and as ELF readers such as
    // `object` require), also after sections of odd length (`.nv.global.init` of 90 bytes).
    align_to(&mut out, 8);
    let shoff = out.len() as u64;
    for (i, s) in secs.iter().enumerate() {
        section_header(
            &mut out,
            s,
            if i == 0 { 0 } else { name_offs[i] },
            offsets[i],
        );
    }
    let phoff = out.len() as u64;
    let phdrs = program_headers(sm, &secs, &offsets, phoff);
    for p in &phdrs {
        p.write(&mut out);
    }
    let flags = (layout.cuinfo_index << 24) | (sm.num << 8) | 0x04;
    elf_header(
        &mut out,
        shoff,
        phoff,
        phdrs.len() as u16,
        secs.len() as u16,
        flags,
    );
    out
}

fn align_to(out: &mut Vec<u8>, align: usize) {
    while out.len() % align != 0 {
        out.push(0);
    }
}

/// `\0name\0name\0...` and each name's offset (identical names share nothing; order is kept).
fn string_table<'a>(names: impl Iterator<Item = &'a str>) -> (Vec<u8>, Vec<u32>) {
    let mut data = vec![0u8];
    let mut offs = Vec::new();
    for n in names {
        if n.is_empty() {
            offs.push(0);
            continue;
        }
        offs.push(data.len() as u32);
        data.extend_from_slice(n.as_bytes());
        data.push(0);
    }
    (data, offs)
}

fn symtab_bytes(layout: &Layout, name_offs: &[u32]) -> Vec<u8> {
    let mut v = Vec::with_capacity(layout.symbols.len() * 24);
    for (s, off) in layout.symbols.iter().zip(name_offs) {
        v.extend_from_slice(&off.to_le_bytes());
        v.push(s.info);
        v.push(s.other);
        v.extend_from_slice(&s.shndx.to_le_bytes());
        v.extend_from_slice(&s.value.to_le_bytes());
        v.extend_from_slice(&s.size.to_le_bytes());
    }
    v
}

fn section_header(out: &mut Vec<u8>, s: &Section, name: u32, offset: u64) {
    let size = if s.sh_type == SHT_NOBITS {
        s.nobits_size
    } else {
        s.data.len() as u64
    };
    out.extend_from_slice(&name.to_le_bytes());
    out.extend_from_slice(&s.sh_type.to_le_bytes());
    out.extend_from_slice(&s.flags.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&s.link.to_le_bytes());
    out.extend_from_slice(&s.info.to_le_bytes());
    out.extend_from_slice(&s.align.to_le_bytes());
    out.extend_from_slice(&s.entsize.to_le_bytes());
}

struct Phdr {
    kind: u32,
    flags: u32,
    offset: u64,
    filesz: u64,
    memsz: u64,
}

impl Phdr {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.kind.to_le_bytes());
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&self.filesz.to_le_bytes());
        out.extend_from_slice(&self.memsz.to_le_bytes());
        out.extend_from_slice(&8u64.to_le_bytes());
    }
}

/// File offset, file size and memory size covered by the sections `pick` selects (None if none).
fn span(
    secs: &[Section],
    offsets: &[u64],
    pick: impl Fn(&Section) -> bool,
) -> Option<(u64, u64, u64)> {
    let idx: Vec<usize> = (1..secs.len()).filter(|&i| pick(&secs[i])).collect();
    let (first, last) = (*idx.first()?, *idx.last()?);
    let size = |i: usize| {
        if secs[i].sh_type == SHT_NOBITS {
            0
        } else {
            secs[i].data.len() as u64
        }
    };
    let filesz = offsets[last] + size(last) - offsets[first];
    let memsz = idx
        .iter()
        .map(|&i| {
            if secs[i].sh_type == SHT_NOBITS {
                secs[i].nobits_size
            } else {
                size(i)
            }
        })
        .sum::<u64>()
        .max(filesz);
    Some((offsets[first], filesz, memsz))
}

fn load(flags: u32, (offset, filesz, memsz): (u64, u64, u64)) -> Phdr {
    Phdr {
        kind: PT_LOAD,
        flags,
        offset,
        filesz,
        memsz,
    }
}

/// Program headers as ptxas lays them out (`../shared/docs/cubin.md` §2): legacy family PHDR,
/// LOAD R+X (constant banks through code), LOAD R+W (shared, if any), LOAD R+X (the table);
/// sm_90 family PHDR, LOAD R (the table), LOAD R+X (code), LOAD R+W (NOBITS), LOAD R (constant0).
fn program_headers(sm: Sm, secs: &[Section], offsets: &[u64], phoff: u64) -> Vec<Phdr> {
    let is = |s: &Section, prefix: &str| s.name.starts_with(prefix);
    let nobits = span(secs, offsets, |s| {
        s.sh_type == SHT_NOBITS || s.name == ".nv.global.init"
    });
    if sm.new_elf_family() {
        let table = 56 * 5;
        let code = span(secs, offsets, |s| is(s, ".text.")).unwrap_or((phoff, 0, 0));
        let data = nobits.unwrap_or((phoff, 0, 0));
        let constants = span(secs, offsets, |s| is(s, ".nv.constant0.")).unwrap_or((phoff, 0, 0));
        return vec![
            Phdr {
                kind: PT_PHDR,
                flags: 4,
                offset: phoff,
                filesz: table,
                memsz: table,
            },
            load(4, (phoff, table, table)),
            load(5, code),
            load(6, data),
            load(4, constants),
        ];
    }
    let count = if nobits.is_some() { 4 } else { 3 };
    let table = 56 * count;
    let code =
        span(secs, offsets, |s| is(s, ".nv.constant") || is(s, ".text.")).unwrap_or((phoff, 0, 0));
    let mut v = vec![
        Phdr {
            kind: PT_PHDR,
            flags: 5,
            offset: phoff,
            filesz: table,
            memsz: table,
        },
        load(5, code),
    ];
    if let Some(rw) = nobits {
        v.push(load(6, rw));
    }
    v.push(load(5, (phoff, table, table)));
    v
}

fn elf_header(out: &mut [u8], shoff: u64, phoff: u64, phnum: u16, shnum: u16, flags: u32) {
    let mut h = Vec::with_capacity(64);
    h.extend_from_slice(&[
        0x7f, b'E', b'L', b'F', 2, 1, 1, 0x41, 8, 0, 0, 0, 0, 0, 0, 0,
    ]);
    h.extend_from_slice(&ET_EXEC.to_le_bytes());
    h.extend_from_slice(&EM_CUDA.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&0u64.to_le_bytes());
    h.extend_from_slice(&phoff.to_le_bytes());
    h.extend_from_slice(&shoff.to_le_bytes());
    h.extend_from_slice(&flags.to_le_bytes());
    h.extend_from_slice(&64u16.to_le_bytes());
    h.extend_from_slice(&56u16.to_le_bytes());
    h.extend_from_slice(&phnum.to_le_bytes());
    h.extend_from_slice(&64u16.to_le_bytes());
    h.extend_from_slice(&shnum.to_le_bytes());
    h.extend_from_slice(&1u16.to_le_bytes());
    out[..64].copy_from_slice(&h);
}
