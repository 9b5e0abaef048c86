//! Per-instruction semantic checks with ptxas's messages: known opcode, instruction types, operand
//! kinds and register types (from the `isa` table), vector sizes, rounding modifiers, state spaces,
//! `.target`/`.version` requirements, `call` against the callee's prototype, and symbols.

use std::sync::Arc;

use crate::ast::*;
use crate::checks::typing::{
    float_literal_fits, int_immediate_fits, is_float, is_int, register_fits, widened,
};
use crate::isa::{self, OpSpec, Typing};

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
        let (prefix, number) = crate::checks::module::range_member(name)?;
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
        let ty = if packed_f32 {
            Some(Type::B64)
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
                || (has_untabled_type(i) && !packed_f32 && fragments.is_none())
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

/// The type of a result of operand kind `kind`: `.pred` for a predicate result (`setp`'s),
/// else the instruction's first type.
fn result_type(i: &Instruction, kind: Option<char>) -> Option<Type> {
    match kind {
        Some('P') => Some(Type::Pred),
        _ => i.types().first().copied(),
    }
}

/// Whether `o`, written where a label goes, is something else ptxas names as such: an integer
/// register (a floating or predicate one is a mismatch), or a known name that is no label.
fn stands_for_no_label(o: &Operand, s: &Scope) -> bool {
    match o {
        Operand::Reg(n) => s
            .regs
            .lookup(n)
            .is_some_and(|t| !is_float(t) && t != Type::Pred),
        Operand::Symbol(n) => !s.labels.contains_name(n) && is_known_name(symbol_base(n), s),
        _ => false,
    }
}

/// Whether `o`, written where a result goes, is no register: an immediate that fits the result's
/// type `ty` (one of another kind is a type mismatch first), a vector with a literal element, or a
/// variable or register plus an offset.
fn stands_for_no_register(o: &Operand, ty: Option<Type>, s: &Scope) -> bool {
    match o {
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => immediate_fits(o, ty),
        Operand::Vector(v) => v
            .iter()
            .any(|e| matches!(e, Operand::Imm(_) | Operand::F32(_) | Operand::F64(_))),
        Operand::Symbol(n) => is_variable_plus_offset(n, s) || is_register_plus_offset(n, s),
        _ => false,
    }
}

/// Operand forms ptxas rejects before looking at types: an immediate or special register as a
/// result, an address or a variable where a register belongs,
/// an address through an unknown name, a vector of an illegal size. False if any was reported.
fn check_operand_forms(
    i: &Instruction,
    spec: &OpSpec,
    p: &Plan,
    s: &Scope,
    out: &mut Findings,
) -> bool {
    let mut ok = true;
    let mut kinds = spec.shape.chars().filter(|c| !matches!(c, '?' | '*'));
    for (k, o) in i.operands.iter().enumerate() {
        let kind = kinds.next();
        let is_dest = kind.is_some_and(|c| matches!(c, 'd' | 'D' | 'E' | 'w' | 'U' | 'P'))
            || (kind == Some('V') && k == 0);
        match o {
            _ if is_dest && stands_for_no_register(o, result_type(i, kind), s) => {
                out.now(
                    i.line,
                    format!(
                        "Result register required for instruction '{}'",
                        display_name(i)
                    ),
                );
                ok = false;
            }
            Operand::SpecialReg { name, comp }
                if is_dest || special_not_allowed(i, name, *comp) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Special register argument not allowed for instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            // `mov.v4` takes one whole (`mov.v4.u32 {%r1, %r2, %r3, %r4}, %tid`).
            Operand::SpecialReg { name, comp: None } | Operand::Reg(name)
                if is_vector_special(name)
                    && s.regs.lookup(name).is_none()
                    && !(p.is_mov && p.width == 4) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Argument vector size mismatch for instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            Operand::Addr { .. } if kind.is_some_and(|c| c != 'm') => {
                out.now(
                    i.line,
                    format!(
                        "Argument {k} of instruction '{}': must be register",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            // An unknown base, unless an undeclared register stands elsewhere (then ptxas's
            // arguments mismatch).
            Operand::Addr {
                base: AddrBase::Reg(n) | AddrBase::Symbol(n),
                ..
            } if !is_known_name(n, s) && !undeclared_register_operand(i, s) => {
                out.now(
                    i.line,
                    format!("Illegal operand type to instruction '{}'", i.opcode()),
                );
                ok = false;
            }
            _ if kind == Some('l') && stands_for_no_label(o, s) => {
                out.now(
                    i.line,
                    format!(
                        "Label expected for argument {k} of instruction '{}'",
                        i.opcode()
                    ),
                );
                ok = false;
            }
            Operand::Symbol(n)
                if kind.is_some_and(|c| !matches!(c, 'm' | 'l'))
                    && !(p.takes_address && k > 0)
                    && s.vars.contains_key(n) =>
            {
                out.now(
                    i.line,
                    format!(
                        "Argument {k} of instruction '{}': must be register",
                        display_name(i)
                    ),
                );
                ok = false;
            }
            _ => {}
        }
    }
    ok
}

/// The sizes of the types ptxas reads a special register as, one bit each (bit 1: 16 bits, 2: 32,
/// 3: 64):
/// a `%tid`-like component 16 or 32 bits, `%clock64`, `%globaltimer`, `%pm0_64`..,
/// `%current_graph_exec` 64, `%gridid` 32 or 64, the others 32.
pub(crate) fn special_register_sizes(name: &str, comp: Option<char>) -> u8 {
    const SIXTY_FOUR: &[&str] = &["%clock64", "%globaltimer", "%current_graph_exec"];
    if comp.is_some() {
        1 << 1 | 1 << 2
    } else if SIXTY_FOUR.contains(&name) || (name.starts_with("%pm") && name.ends_with("_64")) {
        1 << 3
    } else if name == "%gridid" {
        1 << 2 | 1 << 3
    } else {
        1 << 2
    }
}

/// Whether a special register may stand where a value of type `ty` is read (by size).
fn special_register_fits(name: &str, comp: Option<char>, ty: Type) -> bool {
    special_register_sizes(name, comp) & (1 << ty.size_bytes().trailing_zeros()) != 0
}

/// A special register as a source where ptxas takes none: in `cvt` with a floating type, in an
/// instruction of a floating type of its size (another size is a mismatch), a 64-bit one in an
/// instruction other than `mov` and `cvt`.
fn special_not_allowed(i: &Instruction, name: &str, comp: Option<char>) -> bool {
    if i.opcode() == "cvt" {
        return i.types().iter().any(|&t| is_float(t));
    }
    let Some(ty) = i.ty() else { return false };
    special_register_fits(name, comp, ty)
        && (is_float(ty) || (ty.size_bytes() == 8 && i.opcode() != "mov"))
}

/// Whether an operand (not an address) is a register no declaration names.
fn undeclared_register_operand(i: &Instruction, s: &Scope) -> bool {
    i.operands.iter().any(|o| {
        matches!(o, Operand::Reg(r)
            if r != "_" && !is_vector_special(r) && s.regs.lookup(r).is_none() && !s.vars.contains_key(r))
    })
}

/// Special registers with `.x`/`.y`/`.z` components, named whole.
fn is_vector_special(name: &str) -> bool {
    // Registers end in a digit; these names don't.
    !name.ends_with(|c: char| c.is_ascii_digit())
        && matches!(
            name,
            "%tid"
                | "%ntid"
                | "%ctaid"
                | "%nctaid"
                | "%clusterid"
                | "%nclusterid"
                | "%cluster_ctaid"
                | "%cluster_nctaid"
        )
}

fn is_known_name(n: &str, s: &Scope) -> bool {
    s.vars.contains_key(n)
        || s.knows_function(n)
        || n.starts_with("__")
        || s.regs.lookup(n).is_some()
}

/// Types outside [`Type`] (`.e4m3x2`, `.tf32`, ...): such instructions' types and operands are not checked.
fn has_untabled_type(i: &Instruction) -> bool {
    i.mods().iter().any(|m| is_untabled_type(m))
}

/// A type [`Type`] does not list: narrow floats and their packed forms, `.tf32`, `.f32x2`.
pub(crate) fn is_untabled_type(m: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "ue8m0", "tf32", "s2f6", "b4x", "b6x", "b8x",
        "f32x2",
    ];
    PREFIXES.iter().any(|p| m.starts_with(p))
}

/// A modifier some tabled opcode takes: a type, space, vector size, cache hint or listed word.
pub(crate) fn is_known_modifier(m: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "L1::", "L2::", "level::", "e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "ue8m0", "tf32", "s2f6",
        "b4x", "b6x", "b8x", "f32x2",
    ];
    Type::from_mod(m).is_some()
        || isa::is_listed_modifier(m)
        || isa::SPACES.contains(&m)
        || m.strip_prefix('v')
            .is_some_and(|n| n.parse::<u32>().is_ok())
        || PREFIXES.iter().any(|p| m.starts_with(p))
        || looks_like_type(m)
        || is_shape(m)
}

/// `u33`, `s7`, `f8`: a type-shaped modifier ptxas does not know.
fn looks_like_type(m: &str) -> bool {
    let mut c = m.chars();
    matches!(c.next(), Some('u' | 's' | 'b' | 'f')) && m.len() > 1 && c.all(|c| c.is_ascii_digit())
}

/// `.wide` where ptxas does not know it, before it looks at the types: on an opcode other than
/// `mul`/`mad`, or written twice.
fn unknown_wide(i: &Instruction) -> bool {
    let wides = i.mods().iter().filter(|m| m.as_str() == "wide").count();
    wides > 1 || (wides == 1 && !matches!(i.opcode(), "mul" | "mad"))
}

/// `.wide` after a `mul`/`mad`'s `.lo`/`.hi`, which ptxas does not know there (the instruction
/// stays of that half).
fn wide_after_half(i: &Instruction) -> bool {
    matches!(i.opcode(), "mul" | "mad")
        && i.has_mod("wide")
        && half_modifier(i).is_some_and(|half| half != "wide")
}

/// Instruction-type modifiers: unknown ones, a missing or disallowed type, `.lo`/`.hi` for integers.
/// Returns false when the operands can't be checked.
fn check_types(i: &Instruction, types: &[Type], spec: &OpSpec, out: &mut Findings) -> bool {
    let unexpected = |out: &mut Findings| {
        out.now(
            i.line,
            format!(
                "Unexpected instruction types specified for '{}'",
                display_name(i)
            ),
        )
    };
    if let Some(bad) = i
        .mods()
        .iter()
        .find(|m| looks_like_type(m) && Type::from_mod(m).is_none())
    {
        out.now(i.line, format!("Unknown modifier '.{bad}'"));
        unexpected(out);
        return false;
    }
    if unknown_wide(i) {
        out.now(i.line, "Unknown modifier '.wide'".into());
        return false;
    }
    if wide_after_half(i) {
        out.now(i.line, "Unknown modifier '.wide'".into());
    }
    for m in i.mods().iter().filter(|m| !is_known_modifier(m)) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
    }
    if spec.types.0 == 0 && !types.is_empty() {
        unexpected(out);
        return false;
    }
    if spec.types.0 == 0 || has_untabled_type(i) {
        return true;
    }
    let wanted = match i.opcode() {
        "cvt" if i.has_mod("pack") => 3,
        "cvt" => 2,
        _ => 1,
    };
    // `.wide` doubles a 16- or 32-bit type.
    let too_wide = i.has_mod("wide") && types.first().is_some_and(|t| t.size_bytes() == 8);
    if types.len() != wanted || types.iter().any(|t| !spec.types.contains(*t)) || too_wide {
        unexpected(out);
        return false;
    }
    let int_like = is_int(types[0]) || matches!(types[0], Type::B16 | Type::B32 | Type::B64);
    if spec.needs_lo_hi && !int_like {
        if let Some(m) = ["lo", "hi", "wide"].iter().find(|m| i.has_mod(m)) {
            out.now(
                i.line,
                format!(
                    "Unexpected instruction types specified for '{}.{m}'",
                    i.opcode()
                ),
            );
            return false;
        }
    }
    if spec.needs_lo_hi && int_like && !["lo", "hi", "wide"].iter().any(|m| i.has_mod(m)) {
        unexpected(out);
        return false;
    }
    true
}

/// Vector width from `.v2`/`.v4`/`.v8`; `None` after reporting an illegal one. Of several, the
/// last (after ptxas's message on them).
fn vector_width(i: &Instruction, out: &mut Findings) -> Option<u32> {
    let mut width = None;
    for m in i.mods() {
        if let Some(n) = m.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
            if !matches!(n, 2 | 4 | 8) {
                out.now(i.line, format!("Unknown modifier '.{m}'"));
                return None;
            }
            if width.is_some() {
                out.now(i.line, "Multiple vector modifiers specified".into());
            }
            width = Some(n);
        }
    }
    Some(width.unwrap_or(1))
}

/// `min`/`max` with a third input: `.f32` only (sm_100, PTX ISA 8.8), without `.xorsign`.
fn check_three_inputs(i: &Instruction, s: &Scope, out: &mut Findings) {
    let op = i.opcode();
    let what = format!("Feature '{op}.f32 with 3 input operands'");
    require(i.line, &what, 100, (8, 8), true, s, out);
    if i.has_mod("xorsign") {
        out.now(
            i.line,
            format!("Illegal modifier '.xorsign' for instruction '{op}'"),
        );
    }
}

/// Operand kinds and register types against the row's shape; false on a mismatch.
fn check_operands(i: &Instruction, p: &Plan, spec: &OpSpec, width: u32, s: &Scope) -> bool {
    if p.skip_operand_types {
        return true;
    }
    // A third input to `min`/`max` is for `.f32` only.
    if i.operands.len() == 4 && matches!(i.opcode(), "min" | "max") && p.ty != Some(Type::F32) {
        return false;
    }
    let mut ok = true;
    let mut optional = false;
    let mut idx = 0;
    for kind in spec.shape.chars() {
        match kind {
            '?' => {
                // `.sync` forms (`shfl`, `vote`) take the member mask their plain forms lack.
                optional = !p.mask_required;
                continue;
            }
            '*' => return ok,
            _ => {}
        }
        let Some(o) = i.operands.get(idx) else {
            return ok && optional;
        };
        let t = if idx == 0 { p.ty } else { p.src_ty };
        ok &= match o {
            Operand::Vector(v)
                if p.data == Some(idx)
                    && width > 1
                    && crate::checks::vectors::is_data_vector(v, i.opcode() == "st", s) =>
            {
                crate::checks::vectors::data_vector_fits(v, t, spec.typing, s)
            }
            // `.vN` data element by element; a scalar access's data in braces (`{%r1}`) alike.
            Operand::Vector(v) if p.data == Some(idx) && (width > 1 || v.len() == 1) => {
                v.iter().all(|e| operand_fits(kind, e, t, spec, s, p))
            }
            _ => operand_fits(kind, o, t, spec, s, p),
        };
        idx += 1;
    }
    ok && idx == i.operands.len()
}

fn is_memory_access(i: &Instruction) -> bool {
    matches!(i.opcode(), "ld" | "st" | "ldu")
}

/// Which operand holds the loaded or stored value.
fn data_index(i: &Instruction) -> usize {
    usize::from(i.opcode() == "st")
}

/// `.vN` (`width`: `None` when illegal) against the data operand (operand `at`): a `{...}` of exactly N
/// elements, or a scalar without `.vN`. Returns the width, or `None` after reporting a mismatch
/// (`ld` reports it twice, as ptxas does).
#[inline]
fn check_memory_vector(
    i: &Instruction,
    at: usize,
    width: Option<u32>,
    out: &mut Findings,
) -> Option<u32> {
    let data = i.operands.get(at);
    // A scalar without `.vN` (the usual access) has nothing to say; nor has a scalar in braces
    // (`ld.global.b32 {%r1}, [a]`, as LLVM's NVPTX back end writes it), which ptxas reads alike.
    if width == Some(1) && !matches!(data, Some(Operand::Vector(v)) if v.len() != 1) {
        return width;
    }
    check_vector_access(i, data, width, out)
}

/// [`check_memory_vector`] past a scalar access.
#[inline(never)]
fn check_vector_access(
    i: &Instruction,
    data: Option<&Operand>,
    width: Option<u32>,
    out: &mut Findings,
) -> Option<u32> {
    if let Some(Operand::Vector(v)) = data {
        if !matches!(v.len(), 1 | 2 | 4 | 8) {
            out.now(i.line, format!("Illegal vector size: {}", v.len()));
        }
    }
    let fits = match (width, data) {
        (Some(w), Some(Operand::Vector(v))) => w > 1 && v.len() as u32 == w,
        (Some(w), _) => w == 1,
        (None, _) => false,
    };
    if fits {
        return width;
    }
    let vector_form = width.is_some_and(|w| w > 1);
    if vector_form && i.opcode() != "st" && result_register_findings(i, data, out) == Some(true) {
        return None;
    }
    if vector_form && i.opcode() != "st" && !matches!(data, Some(Operand::Vector(_))) {
        out.now(i.line, "Result vector expected".into());
    }
    let times = if vector_form && i.opcode() != "st" {
        2
    } else {
        1
    };
    for _ in 0..times {
        out.now(
            i.line,
            format!(
                "Argument vector size mismatch for instruction '{}'",
                i.opcode()
            ),
        );
    }
    None
}

/// ptxas's message on a literal or special register as the result of a vector `ld`/`mov`
/// (`ld.global.v2.u32 1, [%rd1]`): no register. `Some(true)` for a special register (nothing
/// more is said), `Some(false)` for a literal (its vector messages follow).
fn result_register_findings(
    i: &Instruction,
    data: Option<&Operand>,
    out: &mut Findings,
) -> Option<bool> {
    let (message, special) = match data? {
        Operand::Imm(_) | Operand::F32(_) | Operand::F64(_) => (
            format!(
                "Result register required for instruction '{}'",
                display_name(i)
            ),
            false,
        ),
        Operand::SpecialReg { .. } => (
            format!(
                "Special register argument not allowed for instruction '{}'",
                i.opcode()
            ),
            true,
        ),
        Operand::Reg(r) if is_vector_special(r) => (
            format!(
                "Special register argument not allowed for instruction '{}'",
                i.opcode()
            ),
            true,
        ),
        _ => return None,
    };
    out.now(i.line, message);
    Some(special)
}

fn operand_fits(
    kind: char,
    o: &Operand,
    ty: Option<Type>,
    spec: &OpSpec,
    s: &Scope,
    p: &Plan,
) -> bool {
    let reg_fits =
        |name: &str, want: Option<Type>, typing: Typing| match (s.regs.lookup(name), want) {
            (None, _) | (_, None) => true, // undeclared: reported as an unknown symbol
            (Some(r), Some(w)) => register_fits(w, r, typing),
        };
    if p.packed_f32 {
        return matches!(o, Operand::Reg(r) if s.regs.lookup(r).is_none_or(|t| t == Type::B64));
    }
    match kind {
        'd' | 'w' | 'U' => {
            let want = match kind {
                'd' => ty,
                'w' if p.wide => ty.and_then(widened),
                'w' => ty,
                _ => Some(Type::U32),
            };
            match o {
                Operand::Reg(r) => reg_fits(r, want, spec.typing),
                Operand::Sink => true,
                Operand::Vector(v) => p.is_mov && mov_vector_fits(v, want, spec.typing, p, s),
                _ => false,
            }
        }
        'a' | 'u' | 'c' => {
            let want = match kind {
                'u' => Some(Type::U32),
                'c' if p.wide => ty.and_then(widened),
                _ => ty,
            };
            let typing = if kind == 'u' { Typing::Strict } else { spec.typing };
            match o {
                Operand::Reg(r) => reg_fits(r, want, typing),
                Operand::Imm(_) => want.is_none_or(int_immediate_fits),
                Operand::F32(_) | Operand::F64(_) => kind == 'a' && want.is_none_or(|t| float_literal_fits(o, t)),
                Operand::SpecialReg { name, comp } => want.is_none_or(|t| !is_float(t) && t != Type::Pred && special_register_fits(name, *comp, t)),
                Operand::Symbol(name) if is_variable_plus_offset(name, s) => p.takes_address || want.is_none_or(int_immediate_fits),
                // An unknown name plus an offset is only ptxas's unknown symbol, no mismatch.
                Operand::Symbol(name) if symbol_base(name) != name.as_str() && !names_anything(symbol_base(name), s) => true,
                Operand::Symbol(name) => p.takes_address && symbol_is_address(name, s),
                Operand::Vector(v) => p.is_mov && mov_vector_fits(v, want, spec.typing, p, s),
                Operand::NotReg(r) => want == Some(Type::Pred) && reg_fits(r, want, typing),
                _ => false,
            }
        }
        'D' => match o {
            Operand::Reg(r) => reg_fits(r, ty, spec.typing),
            Operand::PredPair(pair) => reg_fits(&pair.0, ty, spec.typing) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        'E' => match o {
            Operand::PredPair(pair) => reg_fits(&pair.0, Some(Type::U32), Typing::Strict) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        // A matrix fragment: 32-bit registers of any type, or (as ptxas takes them) predicates.
        'V' => match o {
            Operand::Vector(v) => v.iter().all(|e| matches!(e, Operand::Reg(r) if s.regs.lookup(r).is_none_or(|t| t == Type::Pred || t.size_bytes() == 4))),
            _ => false,
        },
        'P' => match o {
            Operand::Reg(r) => reg_fits(r, Some(Type::Pred), Typing::Strict),
            Operand::PredPair(pair) => reg_fits(&pair.0, Some(Type::Pred), Typing::Strict) && reg_fits(&pair.1, Some(Type::Pred), Typing::Strict),
            Operand::Sink => true,
            _ => false,
        },
        'q' => match o {
            Operand::Reg(r) | Operand::NotReg(r) => reg_fits(r, Some(Type::Pred), Typing::Strict),
            _ => false,
        },
        'A' => match o {
            Operand::Reg(r) => s.regs.lookup(r).is_none_or(|t| !is_float(t) && matches!(t.size_bytes(), 4 | 8)),
            Operand::Imm(_) => true,
            Operand::Symbol(name) => symbol_base(name) != name.as_str() && (is_variable_plus_offset(name, s) || !names_anything(symbol_base(name), s)),
            _ => false,
        },
        'm' => matches!(o, Operand::Addr { .. }),
        'l' => matches!(o, Operand::Symbol(_)),
        'i' => matches!(o, Operand::Imm(_)),
        _ => true,
    }
}

/// A `mov` vector of registers against the type (see [`crate::checks::vectors::mov_vector_fits`]);
/// others are taken as they are. With a vector width, the elements against the type
/// ([`crate::checks::vectors::mov_elements_fit`]).
fn mov_vector_fits(v: &[Operand], ty: Option<Type>, typing: Typing, p: &Plan, s: &Scope) -> bool {
    if p.width > 1 {
        return crate::checks::vectors::mov_elements_fit(v, ty, typing, s);
    }
    !crate::checks::vectors::is_register_vector(v, s)
        || crate::checks::vectors::mov_vector_fits(v, ty, s)
}

/// A variable plus an offset (`g+4`, also `g+0`), which ptxas takes as an integer constant
/// wherever one may stand (`add.u64 %rd1, %rd1, g+4`; `g` alone is no value there). A function
/// plus an offset reads alike here; ptxas refuses it later (`validate::function_plus_offset`).
fn is_variable_plus_offset(name: &str, s: &Scope) -> bool {
    let base = symbol_base(name);
    base != name && (s.vars.contains_key(base) || s.knows_function(base))
}

/// Whether `name` is a label, variable, function or register of the scope.
fn names_anything(name: &str, s: &Scope) -> bool {
    s.labels.contains(name)
        || s.vars.contains_key(name)
        || s.knows_function(name)
        || s.regs.lookup(name).is_some()
}

/// Whether a name used as a value is a variable or function (its address), not a label.
fn symbol_is_address(name: &str, s: &Scope) -> bool {
    let name = symbol_base(name);
    s.vars.contains_key(name)
        || s.knows_function(name)
        || (name.starts_with("__") && !s.labels.contains(name))
}

/// The register type of two packed narrow floats: one byte for `.e2m1x2`, two for the others.
fn narrow_register(m: &str) -> Option<Type> {
    match m {
        "e2m1x2" => Some(Type::B8),
        "e2m3x2" | "e3m2x2" | "e4m3x2" | "e5m2x2" | "ue8m0x2" => Some(Type::B16),
        _ => None,
    }
}

/// The exact register types of a `cvt`'s destination and source where they hold packed narrow
/// floats (the first and second type modifiers).
fn narrow_registers(i: &Instruction) -> [Option<Type>; 2] {
    let mut types = i
        .mods()
        .iter()
        .filter(|m| Type::from_mod(m).is_some() || narrow_register(m).is_some());
    let mut next = || types.next().and_then(|m| narrow_register(m));
    [next(), next()]
}

/// The destination and source registers against [`narrow_registers`] (undeclared ones are
/// reported as unknown symbols).
fn narrow_registers_fit(i: &Instruction, p: &Plan, s: &Scope) -> bool {
    p.narrow_registers
        .iter()
        .zip(&i.operands)
        .all(|(want, o)| match (want, o) {
            (None, _) => true,
            (Some(t), Operand::Reg(r)) => s.regs.lookup(r).is_none_or(|r| r == *t),
            (Some(_), _) => false,
        })
}

/// `cvt` into `.ue8m0x2` rounds toward zero or up (`.rz`, `.rp`), and must say which.
fn check_ue8m0_rounding(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "cvt" || !i.has_mod("ue8m0x2") || narrow_registers(i)[0] != Some(Type::B16) {
        return;
    }
    let rounding = i.mods().iter().find(|m| {
        isa::FLOAT_ROUNDING.contains(&m.as_str()) || isa::INT_ROUNDING.contains(&m.as_str())
    });
    match rounding.map(Name::as_str) {
        None => out.now(
            i.line,
            "Rounding modifier required for instruction 'cvt'".into(),
        ),
        Some("rz" | "rp") => {}
        Some(_) => out.now(
            i.line,
            "Illegal rounding modifier for instruction 'cvt'".into(),
        ),
    }
}

/// `prefetch.tensormap` reads the `.const` or `.param` space (or a generic address), no other.
fn check_tensormap_prefetch(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "prefetch" || !i.has_mod("tensormap") {
        return;
    }
    if let Some(space) = i
        .mods()
        .iter()
        .find(|m| isa::SPACES.contains(&m.as_str()) && !matches!(m.as_str(), "const" | "param"))
    {
        out.now(i.line, format!("Modifier '.tensormap' cannot be applied to '.{space}' space for instruction 'prefetch'"));
    }
}

/// `.f32x2` (two packed `.f32`): only `add`/`sub`/`mul`/`fma`, without `.sat`, `.relu` or integer
/// rounding; `fma` needs a float rounding.
fn check_packed_f32(i: &Instruction, out: &mut Findings) {
    let op = i.opcode();
    if !matches!(op, "add" | "sub" | "mul" | "fma") || i.has_mod("relu") {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{op}'"),
        );
        return;
    }
    if i.has_mod("sat") {
        out.now(
            i.line,
            format!("Illegal modifier '.sat' for instruction '{op}'"),
        );
    }
    if isa::INT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            format!("Illegal rounding modifier for instruction '{op}'"),
        );
    } else if op == "fma" && !isa::FLOAT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            "Rounding modifier required for instruction 'fma'".into(),
        );
    }
}

/// `div`/`sqrt`/`rcp`, `fma`/`mad` and `cvt` need rounding modifiers for some types.
fn check_rounding(i: &Instruction, types: &[Type], out: &mut Findings) {
    let has = |set: &[&str]| set.iter().any(|m| i.has_mod(m));
    let Some(&ty) = types.first() else { return };
    let missing = match i.opcode() {
        "div" | "sqrt" | "rcp" if ty == Type::F32 => {
            !has(isa::FLOAT_ROUNDING) && !i.has_mod("approx") && !i.has_mod("full")
        }
        "div" | "sqrt" | "rcp" if ty == Type::F64 => {
            !has(isa::FLOAT_ROUNDING) && !i.has_mod("approx")
        }
        "fma" | "mad" if matches!(ty, Type::F32 | Type::F64) => !has(isa::FLOAT_ROUNDING),
        "cvt" => cvt_needs_rounding(types) && !has(isa::FLOAT_ROUNDING) && !has(isa::INT_ROUNDING),
        _ => false,
    };
    if i.opcode() == "cvt" && cvt_rounding_is_illegal(types, &has) {
        out.now(
            i.line,
            "Illegal rounding modifier for instruction 'cvt'".into(),
        );
        return;
    }
    if !missing {
        return;
    }
    let msg = if matches!(i.opcode(), "div" | "sqrt" | "rcp") && ty == Type::F32 {
        format!(
            "Rounding modifier or '.approx' modifier required for instruction '{}'",
            i.opcode()
        )
    } else {
        format!(
            "Rounding modifier required for instruction '{}'",
            i.opcode()
        )
    };
    out.now(i.line, msg);
}

/// Integer rounding (`.rni`) into a float from an integer, float rounding (`.rn`) into an integer,
/// any rounding into a wider float, float rounding between floats of one size, any rounding
/// between integers.
fn cvt_rounding_is_illegal(types: &[Type], has: &dyn Fn(&[&str]) -> bool) -> bool {
    let [d, a] = types else { return false };
    match (is_float(*d), is_float(*a)) {
        (true, false) => has(isa::INT_ROUNDING),
        (false, true) => has(isa::FLOAT_ROUNDING),
        // Between floats: widening takes no rounding; same size only integer rounding.
        (true, true) if element_size(*d) > element_size(*a) => {
            has(isa::INT_ROUNDING) || has(isa::FLOAT_ROUNDING)
        }
        (true, true) if element_size(*d) == element_size(*a) => has(isa::FLOAT_ROUNDING),
        // Between integers: none.
        (false, false) => has(isa::INT_ROUNDING) || has(isa::FLOAT_ROUNDING),
        _ => false,
    }
}

/// Size of one value: packed `.f16x2`/`.bf16x2` hold two of two bytes.
fn element_size(t: Type) -> u32 {
    match t {
        Type::F16x2 | Type::BF16x2 => 2,
        _ => t.size_bytes(),
    }
}

/// Conversions that lose precision: to a float from an integer or a wider float, or float to integer.
fn cvt_needs_rounding(types: &[Type]) -> bool {
    let [d, a] = types else { return false };
    match (is_float(*d), is_float(*a)) {
        (true, false) => !matches!(a, Type::B8 | Type::B16 | Type::B32 | Type::B64),
        (false, true) => is_int(*d),
        (true, true) => d.size_bytes() < a.size_bytes() && !matches!(d, Type::F16x2 | Type::BF16x2),
        _ => false,
    }
}

/// `ldmatrix`/`stmatrix`: `.sync`, a shape and a `.xN` count, shared memory only. False when the
/// operands can't be checked further.
fn check_matrix_modifiers(i: &Instruction, out: &mut Findings) -> bool {
    matrix_modifiers(i, out).is_some()
}

/// `ldmatrix`/`stmatrix` whose modifiers fit: the registers its fragment vector holds, and where.
fn matrix_fragments(i: &Instruction) -> Option<(usize, usize)> {
    matrix_modifiers(i, &mut Findings::default()).flatten()
}

/// `ldmatrix`'s format conversions (`.b8x16.b6x16_p32`: packed 6-bit elements widened to bytes).
const MATRIX_FORMATS: &[&str] = &["b8x16", "b6x16_p32", "b4x16_p64"];

/// The fragment (count, operand index) of a matrix access, `Some(None)` for other opcodes, `None`
/// after reporting modifiers that don't fit. What the shape takes is checked after the fragment
/// ([`matrix_form_fits`]), as ptxas does.
fn matrix_modifiers(i: &Instruction, out: &mut Findings) -> Option<Option<(usize, usize)>> {
    let op = i.opcode();
    if op != "ldmatrix" && op != "stmatrix" {
        return Some(None);
    }
    let narrow = |m: &&Name| ["b4x", "b6x", "b8x"].iter().any(|p| m.starts_with(p));
    let other_count = |m: &&Name| {
        m.strip_prefix('x')
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
            && !matches!(m.as_str(), "x1" | "x2" | "x4")
    };
    let unknown = |m: &&Name| narrow(m) && !MATRIX_FORMATS.contains(&m.as_str()) || other_count(m);
    if let Some(m) = i.mods().iter().find(unknown) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
        return None;
    }
    if !i.has_mod("sync") {
        let times = if op == "ldmatrix" { 2 } else { 1 };
        (0..times).for_each(|_| {
            out.now(
                i.line,
                format!(".sync modifier required for instruction '{op}'"),
            )
        });
        return None;
    }
    if !i.has_mod("aligned") {
        out.now(
            i.line,
            format!(".aligned modifier required for instruction '{op}'"),
        );
        return None;
    }
    let repeated = |what: &str, of: &dyn Fn(&str) -> bool| {
        (i.mods().iter().filter(|m| of(m)).count() > 1)
            .then(|| format!("Multiple {what} modifiers specified"))
    };
    let counts = |m: &str| matches!(m, "x1" | "x2" | "x4");
    let twice = repeated("matrix shape", &is_shape)
        .or_else(|| repeated(".num", &counts))
        .or_else(|| repeated(".trans", &|m| m == "trans"));
    if let Some(message) = twice {
        out.now(i.line, message);
        return None;
    }
    let Some(shape) = i.mods().iter().map(Name::as_str).find(|m| is_shape(m)) else {
        out.now(
            i.line,
            format!("Shape modifier required for instruction '{op}'"),
        );
        return None;
    };
    let Some(count) = i.mods().iter().find_map(|m| {
        m.strip_prefix('x')
            .filter(|_| counts(m))
            .and_then(|n| n.parse::<usize>().ok())
    }) else {
        out.now(
            i.line,
            format!(".num modifier required for instruction '{op}'"),
        );
        return None;
    };
    let space_ok = i
        .mods()
        .iter()
        .filter(|m| isa::SPACES.contains(&m.as_str()))
        .all(|m| m == "shared" || m == "shared::cta");
    if !space_ok {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{op}'"),
        );
        return None;
    }
    if op == "ldmatrix" && shape == "m16n16" && count == 4 {
        out.now(
            i.line,
            format!("Incorrect no. of matrix: 4 for ldmatrix with shape '.{shape}'"),
        );
        return None;
    }
    // One type, `.b8` or `.b16` (`stmatrix` has no format conversions), before the fragment.
    let types = i.types();
    let odd_types = types.len() > 1 || types.iter().any(|t| !matches!(t, Type::B8 | Type::B16));
    if odd_types || op == "stmatrix" && i.mods().iter().any(|m| narrow(&m)) {
        out.now(
            i.line,
            format!("Unexpected instruction types specified for '{op}'"),
        );
        return None;
    }
    // A 16x16 matrix of bytes takes two registers per matrix.
    let count = if op == "ldmatrix" && shape == "m16n16" {
        2 * count
    } else {
        count
    };
    Some(Some((count, usize::from(op == "stmatrix"))))
}

/// What a matrix access's shape takes, as [`matrix_form_problem`] finds it. False after
/// reporting a problem.
fn matrix_form_fits(i: &Instruction, out: &mut Findings) -> bool {
    let problem = matrix_form_problem(i);
    problem
        .iter()
        .for_each(|message| out.now(i.line, message.clone()));
    problem.is_none()
}

/// What is wrong with the types and `.trans` of a matrix access for its shape: `.m8n8` holds
/// `.b16`; `stmatrix.m16n8` and `ldmatrix.m16n16` hold `.b8` and need `.trans`; `ldmatrix.m8n16`
/// and `ldmatrix.m16n16` also take a format conversion (`.b8x16` and a packed source format, in
/// that order), `.m8n16` without `.trans`; `stmatrix` has no other shape, `ldmatrix` not `.m16n8`.
fn matrix_form_problem(i: &Instruction) -> Option<String> {
    let op = i.opcode();
    let shape = i.mods().iter().map(Name::as_str).find(|m| is_shape(m))?;
    let b8_shape = match (op, shape) {
        (_, "m8n8") => false,
        ("stmatrix", "m16n8") | ("ldmatrix", "m16n16" | "m8n16") => true,
        ("stmatrix", _) | ("ldmatrix", "m16n8") => {
            return Some(format!(
                "Illegal matrix shape '.{shape}' for instruction '{op}'"
            ))
        }
        _ => return None,
    };
    let types = i.types();
    let formats: Vec<&str> = i
        .mods()
        .iter()
        .map(Name::as_str)
        .filter(|m| MATRIX_FORMATS.contains(m))
        .collect();
    let type_count = match shape {
        "m8n8" => types.len() != 1 || !formats.is_empty(),
        "m8n16" => !types.is_empty(),
        _ => !types.is_empty() && !formats.is_empty(),
    };
    if type_count {
        return Some(format!(
            "Unexpected number of instruction types specified for {op} with shape '.{shape}'"
        ));
    }
    let trans = i.has_mod("trans");
    if shape == "m8n16" && trans {
        return Some("Modifier .trans not allowed for shape '.m8n16'".into());
    }
    let needs_trans = b8_shape && shape != "m8n16" && !trans;
    let trans_required = || {
        Some(format!(
            "Modifier '.trans' require for instruction {op} with shape '.{shape}'"
        ))
    };
    match (&types[..], &formats[..]) {
        ([], _) if needs_trans => trans_required(),
        ([], ["b8x16", from]) if *from != "b8x16" => None,
        ([], [a, b]) => Some(format!(
            "Illegal modifier '.{a}.{b}' for instruction '{op}'"
        )),
        ([], _) => Some("Unexpected number of 'format conversion' modifiers specified".into()),
        ([t @ (Type::B8 | Type::B16)], _) if (*t == Type::B8) != b8_shape => Some(format!(
            "Incorrect instruction type specified for {op} with shape '.{shape}'"
        )),
        ([Type::B8 | Type::B16], _) if needs_trans => trans_required(),
        _ => None,
    }
}

/// The fragment vector of a matrix access against its count, then what its shape takes. False
/// when the operands can't be checked further.
fn check_matrix_fragments(
    i: &Instruction,
    (count, at): (usize, usize),
    out: &mut Findings,
) -> bool {
    let op = i.opcode();
    match i.operands.get(at) {
        Some(Operand::Vector(v)) if v.len() == count => matrix_form_fits(i, out),
        Some(Operand::Vector(v)) if !matches!(v.len(), 1 | 2 | 4 | 8) => {
            out.now(i.line, format!("Illegal vector size: {}", v.len()));
            false
        }
        Some(_) => {
            out.now(
                i.line,
                format!(
                    "Vector of size {count} is expected for argument {at} of instruction '{op}'"
                ),
            );
            if matches!(i.operands.get(at), Some(Operand::Vector(v)) if v.len() < count) {
                out.now(
                    i.line,
                    format!("Argument vector size mismatch for instruction '{op}'"),
                );
            }
            false
        }
        None => matrix_form_fits(i, out),
    }
}

/// A matrix shape modifier (`m8n8`, `m16n8k16`).
fn is_shape(m: &str) -> bool {
    let mut rest = m;
    for letter in ['m', 'n'] {
        let Some(r) = rest.strip_prefix(letter) else {
            return false;
        };
        let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if digits == 0 {
            return false;
        }
        rest = &r[digits..];
    }
    rest.is_empty()
        || rest
            .strip_prefix('k')
            .is_some_and(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()))
}

/// The state space a memory access (`ld`, `st`, `ldu`, `atom`, `red`) names, if any.
fn access_space(i: &Instruction) -> Option<StateSpace> {
    if !is_access(i) {
        return None;
    }
    let space = i
        .mods()
        .iter()
        .find(|m| isa::SPACES.contains(&m.as_str()))?;
    Some(match space.split("::").next().unwrap_or("") {
        "global" => StateSpace::Global,
        "shared" => StateSpace::Shared,
        "local" => StateSpace::Local,
        "param" => StateSpace::Param,
        _ => StateSpace::Const,
    })
}

fn writes_memory(i: &Instruction) -> bool {
    matches!(i.opcode(), "st" | "atom" | "red")
}

/// No writes to `.const`.
fn check_space_writable(i: &Instruction, out: &mut Findings) {
    if writes_memory(i) && access_space(i) == Some(StateSpace::Const) {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{}'", i.opcode()),
        );
    }
}

/// An instruction that reads or writes memory through an address operand.
/// Whether a variable of space `var` fits an access to `space` (`generic`: one naming none).
fn space_fits(var: &StateSpace, space: Option<StateSpace>, generic: bool) -> bool {
    match space {
        Some(space) => *var == space,
        None => !generic || !matches!(var, StateSpace::Param | StateSpace::Const),
    }
}

fn is_access(i: &Instruction) -> bool {
    matches!(i.opcode(), "ld" | "st" | "ldu" | "atom" | "red")
}

/// State space of the instruction (`space`: what it names, unless it writes `.const`) against the
/// variable it addresses; a generic access (`generic`) reaches no `.param` or `.const` variable.
/// Returns the declaration of that variable.
fn check_space<'s>(
    i: &Instruction,
    addressed: Option<&'s VarDecl>,
    space: Option<StateSpace>,
    generic: bool,
    out: &mut Findings,
) -> Option<&'s VarDecl> {
    let var = addressed.map(|v| &v.space);
    if var.is_some_and(|v| !space_fits(v, space, generic)) {
        out.now(
            i.line,
            format!(
                "State space mismatch between instruction and address in instruction '{}'",
                i.opcode()
            ),
        );
    }
    addressed
}

/// `setp`'s comparison against its type `ty`: more than one ("Multiple comparisons set"), or
/// one the type does not take.
fn check_comparisons(i: &Instruction, ty: Type, out: &mut Findings) {
    let comparisons = i
        .mods()
        .iter()
        .filter(|m| crate::checks::mods::COMPARISONS.contains(&m.as_str()))
        .count();
    if comparisons > 1 {
        out.now(i.line, "Multiple comparisons set".into());
    } else if !comparison_fits(i, ty) {
        out.now(
            i.line,
            "Mismatch between instruction type and comparison qualifier".into(),
        );
    }
}

/// Opcodes whose `.ftz` ptxas calls illegal on `.f64` (it flushes single-precision subnormals).
fn takes_ftz_but_on_f64(op: &str) -> bool {
    matches!(
        op,
        "add"
            | "sub"
            | "mul"
            | "mad"
            | "fma"
            | "min"
            | "max"
            | "div"
            | "abs"
            | "neg"
            | "setp"
            | "sqrt"
    )
}

/// Modifiers that don't fit the type or space: comparison kinds of `setp`, `.sat` on integers,
/// rounding on integer arithmetic, `.ftz` on integer arithmetic and on `.f64`, `.nc` outside
/// global loads.
fn check_qualifiers(i: &Instruction, types: &[Type], s: &Scope, out: &mut Findings) {
    if let Some(msg) = missing_mode(i) {
        out.now(i.line, msg);
    }
    if let Some(msg) = mode_conflict(i) {
        out.now(i.line, msg);
    }
    let Some(&ty) = types.first() else { return };
    if let Some(msg) = crate::checks::mods::integer_saturation(i, ty, s) {
        out.now(i.line, msg);
    }
    let op = i.opcode();
    if op == "setp" {
        check_comparisons(i, ty, out);
    }
    let int_arith = !is_float(ty)
        && matches!(
            op,
            "add" | "sub" | "mul" | "mad" | "min" | "max" | "div" | "rem" | "abs" | "neg"
        );
    if int_arith && isa::FLOAT_ROUNDING.iter().any(|m| i.has_mod(m)) {
        out.now(
            i.line,
            format!(
                "Illegal rounding modifier for instruction '{}'",
                display_name(i)
            ),
        );
    }
    let f64_ftz = ty == Type::F64 && takes_ftz_but_on_f64(op);
    if i.has_mod("ftz") && (int_arith || f64_ftz) {
        out.now(
            i.line,
            format!(
                "Illegal modifier '.ftz' for instruction '{}'",
                display_name(i)
            ),
        );
    }
    if let Some(msg) = bar_red_type_mismatch(i, ty) {
        out.now(i.line, msg);
    }
    if let Some(msg) = vote_type_mismatch(i, ty) {
        out.now(i.line, msg);
    }
    if i.has_mod("nc") {
        if op == "st" {
            out.now(i.line, "Illegal modifier '.nc' for instruction 'st'".into());
        } else if op == "ld" && !i.has_mod("global") {
            out.now(i.line, "Modifier '.nc' requires .global space".into());
        }
    }
}

/// `shfl` needs one of its shuffle modes, `bmsk` one of `.clamp`/`.wrap`, `elect` `.sync`.
fn missing_mode(i: &Instruction) -> Option<String> {
    let (modes, what): (&[&str], &str) = match i.opcode() {
        "shfl" => (&["up", "down", "bfly", "idx"], "Shuffle"),
        "bmsk" => (&["clamp", "wrap"], "Clamp"),
        "elect" => (&["sync"], ".sync"),
        "setp" | "set" => (crate::checks::mods::COMPARISONS, "Comparison"),
        _ => return None,
    };
    (!modes.iter().any(|m| i.has_mod(m)))
        .then(|| format!("{what} modifier required for instruction '{}'", i.opcode()))
}

/// The type modifiers in order, packed FP8/FP6/FP4 pairs (`e4m3x2`) included.
fn type_names(i: &Instruction) -> String {
    let names: Vec<&str> = i
        .mods()
        .iter()
        .map(|m| &**m)
        .filter(|m| Type::from_mod(m).is_some() || m.ends_with("x2"))
        .collect();
    names.join(".")
}

/// `prmt` takes at most one permute mode; `cvt` to FP8 pairs needs `.satfinite`.
fn mode_conflict(i: &Instruction) -> Option<String> {
    const PERMUTES: &[&str] = &["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"];
    if i.opcode() == "prmt"
        && i.mods()
            .iter()
            .filter(|m| PERMUTES.contains(&&***m))
            .count()
            > 1
    {
        return Some("Multiple permute modifiers specified".into());
    }
    // The destination is the first type named.
    let dst = i
        .mods()
        .iter()
        .find(|m| Type::from_mod(m).is_some() || matches!(&***m, "e4m3x2" | "e5m2x2"))?;
    let fp8: &str = dst;
    if !matches!(fp8, "e4m3x2" | "e5m2x2") {
        return None;
    }
    (i.opcode() == "cvt" && !i.has_mod("satfinite")).then(|| {
        format!(
            "'.satfinite' modifier required for instruction 'cvt' with destination type '.{fp8}'"
        )
    })
}

/// `membar` takes exactly one level, `.cta`, `.gl` or `.sys` (or is `membar.proxy`).
fn check_membar_level(i: &Instruction, out: &mut Findings) {
    if i.opcode() != "membar" {
        return;
    }
    for m in i
        .mods()
        .iter()
        .filter(|m| matches!(m.as_str(), "gpu" | "cluster"))
    {
        out.now(
            i.line,
            format!("Illegal modifier '.{m}' for instruction 'membar'"),
        );
    }
    match i
        .mods()
        .iter()
        .filter(|m| matches!(m.as_str(), "cta" | "gl" | "sys"))
        .count()
    {
        0 if !i.has_mod("proxy") => out.now(
            i.line,
            "Membar level required for instruction 'membar'".into(),
        ),
        0 | 1 => {}
        _ => out.now(i.line, "Multiple scope modifiers specified".into()),
    }
}

/// `bar.red d, a{, b}, {!}c`: the optional thread count sits before the predicate, which the row's
/// shape (`du*`) leaves to this check.
fn bar_red_operands_fit(i: &Instruction, s: &Scope) -> bool {
    if i.opcode() != "bar" || !i.has_mod("red") {
        return true;
    }
    let is_pred = |o: &Operand| match o {
        Operand::Reg(r) | Operand::NotReg(r) => s.regs.lookup(r).is_none_or(|t| t == Type::Pred),
        _ => false,
    };
    let count_fits = |o: &Operand| match o {
        Operand::Reg(r) => s
            .regs
            .lookup(r)
            .is_none_or(|t| register_fits(Type::U32, t, Typing::Strict)),
        o => matches!(o, Operand::Imm(_)),
    };
    match &i.operands[..] {
        [_, _, c] => is_pred(c),
        [_, _, b, c] => count_fits(b) && is_pred(c),
        _ => false,
    }
}

/// `bar.red.and`/`.or` reduce predicates, `bar.red.popc` counts into a `.u32`.
fn bar_red_type_mismatch(i: &Instruction, ty: Type) -> Option<String> {
    if i.opcode() != "bar" || !i.has_mod("red") {
        return None;
    }
    let want = if i.has_mod("popc") {
        Type::U32
    } else if i.has_mod("and") || i.has_mod("or") {
        Type::Pred
    } else {
        return None;
    };
    let name = if want == Type::U32 { "u32" } else { "pred" };
    (ty != want).then(|| format!("Operation requires .{name} type"))
}

/// `vote.ballot` gives a `.b32`, `vote.all`/`.any`/`.uni` a `.pred`.
fn vote_type_mismatch(i: &Instruction, ty: Type) -> Option<String> {
    if i.opcode() != "vote" {
        return None;
    }
    let mode = ["all", "any", "uni", "ballot"]
        .into_iter()
        .find(|m| i.has_mod(m))?;
    let (want, name) = if mode == "ballot" {
        (Type::B32, "b32")
    } else {
        (Type::Pred, "pred")
    };
    (ty != want)
        .then(|| format!("Instruction 'vote' requires '.{name}' type with '.{mode}' modifier."))
}

/// `setp`'s comparison against its type: unsigned orders for unsigned integers, unordered ones
/// for floats, only `eq`/`ne` for bit types.
pub(crate) fn comparison_fits(i: &Instruction, ty: Type) -> bool {
    comparisons_fit(i.mods().iter().map(Name::as_str), ty)
}

/// Whether the comparisons among `mods` fit the type `ty` (see [`comparison_fits`]).
pub(crate) fn comparisons_fit<'m>(mods: impl Iterator<Item = &'m str> + Clone, ty: Type) -> bool {
    const UNSIGNED: &[&str] = &["lo", "ls", "hi", "hs"];
    const FLOAT: &[&str] = &["equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
    const ORDERED: &[&str] = &["lt", "le", "gt", "ge"];
    let has = |set: &[&str]| mods.clone().any(|m| set.contains(&m));
    let unsigned = matches!(ty, Type::U16 | Type::U32 | Type::U64);
    let bits = matches!(ty, Type::B16 | Type::B32 | Type::B64);
    !(has(UNSIGNED) && !unsigned || has(FLOAT) && !is_float(ty) || has(ORDERED) && bits)
}

/// The operand of `bar`/`barrier` that names the barrier (`bar.red` names it after the result).
fn barrier_operand(i: &Instruction) -> Option<usize> {
    let numbered =
        matches!(i.opcode(), "bar" | "barrier") && !i.has_mod("warp") && !i.has_mod("cluster");
    numbered.then(|| usize::from(i.has_mod("red")))
}

/// `bar`/`barrier` name barriers 0..15.
fn check_barrier_number(i: &Instruction, at: usize, out: &mut Findings) {
    if let Some(Operand::Imm(n)) = i.operands.get(at) {
        if !(0..16).contains(n) {
            out.now(
                i.line,
                format!("Barrier number '{n}' out of range, expected to be in range [0..15]"),
            );
        }
    }
}

/// `shfl` and `vote` without `.sync` are gone from PTX ISA 6.4 on, for `.target sm_70` and later.
fn check_sync_form(i: &Instruction, s: &Scope, out: &mut Findings) {
    if is_sync_less_warp_op(i) && sync_less_is_gone(s.version, s.target_sm) {
        let msg = format!("Instruction '{}' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", i.opcode());
        out.now(i.line, msg);
    }
}

fn is_sync_less_warp_op(i: &Instruction) -> bool {
    matches!(i.opcode(), "shfl" | "vote") && !i.has_mod("sync")
}

fn sync_less_is_gone(version: (u32, u32), target_sm: u32) -> bool {
    version >= (6, 4) && target_sm >= 70
}

/// ptxas's warnings for `shfl` and `vote` without `.sync` where they are still allowed (older
/// `.version` or `.target`): every one may misbehave on the sm_70+ code ptxas makes, and from PTX
/// ISA 6.0 on they are deprecated.
pub fn sync_less_warnings(m: &Module) -> Vec<(u32, String)> {
    let target_sm = crate::checks::module::target_number(&m.target).unwrap_or(u32::MAX);
    if sync_less_is_gone(m.version, target_sm) {
        return Vec::new();
    }
    let instructions = m
        .functions
        .iter()
        .flat_map(|f| &f.body)
        .filter_map(|s| match s {
            Statement::Instr(i) if is_sync_less_warp_op(i) => Some(i),
            _ => None,
        });
    let mut warnings = Vec::new();
    for i in instructions {
        let op = i.opcode();
        warnings.push((i.line, format!("Instruction '{op}' without '.sync' may produce unpredictable results on sm_70 and later architectures")));
        if m.version >= (6, 0) {
            warnings.push((i.line, format!("Instruction '{op}' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a future PTX ISA version")));
        }
    }
    warnings
}

/// `atom`/`red`: the operation against its types (`.and` only on bit types, `.inc` only on `.u32`,
/// no `red.cas` or `red.exch`), `.noftz` (required by the half types, allowed on `.f32`), the
/// vector forms (`.v2`/`.v4` of `.f32`, `.f16x2`, `.bf16x2`, also `.v8` of `.f16`, `.bf16`; in
/// `.global` only, sm_90 and PTX 8.1), half-type `.min`/`.max` (vectors only) and `.bf16` `.add`
/// (sm_90), in ptxas's order.
fn check_atom_types(i: &Instruction, s: &Scope, out: &mut Findings) {
    let is_red = i.opcode() == "red";
    if i.opcode() != "atom" && !is_red {
        return;
    }
    let opcode = i.opcode();
    if i.has_mod("ftz") {
        out.now(
            i.line,
            format!("Illegal modifier '.ftz' for instruction '{opcode}'"),
        );
        return;
    }
    let vectors: Vec<&str> = i
        .mods()
        .iter()
        .map(Name::as_str)
        .filter(|m| {
            m.strip_prefix('v')
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    if let Some(m) = vectors.iter().find(|m| !matches!(**m, "v2" | "v4" | "v8")) {
        out.now(i.line, format!("Unknown modifier '.{m}'"));
        return;
    }
    if vectors.len() > 1 {
        out.now(i.line, "Multiple vector modifiers specified".into());
        return;
    }
    let width = vectors.first().and_then(|m| m[1..].parse::<u32>().ok());
    let Some((op, types)) = isa::ATOM_OPERATIONS.iter().find(|(op, _)| i.has_mod(op)) else {
        return;
    };
    let cas = *op == "cas";
    let ty = i.ty();
    // The type as written (`bf16x2`), for the messages.
    let ty_name = i
        .mods()
        .iter()
        .rev()
        .map(Name::as_str)
        .find(|m| Type::from_mod(m).is_some())
        .unwrap_or("");
    let space = i
        .mods()
        .iter()
        .map(Name::as_str)
        .find(|m| isa::SPACES.contains(m));
    let place = space.map_or(" with generic state space".to_string(), |m| format!(".{m}"));
    let noftz = i.has_mod("noftz");
    let half = ty.is_some_and(|t| matches!(t, Type::F16 | Type::BF16 | Type::F16x2 | Type::BF16x2));
    let vector_type = half || ty == Some(Type::F32);
    let bf16 = matches!(ty, Some(Type::BF16 | Type::BF16x2));
    let half_min_max = half && matches!(*op, "min" | "max");
    if half_min_max || bf16 && *op == "add" {
        let ptx = if half_min_max { (8, 1) } else { (7, 8) };
        require(
            i.line,
            &format!("Instruction '{opcode}.{op}.{ty_name}{place}'"),
            90,
            ptx,
            true,
            s,
            out,
        );
    }
    let with_vectors = format!("{opcode} instruction with vector types");
    if width.is_some() {
        require(
            i.line,
            &format!("Feature '{with_vectors}'"),
            90,
            (8, 1),
            true,
            s,
            out,
        );
    }
    if space.is_some_and(|m| !m.starts_with("shared") && m != "global") {
        out.now(
            i.line,
            format!("State space incorrect for instruction '{opcode}'"),
        );
        return;
    }
    if is_red && cas {
        out.now(
            i.line,
            "Illegal modifier '.cas' for instruction 'red'".into(),
        );
        return;
    }
    if noftz && !vector_type {
        out.now(
            i.line,
            format!("Illegal modifier '.noftz' for instruction '{opcode}'"),
        );
    }
    if width.is_some() && !vector_type {
        out.now(
            i.line,
            format!("Vector qualifier is not allowed for instruction '{opcode}'"),
        );
    }
    if is_red && *op == "exch" {
        out.now(
            i.line,
            "Illegal operation '.exch' for instruction 'red'".into(),
        );
        return;
    }
    if half && !noftz {
        out.now(
            i.line,
            format!("'.noftz' modifier required for instruction '{opcode}' with type '.{ty_name}'"),
        );
    }
    let Some(ty) = ty else { return };
    // Types no operation takes are "Unexpected instruction types", reported with the row.
    let wrong_type = isa::op_spec(opcode).is_some_and(|s| s.types.contains(ty))
        && !types.iter().any(|t| Type::from_mod(t) == Some(ty));
    if wrong_type {
        let msg = if cas {
            format!("Unexpected instruction types specified for '{opcode}'")
        } else {
            let names: Vec<String> = types.iter().map(|t| format!(".{t}")).collect();
            format!(
                "Operation .{op} requires {} type for instruction '{opcode}'",
                names.join(" or ")
            )
        };
        out.now(i.line, msg);
    }
    match width {
        Some(width) if !wrong_type => {
            if space.is_some_and(|m| m.starts_with("shared")) {
                out.now(
                    i.line,
                    format!("State space incorrect for feature '{with_vectors}'"),
                );
            }
            if !vector_type {
                out.now(
                    i.line,
                    format!("Unexpected instruction types specified for '{with_vectors}'"),
                );
            }
            if !matches!(ty, Type::F16 | Type::BF16) && (width == 8 || !vector_type) {
                out.now(i.line, format!("Only .v2 or .v4 vector modifier supported with type .{ty_name} on .{op} operation for {with_vectors}"));
            }
        }
        None if half_min_max && !wrong_type => out.now(
            i.line,
            format!("Vector modifier required for instruction '{opcode}.{op}.{ty_name}{place}'"),
        ),
        _ => {}
    }
    if noftz && ty == Type::F32 {
        require(
            i.line,
            &format!("Feature '{opcode} with .noftz and .f32'"),
            0,
            (9, 4),
            false,
            s,
            out,
        );
        if *op != "add" {
            out.now(
                i.line,
                format!("Illegal modifier '.noftz' for instruction '{opcode}' with '.{op}'"),
            );
        }
    }
    if is_red && i.has_mod("acq_rel") {
        out.now(
            i.line,
            "Illegal modifier '.acq_rel' for instruction 'red'".into(),
        );
    }
}

/// How many operands an `atom`/`red` with an operation takes (`cas` and a cache hint add one).
/// `red.cas` takes what it has: ptxas names only the illegal modifier.
fn atom_operand_count(i: &Instruction) -> usize {
    let is_red = i.opcode() == "red";
    let cas = isa::ATOM_OPERATIONS
        .iter()
        .find(|(op, _)| i.has_mod(op))
        .is_some_and(|(op, _)| *op == "cas");
    if is_red && cas {
        return i.operands.len();
    }
    2 + usize::from(!is_red) + usize::from(cas) + usize::from(i.has_mod("L2::cache_hint"))
}

/// Opcodes, modifiers and types that need a newer `.target` or `.version`.
fn modifier_requirements(i: &Instruction, s: &Scope, out: &mut Findings) {
    for r in isa::requirements_for(i.opcode()) {
        let opcode_ok = r.opcode.is_empty() || r.opcode == i.opcode();
        let met = s.version >= r.ptx && s.target_sm >= r.sm;
        let with_ok =
            (r.with.is_empty() || i.has_mod(r.with)) && !r.without.iter().any(|m| i.has_mod(m));
        if !met && opcode_ok && with_ok && (r.modifier.is_empty() || i.has_mod(r.modifier)) {
            let what = r
                .what
                .replace("{m0}", i.mods().first().map_or("", Name::as_str))
                .replace("{mods}", &i.mods().join("."));
            let what = what
                .replace("{form}", &crate::checks::forms::form_name(i))
                .replace("{types}", &type_names(i));
            require(i.line, &what, r.sm, r.ptx, r.target_first, s, out);
        }
    }
    for (_, _, what, targets) in isa::ARCH_SPECIFIC
        .iter()
        .filter(|(op, m, ..)| *op == i.opcode() && i.has_mod(m))
    {
        if !targets.contains(&s.target) {
            out.now(
                i.line,
                format!("{what} not supported on .target '{}'", s.target),
            );
        }
    }
    let wide_vector = i.has_mod("v4") && i.ty().is_some_and(|t| t.size_bytes() == 8);
    if is_memory_access(i) && wide_vector {
        require(
            i.line,
            "Feature '256 bit wide load/store'",
            100,
            (8, 8),
            false,
            s,
            out,
        );
    }
}

/// Special registers that need a newer `.target` or `.version`.
fn special_register_requirements(i: &Instruction, s: &Scope, out: &mut Findings) {
    for o in &i.operands {
        if let Operand::SpecialReg { name, .. } = o {
            if let Some((_, sm, ptx)) = isa::SPECIAL_REQUIREMENTS.iter().find(|(n, ..)| n == name) {
                require(
                    i.line,
                    &format!("Feature '{name}'"),
                    *sm,
                    *ptx,
                    false,
                    s,
                    out,
                );
            }
        }
    }
}

fn require(
    line: u32,
    what: &str,
    sm: u32,
    ptx: (u32, u32),
    target_first: bool,
    s: &Scope,
    out: &mut Findings,
) {
    let version = (s.version < ptx).then(|| {
        format!(
            "{what} requires PTX ISA .version {}.{} or later",
            ptx.0, ptx.1
        )
    });
    let target = (s.target_sm < sm).then(|| format!("{what} requires .target sm_{sm} or higher"));
    let (a, b) = if target_first {
        (target, version)
    } else {
        (version, target)
    };
    for m in [a, b].into_iter().flatten() {
        out.now(line, m);
    }
}

/// `call (rets), f, (args)`: a known callee with as many results and arguments as its prototype.
fn check_call(i: &Instruction, s: &Scope, out: &mut Findings) {
    let Some(pos) = i
        .operands
        .iter()
        .position(|o| matches!(o, Operand::Symbol(_) | Operand::Reg(_)))
    else {
        out.now(i.line, "Arguments mismatch for instruction 'call'".into());
        return;
    };
    let mut unknown = Vec::new();
    for o in &i.operands {
        if let Operand::Vector(v) = o {
            v.iter().for_each(|e| collect_unknown(e, s, &mut unknown));
        }
    }
    if let Operand::Symbol(name) = &i.operands[pos] {
        match s.function(name) {
            Some(f) if f.is_entry => out.now(
                i.line,
                "Illegal call target, device function expected".into(),
            ),
            Some(f) => {
                let rets = i.operands[..pos].iter().map(vector_len).sum::<usize>();
                let args = i.operands.get(pos + 1).map_or(0, vector_len);
                if rets != f.ret_params.len() || args != f.params.len() {
                    out.now(i.line, "Call has wrong number of parameters".into());
                }
            }
            None if s.regs.lookup(name).is_none() => {
                out.now(i.line, format!("Call to '{name}' requires call prototype"));
                unknown.insert(0, name.to_string());
            }
            None => {}
        }
    }
    for u in unknown {
        out.unknown.push((i.line, u));
    }
}

fn vector_len(o: &Operand) -> usize {
    match o {
        Operand::Vector(v) => v.len(),
        _ => 0,
    }
}

/// An instruction's operands in one pass: whether any names something undeclared ([`unknown_symbols`]
/// then says what), and a key of all that the operand checks ([`check_operand_forms`],
/// [`check_operands`]) read from them: their kinds, the registers' declared types, whether the
/// addresses and symbols are known. Operands with the same key under the same plan fit alike, so
/// the checks run once per key. No key for long operand lists or nested vectors.
struct OperandSummary<'s> {
    /// The kinds of the operands proper.
    kinds: OperandKinds,
    /// The variable of the first address operand that names one ([`check_space`]'s).
    addressed: Option<&'s VarDecl>,
    unknown: bool,
    key: Option<OperandKey>,
    /// A vector operand holds something other than registers of one declared type, or has a
    /// length other than 1, 2, 4 or 8, or a vector follows another (`mov {..}, {..}`).
    mixed_vectors: bool,
}

/// Codes of an instruction's operands under its plan, a byte each (the first in the low byte),
/// and the width of its vector access.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct OperandKey {
    codes: u128,
    /// The plan's id (the high 32 bits), the width (bits 8 to 31: 0 before it is known, then 1,
    /// 2, 4 or 8) and how many codes (the low byte), compared as one word.
    meta: u64,
}

impl OperandKey {
    #[inline]
    fn new(plan: u32, len: u8, width: u32, codes: u128) -> OperandKey {
        OperandKey {
            codes,
            meta: u64::from(plan) << 32 | u64::from(width) << 8 | u64::from(len),
        }
    }

    /// The key with the width of the vector access `width`.
    #[inline]
    fn with_width(self, width: u32) -> OperandKey {
        OperandKey {
            meta: self.meta & !0xffff_ff00 | u64::from(width) << 8,
            ..self
        }
    }

    /// A slot of [`Verdicts::recent`]: one multiply of the key's folded words.
    #[inline]
    fn slot(&self) -> usize {
        let words = self.codes as u64 ^ (self.codes >> 64) as u64 ^ self.meta;
        (words.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize % RECENT_VERDICTS
    }
}

impl<'s> OperandSummary<'s> {
    #[inline]
    fn of(i: &Instruction, p: &Plan, s: &'s Scope) -> OperandSummary<'s> {
        let mut sum = Summing::new(s, p.takes_address);
        // Registers, numbers and addresses in registers (nearly all operands) are coded here:
        // they are of no kind that [`OperandKinds`] notes.
        for o in i.operands.iter() {
            let code = match o {
                Operand::Reg(r) => sum.register_code(r),
                Operand::Imm(_) => Summing::VALUE,
                Operand::Addr {
                    base: AddrBase::Reg(r),
                    ..
                } => sum.register_address_code(r),
                _ => {
                    sum.top_operand(o);
                    continue;
                }
            };
            sum.push(code);
        }
        let key = (sum.keyed && sum.len <= 16)
            .then(|| OperandKey::new(p.id, sum.len as u8, 0, u128::from_le_bytes(sum.codes)));
        OperandSummary {
            kinds: sum.kinds,
            addressed: sum.addressed,
            unknown: sum.unknown,
            key,
            mixed_vectors: sum.mixed_vectors,
        }
    }

    /// The kinds alone, for instructions not checked against an `isa` row.
    fn kinds_of(i: &Instruction) -> OperandSummary<'s> {
        OperandSummary {
            kinds: OperandKinds::of(i),
            addressed: None,
            unknown: false,
            key: None,
            mixed_vectors: false,
        }
    }
}

struct Summing<'s, 'a> {
    s: &'s Scope<'a>,
    /// The variable of the first address operand proper that names one.
    addressed: Option<&'s VarDecl>,
    takes_address: bool,
    unknown: bool,
    /// The codes of the first 16 operands (see [`OperandKey`]).
    codes: [u8; 16],
    len: usize,
    keyed: bool,
    mixed_vectors: bool,
    /// A vector operand was seen.
    vectors: bool,
    kinds: OperandKinds,
}

impl<'s, 'a> Summing<'s, 'a> {
    /// Operand codes: a kind in the top 3 bits, below it a register's type (0: undeclared) or a flag.
    const REG: u8 = 0;
    const NOT_REG: u8 = 1 << 5;
    const PAIR: u8 = 2 << 5;
    const VALUE: u8 = 3 << 5;
    const SPECIAL: u8 = 4 << 5;
    const ADDR: u8 = 5 << 5;
    const SYMBOL: u8 = 6 << 5;
    const VECTOR: u8 = 7 << 5;
    /// An undeclared `%tid`-like name.
    const VECTOR_SPECIAL: u8 = 31;
    /// Not a code: [`Summing::symbol_code`]'s mark of a name with an offset.
    const PLUS_OFFSET_NAME: u8 = 1 << 4;

    #[inline]
    fn new(s: &'s Scope<'a>, takes_address: bool) -> Summing<'s, 'a> {
        Summing {
            s,
            addressed: None,
            takes_address,
            unknown: false,
            codes: [0; 16],
            len: 0,
            keyed: true,
            mixed_vectors: false,
            vectors: false,
            kinds: OperandKinds::NONE,
        }
    }

    #[inline]
    fn push(&mut self, code: u8) {
        if let Some(at) = self.codes.get_mut(self.len) {
            *at = code;
        }
        self.len += 1;
    }

    /// Whether the codes from `from` on are one declared register type (all known only within
    /// the first 16 operands: past them, no).
    fn one_declared_type(&self, from: usize) -> bool {
        if self.len > 16 || from == self.len {
            return from == self.len;
        }
        let code = |k: usize| self.codes[k];
        let first = code(from);
        let declared = first != Self::REG
            && first != Self::REG | Self::VECTOR_SPECIAL
            && first >> 5 == Self::REG >> 5;
        declared && (from + 1..self.len).all(|k| code(k) == first)
    }

    /// A register's declared type (an undeclared one is unknown, but `_`), as a code.
    fn register(&mut self, name: &Name) -> u8 {
        let ty = self.s.regs.lookup_name(name);
        self.unknown |= ty.is_none() && name != "_";
        ty.map_or(0, |t| t as u8 + 1)
    }

    /// The code of a register operand (`Operand::Reg`).
    #[inline]
    fn register_code(&mut self, r: &Name) -> u8 {
        match self.s.regs.lookup_name(r) {
            Some(t) => Self::REG | (t as u8 + 1),
            None => self.undeclared_register_code(r),
        }
    }

    /// The code of an address whose base is a register (`[%rd1+8]`), as
    /// [`Summing::address_base_known`] makes it.
    #[inline]
    fn register_address_code(&mut self, r: &Name) -> u8 {
        if self.s.regs.lookup_name(r).is_some() {
            return Self::ADDR | 1;
        }
        self.undeclared_address_code(r)
    }

    #[cold]
    #[inline(never)]
    fn undeclared_address_code(&mut self, r: &Name) -> u8 {
        Self::ADDR | u8::from(self.address_base_known(&AddrBase::Reg(r.clone())))
    }

    #[cold]
    #[inline(never)]
    fn undeclared_register_code(&mut self, r: &str) -> u8 {
        if is_vector_special(r) {
            return Self::REG | Self::VECTOR_SPECIAL;
        }
        self.unknown |= r != "_";
        Self::REG
    }

    /// A label, variable or function (or a `__` name), or else unknown.
    /// Whether it is a label (without an offset).
    fn symbol(&mut self, name: &str) -> bool {
        let n = symbol_base(name);
        let label = self.s.labels.contains(n);
        let known = label || self.s.vars.contains_key(n) || self.s.knows_function(n);
        self.unknown |= !known && !n.starts_with("__") && n != "_";
        label && n == name
    }

    /// An operand proper (not inside a vector) other than a register, noting its kind.
    #[inline(never)]
    fn top_operand(&mut self, o: &Operand) {
        match o {
            // The symbol's code finds whether it has an offset (the kind's other half).
            Operand::Symbol(n) => {
                self.kinds.symbols = true;
                let code = self.symbol_code(n);
                self.kinds.offset_symbols |= code & Self::PLUS_OFFSET_NAME != 0;
                self.push(code & !Self::PLUS_OFFSET_NAME);
            }
            Operand::Addr {
                base: AddrBase::Symbol(n),
                ..
            } => {
                self.kinds.symbol_addresses = true;
                let code = Self::ADDR | u8::from(self.symbol_address_known(n, true));
                self.push(code);
            }
            _ => {
                self.kinds.note(o);
                self.operand(o, true);
            }
        }
    }

    fn operand(&mut self, o: &Operand, top: bool) {
        let code = match o {
            Operand::Reg(r) => self.register_code(r),
            Operand::NotReg(r) => Self::NOT_REG | self.register(r),
            Operand::PredPair(pair) => {
                let first = self.register(&pair.0);
                self.push(Self::PAIR | first);
                self.register(&pair.1)
            }
            Operand::Imm(_) => Self::VALUE,
            Operand::F32(_) | Operand::F64(_) => Self::VALUE | 1,
            Operand::Sink => Self::VALUE | 2,
            Operand::SpecialReg { name, comp } => {
                let undeclared_vector =
                    comp.is_none() && is_vector_special(name) && self.s.regs.lookup(name).is_none();
                // The sizes it is read as, in bits 1 to 3.
                Self::SPECIAL | u8::from(undeclared_vector) | special_register_sizes(name, *comp)
            }
            Operand::Addr { base, .. } => Self::ADDR | u8::from(self.address_base_known(base)),
            Operand::Symbol(n) => self.symbol_code(n) & !Self::PLUS_OFFSET_NAME,
            Operand::Vector(v) => {
                self.keyed &= top && v.len() < 32;
                self.push(Self::VECTOR | v.len().min(31) as u8);
                let from = self.len;
                v.iter().for_each(|e| self.operand(e, false));
                // Eight elements are no vector of a `mov` (the one opcode here that takes addresses
                // and vectors).
                self.mixed_vectors |= !matches!(v.len(), 1 | 2 | 4 | 8)
                    || (v.len() == 8 && self.takes_address)
                    || !self.one_declared_type(from)
                    || (top && self.vectors);
                self.vectors |= top;
                return;
            }
        };
        self.push(code);
    }

    /// Whether an address's base names something (noting an unknown one).
    fn address_base_known(&mut self, base: &AddrBase) -> bool {
        match base {
            AddrBase::Reg(r) => self.register(r) != 0 || is_known_name(r, self.s),
            AddrBase::Symbol(n) => self.symbol_address_known(n, false),
            AddrBase::None => true,
        }
    }

    /// [`Summing::address_base_known`] of a symbol base `n`; the variable of an operand
    /// proper (`top`) is [`Summing::addressed`] when none was before.
    fn symbol_address_known(&mut self, n: &str, top: bool) -> bool {
        // A variable (the usual base) is known as a symbol too: one look. Its name (as a
        // function's) has no offset.
        let var = self.s.vars.decl(n);
        if top && self.addressed.is_none() {
            self.addressed = var;
        }
        let var_or_function = var.is_some() || self.s.knows_function(n);
        if !var_or_function {
            self.symbol(n);
        }
        var_or_function || n.starts_with("__") || self.s.regs.lookup(n).is_some()
    }

    /// The code of a symbol operand, with [`Summing::PLUS_OFFSET_NAME`] when its name has an
    /// offset (`g+4`). Variables and other names than labels are told apart: ptxas names a
    /// variable where a register belongs, anything but a label where a label does. Each name
    /// is looked up once ([`symbol_is_address`], [`is_variable_plus_offset`] and
    /// [`Summing::symbol`] in one).
    fn symbol_code(&mut self, n: &Name) -> u8 {
        // A label (the usual symbol: `bra L`; its name has no `+`): known, no variable, no offset.
        if self.s.labels.contains_name(n) {
            let address =
                self.takes_address && (self.s.vars.contains_key(n) || self.s.knows_function(n));
            return Self::SYMBOL | u8::from(address);
        }
        let n = n.as_str();
        let base = symbol_base(n);
        let plus = base.len() != n.len();
        let label = plus && self.s.labels.contains(base);
        let variable = self.s.vars.contains_key(base);
        let var_or_function = variable || self.s.knows_function(base);
        let known = label || var_or_function;
        self.unknown |= !known && !base.starts_with("__") && base != "_";
        let address = self.takes_address && (var_or_function || (base.starts_with("__") && !label));
        Self::SYMBOL
            | u8::from(address)
            | u8::from(variable && !plus) << 1
            | 1 << 2
            | u8::from(plus && var_or_function) << 3
            | match plus {
                true => Self::PLUS_OFFSET_NAME,
                false => 0,
            }
    }
}

/// Undeclared registers and unknown names, reported after the function; true if a register is unknown.
/// Cold: valid code names none.
#[cold]
#[inline(never)]
fn unknown_symbols(i: &Instruction, s: &Scope, out: &mut Findings) -> bool {
    let mut unknown = Vec::new();
    i.operands
        .iter()
        .for_each(|o| collect_unknown(o, s, &mut unknown));
    // An undeclared register also makes the operands mismatch; an unknown label alone does not,
    // nor an unknown `%`-named symbol plus offset (`%g+4`). A bare name read as a register (one
    // declared only after this instruction: `checks::order`) is a register too.
    let offset_symbol = |u: &str| {
        i.operands
            .iter()
            .any(|o| matches!(o, Operand::Symbol(n) if symbol_base(n) == u))
    };
    let bare_register = |u: &str| {
        i.operands
            .iter()
            .any(|o| matches!(o, Operand::Reg(n) if n.as_str() == u))
    };
    let any_register = unknown
        .iter()
        .any(|u| (u.starts_with('%') && !offset_symbol(u)) || bare_register(u));
    if let Some((_, p)) = i.guard() {
        if s.regs.lookup(p).is_none() {
            unknown.insert(0, p.to_string());
        }
    }
    for u in unknown {
        out.unknown.push((i.line, u));
    }
    any_register
}

fn collect_unknown(op: &Operand, s: &Scope, out: &mut Vec<String>) {
    let mut reg = |name: &str| {
        if name != "_" && s.regs.lookup(name).is_none() {
            out.push(name.to_string());
        }
    };
    match op {
        Operand::Reg(r) if is_vector_special(r) => {}
        Operand::Reg(r) | Operand::NotReg(r) => reg(r),
        Operand::PredPair(pair) => {
            reg(&pair.0);
            reg(&pair.1);
        }
        Operand::Addr {
            base: AddrBase::Reg(r),
            ..
        } => reg(r),
        Operand::Addr {
            base: AddrBase::Symbol(n),
            ..
        }
        | Operand::Symbol(n) => {
            let n = symbol_base(n);
            if !names_anything(n, s) && !n.starts_with("__") && n != "_" {
                out.push(n.to_string());
            }
        }
        Operand::Vector(v) => v.iter().for_each(|o| collect_unknown(o, s, out)),
        _ => {}
    }
}
