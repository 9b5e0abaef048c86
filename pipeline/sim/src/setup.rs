//! Builds a kernel's inputs: a random buffer per pointer (parameter or pointer field of a struct
//! parameter), scalars from the caller, and the parameter buffer as ptxas lays it out.

use crate::compare::DeviceBuffer;
use crate::rng::SplitMix64;
use crate::{Fill, SimRequest};

/// Where buffers live in the simulated global address space: far apart, never at address 0.
const BUFFER_BASE: u64 = 0x7f00_0000_0000;
const BUFFER_STRIDE: u64 = 0x0100_0000_0000;

/// A kernel launch's inputs.
pub struct Inputs {
    /// The parameter bytes, with each buffer's address (`buffers[i].addr`) at `address_offsets[i]`.
    pub params: Vec<u8>,
    pub buffers: Vec<DeviceBuffer>,
    /// Where each buffer's address sits in `params` (byte offset), one per buffer, in order.
    pub address_offsets: Vec<usize>,
}

impl Inputs {
    /// The parameter bytes for buffers placed at `addrs` (one per buffer, in order): the one
    /// marshalling path of every runner (the emulator's simulated addresses, a GPU's device
    /// pointers).
    pub fn params_for(&self, addrs: &[u64]) -> Vec<u8> {
        assert_eq!(addrs.len(), self.buffers.len(), "one address per buffer");
        let mut params = self.params.clone();
        for (&at, addr) in self.address_offsets.iter().zip(addrs) {
            params[at..at + 8].copy_from_slice(&addr.to_le_bytes());
        }
        params
    }

    /// The same launch with the buffers moved to `addrs` (contents unchanged).
    pub fn relocated(&self, addrs: &[u64]) -> Inputs {
        let buffers = self
            .buffers
            .iter()
            .zip(addrs)
            .map(|(b, &addr)| DeviceBuffer { addr, ..b.clone() })
            .collect();
        Inputs {
            params: self.params_for(addrs),
            buffers,
            address_offsets: self.address_offsets.clone(),
        }
    }

    /// The same buffers (names, addresses) holding new contents.
    pub fn with_contents(&self, contents: impl Iterator<Item = Vec<u8>>) -> Vec<DeviceBuffer> {
        self.buffers
            .iter()
            .zip(contents)
            .map(|(b, bytes)| DeviceBuffer { bytes, ..b.clone() })
            .collect()
    }
}

/// Lays out the parameters of `req.entry`: pointer parameters, and the pointer fields of structs
/// passed by value, get fresh random buffers (what is a pointer is read from the PTX's use of it,
/// see [`crate::params`], else from the parameter's type); the others take `req.scalar_args` in
/// order, or small values with `req.auto_scalars`.
pub fn build_inputs(
    module: &ptxforge_ptx::ast::Module,
    req: &SimRequest,
) -> Result<Inputs, String> {
    let slots = ptxforge_interp::param_layout(module, &req.entry).map_err(|e| e.to_string())?;
    let uses = entry_function(module, &req.entry)
        .map(crate::params::param_uses)
        .unwrap_or_default();
    let mut rng = SplitMix64::new(req.seed);
    let mut scalars = req.scalar_args.iter();
    let mut buffers = Vec::new();
    let mut values = Vec::with_capacity(slots.len());
    // Byte offset in the parameter buffer of each buffer's address, in buffer order.
    let mut address_offsets = Vec::new();
    for slot in &slots {
        let is_pointer = slot.size == 8
            && uses
                .is_pointer(&slot.name, 0)
                .unwrap_or(slot.is_pointer_hint);
        let value = if is_pointer {
            new_buffer(&mut rng, req, slot.name.clone(), &mut buffers);
            address_offsets.push(slot.offset as usize);
            // The address goes in below, with every other buffer's.
            0
        } else if slot.size > 8 {
            // Structs passed by value: their pointer fields get buffers, the rest stays zero.
            for offset in (0..slot.size as i64 - 7)
                .step_by(8)
                .filter(|&o| uses.is_pointer(&slot.name, o) == Some(true))
            {
                new_buffer(
                    &mut rng,
                    req,
                    format!("{}+{offset}", slot.name),
                    &mut buffers,
                );
                address_offsets.push(slot.offset as usize + offset as usize);
            }
            0
        } else if let Some(text) = scalars.next() {
            scalar_bits(text, slot.size)
                .ok_or_else(|| format!("'{text}' is not a value for parameter '{}'", slot.name))?
        } else if req.auto_scalars {
            // Small counts and sizes.
            rng.next_u64() % 16
        } else {
            return Err(format!(
                "no value given for parameter '{}' (--args)",
                slot.name
            ));
        };
        values.push(value);
    }
    let mut params =
        ptxforge_interp::pack_params(module, &req.entry, &values).map_err(|e| e.to_string())?;
    if req.seed_structs {
        for slot in slots.iter().filter(|s| s.size > 8) {
            let at = slot.offset as usize;
            fill(&mut rng, &mut params[at..at + slot.size as usize], req.fill);
        }
    }
    let mut inputs = Inputs {
        params,
        buffers,
        address_offsets,
    };
    let addrs: Vec<u64> = inputs.buffers.iter().map(|b| b.addr).collect();
    inputs.params = inputs.params_for(&addrs);
    Ok(inputs)
}

fn entry_function<'m>(
    module: &'m ptxforge_ptx::ast::Module,
    entry: &str,
) -> Option<&'m ptxforge_ptx::ast::Function> {
    module
        .functions
        .iter()
        .find(|f| f.is_entry && f.has_body && f.name == entry)
}

/// Adds a buffer of `req.buffer_bytes` filled as `req.fill` says, at its simulated address.
fn new_buffer(
    rng: &mut SplitMix64,
    req: &SimRequest,
    param: String,
    buffers: &mut Vec<DeviceBuffer>,
) {
    let addr = BUFFER_BASE + BUFFER_STRIDE * buffers.len() as u64;
    let mut bytes = vec![0u8; req.buffer_bytes];
    fill(rng, &mut bytes, req.fill);
    buffers.push(DeviceBuffer { param, addr, bytes });
}

fn fill(rng: &mut SplitMix64, bytes: &mut [u8], how: Fill) {
    match how {
        Fill::Random => rng.fill(bytes),
        Fill::Small => {
            for chunk in bytes.chunks_mut(8) {
                let word = (rng.next_u64() % 64).to_le_bytes();
                chunk.copy_from_slice(&word[..chunk.len()]);
            }
        }
    }
}

/// A scalar argument's bits for a parameter of `size` bytes: an integer, or a float stored as f32
/// (4 bytes) or f64 (8 bytes).
pub fn scalar_bits(text: &str, size: u32) -> Option<u64> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let integer = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => digits.parse::<u64>().ok(),
    };
    if let Some(v) = integer {
        return Some(if negative { v.wrapping_neg() } else { v });
    }
    let f: f64 = t.parse().ok()?;
    Some(if size == 4 {
        (f as f32).to_bits() as u64
    } else {
        f.to_bits()
    })
}

#[cfg(test)]
mod tests {
    use super::scalar_bits;

    #[test]
    fn scalars_parse_as_integers_or_sized_floats() {
        assert_eq!(scalar_bits("42", 4), Some(42));
        assert_eq!(scalar_bits("0x10", 8), Some(16));
        assert_eq!(scalar_bits("-1", 4), Some(u64::MAX));
        assert_eq!(scalar_bits("1.5", 4), Some(1.5f32.to_bits() as u64));
        assert_eq!(scalar_bits("1.5", 8), Some(1.5f64.to_bits()));
        assert_eq!(scalar_bits("abc", 4), None);
    }
}
