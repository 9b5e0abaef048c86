//! The per-kernel stages as plain functions: lower, optimize, regalloc, schedule, encode.
//!
//! Each takes the kernel's [`KernelInFlight`] and returns it advanced by one stage, or a
//! [`KernelError`] naming the stage. The runtime runs them as actors; tests and benches may call
//! them directly.

use std::sync::Arc;

use ptxforge_cubin::{KernelImage, ParamInfo};
use ptxforge_lower::LoweredKernel;
use ptxforge_ptx::ast;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::{Opcode, SpecialReg};
use ptxforge_sass::linked_call::LINKED_SLOT;

use crate::options::CompileOptions;

/// One kernel on its way through the pipeline.
pub struct KernelInFlight {
    /// Position of the kernel in the module (definition order); the ELF stage orders by it.
    pub index: usize,
    /// Position of the function in `module.functions` (entries and device functions).
    pub func_index: usize,
    pub name: String,
    pub module: Arc<ast::Module>,
    pub opts: Arc<CompileOptions>,
    pub lowered: Option<LoweredKernel>,
    pub code: Vec<u8>,
    pub sass_text: Option<String>,
    /// What the ELF stage needs, filled by [`encode`].
    pub image: Option<KernelImage>,
    /// Named barriers the code uses (`-v`), counted by [`encode`] before it frees the machine IR.
    pub barriers: u32,
    /// The lowered function before the passes that lengthen live ranges ran, kept by
    /// [`optimize`] for [`regalloc`] to fall back on when the fully optimized one runs out of
    /// registers; dropped once registers are allocated.
    pub unoptimized: Option<ptxforge_sass::ir::Function>,
}

/// A kernel that could not be compiled: the stage and ptxas-style messages (without prefix).
#[derive(Clone, Debug)]
pub struct KernelError {
    pub kernel: String,
    pub stage: &'static str,
    /// `(line, message)`; line 0 when the error has no PTX line.
    pub messages: Vec<(u32, String)>,
}

impl KernelError {
    fn new(k: &KernelInFlight, stage: &'static str, line: u32, message: String) -> KernelError {
        KernelError {
            kernel: k.name.clone(),
            stage,
            messages: vec![(line, message)],
        }
    }
}

pub type StageResult = Result<KernelInFlight, KernelError>;

impl KernelInFlight {
    fn sm(&self) -> Sm {
        self.opts.sm
    }

    fn func(&self) -> &ast::Function {
        &self.module.functions[self.func_index]
    }

    /// The kernel's performance directives with `--maxntid`/`--minnctapersm` applied.
    fn directives(&self) -> std::borrow::Cow<'_, [(String, Vec<u64>)]> {
        self.opts.launch_defaults.apply(&self.func().directives)
    }

    /// The registers it may use: `--maxrregcount` and its directives, by ptxas's rules.
    fn register_budget(&self) -> u32 {
        use ptxforge_sass::reg_budget::{register_budget, Directives};
        let list = self
            .opts
            .launch_defaults
            .apply_for_budget(&self.func().directives);
        register_budget(self.sm(), Directives::from_list(&list), self.opts.max_regs)
    }

    /// Size of the kernel in PTX instructions (the unit of `--threads-min-section-size`).
    pub fn ptx_instructions(&self) -> usize {
        self.func()
            .body
            .iter()
            .filter(|s| matches!(s, ast::Statement::Instr(_)))
            .count()
    }

    fn lowered_mut(&mut self, stage: &'static str) -> Result<&mut LoweredKernel, KernelError> {
        match self.lowered.as_mut() {
            Some(l) => Ok(l),
            None => Err(KernelError {
                kernel: self.name.clone(),
                stage,
                messages: vec![(
                    0,
                    "internal error: kernel reached a stage before lowering".into(),
                )],
            }),
        }
    }
}

/// PTX function → machine IR with virtual registers.
pub fn lower(mut k: KernelInFlight) -> StageResult {
    let lowered = if k.func().is_entry {
        ptxforge_lower::lower_function_with(&k.module, k.func(), k.sm(), k.opts.cache_policy)
    } else {
        ptxforge_lower::lower_device_function(&k.module, k.func(), k.sm())
    };
    match lowered {
        Ok(l) => {
            k.lowered = Some(l);
            Ok(k)
        }
        Err(errs) => Err(KernelError {
            kernel: k.name.clone(),
            stage: "lower",
            messages: errs.into_iter().map(|e| (e.line, e.message)).collect(),
        }),
    }
}

/// Machine-independent clean-ups on the virtual-register IR.
pub fn optimize(mut k: KernelInFlight) -> StageResult {
    let config = match ptxforge_lower::PassConfig::from_env(k.opts.opt_level) {
        Ok(c) => c,
        Err(name) => {
            let msg = format!(
                "unknown pass '{name}' in {} or {}",
                ptxforge_lower::PASSES_ON_VAR,
                ptxforge_lower::PASSES_OFF_VAR
            );
            return Err(KernelError::new(&k, "optimize", 0, msg));
        }
    };
    let keep = config.fallback().is_some();
    let l = k.lowered_mut("optimize")?;
    let unoptimized = keep.then(|| l.func.clone());
    ptxforge_lower::optimize_with(&mut l.func, &config);
    k.unoptimized = unoptimized;
    Ok(k)
}

fn pass_config(k: &KernelInFlight) -> Option<ptxforge_lower::PassConfig> {
    ptxforge_lower::PassConfig::from_env(k.opts.opt_level).ok()
}

/// Virtual → physical registers.
pub fn regalloc(mut k: KernelInFlight) -> StageResult {
    let sm = k.sm();
    let entry = k.register_budget();
    // setmaxnreg: each region within the count it sets (`reg_regions.rs`); the kernel reports
    // its entry budget, which the counts move from (as ptxas).
    let setmaxnreg = ptxforge_lower::setmaxnreg_budget(&k.module.functions[k.func_index]);
    let max = entry;
    let fallback = k.unoptimized.take();
    let fallback_config = pass_config(&k).and_then(|c| c.fallback());
    let l = k.lowered_mut("regalloc")?;
    let mut result = ptxforge_sass::regalloc::allocate_registers(&mut l.func, sm, max);
    // Out of registers with every pass: the passes that lengthen live ranges are left out.
    if let (Err(_), Some(mut f), Some(config)) = (&result, fallback, fallback_config) {
        ptxforge_lower::optimize_with(&mut f, &config);
        result = ptxforge_sass::regalloc::allocate_registers(&mut f, sm, max);
        l.func = f;
    }
    if let Err(e) = result {
        let msg = e.to_string();
        return Err(KernelError::new(&k, "regalloc", 0, msg));
    }
    // Copies whose ends coalesced into one register.
    ptxforge_sass::coalesce::remove_self_copies(&mut l.func);
    // Pairs zeroed by two moves: one CS2R, as ptxas.
    ptxforge_sass::zero_pairs::merge_zero_pairs(&mut l.func);
    if setmaxnreg.is_some() {
        l.func.reg_usage.gprs = entry;
    }
    Ok(k)
}

/// ptxas's `-v` note on the register limit of the kernel (see [`budget_note`]).
///
/// [`budget_note`]: ptxforge_sass::reg_budget::budget_note
pub fn register_note(k: &KernelInFlight) -> Option<String> {
    use ptxforge_sass::reg_budget::{budget_note, Directives};
    let list = k
        .opts
        .launch_defaults
        .apply_for_budget(&k.func().directives);
    budget_note(
        k.sm(),
        Directives::from_list(&list),
        k.opts.max_regs,
        &k.name,
    )
}

/// Control bits (stalls, scoreboards), then the trailing self-branch and padding.
pub fn schedule(mut k: KernelInFlight) -> StageResult {
    let sm = k.sm();
    let errbar = k.opts.errors_visible_at_exit;
    let l = k.lowered_mut("schedule")?;
    if errbar {
        ptxforge_sass::exit_barriers::add_error_barriers(&mut l.func, sm);
    }
    ptxforge_sass::schedule::schedule(&mut l.func, sm);
    ptxforge_sass::schedule::append_trailer(&mut l.func);
    Ok(k)
}

/// Machine IR → SASS words; optionally the printed SASS and the hazard check.
pub fn encode(mut k: KernelInFlight) -> StageResult {
    let sm = k.sm();
    let keep_text = k.opts.keep_sass_text;
    let check = k.opts.check_hazards;
    let l = k.lowered_mut("encode")?;
    let code = match ptxforge_sass::encode::encode_function(sm, &l.func) {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("internal error: {e}");
            return Err(KernelError::new(&k, "encode", 0, msg));
        }
    };
    if check {
        if let Err(hazards) = ptxforge_sass::hazard::check_hazards(sm, &l.func, &code) {
            let msg = format!("internal error: hazard in generated code: {}", hazards[0]);
            return Err(KernelError::new(&k, "encode", 0, msg));
        }
    }
    let text = keep_text.then(|| ptxforge_sass::print::print_function(sm, &l.func));
    k.code = code;
    k.sass_text = text;
    k.image = Some(kernel_image(&k));
    // Past encoding only the image and the figures `-v` reports are read: the machine IR's
    // instructions are freed now rather than when the last kernel of the module is done, so that
    // memory does not grow with every kernel compiled.
    if let Some(l) = k.lowered.as_mut() {
        k.barriers = ptxforge_sass::warp::barriers_used(&l.func).max(u32::from(l.uses_barrier));
        l.func.blocks = Vec::new();
    }
    Ok(k)
}

/// KPARAM_INFO's record of what a `.ptr` parameter points to (the rest of the record left default).
fn pointee_info(pointee: Option<ptxforge_ptx::ast::Pointee>) -> ParamInfo {
    use ptxforge_ptx::ast::StateSpace;
    let Some(p) = pointee else {
        return ParamInfo::default();
    };
    let pointee_space = match p.space {
        None => 5,
        Some(StateSpace::Global) => 4,
        Some(StateSpace::Const) => 3,
        Some(StateSpace::Shared) => 2,
        Some(StateSpace::Local) => 1,
        Some(StateSpace::Reg | StateSpace::Param) => 0,
    };
    ParamInfo {
        pointee_space,
        pointee_log_align: p.align.max(1).ilog2(),
        ..ParamInfo::default()
    }
}

/// The facts the cubin writer records for one compiled kernel.
pub fn kernel_image(k: &KernelInFlight) -> KernelImage {
    let l = k.lowered.as_ref().expect("kernel_image after encode");
    let exit_offsets = l
        .func
        .instrs()
        .enumerate()
        .filter(|(_, i)| matches!(i.op, Opcode::Exit))
        .map(|(n, _)| (n * 16) as u32)
        .collect();
    KernelImage {
        name: k.name.clone(),
        code: k.code.clone(),
        params: l
            .params
            .iter()
            .map(|p| ParamInfo {
                offset: p.offset,
                size: p.size,
                align: p.align,
                ..pointee_info(p.pointee)
            })
            .collect(),
        param_bytes: l.param_bytes,
        num_gprs: l.func.reg_usage.gprs,
        shared_bytes: l.shared_bytes,
        shared_align: l.shared_align,
        uses_shared: l.uses_shared,
        exit_offsets,
        uses_barrier: l.uses_barrier,
        num_barriers: ptxforge_sass::warp::barriers_used(&l.func),
        coop_group_offsets: ptxforge_sass::warp::coop_group_offsets(&l.func),
        preexit_used: ptxforge_sass::warp::uses_preexit(&l.func),
        uses_ctaid_z: l
            .func
            .instrs()
            .any(|i| i.op == Opcode::S2r(SpecialReg::CtaIdZ)),
        divergent_loop: l.divergent_loop || call_under_branch(&l.func),
        frame_size: l.func.frame.size(),
        subroutines: ptxforge_sass::subroutine::subroutine_layout(&l.func, k.code.len() as u32)
            .into_iter()
            .map(
                |(name, offset, size, frame_size, saved_bytes)| ptxforge_cubin::SubroutineImage {
                    name,
                    offset,
                    size,
                    frame_size,
                    saved_bytes,
                },
            )
            .collect(),
        spill_offsets: ptxforge_sass::spill::spill_access_offsets(&l.func),
        cluster: ptxforge_cubin::ClusterDirectives::from_list(
            &k.module.functions[k.func_index].directives,
        ),
        errbar_at_exit: k.opts.errors_visible_at_exit,
        launch: ptxforge_cubin::LaunchBounds::from_list(&k.directives(), Some(k.register_budget())),
        externs: extern_calls(&l.func, &k.module),
        syscall_offsets: l
            .func
            .instrs()
            .enumerate()
            .filter(|(_, i)| matches!(i.op, Opcode::CallAbs { slot, .. } if slot != LINKED_SLOT))
            .map(|(n, _)| (n * 16) as u32)
            .collect(),
        ptx_lines: match k.opts.line_info {
            true => ptxforge_sass::srcloc::ptx_lines(&l.func),
            false => Vec::new(),
        },
        ..crate::relocatable::linkable_image(k)
    }
}

/// The external functions `func` calls, in order of first call.
fn extern_calls(
    func: &ptxforge_sass::ir::Function,
    module: &ptxforge_ptx::ast::Module,
) -> Vec<String> {
    let names = ptxforge_lower::extern_functions(module);
    let linked = ptxforge_lower::linked_functions(module);
    let mut out: Vec<String> = Vec::new();
    for i in func.instrs() {
        if let Opcode::CallAbs { ext, slot } = i.op {
            let names = if slot == LINKED_SLOT { &linked } else { &names };
            if let Some(n) = names.get(ext as usize).filter(|n| !out.contains(n)) {
                out.push(n.clone());
            }
        }
    }
    out
}

/// Whether `func` calls an external function and branches conditionally: ptxas then keeps the
/// call in a convergence region (BSSY/BSYNC) and writes EIATTR_CRS_STACK_SIZE 0, as for a
/// divergent loop.
fn call_under_branch(func: &ptxforge_sass::ir::Function) -> bool {
    let calls = func
        .instrs()
        .any(|i| matches!(i.op, Opcode::CallAbs { .. }));
    calls
        && func
            .instrs()
            .any(|i| matches!(i.op, Opcode::Bra { .. }) && i.guard != ptxforge_sass::ir::Src::TRUE)
}
