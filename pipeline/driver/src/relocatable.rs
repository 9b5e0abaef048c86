//! `-c` (`--compile-only`): what the driver does differently for a relocatable object. The
//! `.visible` device functions are compiled as units of their own beside the entries, a module
//! whose only fault is a function left for the linker to find is compiled rather than refused,
//! and the ELF stage writes an ET_REL object (`ptxforge_cubin::write_relocatable`).

use ptxforge_cubin::KernelImage;
use ptxforge_ptx::ast;

use crate::compile::Source;
use crate::options::CompileOptions;
use crate::report::Diagnostic;
use crate::stages::KernelInFlight;

/// Whether `f` becomes a unit of the pipeline: every entry (`--entry` selecting), and with `-c`
/// every `.visible` device function with a body.
pub(crate) fn compiled_here(f: &ast::Function, opts: &CompileOptions) -> bool {
    if f.is_entry {
        return opts.compiles_entry(&f.name);
    }
    opts.compile_only && f.has_body && f.visible
}

/// What an image says beyond an executable cubin's: whether it is a device function, and the
/// linked calls' offsets and callees.
pub(crate) fn linkable_image(k: &KernelInFlight) -> KernelImage {
    let func = &k.module.functions[k.func_index];
    let Some(l) = k.lowered.as_ref() else {
        return KernelImage::default();
    };
    let names = ptxforge_lower::linked_functions(&k.module);
    KernelImage {
        device_function: !func.is_entry,
        linked_calls: ptxforge_sass::linked_call::linked_call_offsets(&l.func)
            .into_iter()
            .filter_map(|(at, ext)| Some((at, names.get(ext as usize)?.clone())))
            .collect(),
        ..KernelImage::default()
    }
}

/// With `-c`, a module the front end refused only for what the linker resolves ("Unresolved
/// extern function", a fatal without a place): each source read again without that check, its
/// warnings kept. `None` when anything else was wrong.
pub(crate) fn module_for_linking(
    sources: &[Source],
    diags: &[Diagnostic],
) -> Option<(ast::Module, Vec<String>, String, Vec<Diagnostic>)> {
    let link_only = diags
        .iter()
        .filter(|d| d.is_error())
        .all(|d| d.location.is_none() && d.message.starts_with("Unresolved extern function"));
    if !link_only {
        return None;
    }
    let mut joined: Option<ast::Module> = None;
    let mut files = Vec::new();
    let mut last_target = String::new();
    for src in sources {
        let (m, syntax) = ptxforge_ptx::parse_syntax(src.text, src.name);
        if syntax
            .iter()
            .any(|d| d.severity != ptxforge_ptx::Severity::Warning)
        {
            return None;
        }
        last_target.clone_from(&m.target);
        files.extend(std::iter::repeat_n(src.name.to_string(), m.functions.len()));
        match &mut joined {
            None => joined = Some(m),
            Some(j) => {
                j.globals.extend(m.globals);
                j.functions.extend(m.functions);
                j.locs.extend(m.locs);
                j.section_labels.extend(m.section_labels);
            }
        }
    }
    let warnings = diags.iter().filter(|d| !d.is_error()).cloned().collect();
    Some((joined?, files, last_target, warnings))
}
