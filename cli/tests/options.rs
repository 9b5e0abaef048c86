//! The ptxas-compatible command line, option by option: spellings, values, messages, exit status.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VADD: &str = include_str!("../../examples/vadd.ptx");

/// A scratch folder per test, holding `v.ptx` (vadd) and `s.ptx` (vsub).
fn workdir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-options-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("v.ptx"), VADD).unwrap();
    std::fs::write(dir.join("s.ptx"), vsub()).unwrap();
    dir
}

fn vsub() -> String {
    VADD.replace("vadd", "vsub").replace("add.f32", "sub.f32")
}

/// Runs ptxforge in `dir` with whitespace-separated `args`.
fn run(dir: &Path, args: &str) -> Output {
    run_words(dir, &args.split_whitespace().collect::<Vec<_>>())
}

fn run_words(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit status 255 and exactly these stderr lines.
fn rejects(dir: &Path, args: &str, lines: &[&str]) {
    let o = run(dir, args);
    assert_eq!(o.status.code(), Some(255), "{args}: {}", stderr(&o));
    assert_eq!(stderr(&o).lines().collect::<Vec<_>>(), lines, "{args}");
}

/// Asserts success with exactly these stderr lines.
fn accepts(dir: &Path, args: &str, lines: &[&str]) {
    let o = run(dir, args);
    assert_eq!(o.status.code(), Some(0), "{args}: {}", stderr(&o));
    assert_eq!(stderr(&o).lines().collect::<Vec<_>>(), lines, "{args}");
}

const ABORTED: &str = "ptxas fatal   : Ptx assembly aborted due to errors";

/// The names of the functions in a cubin's symbol table, in table order.
fn functions(path: &Path) -> Vec<String> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let bytes = std::fs::read(path).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    file.symbols()
        .filter(|s| s.kind() == SymbolKind::Text)
        .map(|s| s.name().unwrap().to_string())
        .collect()
}

#[test]
fn defaults_are_sm_75_and_elf_o() {
    let dir = workdir("defaults");
    accepts(&dir, "v.ptx", &[]);
    accepts(&dir, "-arch=sm_75 v.ptx -o explicit.o", &[]);
    assert_eq!(
        std::fs::read(dir.join("elf.o")).unwrap(),
        std::fs::read(dir.join("explicit.o")).unwrap()
    );
}

#[test]
fn value_spellings_give_the_same_cubin() {
    let dir = workdir("spellings");
    let forms = [
        "-arch=sm_80 -o a.o",
        "-arch sm_80 -o b.o",
        "--gpu-name sm_80 --output-file c.o",
        "--gpu-name=sm_80 --output-file=d.o",
        "-arch=sm_80 -O3 -m64 -o=e.o",
    ];
    for f in forms {
        accepts(&dir, &format!("{f} v.ptx"), &[]);
    }
    let first = std::fs::read(dir.join("a.o")).unwrap();
    for name in ["b.o", "c.o", "d.o", "e.o"] {
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), first, "{name}");
    }
}

#[test]
fn opt_level_forms_and_errors() {
    let dir = workdir("opt");
    for ok in [
        "-O0",
        "-O1",
        "-O2",
        "-O3",
        "-O4",
        "-O9",
        "-O10",
        "-O-1",
        "-O",
        "-O=2",
        "--opt-level=2",
        "--opt-level 1",
    ] {
        accepts(&dir, &format!("-arch=sm_80 {ok} v.ptx"), &[]);
    }
    rejects(
        &dir,
        "-arch=sm_80 -Ox v.ptx",
        &["ptxas fatal   : 'x': expected a number"],
    );
    // Levels outside 0..=2 are -O3, as ptxas reads them.
    accepts(&dir, "-arch=sm_80 -O3 v.ptx -o o3.o", &[]);
    accepts(&dir, "-arch=sm_80 -O10 v.ptx -o o10.o", &[]);
    assert_eq!(
        std::fs::read(dir.join("o3.o")).unwrap(),
        std::fs::read(dir.join("o10.o")).unwrap()
    );
    // -Ofc=max allows only -O0; -O-1 is not -O0.
    rejects(&dir, "-arch=sm_80 -O-1 -Ofc=max v.ptx", &["ptxas fatal   : Conflicting options -opt-level=<1,2,3> and --Ofast-compile=max specified"]);
    rejects(
        &dir,
        "-arch=sm_80 -O 2 v.ptx",
        &[
            "ptxas fatal   : Input file '2' could not be opened",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 --O3 v.ptx",
        &["ptxas fatal   : Unknown option '-O3'"],
    );
}

#[test]
fn fast_compile_levels_and_conflicts() {
    let dir = workdir("ofc");
    for ok in [
        "-Ofc=0 -O2",
        "-Ofc min",
        "-Ofc=min -O1",
        "--Ofast-compile=mid -O1",
        "-Ofc=max -O0",
        "--Ofast-compile max",
    ] {
        accepts(&dir, &format!("-arch=sm_80 {ok} v.ptx"), &[]);
    }
    rejects(&dir, "-arch=sm_80 -Ofc=min -O3 v.ptx", &["ptxas fatal   : Conflicting options -opt-level=<0,2,3> and --Ofast-compile=min specified"]);
    rejects(&dir, "-arch=sm_80 -Ofc=max -O2 v.ptx", &["ptxas fatal   : Conflicting options -opt-level=<1,2,3> and --Ofast-compile=max specified"]);
    rejects(&dir, "-arch=sm_80 -Ofc=MAX v.ptx", &["ptxas fatal   : Invalid value for --Ofast-compile/-Ofc (MAX), is not 'max', 'mid', 'min', or '0'"]);
    rejects(
        &dir,
        "-arch=sm_80 --Ofc=max v.ptx",
        &["ptxas fatal   : Unknown option '-Ofc'"],
    );
}

#[test]
fn machine_takes_only_64() {
    let dir = workdir("machine");
    for ok in ["-m64", "-m 64", "--machine=64"] {
        accepts(&dir, &format!("-arch=sm_80 {ok} v.ptx"), &[]);
    }
    rejects(
        &dir,
        "-arch=sm_80 -m32 v.ptx",
        &["ptxas fatal   : Value '32' is not defined for option 'machine'"],
    );
    rejects(
        &dir,
        "-arch=sm_80 -msixtyfour v.ptx",
        &["ptxas fatal   : 'sixtyfour': expected a number"],
    );
}

#[test]
fn option_syntax_errors() {
    let dir = workdir("syntax");
    rejects(
        &dir,
        "--knob v.ptx",
        &["ptxas fatal   : Unknown option '-knob'"],
    );
    rejects(
        &dir,
        "-knob=3 v.ptx",
        &["ptxas fatal   : Unknown option 'knob'"],
    );
    rejects(
        &dir,
        "--Werror v.ptx",
        &["ptxas fatal   : Unknown option '-Werror'"],
    );
    rejects(
        &dir,
        "-threads 2 v.ptx",
        &["ptxas fatal   : Unknown option 'threads'"],
    );
    rejects(
        &dir,
        "-v=1 v.ptx",
        &["ptxas fatal   : no argument expected after '-v'"],
    );
    rejects(
        &dir,
        "--verbose=1 v.ptx",
        &["ptxas fatal   : no argument expected after '--verbose'"],
    );
    rejects(
        &dir,
        "v.ptx -o",
        &["ptxas fatal   : argument expected after '-o'"],
    );
    rejects(
        &dir,
        "-fmad=1 v.ptx",
        &["ptxas fatal   : '1': expected true or false"],
    );
    rejects(
        &dir,
        "-fmad v.ptx",
        &["ptxas fatal   : 'v.ptx': expected true or false"],
    );
    rejects(
        &dir,
        "--split-compile=-1 v.ptx",
        &["ptxas fatal   : Invalid value '-1' for option '--split-compile'"],
    );
    rejects(
        &dir,
        "-sanitize=foo v.ptx",
        &["ptxas fatal   : Value 'foo' is not defined for option 'sanitize'"],
    );
}

#[test]
fn architecture_names() {
    let dir = workdir("arch");
    rejects(
        &dir,
        "-arch=sm_91 v.ptx",
        &["ptxas fatal   : Value 'sm_91' is not defined for option 'gpu-name'"],
    );
    rejects(
        &dir,
        "-arch=SM_80 v.ptx",
        &["ptxas fatal   : Value 'SM_80' is not defined for option 'gpu-name'"],
    );
    rejects(
        &dir,
        "-arch=sm_80,sm_90 v.ptx",
        &["ptxas fatal   : Value 'sm_80,sm_90' is not defined for option 'gpu-name'"],
    );
    let o = run(&dir, "-arch=lto_80 v.ptx -o lto.o");
    assert_eq!(o.status.code(), Some(255));
    assert!(
        stderr(&o).starts_with("ptxas fatal   : ptxforge cannot generate code for 'lto_80' yet"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("lto.o").exists());
    accepts(&dir, "-arch=compute_90a v.ptx -o virt.o", &[]);
    assert!(!dir.join("virt.o").exists());
}

#[test]
fn redefinition_warns_and_the_last_value_wins() {
    let dir = workdir("redef");
    let warning = "ptxas warning : incompatible redefinition for option 'output-file', the last value of this option was used";
    accepts(&dir, "-arch=sm_80 v.ptx -o a.o -o b.o", &[warning]);
    assert!(dir.join("b.o").exists() && !dir.join("a.o").exists());
    accepts(&dir, "-arch=sm_80 -O3 --opt-level=3 v.ptx", &[]);
    // Neither -w nor -Werror touches it, as in ptxas.
    accepts(&dir, "-w -Werror -arch=sm_80 -arch=sm_86 v.ptx", &["ptxas warning : incompatible redefinition for option 'gpu-name', the last value of this option was used"]);
}

#[test]
fn several_inputs_make_one_cubin() {
    let dir = workdir("inputs");
    accepts(&dir, "-arch=sm_80 v.ptx s.ptx -o both.o", &[]);
    let both = functions(&dir.join("both.o"));
    assert_eq!(both.len(), 2);
    assert!(both.contains(&"vadd".to_string()) && both.contains(&"vsub".to_string()));
    // Reversing the inputs reverses the symbols: the inputs are joined in order.
    accepts(&dir, "-arch=sm_80 s.ptx v.ptx -o rev.o", &[]);
    let mut rev = functions(&dir.join("rev.o"));
    rev.reverse();
    assert_eq!(rev, both);
    rejects(
        &dir,
        "-arch=sm_80 v.ptx v.ptx",
        &[
            "ptxas v.ptx, line 17; error   : Duplicate definition of function 'vadd'",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 nof1.ptx v.ptx nof2.ptx",
        &[
            "ptxas fatal   : Input file 'nof1.ptx' could not be opened",
            "ptxas fatal   : Input file 'nof2.ptx' could not be opened",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 v.ptx,s.ptx",
        &[
            "ptxas fatal   : Input file 'v.ptx,s.ptx' could not be opened",
            ABORTED,
        ],
    );
}

#[test]
fn input_as_string() {
    let dir = workdir("ias");
    let o = run_words(&dir, &["-arch=sm_80", "-ias", VADD, "-o", "str.o"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(functions(&dir.join("str.o")), ["vadd"]);
    accepts(&dir, "-arch=sm_80 v.ptx -o file.o", &[]);
    assert_eq!(
        std::fs::read(dir.join("str.o")).unwrap(),
        std::fs::read(dir.join("file.o")).unwrap()
    );
    // Strings come after the files, whatever the order on the command line.
    let vsub = vsub();
    let o = run_words(
        &dir,
        &[
            "-arch=sm_80",
            "--input-as-string",
            &vsub,
            "v.ptx",
            "-o",
            "mixed.o",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_words(&dir, &["-arch=sm_80", "v.ptx", "s.ptx", "-o", "files.o"]);
    assert!(o.status.success());
    assert_eq!(
        std::fs::read(dir.join("mixed.o")).unwrap(),
        std::fs::read(dir.join("files.o")).unwrap()
    );
    let bad = VADD.replace("mov.u32 \t%r3", "movx.u32 \t%r3");
    let o = run_words(&dir, &["-arch=sm_80", "-ias", &bad]);
    assert_eq!(o.status.code(), Some(255));
    assert!(
        stderr(&o).starts_with("ptxas application ptx input, line 29; error   : "),
        "{}",
        stderr(&o)
    );
    rejects(
        &dir,
        "-arch=sm_80 -ias",
        &["ptxas fatal   : argument expected after '-ias'"],
    );
}

#[test]
fn entry_selects_kernels() {
    let dir = workdir("entry");
    accepts(&dir, "-arch=sm_80 -e vadd v.ptx s.ptx -o one.o", &[]);
    assert_eq!(functions(&dir.join("one.o")), ["vadd"]);
    accepts(
        &dir,
        "-arch=sm_80 --entry=vsub,vadd v.ptx s.ptx -o two.o",
        &[],
    );
    assert_eq!(functions(&dir.join("two.o")).len(), 2);
    accepts(
        &dir,
        "-arch=sm_80 -e vadd -e vsub -e vadd v.ptx s.ptx -o rep.o",
        &[],
    );
    assert_eq!(functions(&dir.join("rep.o")).len(), 2);
    accepts(&dir, "-arch=sm_80 -e= v.ptx -o all.o", &[]);
    assert_eq!(functions(&dir.join("all.o")), ["vadd"]);
    rejects(
        &dir,
        "-arch=sm_80 --entry=vadd,nosuch v.ptx",
        &["ptxas fatal   : Unknown function nosuch"],
    );
    let with_func = ".version 8.0\n.target sm_80\n.address_size 64\n.func helper()\n{\nret;\n}\n.visible .entry k()\n{\ncall helper;\nret;\n}\n";
    std::fs::write(dir.join("f.ptx"), with_func).unwrap();
    rejects(
        &dir,
        "-arch=sm_80 -e helper f.ptx",
        &["ptxas error   : Entry function 'helper' not found", ABORTED],
    );
}

/// A kernel with double-precision instructions at lines 11..=15 (15 is a conversion).
const DOUBLES: &str = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry dk(.param .u64 p)\n{\n.reg .f64 %fd<5>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\nld.global.f64 %fd2, [%rd1];\nmov.f64 %fd3, %fd2;\nsetp.lt.f64 %p1, %fd2, %fd3;\nst.global.f64 [%rd1], %fd3;\ncvt.rn.f32.f64 %f1, %fd3;\nret;\n}\n";

fn double_warnings(stderr: &str, severity: &str) -> Vec<u32> {
    let mut lines = Vec::new();
    for l in stderr.lines() {
        if let Some(rest) = l.strip_prefix("ptxas d.ptx, line ") {
            if rest.ends_with(&format!(
                "; {severity}: Program is doing double precision computations."
            )) {
                lines.push(rest.split(';').next().unwrap().parse().unwrap());
            }
        }
    }
    lines
}

#[test]
fn double_precision_warnings_and_the_warning_policy() {
    let dir = workdir("double");
    std::fs::write(dir.join("d.ptx"), DOUBLES).unwrap();
    let o = run(&dir, "-arch=compute_80 -warn-double-usage d.ptx");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        double_warnings(&stderr(&o), "warning "),
        [11, 12, 13, 14, 15, 15]
    );
    let o = run(
        &dir,
        "-arch=compute_80 --warn-on-double-precision-use -Werror d.ptx",
    );
    assert_eq!(o.status.code(), Some(255));
    assert_eq!(
        double_warnings(&stderr(&o), "error   "),
        [11, 12, 13, 14, 15]
    );
    assert!(stderr(&o).ends_with(&format!("{ABORTED}\n")));
    accepts(&dir, "-arch=compute_80 -warn-double-usage -w d.ptx", &[]);
    accepts(
        &dir,
        "-arch=compute_80 -warn-double-usage -w -Werror d.ptx",
        &[],
    );
    accepts(&dir, "-arch=compute_80 d.ptx", &[]);
}

#[test]
fn werror_fails_without_touching_the_output() {
    let dir = workdir("werror");
    std::fs::write(dir.join("keep.o"), b"previous").unwrap();
    let msg = "'--position-independent-code' is a deprecated option and is no longer functional. It will be removed in a future release";
    accepts(
        &dir,
        "-arch=sm_80 -pic=true v.ptx -o keep.o",
        &[&format!("ptxas warning : {msg}")],
    );
    std::fs::write(dir.join("keep.o"), b"previous").unwrap();
    rejects(
        &dir,
        "-arch=sm_80 -pic=true --warning-as-error v.ptx -o keep.o",
        &[&format!("ptxas error   : {msg}"), ABORTED],
    );
    assert_eq!(std::fs::read(dir.join("keep.o")).unwrap(), b"previous");
    accepts(
        &dir,
        "-arch=sm_80 -pic=false -suppress-position-independent-code-warning v.ptx",
        &[],
    );
    accepts(&dir, "-arch=sm_80 -pic=true -Werror -w v.ptx", &[]);
}

#[test]
fn maxrregcount_bounds_as_ptxas() {
    let dir = workdir("maxreg");
    for ok in [
        "-maxrregcount=64",
        "-maxrregcount 255",
        "--maxrregcount=archmax",
        "-maxrregcount=archmin",
        "-maxrregcount=24",
    ] {
        accepts(&dir, &format!("-arch=sm_80 {ok} v.ptx"), &[]);
    }
    accepts(&dir, "-arch=sm_90 -maxrregcount=2 v.ptx", &["ptxas warning : For profile sm_90 adjusting per thread register count of 2 to lower bound of 24"]);
    accepts(
        &dir,
        "-arch=sm_80 -maxrregcount=256 v.ptx",
        &["ptxas warning : Too big maxrregcount value specified 256, will be ignored"],
    );
    accepts(
        &dir,
        "-arch=sm_80 -maxrregcount=-1 v.ptx",
        &["ptxas warning : Too big maxrregcount value specified -1, will be ignored"],
    );
    rejects(
        &dir,
        "-arch=sm_80 -maxrregcount=1000 -Werror v.ptx",
        &[
            "ptxas error   : Too big maxrregcount value specified 1000, will be ignored",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 -maxrregcount=abc v.ptx",
        &["ptxas fatal   : Invalid value 'abc' for option 'maxrregcount'"],
    );
    rejects(
        &dir,
        "-arch=sm_80 -maxrregcount64 v.ptx",
        &["ptxas fatal   : 'axrregcount64': expected a number"],
    );
}

#[test]
fn options_without_effect_change_nothing() {
    let dir = workdir("noeffect");
    accepts(&dir, "-arch=sm_80 v.ptx -o plain.o", &[]);
    let plain = std::fs::read(dir.join("plain.o")).unwrap();
    let options = "-fmad=false -opt-fp-atomics -disable-optimizer-consts -no-bb-merge -ret-end -sp-bounds-check \
        -regUsageLevel=7 -device-stack-protector=false -allow-expensive-optimizations=false -suppress-stack-size-warning \
        -suppress-double-demote-warning -suppress-sparse-mma-advisory-info -suppress-async-bulk-multicast-advisory-warning \
        -g-tmem-access-check -gno-tmem-access-check -gno-fabric-access-check -warn-spills -warn-lmem-usage -m64";
    let o = run(&dir, &format!("-arch=sm_80 {options} v.ptx -o same.o"));
    assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("same.o")).unwrap(), plain);
}

#[test]
fn unimplemented_options_warn_by_name() {
    let dir = workdir("unimplemented");
    for (opt, long) in [
        ("-g", "device-debug"),
        ("-ewp", "extensible-whole-program"),
        ("-annotate", "compiler-annotations"),
        ("-preserve-relocs", "preserve-relocs"),
        ("-sanitize=memcheck", "sanitize"),
        ("-astoolspatch", "compile-as-tools-patch"),
        ("-device-stack-protector=true", "device-stack-protector"),
    ] {
        let line = format!(
            "ptxas warning : Option '--{long}' is not implemented by ptxforge and is ignored"
        );
        accepts(&dir, &format!("-arch=sm_80 {opt} v.ptx"), &[&line]);
        rejects(
            &dir,
            &format!("-arch=sm_80 {opt} -Werror v.ptx"),
            &[&line.replace("warning :", "error   :"), ABORTED],
        );
        accepts(&dir, &format!("-arch=sm_80 {opt} -w v.ptx"), &[]);
    }
}

#[test]
fn ptxas_warnings_for_ignored_options() {
    let dir = workdir("ignored");
    accepts(&dir, "-arch=sm_80 -func-maxrregcount=40 v.ptx", &["ptxas warning : Command line option 'device-function-maxrregcount' not supported for 'whole program compilation', will be ignored"]);
    accepts(&dir, "-arch=sm_80 -enable-func-clone-sc=true v.ptx", &["ptxas warning : Option '--enable-func-clone-sc' requires option '--compile-only'; ignoring since latter is not specified"]);
    accepts(&dir, "-arch=sm_80 -suppress-debug-info v.ptx", &["ptxas warning : Option suppress-debug-info requires option device-debug or lineinfo; ignoring since latter is not specified"]);
    accepts(&dir, "-arch=sm_80 -regUsageLevel=11 v.ptx", &["ptxas warning : Value of RegUsageLevel (11) is out of valid range {0..10}, option will be ignored"]);
    accepts(&dir, "-arch=sm_80 -maxntid=1,2,3,4 v.ptx", &["ptxas warning : Too many values specified for option '-maxntid', option will be ignored"]);
    accepts(&dir, "-arch=sm_80 -legacy-bar-warp-wide-behavior v.ptx", &[
        "ptxas warning : '--legacy-bar-warp-wide-behavior' is a deprecated option, It will be removed in future release and is not recommended",
        "ptxas warning : Command line option '--legacy-bar-warp-wide-behavior' not supported for '.target sm_70', will be ignored",
    ]);
    rejects(
        &dir,
        "-arch=sm_80 -dlcm=wb v.ptx",
        &[
            "ptxas error   : Invalid default cache modifier on load specified: wb",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 -dscm=cv v.ptx",
        &[
            "ptxas error   : Invalid default cache modifier on store specified: cv",
            ABORTED,
        ],
    );
    rejects(
        &dir,
        "-arch=sm_80 -apply-controls=nofile v.ptx",
        &["ptxas fatal   : File 'nofile' could not be opened"],
    );
}

#[test]
fn option_messages_come_in_ptxas_order() {
    let dir = workdir("order");
    accepts(&dir, "-arch=sm_80 -legacy-bar-warp-wide-behavior -maxrregcount=2 -pic=true -enable-func-clone-sc=true v.ptx", &[
        "ptxas warning : Option '--enable-func-clone-sc' requires option '--compile-only'; ignoring since latter is not specified",
        "ptxas warning : '--position-independent-code' is a deprecated option and is no longer functional. It will be removed in a future release",
        "ptxas warning : For profile sm_80 adjusting per thread register count of 2 to lower bound of 24",
        "ptxas warning : '--legacy-bar-warp-wide-behavior' is a deprecated option, It will be removed in future release and is not recommended",
        "ptxas warning : Command line option '--legacy-bar-warp-wide-behavior' not supported for '.target sm_70', will be ignored",
    ]);
    // Errors about option values fail the run, but only after the inputs are checked.
    rejects(
        &dir,
        "-arch=sm_80 -fscm=zz -dlcm=zz nofile.ptx",
        &[
            "ptxas error   : Invalid default cache modifier on load specified: zz",
            "ptxas error   : Invalid default cache modifier on store specified: zz",
            "ptxas fatal   : Input file 'nofile.ptx' could not be opened",
            ABORTED,
        ],
    );
    accepts(&dir, "-arch=sm_80 -maxntid=128 -minnctapersm=2 -maxrregcount=32 v.ptx", &[
        "ptxas warning : Conflicting options -maxrregcount and -minnctapersm specified, ignoring -minnctapersm option",
        "ptxas warning : Conflicting options -maxrregcount and -maxntid specified, ignoring -maxntid option",
    ]);
    rejects(&dir, "-arch=sm_80 -pic=true -g -O1 v.ptx", &[
        "ptxas warning : '--position-independent-code' is a deprecated option and is no longer functional. It will be removed in a future release",
        "ptxas fatal   : Optimized debugging not supported",
    ]);
    accepts(&dir, "-arch=sm_80 -g -lineinfo -Ofc=max v.ptx", &[
        "ptxas warning : Conflicting options --device-debug and --generate-line-info specified, ignoring --generate-line-info option",
        "ptxas warning : Conflicting options '--device-debug' and '--Ofast-compile=<min,mid,max>' specified, ignoring '--Ofast-compile=<min,mid,max>' option",
        "ptxas warning : Option '--device-debug' is not implemented by ptxforge and is ignored",
    ]);
}

#[test]
fn stdin_is_an_input() {
    use std::io::Write;
    let dir = workdir("stdin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .current_dir(&dir)
        .args(["-arch=sm_80", "-", "-o", "stdin.o"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(VADD.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(functions(&dir.join("stdin.o")), ["vadd"]);
}

#[test]
fn options_files() {
    let dir = workdir("optf");
    std::fs::write(
        dir.join("o1.txt"),
        "-arch=sm_80\n-O2   -o \"with space.o\"\n",
    )
    .unwrap();
    accepts(&dir, "-optf o1.txt v.ptx", &[]);
    assert!(dir.join("with space.o").exists());
    std::fs::write(dir.join("o2.txt"), "--options-file o3.txt v.ptx").unwrap();
    std::fs::write(dir.join("o3.txt"), "-arch sm_80 -o nested.o").unwrap();
    accepts(&dir, "-optf o2.txt", &[]);
    assert!(dir.join("nested.o").exists());
    std::fs::write(dir.join("o4.txt"), "-o listed.o").unwrap();
    accepts(&dir, "-optf=o3.txt,o4.txt v.ptx", &["ptxas warning : incompatible redefinition for option 'output-file', the last value of this option was used"]);
    assert!(dir.join("listed.o").exists());
    std::fs::write(dir.join("comment.txt"), "-arch=sm_80 # comment\n").unwrap();
    rejects(
        &dir,
        "-optf comment.txt v.ptx",
        &[
            "ptxas fatal   : Input file '#' could not be opened",
            "ptxas fatal   : Input file 'comment' could not be opened",
            ABORTED,
        ],
    );
    std::fs::write(dir.join("loop.txt"), "-optf loop.txt").unwrap();
    rejects(
        &dir,
        "-optf loop.txt v.ptx",
        &["ptxas fatal   : Too many options file opened 'loop.txt'"],
    );
    rejects(
        &dir,
        "-optf nofile.txt v.ptx",
        &["ptxas fatal   : Could not open options file 'nofile.txt'"],
    );
    std::fs::write(dir.join("bad.txt"), "--knob").unwrap();
    rejects(
        &dir,
        "-optf bad.txt v.ptx",
        &["ptxas fatal   : Unknown option '-knob'"],
    );
    std::fs::write(dir.join("quote.txt"), "-o \"open").unwrap();
    rejects(
        &dir,
        "-optf quote.txt v.ptx",
        &["ptxas fatal   : Stray '\"' character"],
    );
}

#[test]
fn version_help_and_lists_on_stdout() {
    let dir = workdir("info");
    for args in ["--version", "-V", "-V -h v.ptx"] {
        let o = run(&dir, args);
        assert!(o.status.success() && o.stderr.is_empty());
        let text = String::from_utf8(o.stdout).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(text.starts_with("ptxforge: "), "{text}");
    }
    for args in ["--help", "-h", "", "-arch=sm_80"] {
        let o = run(&dir, args);
        assert!(o.status.success() && o.stderr.is_empty());
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(
            text.starts_with("\nUsage  : ptxforge [options] <ptx file>,...\n"),
            "{text}"
        );
        for own in [
            "--threads-dynamic-scheduling",
            "--threads-min-section-size <N>",
            "--dump-sass",
            "--Ofast-compile <0|min|mid|max>",
            "--compiler-stats-json <file>",
            "--fdevice-time-trace <file>",
            "ptxforge sim <ptx file>",
        ] {
            assert!(text.contains(own), "{own}");
        }
    }
    let o = run(&dir, "--list-arch");
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "75\n80\n86\n89\n90\n");
    let o = run(&dir, "-version-ls");
    let versions = String::from_utf8(o.stdout).unwrap();
    assert!(
        versions.starts_with("1.0\n1.1\n")
            && versions.ends_with("9.4\n9.5\n")
            && versions.contains("\n7.8\n"),
        "{versions}"
    );
    rejects(
        &dir,
        "--help=1",
        &["ptxas fatal   : no argument expected after '--help'"],
    );
}

#[test]
fn compile_only_writes_a_relocatable_object() {
    // `-c` (what nvcc -rdc=true asks for) writes an ET_REL object for nvlink.
    let dir = workdir("compile-only");
    for opt in ["-c", "--compile-only"] {
        let _ = std::fs::remove_file(dir.join("rel.o"));
        accepts(&dir, &format!("-arch=sm_80 {opt} v.ptx -o rel.o"), &[]);
        let bytes = std::fs::read(dir.join("rel.o")).expect("an object was written");
        assert_eq!(&bytes[16..18], &[1, 0], "{opt}: e_type is not ET_REL");
    }
}
