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

#[path = "nvdisasm_forms/families.rs"]
mod families;
use families::*;
#[path = "nvdisasm_forms/arrives.rs"]
mod arrives;
#[path = "nvdisasm_forms/barriers_sregs.rs"]
mod barriers_sregs;
#[path = "nvdisasm_forms/cluster.rs"]
mod cluster;
#[path = "nvdisasm_forms/matrix_move.rs"]
mod matrix_move;
#[path = "nvdisasm_forms/mma_sparse.rs"]
mod mma_sparse;
#[path = "nvdisasm_forms/texture.rs"]
mod texture;
#[path = "nvdisasm_forms/tma.rs"]
mod tma;

#[path = "nvdisasm_forms/atomic_float.rs"]
mod atomic_float;
#[path = "nvdisasm_forms/cache_hints.rs"]
mod cache_hints;
#[path = "nvdisasm_forms/half_rest.rs"]
mod half_rest;
#[path = "nvdisasm_forms/scalar.rs"]
mod scalar;
#[path = "nvdisasm_forms/warp_match.rs"]
mod warp_match;
#[path = "nvdisasm_forms/wgmma.rs"]
mod wgmma;

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
        // -RZ: its negation must be encoded (the borrow of a 64-bit a - 0).
        Instr::new(
            Iadd3 { x: false },
            &[d(2), pd(0)],
            &[r(4), Src::ZERO.negated(), Src::ZERO],
        ),
        Instr::new(
            Iadd3 { x: true },
            &[d(3), Dst::None],
            &[r(5), r(7), Src::ZERO, p(0), Src::FALSE],
        ),
        // LEA / LEA.HI.X: shl.b64 + add.s64 of an address (lea_fold).
        Instr::new(
            Lea {
                hi: false,
                shift: 2,
            },
            &[d(6), pd(1)],
            &[r(13), r(2)],
        ),
        Instr::new(
            Lea {
                hi: false,
                shift: 3,
            },
            &[d(6), Dst::None],
            &[r(13), cb],
        ),
        Instr::new(
            Lea { hi: true, shift: 2 },
            &[d(7)],
            &[r(13), r(3), Src::ZERO, p(1)],
        ),
        Instr::new(
            Lea {
                hi: true,
                shift: 31,
            },
            &[d(7)],
            &[r(13), Src::cbuf(0, 0x164), r(9), p(0)],
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
        Instr::new(
            Fadd {
                ftz: false,
                rnd: Round::Rn,
            },
            &[d(9)],
            &[r(2), r(5)],
        ),
        Instr::new(
            Fadd {
                ftz: true,
                rnd: Round::Rn,
            },
            &[d(9)],
            &[r(2).negated(), r(5).absolute()],
        ),
        Instr::new(
            Fadd {
                ftz: false,
                rnd: Round::Rz,
            },
            &[d(9)],
            &[r(2), r(5).negated()],
        ),
        Instr::new(
            Fadd {
                ftz: true,
                rnd: Round::Rz,
            },
            &[d(9)],
            &[r(2), r(5)],
        ),
        Instr::new(
            Fadd {
                ftz: false,
                rnd: Round::Rm,
            },
            &[d(9)],
            &[r(2), r(5)],
        ),
        Instr::new(
            Fadd {
                ftz: true,
                rnd: Round::Rp,
            },
            &[d(9)],
            &[r(2).negated(), r(5)],
        ),
        // nvdisasm's IMAD aliases: .MOV (zero product or a * 1 + RZ), .IADD (a * 1 + c), .SHL.
        Instr::new(
            imad_lo(false),
            &[d(6)],
            &[Src::ZERO, Src::cbuf(0, 0x190), Src::ZERO],
        ),
        Instr::new(imad_lo(true), &[d(6)], &[r(2), Src::ZERO, Src::ZERO]),
        Instr::new(imad_lo(true), &[d(6)], &[r(2), Src::imm(1), r(4)]),
        Instr::new(imad_lo(false), &[d(6)], &[r(2), Src::imm(8), Src::ZERO]),
        Instr::new(imad_lo(true), &[d(6)], &[r(2), Src::imm(6), Src::ZERO]),
        // f32 immediates with their sign (an immediate has no modifier bits), and FFMA's C forms
        // with a negated register B (it moves to the C slot and takes C's modifier bits).
        Instr::new(
            Ffma { ftz: false },
            &[d(9)],
            &[r(2), r(5), Src::imm(0xbf00_0000)],
        ),
        Instr::new(
            Ffma { ftz: false },
            &[d(9)],
            &[r(2), r(5).negated(), Src::imm(0x3f00_0000)],
        ),
        Instr::new(
            Ffma { ftz: false },
            &[d(9)],
            &[r(2), r(5), Src::imm(0x3f00_0000).negated()],
        ),
        Instr::new(Ffma { ftz: false }, &[d(9)], &[r(2), r(5).negated(), cb]),
        Instr::new(
            Ffma { ftz: false },
            &[d(9)],
            &[r(2).negated(), Src::imm(0xc000_0000), r(7).absolute()],
        ),
        Instr::new(
            Fmul { ftz: false },
            &[d(9)],
            &[r(2), Src::imm(0x4000_0000).negated()],
        ),
        Instr::new(
            Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            },
            &[d(0)],
            &[r(9), r(0), Src::imm(0xffff_ffff)],
        ),
        // FADD's immediate and constant-bank forms (the second operand's C forms).
        Instr::new(
            Fadd {
                ftz: false,
                rnd: Round::Rn,
            },
            &[d(9)],
            &[r(2), Src::imm(0xc1c0_0000)],
        ),
        Instr::new(
            Fadd {
                ftz: true,
                rnd: Round::Rn,
            },
            &[d(9)],
            &[r(2).negated(), cb],
        ),
        Instr::new(
            Iadd3 { x: false },
            &[d(9), Dst::None],
            &[r(2), Src::imm(100), r(5).negated()],
        ),
        Instr::new(MufuRcp, &[d(9)], &[r(2)]),
        Instr::new(MufuRsq, &[d(9)], &[r(2)]),
        Instr::new(
            Frnd {
                ftz: false,
                rnd: Round::Rn,
            },
            &[d(9)],
            &[r(2)],
        ),
        Instr::new(
            Frnd {
                ftz: true,
                rnd: Round::Rz,
            },
            &[d(9)],
            &[r(2)],
        ),
        Instr::new(
            Frnd {
                ftz: false,
                rnd: Round::Rm,
            },
            &[d(9)],
            &[r(2)],
        ),
        Instr::new(
            Frnd {
                ftz: false,
                rnd: Round::Rp,
            },
            &[d(9)],
            &[r(2)],
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
        // LOP3's predicate output with a predicate input (`lop3.{or,and}.b32 d|p, ...`).
        Instr::new(
            Lop3 { lut: 0x96 },
            &[d(4), pd(1)],
            &[r(10), r(0), r(5), p(1)],
        ),
        Instr::new(
            Lop3Pand { lut: 0xe8 },
            &[d(7), pd(0)],
            &[r(10), r(0), r(5), p(1)],
        ),
        Instr::new(
            Lop3Pand { lut: 0x80 },
            &[d(6), pd(2)],
            &[r(10), Src::imm(0x8000_0000), r(0), p(1).negated()],
        ),
        Instr::new(
            Lop3 { lut: 0x12 },
            &[Dst::None, pd(0)],
            &[r(10), r(5), r(0), p(0)],
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
        Instr::new(
            Prmt {
                mode: PrmtMode::Index,
            },
            &[d(5)],
            &[r(0), Src::imm(0x9910), Src::ZERO],
        ),
        Instr::new(Vabsdiff { signed: true }, &[d(5)], &[r(0), r(6), r(7)]),
        Instr::new(Vabsdiff4 { acc: false }, &[d(5)], &[r(0), r(6), r(7)]),
        Instr::new(Vabsdiff4 { acc: true }, &[d(5)], &[r(0), r(6), r(7)]),
        Instr::new(
            Vabsdiff { signed: false },
            &[d(5)],
            &[r(0), Src::imm(7), r(7)],
        ),
        Instr::new(
            Vabsdiff { signed: true },
            &[d(5)],
            &[r(0), r(6), Src::imm(0xfffffff7)],
        ),
        Instr::new(
            Prmt {
                mode: PrmtMode::F4e,
            },
            &[d(5)],
            &[r(0), r(6), r(7)],
        ),
        Instr::new(
            Prmt {
                mode: PrmtMode::Rc16,
            },
            &[d(5)],
            &[r(0), Src::imm(2), r(7)],
        ),
        Instr::new(
            Prmt {
                mode: PrmtMode::Ecr,
            },
            &[d(5)],
            &[r(0), r(6), r(7)],
        ),
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
        Instr::new(
            Ldl {
                size: MemSize::B32,
                offset: 0,
            },
            &[d(9)],
            &[r(1)],
        ),
        Instr::new(
            Ldl {
                size: MemSize::U8,
                offset: 0x1c,
            },
            &[d(9)],
            &[r(6)],
        ),
        Instr::new(
            Ldl {
                size: MemSize::B128,
                offset: -0x10,
            },
            &[d(8)],
            &[r(1)],
        ),
        Instr::new(
            Ldl {
                size: MemSize::S16,
                offset: 6,
            },
            &[d(9)],
            &[Src::ZERO],
        ),
        Instr::new(
            Stl {
                size: MemSize::B32,
                offset: 0,
            },
            &[],
            &[r(1), r(6)],
        ),
        Instr::new(
            Stl {
                size: MemSize::B64,
                offset: 0x28,
            },
            &[],
            &[r(3), r(6)],
        ),
        Instr::new(
            Stl {
                size: MemSize::U8,
                offset: 3,
            },
            &[],
            &[r(1), Src::ZERO],
        ),
        Instr::new(
            Iadd3 { x: false },
            &[d(1), Dst::None],
            &[r(1), Src::imm(0xffffffd8), Src::ZERO],
        ),
        Instr::new(BarSync { id: 0 }, &[], &[]),
        Instr::new(Exit, &[], &[]).guarded(p(0)),
        Instr::new(Exit, &[], &[]),
        Instr::new(Bra { target: 0 }, &[], &[]),
        Instr::new(Bra { target: 1 }, &[], &[]).guarded(p(1).negated()),
        // Subroutine calls (recursion): forward and backward, the return and its address.
        Instr::new(Call { target: 1 }, &[], &[]),
        Instr::new(Call { target: 0 }, &[], &[]),
        Instr::new(Ret, &[], &[Src::reg(Reg::gpr64(20))]),
        Instr::new(Ret, &[], &[Src::reg(Reg::gpr64(6))]),
        Instr::new(RetAddr { block: 1 }, &[d(20)], &[]),
        Instr::new(Nop, &[], &[]),
        // Calls of external functions (vprintf): the return address, the call.
        Instr::new(
            Lepc,
            &[Dst::Reg(Reg::gpr64(20))],
            &[if sm.num >= 90 {
                Src::imm(0x20)
            } else {
                Src::NONE
            }],
        ),
        Instr::new(CallAbs { slot: 1, ext: 0 }, &[], &[Src::reg(Reg::gpr64(8))]),
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
    v.extend(cas_forms());
    v.extend(sgxt_idp_forms());
    v.extend(f32_atomic_forms());
    v.extend(generic_atom_forms());
    v.extend(mufu_family_forms());
    v.extend(scalar::scalar_forms());
    v.extend(half_rest::half_rest_forms(sm));
    if sm.num >= 90 {
        v.extend(scalar::bf16x2_atomic_forms());
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
                hint: CacheHint::NONE,
                offset: 0,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            Stg {
                size,
                scope: None,
                hint: CacheHint::NONE,
                offset: 0,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
        v.push(Instr::new(
            Ld {
                size,
                scope: None,
                hint: CacheHint::NONE,
                offset: 0x10,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            St {
                size,
                scope: None,
                hint: CacheHint::NONE,
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
            hint: CacheHint::NONE,
            offset: 0x80,
        },
        &[d(4)],
        &[r(2), ur(4)],
    ));
    v.push(Instr::new(
        Stg {
            size: MemSize::B32,
            scope: None,
            hint: CacheHint::NONE,
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
            hint: CacheHint::NONE,
            offset: -8,
        },
        &[d(4)],
        &[r(2), ur(4)],
    ));
    half_forms(sm, &mut v);
    fp8_forms(sm, &mut v);
    imad_zero_factor_forms(&mut v);
    mma_forms(sm, &mut v);
    v.extend(matrix_move::matrix_move_forms(sm));
    v.extend(cache_hints::cache_hint_forms(sm));
    v.extend(mma_sparse::mma_sparse_forms(sm));
    convert_forms(&mut v);
    if sm.num >= 90 {
        v.extend(syncs_forms());
        v.extend(wgmma::wgmma_forms());
        cluster::cluster_forms(&mut v);
        tma::tma_forms(&mut v);
    }
    if sm.num >= 80 {
        async_forms(&mut v);
        arrives::arrives_forms(sm, &mut v);
    }
    matrix_int_forms(sm, &mut v);
    barriers_sregs::named_barrier_forms(&mut v);
    // PTX trap and brkpt.
    v.push(Instr::new(Opcode::Warp(WarpOp::BptTrap), &[], &[]));
    // PTX pmevent.
    for mask in [0x1, 0x8, 0x30, 0xffff] {
        v.push(Instr::new(
            Opcode::Warp(WarpOp::Pmtrig),
            &[],
            &[Src::imm(mask)],
        ));
    }
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
                hint: CacheHint::NONE,
                offset: 0x20,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            Stg {
                size,
                scope: s,
                hint: CacheHint::NONE,
                offset: 0x20,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
        v.push(Instr::new(
            Ld {
                size,
                scope: s,
                hint: CacheHint::NONE,
                offset: -0x20,
            },
            &[d(4)],
            &[r(2), ur(4)],
        ));
        v.push(Instr::new(
            St {
                size,
                scope: s,
                hint: CacheHint::NONE,
                offset: 0x30,
            },
            &[],
            &[r(2), r(4), ur(4)],
        ));
    }
    barriers_sregs::special_reg_forms(sm, &mut v);
    warp_match::match_forms(sm, &mut v);
    atomic_float::generic_float_add_forms(sm, &mut v);
    texture::texture_forms(sm, &mut v);
    v
}

/// LDGSTS in every size, cache and zero-fill form with both offsets' extremes, LDGDEPBAR,
/// DEPBAR.LE SB0 and LDSM x1/x2/x4, plain and transposed (sm_80+).
/// The sm_90 mbarrier instructions (SYNCS.*) and asynchronous-proxy fences, in every form
/// ptxas 13.5 writes for `mbarrier.*` and `fence.proxy.async` on sm_90a.
fn syncs_forms() -> Vec<Instr> {
    use ptxforge_sass::syncs::{ArriveMode, SyncsOp::*};
    use Opcode::Syncs;
    let bar = ur(6);
    let mut v = vec![
        Instr::new(Syncs(Exch64), &[Dst::None], &[bar, ur(4)]),
        Instr::new(
            Syncs(Exch64),
            &[Dst::Reg(Reg::ugpr(8, 2))],
            &[ur(10), ur(12)],
        ),
        Instr::new(Syncs(CctlIv), &[], &[bar]),
        Instr::new(Syncs(FenceViewAsync { global: false }), &[], &[]),
        Instr::new(Syncs(FenceViewAsync { global: true }), &[], &[]),
        Instr::new(Syncs(CgaErrbar), &[], &[]),
    ];
    let modes = [
        (ArriveMode::A1Tr, false),
        (ArriveMode::A1T0, false),
        (ArriveMode::ArT0, false),
        (ArriveMode::A0Tr, true),
        (ArriveMode::A0Tx, true),
    ];
    for (mode, red) in modes {
        for (d0, count) in [(Dst::None, r(5)), (d(2), r(0)), (d(4), Src::ZERO)] {
            v.push(Instr::new(
                Syncs(Arrive {
                    mode,
                    red,
                    optout: false,
                }),
                &[d0],
                &[bar, count],
            ));
        }
    }
    // Barrier addresses in a register (`[R11+URZ]`) and arrive_drop's `.OPTOUT`.
    for (mode, red, optout) in [
        (ArriveMode::A1T0, false, false),
        (ArriveMode::A1T0, false, true),
        (ArriveMode::ArT0, false, true),
        (ArriveMode::A1Tr, false, false),
        (ArriveMode::A0Tr, true, false),
    ] {
        v.push(Instr::new(
            Syncs(Arrive { mode, red, optout }),
            &[d(2)],
            &[r(11), r(4)],
        ));
    }
    v.push(Instr::new(
        Syncs(Arrive {
            mode: ArriveMode::A1T0,
            red: false,
            optout: true,
        }),
        &[Dst::None],
        &[bar, Src::ZERO],
    ));
    for trywait in [false, true] {
        v.push(Instr::new(
            Syncs(PhaseChk { trywait }),
            &[pd(1)],
            &[r(13), r(3)],
        ));
    }
    v.push(Instr::new(Syncs(CctlIv), &[], &[r(11)]));
    // Address offsets (`[R12+URZ+0x8]`, `[UR6+0x7ffff8]`, negative ones).
    for (addr, off) in [(r(12), 8u32), (bar, 0x7ffff8), (r(3), (-16i32) as u32)] {
        v.push(Instr::new(
            Syncs(PhaseChk { trywait: true }),
            &[pd(0)],
            &[addr, r(5), Src::imm(off)],
        ));
        v.push(Instr::new(
            Syncs(Arrive {
                mode: ArriveMode::A1T0,
                red: false,
                optout: false,
            }),
            &[d(2)],
            &[addr, Src::ZERO, Src::imm(off)],
        ));
        v.push(Instr::new(
            Syncs(CctlIv),
            &[],
            &[addr, Src::NONE, Src::imm(off)],
        ));
    }
    // R2UR (mbarrier.init's count in a register).
    v.push(Instr::new(
        Opcode::R2ur,
        &[Dst::Reg(Reg::ugpr(6, 1))],
        &[r(8)],
    ));
    // ELECT (elect.sync): predicate and uniform destinations, either absent.
    use ptxforge_sass::warp::WarpOp;
    for (p0, u) in [
        (pd(1), Dst::None),
        (pd(0), Dst::Reg(Reg::ugpr(4, 1))),
        (Dst::None, Dst::Reg(Reg::ugpr(5, 1))),
    ] {
        v.push(Instr::new(
            Opcode::Warp(WarpOp::Elect),
            &[p0, u],
            &[Src::TRUE],
        ));
    }
    v.push(Instr::new(
        Opcode::Warp(WarpOp::Elect),
        &[pd(2), Dst::Reg(Reg::ugpr(7, 1))],
        &[p(3)],
    ));
    for trywait in [false, true] {
        for (pd0, s1) in [(pd(0), r(3)), (pd(2), r(5)), (Dst::None, r(7))] {
            v.push(Instr::new(
                Syncs(PhaseChk { trywait }),
                &[pd0],
                &[ur(4), s1],
            ));
        }
    }
    let mut guarded = Instr::new(Syncs(PhaseChk { trywait: true }), &[pd(1)], &[bar, r(5)]);
    guarded.guard = p(0).negated();
    v.push(guarded);
    v
}

fn async_forms(v: &mut Vec<Instr>) {
    use Opcode::*;
    let sizes = [MemSize::B32, MemSize::B64, MemSize::B128];
    for (k, size) in sizes.into_iter().enumerate() {
        for (bypass, ltc128b, zfill) in [
            (false, false, false),
            (false, true, false),
            (true, true, true),
            (true, false, true),
        ] {
            let (dst_offset, src_offset) = [(0, 0), (0x7fff0, -0x800), (-0x80000, 0x7f0)][k];
            let fill = if zfill { p(k as u32) } else { Src::TRUE };
            v.push(Instr::new(
                Ldgsts {
                    size,
                    bypass,
                    ltc128b,
                    zfill,
                    dst_offset,
                    src_offset,
                },
                &[],
                &[r(13), r(4), ur(4), fill],
            ));
        }
    }
    v.push(Instr::new(
        Ldgsts {
            size: MemSize::B128,
            bypass: true,
            ltc128b: true,
            zfill: true,
            dst_offset: 0x10,
            src_offset: 0x20,
        },
        &[],
        &[Src::ZERO, r(6), ur(4), Src::FALSE],
    ));
    v.push(Instr::new(
        Ldgsts {
            size: MemSize::B32,
            bypass: false,
            ltc128b: true,
            zfill: true,
            dst_offset: 0x800,
            src_offset: 0x12,
        },
        &[],
        &[r(4), r(8), ur(4), Src::TRUE],
    ));
    v.push(Instr::new(Ldgdepbar, &[], &[]));
    for pending in [0, 1, 5, 63] {
        v.push(Instr::new(DepbarLe { pending }, &[], &[]));
    }
    for (count, offset) in [(1, 0), (2, 0x100), (4, -0x10)] {
        for trans in [false, true] {
            let group = Dst::Reg(Reg {
                comps: count,
                ..Reg::gpr(8)
            });
            v.push(Instr::new(
                Ldsm {
                    count,
                    trans,
                    offset,
                },
                &[group],
                &[r(21)],
            ));
        }
    }
}

/// HMMA and QMMA: every float input type, accumulator and k the architecture runs natively, with
/// register groups and a zero (RZ) accumulator.
fn mma_forms(sm: Sm, v: &mut Vec<Instr>) {
    use MmaElem::*;
    let group = |idx: u32, comps: u8| Reg {
        comps,
        ..Reg::gpr(idx)
    };
    let inputs = [
        (F16, F16),
        (Bf16, Bf16),
        (Tf32, Tf32),
        (E4m3, E4m3),
        (E5m2, E5m2),
        (E4m3, E5m2),
        (E5m2, E4m3),
    ];
    for (a, b) in inputs {
        for acc in [F16, F32] {
            for k in [4, 8, 16, 32] {
                let op = MmaOp {
                    shape: MmaShape { m: 16, n: 8, k },
                    a,
                    b,
                    acc,
                    sat: false,
                    scoreboarded: MmaOp::scoreboarded_on(sm),
                };
                if !op.is_native(sm) {
                    continue;
                }
                let c = if k == 8 {
                    Src::ZERO
                } else {
                    Src::reg(group(20, op.acc_regs()))
                };
                v.push(Instr::new(
                    Opcode::Mma(op),
                    &[Dst::Reg(group(4, op.acc_regs()))],
                    &[
                        Src::reg(group(8, op.a_regs())),
                        Src::reg(group(14, op.b_regs())),
                        c,
                    ],
                ));
            }
        }
    }
}

/// HADD2/HMUL2/HFMA2/HSETP2/HMNMX2 with every modifier and swizzle, F2FP on sm_80+.
fn half_forms(sm: Sm, v: &mut Vec<Instr>) {
    use HalfSwizzle::*;
    use Opcode::*;
    let bf16s: &[bool] = if sm.num >= 90 {
        &[false, true]
    } else if sm.num >= 80 {
        &[false]
    } else {
        &[false]
    };
    for &bf16 in bf16s {
        for (op, swz) in [
            (HalfOp::Add, [H0H0, H1H1, H1H0]),
            (HalfOp::Mul, [H1H0, H0H0, H1H0]),
            (HalfOp::Fma, [H1H1, H0H0, H0H0]),
        ] {
            for (ftz, sat) in [(false, false), (true, true), (false, true)] {
                v.push(Instr::new(
                    Half2 {
                        op,
                        bf16,
                        ftz,
                        sat,
                        relu: false,
                        f32_out: false,
                        swz,
                    },
                    &[d(2)],
                    &[r(4).negated(), r(5).absolute(), r(6).negated()],
                ));
            }
        }
        v.push(Instr::new(
            Hsetp2 {
                cmp: FloatCmp::Geu,
                combine: BoolOp::Or,
                ftz: !bf16,
                bf16,
                swz: [H1H0, H0H0],
            },
            &[pd(0), pd(2)],
            &[r(4).absolute(), r(5), p(1)],
        ));
        if sm.num < 80 {
            continue;
        }
        v.push(Instr::new(
            Hmnmx2 {
                bf16,
                ftz: !bf16,
                nan: bf16,
                swz: [H0H0, H1H1],
            },
            &[d(2)],
            &[r(4), r(5).negated(), Src::FALSE],
        ));
    }
    if sm.num >= 80 {
        v.push(Instr::new(
            Half2 {
                op: HalfOp::Fma,
                bf16: true,
                ftz: false,
                sat: false,
                relu: false,
                f32_out: false,
                swz: [H0H0, H0H0, H1H0],
            },
            &[d(2)],
            &[Src::ZERO.negated(), Src::ZERO, r(6).negated()],
        ));
        v.push(Instr::new(
            Half2 {
                op: HalfOp::Fma,
                bf16: false,
                ftz: false,
                sat: false,
                relu: true,
                f32_out: false,
                swz: [H1H0, H1H0, H1H0],
            },
            &[d(2)],
            &[r(4), r(5), r(6)],
        ));
        for (bf16, rnd) in [(false, Round::Rn), (true, Round::Rn), (false, Round::Rz)] {
            for relu in [false, true] {
                v.push(Instr::new(
                    F2fp { bf16, rnd, relu },
                    &[d(3)],
                    &[Src::ZERO, r(7)],
                ));
            }
        }
    }
    v.push(Instr::new(
        Half2 {
            op: HalfOp::Add,
            bf16: false,
            ftz: false,
            sat: false,
            relu: false,
            f32_out: true,
            swz: [H0H0, H0H0, H0H0],
        },
        &[d(2)],
        &[r(4), Src::ZERO.negated()],
    ));
}

/// I2F/F2I/F2F between integer widths, f16, f32 and f64.
fn convert_forms(v: &mut Vec<Instr>) {
    use NumFormat::*;
    use Opcode::*;
    for (dst, src, rnd) in [
        (F32, S16, Round::Rn),
        (F16, S32, Round::Rn),
        (F16, S8, Round::Rz),
        (F32, U8, Round::Rn),
        (F16, U16, Round::Rm),
        (F16, S64, Round::Rz),
        (F32, S32, Round::Rp),
    ] {
        let d0 = if dst.is_wide() {
            Reg::gpr64(2)
        } else {
            Reg::gpr(2)
        };
        let s0 = if src.is_wide() {
            Reg::gpr64(4)
        } else {
            Reg::gpr(4)
        };
        v.push(Instr::new(
            I2fWide { dst, src, rnd },
            &[Dst::Reg(d0)],
            &[Src::reg(s0)],
        ));
    }
    for (dst, src, rnd) in [
        (S8, F32, Round::Rn),
        (U16, F16, Round::Rz),
        (S32, F16, Round::Rn),
        (S64, F16, Round::Rz),
        (U8, F32, Round::Rm),
        (S16, F32, Round::Rp),
    ] {
        let d0 = if dst.is_wide() {
            Reg::gpr64(2)
        } else {
            Reg::gpr(2)
        };
        v.push(Instr::new(
            F2iWide { dst, src, rnd },
            &[Dst::Reg(d0)],
            &[r(4)],
        ));
    }
    for (dst, src, rnd) in [
        (F16, F32, Round::Rn),
        (F16, F32, Round::Rm),
        (F64, F16, Round::Rn),
        (F16, F64, Round::Rz),
    ] {
        let d0 = if dst.is_wide() {
            Reg::gpr64(2)
        } else {
            Reg::gpr(2)
        };
        let s0 = if src.is_wide() {
            Reg::gpr64(4)
        } else {
            Reg::gpr(4)
        };
        v.push(Instr::new(
            F2f { dst, src, rnd },
            &[Dst::Reg(d0)],
            &[Src::reg(s0)],
        ));
    }
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
