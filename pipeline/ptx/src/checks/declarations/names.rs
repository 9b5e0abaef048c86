//! Names declared twice in one function: parameters, variables and registers sharing a name
//! (ranges `%r<N>` and their members included), and labels defined twice at the top level.

use super::*;

/// Parameters, variables and registers of one function that share a name (`%r<` for ranges).
/// Names declared inside `{ }` blocks (call sequences' `.param`s) have scopes of their own; a
/// top-level name is defined twice when an earlier top-level one has the same name.
pub fn check_duplicate_names(src: &str, f: &Function) -> Vec<Finding> {
    let mut out = Vec::new();
    // A name and whether it is a range's prefix (`%r<`, told apart from a plain `%r`), with where
    // it is defined (parameters first).
    let definitions = || {
        let vars = f
            .params
            .iter()
            .chain(&f.ret_params)
            .map(|v| ((v.name.as_str(), false), v.line, None, 0));
        let locals = f
            .vars
            .iter()
            .map(|v| (variable_key(v), v.line, Some(v.span), v.name_at));
        let regs = f.regs.iter().filter(|d| !d.scoped).map(|d| {
            (
                (d.name.as_str(), d.count.is_some()),
                d.line,
                None,
                d.span.start,
            )
        });
        vars.chain(locals).chain(regs)
    };
    if !all_distinct(definitions().map(|(name, ..)| name)) {
        let mut tops = TopLevelNames::new(
            src,
            f,
            f.params.len() + f.ret_params.len() + f.vars.len() + f.regs.len(),
        );
        // In source order: the later of two definitions is the duplicate.
        let mut in_order: Vec<_> = definitions().collect();
        in_order.sort_by_key(|&(.., at)| at);
        for (name, line, span, _) in in_order {
            if tops.defined_again(name, span) {
                let (name, range) = name;
                let range = if range { "<" } else { "" };
                out.push((
                    line,
                    format!("Duplicate definition of variable '{name}{range}'"),
                    false,
                ));
            }
        }
    }
    out.extend(range_members_declared(f));
    out
}

/// A name's prefix and number, `%r` and 3 for `%r3` or `%r03` (a member of a range `%r<N>` when
/// the number is below N).
pub fn range_member(name: &str) -> Option<(&str, u64)> {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (prefix, number) = name.split_at(name.len() - digits);
    (digits > 0 && !prefix.is_empty()).then_some(())?;
    Some((prefix, number.parse().ok()?))
}

/// A variable's name among the registers' (a range `%r<4>` is `%r`, told apart as a range).
pub fn variable_key(v: &VarDecl) -> (&str, bool) {
    match (v.range, v.name.strip_suffix('<')) {
        (Some(_), Some(prefix)) => (prefix, true),
        _ => (v.name.as_str(), false),
    }
}

/// Plain registers and variables that a range (of registers or variables) of the same function
/// also declares (`%r1` or `%r01` with `%r<3>`, in either order): reported at the later
/// declaration, naming the plain one.
pub(super) fn range_members_declared(f: &Function) -> Vec<Finding> {
    let regs = f
        .regs
        .iter()
        .filter(|d| !d.scoped)
        .map(|d| (d.name.as_str(), d.count, d.line));
    let vars = f.vars.iter().map(|v| (variable_key(v).0, v.range, v.line));
    members_declared_again(regs.chain(vars))
}

/// Of `(name, range count, line)` declarations in one scope (a range `%r<N>` named by its prefix
/// `%r`), those of plain names that a range's member repeats, at the later line of the two.
pub fn members_declared_again<'a>(
    decls: impl Iterator<Item = (&'a str, Option<u64>, u32)> + Clone,
) -> Vec<Finding> {
    // A range's member ends in a digit: no plain name that does, no member.
    let maybe_member = |(name, count, _): (&str, Option<u64>, u32)| {
        count.is_none() && name.ends_with(|c: char| c.is_ascii_digit())
    };
    if decls.clone().all(|(_, count, _)| count.is_none()) || !decls.clone().any(maybe_member) {
        return Vec::new();
    }
    let ranges = decls
        .clone()
        .filter_map(|(name, count, line)| Some((name, (count?, line))));
    // A function's few ranges are looked through (the latest of a prefix wins, as in a map);
    // a module's many are hashed.
    let mut few = [("", (0, 0)); FEW_RANGES];
    let mut count = 0;
    for r in ranges.clone() {
        if let Some(slot) = few.get_mut(count) {
            *slot = r;
        }
        count += 1;
    }
    let many: FastMap<&str, (u64, u32)> = match count > FEW_RANGES {
        true => ranges.collect(),
        false => FastMap::default(),
    };
    let range = |prefix: &str| match many.is_empty() {
        true => few[..count]
            .iter()
            .rev()
            .find(|r| r.0 == prefix)
            .map(|r| r.1),
        false => many.get(prefix).copied(),
    };
    let member_of = |name: &str| {
        let (prefix, number) = range_member(name)?;
        let (n, line) = range(prefix)?;
        (number < n).then_some(line)
    };
    decls
        .filter(|(_, count, _)| count.is_none())
        .filter_map(|(name, _, line)| {
            member_of(name).map(|range_line| {
                (
                    range_line.max(line),
                    format!("Duplicate definition of variable '{name}'"),
                    false,
                )
            })
        })
        .collect()
}

/// Up to how many ranges [`members_declared_again`] looks through without hashing.
pub(super) const FEW_RANGES: usize = 8;

/// Labels defined twice at the function's top level (`{ }` blocks have labels of their own).
pub fn check_duplicate_labels(src: &str, f: &Function) -> Vec<Finding> {
    let labels = || {
        f.body.iter().filter_map(|s| match s {
            Statement::Label { name, line, span } => Some((name.as_str(), *line, *span)),
            Statement::Instr(_) => None,
        })
    };
    if all_distinct(labels().map(|(name, _, _)| name)) {
        return Vec::new();
    }
    let mut tops = TopLevelNames::new(src, f, labels().count());
    let mut out = Vec::new();
    for (name, line, span) in labels() {
        if tops.defined_again(name, Some(span)) {
            out.push((
                line,
                format!("Duplicate definition of label '{name}'"),
                false,
            ));
        }
    }
    out
}

/// Whether no two of `keys` are equal, told by sorting their hashes (cheaper than a map for a
/// function's few names): distinct hashes are distinct keys, and two equal hashes (a name defined
/// twice, or rarely a collision) send the caller to the exact check.
pub(super) fn all_distinct<K: std::hash::Hash + Eq + Copy>(
    keys: impl Iterator<Item = K> + Clone,
) -> bool {
    use std::hash::BuildHasher;
    // A function's few names are compared pair by pair (most differ in length), unhashed.
    if keys.clone().nth(FEW_COMPARED).is_none() {
        let mut few = [None; FEW_COMPARED];
        for (k, key) in keys.enumerate() {
            if few[..k].contains(&Some(key)) {
                return false;
            }
            few[k] = Some(key);
        }
        return true;
    }
    let hasher = std::hash::BuildHasherDefault::<FastHasher>::default();
    let mut few = [0u64; FEW_KEYS];
    let mut count = 0;
    let mut many = Vec::new();
    for key in keys {
        let hash = hasher.hash_one(key);
        match few.get_mut(count) {
            Some(slot) => *slot = hash,
            None => many.push(hash),
        }
        count += 1;
    }
    let hashes = match count <= FEW_KEYS {
        true => &mut few[..count],
        false => {
            many.extend_from_slice(&few);
            &mut many[..]
        }
    };
    hashes.sort_unstable();
    hashes.windows(2).all(|pair| pair[0] != pair[1])
}

/// Up to how many keys [`all_distinct`] compares pair by pair.
pub(super) const FEW_COMPARED: usize = 8;

/// Up to how many keys [`all_distinct`] sorts on the stack.
pub(super) const FEW_KEYS: usize = 64;

/// Names defined in one function, in order, and whether one was defined at the top level. Only a
/// name seen twice needs to know where its definitions lie, so most functions never scan for
/// braces.
pub(super) struct TopLevelNames<'a, K> {
    depths: BraceDepths<'a>,
    /// Per name: its first definition's place (None: top level by kind, e.g. a parameter), whether
    /// that was looked at, and whether any definition so far was at the top level.
    seen: FastMap<K, (Option<Span>, bool, bool)>,
}

impl<'a, K: std::hash::Hash + Eq> TopLevelNames<'a, K> {
    /// For about `count` names.
    fn new(src: &'a str, f: &Function, count: usize) -> Self {
        let seen = FastMap::with_capacity_and_hasher(count, Default::default());
        TopLevelNames {
            depths: BraceDepths::lazy(src, f),
            seen,
        }
    }

    /// Records a definition of `name` at `span`; true when it is at the top level and an earlier
    /// one was too.
    fn defined_again(&mut self, name: K, span: Option<Span>) -> bool {
        let Some(entry) = self.seen.get_mut(&name) else {
            self.seen.insert(name, (span, false, false));
            return false;
        };
        let depths = &mut self.depths;
        let mut top =
            |at: Option<Span>| at.is_none_or(|s| depths.src.is_empty() || depths.top_level(s));
        if !entry.1 {
            entry.1 = true;
            entry.2 = top(entry.0);
        }
        let here = top(span);
        let again = here && entry.2;
        entry.2 |= here;
        again
    }
}

/// The `{ }` nesting inside one function, found with one scan of its text the first time it is
/// asked (most functions never need it): where each brace is and the depth after it. Braces
/// after `//` on a line do not count.
pub(super) struct BraceDepths<'a> {
    src: &'a str,
    start: usize,
    end: usize,
    braces: Option<Vec<(u32, i32)>>,
}

impl<'a> BraceDepths<'a> {
    fn lazy(src: &'a str, f: &Function) -> BraceDepths<'a> {
        BraceDepths {
            src,
            start: f.span.start as usize,
            end: f.span.end as usize,
            braces: None,
        }
    }

    fn scan(&self) -> Vec<(u32, i32)> {
        let bytes = self.src.as_bytes();
        let end = self.end.min(bytes.len());
        let (mut depth, mut out) = (0i32, Vec::new());
        let mut k = self.start.min(end);
        while k < end {
            // 16 bytes at a time while none is a brace or a slash (vector compares), then
            // straight to the first one.
            if let Some(block) = bytes[k..end].first_chunk::<16>() {
                let marks = |b: &u8| (*b == b'{') | (*b == b'}') | (*b == b'/');
                if !block.iter().fold(false, |any, b| any | marks(b)) {
                    k += 16;
                    continue;
                }
                k += block.iter().position(marks).unwrap_or(0);
            }
            match bytes[k] {
                // A `//` comment: its braces do not count, up to the end of the line.
                b'/' if bytes.get(k + 1) == Some(&b'/') => {
                    k += bytes[k..end]
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(end - k);
                }
                b'{' => {
                    depth += 1;
                    out.push((k as u32, depth));
                }
                b'}' => {
                    depth -= 1;
                    out.push((k as u32, depth));
                }
                _ => {}
            }
            k += 1;
        }
        out
    }

    /// Whether `at` lies directly in the function body, not in a nested `{ }` block.
    fn top_level(&mut self, at: Span) -> bool {
        let at = at.start as usize;
        if at < self.start || self.src.get(self.start..at).is_none() {
            return true;
        }
        if self.braces.is_none() {
            self.braces = Some(self.scan());
        }
        let braces = self.braces.as_deref().unwrap_or_default();
        let before = braces.partition_point(|&(offset, _)| (offset as usize) < at);
        before == 0 || braces[before - 1].1 <= 1
    }
}
