//! `-lineinfo`: the module's line tables for the cubin writer, from the PTX's `.file`/`.loc`
//! directives and the PTX line each machine instruction was lowered from.
//!
//! An instruction's source line is that of the last `.loc` before its PTX line in the same
//! function; instructions no PTX line asked for (the prologue, the trailer) keep the row before
//! them, as do those under a `.loc` of line 0 (LLVM's mark for code of no line), and a kernel's
//! first row, at its first instruction, is its function's first `.loc`, as ptxas writes it. The prologue's PTX line is the line of the body's `{`, as ptxas has it.

use ptxforge_cubin::{KernelImage, KernelLines, LineTables, SourceLine};
use ptxforge_ptx::ast;

/// The line tables of `module` (compiled from `text`) for `kernels`, or `None` when the module
/// has no `.loc` directives (ptxas then writes none).
pub fn line_tables(
    module: &ast::Module,
    text: &str,
    kernels: &[KernelImage],
) -> Option<LineTables> {
    if module.locs.is_empty() {
        return None;
    }
    let files: Vec<String> = module.files.iter().map(|f| f.name.clone()).collect();
    let mut locs: Vec<&ast::LocDirective> = module.locs.iter().collect();
    locs.sort_by_key(|l| l.line);
    let starts = function_starts(module);
    let lines = LineIndex::new(text);
    let kernel_lines = kernels
        .iter()
        .filter_map(|k| {
            let f = module
                .functions
                .iter()
                .find(|f| f.name == k.name && f.has_body)?;
            let brace = text
                .get(f.span.start as usize..f.span.end as usize)
                .and_then(|body| body.find('{'))
                .map(|at| lines.line(f.span.start as usize + at));
            Some(kernel_lines(
                k, f.line, brace, &locs, &starts, module, &files,
            ))
        })
        .collect();
    Some(LineTables {
        files,
        ptx_text: ptxforge_cubin::ptx_text_section(text),
        kernels: kernel_lines,
    })
}

/// One kernel's rows: PTX lines as lowered (the prologue given the body's `{` line) and the
/// source line of the `.loc` in effect at each.
fn kernel_lines(
    k: &KernelImage,
    func_line: u32,
    brace: Option<u32>,
    locs: &[&ast::LocDirective],
    starts: &[u32],
    module: &ast::Module,
    files: &[String],
) -> KernelLines {
    let count = k.code.len() / 16;
    let mut ptx_lines = k.ptx_lines.clone();
    ptx_lines.resize(count, 0);
    let first_stamped = ptx_lines.iter().position(|&l| l != 0).unwrap_or(count);
    for l in &mut ptx_lines[..first_stamped] {
        *l = brace.unwrap_or(func_line);
    }
    let source_of = |loc: &ast::LocDirective| -> Option<SourceLine> {
        if loc.at[1] == 0 {
            return None;
        }
        let file = module.files.iter().position(|f| f.index == loc.at[0])?;
        (file < files.len()).then_some(SourceLine {
            file: file as u32,
            line: u32::try_from(loc.at[1]).unwrap_or(u32::MAX),
            column: u32::try_from(loc.at[2]).unwrap_or(u32::MAX),
        })
    };
    let first_loc = locs
        .iter()
        .find(|l| l.line > func_line && function_start(starts, l.line) == func_line)
        .and_then(|l| source_of(l));
    let mut source: Vec<Option<SourceLine>> = k
        .ptx_lines
        .iter()
        .map(|&line| loc_in_effect(locs, starts, line).and_then(source_of))
        .collect();
    source.resize(count, None);
    if let Some(first) = source.first_mut() {
        if first_stamped > 0 || first.is_none() {
            *first = first_loc;
        }
    }
    KernelLines {
        name: k.name.clone(),
        ptx_lines,
        source,
    }
}

/// The last `.loc` before PTX line `line` in the function that holds it.
fn loc_in_effect<'a>(
    locs: &[&'a ast::LocDirective],
    starts: &[u32],
    line: u32,
) -> Option<&'a ast::LocDirective> {
    if line == 0 {
        return None;
    }
    let start = function_start(starts, line);
    let before = locs.partition_point(|l| l.line < line);
    let loc = *locs.get(before.checked_sub(1)?)?;
    (loc.line > start).then_some(loc)
}

/// The first line of the function that holds `line` (0 when none starts before it).
fn function_start(starts: &[u32], line: u32) -> u32 {
    let n = starts.partition_point(|&s| s <= line);
    n.checked_sub(1).map_or(0, |i| starts[i])
}

/// Every function's first line, in order.
fn function_starts(module: &ast::Module) -> Vec<u32> {
    let mut starts: Vec<u32> = module.functions.iter().map(|f| f.line).collect();
    starts.sort_unstable();
    starts
}

/// Byte offsets → 1-based line numbers.
struct LineIndex {
    newlines: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        LineIndex {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    fn line(&self, offset: usize) -> u32 {
        self.newlines.partition_point(|&n| n < offset) as u32 + 1
    }
}
