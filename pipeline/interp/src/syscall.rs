//! The models of the CUDA runtime's device functions a module declares without a body and calls:
//! `vprintf` and `__assertfail` record what they would print (`ptxforge_device::syscall`, the
//! same records the SASS emulator makes of its `CALL.ABS`), `vprintf` returns the number of
//! arguments, and `__assertfail` returns (on a GPU it stops the launch with an error).

use ptxforge_device::syscall::{self, SysCallRecord};

use crate::error::SimError;
use crate::machine::Cta;
use crate::memory::resolve_generic;

/// The functions modelled.
pub(crate) const MODELLED: [&str; 2] = ["vprintf", "__assertfail"];

/// Whether some function of `module` calls one of the [`MODELLED`] functions (declared without
/// a body).
pub(crate) fn calls_modelled(module: &ptxforge_ptx::ast::Module) -> bool {
    use ptxforge_ptx::ast::Operand;
    let modelled = |name: &str| {
        MODELLED.contains(&name)
            && !module
                .functions
                .iter()
                .any(|f| f.name == name && f.has_body)
    };
    module.functions.iter().any(|f| {
        f.body.iter().filter_map(|s| s.as_instr()).any(|i| {
            i.opcode() == "call"
                && i.operands
                    .iter()
                    .any(|o| matches!(o, Operand::Symbol(n) if modelled(n.as_str())))
        })
    })
}

/// The little-endian value of an argument's bytes.
fn value(args: &[Vec<u8>], n: usize) -> u64 {
    let mut v = [0u8; 8];
    if let Some(b) = args.get(n) {
        let k = b.len().min(8);
        v[..k].copy_from_slice(&b[..k]);
    }
    u64::from_le_bytes(v)
}

impl Cta<'_, '_> {
    /// Runs the model of `name` for thread `t` with the argument bytes `args`; its result.
    pub(crate) fn syscall(
        &mut self,
        t: usize,
        name: &str,
        args: &[Vec<u8>],
    ) -> Result<u32, String> {
        let th = &mut self.threads[t];
        let mem = &mut *self.mem;
        let (local, fparam) = (&mut th.local, &mut th.fparam);
        let mut read = |addr: u64, n: usize| -> Option<Vec<u8>> {
            let (region, at) = resolve_generic(addr);
            mem.bytes(local, fparam, region, at, n as u64)
                .map(|b| b.to_vec())
        };
        let (bytes, result) = match name {
            "vprintf" => syscall::vprintf_record(&mut read, value(args, 0), value(args, 1))?,
            _ => (
                syscall::assertfail_record(
                    &mut read,
                    value(args, 0),
                    value(args, 1),
                    value(args, 2) as u32,
                    value(args, 3),
                    value(args, 4),
                )?,
                0,
            ),
        };
        let key = syscall::record_key(th.id.ctaid, self.info.grid, th.id.tid, self.info.block);
        mem.syscalls.push(SysCallRecord { key, bytes });
        Ok(result)
    }
}

/// Why a call cannot be modelled, as the interpreter reports it.
pub(crate) fn model_error(line: u32, name: &str, e: String) -> SimError {
    SimError::Unsupported {
        opcode: "call".into(),
        line,
        detail: format!("'{name}': {e}"),
    }
}
