//! Instruction selection: what each PTX form becomes, including the semantics that are easy to
//! get wrong (shift clamping, signedness) and the per-architecture differences.

use ptxforge_lower::{lower_function, optimize};
use ptxforge_ptx::parse_module;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

fn lower(body: &str, sm: u32) -> Vec<Instr> {
    let src = format!(
        ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<6>;\n{body}\nret;\n}}\n"
    );
    let m = parse_module(&src, "t.ptx").unwrap_or_else(|d| panic!("{d:?}"));
    let mut k =
        lower_function(&m, &m.functions[0], Sm::new(sm)).unwrap_or_else(|e| panic!("{e:?}"));
    optimize(&mut k.func);
    k.func.instrs().copied().collect()
}

fn ops(instrs: &[Instr]) -> Vec<Opcode> {
    instrs.iter().map(|i| i.op).collect()
}

#[test]
fn shift_by_32_or_more_is_zero_or_sign() {
    let v = lower("ld.param.u32 %r1, [n];\nshr.u32 %r2, %r1, 40;\nshr.s32 %r3, %r1, 40;\nadd.s32 %r4, %r2, %r3;\nld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r4;", 80);
    assert!(
        v.iter()
            .any(|i| (i.op == Opcode::Mov && i.srcs[0] == Src::ZERO)
            // imm-fold reads the zero as RZ in the add that uses it
            || (matches!(i.op, Opcode::Iadd3 { .. })
                && (i.srcs[0] == Src::ZERO || i.srcs[1] == Src::ZERO)))
            // add-fuse reads the add of the zero as a copy: no add and no unsigned shift left
            || !v.iter().any(|i| {
                matches!(i.op, Opcode::Iadd3 { .. })
                    || matches!(i.op, Opcode::Shf { right: true, signed: false, .. })
            }),
        "{:?}",
        ops(&v)
    );
    let sign = Opcode::Shf {
        right: true,
        signed: true,
        wide: false,
        hi: true,
    };
    assert!(
        v.iter().any(|i| i.op == sign && i.srcs[1] == Src::imm(31)),
        "{:?}",
        ops(&v)
    );
}

#[test]
fn unsigned_compare_and_signed_mul_hi() {
    let v = lower("ld.param.u32 %r1, [n];\nsetp.lt.u32 %p1, %r1, 7;\nmul.hi.s32 %r2, %r1, %r1;\n@%p1 bra $L1;\n$L1:\nld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r2;", 80);
    assert!(v.iter().any(|i| matches!(
        i.op,
        Opcode::Isetp {
            cmp: IntCmp::Lt,
            signed: false,
            ..
        }
    )));
    assert!(v.iter().any(|i| matches!(
        i.op,
        Opcode::Imad {
            mode: ImadMode::Hi,
            signed: true,
            ..
        }
    )));
}

#[test]
fn parameters_and_descriptor_per_architecture() {
    let body = "ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nst.global.u32 [%rd1], %r1;";
    let sm75 = lower(body, 75);
    assert!(
        !sm75.iter().any(|i| matches!(i.op, Opcode::Uldc { .. })),
        "sm_75 has no descriptor"
    );
    assert!(sm75
        .iter()
        .any(|i| i.op == Opcode::Mov && i.srcs[0] == Src::cbuf(0, 0x168)));
    let sm80 = lower(body, 80);
    assert!(sm80
        .iter()
        .any(|i| i.op == Opcode::Uldc { wide: true } && i.srcs[0] == Src::cbuf(0, 0x118)));
    let sm90 = lower(body, 90);
    assert!(sm90
        .iter()
        .any(|i| i.op == Opcode::Uldc { wide: true } && i.srcs[0] == Src::cbuf(0, 0x208)));
    assert!(sm90
        .iter()
        .any(|i| i.op == Opcode::Ldc { wide: true } && i.srcs[0] == Src::cbuf(0, 0x210)));
    assert!(sm90
        .iter()
        .any(|i| i.op == Opcode::Ldc { wide: false } && i.srcs[0] == Src::cbuf(0, 0x218)));
}

#[test]
fn unsupported_instruction_names_its_line() {
    let src = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\nstacksave.u64 %rd1;\nret;\n}\n";
    let m = parse_module(src, "t.ptx").unwrap();
    let errs = lower_function(&m, &m.functions[0], Sm::new(80)).unwrap_err();
    assert_eq!(errs[0].line, 7);
    assert!(
        errs[0].message.contains("not supported"),
        "{}",
        errs[0].message
    );
}

#[test]
fn wrong_operand_counts_are_errors_not_panics() {
    for body in [
        "setp.lt.s32 %p1, %r1;",
        "setp.lt.and.f32 %p1, %r1, %r2;",
        "add.s32 %r1, %r2;",
        "selp.b32 %r1, %r2, %r3;",
    ] {
        let src = format!(".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<10>;\n{body}\nret;\n}}\n");
        // The front end's validation catches most of these; lowering must catch the rest.
        let first = match parse_module(&src, "t.ptx") {
            Ok(m) => lower_function(&m, &m.functions[0], Sm::new(80)).unwrap_err()[0]
                .message
                .clone(),
            Err(diags) => diags[0].message.clone(),
        };
        assert!(first.starts_with("Arguments mismatch"), "{body}: {first}");
    }
}

#[test]
fn register_barrier_id_and_count_share_one_packed_register() {
    let v = lower(
        "ld.param.u32 %r1, [n];\nadd.s32 %r2, %r1, 32;\nbar.sync %r1, %r2;",
        80,
    );
    let lop = v
        .iter()
        .find(|i| i.op == Opcode::Lop3 { lut: 0xe2 })
        .expect("the id and count merged by LOP3 0xe2");
    assert_eq!(lop.srcs[1], Src::imm(0x0fff_0000));
    let bar = v
        .iter()
        .find(|i| matches!(i.op, Opcode::Warp(WarpOp::Bar { .. })))
        .expect("a BAR");
    let Dst::Reg(packed) = lop.dsts[0] else {
        panic!("LOP3 writes a register")
    };
    assert_eq!(bar.srcs[0], Src::reg(packed));
    assert_eq!(bar.srcs[1], Src::reg(packed));
}
