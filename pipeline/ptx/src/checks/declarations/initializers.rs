//! Variable initializers against their declarations: the brace levels against the array and
//! vector shape, literal kinds against the type, addresses, predicates in memory.

use super::*;

/// One level of braces in a variable's initializer: a dimension of its array (its length,
/// `None` for `[]`), or its vector (its width).
#[derive(Copy, Clone, PartialEq, Debug)]
pub(super) enum Level {
    Array(Option<u64>),
    Vector(u32),
}

/// The levels of braces a variable's initializer may have, outermost first: one per array
/// dimension of `declarator` (`a[2][3]`), then one for a vector type.
pub(super) fn initializer_levels(v: &VarDecl, declarator: &str) -> Vec<Level> {
    let mut levels: Vec<Level> = declarator
        .split('[')
        .skip(1)
        .map(|d| {
            let length = d.split(']').next().unwrap_or("").trim();
            Level::Array(
                crate::syntax::parser::parse_int(length)
                    .filter(|_| !length.is_empty())
                    .and_then(|n| u64::try_from(n).ok()),
            )
        })
        .collect();
    if v.vector > 1 {
        levels.push(Level::Vector(v.vector));
    }
    levels
}

/// A `{...}` of an initializer: where it closes, how deep it is (1: the outermost)
/// and how many entries it has.
pub(super) struct Braces {
    close: usize,
    depth: usize,
    entries: u64,
}

/// What an initializer holds, in the order of its text: braces (an index into the list of
/// braces) and values (where they start and end, and the depth of the braces around them).
pub(super) enum InitEntry {
    Braces(usize),
    Value {
        start: usize,
        end: usize,
        depth: usize,
    },
}

/// The braces and values of a braced initializer, in the order of the text.
pub(super) fn initializer_entries(init: &str) -> (Vec<Braces>, Vec<InitEntry>) {
    let (mut braces, mut entries, mut open): (Vec<Braces>, Vec<InitEntry>, Vec<usize>) =
        Default::default();
    let mut at = 0;
    while at < init.len() {
        match init.as_bytes()[at] {
            b'{' => {
                if let Some(&parent) = open.last() {
                    braces[parent].entries += 1;
                }
                open.push(braces.len());
                entries.push(InitEntry::Braces(braces.len()));
                braces.push(Braces {
                    close: at,
                    depth: open.len(),
                    entries: 0,
                });
            }
            b'}' => {
                let Some(k) = open.pop() else { break };
                braces[k].close = at;
            }
            b if b == b',' || b.is_ascii_whitespace() => {}
            _ => {
                let end = init[at..]
                    .find([',', '{', '}'])
                    .map_or(init.len(), |k| at + k);
                if let Some(&k) = open.last() {
                    braces[k].entries += 1;
                    entries.push(InitEntry::Value {
                        start: at,
                        end,
                        depth: open.len(),
                    });
                }
                at = end;
                continue;
            }
        }
        at += 1;
    }
    (braces, entries)
}

/// The first problem of a braced initializer `init` (with `values` scalar entries in all), with
/// the byte of `init` whose line ptxas names. ptxas reads the initializer whole, then checks it
/// from the outside in, in the order of the text: each `{...}` first against its level (more
/// entries than an array dimension's length: "Greater number of elements in array initializer";
/// other than a vector's width: "Incorrect number of elements in vector initializer"; at its
/// `}`), then its entries: braces where a value belongs (at their `}`) or a value where braces do
/// (at the token after it) are an "Initial value type mismatch", and each value may have its own
/// problems (`entry_problem`). Braces deeper than that are not looked into.
pub(super) fn initializer_shape(
    levels: &[Level],
    init: &str,
    values: u64,
    entry_problem: &dyn Fn(std::ops::Range<usize>) -> Option<(usize, String)>,
) -> Option<(usize, String)> {
    // The usual flat list of scalars (`.u32 a[4] = {1, 2, 3, 4}`) needs no walk for its shape.
    if let [Level::Array(length)] = levels {
        let flat = init.bytes().filter(|&b| b == b'{').count() == 1;
        if flat && length.is_none_or(|n| values <= n) {
            let open = init.find('{').unwrap_or(0) + 1;
            let close = init.rfind('}').unwrap_or(init.len());
            return entry_problem(open..close.max(open));
        }
    }
    let mismatch = || "Initial value type mismatch".to_string();
    let (braces, entries) = initializer_entries(init);
    let values_at = levels.len();
    for entry in entries {
        match entry {
            InitEntry::Braces(k) => {
                let b = &braces[k];
                if b.depth == values_at + 1 {
                    return Some((b.close, mismatch()));
                }
                match levels.get(b.depth - 1) {
                    Some(Level::Array(Some(n))) if b.entries > *n => {
                        return Some((
                            b.close,
                            "Greater number of elements in array initializer".into(),
                        ))
                    }
                    Some(Level::Vector(w)) if b.entries != u64::from(*w) => {
                        return Some((
                            b.close,
                            "Incorrect number of elements in vector initializer".into(),
                        ))
                    }
                    _ => {}
                }
            }
            InitEntry::Value { start, depth, .. } if depth < values_at => {
                return Some((start, mismatch()))
            }
            InitEntry::Value { start, end, depth } if depth == values_at => {
                if let Some(problem) = entry_problem(start..end) {
                    return Some(problem);
                }
            }
            InitEntry::Value { .. } => {}
        }
    }
    None
}

/// The line of the first token at or after byte `at` (past white space and comments).
pub(super) fn next_token_line(src: &str, mut at: usize) -> Option<u32> {
    loop {
        let rest = src.get(at..)?;
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if let Some(comment) = trimmed.strip_prefix("//") {
            at += 2 + comment.find('\n').unwrap_or(comment.len());
        } else if let Some(comment) = trimmed.strip_prefix("/*") {
            at += 2 + comment.find("*/").map_or(comment.len(), |k| k + 2);
        } else {
            return line_at(src, at);
        }
    }
}

/// Whether an initializer holds only decimal integers and punctuation. Written as folds over
/// 32-byte blocks, without early exits, so that they compile to vector compares; a block is first
/// tried against what nvcc's tables hold (digits, commas, spaces), then byte by byte.
pub(super) fn decimal_only(init: &str) -> bool {
    let common = |b: u8| (b.wrapping_sub(b'0') < 10) | (b == b',') | (b == b' ');
    let allowed = |b: u8| {
        let space = (b == b' ') | (b == b'\n') | (b == b'\r') | (b == b'\t');
        common(b) | space | (b == b'{') | (b == b'}') | (b == b'-') | (b == b';')
    };
    let mut blocks = init.as_bytes().chunks_exact(32);
    let block_allowed = |block: &[u8]| {
        block.iter().fold(true, |all, &b| all & common(b)) || block.iter().all(|&b| allowed(b))
    };
    let whole = blocks.by_ref().all(block_allowed);
    whole && blocks.remainder().iter().all(|&b| allowed(b))
}

/// A numeric literal of the wrong kind for the variable's type.
pub(super) fn literal_mismatch(ty: Type, token: &str) -> bool {
    let float = is_float_literal(token);
    match ty {
        Type::F32 | Type::F64 => !float,
        t if t.is_signed() || matches!(t, Type::U8 | Type::U16 | Type::U32 | Type::U64) => float,
        _ => false,
    }
}

/// What is wrong with a name as an initializer entry (`sym`, or `generic(sym)`), if anything.
pub(super) fn address_problem(token: &str, named: Named, generic: bool) -> Option<String> {
    match named {
        Named::Variable(StateSpace::Global | StateSpace::Const) => None,
        Named::Variable(_) => {
            Some("Variable used as initial value not in .global or .const state space".into())
        }
        Named::Function if !generic => None,
        _ if generic => Some("Invalid initial value expression".into()),
        _ => Some(format!("Invalid initial value symbol '{token}'")),
    }
}

/// `0f3F800000`, `0d...`, `1.5`, `1e3` (not `0x1E`).
pub(super) fn is_float_literal(t: &str) -> bool {
    // Case-insensitive without a lowercased copy per token (array initializers have thousands).
    let b = t.as_bytes();
    let prefix = |p: u8| b.len() >= 2 && b[0] == b'0' && b[1].to_ascii_lowercase() == p;
    if prefix(b'x') {
        return false;
    }
    let hex_float =
        (prefix(b'f') || prefix(b'd')) && b.len() > 2 && b[2..].iter().all(u8::is_ascii_hexdigit);
    hex_float
        || b.iter()
            .any(|&c| c == b'.' || c.eq_ignore_ascii_case(&b'e'))
}

/// `.pred` variables (and ranges of them, `%p<4>`) live only in registers (arrays and vectors of
/// them nowhere: the parser says so).
pub(super) fn predicate_in_memory(v: &VarDecl) -> Option<Finding> {
    let scalar = v.array_len == Some(1) || v.name.ends_with('<');
    (v.ty == Type::Pred && v.space != StateSpace::Reg && scalar && v.vector == 1).then(|| {
        (
            v.line,
            format!(
                "Predicate variable '{}' must be in register state space",
                v.name
            ),
            false,
        )
    })
}
