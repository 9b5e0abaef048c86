//! `-lineinfo`'s sections, as ptxas writes them for PTX with `.file`/`.loc` directives:
//! `.debug_line` (SASS addresses → the source lines the `.loc` directives name),
//! `.nv_debug_line_sass` (SASS addresses → lines of the PTX itself, kept in `.nv_debug_ptx_txt`)
//! and their R_CUDA_64 relocations of each kernel's start address.
//!
//! Both line programs are written with `gimli::write` (DWARF 3, ptxas's line base -5 and range
//! 14), one sequence per kernel starting at the kernel's symbol; the addresses go through a
//! writer that records where each symbol's address stands ([`RelocWriter`]). The sections are put
//! where ptxas puts them (after `.debug_frame`, their relocations before its), with every section
//! index of the layout moved past them.

use gimli::write::{
    Address, DebugLine, DebugLineStrOffsets, DebugStrOffsets, EndianVec, LineProgram, LineString,
    Writer,
};
use gimli::{Encoding, Format, LineEncoding, LittleEndian};

use crate::sections::{Layout, Section, SHT_PROGBITS};
use crate::{CubinError, R_CUDA_64};

/// The line information of a module, in the form the writer needs: made by the driver from the
/// PTX's `.file`/`.loc` directives and each instruction's PTX line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineTables {
    /// The source files `.loc` directives name, in table order: [`SourceLine::file`] indexes it.
    pub files: Vec<String>,
    /// `.nv_debug_ptx_txt`: the PTX text as ptxas keeps it (see [`ptx_text_section`]).
    pub ptx_text: Vec<u8>,
    /// One entry per kernel, named as in [`crate::KernelImage::name`].
    pub kernels: Vec<KernelLines>,
}

/// One kernel's rows: for each 16-byte instruction, its PTX line and its source line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelLines {
    pub name: String,
    /// The PTX line of each instruction (0: none, the row before it goes on).
    pub ptx_lines: Vec<u32>,
    /// The source line of each instruction (`None`: the row before it goes on).
    pub source: Vec<Option<SourceLine>>,
}

/// A source position a `.loc` directive names.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceLine {
    /// Index into [`LineTables::files`].
    pub file: u32,
    pub line: u32,
    pub column: u32,
}

/// `.nv_debug_ptx_txt`'s contents: each line of the PTX, NUL-terminated, without the white space
/// before it (what follows it stays), and empty for a line that is only a comment and for the directives that only carry
/// debug data (`.loc`, `.file`, a `.section`'s `.b8`... data lines): line N of it is PTX line N.
/// A comment after code stays, as ptxas keeps it.
pub fn ptx_text_section(ptx: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(ptx.len());
    for line in ptx.lines() {
        let kept = line.trim_start();
        if !kept.starts_with("//") && !carries_only_debug_data(kept) {
            out.extend_from_slice(kept.as_bytes());
        }
        out.push(0);
    }
    out
}

/// Whether a PTX line is a directive ptxas leaves out of `.nv_debug_ptx_txt`.
fn carries_only_debug_data(line: &str) -> bool {
    let word = line.split_ascii_whitespace().next().unwrap_or("");
    matches!(
        word,
        ".loc" | ".file" | ".b8" | ".b16" | ".b32" | ".b64" | ".quad" | ".dword"
    )
}

/// Adds the line-table sections for `tables` to `layout`; kernels without rows get no sequence.
pub fn add_sections(layout: &mut Layout, tables: &LineTables) -> Result<(), CubinError> {
    let kernels: Vec<(&KernelLines, u32)> = tables
        .kernels
        .iter()
        .filter_map(|k| Some((k, function_symbol(layout, &k.name)?)))
        .filter(|(k, _)| !k.ptx_lines.is_empty())
        .collect();
    if kernels.is_empty() {
        return Ok(());
    }
    let source = source_program(&tables.files, &kernels)?;
    let ptx = ptx_program(&kernels)?;
    let Some(frame) = layout
        .sections
        .iter()
        .position(|s| s.name == ".debug_frame")
    else {
        return Err(CubinError(
            "no .debug_frame to put line tables after".into(),
        ));
    };
    let rela = layout
        .sections
        .iter()
        .any(|s| s.name == ".rela.debug_frame");
    let progbits = |name: &str, data: Vec<u8>| Section {
        name: name.into(),
        sh_type: SHT_PROGBITS,
        align: 1,
        data,
        ..Section::default()
    };
    insert(layout, frame + 1, progbits(".debug_line", source.data));
    insert(layout, frame + 2, progbits(".nv_debug_line_sass", ptx.data));
    insert(
        layout,
        frame + 3,
        progbits(".nv_debug_ptx_txt", tables.ptx_text.clone()),
    );
    let rel_frame = layout
        .sections
        .iter()
        .position(|s| s.name.ends_with(".debug_frame") && s.name.starts_with(".rel"))
        .unwrap_or(layout.sections.len());
    let rel = |target: usize, relocs: &[(u64, u32)]| {
        let template = layout.sections.get(rel_frame).cloned().unwrap_or_default();
        Section {
            name: format!(
                "{}{}",
                if rela { ".rela" } else { ".rel" },
                layout.sections[target].name
            ),
            info: target as u32,
            data: relocation_bytes(relocs, rela),
            ..template
        }
    };
    let rel_line = rel(frame + 1, &source.relocs);
    let rel_sass = rel(frame + 2, &ptx.relocs);
    insert(layout, rel_frame, rel_line);
    insert(layout, rel_frame + 1, rel_sass);
    Ok(())
}

/// The index of the FUNC symbol named `name`.
fn function_symbol(layout: &Layout, name: &str) -> Option<u32> {
    const STT_FUNC: u8 = 2;
    layout
        .symbols
        .iter()
        .position(|s| s.name == name && s.info & 0xf == STT_FUNC)
        .map(|i| i as u32)
}

/// REL (or RELA, addend 0) entries of R_CUDA_64 against each symbol.
fn relocation_bytes(relocs: &[(u64, u32)], rela: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for &(offset, symbol) in relocs {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&((u64::from(symbol) << 32) | u64::from(R_CUDA_64)).to_le_bytes());
        if rela {
            out.extend_from_slice(&0u64.to_le_bytes());
        }
    }
    out
}

/// Puts `s` at section index `at`, moving every section index at or past it (links, info links,
/// symbols' sections, the `.note.nv.cuinfo` index) one on.
fn insert(layout: &mut Layout, at: usize, s: Section) {
    const SHF_INFO_LINK: u64 = 0x40;
    let moved = |i: u32| if i as usize >= at { i + 1 } else { i };
    for sec in &mut layout.sections {
        if sec.link != 0 {
            sec.link = moved(sec.link);
        }
        if sec.flags & SHF_INFO_LINK != 0 {
            sec.info = moved(sec.info);
        }
    }
    for sym in &mut layout.symbols {
        if sym.shndx != 0 && sym.shndx < 0xff00 {
            sym.shndx = moved(u32::from(sym.shndx)) as u16;
        }
    }
    layout.cuinfo_index = moved(layout.cuinfo_index);
    layout.sections.insert(at, s);
}

/// A written line program and where its addresses stand: `(offset, symbol)`.
struct Written {
    data: Vec<u8>,
    relocs: Vec<(u64, u32)>,
}

const ENCODING: Encoding = Encoding {
    format: Format::Dwarf32,
    version: 3,
    address_size: 8,
};

const LINE_ENCODING: LineEncoding = LineEncoding {
    minimum_instruction_length: 1,
    maximum_operations_per_instruction: 1,
    default_is_stmt: true,
    line_base: -5,
    line_range: 14,
};

/// `.debug_line`: each kernel's rows of source lines, one where the line, column or file changes.
fn source_program(
    files: &[String],
    kernels: &[(&KernelLines, u32)],
) -> Result<Written, CubinError> {
    let mut program = new_program();
    let ids: Vec<_> = files
        .iter()
        .map(|f| {
            let (dir, name) = match f.rfind('/') {
                Some(slash) if slash > 0 => (&f[..slash], &f[slash + 1..]),
                _ => ("", f.as_str()),
            };
            let dir = match dir.is_empty() {
                true => program.default_directory(),
                false => program.add_directory(LineString::String(dir.as_bytes().to_vec())),
            };
            program.add_file(LineString::String(name.as_bytes().to_vec()), dir, None)
        })
        .collect();
    for (k, symbol) in kernels {
        program.begin_sequence(Some(Address::Symbol {
            symbol: *symbol as usize,
            addend: 0,
        }));
        let mut last: Option<SourceLine> = None;
        for (n, row) in k.source.iter().enumerate() {
            let Some(row) = *row else { continue };
            if last == Some(row) {
                continue;
            }
            let Some(&file) = ids.get(row.file as usize) else {
                continue;
            };
            let r = program.row();
            r.address_offset = 16 * n as u64;
            r.file = file;
            r.line = u64::from(row.line);
            r.column = u64::from(row.column);
            program.generate_row();
            last = Some(row);
        }
        program.end_sequence(16 * k.source.len() as u64);
    }
    write(&program)
}

/// `.nv_debug_line_sass`: each kernel's rows of PTX lines (file 1, with no file table: the PTX of
/// `.nv_debug_ptx_txt`).
fn ptx_program(kernels: &[(&KernelLines, u32)]) -> Result<Written, CubinError> {
    let mut program = new_program();
    for (k, symbol) in kernels {
        program.begin_sequence(Some(Address::Symbol {
            symbol: *symbol as usize,
            addend: 0,
        }));
        let mut last = 0;
        for (n, &line) in k.ptx_lines.iter().enumerate() {
            if line == 0 || line == last {
                continue;
            }
            let r = program.row();
            r.address_offset = 16 * n as u64;
            r.line = u64::from(line);
            program.generate_row();
            last = line;
        }
        program.end_sequence(16 * k.ptx_lines.len() as u64);
    }
    write(&program)
}

fn new_program() -> LineProgram {
    LineProgram::new(
        ENCODING,
        LINE_ENCODING,
        LineString::String(b".".to_vec()),
        None,
        LineString::String(b"-".to_vec()),
        None,
    )
}

fn write(program: &LineProgram) -> Result<Written, CubinError> {
    let mut w = DebugLine(RelocWriter {
        out: EndianVec::new(LittleEndian),
        relocs: Vec::new(),
    });
    program
        .write(
            &mut w,
            ENCODING,
            &DebugLineStrOffsets::none(),
            &DebugStrOffsets::none(),
        )
        .map_err(|e| CubinError(format!("line table: {e}")))?;
    let RelocWriter { out, relocs } = w.0;
    Ok(Written {
        data: out.into_vec(),
        relocs,
    })
}

/// A little-endian section writer that writes a symbol's address as 0 and records where it stands.
struct RelocWriter {
    out: EndianVec<LittleEndian>,
    relocs: Vec<(u64, u32)>,
}

impl Writer for RelocWriter {
    type Endian = LittleEndian;

    fn endian(&self) -> LittleEndian {
        LittleEndian
    }

    fn len(&self) -> usize {
        self.out.len()
    }

    fn write(&mut self, bytes: &[u8]) -> gimli::write::Result<()> {
        self.out.write(bytes)
    }

    fn write_at(&mut self, offset: usize, bytes: &[u8]) -> gimli::write::Result<()> {
        self.out.write_at(offset, bytes)
    }

    fn write_address(&mut self, address: Address, size: u8) -> gimli::write::Result<()> {
        match address {
            Address::Constant(v) => self.out.write_udata(v, size),
            Address::Symbol { symbol, addend } => {
                self.relocs.push((self.out.len() as u64, symbol as u32));
                self.out.write_udata(addend as u64, size)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_text_drops_comments_and_debug_directives() {
        let ptx = "// head\n.version 9.5\n\t.loc\t1 2 0 // a.cu:2\n\t{ // callseq 0\n\t  // x\n";
        let text = ptx_text_section(ptx);
        assert_eq!(text, b"\0.version 9.5\0\0{ // callseq 0\0\0");
    }
}
