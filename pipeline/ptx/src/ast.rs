//! The PTX abstract syntax tree: modules, functions, declarations and generic instructions.
//!
//! Instructions are kept generic (opcode + dot-modifiers + operands); checking what each opcode
//! accepts is the job of lowering and validation, not of the tree's shape.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

pub use crate::syntax::name::Name;

/// A byte range `start..end` of the module's text (the node's first and past-its-last byte).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

/// A whole `.ptx` module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// `.version major.minor`.
    pub version: (u32, u32),
    /// `.target` architecture, e.g. `sm_80`.
    pub target: String,
    pub address_size: u32,
    pub globals: Vec<VarDecl>,
    pub functions: Vec<Function>,
    /// `.alias` directives, in source order.
    pub aliases: Vec<Alias>,
    /// `.file` directives, in source order.
    pub files: Vec<FileDirective>,
    /// `.loc` directives, in source order.
    pub locs: Vec<LocDirective>,
    /// The labels declared in `.section` blocks (`$L__info_string0:`), in source order.
    pub section_labels: Vec<String>,
    /// Warnings and infos about a module that is otherwise valid (ptxas's order: those with a line
    /// first).
    pub warnings: Vec<crate::diag::Diagnostic>,
}

/// `.file 1 "a.cu"`: a source file's index, with the line ptxas names for the directive (that
/// of the token after it when it could go on, its reader looking ahead for a comma).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileDirective {
    pub index: u64,
    pub line: u32,
    /// The file's name as the directive writes it, without the quotes (`-lineinfo`'s file table).
    pub name: String,
}

/// `.loc 1 12 5[, function_name $L, inlined_at 1 40 3]`: a source location (file, line, column),
/// the label naming the inlined function (without an offset) and the location it was inlined at
/// with the line of its last number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocDirective {
    pub at: [u64; 3],
    pub function_name: Option<String>,
    pub inlined_at: Option<([u64; 3], u32)>,
    /// Whether an instruction follows before the next `.loc` or the function's end (a `.loc`
    /// that none follows describes nothing).
    pub describes_instruction: bool,
    /// The PTX line of the directive: it describes the instructions of its function on the lines
    /// after it, up to the next `.loc` (`-lineinfo`'s line tables).
    pub line: u32,
}

/// `.alias fAlias, fAliasee;`: a declared function that names another function's body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Alias {
    pub name: String,
    pub aliasee: String,
    pub line: u32,
}

/// PTX fundamental types.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    Pred,
}

impl Type {
    /// Parses a type modifier without its dot (`u32`).
    pub fn from_mod(s: &str) -> Option<Type> {
        use Type::*;
        Some(match s {
            "b8" => B8,
            "b16" => B16,
            "b32" => B32,
            "b64" => B64,
            "b128" => B128,
            "u8" => U8,
            "u16" => U16,
            "u32" => U32,
            "u64" => U64,
            "s8" => S8,
            "s16" => S16,
            "s32" => S32,
            "s64" => S64,
            "f16" => F16,
            "f16x2" => F16x2,
            "bf16" => BF16,
            "bf16x2" => BF16x2,
            "f32" => F32,
            "f64" => F64,
            "pred" => Pred,
            _ => return None,
        })
    }

    /// The type modifier without its dot (`u32`), as [`Type::from_mod`] reads it.
    pub fn name(self) -> &'static str {
        use Type::*;
        match self {
            B8 => "b8",
            B16 => "b16",
            B32 => "b32",
            B64 => "b64",
            B128 => "b128",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            S8 => "s8",
            S16 => "s16",
            S32 => "s32",
            S64 => "s64",
            F16 => "f16",
            F16x2 => "f16x2",
            BF16 => "bf16",
            BF16x2 => "bf16x2",
            F32 => "f32",
            F64 => "f64",
            Pred => "pred",
        }
    }

    pub fn size_bytes(self) -> u32 {
        use Type::*;
        match self {
            B8 | U8 | S8 | Pred => 1,
            B16 | U16 | S16 | F16 | BF16 => 2,
            B32 | U32 | S32 | F32 | F16x2 | BF16x2 => 4,
            B64 | U64 | S64 | F64 => 8,
            B128 => 16,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            Type::F16 | Type::F16x2 | Type::BF16 | Type::BF16x2 | Type::F32 | Type::F64
        )
    }
}

/// State spaces of variables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Param,
    Shared,
    Global,
    Const,
    Local,
}

/// A variable declaration (`.shared .align 4 .b8 tile[512];`, `.param .u64 p`, `.global ...`):
/// one per declarator, so `.global .u32 a, b = 1;` gives two that share their specifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub space: StateSpace,
    pub name: String,
    pub ty: Type,
    /// `.align N` (0 = natural alignment of the type).
    pub align: u32,
    /// Array length (`[N]`), 1 for scalars; `None` for `[]`.
    pub array_len: Option<u64>,
    /// Whether it is declared an array (`[N]`, `[1]` too), not a scalar.
    pub is_array: bool,
    /// `.v2`/`.v4` vector width, 1 for scalars.
    pub vector: u32,
    /// The line ptxas names for this declarator: that of the token after its name.
    pub line: u32,
    /// The line of the type (`.u64`), where ptxas reports a vector type too large.
    pub type_line: u32,
    /// From the statement's first token (a linkage directive or the state space) to the end of
    /// this declarator, without the `,` or `;` after it: the declarators of one statement share
    /// its start.
    pub span: Span,
    /// Where the statement's specifiers end (after its type, or a parameter's `.ptr ...`).
    pub specifiers_end: u32,
    /// Where this declarator (its name) starts.
    pub name_at: u32,
    /// Initializer values, if any (integers as written; floats as bits).
    pub init: Vec<i128>,
    /// `.ptr [.space] [.align N]` of a kernel parameter: what it points to.
    pub pointee: Option<Pointee>,
    /// `Some(N)` for a range, `%r<N>` (named `%r<`): it declares the variables `%r0 .. %r{N-1}`.
    pub range: Option<u64>,
}

/// What a kernel's pointer parameter points to (`.ptr .global .align 16`), as ptxas records it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pointee {
    /// `None`: a generic address.
    pub space: Option<StateSpace>,
    /// `.align N` after `.ptr` (0: none given).
    pub align: u32,
}

impl VarDecl {
    /// The specifiers this declarator shares with the others of its statement: linkage, state
    /// space, alignment, vector width and type (`.extern .shared .align 8 .b8`).
    pub fn specifiers(&self) -> Span {
        Span {
            start: self.span.start,
            end: self.specifiers_end.max(self.span.start),
        }
    }

    /// This declarator alone: its name, array lengths and initializer (`tile[4] = {1, 2, 3, 4}`).
    pub fn declarator(&self) -> Span {
        Span {
            start: self.name_at.max(self.span.start),
            end: self.span.end,
        }
    }

    /// Size in bytes of the whole variable.
    pub fn size_bytes(&self) -> u64 {
        self.ty.size_bytes() as u64 * self.vector as u64 * self.array_len.unwrap_or(0)
    }

    /// Alignment in bytes.
    pub fn alignment(&self) -> u32 {
        if self.align > 0 {
            self.align
        } else {
            self.ty.size_bytes() * self.vector
        }
    }
}

/// A `.reg` declaration: `%r<N>` declares `%r0 .. %r{N-1}` without materialising them.
#[derive(Clone, Debug, PartialEq)]
pub struct RegDecl {
    pub name: String,
    pub ty: Type,
    pub vector: u32,
    /// `Some(N)` for the parameterised form `name<N>`.
    pub count: Option<u64>,
    pub line: u32,
    /// The whole `.reg` statement (shared by the names it declares).
    pub span: Span,
    /// Declared in a nested `{ }` scope (may shadow or repeat an outer name).
    pub scoped: bool,
}

/// A `.entry` or `.func`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    pub name: String,
    pub is_entry: bool,
    pub visible: bool,
    pub is_extern: bool,
    pub params: Vec<VarDecl>,
    pub ret_params: Vec<VarDecl>,
    pub regs: Vec<RegDecl>,
    /// Function-scope `.shared` / `.local` / `.const` variables.
    pub vars: Vec<VarDecl>,
    pub body: Vec<Statement>,
    /// Performance directives (`.maxntid`, `.reqntid`, `.maxnreg`, `.minnctapersm`, ...) with values.
    pub directives: Vec<(String, Vec<u64>)>,
    /// Span of each entry of `directives` (same order).
    pub directive_spans: Vec<Span>,
    /// Line of each entry of `directives` (same order).
    pub directive_lines: Vec<u32>,
    pub line: u32,
    /// From the first linkage directive to the closing `}` (or `;` of a declaration).
    pub span: Span,
    /// Whether the function has a body (`.extern` declarations don't).
    pub has_body: bool,
    /// Set only when a declaration follows an instruction of its `{ }` block, so that a name may
    /// be used before it is declared (ptxas reads a body in order: see `checks::order`): the body's
    /// nested blocks, each from its `{` to its `}`. None for nearly every function.
    pub declared_late: Option<Box<[Span]>>,
}

impl Function {
    /// The declared type of register `name` (e.g. `%r12`), resolving `%r<N>` ranges.
    pub fn reg_type(&self, name: &str) -> Option<Type> {
        RegTable::new(&self.regs).lookup(name)
    }
}

/// The symbol an operand names: `g` for `g` and for `g+4` (a symbol plus offset, see
/// [`Operand::Symbol`]).
pub fn symbol_base(name: &str) -> &str {
    name.split_once('+').map_or(name, |(base, _)| base)
}

/// `%r1` for a zero-padded register name `%r01` or `%r00` (prefix and number); `None` otherwise.
pub fn zero_padded_number(name: &str) -> Option<String> {
    let (prefix, num) = zero_padded_split(name)?;
    let unpadded = num.trim_start_matches('0');
    Some(format!(
        "{prefix}{}",
        if unpadded.is_empty() { "0" } else { unpadded }
    ))
}

/// A name's prefix and its zero-padded number of two or more digits (`%r01` → `%r`, `01`), found
/// without allocating (the parser asks it of every register it reads).
pub fn zero_padded_split(name: &str) -> Option<(&str, &str)> {
    let b = name.as_bytes();
    // The usual `%r12`, `%rd3`: one digit, or a first digit that isn't 0, answered early.
    if b.len() < 3 || !b[b.len() - 2].is_ascii_digit() {
        return None;
    }
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let (prefix, num) = name.split_at(name.len() - digits);
    (digits >= 2 && !prefix.is_empty() && num.starts_with('0')).then_some((prefix, num))
}

/// Fast lookup of declared registers, including parameterised ranges.
pub struct RegTable<'a> {
    exact: FastMap<&'a str, Type>,
    /// `%r<N>` ranges by prefix: a short list scanned in order (a function has a handful of
    /// prefixes, cheaper to compare than to hash), or a map when there are many.
    ranges: Ranges<'a>,
}

/// Register ranges by prefix (the latest declaration of a prefix wins, as in a map).
enum Ranges<'a> {
    Few(Vec<(&'a str, Type, u64)>),
    Many(FastMap<&'a str, (Type, u64)>),
}

/// Most range prefixes kept in a list.
const FEW_RANGES: usize = 12;

impl<'a> Ranges<'a> {
    fn insert(&mut self, prefix: &'a str, ty: Type, n: u64) {
        match self {
            Ranges::Few(list) => {
                if let Some(entry) = list.iter_mut().find(|(p, ..)| *p == prefix) {
                    *entry = (prefix, ty, n);
                } else if list.len() < FEW_RANGES {
                    list.push((prefix, ty, n));
                } else {
                    let mut map: FastMap<&'a str, (Type, u64)> =
                        list.iter().map(|&(p, t, n)| (p, (t, n))).collect();
                    map.insert(prefix, (ty, n));
                    *self = Ranges::Many(map);
                }
            }
            Ranges::Many(map) => {
                map.insert(prefix, (ty, n));
            }
        }
    }

    #[inline]
    fn get(&self, prefix: &str) -> Option<(Type, u64)> {
        match self {
            Ranges::Few(list) => list
                .iter()
                .find(|(p, ..)| p.len() == prefix.len() && *p == prefix)
                .map(|&(_, t, n)| (t, n)),
            Ranges::Many(map) => map.get(prefix).copied(),
        }
    }
}

impl<'a> RegTable<'a> {
    pub fn new(decls: &'a [RegDecl]) -> RegTable<'a> {
        let mut exact = FastMap::default();
        let mut ranges = Ranges::Few(Vec::new());
        for d in decls {
            match d.count {
                Some(n) => ranges.insert(d.name.as_str(), d.ty, n),
                None => {
                    exact.insert(d.name.as_str(), d.ty);
                }
            }
        }
        RegTable { exact, ranges }
    }

    /// Adds a function's `.reg` parameters (`.func (.reg .b32 %r) f(.reg .b32 %a)`): registers of
    /// the body like any declared one.
    pub fn add_reg_params(&mut self, params: impl Iterator<Item = &'a VarDecl>) {
        for p in params.filter(|p| p.space == StateSpace::Reg) {
            self.exact.insert(p.name.as_str(), p.ty);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Type> {
        if !self.exact.is_empty() {
            if let Some(t) = self.exact.get(name) {
                return Some(*t);
            }
        }
        let bytes = name.as_bytes();
        let digits = bytes
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits == name.len() {
            return None;
        }
        let (prefix, num) = bytes.split_at(bytes.len() - digits);
        let (ty, n) = self.ranges.get(&name[..prefix.len()])?;
        // ptxas reads the number, so `%r01` is `%r1` of `%r<N>` (but not of a plain `%r1`).
        let idx = decimal(num)?;
        (idx < n).then_some(ty)
    }

    /// Whether `name` is declared as itself (not as a member of a range).
    pub fn is_exact(&self, name: &str) -> bool {
        self.exact.contains_key(name)
    }
}

/// The value of ASCII decimal digits; `None` past `u64::MAX`.
#[inline]
fn decimal(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |v, d| {
        v.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// A hash map with [`FastHasher`]. Its order varies per process: look up, never iterate into output.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
/// A hash set with [`FastHasher`].
pub type FastSet<K> = std::collections::HashSet<K, BuildHasherDefault<FastHasher>>;

/// A multiply-rotate hasher over 8-byte words (the FxHash scheme), much cheaper than SipHash
/// on the short register, label and symbol names the front end looks up. It starts from a
/// per-process random seed and folds the high product bits into the bucket bits at the end, so
/// crafted names cannot be made to share buckets (no quadratic probing on hostile input).
#[derive(Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

impl Default for FastHasher {
    #[inline]
    fn default() -> FastHasher {
        use std::sync::atomic::{AtomicU64, Ordering};
        // One relaxed load once set (racing first uses may each draw a seed; the first stored
        // stays, as every hasher must start alike).
        static SEED: AtomicU64 = AtomicU64::new(0);
        let seed = match SEED.load(Ordering::Relaxed) {
            0 => first_seed(&SEED),
            seed => seed,
        };
        FastHasher { hash: seed }
    }
}

/// The per-process seed of [`FastHasher`], drawn on first use and stored in `slot` (never 0);
/// a seed stored already by another thread wins.
#[cold]
#[inline(never)]
fn first_seed(slot: &std::sync::atomic::AtomicU64) -> u64 {
    use std::hash::BuildHasher;
    use std::sync::atomic::Ordering;
    let drawn = std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64) | 1;
    match slot.compare_exchange(0, drawn, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => drawn,
        Err(stored) => stored,
    }
}

impl FastHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            self.add(prefix_word(rest));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    /// Two words, as [`Hasher::write`] takes the value's bytes (the same hash, sooner).
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

/// The first 8 bytes (or fewer) as a little-endian word, zero-padded: two loads that may
/// overlap (their common bytes are the same, so or-ing them is exact) instead of a byte loop.
#[inline]
pub(crate) fn prefix_word(bytes: &[u8]) -> u64 {
    let b = &bytes[..bytes.len().min(8)];
    let n = b.len();
    let half = |at: usize| u64::from(u16::from_le_bytes([b[at], b[at + 1]]));
    let word = |at: usize| u64::from(u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]));
    match n {
        0 => 0,
        1 => u64::from(b[0]),
        2..=3 => half(0) | half(n - 2) << (8 * (n - 2)),
        4..=7 => word(0) | word(n - 4) << (8 * (n - 4)),
        _ => word(0) | word(4) << 32,
    }
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Label { name: Name, line: u32, span: Span },
    Instr(Instruction),
}

impl Statement {
    /// The instruction, when this is one.
    #[inline]
    pub fn as_instr(&self) -> Option<&Instruction> {
        match self {
            Statement::Instr(i) => Some(i),
            Statement::Label { .. } => None,
        }
    }
}

/// One instruction: `@!%p1 ld.global.nc.f32 %f1, [%rd2+4];`.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The opcode and its modifiers, shared with every instruction of the section written alike.
    pub form: Arc<Form>,
    /// The operands, and the guard predicate kept with them ([`Instruction::guard`]).
    pub operands: Operands,
    pub line: u32,
    /// From the guard (or opcode) to the `;`.
    pub span: Span,
}

/// An opcode with its dot-modifiers (`ld.global.nc.f32`). A module has few distinct ones, so the
/// parser makes each once ([`crate::syntax::forms::FormTable`]) and instructions share it: no modifier
/// list per instruction, and checks that depend only on the form can be kept per form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    pub opcode: Name,
    /// Dot-modifiers in source order, without the dots (`global`, `nc`, `f32`).
    pub mods: Box<[Name]>,
}

impl Instruction {
    /// The guard predicate: `(negated, name)` for `@!%p`.
    #[inline]
    pub fn guard(&self) -> Option<(bool, &Name)> {
        match self.operands.guard_operand()? {
            Operand::NotReg(p) => Some((true, p)),
            Operand::Reg(p) => Some((false, p)),
            _ => None,
        }
    }

    #[inline]
    pub fn opcode(&self) -> &str {
        &self.form.opcode
    }

    /// Dot-modifiers in source order, without the dots (`global`, `nc`, `f32`).
    #[inline]
    pub fn mods(&self) -> &[Name] {
        &self.form.mods
    }

    pub fn has_mod(&self, m: &str) -> bool {
        self.mods().iter().any(|x| x == m)
    }

    /// The last type modifier (`ld.global.f32` → F32), the usual "instruction type".
    pub fn ty(&self) -> Option<Type> {
        self.mods().iter().rev().find_map(|m| Type::from_mod(m))
    }

    /// All type modifiers in order (`cvt.s64.s32` → [S64, S32]).
    pub fn types(&self) -> Vec<Type> {
        self.mods()
            .iter()
            .filter_map(|m| Type::from_mod(m))
            .collect()
    }
}

/// An instruction's operands: its run of the operand block that the instructions of its function
/// share (the parser makes one allocation per function, not one per instruction), the guard
/// predicate first when there is one (as `Reg`, or `NotReg` for `@!%p`). Reads as a slice of the
/// operands proper; [`Operands::new`] gives an instruction a block of its own.
#[derive(Clone, Default)]
pub struct Operands {
    /// `None` while the parser has not yet moved the function's operands into their block, and for
    /// an instruction with neither operands nor guard.
    block: Option<Arc<[Operand]>>,
    /// Where the operands proper start in the block (the guard, if any, just before).
    start: u32,
    /// How many operands there are (the guard not counted), in the low 31 bits; the top bit says
    /// whether the guard comes before them. (A text under 4 GiB has fewer than 2^31 operands:
    /// each takes at least two bytes.)
    len_and_guard: u32,
}

/// The guard bit of [`Operands::len_and_guard`].
const GUARDED: u32 = 1 << 31;

impl Operands {
    /// `operands` guarded by `guard` (`(negated, predicate)`), in a block of their own.
    pub fn new(guard: Option<(bool, Name)>, operands: Vec<Operand>) -> Operands {
        let guard = guard.map(|(negated, p)| {
            if negated {
                Operand::NotReg(p)
            } else {
                Operand::Reg(p)
            }
        });
        let guarded = guard.is_some();
        let all: Vec<Operand> = guard.into_iter().chain(operands).collect();
        let mut ops = Operands::pending(0, all.len(), guarded);
        ops.place_in(&Arc::from(all));
        ops
    }

    /// Operands `first..first + count` of a block made later ([`Operands::place_in`]), the first
    /// of them the guard when `guarded`.
    pub(crate) fn pending(first: usize, count: usize, guarded: bool) -> Operands {
        let len = count - usize::from(guarded);
        assert!(
            first + count <= u32::MAX as usize && len < GUARDED as usize,
            "more operands than a text under 4 GiB holds"
        );
        let start = (first + usize::from(guarded)) as u32;
        Operands {
            block: None,
            start,
            len_and_guard: len as u32 | if guarded { GUARDED } else { 0 },
        }
    }

    /// Where pending operands (the guard included) lie in the block to be made.
    pub(crate) fn pending_range(&self) -> std::ops::Range<usize> {
        let first = self.start as usize - usize::from(self.is_guarded());
        first..self.start as usize + self.count()
    }

    /// Points pending operands into `block`, the function's operands now in place.
    pub(crate) fn place_in(&mut self, block: &Arc<[Operand]>) {
        assert!(
            self.start as usize + self.count() <= block.len(),
            "operands past their block"
        );
        if self.count() > 0 || self.is_guarded() {
            self.block = Some(block.clone());
        }
    }

    /// How many operands there are, the guard not counted (what `len` says once placed).
    #[inline]
    fn count(&self) -> usize {
        (self.len_and_guard & !GUARDED) as usize
    }

    #[inline]
    fn is_guarded(&self) -> bool {
        self.len_and_guard & GUARDED != 0
    }

    /// The guard predicate, as an operand.
    #[inline]
    fn guard_operand(&self) -> Option<&Operand> {
        match &self.block {
            Some(block) if self.is_guarded() => block.get(self.start as usize - 1),
            _ => None,
        }
    }
}

impl std::ops::Deref for Operands {
    type Target = [Operand];

    #[inline]
    fn deref(&self) -> &[Operand] {
        let len = self.count();
        match &self.block {
            // SAFETY: `block` is only ever set (by `place_in`, the fields being private) to a
            // block that holds `start..start + len`, as it checks.
            Some(block) => unsafe {
                block.get_unchecked(self.start as usize..self.start as usize + len)
            },
            None => &[],
        }
    }
}

impl<'a> IntoIterator for &'a Operands {
    type Item = &'a Operand;
    type IntoIter = std::slice::Iter<'a, Operand>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Operands {
    /// Guards and operands alike.
    fn eq(&self, other: &Operands) -> bool {
        self.guard_operand() == other.guard_operand() && **self == **other
    }
}

impl std::fmt::Debug for Operands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.guard_operand() {
            Some(guard) => write!(f, "@{guard:?} {:?}", &**self),
            None => (**self).fmt(f),
        }
    }
}

/// Base of a memory operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddrBase {
    Reg(Name),
    Symbol(Name),
    /// `[imm]`: an absolute address.
    None,
}

/// The single-precision bits ptxas makes of a double-precision literal (`0d...` or decimal)
/// where a 32-bit float is wanted: rounded to nearest, overflowing to infinity; a NaN keeps its
/// sign and the top of its payload, and is made quiet.
pub fn narrow_f64_literal(bits: u64) -> u32 {
    let value = f64::from_bits(bits);
    if value.is_nan() {
        let sign = (bits >> 63) as u32;
        return sign << 31 | 0x7fc0_0000 | ((bits >> 29) as u32 & 0x003f_ffff);
    }
    (value as f32).to_bits()
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register (`%r1`, `%p2`, `%rd3`).
    Reg(Name),
    /// A special register with its component (`%tid.x` → name `%tid`, comp `Some('x')`).
    SpecialReg { name: Name, comp: Option<char> },
    /// An integer immediate (negative values keep their sign).
    Imm(i128),
    /// `0fXXXXXXXX`: exact single-precision bits. Where a 64-bit float is wanted, ptxas takes
    /// the bits zero-extended (not the value).
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX` or a decimal float (`1.5`, `1e-3`): a double-precision value, which
    /// ptxas narrows by value where a 32-bit float is wanted ([`narrow_f64_literal`]).
    F64(u64),
    /// `[base+offset]`.
    Addr { base: AddrBase, offset: i64 },
    /// A label or variable name; `name+offset` for a symbol plus a byte offset (`g+4`).
    Symbol(Name),
    /// `{%r1, %r2}`.
    Vector(Vec<Operand>),
    /// `_`.
    Sink,
    /// `%p|%q` (setp's two results; boxed, as it is rare, to keep every operand at 32 bytes).
    PredPair(Box<(Name, Name)>),
    /// `!%p` (a negated predicate source).
    NotReg(Name),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values seen in ptxas 13.5's code for `mov.f32 %f, 0d...`.
    #[test]
    fn double_literals_narrow_as_ptxas_narrows_them() {
        for (double, single) in [
            (0x3FF8_0000_0000_0001, 0x3fc0_0000),
            (0x3FF0_0000_3000_0000, 0x3f80_0002),
            (0x47F0_0000_0000_0000, 0x7f80_0000),
            (0x7FF8_0000_0000_0001, 0x7fc0_0000),
            (0x7FF4_0000_0000_0000, 0x7fe0_0000),
            (0xFFF0_0000_0000_0001, 0xffc0_0000),
        ] {
            assert_eq!(narrow_f64_literal(double), single, "{double:#x}");
        }
    }

    /// The tree's memory is most of the front end's time (fresh pages are zeroed by the kernel):
    /// these sizes are what keep it near three and a half times the input (the corpus; 4.7x for
    /// `parse_bench`'s generated module of small kernels).
    #[test]
    fn nodes_stay_small() {
        assert_eq!(std::mem::size_of::<Operand>(), 32);
        assert!(
            std::mem::size_of::<Instruction>() <= 48,
            "{}",
            std::mem::size_of::<Instruction>()
        );
        assert_eq!(
            std::mem::size_of::<Statement>(),
            std::mem::size_of::<Instruction>()
        );
    }
}
