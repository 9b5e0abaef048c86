//! Cubin loader: finds a kernel's code, constant bank 0 layout and shared-memory size in a cubin ELF.

use object::read::elf::{ElfFile64, FileHeader};
use object::{Object, ObjectSection};

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
    let elf = ElfFile64::<object::Endianness>::parse(cubin).map_err(|e| bad(format!("not an ELF64 file: {e}")))?;
    let flags = elf.elf_header().e_flags(elf.endian());
    let sm = (flags >> 8) & 0xff;
    if ![75, 80, 86, 89, 90].contains(&sm) {
        return Err(bad(format!("unsupported architecture sm_{sm} (e_flags {flags:#x})")));
    }
    let section = |name: String| elf.section_by_name(&name);
    let text = section(format!(".text.{entry}")).ok_or_else(|| bad(format!("no .text.{entry} section")))?;
    let code = text.data().map_err(|e| bad(format!("unreadable .text.{entry}: {e}")))?.to_vec();
    if code.len() % 16 != 0 {
        return Err(bad(format!(".text.{entry} is not a whole number of 16-byte instructions")));
    }
    let cbank0_size = section(format!(".nv.constant0.{entry}")).map_or(0, |s| s.size() as u32);
    let shared_size = section(format!(".nv.shared.{entry}")).map_or(0, |s| s.size() as u32);
    let default_base = if sm >= 90 { 0x210 } else { 0x160 };
    let (param_offset, param_size) = match section(format!(".nv.info.{entry}")) {
        Some(s) => param_cbank(s.data().map_err(|e| bad(format!("unreadable .nv.info.{entry}: {e}")))?)?,
        None => None,
    }
    .unwrap_or((default_base, cbank0_size.saturating_sub(default_base)));
    Ok(KernelImage { sm, code, cbank0_size, param_offset, param_size, shared_size })
}

/// Walks the EIATTR records of a `.nv.info.<kernel>` section for PARAM_CBANK.
fn param_cbank(data: &[u8]) -> Result<Option<(u32, u32)>, EmuError> {
    let mut at = 0usize;
    while at + 4 <= data.len() {
        let (format, attr) = (data[at], data[at + 1]);
        let len = match format {
            EIFMT_NVAL | EIFMT_BVAL | EIFMT_HVAL => 4,
            EIFMT_SVAL => 4 + u16::from_le_bytes([data[at + 2], data[at + 3]]) as usize,
            _ => return Err(bad(format!("EIATTR record with format {format} at offset {at}"))),
        };
        let rec = data.get(at..at + len).ok_or_else(|| bad("truncated EIATTR record".into()))?;
        if attr == EIATTR_PARAM_CBANK && format == EIFMT_SVAL && len >= 12 {
            let off = u16::from_le_bytes([rec[8], rec[9]]) as u32;
            let size = u16::from_le_bytes([rec[10], rec[11]]) as u32;
            return Ok(Some((off, size)));
        }
        at += len;
    }
    Ok(None)
}
