//! The sm_90 cluster barrier, tensor-map control and USETMAXREG forms (`cluster.rs`).

use ptxforge_sass::cluster::ClusterOp::*;
use ptxforge_sass::ir::*;

pub fn cluster_forms(v: &mut Vec<Instr>) {
    use Opcode::Cluster;
    let ur = |i| Src::reg(Reg::ugpr(i, 2));
    v.extend([
        Instr::new(Cluster(BarArrive), &[], &[]),
        Instr::new(Cluster(BarWait), &[], &[]),
        Instr::new(Cluster(TmaCtl { prefetch: true }), &[], &[ur(6)]),
        Instr::new(Cluster(TmaCtl { prefetch: false }), &[], &[ur(4)]),
        Instr::new(Cluster(TmaCmdFlush), &[], &[]),
        Instr::new(
            Cluster(SetMaxReg {
                inc: true,
                count: 240,
            }),
            &[Dst::Reg(Reg {
                file: RegFile::UPred,
                ..Reg::pred(0)
            })],
            &[],
        ),
        Instr::new(
            Cluster(SetMaxReg {
                inc: false,
                count: 40,
            }),
            &[],
            &[],
        ),
        Instr::new(
            Cluster(UisetpEq { imm: 1 }),
            &[Dst::Reg(Reg {
                file: RegFile::UPred,
                ..Reg::pred(2)
            })],
            &[Src::reg(Reg::ugpr(5, 1))],
        ),
        Instr::new(Cluster(DepbarAll), &[], &[]),
        Instr::new(
            Cluster(PredFromUniform),
            &[Dst::Reg(Reg::pred(3))],
            &[Src::reg(Reg {
                file: RegFile::UPred,
                ..Reg::pred(2)
            })],
        ),
        Instr::new(Cluster(BarArrive), &[], &[]).guarded(Src::reg(Reg {
            file: RegFile::UPred,
            ..Reg::pred(0)
        })),
        Instr::new(Cluster(BarWait), &[], &[]).guarded(
            Src::reg(Reg {
                file: RegFile::UPred,
                ..Reg::pred(1)
            })
            .negated(),
        ),
    ]);
}
