//! The parser's byte-level fast path reads every instruction exactly as the token parser does:
//! the same tree (spans and lines included) and the same diagnostics, on tricky hand-written
//! instructions, the conformance suite, the filetests, broken modules and the corpus.

use std::path::{Path, PathBuf};

use ptxforge_ptx::parse_syntax_with;

fn assert_same_reading(src: &str, name: &str) {
    let (slow, slow_diags) = parse_syntax_with(src, name, false);
    let (fast, fast_diags) = parse_syntax_with(src, name, true);
    assert_eq!(fast_diags, slow_diags, "{name}: diagnostics differ");
    if fast != slow {
        for (f, s) in fast.functions.iter().zip(&slow.functions) {
            for (a, b) in f.body.iter().zip(&s.body) {
                assert_eq!(a, b, "{name}: first differing statement in {}", f.name);
            }
            assert_eq!(f.params, s.params, "{name}: parameters of {}", f.name);
            assert_eq!(f.regs, s.regs, "{name}: registers of {}", f.name);
            assert_eq!(f.vars, s.vars, "{name}: variables of {}", f.name);
            assert_eq!(f, s, "{name}: function {}", f.name);
        }
        assert_eq!(fast.globals, slow.globals, "{name}: module variables");
        panic!("{name}: trees differ");
    }
}

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}

/// Instructions at the edges of what the fast path takes, each inside a kernel.
const TRICKY: &[&str] = &[
    "@ !%p1 bra $L__BB0_1;",
    "@%p1 bra.uni $L__BB0_1;",
    "@p bra $L__BB0_1;",
    "mov.u32 %r1, %tid .x;",
    "mov.u32 %r1, %tid.q;",
    "mov.u32 %r1, %laneid;",
    "mov.u32 %r1, %envreg3;",
    "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+-16];",
    "ld.global.v2.f32 {%f1, _}, [%rd1 + 8];",
    "st.global.v2.f32 [%rd1-8], {%f1, %f2};",
    "st.global.v2.f32 [%rd1+4*2], {%f1, %f2};",
    "ld.global.f32 %f1, [%rd1+(8-4)];",
    "mov.b64 {%r1, {%r2}}, %rd1;",
    "mov.b64 {}, %rd1;",
    "add.s32 %r1, %r2, 0x7fffffffffffffffffff;",
    "add.s32 %r1, %r2, 0x;",
    "add.s32 %r1, %r2, 017;",
    "add.s32 %r1, %r2, 019;",
    "add.s32 %r1, %r2, - 5;",
    "add.s32 %r1, %r2, 5U;",
    "add.s32 %r1, %r2, 5u5;",
    "add.s32 %r1, %r2, 1e5;",
    "mov.f32 %f1, 0f3F800000;",
    "mov.f32 %f1, 0F3F800000;",
    "mov.f32 %f1, 0f3F8000001;",
    "mov.f32 %f1, 0f3F80;",
    "mov.f32 %f1, -0f3F800000;",
    "mov.f64 %fd1, 0d3FF0000000000000;",
    "mov.f64 %fd1, 0D3FF000000000000;",
    "mov.f32 %f1, 1.5;",
    "mov.f32 %f1, -1.5;",
    "setp.eq.s32 %p1|%p2, %r1, 0;",
    "setp.eq.s32 %p1 | %p2, %r1, 0;",
    "st.shared.u32 [smem+4], %r1;",
    "st.shared.u32 [smem], %r1;",
    "mov.u64 %rd1, smem+4;",
    "mov.u64 %rd1, smem;",
    "ld.u32 %r1, [64];",
    "ld.u32 %r1, [-64];",
    "ld.u32 %r1, [];",
    "ld.u32 %r1, [%rd1, {%r1}];",
    "call (%r1), f, (%r2);",
    "add.s32 %r1, /* c */ %r2, 1;",
    "add.s32 %r1, %r2, 1; // trailing",
    "add.s32 %r1,\n    %r2,\n    1;",
    "mov.u32 %r1, %r01;",
    "mov.u32 %r1, %r0;",
    "not.pred %p1, !%p2;",
    "selp.b32 %r1, 1, 0, !%p2;",
    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
    "ld.global.L1::evict_last.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
    "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
    "ld.global.a:: .u32 %r1, [%rd1];",
    "mov.u32 %r1 %r2;",
    "mov.u32 %r1, %r2",
    "mov.u32 %r1, %r2,;",
    "bar.sync 0;",
    "ret;",
    "exit ;",
    "mov.u32 %r1, _;",
    "mov.u32 %r1, $sym;",
    "mov.u32 %r1, 12abc;",
    "mov.u32 %r1, %r\u{e9};",
    "mov.u32 %r1, \0;",
    "ld.global.nc.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];",
    "mad.lo.s32 %r1, %r2, -0x10, %r3;",
    "mov.u32 %r1, %r1x;",
    "mov.u32 %r1, %r01x;",
    "@%p1x bra $L__BB0_1;",
    "@%p_a_very_long_predicate bra $L__BB0_1;",
    "@!%p01 bra $L__BB0_1;",
    "@%p1|%p2 bra $L__BB0_1;",
    "@%p1 @%p2 bra $L__BB0_1;",
    "ld.u32 %r1, [ %rd1 ];",
    "ld.u32 %r1, [%rd1 +4 ];",
    "ld.u32 %r1, [ 64 ];",
    "ld.u32 %r1, [-8];",
    "ld.u32 %r1, [sym - 4];",
    "ld.u32 %r1, [sym+];",
    "ld.u32 %r1, [%rd1 4];",
    "ld.u32 %r1, [+4];",
    "add.s32 %r1, %r2, 1; // a comment that goes on well past sixteen bytes\n ret;",
    "add.s32 %r1, %r2, 1; // a comment that ends the text, well past sixteen bytes",
    "ld.u32 %r1, [%rd1x+4];",
    "L_a: add.s32 %r1, %r2, 1;",
    "L_b :\n// c\nret;",
    "%L_c: ret;",
    "L_d:: ret;",
    "L_e:",
    "BB0_1: ret;",
    "ret: ret;",
    "ret : ret;",
    "add.s32: add.s32 %r1, %r2, 1;",
    "$x add.s32 %r1, %r2, 1;",
    "mov.u32 %r1, %r2; mov.u32%r1, %r2; mov.u32[%r1], %r2; ret;ret; ret ;",
    "add.s32 %r1, %r2, 1;\n\n// c\n\n@%p1 bra $L__BB0_1;\nmov.u32 %r1,\n%r2; ret;\n\nL_g\n: ret;\x0cret;\n",
    "add.s32 %r1, %r2, 1; add.s32 %r1, %r2, 1;\nadd.s32 %r1, %r2, 1;\r\n\tL_f: ret;",
    "add.s32 %r1, %r2, 1; /* c */ add.s32 %r1, %r2, 1;",
    "add.s32 %r1, %r2, 1; // c\n add.s32 %r1, %r2, 1;",
    "add.s32 %r1, %r2, 1; // c",
    "{ add.s32 %r1, %r2, 1; }",
    "add.s32 %r1, %r2, 1; { add.s32 %r1, %r2, 1; }",
    ".reg .b32 %q; add.s32 %r1, %r2, 1;",
    "add.s32 %r1, %r2, 1; .reg .b32 %q;",
    "add.s32 %r1, %r2, 1; / add.s32 %r1, %r2, 1;",
    ".pragma \"nounroll\";",
    ".pragma \"nounroll\" ;",
    ".pragma\t\"nounroll\";ret;",
    ".pragma \"nounrol\";",
    ".pragma \"nounrollx\";",
    ".pragma \"unknown\";",
    ".pragma \"used_bytes_mask 61695\";",
    ".pragma \"nounroll\", \"x\";",
    ".pragma \"nounroll\"",
    ".pragma \"nounroll;",
    ".pragma nounroll;",
    ".pragma \"nounroll\"\n;",
    ".pragma \"nounroll\"; // c",
    ".pragma \"nounroll\";.pragma \"nounroll\";",
    "ret; .pragma \"nounroll\"; ret;",
    "{ .pragma \"nounroll\"; }",
];

#[test]
fn tricky_instructions_read_alike() {
    for (k, instr) in TRICKY.iter().enumerate() {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.shared .u32 smem[4];\n.visible .entry k{k}(.param .u64 p)\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<5>;\n.reg .f32 %f<5>;\n.reg .f64 %fd<2>;\n.reg .b64 %rd<3>;\n{instr}\n$L__BB0_1:\nret;\n}}\n"
        );
        assert_same_reading(&src, &format!("tricky {instr:?}"));
        // The instruction cut short anywhere (a section may end inside it).
        for cut in (src.len() - 30..src.len()).filter(|&i| src.is_char_boundary(i)) {
            assert_same_reading(&src[..cut], &format!("tricky {instr:?} cut at {cut}"));
        }
    }
}

/// Register declarations at the edges of what the fast path takes, each inside a kernel.
const REG_DECLS: &[&str] = &[
    ".reg .b32 %q<4>;",
    ".reg .b32 %q;",
    ".reg .pred q;",
    ".reg .pred $q;",
    ".reg .b32 %q$1<2>;",
    ".reg  .b32\t%q < 4 > ;",
    ".reg .b32 %q<4> ;\r\nret;",
    ".reg\r\n.b32 %q<4>;",
    ".reg .b32\n%q<4>;",
    ".reg .b32 %q\n<4>;",
    ".reg .b32 %q<4>; // c",
    ".reg .b32 /* c */ %q<4>;",
    ".reg .b32 %q<4 /* c */>;",
    ".reg .b32 %q<-4>;",
    ".reg .b32 %q<- 4>;",
    ".reg .b32 %q<0x10>;",
    ".reg .b32 %q<0X10U>;",
    ".reg .b32 %q<010>;",
    ".reg .b32 %q<019>;",
    ".reg .b32 %q<0>;",
    ".reg .b32 %q<4294967296>;",
    ".reg .b32 %q<18446744073709551616>;",
    ".reg .b32 %q<999999999999999999999999999999999999999999>;",
    ".reg .b32 %q<4u>;",
    ".reg .b32 %q<4.5>;",
    ".reg .b32 %q<4x>;",
    ".reg .b32 %q<>;",
    ".reg .b32 %q<4;",
    ".reg .b32 %q<4> = 1;",
    ".reg .b32 %q = 1;",
    ".reg .b32 %q, %s;",
    ".reg .b32 %q<2>, %s<2>;",
    ".reg .b32 %q[4];",
    ".reg .b32 %q<2>[4];",
    ".reg .v2 .b32 %q;",
    ".reg .pred .v2 %q;",
    ".reg .v2 .pred %q;",
    ".reg .bf16 %q;",
    ".reg .bf16x2 %q;",
    ".reg .f16x2 %q<2>;",
    ".reg .b128 %q<2>;",
    ".reg .b32 .b32 %q;",
    ".reg .b32 .u32 %q;",
    ".reg .b33 %q;",
    ".reg .b32 %q",
    ".reg .b32;",
    ".reg .b32 ;",
    ".reg;",
    ".reg %q;",
    ".reg.b32 %q<4>;",
    ".reg .b32%q<4>;",
    ".reg .b32 %q<4>;.reg .b32 %s<4>;",
    ".reg .texref %q;",
    ".reg .align 4 .b32 %q;",
    ".reg .shared .b32 %q;",
    ".reg .b32 5;",
    ".reg .b32 %q<4>x;",
    ".reg .b32 %r<5>;",
    ".reg .b32 %r\u{e9}<2>;",
    ".reg .b\u{e9} %q;",
    "{ .reg .pred p; ret; }",
    "{\n.reg .b32 %q<4>;\n{ .reg .pred p; }\n}",
    ".reg .b32 %q<4>; add.s32 %q1, %q2, 1;",
    "add.s32 %r1, %r2, 1;\n.reg .b32 %q<4>;\nadd.s32 %q1, %q2, 1;",
];

#[test]
fn tricky_register_declarations_read_alike() {
    for (k, decl) in REG_DECLS.iter().enumerate() {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k{k}(.param .u64 p)\n{{\n.reg .b32 %r<5>;\n{decl}\nret;\n}}\n"
        );
        assert_same_reading(&src, &format!("register declaration {decl:?}"));
        for cut in (src.len() - 40..src.len()).filter(|&i| src.is_char_boundary(i)) {
            assert_same_reading(
                &src[..cut],
                &format!("register declaration {decl:?} cut at {cut}"),
            );
        }
    }
}

/// Parameter lists at the edges of what the fast path takes, each the parameters of a kernel
/// and the return parameters of a function.
const PARAM_LISTS: &[&str] = &[
    "(.param .u64 a)",
    "(.param .u64 a, .param .u32 b)",
    "(\n\t.param .u64 a,\n\t.param .u64 b\n)",
    "( .param .u64 a , .param .u64 b )",
    "(.param .align 8 .b8 a[16])",
    "(.param .align 8 .b8 a[16], .param .align 1 .b8 b[1])",
    "(.param .align 4 .b8 a[2][3])",
    "(.param .b8 a[])",
    "(.param .b8 a[][2])",
    "(.param .b8 a[0])",
    "(.param .b8 a[0x10])",
    "(.param .b8 a[010])",
    "(.param .b8 a[4U])",
    "(.param .b8 a[-1])",
    "(.param .b8 a[- 1])",
    "(.param .b8 a[99999999999999999999999])",
    "(.param .b8 a[18446744073709551615][2])",
    "(.param .b8 a[4.5])",
    "(.param .b8 a[4)",
    "(.param .b8 a 4])",
    "(.param .b8 a[4] [2])",
    "(.param .align 3 .b8 a[4])",
    "(.param .align 0 .b8 a[4])",
    "(.param .align -4 .b8 a[4])",
    "(.param .align 4294967296 .b8 a[4])",
    "(.param .align 0x10 .b8 a[4])",
    "(.param .align .b8 a[4])",
    "(.param .b8 .align 4 a[4])",
    "(.param .align 4 .align 8 .b8 a[4])",
    "(.param .u32 .u32 a)",
    "(.param .pred a)",
    "(.param .pred a[2])",
    "(.param .bf16 a)",
    "(.param .bf16x2 a)",
    "(.param .f16x2 a)",
    "(.param .b128 a)",
    "(.param .v2 .u32 a)",
    "(.param .u64 .ptr .global .align 16 a)",
    "(.param .u64 .ptr .align 16 a)",
    "(.param .texref t)",
    "(.param .samplerref t)",
    "(.reg .u32 a)",
    "(.u32 a)",
    "(.param .u32 a<4>)",
    "(.param .u32 %a)",
    "(.param .u32 $a)",
    "(.param .u32 a = 1)",
    "(.param .u32 a,)",
    "(.param .u32 a .param .u32 b)",
    "(.param .u32 a, // c\n.param .u32 b)",
    "(.param .u32 a, /* c */ .param .u32 b)",
    "(.param .u32 a",
    "(.param .u32 a;",
    "(.param .u32)",
    "(.param a)",
    "(.param .u32 5)",
    "(.param .u32 a.b)",
    "(.param .u32 a\n,\n.param .u32 b\n)",
    "(.param\n.u32\na)",
    "(.param .u32 a[\n4\n])",
    "(.param .b8 q[]\n)",
    "(.param .u32 a\u{e9})",
    "(.param .u\u{e9} a)",
    "(.param .shared .u32 a)",
    "(.param.u32 a)",
    "(.param .u32a)",
    "(.param .u32 a)(.param .u32 b)",
    "()",
    "( )",
    "(.param .s8 a, .param .f64 b, .param .f32 c, .param .b16 d, .param .s64 e)",
];

#[test]
fn tricky_parameter_lists_read_alike() {
    for (k, list) in PARAM_LISTS.iter().enumerate() {
        for src in [
            format!(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k{k}{list}\n{{\nret;\n}}\n"),
            format!(".version 8.0\n.target sm_90\n.address_size 64\n.func {list} f{k}(.param .u32 x)\n{{\nret;\n}}\n"),
        ] {
            assert_same_reading(&src, &format!("parameter list {list:?}"));
            for cut in (src.len() - 40..src.len()).filter(|&i| src.is_char_boundary(i)) {
                assert_same_reading(&src[..cut], &format!("parameter list {list:?} cut at {cut}"));
            }
        }
    }
}

/// Variable declarations in a body at the edges of what the fast path takes, each inside a
/// kernel.
const VAR_DECLS: &[&str] = &[
    ".shared .align 4 .b8 buf[1024];",
    ".shared .u32 s;",
    ".local .align 8 .b8 l[16];",
    ".const .u32 c;",
    ".global .u32 g;",
    ".param .b64 p;",
    ".shared .align 16 .b8 s[2][8];",
    ".shared .b8 s[];",
    ".shared .b8 s[0];",
    ".shared .align 3 .b8 s[4];",
    ".shared .align 0 .b8 s[4];",
    ".shared .b8 s[-4];",
    ".shared .b8 s[4] = {1, 2, 3, 4};",
    ".shared .u32 s = 5;",
    ".shared .u32 s, t;",
    ".shared .u32 s[2], t;",
    ".shared .u32 %s<4>;",
    ".shared .u32 %s;",
    ".shared .v2 .u32 s;",
    ".shared .pred s;",
    ".shared .pred s[2];",
    ".shared .bf16 s;",
    ".shared .texref t;",
    ".global .texref t;",
    ".shared .global .u32 s;",
    ".shared .u32 s",
    ".shared .u32 s[4]",
    ".shared .u32 s; // c",
    ".shared /* c */ .u32 s;",
    ".shared .u32\ns;",
    ".shared .u32 s\n;",
    ".shared .u32 s[\n4];",
    ".shared  .align\t4 .b8 s [ 4 ] ;",
    ".shared .align 4 .b8 s[4];.shared .align 4 .b8 t[4];",
    ".shared .u32 s;\nadd.s32 %r1, %r2, 1;",
    "add.s32 %r1, %r2, 1;\n.shared .u32 s;",
    "{ .shared .u32 s; }",
    "{ add.s32 %r1, %r2, 1; .shared .u32 s; }",
    "{\n.shared .u32 s;\n{ .local .u32 t; }\n}",
    ".shared .u32 s<4>;",
    ".shared .u32 s$1;",
    ".shared::cta .u32 s;",
    ".shared .u32 \u{e9};",
    ".shared .u32 s\u{e9};",
    ".shared .b8 s[99999999999999999999999];",
    ".shared .b8 s[4x];",
    ".shared .b8 s[0x10];",
    ".extern .shared .align 16 .b8 dyn[];",
    ".tex .u32 t;",
    ".reg .b32 %q; .shared .u32 s;",
    ".loc 1 2 3\n.shared .u32 s;",
    ".shared .align 4 .b8 s[8];\nld.shared.u32 %r1, [s+4];",
    ".shared .align 4 .b8 %r1[8];",
    ".shared .u32 s; .shared .u32 s;",
    ".shared;",
    ".shared .u32;",
    ".shared .align 4;",
];

#[test]
fn tricky_variable_declarations_read_alike() {
    for (k, decl) in VAR_DECLS.iter().enumerate() {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k{k}(.param .u64 p)\n{{\n.reg .b32 %r<5>;\n{decl}\nret;\n}}\n"
        );
        assert_same_reading(&src, &format!("variable declaration {decl:?}"));
        for cut in (src.len() - 40..src.len()).filter(|&i| src.is_char_boundary(i)) {
            assert_same_reading(
                &src[..cut],
                &format!("variable declaration {decl:?} cut at {cut}"),
            );
        }
    }
}

/// Initializers at the edges of what the fast path takes.
const INITIALIZERS: &[&str] = &[
    ".global .align 1 .b8 a[4] = {1, 2, 3, 4};",
    ".global .align 1 .b8 a[4] = {1,2,3,4};",
    ".global .align 1 .b8 a[4] = { 1 , 2 ,\n 3, 4 };",
    ".global .align 1 .b8 a[4] = {1, 2, 3, 4, };",
    ".global .align 1 .b8 a[4] = {};",
    ".global .align 1 .b8 a[4] = {1, 2, /* c */ 3, 4};",
    ".global .align 1 .b8 a[4] = {1, 2, // c\n 3, 4};",
    ".global .u32 a[2] = {0x10, 0XffU};",
    ".global .s32 a[2] = {-1, - 2};",
    ".global .u64 a[2] = {0x1FFFFFFFFFFFFFFFF, 0x80000000000000000};",
    ".global .u32 a[2] = {017, 019};",
    ".global .u64 a[4] = {18446744073709551615, 18446744073709551616, 184467440737095516150, 0};",
    ".global .u64 a[3] = {9223372036854775808, 92233720368547758080, 0U};",
    ".global .u32 a[2] = {0, 00};",
    ".global .u32 a[2] = {0x, 0u};",
    ".global .f32 a[2] = {1.5, -2.5};",
    ".global .f32 a[2] = {0f3F800000, 1};",
    ".global .u32 a[2][2] = {{1, 2}, {3, 4}};",
    ".global .u32 a[2] = {1 2};",
    ".global .u32 a[2] = {1, 2",
    ".global .u32 a[2] = {1, 2;",
    ".global .u32 a[2] = {1, 2}",
    ".global .u64 a[2] = {g, generic(g)};",
    ".global .u32 a[2] = {1, 2x};",
    ".global .u32 a[2] = {1, _};",
];

#[test]
fn tricky_initializers_read_alike() {
    for init in INITIALIZERS {
        let src = format!(".version 8.0\n.target sm_90\n.address_size 64\n.global .u32 g;\n{init}\n.visible .entry k()\n{{\nret;\n}}\n");
        assert_same_reading(&src, &format!("initializer {init:?}"));
        for cut in (src.len() - 40..src.len()).filter(|&i| src.is_char_boundary(i)) {
            assert_same_reading(&src[..cut], &format!("initializer {init:?} cut at {cut}"));
        }
    }
}

#[test]
fn conformance_cases_and_filetests_read_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = ptx_files(&root.join("tests/conformance"));
    files.extend(ptx_files(&root.join("../driver/tests/filetests")));
    assert!(files.len() > 200, "only {} files", files.len());
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        assert_same_reading(&src, &path.display().to_string());
    }
}

/// Broken modules: every filetest concatenated, cut, or with a brace, quote or comment opener
/// inserted or a byte dropped at sixty places.
#[test]
fn broken_modules_read_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all: String = ptx_files(&root.join("../driver/tests/filetests"))
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let places: Vec<usize> = all.char_indices().map(|(i, _)| i).collect();
    for k in (0..places.len()).step_by(places.len() / 60) {
        let at = places[k];
        assert_same_reading(&all[..at], "cut.ptx");
        for insert in ["}", "{", "\"", "/*", "//", ";", ",", "[", "%"] {
            assert_same_reading(
                &format!("{}{insert}{}", &all[..at], &all[at..]),
                "insert.ptx",
            );
        }
        assert_same_reading(
            &format!("{}{}", &all[..at], all[at..].get(1..).unwrap_or("")),
            "drop.ptx",
        );
    }
}

#[test]
fn corpus_reads_alike() {
    if cfg!(debug_assertions) {
        println!("skipped: the corpus comparison runs in release builds");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !dir.join("MANIFEST.tsv").is_file() {
        println!("skipped: corpus absent at {}", dir.display());
        return;
    }
    let mut count = 0;
    for sub in ["cutlass", "cccl"] {
        for path in ptx_files(&dir.join(sub)) {
            assert_same_reading(
                &std::fs::read_to_string(&path).unwrap(),
                &path.display().to_string(),
            );
            count += 1;
        }
    }
    assert!(count > 0);
}
