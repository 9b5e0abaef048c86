//! The hazard checker passes on scheduled code and catches a removed scoreboard wait and a
//! too-short stall planted in the encoded control bits.

use ptxforge_sass::arch::Sm;
use ptxforge_sass::encode::encode_function;
use ptxforge_sass::hazard::check_hazards;
use ptxforge_sass::ir::*;
use ptxforge_sass::schedule::schedule;

fn r(i: u32) -> Reg {
    Reg::gpr(i)
}

/// S2R R0; IMAD R2 = R0*R0; ISETP P0 = R2 < 7; @P0 EXIT; FADD R3 = R2 + R2; EXIT — already allocated.
fn kernel() -> Function {
    let mut f = Function {
        name: "k".into(),
        allocated: true,
        ..Function::default()
    };
    let isetp = Opcode::Isetp {
        cmp: IntCmp::Lt,
        signed: true,
        combine: BoolOp::And,
        ex: false,
    };
    f.blocks.push(Block {
        instrs: vec![
            Instr::new(Opcode::S2r(SpecialReg::TidX), &[Dst::Reg(r(0))], &[]),
            Instr::new(
                Opcode::Imad {
                    mode: ImadMode::Lo,
                    signed: true,
                    x: false,
                },
                &[Dst::Reg(r(2))],
                &[Src::reg(r(0)), Src::reg(r(0)), Src::ZERO],
            ),
            Instr::new(
                isetp,
                &[Dst::Reg(Reg::pred(0)), Dst::None],
                &[Src::reg(r(2)), Src::imm(7), Src::TRUE],
            ),
            Instr::new(Opcode::Exit, &[], &[]).guarded(Src::reg(Reg::pred(0))),
        ],
    });
    f.blocks.push(Block {
        instrs: vec![
            Instr::new(
                Opcode::Fadd {
                    ftz: false,
                    rnd: Round::Rn,
                },
                &[Dst::Reg(r(3))],
                &[Src::reg(r(2)), Src::reg(r(2))],
            ),
            Instr::new(Opcode::Exit, &[], &[]),
        ],
    });
    f
}

fn scheduled(sm: Sm) -> (Function, Vec<u8>) {
    let mut f = kernel();
    schedule(&mut f, sm);
    let code = encode_function(sm, &f).unwrap();
    (f, code)
}

/// Rewrites the control bits (bits 105..125) of word `n`.
fn patch_ctrl(code: &mut [u8], n: usize, edit: impl Fn(u64) -> u64) {
    let at = n * 16 + 8;
    let hi = u64::from_le_bytes(code[at..at + 8].try_into().unwrap());
    let ctrl = edit(hi >> 41) & 0x1f_ffff;
    let hi = (hi & ((1 << 41) - 1)) | (ctrl << 41);
    code[at..at + 8].copy_from_slice(&hi.to_le_bytes());
}

#[test]
fn scheduled_code_is_clean_on_every_arch() {
    for sm in ptxforge_sass::arch::SUPPORTED_SMS {
        let (f, code) = scheduled(sm);
        assert_eq!(check_hazards(sm, &f, &code), Ok(()), "{sm}");
    }
}

#[test]
fn catches_a_removed_scoreboard_wait() {
    let sm = Sm::new(80);
    let (f, mut code) = scheduled(sm);
    patch_ctrl(&mut code, 1, |c| c & !(0x3f << 11));
    let err = check_hazards(sm, &f, &code).unwrap_err();
    assert!(
        err.iter()
            .any(|h| h.index == 1 && h.message.contains("without waiting")),
        "{err:?}"
    );
}

#[test]
fn catches_a_too_short_stall() {
    let sm = Sm::new(80);
    let (f, mut code) = scheduled(sm);
    patch_ctrl(&mut code, 2, |c| (c & !0xf) | 1);
    let err = check_hazards(sm, &f, &code).unwrap_err();
    assert!(err.iter().any(|h| h.index == 3 && h.reg == "P0"), "{err:?}");
}

/// HMMA.16816.F32 R12, R4, R8, R12; MOV R4, 0 (overwrites an A register); FADD R20 = R12 + R12;
/// EXIT — allocated.
fn tensor_kernel() -> Function {
    let group = |idx: u32, comps: u8| Reg {
        comps,
        ..Reg::gpr(idx)
    };
    let op = MmaOp {
        shape: MmaShape { m: 16, n: 8, k: 16 },
        a: MmaElem::F16,
        b: MmaElem::F16,
        acc: MmaElem::F32,
        sat: false,
        scoreboarded: false,
    };
    let mut f = Function {
        name: "t".into(),
        allocated: true,
        ..Function::default()
    };
    f.blocks.push(Block {
        instrs: vec![
            Instr::new(
                Opcode::Mma(op),
                &[Dst::Reg(group(12, 4))],
                &[
                    Src::reg(group(4, 4)),
                    Src::reg(group(8, 2)),
                    Src::reg(group(12, 4)),
                ],
            ),
            Instr::new(Opcode::Mov, &[Dst::Reg(r(4))], &[Src::ZERO]),
            Instr::new(
                Opcode::Fadd {
                    ftz: false,
                    rnd: Round::Rn,
                },
                &[Dst::Reg(r(20))],
                &[Src::reg(r(12)), Src::reg(r(12))],
            ),
            Instr::new(Opcode::Exit, &[], &[]),
        ],
    });
    f
}

#[test]
fn tensor_ops_are_padded_and_their_sources_held() {
    let sm = Sm::new(80);
    let mut f = tensor_kernel();
    schedule(&mut f, sm);
    let ops: Vec<Opcode> = f.instrs().map(|i| i.op).collect();
    // 24 cycles to the FADD: more than one stall can say, so a NOP pads the gap.
    assert!(ops.contains(&Opcode::Nop), "{ops:?}");
    let code = encode_function(sm, &f).unwrap();
    assert_eq!(check_hazards(sm, &f, &code), Ok(()));
    assert!(
        f.blocks[0].instrs[0].deps.stall >= 7,
        "the MOV waits for the A read"
    );
    let mut early = code.clone();
    patch_ctrl(&mut early, 0, |c| (c & !0xf) | 1);
    let err = check_hazards(sm, &f, &early).unwrap_err();
    assert!(
        err.iter()
            .any(|h| h.index == 1 && h.reg == "R4" && h.message.contains("tensor-op source")),
        "{err:?}"
    );
}
