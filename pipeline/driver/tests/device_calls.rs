//! Calls of device functions that the back end does not compile yet (a call through a register,
//! an external function other than `vprintf` and `__assertfail` (`extern_calls.rs`), such as
//! `malloc`, a parameter's address taken, `.reg` parameters, a
//! recursive function with local memory or an array parameter): each gets ptxas's "not
//! supported yet" error at its line, no cubin and no panic. Recursion compiles to a subroutine.
//! (Direct calls are inlined: `filetests/device_func.ptx` and the sim kernels `device_calls.ptx`
//! show them; recursion's results: the sim kernels `recursion.ptx`.)

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

/// Compiles `tests/calls/<name>` for sm_80: the error diagnostics as (line, message).
fn errors_of(name: &str) -> Vec<(u32, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/calls")
        .join(name);
    let ptx = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let opts = CompileOptions {
        sm: Sm::new(80),
        ..Default::default()
    };
    let out = compile_module(&ptx, name, &opts);
    assert!(out.cubin.is_none(), "{name} compiled");
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.location.as_ref().map_or(0, |l| l.1), d.message.clone()))
        .collect()
}

/// The one error of `name`: at `line`, saying `what` is not supported yet.
fn assert_refused(name: &str, line: u32, what: &str) {
    let errors = errors_of(name);
    assert_eq!(errors.len(), 1, "{name}: {errors:?}");
    let (at, message) = &errors[0];
    assert_eq!(*at, line, "{name}: {message}");
    assert!(
        message.contains(what) && message.ends_with("is not supported yet"),
        "{name}: {message}"
    );
}

/// The entry calls `down` from two sites, `down` itself once (returning early from a guarded
/// `ret`): one subroutine, called three times, returning once.
#[test]
fn recursion_compiles_to_one_subroutine() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/calls/recursive.ptx");
    let ptx = std::fs::read_to_string(&path).expect("recursive.ptx");
    let opts = CompileOptions {
        sm: Sm::new(80),
        keep_sass_text: true,
        ..Default::default()
    };
    let out = compile_module(&ptx, "recursive.ptx", &opts);
    let cubin = out.cubin.as_ref().expect("a cubin");
    let text = out.kernels[0].sass_text.as_deref().expect("SASS text");
    let count = |what: &str| text.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count("CALL.REL.NOINC"), 3, "{text}");
    assert_eq!(count("RET.REL.NODEC R20"), 1, "{text}");
    assert_eq!(count("EXIT"), 1, "{text}");
    let image = out.kernels[0].image.as_ref().expect("an image");
    assert_eq!(image.subroutines.len(), 1);
    assert_eq!(image.subroutines[0].name, "down");
    let symbol = b"$recursive$down\0";
    assert!(cubin.windows(symbol.len()).any(|w| w == symbol));
}

/// Once, though the entry calls `down` and `down` calls itself: at the function.
#[test]
fn recursion_with_local_memory_is_refused() {
    assert_refused("recursive_local.ptx", 5, "the .local variable 'depot'");
}

/// At the recursive call; the entry's call (inlined) takes the array as it is.
#[test]
fn recursion_with_an_array_parameter_is_refused() {
    assert_refused(
        "recursive_struct.ptx",
        19,
        "the parameter 'v' of the recursive function 'down' (an array or vector)",
    );
}

#[test]
fn indirect_call_is_refused() {
    assert_refused("indirect.ptx", 26, "indirect 'call'");
}

#[test]
fn external_function_is_refused() {
    assert_refused("malloc.ptx", 19, "external function 'malloc'");
}

#[test]
fn address_of_a_parameter_is_refused() {
    assert_refused("param_address.ptx", 9, "address of the call parameter");
}

#[test]
fn register_parameters_are_refused() {
    assert_refused("reg_params.ptx", 20, "'%a' (.reg parameter");
}

/// What `cuobjdump -elf` says of a recursive module's subroutine and stack: the LOCAL FUNC
/// symbol `$<entry>$<func>` in the entry's `.text`, FRAME_SIZE records (the function's, then the
/// entry's), MIN_STACK_SIZE and CRS_STACK_SIZE "unknown" (0xffffffff).
fn recursion_layout(dump: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in dump.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.last() == Some(&"$recursive$down") {
            // Num, Value, Size, Type, Bind, Vis, Other, Ndx, Name: the kind and binding.
            out.push(format!("symbol {} {}", words[3], words[4]));
        }
        if line.contains("Value:\tfunction:") || line.contains("Attribute:\tEIATTR_") {
            let fields: Vec<&str> = line.split('\t').collect();
            let record = fields[1..].join(" ");
            // Frame sizes are the code's own (registers saved), not the layout's.
            let cut = record.find("frame size:").unwrap_or(record.len());
            out.push(record[..cut].to_string());
        }
        let value = line.trim().strip_prefix("Value:").map(str::trim);
        if value == Some("0xffffffff") {
            out.push("0xffffffff".into());
        }
    }
    out
}

#[test]
fn recursion_cubin_layout_matches_ptxas() {
    let Some(cuobjdump) = ptxforge_sass::nvtools::tool("cuobjdump") else {
        println!("skipped: cuobjdump not found");
        return;
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/calls/recursive.ptx");
    let Some(theirs) = ptxforge_sass::nvtools::ptxas_cubin(&path, 80) else {
        println!("skipped: ptxas not found");
        return;
    };
    let theirs = theirs.expect("ptxas compiles recursive.ptx");
    let ptx = std::fs::read_to_string(&path).expect("recursive.ptx");
    let opts = CompileOptions {
        sm: Sm::new(80),
        ..Default::default()
    };
    let ours = compile_module(&ptx, "recursive.ptx", &opts)
        .cubin
        .expect("a cubin");
    let dir = std::env::temp_dir().join(format!("ptxforge-recursion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let dump = |name: &str, bytes: &[u8]| {
        let file = dir.join(name);
        std::fs::write(&file, bytes).expect("write cubin");
        let out = std::process::Command::new(&cuobjdump)
            .arg("-elf")
            .arg(&file)
            .output()
            .expect("cuobjdump runs");
        assert!(out.status.success(), "cuobjdump rejects {name}");
        recursion_layout(&String::from_utf8_lossy(&out.stdout))
    };
    let (want, got) = (dump("theirs.cubin", &theirs), dump("ours.cubin", &ours));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(want.iter().any(|l| l == "symbol FUNC LOCAL"), "{want:?}");
    assert!(
        want.iter().filter(|l| *l == "0xffffffff").count() >= 1,
        "{want:?}"
    );
    // Records present in both, in ptxas's order (ours has no .nv.callgraph entries yet: the
    // records that name the callgraph are left out of the comparison).
    let keep = |l: &Vec<String>| -> Vec<String> {
        l.iter()
            .filter(|r| {
                r.starts_with("symbol")
                    || r.contains("FRAME_SIZE")
                    || r.contains("MIN_STACK_SIZE")
                    || r.contains("CRS_STACK_SIZE")
                    || r.contains("function:")
                    || *r == "0xffffffff"
            })
            .cloned()
            .collect()
    };
    assert_eq!(keep(&got), keep(&want));
}
