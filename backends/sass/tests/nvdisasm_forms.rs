//! Every instruction form the encoder supports, on every architecture, decoded by nvdisasm and
//! compared with our printer's text.

use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};
use ptxforge_sass::encode::encode_instr;
use ptxforge_sass::ir::*;
use ptxforge_sass::oracle::nvdisasm_raw;
use ptxforge_sass::print::print_instr;

fn r(i: u32) -> Src {
    Src::reg(Reg::gpr(i))
}
fn d(i: u32) -> Dst {
    Dst::Reg(Reg::gpr(i))
}
fn p(i: u32) -> Src {
    Src::reg(Reg::pred(i))
}
fn pd(i: u32) -> Dst {
    Dst::Reg(Reg::pred(i))
}
fn ur(i: u32) -> Src {
    Src::reg(Reg::ugpr(i, 2))
}

/// Instruction forms valid on `sm`.
fn forms(sm: Sm) -> Vec<Instr> {
    use Opcode::*;
    let cb = Src::cbuf(0, 0x160);
    let mut v = vec![
        Instr::new(Mov, &[d(1)], &[Src::cbuf(0, 0x28)]),
        Instr::new(Mov, &[d(3)], &[r(4)]),
        Instr::new(Mov, &[d(3)], &[Src::imm(0x3f800000)]),
        Instr::new(S2r(SpecialReg::TidX), &[d(0)], &[]),
        Instr::new(S2r(SpecialReg::CtaIdY), &[d(5)], &[]),
        Instr::new(S2r(SpecialReg::LaneId), &[d(5)], &[]),
        Instr::new(
            Iadd3 { x: false },
            &[d(2), Dst::None],
            &[r(4), r(6), Src::ZERO],
        ),
        Instr::new(Iadd3 { x: false }, &[d(2), pd(0)], &[r(4), cb, Src::ZERO]),
        Instr::new(
            Iadd3 { x: false },
            &[d(2), Dst::None],
            &[r(4), Src::imm(7).negated(), r(8)],
        ),
        Instr::new(
            Iadd3 { x: false },
            &[d(2), Dst::None],
            &[r(4), r(6).negated(), Src::ZERO],
        ),
        Instr::new(
            Iadd3 { x: true },
            &[d(3), Dst::None],
            &[r(5), r(7), Src::ZERO, p(0), Src::FALSE],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            },
            &[d(6)],
            &[r(6), Src::cbuf(0, 0), r(3)],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            },
            &[d(6)],
            &[r(6), r(2), Src::ZERO],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Wide,
                signed: true,
                x: false,
            },
            &[d(2)],
            &[r(6), r(7), cb],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Wide,
                signed: false,
                x: false,
            },
            &[d(2)],
            &[r(6), Src::imm(12), r(4)],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            },
            &[d(2)],
            &[r(6), Src::imm(0xfffffff0), r(4)],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Hi,
                signed: true,
                x: false,
            },
            &[d(2)],
            &[r(6), r(7), Src::ZERO],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Hi,
                signed: false,
                x: false,
            },
            &[d(2)],
            &[r(6), r(7), Src::ZERO],
        ),
        Instr::new(Iabs, &[d(2)], &[r(0)]),
        Instr::new(Fadd { ftz: false }, &[d(9)], &[r(2), r(5)]),
        Instr::new(
            Fadd { ftz: true },
            &[d(9)],
            &[r(2).negated(), r(5).absolute()],
        ),
        Instr::new(Fmul { ftz: false }, &[d(9)], &[r(2), r(5)]),
        Instr::new(Ffma { ftz: false }, &[d(9)], &[r(2), r(5), r(7)]),
        Instr::new(Ffma { ftz: false }, &[d(9)], &[r(2), cb, r(7)]),
        Instr::new(Fmnmx { ftz: false }, &[d(0)], &[r(2), r(5), Src::TRUE]),
        Instr::new(Fmnmx { ftz: false }, &[d(0)], &[r(2), r(5), Src::FALSE]),
        Instr::new(
            Isetp {
                cmp: IntCmp::Ge,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[pd(0), Dst::None],
            &[r(6), cb, Src::TRUE],
        ),
        Instr::new(
            Isetp {
                cmp: IntCmp::Lt,
                signed: false,
                combine: BoolOp::Or,
                ex: false,
            },
            &[pd(1), Dst::None],
            &[r(6), Src::imm(0x7f), p(0)],
        ),
        Instr::new(
            Isetp {
                cmp: IntCmp::Ne,
                signed: true,
                combine: BoolOp::Xor,
                ex: false,
            },
            &[pd(2), Dst::None],
            &[r(6), r(7), p(0).negated()],
        ),
        Instr::new(
            Isetp {
                cmp: IntCmp::Ge,
                signed: false,
                combine: BoolOp::And,
                ex: true,
            },
            &[pd(0), Dst::None],
            &[r(3), r(5), Src::TRUE, p(0)],
        ),
        Instr::new(
            Fsetp {
                cmp: FloatCmp::Geu,
                combine: BoolOp::And,
                ftz: false,
            },
            &[pd(0), Dst::None],
            &[r(0), r(4), Src::TRUE],
        ),
        Instr::new(
            Fsetp {
                cmp: FloatCmp::Lt,
                combine: BoolOp::And,
                ftz: true,
            },
            &[pd(0), Dst::None],
            &[r(0), r(4), Src::TRUE],
        ),
        Instr::new(Sel, &[d(0)], &[r(1), r(2), p(0)]),
        Instr::new(Sel, &[d(0)], &[r(1), Src::imm(2), p(1).negated()]),
        Instr::new(
            Lop3 { lut: 0x96 },
            &[d(0), Dst::None],
            &[r(5), r(4), r(0), Src::FALSE],
        ),
        Instr::new(
            Lop3 { lut: 0xc0 },
            &[d(0), Dst::None],
            &[r(5), Src::imm(0xff00), Src::ZERO, Src::FALSE],
        ),
        Instr::new(
            Shf {
                right: false,
                signed: false,
                wide: false,
                hi: false,
            },
            &[d(0)],
            &[r(7), Src::imm(2), Src::ZERO],
        ),
        Instr::new(
            Shf {
                right: true,
                signed: false,
                wide: false,
                hi: true,
            },
            &[d(7)],
            &[Src::ZERO, Src::imm(8), r(3)],
        ),
        Instr::new(
            Shf {
                right: true,
                signed: true,
                wide: false,
                hi: true,
            },
            &[d(7)],
            &[Src::ZERO, r(4), r(3)],
        ),
        Instr::new(
            Shf {
                right: true,
                signed: true,
                wide: true,
                hi: false,
            },
            &[d(2)],
            &[r(3), Src::imm(3), r(0)],
        ),
        Instr::new(
            Shf {
                right: false,
                signed: false,
                wide: true,
                hi: true,
            },
            &[d(2)],
            &[r(3), r(5), r(0)],
        ),
        Instr::new(Prmt, &[d(5)], &[r(0), Src::imm(0x9910), Src::ZERO]),
        Instr::new(
            Lds {
                size: MemSize::B32,
                offset: 0,
            },
            &[d(9)],
            &[r(5)],
        ),
        Instr::new(
            Lds {
                size: MemSize::B32,
                offset: 0x200,
            },
            &[d(9)],
            &[r(5)],
        ),
        Instr::new(
            Lds {
                size: MemSize::U16,
                offset: 4,
            },
            &[d(9)],
            &[Src::ZERO],
        ),
        Instr::new(
            Sts {
                size: MemSize::B32,
                offset: 0,
            },
            &[],
            &[r(5), r(6)],
        ),
        Instr::new(
            Sts {
                size: MemSize::B64,
                offset: 8,
            },
            &[],
            &[r(5), r(6)],
        ),
        Instr::new(BarSync { id: 0 }, &[], &[]),
        Instr::new(Exit, &[], &[]).guarded(p(0)),
        Instr::new(Exit, &[], &[]),
        Instr::new(Bra { target: 0 }, &[], &[]),
        Instr::new(Bra { target: 1 }, &[], &[]).guarded(p(1).negated()),
        Instr::new(Nop, &[], &[]),
    ];
    for signed in [true, false] {
        v.push(Instr::new(
            if sm.num >= 86 {
                I2fp { signed }
            } else {
                I2f { signed }
            },
            &[d(3)],
            &[r(0)],
        ));
        v.push(Instr::new(
            F2i {
                signed,
                truncate: true,
            },
            &[d(5)],
            &[r(2)],
        ));
        v.push(Instr::new(
            F2i {
                signed,
                truncate: false,
            },
            &[d(5)],
            &[r(2)],
        ));
    }
    if sm.num < 90 {
        v.push(Instr::new(
            Imnmx { signed: true },
            &[d(9)],
            &[r(2), r(5), Src::TRUE],
        ));
        v.push(Instr::new(
            Imnmx { signed: false },
            &[d(9)],
            &[r(2), r(5), Src::FALSE],
        ));
    }
    let u = |i: u32| Reg::ugpr(i, 1);
    v.push(Instr::new(Umov, &[Dst::Reg(u(4))], &[Src::imm(0x400)]));
    v.push(Instr::new(
        Ulea { shift: 0x18 },
        &[Dst::Reg(u(4))],
        &[Src::reg(u(5)), Src::reg(u(4))],
    ));
    v.push(Instr::new(Mov, &[d(4)], &[Src::reg(u(4))]));
    v.push(Instr::new(S2ur(SpecialReg::CtaIdX), &[Dst::Reg(u(6))], &[]));
    if sm.num >= 90 {
        v.push(Instr::new(
            S2ur(SpecialReg::CgaCtaId),
            &[Dst::Reg(u(5))],
            &[],
        ));
    }
    v.push(Instr::new(
        Ldc { wide: false },
        &[d(1)],
        &[Src::cbuf(0, 0x28)],
    ));
    v.push(Instr::new(
        Ldc { wide: true },
        &[d(2)],
        &[Src::cbuf(0, 0x210)],
    ));
    for (size, offset) in [
        (MemSize::B32, 0x1e4),
        (MemSize::B64, 0x1e0),
        (MemSize::U8, 0x163),
        (MemSize::S8, 0x161),
        (MemSize::U16, 0x162),
        (MemSize::S16, 0x16a),
        (MemSize::B32, 0),
    ] {
        v.push(Instr::new(
            LdcIndexed { size },
            &[d(4)],
            &[Src::cbuf(0, offset), r(7)],
        ));
    }
    v.push(Instr::new(
        Uldc { wide: true },
        &[Dst::Reg(Reg::ugpr(4, 2))],
        &[Src::cbuf(0, 0x118)],
    ));
    for size in [
        MemSize::B32,
        MemSize::B64,
        MemSize::U8,
        MemSize::S8,
        MemSize::U16,
        MemSize::S16,
        MemSize::B128,
    ] {
        v.push(Instr::new(
            Ldg {
                size,
                constant: false,
                scope: None,
                offset: 0,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            Stg {
                size,
                scope: None,
                offset: 0,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
        v.push(Instr::new(
            Ld {
                size,
                scope: None,
                offset: 0x10,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            St {
                size,
                scope: None,
                offset: 0x10,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
    }
    v.push(Instr::new(
        Ldg {
            size: MemSize::B32,
            constant: true,
            scope: None,
            offset: 0x80,
        },
        &[d(4)],
        &[r(2), ur(4)],
    ));
    v.push(Instr::new(
        Stg {
            size: MemSize::B32,
            scope: None,
            offset: 4,
        },
        &[],
        &[r(2), r(4), ur(4)],
    ));
    v.push(Instr::new(
        Ldg {
            size: MemSize::B32,
            constant: false,
            scope: None,
            offset: -8,
        },
        &[d(4)],
        &[r(2), ur(4)],
    ));
    v.push(Instr::new(CctlPf2 { offset: 0x200 }, &[], &[r(2)]));
    v.push(Instr::new(CctlPf2 { offset: -0x10 }, &[], &[r(2)]));
    for size in [MemSize::U8, MemSize::S8, MemSize::U16, MemSize::S16] {
        v.push(Instr::new(
            UldcNarrow { size },
            &[Dst::Reg(u(5))],
            &[Src::cbuf(0, 0x16a)],
        ));
    }
    for scope in [MemScope::Cta, MemScope::Gpu, MemScope::Sys] {
        let (size, s) = (MemSize::B64, Some(scope));
        v.push(Instr::new(
            Ldg {
                size,
                constant: false,
                scope: s,
                offset: 0x20,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            Stg {
                size,
                scope: s,
                offset: 0x20,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
        v.push(Instr::new(
            Ld {
                size,
                scope: s,
                offset: -0x20,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            St {
                size,
                scope: s,
                offset: 0x30,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
    }
    v
}

#[test]
fn nvdisasm_agrees_with_printer_on_every_form() {
    let mut failures = Vec::new();
    for sm in SUPPORTED_SMS {
        let forms = forms(sm);
        let offsets: Vec<u32> = vec![0, 0x40];
        let mut code = Vec::new();
        let mut texts = Vec::new();
        for (n, i) in forms.iter().enumerate() {
            let mut i = *i;
            i.deps = Deps {
                stall: 4,
                yld: true,
                ..Deps::default()
            };
            let pc = 16 * n as u32;
            let [lo, hi] =
                encode_instr(sm, &i, pc, &offsets).unwrap_or_else(|e| panic!("{sm}: {e}"));
            code.extend_from_slice(&lo.to_le_bytes());
            code.extend_from_slice(&hi.to_le_bytes());
            texts.push(print_instr(sm, &i, pc, &offsets));
        }
        let Some(decoded) = nvdisasm_raw(sm, &code) else {
            println!("skipped: nvdisasm not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
            return;
        };
        let decoded = match decoded {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!(
                    "{sm}: nvdisasm rejected: {}",
                    bad_forms(sm, &code, &texts, &e)
                ));
                continue;
            }
        };
        assert_eq!(decoded.len(), texts.len(), "{sm}");
        for (ours, theirs) in texts.iter().zip(&decoded) {
            if ours != theirs {
                failures.push(format!("{sm}: ours `{ours}` nvdisasm `{theirs}`"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Names the instructions at the addresses nvdisasm complained about.
fn bad_forms(_sm: Sm, _code: &[u8], texts: &[String], err: &str) -> String {
    let mut out = Vec::new();
    for part in err.split("at address 0x").skip(1) {
        let hex: String = part.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
        if let Ok(addr) = usize::from_str_radix(&hex, 16) {
            out.push(texts.get(addr / 16).cloned().unwrap_or_default());
        }
    }
    format!("{out:?}")
}
