//! Module-level checks with ptxas's messages: `.version`/`.target` and its options, `.file`
//! indexes and `.loc ... inlined_at` locations, the debug sections of a `.target debug` module, and
//! performance directives. Declarations (of variables, functions, registers and labels) are checked
//! in `declarations.rs`.

use crate::ast::*;
use crate::isa;

/// A message about the input: (line, text, fatal).
pub type Finding = (u32, String, bool);

/// The 1-based line of the first directive `name` (e.g. `.version`) in `src`, if any.
pub fn directive_line(src: &str, name: &str) -> Option<u32> {
    let mut in_block_comment = false;
    for (n, line) in src.lines().enumerate() {
        let code = strip_comments(line, &mut in_block_comment);
        if code.split_whitespace().next() == Some(name) {
            return Some(n as u32 + 1);
        }
    }
    None
}

fn strip_comments(line: &str, in_block: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_block {
            match rest.find("*/") {
                Some(p) => {
                    rest = &rest[p + 2..];
                    *in_block = false;
                }
                None => return out,
            }
        }
        let cut = [rest.find("//"), rest.find("/*")]
            .into_iter()
            .flatten()
            .min();
        match cut {
            Some(p) if rest[p..].starts_with("/*") => {
                out.push_str(&rest[..p]);
                rest = &rest[p + 2..];
                *in_block = true;
            }
            Some(p) => {
                out.push_str(&rest[..p]);
                return out;
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The number of an `sm_NN[a|f]` or `compute_NN[a|f]` target; `None` for anything else.
pub fn target_number(target: &str) -> Option<u32> {
    let digits = target
        .strip_prefix("sm_")
        .or_else(|| target.strip_prefix("compute_"))?
        .trim_end_matches(['a', 'f']);
    digits.parse().ok()
}

/// `.version` and `.target`: known, present, and compatible. Fatal findings stop everything.
pub fn check_header(src: &str, m: &Module, file: &str) -> Vec<Finding> {
    let version_line = directive_line(src, ".version");
    let target_line = directive_line(src, ".target");
    let Some(vline) = version_line else {
        return vec![(
            second_code_line(src),
            format!("Missing .version directive at start of file '{file}'"),
            true,
        )];
    };
    if !isa::known_version(m.version) {
        let msg = format!(
            "Unsupported .version {}.{}; current version is '9.5'",
            m.version.0, m.version.1
        );
        return vec![(vline, msg, true)];
    }
    let Some(tline) = target_line else {
        return vec![(
            second_code_line(src).max(vline + 1),
            format!("Missing .target directive at start of file '{file}'"),
            true,
        )];
    };
    let Some(sm) = target_number(&m.target) else {
        return vec![(
            tline,
            format!("Target architecture not defined at start of file '{file}'"),
            true,
        )];
    };
    // The architecture that counts is the last one named, on the last `.target` directive.
    let tline = target_entries_by_line(src)
        .last()
        .map_or(tline, |(line, _)| *line);
    let Some(&(_, needs)) = isa::TARGET_VERSIONS.iter().find(|(n, _)| *n == sm) else {
        return vec![(tline, format!("Unsupported .target '{}'", m.target), true)];
    };
    let mut findings: Vec<Finding> = check_target_debug(src).into_iter().collect();
    // Every architecture `.target` names must suit the `.version`; ptxas names the last one.
    let needs = target_entries(src)
        .iter()
        .filter_map(|t| target_version(t))
        .fold(needs.max(suffix_version(&m.target)), Ord::max);
    if m.version < needs && !m.functions.is_empty() {
        let msg = format!(
            "PTX .version {}.{} does not support .target {}",
            m.version.0, m.version.1, m.target
        );
        findings.push((tline, msg, false));
        return findings;
    }
    if m.address_size != 32 && m.address_size != 64 {
        let line = directive_line(src, ".address_size").unwrap_or(tline);
        findings.push((
            line,
            "Illegal value for .address_size directive (must be 32 or 64)".into(),
            false,
        ));
    }
    findings
}

/// `.target ..., debug` in a module without debug information: ptxas's error without a line
/// (reported after everything read from the functions). Any `.section` counts as debug
/// information for it (it then only warns about missing `.debug_abbrev`/`.debug_info`).
pub fn check_target_debug(src: &str) -> Option<Finding> {
    let debug = targets_debug(src);
    let message = "Debug information not found in presence of .target debug";
    (debug && directive_line(src, ".section").is_none()).then(|| (0, message.to_string(), false))
}

/// What ptxas says, generating code, about the debug sections of a `.target debug` module that
/// has some `.section` (without any, [`check_target_debug`]'s error): a warning for a missing
/// `.debug_abbrev` (then a note that `.debug_info` is skipped) or `.debug_info`, each as
/// (is a note, message).
pub fn debug_section_notes(src: &str) -> Vec<(bool, &'static str)> {
    if !targets_debug(src) {
        return Vec::new();
    }
    let names = section_names(src);
    if names.is_empty() {
        return Vec::new();
    }
    let has = |name: &str| names.iter().any(|n| n == name);
    let mut notes = Vec::new();
    if !has(".debug_abbrev") {
        notes.push((false, " .debug_abbrev section not found"));
        if has(".debug_info") {
            notes.push((
                true,
                "skipping .debug_info section due to missing .debug_abbrev section",
            ));
        }
    }
    if !has(".debug_info") {
        notes.push((false, " .debug_info section not found"));
    }
    notes
}

/// The names of the `.section` directives of `src`, in order.
fn section_names(src: &str) -> Vec<String> {
    let mut in_block_comment = false;
    let mut names = Vec::new();
    for line in src.lines() {
        let code = strip_comments(line, &mut in_block_comment);
        let mut words = code.split_whitespace();
        if words.next() == Some(".section") {
            names.extend(words.next().map(|n| n.trim_end_matches('{').to_string()));
        }
    }
    names
}

/// The entries of the `.target` directives of `src`'s header (`sm_80`, `debug`, ...), a
/// directive continuing on the next line after a trailing comma. Reading stops where the header
/// ends, so a large module costs no more than its first lines.
fn target_entries(src: &str) -> Vec<String> {
    target_entries_by_line(src)
        .into_iter()
        .map(|(_, e)| e)
        .collect()
}

/// [`target_entries`], each with the line of its `.target` directive.
fn target_entries_by_line(src: &str) -> Vec<(u32, String)> {
    let mut in_block_comment = false;
    let mut continued = false;
    let mut directive_line = 0;
    let mut entries = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let code = strip_comments(line, &mut in_block_comment);
        let code = code.trim();
        let rest = match code.strip_prefix(".target") {
            Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
                directive_line = n as u32 + 1;
                rest
            }
            _ if continued => code,
            _ if code.is_empty()
                || code.starts_with(".version")
                || code.starts_with(".address_size") =>
            {
                continue
            }
            _ => break,
        };
        continued = rest.is_empty() || rest.ends_with(',');
        entries.extend(
            rest.split([',', ' ', '\t'])
                .filter(|e| !e.is_empty())
                .map(|e| (directive_line, e.to_string())),
        );
    }
    entries
}

/// The `.version` that the architecture `target` needs (`None` for an option or an unknown one).
fn target_version(target: &str) -> Option<(u32, u32)> {
    let sm = target_number(target)?;
    let &(_, needs) = isa::TARGET_VERSIONS.iter().find(|(n, _)| *n == sm)?;
    Some(needs.max(suffix_version(target)))
}

/// The `.version` a target's suffix needs beyond its number's: `sm_90a` 8.0, the family targets
/// (`sm_100f`, `sm_120f`) 8.8.
fn suffix_version(target: &str) -> (u32, u32) {
    match target {
        "sm_90a" | "compute_90a" => (8, 0),
        t if t.ends_with('f') => (8, 8),
        _ => (0, 0),
    }
}

/// The line of the second line holding code, where ptxas notices a missing header directive
/// (the line after the end when there is none).
fn second_code_line(src: &str) -> u32 {
    let mut in_block = false;
    let mut n = 0;
    let mut seen = 0;
    for (i, line) in src.lines().enumerate() {
        n = i as u32 + 1;
        if !strip_comments(line, &mut in_block).trim().is_empty() {
            seen += 1;
            if seen == 2 {
                return n;
            }
        }
    }
    if src.ends_with('\n') || src.is_empty() {
        n + 1
    } else {
        n
    }
}

/// A `.file` index given before: ptxas's error on the line it names for the directive.
pub fn check_file_indexes(m: &Module) -> Vec<Finding> {
    let mut seen = std::collections::HashSet::new();
    m.files
        .iter()
        .filter(|f| !seen.insert(f.index))
        .map(|f| (f.line, format!("Duplicate file index #{}", f.index), false))
        .collect()
}

/// An `inlined_at` location that no earlier `.loc` named as its own: ptxas's error on the line
/// of its last number.
pub fn check_inlined_locations(m: &Module) -> Vec<Finding> {
    let mut named = std::collections::HashSet::new();
    let mut found = Vec::new();
    for loc in &m.locs {
        if let Some((at, line)) = loc.inlined_at.filter(|(at, _)| !named.contains(at)) {
            let [file, line_no, column] = at;
            found.push((line, format!("Source location {file} {line_no} {column} used in inlined_at directive must be used in a preceding .loc directive"), false));
        }
        named.insert(loc.at);
    }
    found
}

/// Whether `src`'s `.target` names `debug` (ptxas then generates debug information).
pub fn targets_debug(src: &str) -> bool {
    target_entries(src).iter().any(|e| e == "debug")
}

/// ptxas's errors, without a place, for each `.loc` that describes an instruction and names as
/// its `function_name` a label that no `.section` block declares (labels in function bodies and
/// function names do not count), in source order. ptxas checks this only while generating debug
/// information, after every other check has passed.
pub fn unresolved_function_names(m: &Module) -> Vec<String> {
    let declared: std::collections::HashSet<&str> =
        m.section_labels.iter().map(String::as_str).collect();
    let named = m
        .locs
        .iter()
        .filter(|l| l.describes_instruction)
        .filter_map(|l| l.function_name.as_deref());
    named
        .filter(|n| !declared.contains(n))
        .map(|n| format!("Unresolved label '{n}' used in function_name attribute."))
        .collect()
}

/// Performance directives between the signature and the body: known names and value counts.
pub fn check_perf_directives(src: &str, f: &Function) -> Vec<Finding> {
    let mut out = Vec::new();
    const ENTRY_ONLY: &[&str] = &[
        "maxnreg",
        "maxntid",
        "reqntid",
        "minnctapersm",
        "maxclusterrank",
        "reqnctapercluster",
        "explicitcluster",
    ];
    for (k, (name, vals)) in f.directives.iter().enumerate() {
        let line = f.directive_lines.get(k).copied().unwrap_or(f.line);
        if (!f.is_entry && ENTRY_ONLY.contains(&name.as_str()))
            || (f.is_entry && name == "noreturn")
        {
            out.push((
                line,
                format!("Parsing error near '.{name}': syntax error"),
                true,
            ));
            return out;
        }
        let counts: Option<(usize, usize)> = match name.as_str() {
            "maxntid" | "reqntid" | "reqnctapercluster" => Some((1, 3)),
            "maxnreg" | "minnctapersm" | "maxclusterrank" | "maxnctapersm" => Some((1, 1)),
            "noreturn" | "explicitcluster" | "blocksareclusters" => Some((0, 0)),
            "pragma" => None,
            _ => {
                out.push((
                    line,
                    format!("Parsing error near '.{name}': syntax error"),
                    true,
                ));
                return out;
            }
        };
        if matches!(name.as_str(), "maxnreg" | "maxntid" | "reqntid") && vals.contains(&0) {
            // ptxas checks the values once it has seen the token after them.
            let room_left = counts.is_some_and(|(_, hi)| vals.len() < hi);
            let at = if room_left {
                next_token_line(src, f, k)
            } else {
                line
            };
            out.push((
                at,
                format!("Positive non-zero value expected for {name}"),
                false,
            ));
        }
        if let Some((lo, hi)) = counts {
            if vals.len() > hi {
                out.push((line, "Parsing error near ',': syntax error".into(), true));
                return out;
            }
            if vals.len() < lo {
                // ptxas stumbles on the token after the directive.
                let next = next_token_offset(src, f, k);
                let near: String = src[next..].chars().take(1).collect();
                out.push((
                    line_of(src, next as u32),
                    format!("Parsing error near '{near}': syntax error"),
                    true,
                ));
                return out;
            }
        }
    }
    out
}

/// The byte offset of the first token after directive `k` of `f`.
fn next_token_offset(src: &str, f: &Function, k: usize) -> usize {
    let end = f
        .directive_spans
        .get(k)
        .map_or(0, |s| s.end as usize)
        .min(src.len());
    src[end..]
        .find(|c: char| !c.is_whitespace())
        .map_or(end, |o| end + o)
}

fn next_token_line(src: &str, f: &Function, k: usize) -> u32 {
    line_of(src, next_token_offset(src, f, k) as u32)
}

/// `.maxntid` with `.reqntid`: reported where the function ends.
pub fn check_directive_conflicts(src: &str, f: &Function) -> Option<Finding> {
    let has = |n: &str| f.directives.iter().any(|(d, _)| d == n);
    let end = || line_of(src, f.span.end.saturating_sub(1));
    (has("maxntid") && has("reqntid")).then(|| {
        (
            end(),
            "Conflicting directives: .maxntid and .reqntid cannot both be specified".into(),
            false,
        )
    })
}

/// ptxas's warning for `.minnctapersm` alone: (line of the function's end, message).
pub fn perf_directive_warning(src: &str, f: &Function) -> Option<(u32, String)> {
    let has = |n: &str| f.directives.iter().any(|(d, _)| d == n);
    let alone = has("minnctapersm") && !has("maxntid") && !has("reqntid");
    let message = ".minnctapersm is ignored when neither .maxntid nor .reqntid is specified.";
    alone.then(|| {
        (
            line_of(src, f.span.end.saturating_sub(1)),
            message.to_string(),
        )
    })
}

/// The 1-based line of byte offset `at`.
pub fn line_of(src: &str, at: u32) -> u32 {
    let end = (at as usize).min(src.len());
    src.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}
