//! Per-instruction semantic checks with ptxas's messages: known opcode, instruction types, operand
//! kinds and register types (from the `isa` table), vector sizes, rounding modifiers, state spaces,
//! `.target`/`.version` requirements, `call` against the callee's prototype, and symbols.
//!
//! This file holds what every check reads ([`Scope`], [`Variables`], [`Functions`], [`Findings`])
//! and the driver [`check_instruction`]: modifier-only checks planned once per form ([`Plan`]),
//! operand verdicts cached per operand summary, and the short first walk `fits_at_once`. The
//! checks themselves live by concern in `instructions/`: `types.rs`, `operands.rs` (with
//! `summary.rs`, the one walk that summarises the operands), `modifiers.rs`, `memory.rs`,
//! `barriers.rs`, `matrix.rs`, `requirements.rs` and `calls.rs`.

use std::sync::Arc;

use crate::ast::*;
use crate::checks::typing::{
    float_literal_fits, int_immediate_fits, is_float, is_int, register_fits, widened,
};
use crate::isa::{self, OpSpec, Typing};

mod barriers;
mod calls;
mod matrix;
mod memory;
mod modifiers;
mod operands;
mod requirements;
mod summary;
mod types;

pub use barriers::*;
use calls::*;
use matrix::*;
use memory::*;
pub(crate) use modifiers::*;
pub(crate) use operands::*;
use requirements::*;
use summary::*;
pub(crate) use types::*;

/// Everything an instruction's operands are checked against.
pub struct Scope<'a> {
    pub regs: crate::checks::resolve::Registers<'a>,
    pub labels: crate::checks::resolve::Labels<'a>,
    /// Variables visible in the function, with their state spaces.
    pub vars: VarScope<'a>,
    /// The module's functions by name (built once per module, shared by every function's scope);
    /// read through [`Scope::function`], which sees only those declared before [`Scope::at`].
    pub functions: &'a Functions<'a>,
    /// Where the instruction being checked starts (set by [`check_instruction`]).
    pub at: std::cell::Cell<u32>,
    pub target_sm: u32,
    /// The `.target` as written (`sm_90a`), for features of one architecture.
    pub target: &'a str,
    pub version: (u32, u32),
}

/// The module's functions by name: the last declaration of each (the one checked against), and
/// where its first starts. ptxas reads a module in order, so a function named before any
/// declaration of it is unknown there (`call f` before `.func f`: "Call to 'f' requires call
/// prototype").
#[derive(Default)]
pub struct Functions<'a> {
    by_name: FastMap<&'a str, (&'a Function, u32)>,
}

impl<'a> Functions<'a> {
    pub fn new(functions: &'a [Function]) -> Functions<'a> {
        let mut by_name: FastMap<&'a str, (&'a Function, u32)> = FastMap::default();
        by_name.reserve(functions.len());
        for f in functions {
            by_name
                .entry(f.name.as_str())
                .and_modify(|(last, _)| *last = f)
                .or_insert((f, f.span.start));
        }
        Functions { by_name }
    }
}

impl<'a> Scope<'a> {
    /// The function `name` if a declaration of it comes before the instruction being checked.
    pub fn function(&self, name: &str) -> Option<&'a Function> {
        self.functions
            .by_name
            .get(name)
            .filter(|&&(_, first)| first < self.at.get())
            .map(|&(f, _)| f)
    }

    pub fn knows_function(&self, name: &str) -> bool {
        self.function(name).is_some()
    }
}

/// The function's own variables (parameters, locals) over the module's globals, which are built
/// once per module: one function's scope costs its own size, not the module's.
pub struct VarScope<'a> {
    pub globals: &'a Variables<'a>,
    pub locals: Variables<'a>,
}

impl VarScope<'_> {
    /// The state space of the variable `name`, a member of a range (`%r3` of `%r<4>`) too.
    pub fn get(&self, name: &str) -> Option<&StateSpace> {
        self.locals.get(name).or_else(|| self.globals.get(name))
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The declaration of the variable `name` (of its range, for a member of one).
    pub fn decl(&self, name: &str) -> Option<&VarDecl> {
        self.locals.decl(name).or_else(|| self.globals.decl(name))
    }

    /// Whether a variable's name starts with `%`, as a register's does.
    fn has_percent_names(&self) -> bool {
        self.locals.percent_names || self.globals.percent_names
    }
}

/// Variables of one scope by name, and ranges (`%r<4>`, named `%r<`) by prefix (`%r`): ptxas
/// declares a range's members `%r0 .. %r3` as variables of their own (`%r01` names `%r1`).
#[derive(Default)]
pub struct Variables<'a> {
    /// The first [`FEW_VARIABLES`] names (a function has few of its own), looked through
    /// from the latest: no hashing to fill or to look up. Past them, all are in `by_name`.
    few: Vec<(&'a str, &'a VarDecl)>,
    by_name: FastMap<&'a str, &'a VarDecl>,
    /// Each range's declaration by prefix; its length is the declaration's `range`.
    ranges: FastMap<&'a str, &'a VarDecl>,
    /// Whether a name starts with `%`: an operand naming it reads as a register.
    percent_names: bool,
}

impl<'a> Variables<'a> {
    pub fn clear(&mut self) {
        self.few.clear();
        self.by_name.clear();
        self.ranges.clear();
        self.percent_names = false;
    }

    pub fn extend(&mut self, vars: impl Iterator<Item = &'a VarDecl>) {
        for v in vars {
            self.add(v.name.as_str(), v);
            self.percent_names |= v.name.starts_with('%');
            if let (Some(_), Some(prefix)) = (v.range, v.name.strip_suffix('<')) {
                self.ranges.insert(prefix, v);
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<&StateSpace> {
        self.decl(name).map(|v| &v.space)
    }

    /// Adds `v` by `name` (a later declaration of a name wins).
    fn add(&mut self, name: &'a str, v: &'a VarDecl) {
        if !self.by_name.is_empty() {
            self.by_name.insert(name, v);
        } else if self.few.len() < FEW_VARIABLES {
            self.few.push((name, v));
        } else {
            self.by_name.extend(self.few.drain(..));
            self.by_name.insert(name, v);
        }
    }

    /// The variable declared by `name` itself.
    #[inline]
    fn exact(&self, name: &str) -> Option<&'a VarDecl> {
        if !self.by_name.is_empty() {
            return self.by_name.get(name).copied();
        }
        let same = |&&(n, _): &&(&str, &VarDecl)| n.len() == name.len() && n == name;
        self.few.iter().rev().find(same).map(|&(_, v)| v)
    }

    /// The declaration of the variable `name` (of its range, for a member of one).
    pub fn decl(&self, name: &str) -> Option<&'a VarDecl> {
        let exact = self.exact(name);
        if exact.is_some() || self.ranges.is_empty() {
            return exact;
        }
        let (prefix, number) = crate::checks::declarations::range_member(name)?;
        self.ranges
            .get(prefix)
            .copied()
            .filter(|v| v.range.is_some_and(|n| number < n))
    }
}

/// Up to how many variables [`Variables`] looks through without hashing.
const FEW_VARIABLES: usize = 8;

/// Messages found for one instruction: `first` come out as the instruction is read (ptxas's
/// parse-time checks); `unknown` names the symbols that no declaration in sight names, which ptxas
/// reports after the function (as unknown, or as forward references: see `checks::order`).
#[derive(Default)]
pub struct Findings {
    pub first: Vec<(u32, String)>,
    pub unknown: Vec<(u32, String)>,
    /// Whether an instruction checked names a symbol plus an offset (`g+4`).
    pub offset_symbols: bool,
    /// Whether the instruction being checked has vector operands that reading may have something
    /// to say about (see [`check_instruction`]).
    pub vector_notes_due: bool,
    /// The instruction's info on a potential out-of-bound access, placed among its messages
    /// by [`check_instruction`] ([`crate::checks::bounds`]).
    pub bound_info: Option<String>,
}

impl Findings {
    pub(crate) fn now(&mut self, line: u32, msg: String) {
        self.first.push((line, msg));
    }

    /// Puts `messages` about `i` among its messages from `start` on: after the leading ones that
    /// ptxas says before them (`said_before`), before the rest.
    pub(crate) fn insert_after(
        &mut self,
        i: &Instruction,
        start: usize,
        said_before: impl Fn(&str) -> bool,
        messages: impl IntoIterator<Item = String>,
    ) {
        let at = start
            + self.first[start..]
                .iter()
                .take_while(|(l, m)| *l == i.line && said_before(m))
                .count();
        self.first
            .splice(at..at, messages.into_iter().map(|m| (i.line, m)));
    }
}

/// Whether `i` has a vector width (`.v2`, `.v4`, `.v8`).
pub(crate) fn has_vector_width(i: &Instruction) -> bool {
    i.mods()
        .iter()
        .any(|m| matches!(m.as_str(), "v2" | "v4" | "v8"))
}

/// The name ptxas gives the instruction in its operand messages (`mul.lo`, `mad.wide`, `cvta.to`).
pub(crate) fn display_name(i: &Instruction) -> String {
    if let Some(half) = half_modifier(i) {
        format!("{}.{half}", i.opcode())
    } else if i.opcode() == "cvta" && i.has_mod("to") {
        "cvta.to".into()
    } else if let Some(spec) = isa::spec_for(i.opcode(), i.mods()).filter(|_| i.opcode() == "bar") {
        spec.opcode.into()
    } else {
        i.opcode().to_string()
    }
}

/// The half a `mul`/`mad`-like instruction takes: its first `.lo`/`.hi`/`.wide` (ptxas reads a
/// later `.lo`/`.hi` as a comparison, a later `.wide` as unknown).
pub(crate) fn half_modifier(i: &Instruction) -> Option<&str> {
    if !matches!(i.opcode(), "mul" | "mad" | "mul24" | "mad24" | "madc") {
        return None;
    }
    i.mods()
        .iter()
        .map(Name::as_str)
        .find(|m| matches!(*m, "lo" | "hi" | "wide"))
}

/// Where an instruction's checks go after its opcode.
#[derive(Copy, Clone)]
enum Route {
    /// Not a PTX opcode.
    Unknown,
    /// A family checked against its forms (`checks/forms.rs`).
    Form,
    Call,
    /// Checked against its `isa` row, when it has one.
    Checked(Option<&'static OpSpec>),
}

/// What the modifier-only checks make of one opcode with its modifiers in a module: they read
/// nothing but the opcode, the modifiers, `.target` and `.version`, so they run once per distinct
/// combination ([`Plans`]) and each instruction pays only for its operands. Valid code is quiet
/// (the modifier-only checks have nothing to say) and skips them; otherwise they run again in
/// place, among the operand checks, so the messages keep ptxas's order.
#[derive(Copy, Clone)]
pub struct Plan {
    /// Numbers the plans of a module, for [`OperandKey`].
    id: u32,
    route: Route,
    /// The modifier-only checks report nothing.
    quiet: bool,
    /// Valid operands leave nothing to say ([`Plan::is_plain`]).
    plain: bool,
    /// The instruction type and the type of the sources (`cvt`'s second type).
    ty: Option<Type>,
    src_ty: Option<Type>,
    /// `ld`/`st`/`ldu`: the index of the data operand, and the `.vN` width.
    data: Option<usize>,
    width: u32,
    /// The space an access names, compared with the space of the variable it addresses.
    space: Option<StateSpace>,
    /// A memory access that names no space (generic addressing).
    generic_access: bool,
    /// `ld`/`st`: the type [`crate::checks::bounds::out_of_bound_access`] compares with the
    /// variable's.
    bound_ty: Option<Type>,
    /// `atom`/`red` with an operation: how many operands it takes.
    atom_operands: Option<usize>,
    bar_red: bool,
    /// `ldmatrix`/`stmatrix`: registers in the fragment vector and its operand index.
    fragments: Option<(usize, usize)>,
    /// `bar`/`barrier`: the operand holding the barrier number.
    barrier_at: Option<usize>,
    /// Operand types are not checked (`.pack`, untabled types, vector `atom`/`red`).
    skip_operand_types: bool,
    /// `shfl.sync`/`vote.sync`: the member mask is not optional.
    mask_required: bool,
    wide: bool,
    /// `mov` takes vectors; `mov`/`cvta`/`getctarank` take a variable's or function's address.
    is_mov: bool,
    takes_address: bool,
    /// `.f32x2`: every operand a `.b64` register.
    packed_f32: bool,
    /// `.s16x2`/`.u16x2`: every operand a `.b32` register.
    packed_i16: bool,
    /// `min`/`max.f32` where a third input draws messages (before sm_100 or PTX ISA 8.8, or with
    /// `.xorsign`).
    three_inputs: bool,
    /// `atom`/`red` with `.v2`/`.v4`/`.v8`: every value operand a vector of that size.
    vector_atom: bool,
    /// `cvt` to or from two packed narrow floats (`.e2m1x2`, `.e4m3x2`, ...): the register type
    /// the destination and the source must have exactly.
    narrow_registers: [Option<Type>; 2],
}

impl Plan {
    fn new(i: &Instruction, s: &Scope) -> Plan {
        let op = i.opcode();
        // `madc` is known by its `.lo` and `.hi` forms only (`.wide` is an unknown modifier there).
        let half_missing = op == "madc" && !["lo", "hi", "wide"].iter().any(|m| i.has_mod(m));
        let route = if !crate::checks::validate::is_known_opcode(op) || half_missing {
            Route::Unknown
        } else if crate::checks::forms::is_checked_by_form(i) {
            Route::Form
        } else if op == "call" {
            Route::Call
        } else {
            Route::Checked(isa::spec_for(op, i.mods()))
        };
        let types = i.types();
        // Two packed `.f32` (`add.f32x2`, sm_100) take 64-bit registers.
        let packed_f32 = i.has_mod("f32x2");
        let packed_i16 = is_packed_i16(i);
        let ty = if packed_f32 {
            Some(Type::B64)
        } else if packed_i16 {
            Some(Type::B32)
        } else {
            types.first().copied()
        };
        let data = is_memory_access(i).then(|| data_index(i));
        let has_op =
            matches!(op, "atom" | "red") && isa::ATOM_OPERATIONS.iter().any(|(o, _)| i.has_mod(o));
        let vector_atom = matches!(op, "atom" | "red") && has_vector_width(i);
        // ldmatrix's format conversions (`.b8x16.b6x16_p32`) leave its fragment's registers checked.
        let fragments = matrix_fragments(i);
        let plan = Plan {
            id: 0,
            route,
            plain: false,
            quiet: modifier_findings(i, route, &types, s).first.is_empty(),
            ty,
            src_ty: if op == "cvt" {
                types.get(1).copied()
            } else {
                ty
            },
            data,
            width: vector_width(i, &mut Findings::default()).unwrap_or(1),
            space: access_space(i)
                .filter(|&space| !(writes_memory(i) && space == StateSpace::Const)),
            generic_access: is_access(i) && access_space(i).is_none(),
            bound_ty: matches!(op, "ld" | "st").then(|| i.ty()).flatten(),
            atom_operands: has_op.then(|| atom_operand_count(i)),
            bar_red: op == "bar" && i.has_mod("red"),
            fragments,
            barrier_at: barrier_operand(i),
            skip_operand_types: i.has_mod("pack")
                || (has_untabled_type(i) && !packed_f32 && !packed_i16 && fragments.is_none())
                || vector_atom,
            vector_atom,
            narrow_registers: if op == "cvt" {
                narrow_registers(i)
            } else {
                [None; 2]
            },
            mask_required: i.has_mod("sync") && matches!(op, "shfl" | "vote"),
            wide: half_modifier(i).map_or(i.has_mod("wide"), |half| half == "wide"),
            is_mov: op == "mov",
            takes_address: matches!(op, "mov" | "getctarank") || (op == "cvta" && !i.has_mod("to")),
            packed_f32,
            packed_i16,
            three_inputs: matches!(op, "min" | "max")
                && ty == Some(Type::F32)
                && (s.target_sm < 100 || s.version < (8, 8) || i.has_mod("xorsign")),
        };
        Plan {
            plain: plan.is_plain(),
            ..plan
        }
    }

    /// Whether the plan is quiet, has an `isa` row, and leaves nothing to check but the operands'
    /// verdict and a barrier number (see [`fits_quietly`]).
    fn is_plain(&self) -> bool {
        self.quiet
            && matches!(self.route, Route::Checked(Some(_)))
            && self.width == 1
            && self.atom_operands.is_none()
            && !self.bar_red
            && !self.vector_atom
            && self.fragments.is_none()
            && self.narrow_registers == [None; 2]
    }
}

/// Every message of the modifier-only checks (those [`check_instruction`] skips for a quiet plan).
fn modifier_findings(i: &Instruction, route: Route, types: &[Type], s: &Scope) -> Findings {
    let mut said = Findings::default();
    let out = &mut said;
    if matches!(route, Route::Unknown) {
        return said;
    }
    modifier_requirements(i, s, out);
    if i.has_mod("f32x2") {
        check_packed_f32(i, out);
    }
    if is_packed_i16(i) {
        check_packed_i16(i, s, out);
    }
    check_tensormap_prefetch(i, out);
    check_ue8m0_rounding(i, out);
    let Route::Checked(spec) = route else {
        return said;
    };
    check_signedness(i, out);
    check_space_writable(i, out);
    check_atom_types(i, s, out);
    check_membar_level(i, out);
    check_matrix_modifiers(i, out);
    check_sync_form(i, s, out);
    if let Some(spec) = spec {
        check_types(i, types, spec, out);
        if is_memory_access(i) || i.opcode() == "mov" {
            vector_width(i, out);
        }
        check_rounding(i, types, out);
        check_qualifiers(i, types, s, out);
        check_misplaced_modifiers(i, types, out);
        check_cvta_after_operands(i, out);
    }
    said
}

/// What ptxas says of a `cvta` once its operands fit: a state space missing (`cvta.to.u64`), a
/// signed type (read as a type, refused here).
fn check_cvta_after_operands(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "cvta" {
        return;
    }
    if !i.mods().iter().any(|m| isa::SPACES.contains(&m.as_str())) {
        let name = display_name(i);
        out.now(
            i.line,
            format!("State space modifier required for instruction '{name}'"),
        );
        out.now(
            i.line,
            format!("State space incorrect for instruction '{name}'"),
        );
    }
    if i.ty().is_some_and(|t| matches!(t, Type::S32 | Type::S64)) {
        out.now(
            i.line,
            format!(
                "Instruction '{}' requires .u32 or .u64 type",
                display_name(i)
            ),
        );
    }
}

/// Modifiers the opcode does not take (see [`crate::checks::mods`]).
fn check_misplaced_modifiers(i: &Instruction, types: &[Type], out: &mut Findings) {
    for message in crate::checks::mods::misplaced_modifiers(i, types.first().copied()) {
        out.now(i.line, message);
    }
    if let Some(message) = crate::checks::mods::sat_that_cannot_clamp(i, types) {
        out.now(i.line, message);
    }
}

/// The plans of one module's instructions, by opcode and modifiers (`.target` and `.version` are
/// the module's), and the verdicts on their operands.
#[derive(Default)]
pub struct Plans {
    table: PlanTable,
    verdicts: Verdicts,
}

/// The plans of one module, by form.
#[derive(Default)]
struct PlanTable {
    /// Every plan, by its id.
    plans: Vec<Plan>,
    /// Plan ids by form (instructions written alike share one); each entry keeps its form alive,
    /// so its address stays its own.
    by_form: FastMap<usize, (Arc<Form>, u32)>,
    /// By the form's contents, for forms made apart (in another section) that are the same.
    by_key: FastMap<u64, Vec<(Arc<Form>, u32)>>,
    /// The latest forms looked up, `(address, plan id)` in slots picked by a hash of the address
    /// (a module has few forms): looked at before `by_form`, whose entries keep the addresses
    /// taken.
    recent: Vec<(usize, u32)>,
}

/// Slots of [`PlanTable::recent`] (a power of two).
const RECENT_FORMS: usize = 1024;

/// Whether operands fit, by plan, operand summary and vector width, for operands whose forms drew
/// no message.
#[derive(Default)]
struct Verdicts {
    all: FastMap<OperandKey, bool>,
    /// The latest verdicts, in slots picked by a hash of their key (most instructions repeat a
    /// recent one): looked at before `all`.
    recent: Vec<(OperandKey, bool)>,
}

/// Slots of [`Verdicts::recent`] (a power of two).
const RECENT_VERDICTS: usize = 256;

impl Verdicts {
    /// Whether operands with this key fit, when known.
    #[inline]
    fn get(&mut self, key: &OperandKey) -> Option<bool> {
        let slot = key.slot();
        if let Some(&(_, fits)) = self.recent.get(slot).filter(|(k, _)| k == key) {
            return Some(fits);
        }
        self.get_older(key, slot)
    }

    /// [`Verdicts::get`] past the recent ones.
    #[inline(never)]
    fn get_older(&mut self, key: &OperandKey, slot: usize) -> Option<bool> {
        let fits = *self.all.get(key)?;
        self.remember(slot, *key, fits);
        Some(fits)
    }

    fn add(&mut self, key: OperandKey, fits: bool) {
        self.all.insert(key, fits);
        self.remember(key.slot(), key, fits);
    }

    fn remember(&mut self, slot: usize, key: OperandKey, fits: bool) {
        if self.recent.is_empty() {
            self.recent = vec![(key, fits); RECENT_VERDICTS];
        }
        self.recent[slot] = (key, fits);
    }
}

impl PlanTable {
    /// The plan of `i`'s form.
    #[inline]
    fn plan(&mut self, i: &Instruction, s: &Scope) -> &Plan {
        let address = Arc::as_ptr(&i.form) as usize;
        let slot = (address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            >> (64 - RECENT_FORMS.trailing_zeros());
        let slot = slot as usize % RECENT_FORMS;
        let id = match self.recent.get(slot) {
            Some(&(at, id)) if at == address => id,
            _ => self.plan_id(i, s, address, slot),
        };
        &self.plans[id as usize]
    }

    /// [`PlanTable::plan`]'s id past the recent forms.
    #[inline(never)]
    fn plan_id(&mut self, i: &Instruction, s: &Scope, address: usize, slot: usize) -> u32 {
        let id = match self.by_form.get(&address) {
            Some(&(_, id)) => id,
            None => {
                let id = self.plan_by_contents(i, s);
                self.by_form.insert(address, (i.form.clone(), id));
                id
            }
        };
        if self.recent.is_empty() {
            self.recent = vec![(0, 0); RECENT_FORMS];
        }
        self.recent[slot] = (address, id);
        id
    }

    fn plan_by_contents(&mut self, i: &Instruction, s: &Scope) -> u32 {
        let bucket = self.by_key.entry(fingerprint(i)).or_default();
        if let Some(&(_, id)) = bucket.iter().find(|(form, _)| **form == *i.form) {
            return id;
        }
        let id = self.plans.len() as u32;
        self.plans.push(Plan {
            id,
            ..Plan::new(i, s)
        });
        bucket.push((i.form.clone(), id));
        id
    }
}

/// A cheap fingerprint of an opcode and its modifiers, from the length and three bytes of each
/// name: the same combination always gets the same one; the few different combinations that
/// share one are told apart by their names.
fn fingerprint(i: &Instruction) -> u64 {
    let sketch = |name: &str| match name.as_bytes() {
        [] => 0,
        b => {
            b.len() as u64
                | u64::from(b[0]) << 8
                | u64::from(b[b.len() / 2]) << 16
                | u64::from(b[b.len() - 1]) << 24
        }
    };
    i.mods()
        .iter()
        .fold(sketch(i.opcode()), |h, m| h.rotate_left(29) ^ sketch(m))
}

/// Which kinds of operand an instruction's operands proper (not its guard, nor inside vectors)
/// are: the checks that look for one kind skip the walk when there is none.
#[derive(Clone, Copy)]
struct OperandKinds {
    symbols: bool,
    /// A symbol plus an offset (`g+4`, read as one symbol named so).
    offset_symbols: bool,
    /// An address that is a number (`[16]`).
    immediate_addresses: bool,
    special_registers: bool,
    symbol_addresses: bool,
    vectors: bool,
}

impl OperandKinds {
    /// No operands.
    const NONE: OperandKinds = OperandKinds {
        symbols: false,
        offset_symbols: false,
        immediate_addresses: false,
        special_registers: false,
        symbol_addresses: false,
        vectors: false,
    };

    fn of(i: &Instruction) -> OperandKinds {
        let mut kinds = OperandKinds::NONE;
        i.operands.iter().for_each(|o| kinds.note(o));
        kinds
    }

    /// Notes the kind of operand `o`.
    #[inline]
    fn note(&mut self, o: &Operand) {
        match o {
            Operand::Symbol(n) => {
                self.symbols = true;
                self.offset_symbols |= n.contains('+');
            }
            Operand::SpecialReg { .. } => self.special_registers = true,
            Operand::Addr {
                base: AddrBase::Symbol(_),
                ..
            } => self.symbol_addresses = true,
            Operand::Addr {
                base: AddrBase::None,
                ..
            } => self.immediate_addresses = true,
            Operand::Vector(_) => self.vectors = true,
            _ => {}
        }
    }
}

/// Checks one instruction; its messages go to `out` in ptxas's order. The commonest valid
/// instruction is known at once ([`fits_at_once`], inlined here; the whole check is out of line).
#[inline]
pub fn check_instruction(i: &Instruction, s: &Scope, plans: &mut Plans, out: &mut Findings) {
    if !fits_at_once(i, s, plans) {
        check_whole_instruction(i, s, plans, out);
    }
}

/// [`check_instruction`] the whole way.
#[inline(never)]
fn check_whole_instruction(i: &Instruction, s: &Scope, plans: &mut Plans, out: &mut Findings) {
    let start = out.first.len();
    out.vector_notes_due = false;
    check_read_instruction(i, s, plans, out);
    if let Some(info) = out.bound_info.take() {
        crate::checks::bounds::place_info(i, start, info, out);
    }
    if out.vector_notes_due {
        place_vector_notes(i, s, start, out);
    }
}

/// Whether `i` is a valid instruction of the commonest kind, known with the least work: a plain
/// plan ([`Plan::is_plain`]), a declared predicate as guard, operands that are declared registers
/// (also as an address's base), numbers and labels (others as [`quiet_operand_code`] takes
/// them), and a verdict that operands coded so fit (with a barrier number in range). It reads
/// what [`fits_quietly`] reads, coding the operands as [`OperandSummary::of`] does; anything else
/// (false) goes the whole way.
#[inline]
fn fits_at_once(i: &Instruction, s: &Scope, plans: &mut Plans) -> bool {
    s.at.set(i.span.start);
    let p = plans.table.plan(i, s);
    if !p.plain {
        return false;
    }
    if let Some((_, guard)) = i.guard() {
        if s.regs.lookup_name(guard) != Some(Type::Pred) {
            return false;
        }
    }
    let operands = &i.operands[..];
    if operands.len() > 16 {
        return false;
    }
    let mut codes = [0u8; 16];
    let mut addressed = None;
    for (at, o) in codes.iter_mut().zip(operands) {
        // Registers first: most operands are.
        if let Operand::Reg(r) = o {
            match s.regs.lookup_name(r) {
                Some(t) => *at = Summing::REG | (t as u8 + 1),
                None => return false,
            }
            continue;
        }
        *at = match o {
            Operand::Imm(_) => Summing::VALUE,
            Operand::Addr {
                base: AddrBase::Reg(r),
                ..
            } if s.regs.lookup_name(r).is_some() => Summing::ADDR | 1,
            Operand::Symbol(n) if !p.takes_address && s.labels.contains_name(n) => Summing::SYMBOL,
            _ => match quiet_operand_code(o, p, s, &mut addressed) {
                Some(code) => code,
                None => return false,
            },
        };
    }
    let key = OperandKey::new(p.id, operands.len() as u8, 1, u128::from_le_bytes(codes));
    let barrier_fits = || {
        p.barrier_at.is_none_or(
            |at| !matches!(operands.get(at), Some(Operand::Imm(n)) if !(0..16).contains(n)),
        )
    };
    // A third input to `min`/`max.f32` may draw messages (`Plan::three_inputs`).
    let two_inputs = !p.three_inputs || operands.len() < 4;
    two_inputs && plans.verdicts.get(&key) == Some(true) && barrier_fits()
}

/// For [`fits_at_once`], the code of an operand of another kind than it codes itself, when the
/// operand says nothing of its own in valid code: a negated predicate, a float, a known symbol
/// without an offset, a special register without a `.target`/`.version` requirement unmet, or
/// the first address of a variable, in the access's space and as wide as the access (ptxas's
/// bound info aside: [`crate::checks::bounds`]); `addressed` is that variable. Coded by
/// [`Summing::top_operand`], as the whole check codes it.
#[inline(never)]
fn quiet_operand_code<'s>(
    o: &Operand,
    p: &Plan,
    s: &'s Scope,
    addressed: &mut Option<&'s VarDecl>,
) -> Option<u8> {
    match o {
        Operand::NotReg(_) | Operand::F32(_) | Operand::F64(_) | Operand::Symbol(_) => {}
        Operand::SpecialReg { name, .. } if special_register_available(name, s) => {}
        Operand::Addr {
            base: AddrBase::Symbol(_),
            ..
        } if addressed.is_none() => {}
        _ => return None,
    }
    let mut sum = Summing::new(s, p.takes_address);
    sum.top_operand(o);
    if sum.unknown || sum.kinds.offset_symbols || sum.len != 1 {
        return None;
    }
    if sum.kinds.symbol_addresses {
        let var = sum.addressed?;
        if !space_fits(&var.space, p.space, p.generic_access) || may_be_out_of_bound(var, p) {
            return None;
        }
        *addressed = Some(var);
    }
    Some(sum.codes[0])
}

/// Whether the special register `name` needs no more than the module's `.target` and
/// `.version` ([`special_register_requirements`] has nothing to say).
fn special_register_available(name: &Name, s: &Scope) -> bool {
    isa::SPECIAL_REQUIREMENTS
        .iter()
        .find(|(n, ..)| n == name)
        .is_none_or(|&(_, sm, ptx)| s.version >= ptx && s.target_sm >= sm)
}

/// Whether an access of plan `p` to the scalar variable `var` may draw ptxas's bound info
/// ([`crate::checks::bounds::out_of_bound_access`] decides).
fn may_be_out_of_bound(var: &VarDecl, p: &Plan) -> bool {
    p.bound_ty
        .is_some_and(|ty| !var.is_array && var.vector == 1 && ty.size_bytes() > var.ty.size_bytes())
}

/// What reading the instruction's vector expressions says ([`crate::checks::vectors::expression_notes`]),
/// among its messages from `start` on: after those about its guard and its modifiers, which
/// ptxas reads first.
fn place_vector_notes(i: &Instruction, s: &Scope, start: usize, out: &mut Findings) {
    let notes = crate::checks::vectors::expression_notes(i, s);
    if notes.is_empty() {
        return;
    }
    let read_before =
        |m: &str| m == "Predicate expression expected" || m.starts_with("Unknown modifier '");
    out.insert_after(i, start, read_before, notes);
}

/// [`check_instruction`] but for what reading its vector expressions says, which is due when
/// it sets [`Findings::vector_notes_due`].
fn check_read_instruction(i: &Instruction, s: &Scope, plans: &mut Plans, out: &mut Findings) {
    s.at.set(i.span.start);
    if let Some(read_as_symbols) = variables_as_symbols(i, s) {
        return check_read_instruction(&read_as_symbols, s, plans, out);
    }
    let p = plans.table.plan(i, s);
    // Only instructions checked against their `isa` row read the operands' summary.
    let operands = match p.route {
        Route::Checked(_) => OperandSummary::of(i, p, s),
        _ => OperandSummary::kinds_of(i),
    };
    let kinds = operands.kinds;
    out.offset_symbols |= kinds.offset_symbols;
    // A register plus an offset is a symbol with an offset.
    if let Some(read_as_registers) = kinds
        .offset_symbols
        .then(|| registers_plus_offset_as_registers(i, s))
        .flatten()
    {
        return check_read_instruction(&read_as_registers, s, plans, out);
    }
    // ptxas checks the guard before the opcode (`@ bra L;` takes `bra` as the guard).
    let guard = i.guard().map(|(_, p)| s.regs.lookup_name(p));
    if guard.is_some_and(|t| t != Some(Type::Pred)) {
        out.now(i.line, "Predicate expression expected".into());
    }
    if p.plain && fits_quietly(i, p, &operands, guard, &mut plans.verdicts) {
        return;
    }
    let loud = !p.quiet;
    if matches!(p.route, Route::Unknown) {
        out.now(
            i.line,
            format!("Not a name of any known instruction: '{}'", i.opcode()),
        );
        out.vector_notes_due = kinds.vectors;
        unknown_symbols(i, s, out);
        return;
    }
    if loud {
        modifier_requirements(i, s, out);
        if i.has_mod("f32x2") {
            check_packed_f32(i, out);
        }
        if is_packed_i16(i) {
            check_packed_i16(i, s, out);
        }
        check_tensormap_prefetch(i, out);
        check_ue8m0_rounding(i, out);
    }
    if kinds.special_registers {
        special_register_requirements(i, s, out);
    }
    let spec = match p.route {
        Route::Form => {
            out.vector_notes_due = kinds.vectors;
            crate::checks::forms::check_form(i, s, out);
            unknown_symbols(i, s, out);
            return;
        }
        Route::Call => {
            check_call(i, s, out);
            return;
        }
        Route::Checked(spec) => spec,
        Route::Unknown => unreachable!(),
    };
    // Unknown symbols are the one kind of message after the function, made on every way out.
    // Vectors whose elements are all registers of one declared type have nothing to say.
    out.vector_notes_due = operands.mixed_vectors;
    let vector_rules = operands.mixed_vectors;
    let undeclared_register = (operands.unknown || guard == Some(None))
        && unknown_symbols(i, s, out)
        && (!vector_rules || undeclared_outside(i, &TypedVectors::of(i, p, s), s));
    let mut mismatch = false;
    if loud && !check_signedness(i, out) {
        return;
    }
    if loud {
        check_space_writable(i, out);
    }
    let addressed = match kinds.symbol_addresses {
        true => check_space(i, operands.addressed, p.space, p.generic_access, out),
        false => None,
    };
    if loud {
        check_atom_types(i, s, out);
    }
    mismatch |= p.atom_operands.is_some_and(|n| i.operands.len() != n);
    mismatch |= p.bar_red && !bar_red_operands_fit(i, s);
    if p.vector_atom && !mismatch && !check_vector_atom_operands(i, p.width, out) {
        return;
    }
    mismatch |= p.vector_atom && !vector_atom_registers_fit(i, s);
    mismatch |= p.narrow_registers != [None; 2] && !narrow_registers_fit(i, p, s);
    if loud {
        check_membar_level(i, out);
    }
    if loud && !check_matrix_modifiers(i, out)
        || p.fragments
            .is_some_and(|f| !check_matrix_fragments(i, f, out))
    {
        return;
    }
    if let Some(at) = p.barrier_at {
        check_barrier_number(i, at, out);
    }
    if loud {
        check_sync_form(i, s, out);
    }
    if let Some(spec) = spec {
        if loud && !check_types(i, &i.types(), spec, out) {
            report_mismatch(i, mismatch || undeclared_register, out);
            return;
        }
        if let Some(var) = addressed {
            out.bound_info = crate::checks::bounds::out_of_bound_access(i, var, s);
        }
        let width = match p.data {
            Some(at) if loud => check_memory_vector(i, at, vector_width(i, out), out),
            Some(at) => check_memory_vector(i, at, Some(p.width), out),
            None if p.is_mov && p.width > 1 => {
                match result_register_findings(i, i.operands.first(), out) {
                    Some(false) => {
                        out.now(i.line, "Result vector expected".into());
                        out.now(
                            i.line,
                            "Argument vector size mismatch for instruction 'mov'".into(),
                        );
                        return;
                    }
                    Some(true) => return,
                    None if loud => vector_width(i, out).map(|_| 1),
                    None => Some(1),
                }
            }
            None if loud && p.is_mov => vector_width(i, out).map(|_| 1),
            None => Some(1),
        };
        let Some(width) = width else { return };
        let key = operands.key.map(|k| k.with_width(width));
        let fits = match key.and_then(|k| plans.verdicts.get(&k)) {
            Some(fits) => fits,
            None => {
                if !check_operand_forms(i, spec, p, s, out) {
                    return;
                }
                let fits = check_operands(i, p, spec, width, s);
                if let Some(k) = key {
                    plans.verdicts.add(k, fits);
                }
                fits
            }
        };
        mismatch |= !fits;
        if !fits {
            check_bra_mask(i, s, out);
        }
        if p.three_inputs && !mismatch && i.operands.len() == 4 {
            check_three_inputs(i, s, out);
        }
        if p.is_mov && p.width > 1 && !mismatch && !undeclared_register {
            let said = crate::checks::vectors::mov_width_findings(i, p.width, p.ty);
            said.into_iter().for_each(|m| out.now(i.line, m));
        }
        if vector_rules && !mismatch && !undeclared_register {
            let typed = TypedVectors::of(i, p, s);
            let said = crate::checks::vectors::element_findings(i, typed.at(), typed.sources(i), s);
            said.into_iter().for_each(|m| out.now(i.line, m));
        }
        if loud {
            let types = i.types();
            check_rounding(i, &types, out);
            check_qualifiers(i, &types, s, out);
            // ptxas names misplaced modifiers only when the operands fit.
            if !mismatch && !undeclared_register {
                check_misplaced_modifiers(i, &types, out);
                check_cvta_after_operands(i, out);
            }
        }
    }
    if kinds.immediate_addresses
        && !mismatch
        && !undeclared_register
        && is_access(i)
        && access_space(i) != Some(StateSpace::Local)
    {
        out.now(
            i.line,
            "Immediate addresses allowed only for .local state space".into(),
        );
    }
    report_mismatch(i, mismatch || undeclared_register, out);
}

/// Whether an instruction of a plain plan ([`Plan::is_plain`]) has nothing more to say than its
/// guard did: its operands are of no kind that draws a message of its own (undeclared names,
/// special registers, addresses of variables or numbers, vectors as data), a verdict says they
/// fit, and a barrier number is in range. Valid code nearly always does, and skips the checks.
#[inline]
fn fits_quietly(
    i: &Instruction,
    p: &Plan,
    operands: &OperandSummary,
    guard: Option<Option<Type>>,
    verdicts: &mut Verdicts,
) -> bool {
    let kinds = operands.kinds;
    let quiet_kinds = !kinds.special_registers
        && !kinds.symbol_addresses
        && !kinds.immediate_addresses
        && !(kinds.vectors && p.data.is_some());
    let declared = !operands.unknown && guard != Some(None) && !operands.mixed_vectors;
    let barrier_fits = || {
        p.barrier_at.is_none_or(
            |at| !matches!(i.operands.get(at), Some(Operand::Imm(n)) if !(0..16).contains(n)),
        )
    };
    let fits = |key: OperandKey| verdicts.get(&key.with_width(1)) == Some(true);
    // A third input to `min`/`max.f32` may draw messages (`Plan::three_inputs`).
    let two_inputs = !p.three_inputs || i.operands.len() < 4;
    quiet_kinds && declared && two_inputs && operands.key.is_some_and(fits) && barrier_fits()
}

/// The operands of an `ld`/`st`/`ldu` (its data) or a `mov` that are vectors of registers, which
/// ptxas types by [`crate::checks::vectors`]'s rules (at most two, by index).
#[derive(Default)]
struct TypedVectors {
    at: [usize; 2],
    count: usize,
}

impl TypedVectors {
    fn of(i: &Instruction, p: &Plan, s: &Scope) -> TypedVectors {
        let mut typed = TypedVectors::default();
        let candidates = match (p.data, p.is_mov) {
            (Some(k), _) => k..k + 1,
            (None, true) => 0..2,
            (None, false) => 0..0,
        };
        let stored = i.opcode() == "st";
        let decided = |v: &[Operand]| match p.data {
            Some(_) => crate::checks::vectors::is_data_vector(v, stored, s),
            None => crate::checks::vectors::is_register_vector(v, s),
        };
        for k in candidates {
            if matches!(i.operands.get(k), Some(Operand::Vector(v)) if decided(v))
                && typed.count < 2
            {
                typed.at[typed.count] = k;
                typed.count += 1;
            }
        }
        typed
    }

    fn at(&self) -> &[usize] {
        &self.at[..self.count]
    }

    /// Those read: all but a destination (the first operand of `ld`, `ldu` and `mov`).
    fn sources(&self, i: &Instruction) -> &[usize] {
        let skip = usize::from(self.at().first() == Some(&0) && i.opcode() != "st");
        &self.at()[skip..]
    }
}

/// Whether an undeclared register stands outside `typed` vectors, whose undeclared elements are
/// no operand mismatch.
fn undeclared_outside(i: &Instruction, typed: &TypedVectors, s: &Scope) -> bool {
    let mut unknown = Vec::new();
    for (_, o) in i
        .operands
        .iter()
        .enumerate()
        .filter(|(k, _)| !typed.at().contains(k))
    {
        collect_unknown(o, s, &mut unknown);
    }
    unknown.iter().any(|u| u.starts_with('%'))
}

/// `i` with its `%`-named variables (`%g`, or `%r3` of a range `%r<4>`), which the parser read as
/// registers, as the symbols they are (`[%g]`, `mov.u64 %rd1, %r3`); `None` when it names none.
fn variables_as_symbols(i: &Instruction, s: &Scope) -> Option<Instruction> {
    if !s.vars.has_percent_names() {
        return None;
    }
    let is_variable = |r: &Name| s.regs.lookup(r).is_none() && s.vars.contains_key(r);
    fn names_variable(o: &Operand, is_variable: &dyn Fn(&Name) -> bool) -> bool {
        match o {
            Operand::Reg(r)
            | Operand::Addr {
                base: AddrBase::Reg(r),
                ..
            } => is_variable(r),
            Operand::Vector(v) => v.iter().any(|e| names_variable(e, is_variable)),
            _ => false,
        }
    }
    fn as_symbol(o: &Operand, is_variable: &dyn Fn(&Name) -> bool) -> Operand {
        match o {
            Operand::Reg(r) if is_variable(r) => Operand::Symbol(r.clone()),
            Operand::Addr {
                base: AddrBase::Reg(r),
                offset,
            } if is_variable(r) => Operand::Addr {
                base: AddrBase::Symbol(r.clone()),
                offset: *offset,
            },
            Operand::Vector(v) => {
                Operand::Vector(v.iter().map(|e| as_symbol(e, is_variable)).collect())
            }
            o => o.clone(),
        }
    }
    if !i.operands.iter().any(|o| names_variable(o, &is_variable)) {
        return None;
    }
    let guard = i.guard().map(|(negated, p)| (negated, p.clone()));
    let operands = Operands::new(
        guard,
        i.operands
            .iter()
            .map(|o| as_symbol(o, &is_variable))
            .collect(),
    );
    Some(Instruction {
        operands,
        ..i.clone()
    })
}

/// `i` with each source that is a register plus an offset (`add.u32 %r1, %r2+4, 1`) as the register
/// alone, which is how ptxas types it; `None` when it has none. The first operand, a result for
/// most instructions, stays as written: a register plus an offset is no result register there.
fn registers_plus_offset_as_registers(i: &Instruction, s: &Scope) -> Option<Instruction> {
    let register_base = |o: &Operand| match o {
        Operand::Symbol(n) if is_register_plus_offset(n, s) => {
            Some(Operand::Reg(Name::from(symbol_base(n))))
        }
        _ => None,
    };
    if !i
        .operands
        .iter()
        .skip(1)
        .any(|o| register_base(o).is_some())
    {
        return None;
    }
    let guard = i.guard().map(|(negated, p)| (negated, p.clone()));
    let operands = i
        .operands
        .iter()
        .enumerate()
        .map(|(k, o)| match register_base(o) {
            Some(r) if k > 0 => r,
            _ => o.clone(),
        });
    Some(Instruction {
        operands: Operands::new(guard, operands.collect()),
        ..i.clone()
    })
}

/// A declared register plus an offset (`%r2+4`).
fn is_register_plus_offset(name: &str, s: &Scope) -> bool {
    let base = symbol_base(name);
    base != name && s.regs.lookup(base).is_some()
}

/// The value operands of a vector `atom`/`red` (all but the address and a cache policy): vectors
/// of `width` elements. False after reporting the first that is not.
fn check_vector_atom_operands(i: &Instruction, width: u32, out: &mut Findings) -> bool {
    let values = i.operands.len() - usize::from(i.has_mod("L2::cache_hint"));
    for (k, o) in i.operands[..values]
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o, Operand::Addr { .. }))
    {
        let message = match o {
            Operand::Vector(v) if v.len() as u32 == width => continue,
            Operand::Vector(v) if !matches!(v.len(), 1 | 2 | 4 | 8) => format!("Illegal vector size: {}", v.len()),
            Operand::Vector(_) => format!("Argument {k} of instruction '{} instruction with vector types': Argument vector size mismatch", i.opcode()),
            _ => format!("Vector expected for argument {k}"),
        };
        out.now(i.line, message);
        return false;
    }
    true
}

/// The registers of a vector `atom`/`red`'s vectors against its element type
/// ([`crate::checks::typing::vector_atom_element_fits`]); undeclared ones are reported as unknown.
fn vector_atom_registers_fit(i: &Instruction, s: &Scope) -> bool {
    let Some(elem) = i.ty() else { return true };
    let registers = i.operands.iter().filter_map(|o| match o {
        Operand::Vector(v) => Some(v.iter()),
        _ => None,
    });
    registers.flatten().all(|e| match e {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_none_or(|t| crate::checks::typing::vector_atom_element_fits(elem, t)),
        _ => true,
    })
}

#[inline]
fn report_mismatch(i: &Instruction, mismatch: bool, out: &mut Findings) {
    if mismatch {
        name_mismatch(i, out);
    }
}

/// "Arguments mismatch" for `i`, before any other message about it.
#[cold]
#[inline(never)]
fn name_mismatch(i: &Instruction, out: &mut Findings) {
    // ptxas names the instruction once, before any other message about it but those on unknown
    // modifiers, which it reads first, and on a `bra`'s mask.
    let read_before = |m: &str| m.starts_with("Unknown modifier '") || m.starts_with(BRA_MASK);
    let at = out
        .first
        .iter()
        .position(|(l, m)| *l == i.line && !read_before(m))
        .unwrap_or(out.first.len());
    let message = format!("Arguments mismatch for instruction '{}'", display_name(i));
    out.first.insert(at, (i.line, message));
}

/// The feature of a `bra` with a mask operand (`bra L1, 0xffffffff`), which ptxas names (PTX ISA 6.3,
/// sm_80) and then refuses all the same.
const BRA_MASK: &str = "Feature 'mask operand on bra instruction'";

/// A `bra` with a mask: its requirements, before the mismatch.
fn check_bra_mask(i: &Instruction, s: &Scope, out: &mut Findings) {
    if i.opcode() == "bra"
        && i.operands.len() == 2
        && match &i.operands[1] {
            Operand::Reg(r) => s.regs.lookup(r).is_some(),
            Operand::Imm(_) => true,
            _ => false,
        }
    {
        require(i.line, BRA_MASK, 80, (6, 3), false, s, out);
    }
}

/// `abs` and `neg` take signed or floating-point types only.
fn check_signedness(i: &Instruction, out: &mut Findings) -> bool {
    let unsigned = matches!(i.ty(), Some(Type::U16 | Type::U32 | Type::U64));
    if matches!(i.opcode(), "abs" | "neg") && unsigned {
        out.now(
            i.line,
            format!(
                "Instruction '{}' applies only to signed numeric types",
                i.opcode()
            ),
        );
        return false;
    }
    true
}

/// Whether an immediate is of the kind of type `ty`: an integer of an integer or bit type, a
/// float of a float type (or of the bit type of its size: `0f` of `.b32`, `0d` of `.b64`); any
/// kind when the type is unknown.
fn immediate_fits(o: &Operand, ty: Option<Type>) -> bool {
    let Some(ty) = ty else { return true };
    match o {
        Operand::Imm(_) => !is_float(ty),
        Operand::F32(_) | Operand::F64(_) => float_literal_fits(o, ty),
        _ => true,
    }
}
