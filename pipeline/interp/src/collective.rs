//! Completing barriers (`bar.sync`, `bar.red`) and warp collectives (`shfl`, `vote`, `match`,
//! `redux`, `activemask`, `elect`, `bar.warp.sync`) once every participant waits.

use ptxforge_ptx::ast::Type;

use crate::error::SimError;
use crate::exec::{operand, sext, unsupported};
use crate::machine::{Cta, Status, Wait};
use crate::prep::{Ins, Opnd};

impl<'p> Cta<'p, '_> {
    fn current(&self, t: usize) -> &'p Ins {
        let prog: &'p crate::prep::Program = self.prog;
        let f = self.threads[t].frame();
        &prog.funcs[f.func].ins[f.pc]
    }

    fn release(&mut self, t: usize) {
        self.threads[t].frame_mut().pc += 1;
        self.threads[t].status = Status::Ready;
    }

    /// Writes `d` (or `d|p` with the predicate) for a collective's destination operand.
    fn write_dp(&mut self, t: usize, o: &Opnd, d: u64, ty: Type, p: bool) -> Result<(), SimError> {
        match o {
            Opnd::Pair(r, q) => {
                self.write(t, &Opnd::Reg(*r), d, ty)?;
                self.write(t, &Opnd::Reg(*q), p as u64, Type::Pred)
            }
            _ => self.write(t, o, d, ty),
        }
    }

    pub(crate) fn complete_barrier(&mut self, waiting: &[usize]) -> Result<(), SimError> {
        let mut preds = Vec::new();
        for &t in waiting {
            let ins = self.current(t);
            if ins.has("red") {
                let last = ins
                    .ops
                    .last()
                    .ok_or_else(|| unsupported(ins, "missing predicate"))?;
                preds.push(self.read(t, last, Type::Pred)? & 1 == 1);
            }
        }
        let popc = preds.iter().filter(|p| **p).count() as u64;
        let (all, any) = (preds.iter().all(|p| *p), preds.iter().any(|p| *p));
        for &t in waiting {
            let ins = self.current(t);
            if ins.has("red") {
                let (v, ty) = if ins.has("popc") {
                    (popc, Type::U32)
                } else if ins.has("and") {
                    (all as u64, Type::Pred)
                } else {
                    (any as u64, Type::Pred)
                };
                self.write(t, operand(ins, 0)?, v, ty)?;
            }
            self.release(t);
        }
        Ok(())
    }

    pub(crate) fn complete_warp_collective(
        &mut self,
        group: &[usize],
        gmask: u32,
    ) -> Result<(), SimError> {
        let Status::Waiting(Wait::Warp { kind, .. }) = self.threads[group[0]].status.clone() else {
            return Ok(());
        };
        match kind.as_str() {
            "bar.warp.sync" => {}
            "activemask" => {
                for &t in group {
                    self.write(t, operand(self.current(t), 0)?, gmask as u64, Type::B32)?;
                }
            }
            "elect" => {
                let leader = group
                    .iter()
                    .map(|&t| self.threads[t].lane())
                    .min()
                    .unwrap_or(0);
                for &t in group {
                    let me = self.threads[t].lane() == leader;
                    self.write_dp(
                        t,
                        operand(self.current(t), 0)?,
                        leader as u64,
                        Type::U32,
                        me,
                    )?;
                }
            }
            "vote" => self.vote(group)?,
            "shfl" => self.shfl(group)?,
            "match" => self.match_sync(group, gmask)?,
            "redux" => self.redux(group)?,
            "mma" if Self::is_volta_mma(self.current(group[0])) => {
                self.mma_volta(group, self.current(group[0]))?
            }
            "mma" => self.mma(group, self.current(group[0]))?,
            "movmatrix" => self.movmatrix(group, self.current(group[0]))?,
            "ldmatrix" => self.ldmatrix(group, self.current(group[0]), false)?,
            "stmatrix" => self.ldmatrix(group, self.current(group[0]), true)?,
            "wmma" => self.wmma(group, self.current(group[0]))?,
            _ => return Err(unsupported(self.current(group[0]), "warp collective")),
        }
        for &t in group {
            self.release(t);
        }
        Ok(())
    }

    fn vote(&mut self, group: &[usize]) -> Result<(), SimError> {
        let mut ballot = 0u32;
        let mut preds = Vec::new();
        for &t in group {
            let p = self.read(t, operand(self.current(t), 1)?, Type::Pred)? & 1 == 1;
            preds.push(p);
            if p {
                ballot |= 1 << self.threads[t].lane();
            }
        }
        let (all, any) = (preds.iter().all(|p| *p), preds.iter().any(|p| *p));
        for &t in group {
            let ins = self.current(t);
            let (v, ty) = if ins.has("ballot") {
                (ballot as u64, Type::B32)
            } else if ins.has("all") {
                (all as u64, Type::Pred)
            } else if ins.has("any") {
                (any as u64, Type::Pred)
            } else if ins.has("uni") {
                ((all || !any) as u64, Type::Pred)
            } else {
                return Err(unsupported(ins, "vote mode"));
            };
            self.write(t, operand(ins, 0)?, v, ty)?;
        }
        Ok(())
    }

    /// `shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, mask`: a lane outside the group (or out of
    /// range) reads its own `a`.
    fn shfl(&mut self, group: &[usize]) -> Result<(), SimError> {
        let mut vals = [None::<u64>; 32];
        for &t in group {
            vals[self.threads[t].lane() as usize] =
                Some(self.read(t, operand(self.current(t), 1)?, Type::B32)?);
        }
        for &t in group {
            let ins = self.current(t);
            let lane = self.threads[t].lane();
            let b = self.read(t, operand(ins, 2)?, Type::B32)? as u32 & 0x1f;
            let c = self.read(t, operand(ins, 3)?, Type::B32)? as u32;
            let seg = (c >> 8) & 0x1f;
            let max_lane = (lane & seg) | (c & 0x1f & !seg);
            let min_lane = lane & seg;
            let (j, ok) = if ins.has("up") {
                let j = lane as i32 - b as i32;
                (j, j >= max_lane as i32)
            } else if ins.has("down") {
                let j = (lane + b) as i32;
                (j, j <= max_lane as i32)
            } else if ins.has("bfly") {
                let j = (lane ^ b) as i32;
                (j, j <= max_lane as i32)
            } else if ins.has("idx") {
                let j = (min_lane | (b & !seg)) as i32;
                (j, j <= max_lane as i32)
            } else {
                return Err(unsupported(ins, "shfl mode"));
            };
            let src = if ok { j as u32 } else { lane };
            let own = vals[lane as usize].unwrap_or(0);
            let v = vals.get(src as usize).copied().flatten().unwrap_or(own);
            self.write_dp(t, operand(ins, 0)?, v, Type::B32, ok)?;
        }
        Ok(())
    }

    fn match_sync(&mut self, group: &[usize], gmask: u32) -> Result<(), SimError> {
        let mut vals = Vec::new();
        for &t in group {
            let ins = self.current(t);
            vals.push(self.read(t, operand(ins, 1)?, ins.ty.unwrap_or(Type::B32))?);
        }
        let all_same = vals.windows(2).all(|w| w[0] == w[1]);
        for (i, &t) in group.iter().enumerate() {
            let ins = self.current(t);
            let v = if ins.has("all") {
                if all_same {
                    gmask
                } else {
                    0
                }
            } else {
                group
                    .iter()
                    .zip(&vals)
                    .filter(|(_, v)| **v == vals[i])
                    .fold(0u32, |m, (&u, _)| m | 1 << self.threads[u].lane())
            };
            self.write_dp(t, operand(ins, 0)?, v as u64, Type::B32, all_same)?;
        }
        Ok(())
    }

    fn redux(&mut self, group: &[usize]) -> Result<(), SimError> {
        let ins0 = self.current(group[0]);
        let ty = ins0.ty.ok_or_else(|| unsupported(ins0, "no type"))?;
        if ty.is_float() {
            return Err(unsupported(ins0, "float redux"));
        }
        let mut vals = Vec::new();
        for &t in group {
            vals.push(self.read(t, operand(self.current(t), 1)?, ty)? as u32);
        }
        let key = |v: u32| {
            if ty.is_signed() {
                sext(v as u64, 32)
            } else {
                v as i64
            }
        };
        let r = if ins0.has("add") {
            vals.iter().fold(0u32, |a, v| a.wrapping_add(*v))
        } else if ins0.has("min") {
            *vals.iter().min_by_key(|v| key(**v)).unwrap_or(&0)
        } else if ins0.has("max") {
            *vals.iter().max_by_key(|v| key(**v)).unwrap_or(&0)
        } else if ins0.has("and") {
            vals.iter().fold(u32::MAX, |a, v| a & v)
        } else if ins0.has("or") {
            vals.iter().fold(0, |a, v| a | v)
        } else if ins0.has("xor") {
            vals.iter().fold(0, |a, v| a ^ v)
        } else {
            return Err(unsupported(ins0, "redux operation"));
        };
        for &t in group {
            self.write(t, operand(self.current(t), 0)?, r as u64, ty)?;
        }
        Ok(())
    }
}
