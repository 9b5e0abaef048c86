//! What a simulated launch records of the calls of the CUDA runtime's device functions, which
//! neither the interpreter nor the emulator can run: `vprintf` (what `printf` compiles to) and
//! `__assertfail` (a failed `assert`). Each call becomes a record of what it would print, built
//! here from the call's arguments and the memory they point to, so that both runners describe a
//! call in the same bytes whatever addresses their memories use.
//!
//! A `vprintf` record holds the format string and, per conversion, its letter and the argument
//! read from the argument buffer as CUDA packs it (each argument at its own alignment: 4 bytes
//! for `int`-sized conversions, 8 for `double`, pointers and the `l`/`ll`/`z`/`j`/`t` sizes;
//! `%s` recorded as the string it points to, not its address). An `__assertfail` record holds
//! the message, file, line, function and character size. [`records_buffer`] orders the records
//! by CTA and thread (each thread's in call order), the order the differential check compares.

/// Reads `n` bytes at a generic address of the calling thread (`None`: out of bounds).
pub type ReadMemory<'a> = dyn FnMut(u64, usize) -> Option<Vec<u8>> + 'a;

/// Longest string a record reads.
const MAX_STRING: usize = 4096;

/// One call made by one thread: `key` orders it (CTA then thread, linear), `bytes` describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysCallRecord {
    pub key: u64,
    pub bytes: Vec<u8>,
}

/// The order key of a call by thread `tid` of CTA `cta` in a launch of `block` threads and
/// `grid` CTAs.
pub fn record_key(cta: [u32; 3], grid: [u32; 3], tid: [u32; 3], block: [u32; 3]) -> u64 {
    let linear = |v: [u32; 3], d: [u32; 3]| {
        v[0] as u64 + d[0] as u64 * (v[1] as u64 + d[1] as u64 * v[2] as u64)
    };
    linear(cta, grid) << 32 | linear(tid, block)
}

fn c_string(mem: &mut ReadMemory, addr: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while out.len() < MAX_STRING {
        let byte = mem(addr + out.len() as u64, 1)
            .and_then(|b| b.first().copied())
            .ok_or_else(|| format!("string at {addr:#x} out of bounds"))?;
        if byte == 0 {
            return Ok(out);
        }
        out.push(byte);
    }
    Err(format!(
        "string at {addr:#x} longer than {MAX_STRING} bytes"
    ))
}

/// The conversions of a printf format: `(letter, argument bytes)` per argument it takes.
pub fn format_arguments(format: &[u8]) -> Vec<(u8, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < format.len() {
        if format[k] != b'%' {
            k += 1;
            continue;
        }
        k += 1;
        if format.get(k) == Some(&b'%') {
            k += 1;
            continue;
        }
        while k < format.len() && b"-+ #0".contains(&format[k]) {
            k += 1;
        }
        let star = |k: &mut usize, out: &mut Vec<(u8, usize)>| {
            if format.get(*k) == Some(&b'*') {
                out.push((b'*', 4));
                *k += 1;
            }
            while *k < format.len() && format[*k].is_ascii_digit() {
                *k += 1;
            }
        };
        star(&mut k, &mut out);
        if format.get(k) == Some(&b'.') {
            k += 1;
            star(&mut k, &mut out);
        }
        let mut long = false;
        while k < format.len() && b"hlLqjzt".contains(&format[k]) {
            long |= format[k] != b'h';
            k += 1;
        }
        let Some(&conv) = format.get(k) else { break };
        k += 1;
        let size = match conv {
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' | b'p' | b's' | b'n' => 8,
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => {
                if long {
                    8
                } else {
                    4
                }
            }
            _ => continue,
        };
        out.push((conv, size));
    }
    out
}

/// The record of `vprintf(format, args)` and what the call returns (the number of arguments).
pub fn vprintf_record(
    mem: &mut ReadMemory,
    format: u64,
    args: u64,
) -> Result<(Vec<u8>, u32), String> {
    let text = c_string(mem, format)?;
    let mut bytes = b"vprintf\0".to_vec();
    bytes.extend_from_slice(&text);
    bytes.push(0);
    let convs = format_arguments(&text);
    let mut at = 0u64;
    for &(conv, size) in &convs {
        at = at.next_multiple_of(size as u64);
        let raw = mem(args + at, size)
            .ok_or_else(|| format!("printf argument at {:#x} out of bounds", args + at))?;
        at += size as u64;
        let mut value = [0u8; 8];
        value[..size].copy_from_slice(&raw[..size]);
        bytes.push(conv);
        if conv == b's' {
            bytes.extend_from_slice(&c_string(mem, u64::from_le_bytes(value))?);
            bytes.push(0);
        } else {
            bytes.extend_from_slice(&value);
        }
    }
    Ok((bytes, convs.len() as u32))
}

/// The record of `__assertfail(message, file, line, function, char_size)`.
pub fn assertfail_record(
    mem: &mut ReadMemory,
    message: u64,
    file: u64,
    line: u32,
    function: u64,
    char_size: u64,
) -> Result<Vec<u8>, String> {
    let mut bytes = b"__assertfail\0".to_vec();
    for s in [message, file] {
        bytes.extend_from_slice(&c_string(mem, s)?);
        bytes.push(0);
    }
    bytes.extend_from_slice(&line.to_le_bytes());
    bytes.extend_from_slice(&c_string(mem, function)?);
    bytes.push(0);
    bytes.extend_from_slice(&char_size.to_le_bytes());
    Ok(bytes)
}

/// Every record, by CTA and thread (a thread's in call order), as one byte string: the count,
/// then each record's key, length and bytes, each padded to 4 bytes.
pub fn records_buffer(records: &[SysCallRecord]) -> Vec<u8> {
    let mut sorted: Vec<&SysCallRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.key);
    let mut out = (records.len() as u32).to_le_bytes().to_vec();
    for r in sorted {
        out.extend_from_slice(&r.key.to_le_bytes());
        out.extend_from_slice(&(r.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&r.bytes);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_take_their_sizes() {
        let f = b"t=%d x=%f %5.2lf %lld %% %s %c %*d %p";
        let sizes: Vec<(u8, usize)> = format_arguments(f);
        assert_eq!(
            sizes,
            vec![
                (b'd', 4),
                (b'f', 8),
                (b'f', 8),
                (b'd', 8),
                (b's', 8),
                (b'c', 4),
                (b'*', 4),
                (b'd', 4),
                (b'p', 8)
            ]
        );
    }

    #[test]
    fn vprintf_reads_aligned_arguments() {
        // "%d %f" at 0x100, the buffer at 0x200: an int then a double at offset 8.
        let mut memory = vec![0u8; 0x300];
        memory[0x100..0x106].copy_from_slice(b"%d %f\0");
        memory[0x200..0x204].copy_from_slice(&7u32.to_le_bytes());
        memory[0x208..0x210].copy_from_slice(&1.5f64.to_le_bytes());
        let mut read =
            |a: u64, n: usize| memory.get(a as usize..a as usize + n).map(<[u8]>::to_vec);
        let (bytes, n) = vprintf_record(&mut read, 0x100, 0x200).unwrap();
        assert_eq!(n, 2);
        let mut want = b"vprintf\0%d %f\0d".to_vec();
        want.extend_from_slice(&7u64.to_le_bytes());
        want.push(b'f');
        want.extend_from_slice(&1.5f64.to_le_bytes());
        assert_eq!(bytes, want);
        // A format string out of bounds, an argument buffer out of bounds.
        assert!(vprintf_record(&mut read, 0x400, 0x200).is_err());
        assert!(vprintf_record(&mut read, 0x100, 0x2fc).is_err());
    }
}
