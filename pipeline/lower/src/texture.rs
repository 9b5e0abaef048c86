//! Texture and surface objects (bindless handles) as ptxas selects for them: `tex.1d` with
//! integer coordinates as TLD.LZ; `tex.{1d,2d,3d}` with float coordinates as TEX.LL at level
//! -32 (a 1D texture read as 2D at y = 0), `tex.a1d`/`tex.a2d` as ARRAY_1D/ARRAY_2D, `tex.level` with its level; `tex.grad.2d` as TXD;
//! `tld4.{r,g,b,a}.2d` as TLD4; `suld.b`/`sust.b` on 1D, 2D, 3D and layered surfaces in 32, 64 and
//! 128 bits (`sust` `.v4.b8`/`.v2.b16` as PRMTs and one 32-bit store) with `.trap`/`.clamp`/`.zero` as SULD/SUST `.D.BA`. The handle must be a kernel
//! parameter read once by `ld.param`: before sm_90 the instruction names its `c[0x0]` word,
//! from sm_90 on a uniform pair holds it (ULDC of the low word, UMOV of zero for the high).
//! Everything else (cube textures, integer 2D/3D fetches, `txq`, `sured`,
//! `.texref`/`.surfref` operands, handles computed at run time, scalar `.b8`/`.b16`/`.b64` surface accesses) keeps its
//! "not supported yet" error.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand, Statement};
use ptxforge_sass::ir::*;
use ptxforge_sass::texture::{FetchKind, SurfClamp, SurfDim, TexDim, TexHandle, TexOp};

use crate::ctx::unsupported;
use crate::ctx::{operands_exactly, Ctx, LResult};

/// ptxas's level for a `tex` without one (TEX.LL at -32: the magnification filter).
const NO_LEVEL: u32 = 0xc200_0000;

impl Ctx<'_> {
    /// `tex`, `tld4`, `suld` and `sust`; `None` for other instructions.
    pub fn lower_texture(&mut self, i: &Instruction) -> Option<LResult<()>> {
        match i.opcode() {
            "tex" => Some(self.lower_tex(i)),
            "tld4" => Some(self.lower_tld4(i)),
            "suld" => Some(self.lower_suld(i)),
            "sust" => Some(self.lower_sust(i)),
            _ => None,
        }
    }

    /// The handle of `[%rd, {coords}]`: the kernel parameter `%rd` was loaded from, and the
    /// coordinate operands.
    fn texture_address<'o>(
        &mut self,
        i: &Instruction,
        op: &'o Operand,
    ) -> LResult<(TexHandle, Src, &'o [Operand])> {
        let (base, coords) = match op {
            Operand::Vector(v) if v.len() == 2 => match (&v[0], &v[1]) {
                (Operand::Addr { base, offset: 0 }, Operand::Vector(c)) => (base, c.as_slice()),
                (Operand::Addr { base, offset: 0 }, c @ Operand::Reg(_)) => {
                    (base, std::slice::from_ref(c))
                }
                _ => return Err(unsupported(i)),
            },
            _ => return Err(unsupported(i)),
        };
        let AddrBase::Reg(reg) = base else {
            return Err(unsupported(i));
        };
        let offset = self
            .handle_param_offset(reg)
            .ok_or_else(|| unsupported(i))?;
        if self.sm.num < 90 {
            return Ok((TexHandle::Bank((offset / 4) as u16), Src::ZERO, coords));
        }
        let u = self.f.new_vreg(RegFile::UGpr, 2);
        self.emit(
            Opcode::Uldc { wide: false },
            &[Dst::Reg(u.part(0))],
            &[Src::cbuf(0, offset as u16)],
        );
        self.emit(Opcode::Umov, &[Dst::Reg(u.part(1))], &[Src::imm(0)]);
        Ok((TexHandle::Uniform, Src::reg(u), coords))
    }

    /// The `c[0x0]` offset of the parameter a 64-bit handle register was loaded from, when it is
    /// written once, by `ld.param` of a whole kernel parameter.
    fn handle_param_offset(&self, reg: &str) -> Option<u32> {
        let writes: Vec<&Instruction> = self
            .ptx_function()
            .body
            .iter()
            .filter_map(Statement::as_instr)
            .filter(|i| !matches!(i.opcode(), "st" | "sust" | "red" | "bra"))
            .filter(|i| matches!(i.operands.first(), Some(Operand::Reg(r)) if r.as_str() == reg))
            .collect();
        let [def] = writes.as_slice() else {
            return None;
        };
        if def.opcode() != "ld" || !def.has_mod("param") || def.operands.len() != 2 {
            return None;
        }
        let Operand::Addr {
            base: AddrBase::Symbol(p),
            offset: 0,
        } = &def.operands[1]
        else {
            return None;
        };
        let p = self.param(p).ok()?;
        (p.size == 8).then_some(self.sm.param_base() + p.offset)
    }

    /// A register group of `comps` (1, 2 or 4) holding `vals` (missing ones zero).
    fn texture_group(&mut self, vals: &[Src], comps: u8) -> Src {
        if comps == 1 {
            return self.in_reg(vals[0]);
        }
        let g = self.f.new_vreg(RegFile::Gpr, comps);
        for n in 0..comps {
            let v = vals.get(n as usize).copied().unwrap_or(Src::ZERO);
            self.emit(Opcode::Mov, &[Dst::Reg(g.part(n))], &[v]);
        }
        Src::reg(g)
    }

    fn coord_srcs(&mut self, coords: &[Operand], n: usize) -> LResult<Vec<Src>> {
        coords.iter().take(n).map(|c| self.src32(c)).collect()
    }

    /// Emits a four-component fetch and moves x, y, z, w into the PTX destinations.
    fn fetch4(
        &mut self,
        i: &Instruction,
        kind: FetchKind,
        dim: TexDim,
        h: (TexHandle, Src),
        a: Src,
        b: Src,
    ) -> LResult<()> {
        let Operand::Vector(d) = &i.operands[0] else {
            return Err(unsupported(i));
        };
        if d.len() != 4 {
            return Err(unsupported(i));
        }
        let (lo, hi) = (self.temp64(), self.temp64());
        let op = TexOp::Fetch {
            kind,
            dim,
            handle: h.0,
            mask: 0xf,
        };
        self.emit(
            Opcode::Texture(op),
            &[Dst::Reg(lo), Dst::Reg(hi)],
            &[a, b, h.1],
        );
        for (n, o) in d.iter().enumerate() {
            if let Operand::Reg(_) = o {
                let t = self.dst(o)?;
                let part = if n < 2 {
                    lo.part(n as u8)
                } else {
                    hi.part(n as u8 - 2)
                };
                self.emit(Opcode::Mov, &[Dst::Reg(t)], &[Src::reg(part)]);
            }
        }
        Ok(())
    }

    fn lower_tex(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| {
            matches!(
                m,
                "1d" | "2d"
                    | "3d"
                    | "a1d"
                    | "a2d"
                    | "level"
                    | "grad"
                    | "v4"
                    | "f32"
                    | "s32"
                    | "u32"
            )
        };
        let types = i.types();
        if !i.mods().iter().all(|m| known(m)) || !i.has_mod("v4") || types.len() != 2 {
            return Err(unsupported(i));
        }
        let int_coords = i.mods().last().map(|m| m.as_str()) == Some("s32");
        let (level, grad) = (i.has_mod("level"), i.has_mod("grad"));
        let ops = operands_exactly(i, 2 + level as usize + 2 * grad as usize)?;
        let (handle, hsrc, coords) = self.texture_address(i, &ops[1])?;
        let h = (handle, hsrc);
        let lod = if level {
            self.src32(&ops[2])?
        } else {
            Src::imm(NO_LEVEL)
        };
        if (i.has_mod("a1d") || i.has_mod("a2d")) && !int_coords && !grad {
            return self.lower_tex_layered(i, coords, (handle, hsrc), lod);
        }
        match (i.has_mod("1d"), i.has_mod("2d"), i.has_mod("3d")) {
            (true, false, false) if int_coords && !level && !grad => {
                let x = self.coord_srcs(coords, 1)?;
                let a = self.in_reg(x[0]);
                self.fetch4(i, FetchKind::TldLz, TexDim::D1, h, a, Src::ZERO)
            }
            (true, false, false) if !int_coords && !grad => {
                let x = self.coord_srcs(coords, 1)?;
                let a = self.texture_group(&[x[0], Src::ZERO], 2);
                let b = self.in_reg(lod);
                self.fetch4(i, FetchKind::TexLl, TexDim::D2, h, a, b)
            }
            (false, true, false) if !int_coords && grad => {
                let xy = self.coord_srcs(coords, 2)?;
                let mut g = Vec::new();
                for op in &ops[2..4] {
                    let Operand::Vector(v) = op else {
                        return Err(unsupported(i));
                    };
                    g.extend(self.coord_srcs(v, 2)?);
                }
                let a = self.texture_group(&xy, 2);
                let b = self.texture_group(&g, 4);
                self.fetch4(i, FetchKind::Txd, TexDim::D2, h, a, b)
            }
            (false, true, false) if !int_coords => {
                let xy = self.coord_srcs(coords, 2)?;
                let a = self.texture_group(&xy, 2);
                let b = self.in_reg(lod);
                self.fetch4(i, FetchKind::TexLl, TexDim::D2, h, a, b)
            }
            (false, false, true) if !int_coords && !grad => {
                let xyz = self.coord_srcs(coords, 3)?;
                let (a, b) = if self.sm.num >= 90 {
                    let a = self.texture_group(&xyz, 4);
                    (a, self.in_reg(lod))
                } else {
                    let a = self.texture_group(&xyz[..2], 2);
                    (a, self.texture_group(&[xyz[2], lod], 2))
                };
                self.fetch4(i, FetchKind::TexLl, TexDim::D3, h, a, b)
            }
            _ => Err(unsupported(i)),
        }
    }

    /// `tex.a1d`/`tex.a2d` (`{layer, x[, y]}`) as TEX.LL ARRAY_1D/ARRAY_2D: the layer and x in
    /// Ra, y and the level in Rb before sm_90; from sm_90 on layer, x and y in Ra, the level in Rb.
    fn lower_tex_layered(
        &mut self,
        i: &Instruction,
        coords: &[Operand],
        h: (TexHandle, Src),
        lod: Src,
    ) -> LResult<()> {
        let two_d = i.has_mod("a2d");
        let c = self.coord_srcs(coords, if two_d { 3 } else { 2 })?;
        if c.len() < 2 + two_d as usize {
            return Err(unsupported(i));
        }
        let (a, b, dim) = match (two_d, self.sm.num >= 90) {
            (false, _) => {
                let a = self.texture_group(&c[..2], 2);
                (a, self.in_reg(lod), TexDim::Array1)
            }
            (true, true) => {
                let a = self.texture_group(&c[..3], 4);
                (a, self.in_reg(lod), TexDim::Array2)
            }
            (true, false) => {
                let a = self.texture_group(&c[..2], 2);
                (a, self.texture_group(&[c[2], lod], 2), TexDim::Array2)
            }
        };
        self.fetch4(i, FetchKind::TexLl, dim, h, a, b)
    }

    fn lower_tld4(&mut self, i: &Instruction) -> LResult<()> {
        let comp = ["r", "g", "b", "a"].iter().position(|c| i.has_mod(c));
        let known = |m: &str| {
            matches!(
                m,
                "r" | "g" | "b" | "a" | "2d" | "v4" | "f32" | "s32" | "u32"
            )
        };
        let float_coords = i.mods().last().map(|m| m.as_str()) == Some("f32");
        let (Some(comp), true, true, true) = (
            comp,
            i.mods().iter().all(|m| known(m)),
            i.has_mod("2d"),
            float_coords,
        ) else {
            return Err(unsupported(i));
        };
        let ops = operands_exactly(i, 2)?;
        let (handle, hsrc, coords) = self.texture_address(i, &ops[1])?;
        let xy = self.coord_srcs(coords, 2)?;
        let (a, b) = if self.sm.num >= 90 {
            (self.texture_group(&xy, 2), Src::ZERO)
        } else {
            (self.in_reg(xy[0]), self.in_reg(xy[1]))
        };
        let kind = FetchKind::Tld4 { comp: comp as u8 };
        self.fetch4(i, kind, TexDim::D2, (handle, hsrc), a, b)
    }

    /// The dimension, size, boundary mode and element count of `suld.b`/`sust.b`, and the
    /// element width when narrow elements fill one 32-bit word (`.v4.b8`, `.v2.b16`).
    fn surface_form(&self, i: &Instruction) -> LResult<(SurfDim, MemSize, SurfClamp, usize, u8)> {
        let mut dim = None;
        let mut clamp = None;
        let mut n = 1;
        let mut bits = 0;
        for m in i.mods() {
            match m.as_str() {
                "b" => {}
                "b32" => bits = 32,
                "b16" => bits = 16,
                "b8" => bits = 8,
                "1d" => dim = Some(SurfDim::D1),
                "2d" => dim = Some(SurfDim::D2),
                "3d" => dim = Some(SurfDim::D3),
                "a1d" => dim = Some(SurfDim::Array1),
                "a2d" => dim = Some(SurfDim::Array2),
                "trap" => clamp = Some(SurfClamp::Trap),
                "clamp" => clamp = Some(SurfClamp::Clamp),
                "zero" => clamp = Some(SurfClamp::Zero),
                "v2" => n = 2,
                "v4" => n = 4,
                _ => return Err(unsupported(i)),
            }
        }
        let size = match (bits, n) {
            (32, _) => [MemSize::B32, MemSize::B64, MemSize::B128][n / 2],
            (16, 2) | (8, 4) => MemSize::B32,
            _ => return Err(unsupported(i)),
        };
        match (dim, i.has_mod("b")) {
            (Some(d), true) => Ok((d, size, clamp.unwrap_or(SurfClamp::Trap), n, bits)),
            _ => Err(unsupported(i)),
        }
    }

    /// The narrow elements of a 32-bit word `w`, zero-extended (PRMT with RZ); not used yet:
    /// narrow `suld` keeps its "not supported yet" error until it is checked against ptxas.
    #[allow(dead_code)]
    fn unpack_narrow(&mut self, w: Reg, n: usize, bits: u8) -> Vec<Src> {
        (0..n as u32)
            .map(|k| {
                let sel = if bits == 8 {
                    0x7770 + k
                } else {
                    0x7710 + 0x22 * k
                };
                let t = self.temp();
                let mode = PrmtMode::Index;
                self.emit(
                    Opcode::Prmt { mode },
                    &[Dst::Reg(t)],
                    &[Src::reg(w), Src::imm(sel), Src::ZERO],
                );
                Src::reg(t)
            })
            .collect()
    }

    /// Narrow elements packed into one 32-bit word, the first lowest.
    fn pack_narrow(&mut self, vals: &[Src], bits: u8) -> Src {
        let mut prmt = |a: Src, sel: u32, b: Src| {
            let t = self.temp();
            let mode = PrmtMode::Index;
            self.emit(
                Opcode::Prmt { mode },
                &[Dst::Reg(t)],
                &[a, Src::imm(sel), b],
            );
            Src::reg(t)
        };
        if bits == 16 {
            return prmt(vals[0], 0x5410, vals[1]);
        }
        let lo = prmt(vals[0], 0x3340, vals[1]);
        let hi = prmt(vals[2], 0x3340, vals[3]);
        prmt(lo, 0x5410, hi)
    }

    /// Ra of a surface access: x in bytes, then y and z, the layer last (PTX names it first).
    fn surface_coords(&mut self, dim: SurfDim, coords: &[Operand]) -> LResult<Src> {
        let mut c = self.coord_srcs(coords, coords.len().min(4))?;
        if matches!(dim, SurfDim::Array1 | SurfDim::Array2) && !c.is_empty() {
            let layer = c.remove(0);
            c.insert(dim.coords() as usize - 1, layer);
        }
        c.truncate(dim.coords() as usize);
        let comps = match c.len() {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        Ok(self.texture_group(&c, comps))
    }

    fn lower_suld(&mut self, i: &Instruction) -> LResult<()> {
        let (dim, size, clamp, n, bits) = self.surface_form(i)?;
        if bits < 32 {
            return Err(unsupported(i));
        }
        let ops = operands_exactly(i, 2)?;
        let (handle, hsrc, coords) = self.texture_address(i, &ops[1])?;
        if coords.len() < dim.coords() as usize {
            return Err(unsupported(i));
        }
        let ra = self.surface_coords(dim, coords)?;
        let dsts: Vec<&Operand> = match &ops[0] {
            Operand::Vector(v) => v.iter().collect(),
            o => vec![o],
        };
        if dsts.len() != n {
            return Err(unsupported(i));
        }
        let data = self.f.new_vreg(RegFile::Gpr, n as u8);
        let op = TexOp::SuLd {
            dim,
            size,
            clamp,
            handle,
        };
        self.emit(
            Opcode::Texture(op),
            &[Dst::Reg(data)],
            &[ra, Src::ZERO, hsrc],
        );
        for (k, o) in dsts.into_iter().enumerate() {
            if let Operand::Reg(_) = o {
                let t = self.dst(o)?;
                let part = if n == 1 { data } else { data.part(k as u8) };
                self.emit(Opcode::Mov, &[Dst::Reg(t)], &[Src::reg(part)]);
            }
        }
        Ok(())
    }

    fn lower_sust(&mut self, i: &Instruction) -> LResult<()> {
        let (dim, size, clamp, n, bits) = self.surface_form(i)?;
        let ops = operands_exactly(i, 2)?;
        let (handle, hsrc, coords) = self.texture_address(i, &ops[0])?;
        if coords.len() < dim.coords() as usize {
            return Err(unsupported(i));
        }
        let ra = self.surface_coords(dim, coords)?;
        let vals: Vec<Src> = match &ops[1] {
            Operand::Vector(v) if v.len() == n => {
                v.iter().map(|o| self.src32(o)).collect::<LResult<_>>()?
            }
            o if n == 1 => vec![self.src32(o)?],
            _ => return Err(unsupported(i)),
        };
        let data = if bits < 32 {
            self.pack_narrow(&vals, bits)
        } else {
            self.texture_group(&vals, n as u8)
        };
        let op = TexOp::SuSt {
            dim,
            size,
            clamp,
            handle,
        };
        self.emit(Opcode::Texture(op), &[], &[ra, data, hsrc]);
        Ok(())
    }
}
