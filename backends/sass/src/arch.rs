//! Target architectures (sm_75 .. sm_90, and sm_90a) and the facts that differ between them.

use std::fmt;
use std::str::FromStr;

/// A real (SASS) architecture such as `sm_80`. `num` is major*10+minor; `accel` marks the
/// architecture-specific `a` target (`sm_90a`), whose code is that of `num` plus the instructions
/// only that target has (wgmma, setmaxnreg, ...), and whose cubin says so in `.nv.compat`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sm {
    pub num: u32,
    pub accel: bool,
}

/// The SASS architectures the back end encodes for: one per encoding family. An `a` target
/// encodes as its base architecture ([`Sm::base`]), so it is not listed again here.
pub const SUPPORTED_SMS: [Sm; 5] = [
    Sm::new(75),
    Sm::new(80),
    Sm::new(86),
    Sm::new(89),
    Sm::new(90),
];

/// Every `-arch` the back end generates code for: [`SUPPORTED_SMS`] and the `a` targets.
pub const TARGETS: [Sm; 6] = [
    Sm::new(75),
    Sm::new(80),
    Sm::new(86),
    Sm::new(89),
    Sm::new(90),
    Sm::accelerated(90),
];

impl Sm {
    pub const fn new(num: u32) -> Sm {
        Sm { num, accel: false }
    }

    /// The architecture-specific target `sm_{num}a`.
    pub const fn accelerated(num: u32) -> Sm {
        Sm { num, accel: true }
    }

    /// The architecture whose encodings this target uses (`sm_90` for `sm_90a`).
    pub const fn base(self) -> Sm {
        Sm::new(self.num)
    }

    pub fn is_supported(self) -> bool {
        TARGETS.contains(&self)
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
        write!(f, "sm_{}{}", self.num, if self.accel { "a" } else { "" })
    }
}

impl FromStr for Sm {
    type Err = String;
    /// Parses `sm_80`, `SM80`, `80`, `sm_90a`, or `compute_80` (the virtual arch maps to the same
    /// number).
    fn from_str(s: &str) -> Result<Sm, String> {
        let lower = s.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("sm_")
            .or_else(|| lower.strip_prefix("compute_"))
            .or_else(|| lower.strip_prefix("sm"))
            .unwrap_or(&lower);
        let (digits, accel) = match rest.strip_suffix('a') {
            Some(digits) => (digits, true),
            None => (rest, false),
        };
        digits
            .parse::<u32>()
            .map(|num| Sm { num, accel })
            .map_err(|_| format!("unknown architecture '{s}'"))
    }
}
