//! Texture and surface object forms (TLD.LZ, TEX.LL, TLD4, TXD, SULD, SUST) with the handle in
//! the constant bank (sm_75..sm_89) or a uniform pair (sm_90), as ptxas writes them for nvcc's
//! `tex1Dfetch`/`tex2D`/`tex2DLod`/`tex2DGrad`/`tex2Dgather`/`surf*Dread`/`surf*Dwrite`.

use super::*;
use ptxforge_sass::texture::*;

fn g(i: u32, comps: u8) -> Reg {
    Reg {
        comps,
        ..Reg::gpr(i)
    }
}

pub fn texture_forms(sm: Sm, v: &mut Vec<Instr>) {
    let handle = if sm.num >= 90 {
        TexHandle::Uniform
    } else {
        TexHandle::Bank(0x58)
    };
    let h = if sm.num >= 90 { ur(4) } else { Src::ZERO };
    let fetch = |kind, dim, mask| {
        Opcode::Texture(TexOp::Fetch {
            kind,
            dim,
            handle,
            mask,
        })
    };
    let (d4, d6) = (Dst::Reg(g(4, 2)), Dst::Reg(g(6, 2)));
    v.push(Instr::new(
        fetch(FetchKind::TldLz, TexDim::D1, 0xf),
        &[d4, d6],
        &[r(0), Src::ZERO, h],
    ));
    v.push(Instr::new(
        fetch(FetchKind::TldLz, TexDim::D1, 0x1),
        &[d(5)],
        &[r(0), Src::ZERO, h],
    ));
    let pair = |i| Src::reg(g(i, 2));
    for dim in [TexDim::D2, TexDim::D3, TexDim::Array1, TexDim::Array2] {
        v.push(Instr::new(
            fetch(FetchKind::TexLl, dim, 0xf),
            &[d4, d6],
            &[pair(8), pair(10), h],
        ));
    }
    v.push(Instr::new(
        fetch(FetchKind::TexLl, TexDim::D2, 0x1),
        &[d(5)],
        &[pair(8), r(10), h],
    ));
    for comp in 0..4 {
        let (a, b) = if sm.num >= 90 {
            (pair(8), Src::ZERO)
        } else {
            (r(8), r(9))
        };
        v.push(Instr::new(
            fetch(FetchKind::Tld4 { comp }, TexDim::D2, 0xf),
            &[d4, d6],
            &[a, b, h],
        ));
    }
    v.push(Instr::new(
        fetch(FetchKind::Txd, TexDim::D2, 0xf),
        &[d4, d6],
        &[pair(8), Src::reg(g(12, 4)), h],
    ));
    let dims = [
        SurfDim::D1,
        SurfDim::Array1,
        SurfDim::D2,
        SurfDim::Array2,
        SurfDim::D3,
    ];
    for (n, dim) in dims.into_iter().enumerate() {
        let clamp = [SurfClamp::Trap, SurfClamp::Clamp, SurfClamp::Zero][n % 3];
        for size in [MemSize::B32, MemSize::B64, MemSize::B128] {
            let data = g(16, size.regs());
            let coords = Src::reg(g(8, 4));
            v.push(Instr::new(
                Opcode::Texture(TexOp::SuLd {
                    dim,
                    size,
                    clamp,
                    handle,
                }),
                &[Dst::Reg(data)],
                &[coords, Src::ZERO, h],
            ));
            v.push(Instr::new(
                Opcode::Texture(TexOp::SuSt {
                    dim,
                    size,
                    clamp,
                    handle,
                }),
                &[],
                &[coords, Src::reg(data), h],
            ));
        }
    }
}
