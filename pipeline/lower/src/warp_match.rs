//! Lowering of `match.any.sync` and `match.all.sync` (`.b32`/`.b64`), as ptxas 13.5 writes them:
//! MATCH.ANY / MATCH.ALL[.U64] on sm_80+, and on sm_75 (whose ptxas code has no MATCH.ALL)
//! match.all from MATCH.ANY: the lanes holding this lane's value, compared with the active mask.
//! The member mask goes to the collective's mask slot, where the warp pass puts a WARPSYNC
//! before the instruction in code that may have diverged; the instruction itself reduces over the
//! executing lanes, which are the member mask's in a well-defined program.

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly as operands, Ctx, LResult};

/// Slot of a collective's member mask until the warp pass has used it (as in `warp.rs`).
const MASK_SLOT: usize = 4;

impl Ctx<'_> {
    /// `match.any.sync.{b32,b64} d, a, membermask` and `match.all.sync.{b32,b64} d[|p], a,
    /// membermask`.
    pub(crate) fn lower_match(&mut self, i: &Instruction) -> LResult<()> {
        let wide = i.has_mod("b64");
        let all = i.has_mod("all");
        if !i.has_mod("sync") || !(wide || i.has_mod("b32")) || !(all || i.has_mod("any")) {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let o = operands(i, 3)?;
        let (d, p) = match &o[0] {
            Operand::PredPair(pair) if all => (self.vreg(&pair.0)?, Some(self.vreg(&pair.1)?)),
            op => (self.dst(op)?, None),
        };
        let a = if wide {
            match &o[1] {
                Operand::Reg(n) if self.vreg(n)?.comps == 2 => Src::reg(self.vreg(n)?),
                op => {
                    let (lo, hi) = self.src64(op)?;
                    Src::reg(self.pair_of([lo, hi]))
                }
            }
        } else {
            self.reg_src32(&o[1])?
        };
        let mask = self.src32(&o[2])?;
        if all && self.sm.num < 80 {
            return self.match_all_from_any(d, p, a, wide, mask);
        }
        let pd = p.map_or(Dst::None, Dst::Reg);
        self.emit_match(all, wide, &[Dst::Reg(d), pd], a, mask);
        Ok(())
    }

    fn emit_match(&mut self, all: bool, wide: bool, dsts: &[Dst], a: Src, mask: Src) {
        let mut srcs = [Src::NONE; MASK_SLOT + 1];
        srcs[0] = a;
        srcs[MASK_SLOT] = mask;
        self.emit(Opcode::Warp(WarpOp::Match { all, wide }), dsts, &srcs);
    }

    /// sm_75: `MATCH.ANY m, a; VOTE.ANY act, PT, PT; LOP3 m & act; ISETP.EQ.U32 p, m, act;
    /// SEL d, act, RZ, p` (ptxas reads the active mask first).
    fn match_all_from_any(
        &mut self,
        d: Reg,
        p: Option<Reg>,
        a: Src,
        wide: bool,
        mask: Src,
    ) -> LResult<()> {
        let same = self.temp();
        self.emit_match(false, wide, &[Dst::Reg(same), Dst::None], a, mask);
        // The active mask right after the MATCH (whose member-mask sync, where the warp pass puts
        // one, already gathered the lanes).
        let act = self.temp();
        self.emit(
            Opcode::Warp(WarpOp::Vote(VoteMode::Any)),
            &[Dst::Reg(act), Dst::None],
            &[Src::TRUE],
        );
        let both = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(both), Dst::None],
            &[Src::reg(same), Src::reg(act), Src::ZERO, Src::FALSE],
        );
        let p = p.unwrap_or_else(|| self.temp_pred());
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Eq,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(p), Dst::None],
            &[Src::reg(both), Src::reg(act), Src::TRUE],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::reg(act), Src::ZERO, Src::reg(p)],
        );
        Ok(())
    }
}
