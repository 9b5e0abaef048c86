//! The CTA scheduler: threads run one at a time until they exit or reach a barrier or warp
//! collective (independent thread scheduling); collectives complete once every participant waits.

use crate::error::{SimError, ThreadId};
use crate::memory::Memory;
use crate::prep::Program;
use crate::{Launch, Limits};

/// Barrier number used for `barrier.cluster.arrive`/`wait`.
pub(crate) const CLUSTER_BARRIER: u32 = 16;

/// One call frame.
pub(crate) struct Frame {
    pub func: usize,
    pub pc: usize,
    pub regs: Vec<u64>,
    pub local_base: u64,
    pub param_base: u64,
    /// Frame-param addresses (in the caller) that receive this call's return values.
    pub ret_to: Vec<(u64, u64)>,
}

/// What a waiting thread waits for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Wait {
    /// `bar.sync`/`barrier.sync`/`bar.red` on barrier `id` expecting `count` threads (all when `None`).
    Barrier { id: u32, count: Option<u32> },
    /// A warp collective (`shfl`, `vote`, `bar.warp.sync`, `match`, `redux`, `activemask`, ...),
    /// named by its opcode, with its member mask.
    Warp { kind: String, mask: u32 },
    /// Let the other threads run (`nanosleep`, a failed `mbarrier.try_wait`); `retry` re-executes
    /// the instruction afterwards instead of moving past it.
    Yield { retry: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    Ready,
    Waiting(Wait),
    Exited,
}

pub(crate) struct Thread {
    pub id: ThreadId,
    /// Linear index in the CTA.
    pub lin: u32,
    pub frames: Vec<Frame>,
    pub local: Vec<u8>,
    pub fparam: Vec<u8>,
    pub status: Status,
    pub steps: u64,
    /// The carry flag of `add.cc`/`addc`/`sub.cc`/`subc`/`mad.cc`.
    pub carry: bool,
}

impl Thread {
    pub fn lane(&self) -> u32 {
        self.lin % 32
    }
    pub fn warp(&self) -> u32 {
        self.lin / 32
    }
    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("a live thread has a frame")
    }
    pub fn frame_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a live thread has a frame")
    }
}

/// Per-launch facts every thread can read.
pub(crate) struct LaunchInfo {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_smem: u64,
    pub total_smem: u64,
}

/// One CTA being executed.
pub(crate) struct Cta<'p, 'm> {
    pub prog: &'p Program,
    pub mem: &'p mut Memory<'m>,
    pub threads: Vec<Thread>,
    pub info: &'p LaunchInfo,
    pub limits: &'p Limits,
    /// Arrivals counted on each barrier (16 hardware barriers).
    /// Arrivals counted on each barrier: the 16 CTA barriers, then the cluster barrier
    /// ([`CLUSTER_BARRIER`]; clusters hold one CTA in this simulation).
    pub arrived: [u32; 17],
    pub steps: u64,
    /// Whether some instruction other than a retried wait completed since the last check.
    pub did_work: bool,
}

/// What an executed instruction asks the scheduler to do next.
pub(crate) enum Flow {
    Next,
    Jump(usize),
    /// The thread now waits (the instruction completes when the collective does).
    Block(Wait),
    Exit,
    Call,
    Ret,
}

impl<'p, 'm> Cta<'p, 'm> {
    pub fn new(
        prog: &'p Program,
        mem: &'p mut Memory<'m>,
        info: &'p LaunchInfo,
        limits: &'p Limits,
        ctaid: [u32; 3],
    ) -> Self {
        let [bx, by, bz] = info.block;
        let mut threads = Vec::with_capacity((bx * by * bz) as usize);
        let entry = &prog.funcs[prog.entry];
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    let lin = x + bx * (y + by * z);
                    let frame = Frame {
                        func: prog.entry,
                        pc: 0,
                        regs: vec![0; entry.reg_bits.len()],
                        local_base: 0,
                        param_base: 0,
                        ret_to: Vec::new(),
                    };
                    threads.push(Thread {
                        id: ThreadId {
                            ctaid,
                            tid: [x, y, z],
                        },
                        lin,
                        frames: vec![frame],
                        local: vec![0; entry.local_size as usize],
                        fparam: vec![0; entry.param_size as usize],
                        status: Status::Ready,
                        steps: 0,
                        carry: false,
                    });
                }
            }
        }
        Cta {
            prog,
            mem,
            threads,
            info,
            limits,
            arrived: [0; 17],
            steps: 0,
            did_work: false,
        }
    }

    /// Runs the CTA to completion.
    pub fn run(&mut self) -> Result<(), SimError> {
        loop {
            for t in 0..self.threads.len() {
                self.run_thread(t)?;
            }
            if self.threads.iter().all(|t| t.status == Status::Exited) {
                return Ok(());
            }
            let worked = std::mem::take(&mut self.did_work);
            let progressed = self.resolve_barriers()?
                | self.resolve_warp_collectives()?
                | (self.release_yields() && worked);
            if !progressed {
                return Err(SimError::Deadlock {
                    detail: self.describe_waits(),
                });
            }
        }
    }

    fn run_thread(&mut self, t: usize) -> Result<(), SimError> {
        while self.threads[t].status == Status::Ready {
            let (func, pc) = {
                let f = self.threads[t].frame();
                (f.func, f.pc)
            };
            let prog = self.prog;
            let Some(ins) = prog.funcs[func].ins.get(pc) else {
                // Falling off the end of a body returns.
                self.do_ret(t);
                continue;
            };
            let th = &mut self.threads[t];
            th.steps += 1;
            self.steps += 1;
            if th.steps > self.limits.max_steps_per_thread {
                return Err(SimError::StepLimit {
                    thread: th.id,
                    steps: self.limits.max_steps_per_thread,
                });
            }
            if let Some((neg, p)) = ins.guard {
                if ((th.frame().regs[p as usize] & 1) != 0) == neg {
                    th.frame_mut().pc += 1;
                    continue;
                }
            }
            let flow = self.exec(t, ins).map_err(|e| match e {
                SimError::BadModule(m) => {
                    SimError::BadModule(format!("line {} ({}): {m}", ins.line, ins.op))
                }
                e => e,
            })?;
            if !matches!(flow, Flow::Block(Wait::Yield { retry: true })) {
                self.did_work = true;
            }
            match flow {
                Flow::Next => self.threads[t].frame_mut().pc += 1,
                Flow::Jump(to) => self.threads[t].frame_mut().pc = to,
                Flow::Block(w) => {
                    // barrier.cluster.wait counts no arrival: barrier.cluster.arrive did.
                    if let Wait::Barrier { id, .. } = w {
                        if id < CLUSTER_BARRIER {
                            self.arrived[id as usize] += 1;
                        }
                    }
                    self.threads[t].status = Status::Waiting(w);
                }
                Flow::Exit => self.exit_thread(t),
                Flow::Call => {}
                Flow::Ret => self.do_ret(t),
            }
        }
        Ok(())
    }

    fn exit_thread(&mut self, t: usize) {
        let th = &mut self.threads[t];
        th.status = Status::Exited;
        th.frames.clear();
    }

    /// Returns from the current frame, copying return values to the caller's argument slots.
    fn do_ret(&mut self, t: usize) {
        let prog = self.prog;
        let th = &mut self.threads[t];
        let frame = th.frames.pop().expect("frame");
        if th.frames.is_empty() {
            th.status = Status::Exited;
            return;
        }
        let callee = &prog.funcs[frame.func];
        for (&(off, size), &(dst, dsize)) in callee.rets.iter().zip(&frame.ret_to) {
            let n = size.min(dsize) as usize;
            let src = (frame.param_base + off) as usize;
            th.fparam.copy_within(src..src + n, dst as usize);
        }
        th.fparam.truncate(frame.param_base as usize);
        th.local.truncate(frame.local_base as usize);
        th.frame_mut().pc += 1;
    }

    /// Makes yielding threads ready again; returns whether there were any.
    fn release_yields(&mut self) -> bool {
        let mut any = false;
        for th in &mut self.threads {
            if let Status::Waiting(Wait::Yield { retry }) = th.status {
                if !retry {
                    th.frame_mut().pc += 1;
                }
                th.status = Status::Ready;
                any = true;
            }
        }
        any
    }

    fn live_count(&self) -> u32 {
        self.threads
            .iter()
            .filter(|t| t.status != Status::Exited)
            .count() as u32
    }

    /// Completes every barrier whose expected arrivals are in; returns whether any did.
    fn resolve_barriers(&mut self) -> Result<bool, SimError> {
        let mut progressed = false;
        for id in 0..=CLUSTER_BARRIER {
            let waiting: Vec<usize> = (0..self.threads.len())
                .filter(
                    |&t| matches!(&self.threads[t].status, Status::Waiting(Wait::Barrier { id: i, .. }) if *i == id),
                )
                .collect();
            if waiting.is_empty() {
                continue;
            }
            let count = waiting
                .iter()
                .find_map(|&t| match &self.threads[t].status {
                    Status::Waiting(Wait::Barrier { count: Some(c), .. }) => Some(*c),
                    _ => None,
                })
                .unwrap_or_else(|| self.live_count());
            if self.arrived[id as usize] < count {
                continue;
            }
            self.arrived[id as usize] -= count.min(self.arrived[id as usize]);
            self.complete_barrier(&waiting)?;
            progressed = true;
        }
        Ok(progressed)
    }

    /// Finds warp collectives whose every member waits at the same kind of collective and runs them.
    fn resolve_warp_collectives(&mut self) -> Result<bool, SimError> {
        let mut progressed = false;
        let nwarps = self.threads.len().div_ceil(32);
        for w in 0..nwarps {
            let lanes: Vec<usize> = (w * 32..(w * 32 + 32).min(self.threads.len())).collect();
            for &t in &lanes {
                let Status::Waiting(Wait::Warp { kind, mask }) = self.threads[t].status.clone()
                else {
                    continue;
                };
                let live: u32 = lanes
                    .iter()
                    .filter(|&&l| self.threads[l].status != Status::Exited)
                    .fold(0, |m, &l| m | 1 << self.threads[l].lane());
                let mut group_mask = (mask & live) | 1 << self.threads[t].lane();
                if kind == "activemask" {
                    let pc = self.threads[t].frame().pc;
                    group_mask = lanes
                        .iter()
                        .filter(|&&l| {
                            matches!(&self.threads[l].status, Status::Waiting(Wait::Warp { kind: k, .. }) if k == "activemask")
                                && self.threads[l].frame().pc == pc
                        })
                        .fold(0, |m, &l| m | 1 << self.threads[l].lane());
                }
                let group: Vec<usize> = lanes
                    .iter()
                    .copied()
                    .filter(|&l| group_mask >> self.threads[l].lane() & 1 != 0)
                    .collect();
                // Every member waits at the same kind of collective with the same lanes named:
                // after divergence, a lane at a full-warp shfl must not pair with lanes at a
                // shfl of their own branch whose mask leaves it out.
                let all_there = group.iter().all(|&l| {
                    matches!(&self.threads[l].status, Status::Waiting(Wait::Warp { kind: k, mask: m })
                        if *k == kind
                            && (kind == "activemask"
                                || (m & live) | 1 << self.threads[l].lane() == group_mask))
                });
                if all_there {
                    self.complete_warp_collective(&group, group_mask)?;
                    progressed = true;
                }
            }
        }
        Ok(progressed)
    }

    fn describe_waits(&self) -> String {
        let mut parts = Vec::new();
        for t in &self.threads {
            if let Status::Waiting(w) = &t.status {
                let line = self.prog.funcs[t.frame().func]
                    .ins
                    .get(t.frame().pc)
                    .map_or(0, |i| i.line);
                let what = match w {
                    Wait::Barrier { id, count } => match count {
                        Some(c) => format!("barrier {id} (count {c})"),
                        None => format!("barrier {id}"),
                    },
                    Wait::Warp { kind, mask } => format!("{kind} (mask {mask:#010x})"),
                    Wait::Yield { .. } => "an mbarrier or sleep that never completes".to_string(),
                };
                parts.push(format!("{} waits at {what}, line {line}", t.id));
                if parts.len() == 4 {
                    break;
                }
            }
        }
        let waiting = self
            .threads
            .iter()
            .filter(|t| matches!(t.status, Status::Waiting(_)))
            .count();
        format!(
            "{waiting} threads wait and none can proceed: {}",
            parts.join("; ")
        )
    }
}

/// Builds the launch-wide facts.
pub(crate) fn launch_info(launch: &Launch, prog: &Program, limits: &Limits) -> LaunchInfo {
    LaunchInfo {
        grid: launch.grid,
        block: launch.block,
        dyn_smem: limits.dynamic_shared_bytes,
        total_smem: prog.static_shared + limits.dynamic_shared_bytes,
    }
}
