//! Prints instructions exactly as `nvdisasm -b SMxx` prints their encodings (raw-file mode),
//! normalised: no address column, single spaces, no trailing `;`. Branch targets are absolute.

use std::fmt::Write;

use crate::arch::Sm;
use crate::encode::block_offsets;
use crate::ir::*;

#[path = "print_atom.rs"]
mod print_atom;

#[path = "print_mufu.rs"]
mod print_mufu;

#[path = "print_warp.rs"]
mod print_warp;

#[path = "print_mma.rs"]
mod print_mma;

#[path = "print_scalar.rs"]
mod print_scalar;

/// The listing of a whole function: one `/*addr*/ text ;` line per instruction.
pub fn print_function(sm: Sm, f: &Function) -> String {
    let offsets = block_offsets(f);
    let mut s = String::new();
    let mut pc = 0u32;
    for b in &f.blocks {
        for i in &b.instrs {
            let _ = writeln!(
                s,
                "/*{pc:04x}*/ {} ; // {}",
                print_instr(sm, i, pc, &offsets),
                control_string(&i.deps)
            );
            pc += 16;
        }
    }
    s
}

/// Control bits in CuAssembler's notation: `B0-----:R5:W1:Y:S04` (wait mask, read and write
/// scoreboards, `Y` when bit 109 is clear, stall).
pub fn control_string(d: &Deps) -> String {
    let wait: String = (0..6)
        .map(|b| {
            if d.wait & (1 << b) != 0 {
                char::from(b'0' + b)
            } else {
                '-'
            }
        })
        .collect();
    let sb = |s: Option<u8>| s.map_or("-".to_string(), |v| v.to_string());
    format!(
        "B{wait}:R{}:W{}:{}:S{:02}",
        sb(d.rd_sb),
        sb(d.wr_sb),
        if d.yld { "-" } else { "Y" },
        d.stall
    )
}

/// One instruction's text (normalised nvdisasm form, without `;`).
pub fn print_instr(sm: Sm, i: &Instr, _pc: u32, offsets: &[u32]) -> String {
    let body = match i.op {
        Opcode::CallAbs { .. } | Opcode::Lepc => crate::extern_call::print_extern_call(i, _pc),
        _ => body(sm, i, offsets),
    };
    match guard(&i.guard) {
        Some(g) => format!("{g} {body}"),
        None => body,
    }
}

fn guard(g: &Src) -> Option<String> {
    match g.val {
        SrcVal::True if !g.neg => None,
        _ => Some(format!("@{}", pred(g))),
    }
}

pub(crate) fn pred(s: &Src) -> String {
    let name = match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UPred => format!("UP{}", r.idx),
        SrcVal::Reg(r) => format!("P{}", r.idx),
        _ => "PT".to_string(),
    };
    if s.neg {
        format!("!{name}")
    } else {
        name
    }
}

pub(crate) fn pdst(d: &Dst) -> String {
    match d {
        Dst::Reg(r) => format!("P{}", r.idx),
        Dst::None => "PT".into(),
    }
}

fn reg_name(r: &Reg) -> String {
    match r.file {
        RegFile::Gpr => format!("R{}", r.idx),
        RegFile::Pred => format!("P{}", r.idx),
        RegFile::UGpr => format!("UR{}", r.idx),
        RegFile::UPred => format!("UP{}", r.idx),
    }
}

pub(crate) fn dst(d: &Dst) -> String {
    match d {
        Dst::Reg(r) => reg_name(r),
        Dst::None => "RZ".into(),
    }
}

/// A source operand with its modifiers.
pub(crate) fn src(s: &Src) -> String {
    let v = match s.val {
        SrcVal::Reg(r) => reg_name(&r),
        SrcVal::Zero => "RZ".into(),
        SrcVal::True => "PT".into(),
        SrcVal::Imm(v) => format!("{v:#x}"),
        SrcVal::CBuf { bank, offset } => format!("c[{bank:#x}][{offset:#x}]"),
    };
    let v = if s.abs { format!("|{v}|") } else { v };
    if s.neg {
        format!("-{v}")
    } else {
        v
    }
}

/// nvdisasm's name for a plain IMAD by what it computes (learnt by decoding IMAD words): `.MOV`
/// when the product is zero or is `a` alone, `.IADD` for `a * 1 + c`, `.SHL` for `a * 2^k + RZ`.
fn imad_alias(a: &Src, b: &Src, c: &Src) -> &'static str {
    let zero = |s: &Src| s.val == SrcVal::Zero;
    let b_imm = match b.val {
        SrcVal::Imm(v) if b.neg => Some(v.wrapping_neg()),
        SrcVal::Imm(v) => Some(v),
        _ => None,
    };
    match b_imm {
        _ if zero(a) || zero(b) => ".MOV",
        Some(0) => ".MOV",
        Some(1) if zero(c) => ".MOV",
        Some(1) => ".IADD",
        Some(v) if v.is_power_of_two() && v < 0x8000_0000 && zero(c) => ".SHL",
        _ => "",
    }
}

/// f32 sources: immediates as nvdisasm prints floats (`-24`, `0.5`, `+INF`), with their sign
/// and magnitude modifiers folded into the bits.
pub(crate) fn fsrc(s: &Src) -> String {
    match s.val {
        SrcVal::Imm(bits) => {
            let bits = if s.abs { bits & 0x7fff_ffff } else { bits };
            let bits = if s.neg { bits ^ 0x8000_0000 } else { bits };
            crate::print_float::f32_literal(bits)
        }
        _ => src(s),
    }
}

/// Integer sources whose immediates nvdisasm prints as signed 32-bit values (`-0x7`).
fn isrc(s: &Src) -> String {
    match s.val {
        SrcVal::Imm(v) => {
            let v = if s.neg { v.wrapping_neg() } else { v } as i32;
            if v < 0 {
                format!("-{:#x}", v.unsigned_abs())
            } else {
                format!("{v:#x}")
            }
        }
        _ => src(s),
    }
}

pub(crate) fn join(parts: &[String]) -> String {
    parts.join(", ")
}

fn body(sm: Sm, i: &Instr, offsets: &[u32]) -> String {
    let [a, b, c, d, _] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    match i.op {
        Opcode::Mov => format!("MOV {d0}, {}", src(a)),
        Opcode::S2r(sr) => format!("S2R {d0}, {}", special_reg_name(sr)),
        Opcode::S2ur(sr) => format!("S2UR {d0}, {}", special_reg_name(sr)),
        Opcode::Cs2r { sr, wide } => format!(
            "CS2R{} {d0}, {}",
            if wide { "" } else { ".32" },
            special_reg_name(sr)
        ),
        Opcode::Umov => format!("UMOV {d0}, {}", src(a)),
        Opcode::Ulea { shift } => format!("ULEA {d0}, {}, {}, {shift:#x}", src(a), src(b)),
        Opcode::Iadd3 { x } => print_iadd3(i, x),
        Opcode::Lea { hi, shift } => crate::print_lea::print_lea(i, hi, shift),
        Opcode::Imad { mode, signed, x } => {
            let m = match mode {
                ImadMode::Lo => "",
                ImadMode::Hi => ".HI",
                ImadMode::Wide => ".WIDE",
            };
            let alias = match (mode, x) {
                (ImadMode::Lo, false) => imad_alias(a, b, c),
                _ => "",
            };
            let u = if signed { "" } else { ".U32" };
            let xs = if x { ".X" } else { "" };
            let mut parts = vec![d0, src(a), isrc(b), isrc(c)];
            if x {
                parts.push(pred(d));
            }
            format!("IMAD{m}{alias}{u}{xs} {}", join(&parts))
        }
        Opcode::Iabs => format!("IABS {d0}, {}", src(a)),
        Opcode::I2f { signed } => {
            format!("I2F{} {d0}, {}", if signed { "" } else { ".U32" }, src(a))
        }
        Opcode::I2fp { signed } => format!(
            "I2FP.F32.{} {d0}, {}",
            if signed { "S32" } else { "U32" },
            src(a)
        ),
        Opcode::F2i { signed, truncate } => format!(
            "F2I{}{}.NTZ {d0}, {}",
            if signed { "" } else { ".U32" },
            if truncate { ".TRUNC" } else { "" },
            src(a)
        ),
        Opcode::Imnmx { signed } => {
            format!(
                "IMNMX{} {}",
                if signed { "" } else { ".U32" },
                join(&[d0, src(a), src(b), pred(c)])
            )
        }
        Opcode::Fadd { ftz, rnd } => format!(
            "FADD{}{} {}",
            ftz_s(ftz),
            crate::print_double::round_suffix(rnd),
            join(&[d0, fsrc(a), fsrc(b)])
        ),
        Opcode::Fmul { ftz } => format!("FMUL{} {}", ftz_s(ftz), join(&[d0, fsrc(a), fsrc(b)])),
        Opcode::Ffma { ftz } => {
            format!(
                "FFMA{} {}",
                ftz_s(ftz),
                join(&[d0, fsrc(a), fsrc(b), fsrc(c)])
            )
        }
        Opcode::Fmnmx { ftz } => format!(
            "FMNMX{} {}",
            ftz_s(ftz),
            join(&[d0, fsrc(a), fsrc(b), pred(c)])
        ),
        Opcode::Isetp {
            cmp,
            signed,
            combine,
            ex,
        } => {
            let mut parts = vec![pdst(&i.dsts[0]), pdst(&i.dsts[1]), src(a), isrc(b), pred(c)];
            if ex {
                parts.push(pred(d));
            }
            format!(
                "ISETP.{}{}.{}{} {}",
                int_cmp_name(cmp),
                if signed { "" } else { ".U32" },
                bool_op_name(combine),
                if ex { ".EX" } else { "" },
                join(&parts)
            )
        }
        Opcode::Fsetp { cmp, combine, ftz } => format!(
            "FSETP.{}{}.{} {}",
            float_cmp_name(cmp),
            ftz_s(ftz),
            bool_op_name(combine),
            join(&[
                pdst(&i.dsts[0]),
                pdst(&i.dsts[1]),
                fsrc(a),
                fsrc(b),
                pred(c)
            ])
        ),
        Opcode::Dadd { .. } | Opcode::Dmul { .. } | Opcode::Dfma { .. } | Opcode::Dsetp { .. } => {
            crate::print_double::double_body(i)
        }
        Opcode::I2fWide { .. } | Opcode::F2iWide { .. } | Opcode::F2f { .. } => {
            crate::print_convert::convert_body(i)
        }
        Opcode::Half2 { .. }
        | Opcode::Hsetp2 { .. }
        | Opcode::Hset2 { .. }
        | Opcode::Hmnmx2 { .. }
        | Opcode::F2fp { .. } => crate::print_half::half_body(sm, i),
        Opcode::F2fp8 { .. } => crate::fp8::f2fp8_body(i),
        Opcode::Imma { .. } | Opcode::Bmma { .. } | Opcode::Dmma { .. } => {
            crate::print_imma::matrix_body(sm.num, i)
        }
        Opcode::I2ip { .. } => crate::print_pack::i2ip_body(i),
        Opcode::Sel => format!("SEL {}", join(&[d0, src(a), src(b), pred(c)])),
        Opcode::Lop3 { lut } | Opcode::Lop3Pand { lut } => {
            let p3 = if d.val == SrcVal::Zero {
                Src::FALSE
            } else {
                *d
            };
            let mut parts = Vec::new();
            if let Dst::Reg(_) = i.dsts[1] {
                parts.push(pdst(&i.dsts[1]));
            }
            parts.extend([d0, src(a), src(b), src(c), format!("{lut:#x}"), pred(&p3)]);
            let pand = matches!(i.op, Opcode::Lop3Pand { .. });
            format!(
                "LOP3.LUT{} {}",
                if pand { ".PAND" } else { "" },
                join(&parts)
            )
        }
        Opcode::Plop3 { lut } => format!(
            "PLOP3.LUT {}, {lut:#x}",
            join(&[
                pdst(&i.dsts[0]),
                pdst(&i.dsts[1]),
                pred(a),
                pred(b),
                pred(c)
            ])
        ),
        Opcode::Shf {
            right,
            signed,
            wide,
            hi,
        } => {
            let ty = match (wide, signed) {
                (true, true) => "S64",
                (true, false) => "U64",
                (false, true) => "S32",
                (false, false) => "U32",
            };
            format!(
                "SHF.{}.{ty}{} {}",
                if right { "R" } else { "L" },
                if hi { ".HI" } else { "" },
                join(&[d0, src(a), src(b), src(c)])
            )
        }
        Opcode::Vabsdiff { signed } => format!(
            "VABSDIFF{} {}",
            if signed { "" } else { ".U32" },
            join(&[d0, src(a), src(b), src(c)])
        ),
        Opcode::Vabsdiff4 { acc } => format!(
            "VABSDIFF4.U8{} {}",
            if acc { ".ACC" } else { "" },
            join(&[d0, src(a), src(b), src(c)])
        ),
        Opcode::Prmt { mode } => format!(
            "PRMT{} {}",
            mode.suffix(),
            join(&[d0, src(a), src(b), src(c)])
        ),
        Opcode::Ldg {
            size,
            constant,
            scope,
            hint,
            offset,
        } => {
            let c = if constant { ".CONSTANT" } else { "" };
            format!(
                "LDG.E{}{}{c}{} {d0}, {}",
                hint_suffix(hint),
                size_suffix(size),
                order_suffix(sm, scope),
                access_addr(sm, a, b, offset, hint)
            )
        }
        Opcode::UldcNarrow { size } => format!("ULDC{} {d0}, {}", size_suffix(size), src(a)),
        Opcode::Ldgsts {
            size,
            bypass,
            ltc128b,
            zfill,
            dst_offset,
            src_offset,
        } => {
            let mods = format!(
                "{}{}{}{}",
                if bypass { ".BYPASS" } else { "" },
                if ltc128b { ".LTC128B" } else { "" },
                size_suffix(size),
                if zfill { ".ZFILL" } else { "" }
            );
            // nvdisasm leaves out a PT fill predicate.
            let always = i.srcs[3].val == SrcVal::True && !i.srcs[3].neg;
            let fill = if zfill && !always {
                format!(", {}", pred(&i.srcs[3]))
            } else {
                String::new()
            };
            format!(
                "LDGSTS.E{mods} {}, {}{fill}",
                shared_addr(a, dst_offset),
                global_addr(sm, b, c, src_offset)
            )
        }
        Opcode::Ldgdepbar => "LDGDEPBAR".into(),
        Opcode::DepbarLe { pending } => format!("DEPBAR.LE SB0, {pending:#x}"),
        Opcode::Syncs(op) => crate::print_sync::print_syncs(i, op),
        Opcode::Wgmma(op) => crate::print_wgmma::print_wgmma(i, op),
        Opcode::WarpgroupArrive => "WARPGROUP.ARRIVE".into(),
        Opcode::WarpgroupDepbar { pending } => format!("WARPGROUP.DEPBAR.LE gsb0, {pending:#x}"),
        Opcode::VoteuAny => crate::print_wgmma::print_voteu_any(i),
        Opcode::Cluster(op) => crate::print_cluster::print_cluster(i, op),
        Opcode::Tma(op) => crate::print_tma::print_tma(i, op),
        Opcode::Texture(op) => crate::print_texture::print_texture(sm, i, op),
        Opcode::R2ur | Opcode::R2urPred => format!(
            "R2UR {}{}, {}",
            match i.dsts[1] {
                Dst::Reg(p) => format!("P{}, ", p.idx),
                Dst::None => String::new(),
            },
            crate::print_sync::udst(&i.dsts[0]),
            src(&i.srcs[0])
        ),
        Opcode::Ldsm {
            count,
            trans,
            offset,
        } => format!(
            "LDSM.16.{}{} {d0}, {}",
            if trans { "MT88" } else { "M88" },
            if count > 1 {
                format!(".{count}")
            } else {
                String::new()
            },
            shared_addr(a, offset)
        ),
        Opcode::CctlPf2 { offset } => format!("CCTL.E.PF2 [{}{}]", src(a), offset_suffix(offset)),
        Opcode::Ld {
            size,
            scope,
            hint,
            offset,
        } => {
            format!(
                "LD.E{}{}{} {d0}, {}",
                hint_suffix(hint),
                size_suffix(size),
                order_suffix(sm, scope),
                access_addr(sm, a, b, offset, hint)
            )
        }
        Opcode::Stg {
            size,
            scope,
            hint,
            offset,
        } => {
            format!(
                "STG.E{}{}{} {}, {}",
                hint_suffix(hint),
                size_suffix(size),
                order_suffix(sm, scope),
                access_addr(sm, a, c, offset, hint),
                src(b)
            )
        }
        Opcode::St {
            size,
            scope,
            hint,
            offset,
        } => {
            format!(
                "ST.E{}{}{} {}, {}",
                hint_suffix(hint),
                size_suffix(size),
                order_suffix(sm, scope),
                access_addr(sm, a, c, offset, hint),
                src(b)
            )
        }
        Opcode::Lds { size, offset } => {
            format!("LDS{} {d0}, {}", size_suffix(size), shared_addr(a, offset))
        }
        Opcode::Sts { size, offset } => format!(
            "STS{} {}, {}",
            size_suffix(size),
            shared_addr(a, offset),
            src(b)
        ),
        Opcode::Ldl { size, offset } => {
            format!("LDL{} {d0}, {}", size_suffix(size), shared_addr(a, offset))
        }
        Opcode::Stl { size, offset } => format!(
            "STL{} {}, {}",
            size_suffix(size),
            shared_addr(a, offset),
            src(b)
        ),
        Opcode::Ldc { wide } => {
            let c = match a.val {
                SrcVal::CBuf { bank, offset: 0 } => format!("c[{bank:#x}][RZ]"),
                _ => src(a),
            };
            format!("LDC{} {d0}, {c}", if wide { ".64" } else { "" })
        }
        Opcode::LdcIndexed { size } => {
            let SrcVal::CBuf { bank, offset } = a.val else {
                return format!("LDC{} {d0}, <no cbuf>", size_suffix(size));
            };
            let at = match offset {
                0 => String::new(),
                o => format!("{o:#x}"),
            };
            let plus = if offset == 0 { "" } else { "+" };
            format!(
                "LDC{} {d0}, c[{bank:#x}][{}{plus}{at}]",
                size_suffix(size),
                src(b)
            )
        }
        Opcode::Uldc { wide } => format!("ULDC{} {d0}, {}", if wide { ".64" } else { "" }, src(a)),
        Opcode::Bra { target } => {
            format!(
                "BRA {:#x}",
                offsets.get(target as usize).copied().unwrap_or(0)
            )
        }
        Opcode::Exit => "EXIT".into(),
        Opcode::Call { .. } | Opcode::Ret | Opcode::RetAddr { .. } | Opcode::SubArgs => {
            crate::subroutine::print_call_family(i, offsets)
        }
        Opcode::CallAbs { .. } | Opcode::Lepc => crate::extern_call::print_extern_call(i, 0),
        Opcode::BarSync { id } => {
            if sm.num >= 80 {
                format!("BAR.SYNC.DEFER_BLOCKING {id:#x}")
            } else {
                format!("BAR.SYNC {id:#x}")
            }
        }
        Opcode::Nop => "NOP".into(),
        Opcode::Flo { .. }
        | Opcode::Popc
        | Opcode::Brev
        | Opcode::I2fRp { .. }
        | Opcode::MufuRcp
        | Opcode::MufuRsq
        | Opcode::Frnd { .. }
        | Opcode::FrndHalf { .. }
        | Opcode::Bmsk { .. }
        | Opcode::Atoms { .. }
        | Opcode::Atomg { .. }
        | Opcode::Atom { .. }
        | Opcode::Red { .. } => print_atom::print_atom_or_bits(sm, i).unwrap_or_default(),
        Opcode::Warp(op) => print_warp::print_warp(sm, i, op),
        Opcode::Mufu { .. } | Opcode::FmulRound { .. } | Opcode::FrndF64 { .. } => {
            print_mufu::print_mufu_family(i)
        }
        Opcode::FfmaRound { .. } | Opcode::ShfWrap { .. } => print_scalar::print_scalar(i),
        Opcode::Mma(op) => print_mma::print_mma(i, &op),
        Opcode::MmaSp(op) => crate::mma_sparse::print_mma_sparse(i, &op),
        Opcode::Matrix(op) => crate::matrix_move::matrix_move_body(i, op),
        Opcode::Sgxt { .. } | Opcode::Idp { .. } => crate::print_int::print_int(i),
    }
}

fn print_iadd3(i: &Instr, x: bool) -> String {
    let [a, b, c, d, e] = &i.srcs;
    let mut parts = vec![dst(&i.dsts[0])];
    if let Dst::Reg(_) = i.dsts[1] {
        parts.push(pdst(&i.dsts[1]));
    }
    parts.extend([src(a), isrc(b), src(c)]);
    if x {
        let e = if e.val == SrcVal::Zero {
            Src::FALSE
        } else {
            *e
        };
        parts.push(pred(d));
        parts.push(pred(&e));
    }
    format!("IADD3{} {}", if x { ".X" } else { "" }, join(&parts))
}

fn ftz_s(ftz: bool) -> &'static str {
    if ftz {
        ".FTZ"
    } else {
        ""
    }
}

/// The cache hints of a global/generic access: eviction priority, then L2 prefetch size.
fn hint_suffix(h: CacheHint) -> String {
    let evict = match h.evict {
        Evict::First => ".EF",
        Evict::Normal => "",
        Evict::Last => ".EL",
        Evict::LastUse => ".LU",
        Evict::Unchanged => ".EU",
        Evict::NoAllocate => ".NA",
    };
    match h.l2_prefetch {
        0 => evict.to_string(),
        n => format!("{evict}.LTC{n}B"),
    }
}

/// `.STRONG.<scope>` of an ordered global/generic access (sm_75 calls SM CTA); weak ones print
/// `.SYS` on sm_75.
fn order_suffix(sm: Sm, scope: Option<MemScope>) -> &'static str {
    match scope {
        Some(MemScope::Cta) if sm.num == 75 => ".STRONG.CTA",
        Some(MemScope::Cta) => ".STRONG.SM",
        Some(MemScope::Gpu) => ".STRONG.GPU",
        Some(MemScope::Sys) => ".STRONG.SYS",
        None if sm.num == 75 => ".SYS",
        None => "",
    }
}

fn size_suffix(s: MemSize) -> &'static str {
    match s {
        MemSize::U8 => ".U8",
        MemSize::S8 => ".S8",
        MemSize::U16 => ".U16",
        MemSize::S16 => ".S16",
        MemSize::B32 => "",
        MemSize::B64 => ".64",
        MemSize::B128 => ".128",
    }
}

fn offset_suffix(offset: i32) -> String {
    match offset {
        0 => String::new(),
        o if o > 0 => format!("+{o:#x}"),
        o => format!("+-{:#x}", o.unsigned_abs()),
    }
}

/// `[R2.64+0x10]`, `desc[UR4][R2.64]` on sm_90, `[R2+0x10]` on sm_75.
fn global_addr(sm: Sm, addr: &Src, desc: &Src, offset: i32) -> String {
    let off = offset_suffix(offset);
    match sm.num {
        75 => format!("[{}{off}]", src(addr)),
        90.. => format!("desc[{}][{}.64{off}]", src(desc), src(addr)),
        _ => format!("[{}.64{off}]", src(addr)),
    }
}

/// [`global_addr`] of a load or store, whose descriptor may be a cache policy (`desc[UR6]` from
/// sm_80).
fn access_addr(sm: Sm, addr: &Src, desc: &Src, offset: i32, hint: CacheHint) -> String {
    if hint.policy && sm.num >= 80 {
        format!(
            "desc[{}][{}.64{}]",
            src(desc),
            src(addr),
            offset_suffix(offset)
        )
    } else {
        global_addr(sm, addr, desc, offset)
    }
}

fn shared_addr(addr: &Src, offset: i32) -> String {
    match (addr.val, offset) {
        (SrcVal::Zero, 0) => "[RZ]".into(),
        (SrcVal::Zero, o) => format!("[{o:#x}]"),
        _ => format!("[{}{}]", src(addr), offset_suffix(offset)),
    }
}

fn special_reg_name(sr: SpecialReg) -> &'static str {
    match sr {
        SpecialReg::LaneId => "SR_LANEID",
        SpecialReg::TidX => "SR_TID.X",
        SpecialReg::TidY => "SR_TID.Y",
        SpecialReg::TidZ => "SR_TID.Z",
        SpecialReg::CtaIdX => "SR_CTAID.X",
        SpecialReg::CtaIdY => "SR_CTAID.Y",
        SpecialReg::CtaIdZ => "SR_CTAID.Z",
        SpecialReg::CgaCtaId => "SR_CgaCtaId",
        SpecialReg::SharedWindowHi => "SR_SWINHI",
        SpecialReg::LaneMaskEq => "SR_EQMASK",
        SpecialReg::LaneMaskLt => "SR_LTMASK",
        SpecialReg::LaneMaskLe => "SR_LEMASK",
        SpecialReg::LaneMaskGt => "SR_GTMASK",
        SpecialReg::LaneMaskGe => "SR_GEMASK",
        SpecialReg::VirtCfg => "SR_VIRTCFG",
        SpecialReg::VirtId => "SR_VIRTID",
        SpecialReg::SmemSz => "SR_SMEMSZ",
        SpecialReg::VirtualSmId => "SR_VIRTUALSMID",
        SpecialReg::ClockLo => "SR_CLOCKLO",
        SpecialReg::ClockHi => "SR_CLOCKHI",
        SpecialReg::GlobalTimerLo => "SR_GLOBALTIMERLO",
        SpecialReg::GlobalTimerHi => "SR_GLOBALTIMERHI",
        SpecialReg::Zero => "SRZ",
    }
}

pub(crate) fn bool_op_name(b: BoolOp) -> &'static str {
    match b {
        BoolOp::And => "AND",
        BoolOp::Or => "OR",
        BoolOp::Xor => "XOR",
    }
}

fn int_cmp_name(c: IntCmp) -> &'static str {
    match c {
        IntCmp::F => "F",
        IntCmp::Lt => "LT",
        IntCmp::Eq => "EQ",
        IntCmp::Le => "LE",
        IntCmp::Gt => "GT",
        IntCmp::Ne => "NE",
        IntCmp::Ge => "GE",
        IntCmp::T => "T",
    }
}

pub(crate) fn float_cmp_name(c: FloatCmp) -> &'static str {
    use FloatCmp::*;
    match c {
        F => "F",
        Lt => "LT",
        Eq => "EQ",
        Le => "LE",
        Gt => "GT",
        Ne => "NE",
        Ge => "GE",
        Num => "NUM",
        Nan => "NAN",
        Ltu => "LTU",
        Equ => "EQU",
        Leu => "LEU",
        Gtu => "GTU",
        Neu => "NEU",
        Geu => "GEU",
        T => "T",
    }
}
