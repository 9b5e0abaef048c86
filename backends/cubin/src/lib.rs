//! The cubin writer: turns encoded kernels into a CUDA ELF file as ptxas 13.5 lays it out.
//!
//! Two writer families exist (`../shared/docs/cubin.md` §0): the legacy one for sm_75..sm_89 and the
//! new one for sm_90 (`.nv.compat`, RELA, reserved shared memory). [`write_cubin`] picks the family,
//! lists the sections and symbols in ptxas's order (kernels in reverse definition order), and
//! [`elf`] lays them out.
//!
//! ## What lives where
//!
//! `sections.rs` (section and symbol lists in ptxas's order for both writer families, notes,
//! `.debug_frame`, module variables in `.nv.global.init`/`.nv.global` with their addresses in
//! `.nv.constant4` and its R_CUDA_64 relocations), `extern_calls.rs` (what calls of `vprintf` and
//! `__assertfail` add: undefined FUNC symbols, their slots, EIATTR_EXTERNS and _SYSCALL_OFFSETS,
//! `.nv.callgraph` edges), `nvinfo.rs` (EIATTR records, `.nv.compat`),
//! `elf.rs` (layout, string tables, program headers), `debug_line.rs` (`-lineinfo`'s
//! `.debug_line`, `.nv_debug_line_sass`, `.nv_debug_ptx_txt`, written with `gimli::write`).

mod debug_line;
mod elf;
mod extern_calls;
mod nvinfo;
mod relocatable;
mod sections;

pub use debug_line::{ptx_text_section, KernelLines, LineTables, SourceLine};
pub use relocatable::write_relocatable;

pub use sections::R_CUDA_64;

use std::fmt;

use ptxforge_sass::arch::Sm;

/// One kernel parameter in constant bank 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamInfo {
    /// Offset relative to the architecture's parameter base.
    pub offset: u32,
    pub size: u32,
    pub align: u32,
    /// For a `.ptr` parameter, what it points to: KPARAM_INFO's space code (5 generic, 4 global,
    /// 3 const, 2 shared, 1 local; 0 for a parameter without `.ptr`) ...
    pub pointee_space: u32,
    /// ... and the log2 of its `.align` (0 when none is given).
    pub pointee_log_align: u32,
}

/// A subroutine's place in its kernel's code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubroutineImage {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    pub frame_size: u32,
    /// Bytes of the registers it saves (and restores): `-v`'s spill stores and loads.
    pub saved_bytes: u32,
}

/// Everything the writer needs to know about one compiled kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelImage {
    pub name: String,
    /// Encoded SASS, 16 bytes per instruction, including the trailing self-branch and padding.
    pub code: Vec<u8>,
    /// Parameters in declaration order.
    pub params: Vec<ParamInfo>,
    /// End of the last parameter (EIATTR_CBANK_PARAM_SIZE).
    pub param_bytes: u32,
    /// Register count as `-v` reports it (EIATTR_REGCOUNT, `.text` sh_info on sm_75..89).
    pub num_gprs: u32,
    /// Static `.shared` bytes of this kernel (0 = no `.nv.shared.<kernel>` section unless
    /// `shared_align` asks for one).
    pub shared_bytes: u32,
    /// Alignment of `.nv.shared.<kernel>` as ptxas sets it (0: 4, and only when `shared_bytes > 0`).
    /// Non-zero gives the kernel the section even when empty (a module with `.extern .shared`).
    pub shared_align: u32,
    /// Whether the kernel references shared memory (sm_90 then has a `.rela.text.<kernel>`).
    pub uses_shared: bool,
    /// Byte offsets of the EXIT instructions (EIATTR_EXIT_INSTR_OFFSETS).
    pub exit_offsets: Vec<u32>,
    /// Whether `bar.sync` is used (EIATTR_NUM_BARRIERS = 1).
    pub uses_barrier: bool,
    /// Named barriers used (EIATTR_NUM_BARRIERS when more than one): highest id + 1, 16 for
    /// register ids.
    pub num_barriers: u32,
    /// Offsets of warp-synchronous instructions (EIATTR_COOP_GROUP_INSTR_OFFSETS, with
    /// EIATTR_COOP_GROUP_MASK_REGIDS 0xffffffff each: immediate member masks).
    pub coop_group_offsets: Vec<u32>,
    /// `griddepcontrol.launch_dependents` is used (EIATTR_PREEXIT_USED = 1 on sm_90).
    pub preexit_used: bool,
    /// Whether `%ctaid.z` is read (EIATTR_CTAIDZ_USED on sm_75..89).
    pub uses_ctaid_z: bool,
    /// Whether a loop branches back on a thread-varying condition (EIATTR_CRS_STACK_SIZE = 0).
    pub divergent_loop: bool,
    /// Bytes of the kernel's stack frame (EIATTR_FRAME_SIZE; with no calls also its
    /// EIATTR_MIN_STACK_SIZE, the cumulative stack size).
    pub frame_size: u32,
    /// The subroutines laid out after the kernel's code in its `.text` (recursive device
    /// functions): each gets a LOCAL FUNC symbol `$<kernel>$<name>` and a FRAME_SIZE record, and
    /// the kernel's stack size cannot be known (MIN_STACK_SIZE and CRS_STACK_SIZE 0xffffffff).
    pub subroutines: Vec<SubroutineImage>,
    /// Offsets of the register allocator's spill stores and reloads (EIATTR_ANNOTATIONS'
    /// SpillRefill entries).
    pub spill_offsets: Vec<u32>,
    /// The kernel's cluster directives (EIATTR_CTA_PER_CLUSTER, _MAX_CLUSTER_RANK,
    /// _EXPLICIT_CLUSTER).
    pub cluster: ClusterDirectives,
    /// `--make-errors-visible-at-exit`: its EXITs have error barriers (EIATTR_GEN_ERRBAR_AT_EXIT).
    pub errbar_at_exit: bool,
    /// Its thread-count directives and register budget (EIATTR_MAX_THREADS, _REQNTID,
    /// _MAXREG_COUNT).
    pub launch: LaunchBounds,
    /// The external functions it calls (`vprintf`, ...; names of [`CubinModule::extern_funcs`]) in
    /// order of first call: EIATTR_EXTERNS and `.nv.callgraph` edges.
    pub externs: Vec<String>,
    /// Offsets of its `CALL.ABS` instructions (EIATTR_SYSCALL_OFFSETS).
    pub syscall_offsets: Vec<u32>,
    /// The PTX line of each instruction (0: none), kept for `-lineinfo` only (else empty).
    pub ptx_lines: Vec<u32>,
    /// `-c`: a device function compiled on its own (its own `.text`, a GLOBAL FUNC symbol
    /// without STO_CUDA_ENTRY, no parameters in constant bank 0; its frame is its one
    /// subroutine's). Only [`write_relocatable`] takes such images.
    pub device_function: bool,
    /// `-c`: `(offset, callee)` of each `CALL.ABS.NOINC` whose address the linker writes
    /// (R_CUDA_ABS47_34 against the undefined callee).
    pub linked_calls: Vec<(u32, String)>,
}

/// `.maxntid` and `.reqntid` of a kernel (as given, or from `--maxntid`), and the register budget
/// that those, `.maxnreg`, `.minnctapersm` and `--maxrregcount` give (None: no limit, 0xff).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchBounds {
    pub max_threads: Option<[u32; 3]>,
    pub req_threads: Option<[u32; 3]>,
    pub max_regs: Option<u32>,
}

impl LaunchBounds {
    /// The thread-count directives of a PTX function's list (`(name, values)` as the parser keeps
    /// them), missing dimensions 1; `max_regs` is the caller's.
    pub fn from_list(list: &[(String, Vec<u64>)], max_regs: Option<u32>) -> LaunchBounds {
        let dims = |vals: &[u64]| {
            let v = |n: usize| vals.get(n).map_or(1, |&x| x.min(u32::MAX as u64) as u32);
            [v(0), v(1), v(2)]
        };
        let mut b = LaunchBounds {
            max_regs,
            ..LaunchBounds::default()
        };
        for (name, vals) in list {
            match name.as_str() {
                "maxntid" => b.max_threads = Some(dims(vals)),
                "reqntid" => b.req_threads = Some(dims(vals)),
                _ => {}
            }
        }
        b
    }
}

/// `.reqnctapercluster x[,y[,z]]`, `.maxclusterrank n` and `.explicitcluster` of a kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClusterDirectives {
    pub cta_per_cluster: Option<[u32; 3]>,
    pub max_cluster_rank: Option<u32>,
    pub explicit: bool,
}

impl ClusterDirectives {
    /// Reads them from a PTX function's directives (`(name, values)` as the parser keeps them).
    pub fn from_list(list: &[(String, Vec<u64>)]) -> ClusterDirectives {
        let mut c = ClusterDirectives::default();
        for (name, vals) in list {
            let v = |n: usize| vals.get(n).map_or(1, |&x| x.min(u32::MAX as u64) as u32);
            match name.as_str() {
                "reqnctapercluster" => c.cta_per_cluster = Some([v(0), v(1), v(2)]),
                "maxclusterrank" => c.max_cluster_rank = Some(v(0)),
                "explicitcluster" => c.explicit = true,
                _ => {}
            }
        }
        c
    }
}

/// A module-scope `.global` variable: its bytes live in `.nv.global.init` (initialized) or
/// `.nv.global`, and its address in an 8-byte slot of `.nv.constant4` (relocated R_CUDA_64),
/// where code reads it (`c[0x4][8 * slot]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalVar {
    pub name: String,
    pub size: u64,
    pub align: u64,
    /// The initializer's bytes (`size` of them), `None` for an uninitialized variable.
    pub init: Option<Vec<u8>>,
    /// `.visible`: a GLOBAL symbol rather than a LOCAL one.
    pub visible: bool,
}

/// Each variable's offset in its section (`.nv.global.init` for initialized ones, `.nv.global`
/// for the others; slot order, each at its alignment) and the two sections' sizes.
pub fn global_layout(globals: &[GlobalVar]) -> (Vec<u64>, [u64; 2]) {
    let mut ends = [0u64; 2];
    let offsets = globals
        .iter()
        .map(|v| {
            let end = &mut ends[usize::from(v.init.is_none())];
            let at = end.div_ceil(v.align.max(1)) * v.align.max(1);
            *end = at + v.size;
            at
        })
        .collect();
    (offsets, ends)
}

/// `-v`'s module line as ptxas prints it: "N bytes gmem" (both sections' sizes), then before
/// sm_90 ", M bytes cmem[4]" for the address slots when there are any: one per global variable
/// and one per external function called (`extern_funcs`).
pub fn module_memory_line(sm: Sm, globals: &[GlobalVar], extern_funcs: usize) -> String {
    let (_, ends) = global_layout(globals);
    let mut line = format!("{} bytes gmem", ends[0] + ends[1]);
    let slots = globals.len() + extern_funcs;
    if slots > 0 && sm.num < 90 {
        line.push_str(&format!(", {} bytes cmem[4]", 8 * slots));
    }
    line
}

/// A whole module: kernels in PTX definition order.
#[derive(Clone, Debug)]
pub struct CubinModule {
    pub sm: Sm,
    /// The PTX `.target` number (for `.note.nv.cuinfo`'s virtual SM), e.g. 75.
    pub virtual_sm: u32,
    pub ptx_version: (u32, u32),
    pub address_size: u32,
    pub kernels: Vec<KernelImage>,
    /// Module `.global` variables in `.nv.constant4` slot order (`GlobalVar`).
    pub globals: Vec<GlobalVar>,
    /// Module `.const` variables in declaration order, laid out in `.nv.constant3` by
    /// [`const_layout`].
    pub consts: Vec<GlobalVar>,
    /// External functions the code calls (undefined FUNC symbols), their addresses in the
    /// `.nv.constant4` slots after the globals' (`extern_calls.rs`).
    pub extern_funcs: Vec<String>,
}

/// Each `.const` variable's offset in `.nv.constant3` (declaration order, each at its
/// alignment: the rule `ptxforge-lower` addresses them by) and the section's size.
pub fn const_layout(consts: &[GlobalVar]) -> (Vec<u64>, u64) {
    let mut end = 0u64;
    let offsets = consts
        .iter()
        .map(|v| {
            let at = end.next_multiple_of(v.align.max(1));
            end = at + v.size;
            at
        })
        .collect();
    (offsets, end)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubinError(pub String);

impl fmt::Display for CubinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes the cubin bytes for `module`. Deterministic: the same module gives the same bytes.
pub fn write_cubin(module: &CubinModule) -> Result<Vec<u8>, CubinError> {
    if !module.sm.is_supported() {
        return Err(CubinError(format!(
            "unsupported architecture {}",
            module.sm
        )));
    }
    if module.address_size != 64 {
        return Err(CubinError(".address_size 32 is not supported".into()));
    }
    let layout = sections::build(module);
    Ok(elf::write(module.sm, &layout))
}

/// [`write_cubin`] with `-lineinfo`'s line tables (`debug_line.rs`) when `lines` is given.
pub fn write_cubin_with_lines(
    module: &CubinModule,
    lines: Option<&LineTables>,
) -> Result<Vec<u8>, CubinError> {
    let Some(lines) = lines else {
        return write_cubin(module);
    };
    if !module.sm.is_supported() || module.address_size != 64 {
        return write_cubin(module);
    }
    let mut layout = sections::build(module);
    debug_line::add_sections(&mut layout, lines)?;
    Ok(elf::write(module.sm, &layout))
}
