//! Target architectures (sm_75 .. sm_90) and the facts that differ between them.

use std::fmt;
use std::str::FromStr;

/// A real (SASS) architecture such as `sm_80`. `num` is major*10+minor.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sm {
    pub num: u32,
}

/// The architectures the back end can encode for.
pub const SUPPORTED_SMS: [Sm; 5] = [
    Sm { num: 75 },
    Sm { num: 80 },
    Sm { num: 86 },
    Sm { num: 89 },
    Sm { num: 90 },
];

impl Sm {
    pub const fn new(num: u32) -> Sm {
        Sm { num }
    }

    pub fn is_supported(self) -> bool {
        SUPPORTED_SMS.contains(&self)
    }

    /// Byte offset of the first kernel parameter in constant bank 0.
    pub fn param_base(self) -> u32 {
        if self.num >= 100 {
            0x380
        } else if self.num >= 90 {
            0x210
        } else {
            0x160
        }
    }

    /// Constant-bank-0 offset of the 64-bit global memory descriptor, if the target uses one.
    pub fn global_desc_offset(self) -> Option<u32> {
        match self.num {
            75 => None,
            90.. => Some(0x208),
            _ => Some(0x118),
        }
    }

    /// Whether branch offsets are split (low 8 bits in 16..23) as on sm_90+.
    pub fn split_branch_offset(self) -> bool {
        self.num >= 90
    }

    /// Whether the cubin uses the "new" ELF writer family (`.nv.compat`, RELA, reserved smem).
    pub fn new_elf_family(self) -> bool {
        self.num >= 90
    }

    /// nvdisasm's `-b` spelling, e.g. `SM80`.
    pub fn nvdisasm_name(self) -> String {
        format!("SM{}", self.num)
    }
}

impl fmt::Display for Sm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.num)
    }
}

impl FromStr for Sm {
    type Err = String;
    /// Parses `sm_80`, `SM80`, `80`, or `compute_80` (the virtual arch maps to the same number).
    fn from_str(s: &str) -> Result<Sm, String> {
        let lower = s.to_ascii_lowercase();
        let digits = lower
            .strip_prefix("sm_")
            .or_else(|| lower.strip_prefix("compute_"))
            .or_else(|| lower.strip_prefix("sm"))
            .unwrap_or(&lower);
        digits
            .parse::<u32>()
            .map(Sm::new)
            .map_err(|_| format!("unknown architecture '{s}'"))
    }
}
