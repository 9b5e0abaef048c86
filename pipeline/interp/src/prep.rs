//! Preparation: turns the entry and the functions it calls into an executable form (register
//! numbers, resolved labels and symbols) and lays out the shared, const, global and param spaces.

use std::collections::{HashMap, HashSet};

use ptxforge_ptx::ast::{
    symbol_base, AddrBase, Function, Module, Operand, StateSpace, Statement, Type, VarDecl,
};

use crate::error::SimError;
use crate::memory::GLOBAL_VARS_BASE;

/// Where a named variable lives.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Loc {
    /// Absolute global address (module `.global` variables).
    Global(u64),
    /// Offset in the CTA's shared memory.
    Shared(u64),
    /// Offset in the const bank.
    Const(u64),
    /// Offset in the kernel's parameter buffer.
    KernelParam(u64),
    /// Offset in the current frame's param area (a `.func`'s parameters, call arguments).
    FrameParam(u64),
    /// Offset in the current frame's local area.
    Local(u64),
}

/// Special registers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Sreg {
    Tid(usize),
    Ntid(usize),
    Ctaid(usize),
    Nctaid(usize),
    Laneid,
    Warpid,
    Nwarpid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    Clock64,
    DynSmem,
    TotalSmem,
    /// Registers with a fixed value in the simulation (`%smid`, `%gridid`, `%globaltimer`, ...).
    Fixed(u64),
}

/// Base of a memory operand.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MemBase {
    Reg(u32),
    Sym(Loc),
    Abs,
}

/// A resolved operand.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Opnd {
    Reg(u32),
    NotReg(u32),
    Imm(i128),
    F32(u32),
    F64(u64),
    Special(Sreg),
    Sym(Loc),
    Mem(MemBase, i64),
    Vec(Vec<Opnd>),
    Sink,
    Pair(u32, u32),
    Label(usize),
    Func(usize),
    Unresolved(String),
}

/// How an instruction is dispatched (decided once, from its opcode).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Branch,
    Ret,
    Exit,
    Call,
    Trap,
    Sleep,
    NoEffect,
    Mov,
    Load,
    Store,
    Atomic,
    Cvta,
    /// `mapa`: a shared address in another CTA of the cluster (the same CTA here).
    Mapa,
    Mbarrier,
    CpAsync,
    Isspacep,
    Cvt,
    Setp,
    Set,
    Selp,
    Slct,
    Testp,
    Barrier,
    Warp,
    Arith,
    /// `wgmma.*` (`wgmma.rs`).
    Wgmma,
    Unknown,
}

fn kind_of(op: &str, mods: &[String]) -> Kind {
    match op {
        "bra" | "brx" => Kind::Branch,
        "ret" => Kind::Ret,
        "exit" => Kind::Exit,
        "call" => Kind::Call,
        "trap" | "brkpt" => Kind::Trap,
        "nanosleep" => Kind::Sleep,
        "membar" | "fence" | "prefetch" | "prefetchu" | "pmevent" | "discard" | "applypriority"
        | "griddepcontrol" | "createpolicy" | "setmaxnreg" => Kind::NoEffect,
        "mov" => Kind::Mov,
        "ld" | "ldu" => Kind::Load,
        "st" => Kind::Store,
        "atom" | "red" => Kind::Atomic,
        "cvta" => Kind::Cvta,
        "mapa" => Kind::Mapa,
        "mbarrier" => Kind::Mbarrier,
        "cp" if mods.iter().any(|m| m == "async") => Kind::CpAsync,
        "isspacep" => Kind::Isspacep,
        "cvt" => Kind::Cvt,
        "setp" => Kind::Setp,
        "set" => Kind::Set,
        "selp" => Kind::Selp,
        "slct" => Kind::Slct,
        "testp" => Kind::Testp,
        "bar" | "barrier" => Kind::Barrier,
        "wgmma" => Kind::Wgmma,
        "shfl" | "vote" | "match" | "redux" | "activemask" | "elect" | "mma" | "ldmatrix"
        | "stmatrix" | "movmatrix" | "wmma" => Kind::Warp,
        _ if crate::arith::ARITH_OPS.contains(&op) => Kind::Arith,
        _ if crate::video::VIDEO_OPS.contains(&op) => Kind::Arith,
        _ => Kind::Unknown,
    }
}

/// One prepared instruction.
#[derive(Clone, Debug)]
pub(crate) struct Ins {
    pub kind: Kind,
    pub op: String,
    pub mods: Vec<String>,
    /// The last type modifier.
    pub ty: Option<Type>,
    /// All type modifiers in order.
    pub types: Vec<Type>,
    pub guard: Option<(bool, u32)>,
    pub ops: Vec<Opnd>,
    pub line: u32,
}

impl Ins {
    pub fn has(&self, m: &str) -> bool {
        self.mods.iter().any(|x| x == m)
    }
}

/// A prepared function.
#[derive(Clone, Debug)]
pub(crate) struct Func {
    pub name: String,
    /// A declaration without a body (`vprintf`, ...): only the calls the interpreter knows run.
    pub external: bool,
    pub is_entry: bool,
    pub ins: Vec<Ins>,
    /// Width in bits of each register (1 for predicates).
    pub reg_bits: Vec<u8>,
    pub local_size: u64,
    pub param_size: u64,
    /// (offset, size) of each parameter in the frame param area.
    pub params: Vec<(u64, u64)>,
    pub rets: Vec<(u64, u64)>,
    /// Sizes of the function-scope `.param` variables by location (call arguments).
    pub param_vars: HashMap<u64, u64>,
}

/// The module prepared for one entry.
pub(crate) struct Program {
    pub funcs: Vec<Func>,
    pub entry: usize,
    pub static_shared: u64,
    pub const_bank: Vec<u8>,
    pub global_vars: Vec<u8>,
    /// The module's `.target` architecture (80 for `sm_80`, 90 for `sm_90a`; 0 when unreadable),
    /// for the WMMA fragment layouts that differ between architectures (`wmma.rs`).
    pub sm: u32,
}

/// A parameter of an entry in the parameter buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    /// `.u64`/`.b64` parameters (and those declared `.ptr`) usually hold pointers.
    pub is_pointer_hint: bool,
}

/// Size of a variable in bytes (saturating: declarations can be absurdly large).
fn var_bytes(v: &VarDecl) -> u64 {
    (v.ty.size_bytes() as u64)
        .saturating_mul(v.vector as u64)
        .saturating_mul(v.array_len.unwrap_or(0))
}

/// Alignment of a variable (its `.align`, else its element size), at most 4 KiB.
fn var_align(v: &VarDecl) -> u64 {
    let a = if v.align > 0 {
        v.align as u64
    } else {
        (v.ty.size_bytes() as u64).saturating_mul(v.vector as u64)
    };
    a.clamp(1, 4096)
}

/// Most bytes of declared variables (all spaces) a module may have: beyond it nothing is allocated.
const MAX_VAR_BYTES: u64 = 1 << 30;

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Lays out `vars` one after another from `start`, each at its alignment; returns offsets and the end.
/// One declaration per name, the largest (then the most aligned) of those of that name, in the
/// order the names first appear: the tree keeps no `{ }` scopes, and nvcc declares `param0`,
/// `retval0` in every call's block with that call's size (a `.b32`, then a `.b8 [16]`), so the
/// name's one frame slot must hold the largest.
fn widest_per_name<'a>(vars: impl Iterator<Item = &'a VarDecl>) -> Vec<&'a VarDecl> {
    let mut out: Vec<&VarDecl> = Vec::new();
    for v in vars {
        match out.iter_mut().find(|w| w.name == v.name) {
            Some(w) => {
                if (var_bytes(v), var_align(v)) > (var_bytes(w), var_align(w)) {
                    *w = v;
                }
            }
            None => out.push(v),
        }
    }
    out
}

fn layout(vars: &[&VarDecl], start: u64) -> (Vec<u64>, u64) {
    let mut at = start;
    let mut offs = Vec::new();
    for v in vars {
        at = align_up(at, var_align(v));
        offs.push(at);
        at += var_bytes(v);
    }
    (offs, at)
}

/// The parameter layout of an entry (natural alignment, offsets from 0).
pub fn param_layout(module: &Module, entry: &str) -> Result<Vec<ParamSlot>, SimError> {
    let f = find_function(module, entry)?;
    let vars: Vec<&VarDecl> = f.params.iter().collect();
    let (offs, _) = layout(&vars, 0);
    Ok(f.params
        .iter()
        .zip(offs)
        .map(|(p, o)| ParamSlot {
            name: p.name.clone(),
            offset: o as u32,
            size: var_bytes(p) as u32,
            // 8-byte, 8-aligned byte arrays are usually wrapped pointers (iterators).
            is_pointer_hint: var_bytes(p) == 8
                && (matches!(p.ty, Type::U64 | Type::B64 | Type::S64)
                    || (p.ty == Type::B8 && var_align(p) == 8)),
        })
        .collect())
}

fn find_function<'m>(module: &'m Module, name: &str) -> Result<&'m Function, SimError> {
    module
        .functions
        .iter()
        .filter(|f| f.name == name)
        .max_by_key(|f| f.has_body)
        .ok_or_else(|| SimError::BadLaunch(format!("no function '{name}' in the module")))
}

fn write_init(buf: &mut [u8], at: u64, v: &VarDecl) {
    let sz = v.ty.size_bytes() as usize;
    for (i, val) in v.init.iter().enumerate() {
        let o = at as usize + i * sz;
        if o + sz > buf.len() {
            break;
        }
        buf[o..o + sz].copy_from_slice(&(*val as u128).to_le_bytes()[..sz]);
    }
}

/// Module-level symbols shared by every function.
struct ModuleSyms {
    syms: HashMap<String, Loc>,
    static_shared: u64,
    const_bank: Vec<u8>,
    global_vars: Vec<u8>,
}

fn module_syms(module: &Module, reachable: &HashSet<String>) -> ModuleSyms {
    let mut syms = HashMap::new();
    let of = |s: StateSpace| {
        module
            .globals
            .iter()
            .filter(move |v| v.space == s)
            .collect::<Vec<_>>()
    };
    let consts = of(StateSpace::Const);
    let (offs, end) = layout(&consts, 0);
    let mut const_bank = vec![0u8; end as usize];
    for (v, o) in consts.iter().zip(offs) {
        write_init(&mut const_bank, o, v);
        syms.insert(v.name.clone(), Loc::Const(o));
    }
    let globals = of(StateSpace::Global);
    let (offs, end) = layout(&globals, 0);
    let mut global_vars = vec![0u8; end as usize];
    for (v, o) in globals.iter().zip(offs) {
        write_init(&mut global_vars, o, v);
        syms.insert(v.name.clone(), Loc::Global(GLOBAL_VARS_BASE + o));
    }
    // Only the static shared variables the entry can reach are laid out, as ptxas sizes the
    // entry's shared memory: an access past them is out of bounds here too.
    let shared: Vec<&VarDecl> = of(StateSpace::Shared)
        .into_iter()
        .filter(|v| v.array_len.is_some() && reachable.contains(v.name.as_str()))
        .collect();
    let (offs, end) = layout(&shared, 0);
    for (v, o) in shared.iter().zip(offs) {
        syms.insert(v.name.clone(), Loc::Shared(o));
    }
    // Dynamic (`.extern .shared ... []`) arrays are placed after all static shared memory (see `prepare`).
    for v in of(StateSpace::Shared)
        .into_iter()
        .filter(|v| v.array_len.is_none())
    {
        syms.insert(v.name.clone(), Loc::Shared(u64::MAX));
    }
    ModuleSyms {
        syms,
        static_shared: end,
        const_bank,
        global_vars,
    }
}

/// The symbols named by `entry` and by every function it can call (transitively).
fn reachable_symbols(module: &Module, entry: &Function) -> HashSet<String> {
    let mut seen: HashSet<String> = HashSet::from([entry.name.clone()]);
    let mut todo = vec![entry];
    while let Some(f) = todo.pop() {
        for s in &f.body {
            let Statement::Instr(ins) = s else { continue };
            for o in &ins.operands {
                let name = match o {
                    Operand::Symbol(n)
                    | Operand::Addr {
                        base: AddrBase::Symbol(n),
                        ..
                    } => symbol_base(n),
                    _ => continue,
                };
                if seen.insert(name.to_string()) {
                    todo.extend(
                        module
                            .functions
                            .iter()
                            .filter(|g| g.name == name && g.has_body),
                    );
                }
            }
        }
    }
    seen
}

/// Prepares `entry` and every function it can call.
pub(crate) fn prepare(module: &Module, entry: &str) -> Result<Program, SimError> {
    let ef = find_function(module, entry)?;
    if !ef.is_entry {
        return Err(SimError::BadLaunch(format!(
            "'{entry}' is a .func, not an .entry"
        )));
    }
    let var_bytes: u64 = module
        .globals
        .iter()
        .chain(module.functions.iter().flat_map(|f| f.vars.iter()))
        .map(var_bytes)
        .fold(0u64, |a, b| a.saturating_add(b));
    if var_bytes > MAX_VAR_BYTES {
        return Err(SimError::BadModule(format!(
            "{var_bytes} bytes of variables"
        )));
    }
    let mut ms = module_syms(module, &reachable_symbols(module, ef));
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut order: Vec<&Function> = vec![ef];
    names.insert(ef.name.clone(), 0);
    let mut funcs = Vec::new();
    let mut i = 0;
    let mut dynamic_fixups = Vec::new();
    while i < order.len() {
        let f = order[i];
        // Call targets of this function become new functions to prepare.
        for s in &f.body {
            if let Statement::Instr(ins) = s {
                if ins.opcode() == "call" {
                    for o in &ins.operands {
                        if let Operand::Symbol(n) = o {
                            if !names.contains_key(n.as_str()) {
                                if let Ok(g) = find_function(module, n) {
                                    names.insert(n.to_string(), order.len());
                                    order.push(g);
                                }
                            }
                        }
                    }
                }
            }
        }
        let prepared = prepare_function(f, &mut ms, &names, &mut dynamic_fixups)?;
        funcs.push(prepared);
        i += 1;
    }
    // Dynamic shared memory starts after the static part, 16-byte aligned.
    let dyn_base = align_up(ms.static_shared, 16);
    for (fi, ii, oi) in dynamic_fixups {
        fix_dynamic(
            &mut funcs[fi as usize].ins[ii as usize].ops[oi as usize],
            dyn_base,
        );
    }
    Ok(Program {
        funcs,
        entry: 0,
        static_shared: dyn_base,
        const_bank: ms.const_bank,
        global_vars: ms.global_vars,
        sm: target_sm(&module.target),
    })
}

/// The architecture number of a `.target` (`sm_80` → 80, `sm_90a` → 90).
fn target_sm(target: &str) -> u32 {
    let digits: String = target
        .trim_start_matches("sm_")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

fn fix_dynamic(o: &mut Opnd, base: u64) {
    match o {
        Opnd::Sym(Loc::Shared(x)) | Opnd::Mem(MemBase::Sym(Loc::Shared(x)), _)
            if *x == u64::MAX =>
        {
            *x = base
        }
        Opnd::Vec(v) => v.iter_mut().for_each(|x| fix_dynamic(x, base)),
        _ => {}
    }
}

fn has_dynamic(o: &Opnd) -> bool {
    match o {
        Opnd::Sym(Loc::Shared(x)) | Opnd::Mem(MemBase::Sym(Loc::Shared(x)), _) => *x == u64::MAX,
        Opnd::Vec(v) => v.iter().any(has_dynamic),
        _ => false,
    }
}

fn reg_bits(t: Type) -> u8 {
    if t == Type::Pred {
        1
    } else {
        (t.size_bytes() * 8).min(64) as u8
    }
}

struct FnCtx<'a> {
    regs: HashMap<String, u32>,
    reg_bits: Vec<u8>,
    syms: HashMap<String, Loc>,
    labels: HashMap<&'a str, usize>,
    funcs: &'a HashMap<String, usize>,
    table: ptxforge_ptx::ast::RegTable<'a>,
}

impl FnCtx<'_> {
    /// Register number of `name`, allocating it on first use (declarations are checked by the parser).
    fn reg(&mut self, name: &str) -> Option<u32> {
        if let Some(r) = self.regs.get(name) {
            return Some(*r);
        }
        let ty = self.table.lookup(name)?;
        let r = self.reg_bits.len() as u32;
        self.reg_bits.push(reg_bits(ty));
        self.regs.insert(name.to_string(), r);
        Some(r)
    }

    /// A register, or for `_` (a sink half of `d|p`, as in `elect.sync _|p`) a fresh scratch
    /// register nobody reads.
    fn reg_or_sink(&mut self, name: &str) -> Option<u32> {
        if name != "_" {
            return self.reg(name);
        }
        self.reg_bits.push(32);
        Some(self.reg_bits.len() as u32 - 1)
    }

    fn name(&mut self, n: &str) -> Opnd {
        if let Some(r) = self.reg(n) {
            return Opnd::Reg(r);
        }
        if let Some(l) = self.syms.get(n) {
            return Opnd::Sym(*l);
        }
        if let Some(i) = self.labels.get(n) {
            return Opnd::Label(*i);
        }
        if let Some(i) = self.funcs.get(n) {
            return Opnd::Func(*i);
        }
        Opnd::Unresolved(n.to_string())
    }

    fn operand(&mut self, o: &Operand) -> Opnd {
        match o {
            Operand::Reg(n) => match self.reg(n) {
                Some(r) => Opnd::Reg(r),
                None => self.name(n),
            },
            Operand::NotReg(n) => match self.reg(n) {
                Some(r) => Opnd::NotReg(r),
                None => Opnd::Unresolved(n.to_string()),
            },
            Operand::SpecialReg { name, comp } => special(name, *comp),
            Operand::Imm(v) => Opnd::Imm(*v),
            Operand::F32(b) => Opnd::F32(*b),
            Operand::F64(b) => Opnd::F64(*b),
            Operand::Addr { base, offset } => {
                let b = match base {
                    AddrBase::Reg(n) => match self.reg(n) {
                        Some(r) => MemBase::Reg(r),
                        None => return Opnd::Unresolved(n.to_string()),
                    },
                    AddrBase::Symbol(n) => match self.name(n) {
                        Opnd::Sym(l) => MemBase::Sym(l),
                        Opnd::Reg(r) => MemBase::Reg(r),
                        _ => return Opnd::Unresolved(n.to_string()),
                    },
                    AddrBase::None => MemBase::Abs,
                };
                Opnd::Mem(b, *offset)
            }
            Operand::Symbol(n) => self.name(n),
            Operand::Vector(v) => Opnd::Vec(v.iter().map(|x| self.operand(x)).collect()),
            Operand::Sink => Opnd::Sink,
            Operand::PredPair(pair) => match (self.reg_or_sink(&pair.0), self.reg_or_sink(&pair.1))
            {
                (Some(a), Some(b)) => Opnd::Pair(a, b),
                _ => Opnd::Unresolved(format!("{}|{}", pair.0, pair.1)),
            },
        }
    }
}

fn special(name: &str, comp: Option<char>) -> Opnd {
    let c = match comp {
        Some('y') => 1,
        Some('z') => 2,
        _ => 0,
    };
    let s = match name {
        "%tid" => Sreg::Tid(c),
        "%ntid" => Sreg::Ntid(c),
        "%ctaid" => Sreg::Ctaid(c),
        "%nctaid" => Sreg::Nctaid(c),
        "%laneid" => Sreg::Laneid,
        "%warpid" => Sreg::Warpid,
        "%nwarpid" => Sreg::Nwarpid,
        "%lanemask_eq" => Sreg::LanemaskEq,
        "%lanemask_le" => Sreg::LanemaskLe,
        "%lanemask_lt" => Sreg::LanemaskLt,
        "%lanemask_ge" => Sreg::LanemaskGe,
        "%lanemask_gt" => Sreg::LanemaskGt,
        "%clock" | "%clock_hi" => Sreg::Clock,
        "%clock64" | "%globaltimer" | "%globaltimer_lo" | "%globaltimer_hi" => Sreg::Clock64,
        "%dynamic_smem_size" => Sreg::DynSmem,
        "%total_smem_size" | "%aggr_smem_size" => Sreg::TotalSmem,
        // Clusters hold one CTA: the grid of clusters is the grid of CTAs.
        "%nclusterid" => Sreg::Nctaid(c),
        "%clusterid" => Sreg::Ctaid(c),
        "%nsmid" | "%cluster_nctarank" | "%cluster_nctaid" => Sreg::Fixed(1),
        "%smid" | "%gridid" | "%cluster_ctarank" | "%cluster_ctaid" | "%is_explicit_cluster" => {
            Sreg::Fixed(0)
        }
        n if n.starts_with("%envreg")
            || n.starts_with("%pm")
            || n.starts_with("%reserved_smem") =>
        {
            Sreg::Fixed(0)
        }
        _ => return Opnd::Unresolved(name.to_string()),
    };
    Opnd::Special(s)
}

fn prepare_function(
    f: &Function,
    ms: &mut ModuleSyms,
    funcs: &HashMap<String, usize>,
    fixups: &mut Vec<(u32, u32, u32)>,
) -> Result<Func, SimError> {
    let mut syms = ms.syms.clone();
    // Parameters.
    let mut params = Vec::new();
    let mut rets = Vec::new();
    let mut param_vars = HashMap::new();
    let local_vars: Vec<&VarDecl> = f
        .vars
        .iter()
        .filter(|v| v.space == StateSpace::Local)
        .collect();
    let (loffs, local_size) = layout(&local_vars, 0);
    for (v, o) in local_vars.iter().zip(loffs) {
        syms.insert(v.name.clone(), Loc::Local(o));
    }
    let frame_params = widest_per_name(f.vars.iter().filter(|v| v.space == StateSpace::Param));
    let param_size = if f.is_entry {
        let (offs, _) = layout(&f.params.iter().collect::<Vec<_>>(), 0);
        for (v, o) in f.params.iter().zip(offs) {
            syms.insert(v.name.clone(), Loc::KernelParam(o));
        }
        let (offs, end) = layout(&frame_params, 0);
        for (v, o) in frame_params.iter().zip(offs) {
            syms.insert(v.name.clone(), Loc::FrameParam(o));
            param_vars.insert(o, var_bytes(v));
        }
        end
    } else {
        let all: Vec<&VarDecl> = f
            .params
            .iter()
            .chain(f.ret_params.iter())
            .chain(frame_params.iter().copied())
            .collect();
        let (offs, end) = layout(&all, 0);
        for (i, (v, o)) in all.iter().zip(offs).enumerate() {
            syms.insert(v.name.clone(), Loc::FrameParam(o));
            if i < f.params.len() {
                params.push((o, var_bytes(v)));
            } else if i < f.params.len() + f.ret_params.len() {
                rets.push((o, var_bytes(v)));
            } else {
                param_vars.insert(o, var_bytes(v));
            }
        }
        end
    };
    // Function-scope shared variables extend the CTA's static shared memory.
    for v in f.vars.iter().filter(|v| v.space == StateSpace::Shared) {
        if v.array_len.is_none() {
            syms.insert(v.name.clone(), Loc::Shared(u64::MAX));
            continue;
        }
        let o = align_up(ms.static_shared, var_align(v));
        ms.static_shared = o + var_bytes(v);
        syms.insert(v.name.clone(), Loc::Shared(o));
    }
    for v in f
        .vars
        .iter()
        .filter(|v| matches!(v.space, StateSpace::Const | StateSpace::Global))
    {
        let (bank, base) = if v.space == StateSpace::Const {
            (&mut ms.const_bank, 0)
        } else {
            (&mut ms.global_vars, GLOBAL_VARS_BASE)
        };
        let o = align_up(bank.len() as u64, var_align(v));
        bank.resize((o + var_bytes(v)) as usize, 0);
        write_init(bank, o, v);
        let loc = if v.space == StateSpace::Const {
            Loc::Const(o)
        } else {
            Loc::Global(base + o)
        };
        syms.insert(v.name.clone(), loc);
    }
    // Labels: the index of the next instruction.
    let mut labels = HashMap::new();
    let mut n = 0;
    for s in &f.body {
        match s {
            Statement::Label { name, .. } => {
                labels.insert(name.as_str(), n);
            }
            Statement::Instr(_) => n += 1,
        }
    }
    let mut cx = FnCtx {
        regs: HashMap::new(),
        reg_bits: Vec::new(),
        syms,
        labels,
        funcs,
        table: ptxforge_ptx::ast::RegTable::new(&f.regs),
    };
    let fi = funcs.get(&f.name).copied().unwrap_or(0) as u32;
    let mut ins = Vec::new();
    for s in &f.body {
        let Statement::Instr(i) = s else { continue };
        let guard = match i.guard() {
            Some((neg, name)) => match cx.reg(name) {
                Some(r) => Some((neg, r)),
                None => {
                    return Err(SimError::BadModule(format!(
                        "line {}: unknown guard predicate '{name}'",
                        i.line
                    )))
                }
            },
            None => None,
        };
        let ops: Vec<Opnd> = i.operands.iter().map(|o| cx.operand(o)).collect();
        for (oi, o) in ops.iter().enumerate() {
            if has_dynamic(o) {
                fixups.push((fi, ins.len() as u32, oi as u32));
            }
        }
        let mods: Vec<String> = i.mods().iter().map(|m| m.to_string()).collect();
        ins.push(Ins {
            kind: kind_of(i.opcode(), &mods),
            op: i.opcode().to_string(),
            mods,
            ty: i.ty(),
            types: i.types(),
            guard,
            ops,
            line: i.line,
        });
    }
    Ok(Func {
        name: f.name.clone(),
        external: !f.has_body,
        is_entry: f.is_entry,
        ins,
        reg_bits: cx.reg_bits,
        local_size,
        param_size,
        params,
        rets,
        param_vars,
    })
}
