//! Cubin loader: finds a kernel's code, constant bank 0 layout, constant bank 2 contents and
//! shared-memory size in a cubin ELF.

use crate::EmuError;

/// What the emulator needs to know about one kernel of a cubin.
#[derive(Clone, Debug)]
pub struct KernelImage {
    /// Architecture number from `e_flags` (75, 80, 86, 89, 90).
    pub sm: u32,
    /// The kernel's SASS (`.text.<entry>`).
    pub code: Vec<u8>,
    /// Size of `.nv.constant0.<entry>` (driver area plus parameters).
    pub cbank0_size: u32,
    /// Offset and size of the parameters in constant bank 0.
    pub param_offset: u32,
    pub param_size: u32,
    /// Bytes of `.nv.shared.<entry>` (on sm_90 this includes the 1 KiB reserved window).
    pub shared_size: u32,
    /// Bytes of local memory (stack) per thread: the kernel's EIATTR_MIN_STACK_SIZE in `.nv.info`
    /// (0 when it has none); R1 starts there (`c[0x0][0x28]`).
    pub stack_size: u32,
    /// Contents of `.nv.constant2.<entry>`: constants the compiler placed (ptxas puts 64-bit
    /// float literals of arithmetic there); empty when there is none.
    pub cbank2: Vec<u8>,
    /// Contents of `.nv.constant3`: the module's `.const` variables (`__constant__`).
    pub cbank3: Vec<u8>,
    /// Contents of `.nv.constant4`, its relocations applied: the addresses of module variables.
    pub cbank4: Vec<u8>,
    /// The module's variables: `.nv.global.init` and `.nv.global`, each placed at its own address
    /// ([`MODULE_VARS_BASE`] on), as a loader would.
    pub module_vars: Vec<crate::Buffer>,
    /// The undefined functions bank 4 holds addresses of (`vprintf`, `__assertfail`): the
    /// address the loader gave each ([`EXTERN_FUNCS_BASE`] on) and its name.
    pub externs: Vec<(u64, String)>,
}

/// Where the loader places the undefined functions the code calls (no code lives there: the
/// emulator runs a model of each, `syscalls.rs`).
pub const EXTERN_FUNCS_BASE: u64 = 0x7ffe_0000_0000;

/// Where the loader places module variables' sections (away from the launch's buffers).
pub const MODULE_VARS_BASE: u64 = 0x7e00_0000_0000;
/// The distance between two placed sections.
const MODULE_VARS_STRIDE: u64 = 0x1_0000_0000;

/// The kernels of a cubin (the names of its `.text.<kernel>` sections).
pub fn kernel_names(cubin: &[u8]) -> Result<Vec<String>, EmuError> {
    let elf = Elf::parse(cubin)?;
    Ok(elf
        .sections
        .iter()
        .filter_map(|s| s.name.strip_prefix(".text.").map(str::to_string))
        .collect())
}

/// EIATTR_PARAM_CBANK (format SVAL): `u32 symidx, u16 param_offset, u16 param_size`.
const EIATTR_PARAM_CBANK: u8 = 0x0a;
const EIFMT_NVAL: u8 = 1;
const EIFMT_BVAL: u8 = 2;
const EIFMT_HVAL: u8 = 3;
const EIFMT_SVAL: u8 = 4;

fn bad(msg: String) -> EmuError {
    EmuError::BadCubin(msg)
}

/// Loads kernel `entry` from `cubin`.
pub fn load_kernel(cubin: &[u8], entry: &str) -> Result<KernelImage, EmuError> {
    let elf = Elf::parse(cubin)?;
    let sm = (elf.flags >> 8) & 0xff;
    if ![75, 80, 86, 89, 90].contains(&sm) {
        return Err(bad(format!(
            "unsupported architecture sm_{sm} (e_flags {:#x})",
            elf.flags
        )));
    }
    let section = |name: String| elf.section(&name);
    let data = |name: String| -> Result<Option<&[u8]>, EmuError> {
        match section(name.clone()) {
            None => Ok(None),
            Some(s) => s
                .data(cubin)
                .map(Some)
                .ok_or_else(|| bad(format!("{name} lies outside the file"))),
        }
    };
    let code = data(format!(".text.{entry}"))?
        .ok_or_else(|| bad(format!("no .text.{entry} section")))?
        .to_vec();
    if code.len() % 16 != 0 {
        return Err(bad(format!(
            ".text.{entry} is not a whole number of 16-byte instructions"
        )));
    }
    let cbank0_size = section(format!(".nv.constant0.{entry}")).map_or(0, |s| s.size as u32);
    let shared_size = section(format!(".nv.shared.{entry}")).map_or(0, |s| s.size as u32);
    let cbank2 = data(format!(".nv.constant2.{entry}"))?.map_or_else(Vec::new, <[u8]>::to_vec);
    let cbank3 = data(".nv.constant3".into())?.map_or_else(Vec::new, <[u8]>::to_vec);
    let default_base = if sm >= 90 { 0x210 } else { 0x160 };
    let (param_offset, param_size) = match data(format!(".nv.info.{entry}"))? {
        Some(info) => param_cbank(info)?,
        None => None,
    }
    .unwrap_or((default_base, cbank0_size.saturating_sub(default_base)));
    let stack_size = match (data(".nv.info".into())?, symbol_index(&elf, cubin, entry)) {
        // "Cannot be statically determined" (recursion): the driver's default stack size.
        (Some(info), Some(sym)) => match min_stack_size(info, sym)?.unwrap_or(0) {
            u32::MAX => DEFAULT_STACK_SIZE,
            n => n,
        },
        _ => 0,
    };
    let (module_vars, bases) = module_variables(&elf, cubin)?;
    let mut externs = Vec::new();
    let cbank4 = relocated_bank4(&elf, cubin, &bases, &mut externs)?;
    Ok(KernelImage {
        sm,
        code,
        cbank0_size,
        param_offset,
        param_size,
        shared_size,
        stack_size,
        cbank2,
        cbank3,
        cbank4,
        module_vars,
        externs,
    })
}

/// The variables' sections, each at its own base address, and every section's base (0 for others).
fn module_variables(elf: &Elf, file: &[u8]) -> Result<(Vec<crate::Buffer>, Vec<u64>), EmuError> {
    let mut vars = Vec::new();
    let mut bases = vec![0u64; elf.sections.len()];
    for (n, s) in elf.sections.iter().enumerate() {
        if s.name != ".nv.global.init" && s.name != ".nv.global" {
            continue;
        }
        let addr = MODULE_VARS_BASE + MODULE_VARS_STRIDE * vars.len() as u64;
        let bytes = if s.kind == SHT_NOBITS {
            vec![0u8; s.size as usize]
        } else {
            s.data(file)
                .ok_or_else(|| bad(format!("{} lies outside the file", s.name)))?
                .to_vec()
        };
        bases[n] = addr;
        vars.push(crate::Buffer { addr, bytes });
    }
    Ok((vars, bases))
}

const SHT_SYMTAB: u32 = 2;
const SHT_RELA: u32 = 4;
const SHT_REL: u32 = 9;
const R_CUDA_64: u64 = 2;

/// `.nv.constant4` with each R_CUDA_64 of `.rel(a).nv.constant4` written in: the symbol's section
/// base plus its value (plus the addend).
fn relocated_bank4(
    elf: &Elf,
    file: &[u8],
    bases: &[u64],
    externs: &mut Vec<(u64, String)>,
) -> Result<Vec<u8>, EmuError> {
    let Some(bank) = elf.section(".nv.constant4") else {
        return Ok(Vec::new());
    };
    let mut bytes = bank
        .data(file)
        .ok_or_else(|| bad(".nv.constant4 lies outside the file".into()))?
        .to_vec();
    let symtab = elf
        .sections
        .iter()
        .find(|s| s.kind == SHT_SYMTAB)
        .and_then(|s| s.data(file))
        .unwrap_or(&[]);
    for rel in elf.sections.iter().filter(|s| {
        (s.kind == SHT_REL && s.name == ".rel.nv.constant4")
            || (s.kind == SHT_RELA && s.name == ".rela.nv.constant4")
    }) {
        let entry = if rel.kind == SHT_RELA { 24 } else { 16 };
        let data = rel
            .data(file)
            .ok_or_else(|| bad(format!("{} lies outside the file", rel.name)))?;
        for r in data.chunks_exact(entry) {
            let at = le(r, 0, 8).unwrap_or(0) as usize;
            let info = le(r, 8, 8).unwrap_or(0);
            let addend = if entry == 24 {
                le(r, 16, 8).unwrap_or(0)
            } else {
                0
            };
            if info & 0xffff_ffff != R_CUDA_64 {
                return Err(bad(format!(
                    "relocation type {} in {}",
                    info & 0xffff_ffff,
                    rel.name
                )));
            }
            let sym = (info >> 32) as usize * 24;
            let (shndx, value) = (
                le(symtab, sym + 6, 2).ok_or_else(|| bad("symbol index".into()))? as usize,
                le(symtab, sym + 8, 8).ok_or_else(|| bad("symbol index".into()))?,
            );
            let base = bases.get(shndx).copied().unwrap_or(0);
            let mut addr = base.wrapping_add(value).wrapping_add(addend);
            if shndx == 0 {
                addr = extern_address(elf, file, symtab, sym, externs);
            }
            bytes
                .get_mut(at..at + 8)
                .ok_or_else(|| bad(format!("{} writes past .nv.constant4", rel.name)))?
                .copy_from_slice(&addr.to_le_bytes());
        }
    }
    Ok(bytes)
}

/// EIATTR_MIN_STACK_SIZE (format SVAL): `u32 symidx, u32 bytes`, in the module-wide `.nv.info`.
const EIATTR_MIN_STACK_SIZE: u8 = 0x12;

/// The `.symtab` index of the symbol named `name`.
fn symbol_index(elf: &Elf, file: &[u8], name: &str) -> Option<u32> {
    let symtab = elf.section(".symtab")?.data(file)?;
    let strtab = elf.section(".strtab")?.data(file)?;
    symtab
        .chunks_exact(24)
        .position(|sym| {
            let at = u32::from_le_bytes(sym[..4].try_into().expect("4 bytes")) as usize;
            let rest = strtab.get(at..).unwrap_or(&[]);
            rest.split(|&c| c == 0).next() == Some(name.as_bytes())
        })
        .map(|n| n as u32)
}

/// The stack a launch gets per thread where the cubin cannot say (CUDA's default
/// `cudaLimitStackSize`).
const DEFAULT_STACK_SIZE: u32 = 1024;

/// The stack size `.nv.info` records for symbol `sym`.
fn min_stack_size(data: &[u8], sym: u32) -> Result<Option<u32>, EmuError> {
    let mut found = None;
    walk_records(data, |attr, format, rec| {
        if attr == EIATTR_MIN_STACK_SIZE && format == EIFMT_SVAL && rec.len() >= 12 {
            let word = |at: usize| u32::from_le_bytes(rec[at..at + 4].try_into().expect("4 bytes"));
            if word(4) == sym {
                found = Some(word(8));
            }
        }
    })?;
    Ok(found)
}

/// Calls `f(attr, format, record)` for each EIATTR record of an `.nv.info` section.
fn walk_records(data: &[u8], mut f: impl FnMut(u8, u8, &[u8])) -> Result<(), EmuError> {
    let mut at = 0usize;
    while at + 4 <= data.len() {
        let (format, attr) = (data[at], data[at + 1]);
        let len = match format {
            EIFMT_NVAL | EIFMT_BVAL | EIFMT_HVAL => 4,
            EIFMT_SVAL => 4 + u16::from_le_bytes([data[at + 2], data[at + 3]]) as usize,
            _ => {
                return Err(bad(format!(
                    "EIATTR record with format {format} at offset {at}"
                )))
            }
        };
        let rec = data
            .get(at..at + len)
            .ok_or_else(|| bad("truncated EIATTR record".into()))?;
        f(attr, format, rec);
        at += len;
    }
    Ok(())
}

/// The parameters' offset and size that a `.nv.info.<kernel>` section's PARAM_CBANK records.
fn param_cbank(data: &[u8]) -> Result<Option<(u32, u32)>, EmuError> {
    let mut found = None;
    walk_records(data, |attr, format, rec| {
        if found.is_none() && attr == EIATTR_PARAM_CBANK && format == EIFMT_SVAL && rec.len() >= 12
        {
            let off = u16::from_le_bytes([rec[8], rec[9]]) as u32;
            let size = u16::from_le_bytes([rec[10], rec[11]]) as u32;
            found = Some((off, size));
        }
    })?;
    Ok(found)
}

/// One section header (the fields the loader uses).
#[derive(Clone, Debug)]
struct Section {
    name: String,
    kind: u32,
    offset: u64,
    size: u64,
}

const SHT_NOBITS: u32 = 8;

impl Section {
    fn data<'a>(&self, file: &'a [u8]) -> Option<&'a [u8]> {
        if self.kind == SHT_NOBITS {
            return Some(&[]);
        }
        file.get(self.offset as usize..self.offset.checked_add(self.size)? as usize)
    }
}

/// The parts of a little-endian ELF64 file the loader reads: `e_flags` and the section headers.
/// (Program headers are not read, so a cubin with odd ones still loads.)
struct Elf {
    flags: u32,
    sections: Vec<Section>,
}

fn le(file: &[u8], at: usize, n: usize) -> Option<u64> {
    let b = file.get(at..at + n)?;
    Some(b.iter().rev().fold(0u64, |v, &x| v << 8 | x as u64))
}

impl Elf {
    fn parse(file: &[u8]) -> Result<Elf, EmuError> {
        if file.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 2, 1][..]) {
            return Err(bad("not a little-endian ELF64 file".into()));
        }
        let field =
            |at: usize, n: usize| le(file, at, n).ok_or_else(|| bad("truncated ELF header".into()));
        let flags = field(0x30, 4)? as u32;
        let (shoff, shentsize, shnum, shstrndx) = (
            field(0x28, 8)?,
            field(0x3a, 2)?,
            field(0x3c, 2)?,
            field(0x3e, 2)?,
        );
        if shentsize < 64 {
            return Err(bad(format!("section header size {shentsize}")));
        }
        let header = |n: u64| -> Result<(u32, u32, u64, u64), EmuError> {
            let at = shoff
                .checked_add(n * shentsize)
                .ok_or_else(|| bad("section header offset".into()))? as usize;
            let f = |o: usize, w: usize| {
                le(file, at + o, w).ok_or_else(|| bad("truncated section headers".into()))
            };
            Ok((f(0, 4)? as u32, f(4, 4)? as u32, f(0x18, 8)?, f(0x20, 8)?))
        };
        let (_, _, str_off, str_size) = header(shstrndx)?;
        let str_end = str_off
            .checked_add(str_size)
            .ok_or_else(|| bad("section name table".into()))?;
        let strtab = file
            .get(str_off as usize..str_end as usize)
            .ok_or_else(|| bad("section name table".into()))?;
        let mut sections = Vec::with_capacity(shnum as usize);
        for n in 0..shnum {
            let (name_off, kind, offset, size) = header(n)?;
            let name = strtab.get(name_off as usize..).unwrap_or(&[]);
            let name = String::from_utf8_lossy(
                &name[..name.iter().position(|&c| c == 0).unwrap_or(name.len())],
            )
            .into_owned();
            sections.push(Section {
                name,
                kind,
                offset,
                size,
            });
        }
        Ok(Elf { flags, sections })
    }

    fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// The address of the undefined function whose symbol starts at `sym` in `symtab`, placed at
/// the next free address when it is new.
fn extern_address(
    elf: &Elf,
    file: &[u8],
    symtab: &[u8],
    sym: usize,
    externs: &mut Vec<(u64, String)>,
) -> u64 {
    let strtab = elf
        .section(".strtab")
        .and_then(|s| s.data(file))
        .unwrap_or(&[]);
    let at = le(symtab, sym, 4).unwrap_or(0) as usize;
    let name = strtab
        .get(at..)
        .and_then(|s| s.split(|&c| c == 0).next())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_default();
    if let Some((addr, _)) = externs.iter().find(|(_, n)| *n == name) {
        return *addr;
    }
    let addr = EXTERN_FUNCS_BASE + 16 * externs.len() as u64;
    externs.push((addr, name));
    addr
}
