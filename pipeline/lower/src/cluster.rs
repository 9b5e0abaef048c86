//! Lowering of sm_90's cluster and tensor-map instructions as ptxas 13.5 writes them:
//! `barrier.cluster.arrive[.release|.relaxed][.aligned]` and `barrier.cluster.wait[.acquire]
//! [.aligned]`, `mapa`, `prefetch.tensormap`, `fence.proxy.tensormap::generic.{release,acquire}`
//! and `setmaxnreg.{inc,dec}.sync.aligned.u32`.
//!
//! ptxas tests constant bank 0's cluster-launch word (`c[0x0][0x140] == 1`): in a cluster launch
//! the barrier is UCGABAR_ARV / UCGABAR_WAIT (a release arrive behind `MEMBAR.ALL.GPU; ERRBAR;
//! CGAERRBAR`, the wait followed by `CCTL.IVALL`); otherwise the cluster is this CTA, the arrive
//! does nothing and the wait is `BAR.SYNC 0`. ptxas branches around the two paths; we guard them
//! (UCGABAR by a uniform predicate from UISETP, the rest by a predicate from ISETP).
//! `mapa` puts the target rank in the address's top byte (`PRMT d, rank, 0x654, a`). A tensor map's
//! generic address reaches the uniform registers by R2UR of the first active lane: ptxas loops
//! over the lanes' distinct addresses; a thread-varying address (which CUTLASS never writes) is
//! prefetched for one lane only, which is still only a hint. `setmaxnreg` is USETMAXREG (inc:
//! retried until granted, as ptxas); the register budget it implies is `setmaxnreg_budget`.

use ptxforge_ptx::ast::{self, AddrBase, Instruction, Operand, Statement};
use ptxforge_sass::cluster::ClusterOp;
use ptxforge_sass::ir::*;
use ptxforge_sass::reg_budget::Directives;
use ptxforge_sass::warp::{Scope, WarpOp};

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// Constant bank 0's word that is 1 in a cluster launch (sm_90).
const CLUSTER_LAUNCH_CBUF: u16 = 0x140;

/// Whether the kernel's directives fix its register count at entry (`.maxnreg`, or `.maxntid` /
/// `.reqntid` with `.minnctapersm`): ptxas ignores `setmaxnreg` otherwise.
fn entry_count_known(func: &ast::Function) -> bool {
    let d = Directives::from_list(&func.directives);
    d.maxnreg.is_some() || d.threads.is_some() && d.min_ctas.is_some()
}

/// The smallest register count any `setmaxnreg` of `func` asks for: every part of the kernel runs
/// within it, and the kernel reports its entry budget as its register count, as ptxas does
/// (`None`: the kernel has no `setmaxnreg` that takes effect).
pub fn setmaxnreg_budget(func: &ast::Function) -> Option<u32> {
    if !entry_count_known(func) {
        return None;
    }
    func.body
        .iter()
        .filter_map(|s| match s {
            Statement::Instr(i) if i.opcode() == "setmaxnreg" => match i.operands.first() {
                Some(Operand::Imm(n)) => u32::try_from(*n).ok(),
                _ => None,
            },
            _ => None,
        })
        .min()
}

impl Ctx<'_> {
    /// Dispatches the instructions above; `None` for others.
    pub fn lower_cluster(&mut self, i: &Instruction) -> Option<LResult<()>> {
        let tensormap_fence = i.opcode() == "fence"
            && i.mods().iter().any(|m| m.starts_with("tensormap::"))
            && i.has_mod("proxy");
        let ours = match i.opcode() {
            "barrier" => i.has_mod("cluster"),
            "mapa" | "setmaxnreg" => true,
            "prefetch" => i.has_mod("tensormap"),
            _ => tensormap_fence,
        };
        if !ours {
            return None;
        }
        if self.sm.num < 90 {
            return Some(Err(unsupported(i)));
        }
        Some(match i.opcode() {
            "barrier" => self.lower_barrier_cluster(i),
            "mapa" => self.lower_mapa(i),
            "setmaxnreg" => self.lower_setmaxnreg(i),
            "prefetch" => self.lower_prefetch_tensormap(i),
            _ => self.lower_tensormap_fence(i),
        })
    }

    /// `(UP, P)`: whether this is a cluster launch, as a uniform predicate and as a predicate.
    fn cluster_launch(&mut self) -> (Reg, Reg) {
        let (word, up) = (
            self.f.new_vreg(RegFile::UGpr, 1),
            self.f.new_vreg(RegFile::UPred, 1),
        );
        let flag = Src::cbuf(0, CLUSTER_LAUNCH_CBUF);
        self.emit(Opcode::Uldc { wide: false }, &[Dst::Reg(word)], &[flag]);
        self.emit(
            Opcode::Cluster(ClusterOp::UisetpEq { imm: 1 }),
            &[Dst::Reg(up)],
            &[Src::reg(word)],
        );
        let (r, p) = (self.temp(), self.temp_pred());
        self.emit(Opcode::Mov, &[Dst::Reg(r)], &[flag]);
        let eq = Opcode::Isetp {
            cmp: IntCmp::Eq,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(
            eq,
            &[Dst::Reg(p), Dst::None],
            &[Src::reg(r), Src::imm(1), Src::TRUE],
        );
        (up, p)
    }

    fn lower_barrier_cluster(&mut self, i: &Instruction) -> LResult<()> {
        let arrive = i.has_mod("arrive");
        let known = i.mods().iter().all(|m| {
            matches!(
                m.as_str(),
                "cluster" | "arrive" | "wait" | "aligned" | "relaxed" | "release" | "acquire"
            )
        });
        if !known || self.guard != Src::TRUE || arrive == i.has_mod("wait") {
            return Err(unsupported(i));
        }
        let (up, p) = self.cluster_launch();
        let in_cluster = Src::reg(p);
        if arrive {
            if !i.has_mod("relaxed") {
                self.guard = in_cluster;
                self.emit(
                    Opcode::Warp(WarpOp::Membar {
                        sc: false,
                        scope: Scope::Gpu,
                    }),
                    &[],
                    &[],
                );
                self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
                self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
            }
            self.guard = Src::reg(up);
            self.emit(Opcode::Cluster(ClusterOp::BarArrive), &[], &[]);
        } else {
            self.uses_barrier = true;
            self.guard = Src::reg(up);
            self.emit(Opcode::Cluster(ClusterOp::BarWait), &[], &[]);
            self.guard = in_cluster;
            self.emit(Opcode::Warp(WarpOp::CctlIvall), &[], &[]);
            self.guard = in_cluster.negated();
            self.emit(Opcode::BarSync { id: 0 }, &[], &[]);
        }
        self.guard = Src::TRUE;
        Ok(())
    }

    /// `mapa[.shared::cluster].{u32,u64} d, a, rank`.
    fn lower_mapa(&mut self, i: &Instruction) -> LResult<()> {
        let [d, a, rank] = &i.operands[..] else {
            return Err(unsupported(i));
        };
        let d = self.dst(d)?;
        let rank = self.reg_src32(rank)?;
        let select = Src::imm(0x654);
        let prmt = Opcode::Prmt {
            mode: PrmtMode::Index,
        };
        if d.comps == 2 {
            let (lo, hi) = self.src64(a)?;
            let lo = self.in_reg(lo);
            self.emit(prmt, &[Dst::Reg(d.part(0))], &[rank, select, lo]);
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[hi]);
        } else {
            let a = self.reg_src32(a)?;
            self.emit(prmt, &[Dst::Reg(d)], &[rank, select, a]);
        }
        Ok(())
    }

    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 n`: `WARPSYNC.ALL` and USETMAXREG (inc retried
    /// until the registers are granted). The kernel is allocated within the smallest count
    /// (`setmaxnreg_budget`), so no live value is lost whichever way the count moves.
    fn lower_setmaxnreg(&mut self, i: &Instruction) -> LResult<()> {
        let count = match i.operands.first() {
            Some(Operand::Imm(n)) if (24..=256).contains(n) && n % 8 == 0 => *n as u32,
            _ => return Err(unsupported(i)),
        };
        let inc = i.has_mod("inc");
        if inc == i.has_mod("dec") || self.guard != Src::TRUE {
            return Err(unsupported(i));
        }
        if !entry_count_known(self.ptx_function()) {
            // ptxas ignores it too (warning C7508: no register count known at entry).
            return Ok(());
        }
        self.emit(Opcode::Warp(WarpOp::Warpsync), &[], &[Src::imm(u32::MAX)]);
        let op = Opcode::Cluster(ClusterOp::SetMaxReg { inc, count });
        if !inc {
            self.emit(op, &[], &[]);
            return Ok(());
        }
        // This instruction opens its block (`ctx.rs`'s `starts_block`): retry it until granted.
        let here = self.f.blocks.len() as u32 - 1;
        let (up, p) = (self.f.new_vreg(RegFile::UPred, 1), self.temp_pred());
        self.emit(op, &[Dst::Reg(up)], &[]);
        self.emit(
            Opcode::Cluster(ClusterOp::PredFromUniform),
            &[Dst::Reg(p)],
            &[Src::reg(up)],
        );
        self.guard = Src::reg(p).negated();
        self.emit(Opcode::Bra { target: here }, &[], &[]);
        self.guard = Src::TRUE;
        Ok(())
    }

    /// The generic address `[a+off]` of a tensor map, in a uniform register pair.
    fn tensormap_address(&mut self, addr: &Operand) -> LResult<Reg> {
        let (base, off) = match addr {
            Operand::Addr {
                base: AddrBase::Reg(r),
                offset,
            } => (Operand::Reg(r.clone()), *offset),
            _ => return Err("a tensor map address must be a register".into()),
        };
        let (mut lo, mut hi) = self.src64(&base)?;
        if off != 0 {
            let t = self.temp64();
            let c = self.temp_pred();
            let lo_r = self.in_reg(lo);
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(t.part(0)), Dst::Reg(c)],
                &[lo_r, Src::imm(off as u32), Src::ZERO],
            );
            let hi_r = self.in_reg(hi);
            self.emit(
                Opcode::Iadd3 { x: true },
                &[Dst::Reg(t.part(1)), Dst::None],
                &[hi_r, Src::ZERO, Src::ZERO, Src::reg(c), Src::FALSE],
            );
            (lo, hi) = (Src::reg(t.part(0)), Src::reg(t.part(1)));
        }
        Ok(self.uniform_pair(lo, hi))
    }

    /// A 64-bit value's two words moved into a uniform register pair (R2UR each).
    pub(crate) fn uniform_pair(&mut self, lo: Src, hi: Src) -> Reg {
        let u = self.f.new_vreg(RegFile::UGpr, 2);
        for (half, v) in [lo, hi].into_iter().enumerate() {
            let v = self.in_reg(v);
            self.emit(Opcode::R2ur, &[Dst::Reg(u.part(half as u8))], &[v]);
        }
        u
    }

    /// `prefetch.tensormap [a]` (generic address) as `UTMACCTL.PF [UR]`.
    fn lower_prefetch_tensormap(&mut self, i: &Instruction) -> LResult<()> {
        if i.mods() != ["tensormap"] || self.guard != Src::TRUE {
            return Err(unsupported(i));
        }
        let Some(addr) = i.operands.first() else {
            return Err(unsupported(i));
        };
        let u = self.tensormap_address(addr)?;
        self.emit(
            Opcode::Cluster(ClusterOp::TmaCtl { prefetch: true }),
            &[],
            &[Src::reg(u)],
        );
        Ok(())
    }

    /// `fence.proxy.tensormap::generic.release.{cta,cluster,gpu}` (`MEMBAR.ALL.GPU; ERRBAR;
    /// CGAERRBAR`) and `.acquire.{cta,cluster,gpu} [a], 128` (`DEPBAR` on every scoreboard,
    /// `UTMACCTL.IV [UR]`, `UTMACMDFLUSH`).
    fn lower_tensormap_fence(&mut self, i: &Instruction) -> LResult<()> {
        let scoped = ["cta", "cluster", "gpu"].iter().any(|s| i.has_mod(s));
        if !i.has_mod("tensormap::generic") || !scoped || self.guard != Src::TRUE {
            return Err(unsupported(i));
        }
        if i.has_mod("release") && i.operands.is_empty() {
            self.emit(
                Opcode::Warp(WarpOp::Membar {
                    sc: false,
                    scope: Scope::Gpu,
                }),
                &[],
                &[],
            );
            self.emit(Opcode::Warp(WarpOp::Errbar), &[], &[]);
            self.emit(Opcode::Warp(WarpOp::Cgaerrbar), &[], &[]);
            return Ok(());
        }
        match &i.operands[..] {
            [addr, Operand::Imm(128)] if i.has_mod("acquire") => {
                let u = self.tensormap_address(addr)?;
                self.emit(Opcode::Cluster(ClusterOp::DepbarAll), &[], &[]);
                self.emit(
                    Opcode::Cluster(ClusterOp::TmaCtl { prefetch: false }),
                    &[],
                    &[Src::reg(u)],
                );
                self.emit(Opcode::Cluster(ClusterOp::TmaCmdFlush), &[], &[]);
                Ok(())
            }
            _ => Err(unsupported(i)),
        }
    }
}
