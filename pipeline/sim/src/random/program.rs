//! The random kernel's model: typed variables, statements (instructions, branches, loops, warp-
//! wide steps) and their rendering as a complete PTX module. Every variable is loaded from the
//! input buffer before the body and every observed one stored after it, so deleting any statement
//! (what the reducer does) leaves a valid kernel.

use std::collections::BTreeSet;
use std::fmt::Write;

/// The kinds of register a variable lives in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `.b32` integers.
    R,
    /// `.b64` integers.
    Rd,
    F,
    Fd,
    /// `.b16`: f16 and bf16 values, 16-bit integers.
    H,
    P,
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::R, Kind::Rd, Kind::F, Kind::Fd, Kind::H, Kind::P];

    fn prefix(self) -> &'static str {
        match self {
            Kind::R => "%r",
            Kind::Rd => "%rd",
            Kind::F => "%f",
            Kind::Fd => "%fd",
            Kind::H => "%h",
            Kind::P => "%p",
        }
    }

    fn reg_type(self) -> &'static str {
        match self {
            Kind::R => ".b32",
            Kind::Rd => ".b64",
            Kind::F => ".f32",
            Kind::Fd => ".f64",
            Kind::H => ".b16",
            Kind::P => ".pred",
        }
    }

    fn index(self) -> usize {
        Kind::ALL.iter().position(|&k| k == self).unwrap()
    }

    /// A constant of this kind, for the reducer to put in place of a variable.
    pub fn zero(self) -> &'static str {
        match self {
            Kind::F => "0f3F800000",
            Kind::Fd => "0d3FF0000000000000",
            Kind::P => "",
            _ => "1",
        }
    }
}

/// Variables of one kind per thread at most (the size of a thread's slot in the buffers).
pub const MAX_VARS: usize = 16;
/// Bytes each thread owns in the input and output buffers: 8 per variable, then scratch words
/// for per-thread atomics.
pub const SLOT_BYTES: usize = Kind::ALL.len() * MAX_VARS * 8 + ATOMIC_BYTES;
/// Scratch bytes at the end of a thread's output slot, for atomics on private words.
pub const ATOMIC_BYTES: usize = 64;
/// Bytes after every thread's slot: words all threads reduce into.
pub const SHARED_COUNTERS: usize = 64;
/// Bytes of shared memory each thread owns (and its neighbour reads after a barrier).
pub const SHARED_PER_THREAD: usize = 64;
/// Bytes of the local array each thread owns.
pub const LOCAL_BYTES: usize = 64;
/// The kernel's name.
pub const ENTRY: &str = "rk";

/// One variable: a register of `kind`, numbered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var {
    pub kind: Kind,
    pub n: u8,
}

impl Var {
    pub fn name(self) -> String {
        format!("{}{}", self.kind.prefix(), self.n)
    }

    /// Where the variable's input and output live in its thread's slot.
    fn offset(self) -> usize {
        (self.kind.index() * MAX_VARS + self.n as usize) * 8
    }
}

/// An instruction's operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Src {
    Var(Var),
    /// A literal as PTX writes it (or, for predicates, written in place of the operand).
    Imm(String),
}

impl Src {
    fn text(&self) -> String {
        match self {
            Src::Var(v) => v.name(),
            Src::Imm(t) => t.clone(),
        }
    }
}

/// A few PTX lines that compute one destination from sources: `{d}`, `{0}`, `{1}`, ... in
/// `template` stand for the destination and the sources; `%t*`, `%ta*`, `%tp*` are scratch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub template: String,
    pub dst: Option<Var>,
    pub srcs: Vec<Src>,
    /// `@p` (or `@!p`) on the template's last line.
    pub guard: Option<(Var, bool)>,
}

impl Op {
    pub fn new(template: impl Into<String>, dst: Option<Var>, srcs: Vec<Src>) -> Op {
        Op {
            template: template.into(),
            dst,
            srcs,
            guard: None,
        }
    }

    fn lines(&self) -> Vec<String> {
        let mut text = self.template.clone();
        if let Some(d) = self.dst {
            text = text.replace("{d}", &d.name());
        }
        for (k, s) in self.srcs.iter().enumerate() {
            text = text.replace(&format!("{{{k}}}"), &s.text());
        }
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        if let (Some((p, neg)), Some(last)) = (self.guard, lines.last_mut()) {
            *last = format!("@{}{} {last}", if neg { "!" } else { "" }, p.name());
        }
        lines
    }

    /// Variables read (sources and guard) and written.
    fn vars(&self) -> impl Iterator<Item = Var> + '_ {
        let srcs = self.srcs.iter().filter_map(|s| match s {
            Src::Var(v) => Some(*v),
            Src::Imm(_) => None,
        });
        srcs.chain(self.dst).chain(self.guard.map(|(p, _)| p))
    }
}

/// How many times a loop runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trips {
    Known(u32),
    /// `var & mask` at the loop's entry (possibly different in each thread).
    Data(Var, u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Op(Op),
    /// `if (p != negate) then else els`.
    If {
        cond: Var,
        negate: bool,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    Loop {
        trips: Trips,
        body: Vec<Stmt>,
    },
}

/// A whole random kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub sm: u32,
    pub threads: u32,
    pub body: Vec<Stmt>,
    /// Variables stored to the output after the body (the reducer drops the ones it can).
    pub observed: BTreeSet<Var>,
    /// Float inputs may be NaNs. Off, NaN inputs become 1.5 (f16/bf16: bit 14 cleared), since
    /// PTX leaves NaN payloads and signs through abs, neg, cvt and arithmetic unspecified.
    pub nan_inputs: bool,
}

/// Statements of a body in order, nested ones included.
pub fn walk(body: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in body {
        f(s);
        match s {
            Stmt::Op(_) => {}
            Stmt::If { then, els, .. } => {
                walk(then, f);
                walk(els, f);
            }
            Stmt::Loop { body, .. } => walk(body, f),
        }
    }
}

impl Program {
    /// Bytes each buffer needs.
    pub fn buffer_bytes(&self) -> usize {
        self.threads as usize * SLOT_BYTES + SHARED_COUNTERS
    }

    /// Every variable the kernel names (loaded before the body).
    pub fn vars(&self) -> BTreeSet<Var> {
        let mut vars = self.observed.clone();
        walk(&self.body, &mut |s| match s {
            Stmt::Op(op) => vars.extend(op.vars()),
            Stmt::If { cond, .. } => {
                vars.insert(*cond);
            }
            Stmt::Loop {
                trips: Trips::Data(v, _),
                ..
            } => {
                vars.insert(*v);
            }
            Stmt::Loop { .. } => {}
        });
        vars
    }

    fn uses(&self, needle: &str) -> bool {
        let mut found = false;
        walk(&self.body, &mut |s| {
            if let Stmt::Op(op) = s {
                found |= op.template.contains(needle);
            }
        });
        found
    }

    /// PTX instructions in the body (the prologue and epilogue not counted).
    pub fn body_instructions(&self) -> usize {
        let mut n = 0;
        count(&self.body, &mut n);
        n
    }

    /// PTX instructions in the whole kernel, prologue and epilogue included.
    pub fn instructions(&self) -> usize {
        self.render()
            .lines()
            .map(str::trim)
            .filter(|l| l.ends_with(';') && !l.starts_with('.') && !l.starts_with("//"))
            .count()
    }

    /// The kernel as a PTX module.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let vars = self.vars();
        let _ = writeln!(
            out,
            ".version 8.0\n.target sm_{}\n.address_size 64\n\n.visible .entry {ENTRY}(\n\t.param .u64 {ENTRY}_in,\n\t.param .u64 {ENTRY}_out\n)\n{{",
            self.sm
        );
        for kind in Kind::ALL {
            let _ = writeln!(
                out,
                "\t.reg {} {}<{MAX_VARS}>;",
                kind.reg_type(),
                kind.prefix()
            );
        }
        out.push_str(
            "\t.reg .b32 %t<8>;\n\t.reg .b64 %ta<6>;\n\t.reg .pred %tp<4>;\n\t.reg .b32 %lc<8>;\n\t.reg .b32 %lm<8>;\n\
             \t.reg .b32 %tx, %shb;\n\t.reg .b64 %inb, %in, %outb, %out, %loc;\n",
        );
        if self.uses("%mr") || self.uses("%mf") {
            out.push_str("\t.reg .b32 %mr<10>;\n\t.reg .f32 %mf<8>;\n");
        }
        let shared = self.uses("%shb");
        let local = self.uses("%loc");
        if shared {
            let bytes = SHARED_PER_THREAD * self.threads as usize;
            let _ = writeln!(out, "\t.shared .align 16 .b8 {ENTRY}_sh[{bytes}];");
        }
        if local {
            let _ = writeln!(out, "\t.local .align 16 .b8 {ENTRY}_loc[{LOCAL_BYTES}];");
        }
        self.prologue(&mut out, &vars, shared, local);
        let mut labels = 0;
        render_body(&self.body, 0, &mut labels, &mut out);
        for v in &self.observed {
            let at = v.offset();
            let line = match v.kind {
                Kind::R => format!("st.global.u32 [%out+{at}], {};", v.name()),
                Kind::Rd => format!("st.global.u64 [%out+{at}], {};", v.name()),
                Kind::F => format!("st.global.f32 [%out+{at}], {};", v.name()),
                Kind::Fd => format!("st.global.f64 [%out+{at}], {};", v.name()),
                Kind::H => format!("st.global.b16 [%out+{at}], {};", v.name()),
                Kind::P => format!(
                    "selp.u32 %t0, 1, 0, {};\n\tst.global.u32 [%out+{at}], %t0;",
                    v.name()
                ),
            };
            let _ = writeln!(out, "\t{line}");
        }
        out.push_str("\tret;\n}\n");
        out
    }

    fn prologue(&self, out: &mut String, vars: &BTreeSet<Var>, shared: bool, local: bool) {
        let _ = writeln!(
            out,
            "\tld.param.u64 %inb, [{ENTRY}_in];\n\tcvta.to.global.u64 %inb, %inb;\n\
             \tld.param.u64 %outb, [{ENTRY}_out];\n\tcvta.to.global.u64 %outb, %outb;\n\
             \tmov.u32 %tx, %tid.x;\n\tmul.wide.u32 %ta0, %tx, {SLOT_BYTES};\n\
             \tadd.s64 %in, %inb, %ta0;\n\tadd.s64 %out, %outb, %ta0;"
        );
        for v in vars {
            let at = v.offset();
            let line = match v.kind {
                Kind::R => format!("ld.global.u32 {}, [%in+{at}];", v.name()),
                Kind::Rd => format!("ld.global.u64 {}, [%in+{at}];", v.name()),
                Kind::F => format!("ld.global.f32 {}, [%in+{at}];", v.name()),
                Kind::Fd => format!("ld.global.f64 {}, [%in+{at}];", v.name()),
                Kind::H => format!("ld.global.b16 {}, [%in+{at}];", v.name()),
                Kind::P => format!(
                    "ld.global.u32 %t0, [%in+{at}];\n\tand.b32 %t0, %t0, 1;\n\tsetp.ne.u32 {}, %t0, 0;",
                    v.name()
                ),
            };
            let _ = writeln!(out, "\t{line}");
            if !self.nan_inputs {
                let _ = write!(out, "{}", no_nan(*v, at));
            }
        }
        // Memory contents are raw bits that loads may read as f32: no NaN patterns unless allowed.
        let clear = match self.nan_inputs {
            true => String::new(),
            false => (0..4)
                .map(|k| format!("\tand.b32 %t{k}, %t{k}, -1073741825;\n"))
                .collect(),
        };
        if shared {
            // Each thread fills its own part of shared memory before anyone reads it.
            let _ = writeln!(
                out,
                "\tmov.u32 %shb, {ENTRY}_sh;\n\tmad.lo.u32 %shb, %tx, {SHARED_PER_THREAD}, %shb;"
            );
            for k in 0..SHARED_PER_THREAD / 16 {
                let _ = writeln!(
                    out,
                    "\tld.global.v4.u32 {{%t0, %t1, %t2, %t3}}, [%in+{}];\n{clear}\tst.shared.v4.u32 [%shb+{}], {{%t0, %t1, %t2, %t3}};",
                    16 * k,
                    16 * k
                );
            }
            out.push_str("\tbar.sync 0;\n");
        }
        if local {
            let _ = writeln!(out, "\tmov.u64 %loc, {ENTRY}_loc;");
            for k in 0..LOCAL_BYTES / 16 {
                let _ = writeln!(
                    out,
                    "\tld.global.v4.u32 {{%t0, %t1, %t2, %t3}}, [%in+{}];\n{clear}\tst.local.v4.u32 [%loc+{}], {{%t0, %t1, %t2, %t3}};",
                    16 * k + 64,
                    16 * k
                );
            }
        }
    }
}

/// Lines that replace a NaN input of `v` (loaded from `at`) by a number.
fn no_nan(v: Var, at: usize) -> String {
    let n = v.name();
    match v.kind {
        Kind::F => format!("\tsetp.nan.f32 %tp0, {n}, {n};\n\tselp.f32 {n}, 0f3FC00000, {n}, %tp0;\n"),
        Kind::Fd => format!(
            "\tsetp.nan.f64 %tp0, {n}, {n};\n\tselp.f64 {n}, 0d3FF8000000000000, {n}, %tp0;\n"
        ),
        // An f16 exponent of all ones (and so every bf16 NaN) loses its top bit.
        Kind::H => format!(
            "\tld.global.u32 %t0, [%in+{at}];\n\tand.b32 %t1, %t0, 31744;\n\tsetp.eq.u32 %tp0, %t1, 31744;\n\
             \t@%tp0 and.b32 %t0, %t0, 49151;\n\tcvt.u16.u32 {n}, %t0;\n"
        ),
        _ => String::new(),
    }
}

fn count(body: &[Stmt], n: &mut usize) {
    for s in body {
        match s {
            Stmt::Op(op) => *n += op.lines().len(),
            Stmt::If { then, els, .. } => {
                *n += 3;
                count(then, n);
                count(els, n);
            }
            Stmt::Loop { trips, body } => {
                *n += 4 + matches!(trips, Trips::Data(..)) as usize * 3;
                count(body, n);
            }
        }
    }
}

fn render_body(body: &[Stmt], depth: usize, labels: &mut usize, out: &mut String) {
    for s in body {
        match s {
            Stmt::Op(op) => {
                for line in op.lines() {
                    let _ = writeln!(out, "\t{line}");
                }
            }
            Stmt::If {
                cond,
                negate,
                then,
                els,
            } => {
                *labels += 1;
                let k = *labels;
                // Branch to the else part when the condition does not hold.
                let not = if *negate { "" } else { "!" };
                let _ = writeln!(out, "\t@{not}{} bra $L_else_{k};", cond.name());
                render_body(then, depth + 1, labels, out);
                let _ = writeln!(out, "\tbra $L_end_{k};\n$L_else_{k}:");
                render_body(els, depth + 1, labels, out);
                let _ = writeln!(out, "$L_end_{k}:");
            }
            Stmt::Loop { trips, body } => {
                *labels += 1;
                let k = *labels;
                let (lc, lm) = (format!("%lc{depth}"), format!("%lm{depth}"));
                let limit = match trips {
                    Trips::Known(n) => {
                        let _ = writeln!(out, "\tmov.u32 {lc}, 0;");
                        n.to_string()
                    }
                    Trips::Data(v, mask) => {
                        let _ = writeln!(
                            out,
                            "\tand.b32 {lm}, {}, {mask};\n\tmov.u32 {lc}, 0;\n\tsetp.eq.u32 %tp3, {lm}, 0;\n\t@%tp3 bra $L_end_{k};",
                            v.name()
                        );
                        lm.clone()
                    }
                };
                let _ = writeln!(out, "$L_loop_{k}:");
                render_body(body, depth + 1, labels, out);
                let _ = writeln!(
                    out,
                    "\tadd.u32 {lc}, {lc}, 1;\n\tsetp.lt.u32 %tp3, {lc}, {limit};\n\t@%tp3 bra $L_loop_{k};\n$L_end_{k}:"
                );
            }
        }
    }
}
