//! The machine: CTAs of warps, lockstep execution with per-thread PCs, barriers, and the memory
//! spaces (global buffers, per-CTA shared memory, constant bank 0).

#[path = "arrives.rs"]
mod arrives;
#[path = "async_copy.rs"]
mod async_copy;
#[path = "gmma.rs"]
mod gmma;
#[path = "imma.rs"]
mod imma;
#[path = "matrix_move.rs"]
mod matrix_move;
#[path = "mma_sparse.rs"]
mod mma_sparse;
#[path = "qspc.rs"]
mod qspc;
#[path = "syncs.rs"]
mod syncs;
#[path = "syscalls.rs"]
mod syscalls;
#[path = "tma.rs"]
mod tma;
#[path = "warp_match.rs"]
mod warp_match;
pub(crate) use gmma::operands as gmma_operands;
pub(crate) use imma::geometry as matrix_geometry;
pub(crate) use mma_sparse::{operand_regs as sparse_operand_regs, sparse_form};

use crate::alu::{exec_alu, AluOut, Operands};
use crate::cubin::KernelImage;
use crate::decode::{
    access_bytes, decode, field, mem_words, sext, Inst, Op, Operand, PredSrc, PT, RZ, URZ,
};
use crate::hazard::HazardModel;
use crate::modelled::ModelledClock;
use crate::{Buffer, EmuError, EmuOptions, EmuStats, Launch};

const WARP: usize = 32;
/// Constant bank 0 is modelled at its full architectural size.
const CBANK_SIZE: usize = 0x10000;
/// The most shared memory a CTA can have (sm_90: 227 KiB usable plus the 1 KiB reserved window).
const MAX_SHARED: u32 = 228 * 1024;
/// Warp instructions a warp runs before the next warp of its CTA gets a turn.
const TURN: u32 = 64;
/// Generic address of local offset 0 (each thread sees its own local memory there), as the PTX
/// interpreter places it; constant bank 0 holds it at 0x20 for `cvta.local`'s `R1 + c[0x0][0x20]`.
pub const LOCAL_WINDOW: u64 = 0x0000_7100_0000_0000;
/// Generic address of shared address 0 (each CTA sees its own shared memory there), as the PTX
/// interpreter places it: constant bank 0 holds it at 0x18 for `cvta.shared` before sm_90, and
/// SR_SWINHI gives its high word on sm_90 (where shared addresses start at the reserved 0x400).
pub const SHARED_WINDOW: u64 = 0x0000_7000_0000_0000;
const CBANK_SHARED_WINDOW: usize = 0x18;
/// Generic address of parameter-block offset 0 (sm_90 `cvta.param`), as the PTX interpreter
/// places it; generic loads there read constant bank 0 from the kernel's parameter offset.
pub const PARAM_WINDOW: u64 = 0x0000_7300_0000_0000;
/// Where constant bank 0 holds the local window base (64-bit) and the initial stack pointer.
const CBANK_LOCAL_WINDOW: usize = 0x20;
const CBANK_STACK_TOP: usize = 0x28;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Lane {
    Ready,
    /// Waiting at BAR.SYNC for the rest of the CTA.
    AtBarrier,
    /// Waiting at BSYNC on convergence barrier B<n> for the lanes it still holds.
    AtBsync(u8),
    /// Waiting at WARPSYNC for the lanes of the mask.
    AtWarpsync(u32),
    Exited,
}

struct Warp {
    r: Vec<u32>,
    /// Per register, the lanes that have written it.
    written: [u32; 256],
    /// Predicate masks P0..P6 (one bit per lane); index 7 is PT.
    p: [u32; 8],
    ur: [u32; 64],
    up: [bool; 8],
    pc: [u32; WARP],
    lane: [Lane; WARP],
    /// Convergence barrier registers B0..B15: the lanes each one waits for.
    bar: [u32; 16],
    /// Lanes run together only while they share a group: a divergent branch splits its group and
    /// only BSYNC or WARPSYNC merges groups again (the hardware guarantees nothing more).
    group: [u32; WARP],
    next_group: u32,
    tid: [[u32; 3]; WARP],
    hz: HazardModel,
    /// The modelled clock (`modelled.rs`): nominal latencies for scoreboarded results.
    clock: ModelledClock,
    /// BAR.RED in progress: its operation (74..75), the lanes that arrived and their predicates.
    bar_red: Option<(u32, u32, u32)>,
    /// The result of the last BAR.RED, read by B2R.RESULT.
    b2r: u32,
    /// Each lane's local memory (`stack` bytes per lane, lane after lane): the stack that R1
    /// points into, as large as the cubin's EIATTR_MIN_STACK_SIZE says, so an access past the
    /// frame the cubin declares is out of bounds.
    local: Vec<u8>,
    stack: u32,
    /// The group whose last mbarrier check failed in every lane (`syncs.rs`): it issues after
    /// the warp's other ready groups, so a split warp whose lanes wait on an mbarrier another of
    /// its groups must arrive on makes progress (as independent thread scheduling guarantees).
    spinning: Option<u32>,
    /// The warp's index in its CTA (its warpgroup is `index / 4`).
    index: u32,
    /// Warpgroup MMA accumulators in flight (`gmma.rs`).
    gmma: gmma::InFlight,
}

impl Warp {
    fn new(sm: u32, first_thread: u32, block: [u32; 3], stack: u32) -> Warp {
        let total = block[0] * block[1] * block[2];
        let mut w = Warp {
            r: vec![0; 256 * WARP],
            written: [0; 256],
            p: [0, 0, 0, 0, 0, 0, 0, u32::MAX],
            ur: [0; 64],
            up: [false, false, false, false, false, false, false, true],
            pc: [0; WARP],
            lane: [Lane::Exited; WARP],
            bar: [0; 16],
            group: [0; WARP],
            next_group: 1,
            tid: [[0; 3]; WARP],
            hz: HazardModel::new(sm),
            clock: ModelledClock::default(),
            bar_red: None,
            b2r: 0,
            local: vec![0; WARP * stack as usize],
            stack,
            spinning: None,
            index: first_thread / WARP as u32,
            gmma: gmma::InFlight::default(),
        };
        for l in 0..WARP {
            let t = first_thread + l as u32;
            if t < total {
                w.lane[l] = Lane::Ready;
                w.tid[l] = [
                    t % block[0],
                    (t / block[0]) % block[1],
                    t / (block[0] * block[1]),
                ];
            }
        }
        w
    }

    /// Lane `lane`'s local bytes `addr..addr + bytes`, if inside its stack.
    fn local_range(&self, lane: usize, addr: u64, bytes: usize) -> Option<std::ops::Range<usize>> {
        let end = addr.checked_add(bytes as u64)?;
        (end <= self.stack as u64).then(|| {
            let base = lane * self.stack as usize;
            base + addr as usize..base + end as usize
        })
    }

    fn reg(&self, idx: u8, lane: usize) -> u32 {
        if idx == RZ {
            0
        } else {
            self.r[idx as usize * WARP + lane]
        }
    }

    fn set_reg(&mut self, idx: u8, lane: usize, v: u32) {
        if idx != RZ {
            self.r[idx as usize * WARP + lane] = v;
            self.written[idx as usize] |= 1 << lane;
        }
    }

    fn ureg(&self, idx: u8) -> u32 {
        if idx >= URZ {
            0
        } else {
            self.ur[idx as usize]
        }
    }

    fn pred(&self, p: PredSrc, lane: usize) -> bool {
        let v = if p.uniform {
            self.up[p.idx as usize & 7]
        } else {
            self.p[p.idx as usize & 7] >> lane & 1 == 1
        };
        v != p.neg
    }

    fn set_pred(&mut self, idx: u8, lane: usize, v: bool) {
        if idx != PT {
            let m = 1u32 << lane;
            self.p[idx as usize] = if v {
                self.p[idx as usize] | m
            } else {
                self.p[idx as usize] & !m
            };
        }
    }

    fn mask(&self, state: Lane) -> u32 {
        self.mask_where(|s| s == state)
    }

    fn mask_where(&self, f: impl Fn(Lane) -> bool) -> u32 {
        (0..WARP)
            .filter(|&l| f(self.lane[l]))
            .fold(0, |m, l| m | 1 << l)
    }

    /// Releases lanes waiting at BSYNC or WARPSYNC once every lane they wait for has arrived
    /// (or exited, or left the region with BREAK).
    fn release_syncs(&mut self) {
        let exited = self.mask(Lane::Exited);
        for l in 0..WARP {
            let release = match self.lane[l] {
                Lane::AtBsync(b) => {
                    let want = self.bar[b as usize] & !exited;
                    want & !self.mask(Lane::AtBsync(b)) == 0
                }
                Lane::AtWarpsync(m) => {
                    m & !exited & !self.mask_where(|s| matches!(s, Lane::AtWarpsync(_))) == 0
                }
                _ => false,
            };
            if release {
                let (waiting, merged) = (self.lane[l], self.group[l]);
                for k in 0..WARP {
                    if self.lane[k] == waiting {
                        self.lane[k] = Lane::Ready;
                        self.group[k] = merged;
                    }
                }
            }
        }
    }
}

fn cbank_read(cbank: &[u8], off: u64, bytes: usize) -> Option<u64> {
    let s = cbank.get(off as usize..off as usize + bytes)?;
    let mut v = [0u8; 8];
    v[..bytes].copy_from_slice(s);
    Some(u64::from_le_bytes(v))
}

/// The constant banks an operand reads: bank 0 (launch values and parameters) and bank 2 (the
/// kernel's `.nv.constant2`); any other bank, or a read past one, reads 0.
#[derive(Clone, Copy)]
struct Banks<'a> {
    zero: &'a [u8],
    two: &'a [u8],
    three: &'a [u8],
    four: &'a [u8],
}

impl Banks<'_> {
    /// No banks (every read is 0).
    const NONE: Banks<'static> = Banks {
        zero: &[],
        two: &[],
        three: &[],
        four: &[],
    };

    /// `bytes` bytes at `off` in bank `bank`.
    fn read(&self, bank: u8, off: u32, bytes: usize) -> u64 {
        let data = match bank {
            0 => self.zero,
            2 => self.two,
            3 => self.three,
            4 => self.four,
            _ => return 0,
        };
        cbank_read(data, u64::from(off), bytes).unwrap_or(0)
    }
}

/// Operand access for one lane of a warp.
struct LaneView<'a> {
    w: &'a Warp,
    lane: usize,
    banks: Banks<'a>,
}

impl Operands for LaneView<'_> {
    fn val(&self, o: Operand) -> u32 {
        match o {
            Operand::None => 0,
            Operand::R(r) => self.w.reg(r, self.lane),
            Operand::Ur(r) => self.w.ureg(r),
            Operand::Imm(v) => v,
            Operand::Cb { bank, off } => self.banks.read(bank, off, 4) as u32,
        }
    }

    fn val64(&self, o: Operand) -> u64 {
        match o {
            Operand::R(r) if r != RZ => {
                (self.w.reg(r, self.lane) as u64) | (self.w.reg(r + 1, self.lane) as u64) << 32
            }
            Operand::Ur(r) if r < URZ => {
                (self.w.ureg(r) as u64) | (self.w.ureg(r + 1) as u64) << 32
            }
            Operand::Cb { bank, off } => self.banks.read(bank, off, 8),
            Operand::Imm(v) => v as i32 as i64 as u64,
            _ => 0,
        }
    }

    fn pred(&self, p: PredSrc) -> bool {
        self.w.pred(p, self.lane)
    }
}

/// One launch in progress.
struct Run<'a> {
    k: &'a KernelImage,
    /// Decoded words; a decode error is reported only if execution reaches the word.
    insts: Vec<Result<Inst, EmuError>>,
    cbank: Vec<u8>,
    buffers: &'a mut [Buffer],
    /// The module's variables (a fresh copy per launch).
    vars: Vec<Buffer>,
    opts: &'a EmuOptions,
    stats: EmuStats,
    cta: [u32; 3],
    shared: Vec<u8>,
    /// The launch's shape (the order of the calls' records).
    grid: [u32; 3],
    block: [u32; 3],
    /// The calls of undefined functions made so far (`syscalls.rs`).
    syscalls: Vec<ptxforge_device::syscall::SysCallRecord>,
}

/// Runs the whole grid.
pub fn run(
    k: &KernelImage,
    launch: &Launch,
    params: &[u8],
    buffers: &mut [Buffer],
    opts: &EmuOptions,
) -> Result<EmuStats, EmuError> {
    run_recording(k, launch, params, buffers, opts).map(|(stats, _)| stats)
}

/// [`run`], also giving the records of the calls of undefined functions
/// (`ptxforge_device::syscall::records_buffer`) when the kernel can make any.
pub fn run_recording(
    k: &KernelImage,
    launch: &Launch,
    params: &[u8],
    buffers: &mut [Buffer],
    opts: &EmuOptions,
) -> Result<(EmuStats, Option<Vec<u8>>), EmuError> {
    let threads = launch.block.iter().map(|&d| d as u64).product::<u64>();
    if threads == 0 || threads > 1024 || launch.grid.contains(&0) {
        return Err(EmuError::BadLaunch(format!(
            "block {:?} grid {:?}",
            launch.block, launch.grid
        )));
    }
    if cta_shared_bytes(k, opts) > MAX_SHARED as u64 {
        return Err(EmuError::BadCubin(format!(
            "{} bytes of shared memory (at most {MAX_SHARED})",
            cta_shared_bytes(k, opts)
        )));
    }
    if params.len() as u64 > k.param_size as u64
        || k.param_offset as usize + params.len() > CBANK_SIZE
    {
        return Err(EmuError::BadLaunch(format!(
            "{} parameter bytes for a kernel that takes {}",
            params.len(),
            k.param_size
        )));
    }
    let insts = (0..k.code.len() / 16)
        .map(|n| {
            let w = u128::from_le_bytes(k.code[n * 16..n * 16 + 16].try_into().expect("16 bytes"));
            decode(k.sm, n as u32 * 16, w)
        })
        .collect::<Vec<_>>();
    let mut cbank = vec![0u8; CBANK_SIZE];
    for (n, v) in launch.block.iter().chain(launch.grid.iter()).enumerate() {
        cbank[n * 4..n * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    cbank[k.param_offset as usize..k.param_offset as usize + params.len()].copy_from_slice(params);
    cbank[CBANK_LOCAL_WINDOW..CBANK_LOCAL_WINDOW + 8].copy_from_slice(&LOCAL_WINDOW.to_le_bytes());
    cbank[CBANK_SHARED_WINDOW..CBANK_SHARED_WINDOW + 8]
        .copy_from_slice(&SHARED_WINDOW.to_le_bytes());
    cbank[CBANK_STACK_TOP..CBANK_STACK_TOP + 4].copy_from_slice(&k.stack_size.to_le_bytes());
    crate::special_regs::fill_cbank(&mut cbank, k.sm, launch.grid);
    let mut run = Run {
        k,
        insts,
        cbank,
        buffers,
        vars: k.module_vars.clone(),
        opts,
        stats: EmuStats::default(),
        cta: [0; 3],
        shared: Vec::new(),
        grid: launch.grid,
        block: launch.block,
        syscalls: Vec::new(),
    };
    for z in 0..launch.grid[2] {
        for y in 0..launch.grid[1] {
            for x in 0..launch.grid[0] {
                run.cta = [x, y, z];
                run.run_cta(launch.block)?;
            }
        }
    }
    let records =
        (!k.externs.is_empty()).then(|| ptxforge_device::syscall::records_buffer(&run.syscalls));
    Ok((run.stats, records))
}

/// Shared memory bytes of one CTA: the static bytes, then the launch's dynamic bytes after them
/// (rounded up to 16, where `.extern .shared` arrays start).
fn cta_shared_bytes(k: &KernelImage, opts: &EmuOptions) -> u64 {
    match opts.dynamic_shared_bytes {
        0 => k.shared_size as u64,
        dynamic => (k.shared_size as u64).next_multiple_of(16) + dynamic as u64,
    }
}

impl Run<'_> {
    /// The constant banks of this launch.
    fn banks(&self) -> Banks<'_> {
        Banks {
            zero: &self.cbank,
            two: &self.k.cbank2,
            three: &self.k.cbank3,
            four: &self.k.cbank4,
        }
    }

    fn run_cta(&mut self, block: [u32; 3]) -> Result<(), EmuError> {
        let threads = block[0] * block[1] * block[2];
        self.shared = vec![0u8; cta_shared_bytes(self.k, self.opts) as usize];
        let mut warps: Vec<Warp> = (0..threads.div_ceil(WARP as u32))
            .map(|n| Warp::new(self.k.sm, n * WARP as u32, block, self.k.stack_size))
            .collect();
        loop {
            for w in warps.iter_mut() {
                for _ in 0..TURN {
                    if !self.step(w)? {
                        break;
                    }
                }
            }
            let live = warps.iter().any(|w| w.mask(Lane::Exited) != u32::MAX);
            if !live {
                break;
            }
            warps.iter_mut().for_each(Warp::release_syncs);
            let ready = warps.iter().any(|w| w.mask(Lane::Ready) != 0);
            let all_at_bar = warps
                .iter()
                .all(|w| w.mask_where(|s| s == Lane::Exited || s == Lane::AtBarrier) == u32::MAX);
            if !ready && all_at_bar {
                // Every live thread waits at the barrier: release them together.
                let t = warps.iter().map(|w| w.hz.t).max().unwrap_or(0);
                let modelled = warps.iter().map(|w| w.clock.t).max().unwrap_or(0);
                complete_bar_red(&mut warps);
                for w in warps.iter_mut() {
                    w.hz.t = t;
                    w.clock.t = modelled;
                    for l in 0..WARP {
                        if w.lane[l] == Lane::AtBarrier {
                            w.lane[l] = Lane::Ready;
                        }
                    }
                }
            } else if !ready {
                return Err(EmuError::Deadlock { cta: self.cta });
            }
        }
        self.stats.cycles += warps.iter().map(|w| w.hz.t).max().unwrap_or(0);
        self.stats.modelled_cycles += warps.iter().map(|w| w.clock.t).max().unwrap_or(0);
        self.stats.ctas += 1;
        Ok(())
    }

    /// Issues one instruction for the lowest-PC group of ready lanes; false when none is ready.
    fn step(&mut self, w: &mut Warp) -> Result<bool, EmuError> {
        w.release_syncs();
        let ready = w.mask(Lane::Ready);
        if ready == 0 {
            return Ok(false);
        }
        let (_, pc, gid) = (0..WARP)
            .filter(|&l| ready >> l & 1 == 1)
            .map(|l| (w.spinning == Some(w.group[l]), w.pc[l], w.group[l]))
            .min()
            .unwrap_or((false, 0, 0));
        let group = (0..WARP)
            .filter(|&l| ready >> l & 1 == 1 && w.pc[l] == pc && w.group[l] == gid)
            .fold(0u32, |m, l| m | 1 << l);
        self.stats.warp_instructions += 1;
        if self.stats.warp_instructions > self.opts.max_steps {
            return Err(EmuError::StepLimit {
                steps: self.opts.max_steps,
            });
        }
        if pc % 16 != 0 {
            let lane = group.trailing_zeros() as usize;
            return Err(EmuError::Misaligned {
                space: "code",
                addr: pc as u64,
                pc,
                thread: w.tid[lane],
                cta: self.cta,
            });
        }
        let inst = match self.insts.get(pc as usize / 16) {
            Some(Ok(i)) => i.clone(),
            Some(Err(e)) => return Err(e.clone()),
            None => {
                let lane = group.trailing_zeros() as usize;
                return Err(EmuError::OutOfBounds {
                    space: "code",
                    addr: pc as u64,
                    pc,
                    thread: w.tid[lane],
                    cta: self.cta,
                });
            }
        };
        check_converged(w, &inst, ready, group, self.cta)?;
        gmma::check_in_flight(w, &inst)?;
        if self.opts.check_hazards {
            w.hz.issue(&inst, group)?;
        } else {
            w.hz.t += inst.ctrl.stall.max(1) as u64;
        }
        w.clock.issue(&inst);
        let mut exec = (0..WARP)
            .filter(|&l| group >> l & 1 == 1 && w.pred(inst.guard, l))
            .fold(0u32, |m, l| m | 1 << l);
        if inst.op == Op::Bra {
            // Only the lanes whose predicate input holds branch.
            exec &= (0..WARP)
                .filter(|&l| w.pred(inst.pred(87), l))
                .fold(0u32, |m, l| m | 1 << l);
            // BRA.U.ANY (bit 84, ptxas's uniform-address loops): the whole issuing group branches
            // when the guard holds in any of its lanes.
            if inst.bit(84) && exec != 0 {
                exec = group;
            }
            // BRA.DIV: taken only when a live lane of the mask is outside the issuing group.
            if let (true, Operand::Ur(u)) = (inst.bit(91), inst.a) {
                if w.ureg(u) & !w.mask(Lane::Exited) & !group == 0 {
                    exec = 0;
                }
            } else if inst.f(32, 2) == 3 && !w.mask(Lane::Exited) & !group != 0 {
                // BRA.CONV (sm_75): taken only while every live lane of the warp issues together.
                exec = 0;
            }
            // BRA.U.ANY (bit 84): the whole group branches when any of its lanes would.
            if inst.bit(84) && exec != 0 {
                exec = group;
            }
        }
        if self.opts.check_uninit {
            self.check_written(w, &inst, exec)?;
        }
        self.stats.thread_instructions += exec.count_ones() as u64;
        if exec != 0 {
            self.stats.opcodes_run.insert(inst.op);
        }
        for l in (0..WARP).filter(|&l| group >> l & 1 == 1) {
            w.pc[l] = pc + 16;
        }
        self.execute(w, &inst, exec)?;
        if matches!(inst.op, Op::Bra | Op::Call) && exec != 0 && exec != group {
            // A divergent branch: the lanes that took it form a new group.
            let id = w.next_group;
            w.next_group += 1;
            (0..WARP)
                .filter(|&l| exec >> l & 1 == 1)
                .for_each(|l| w.group[l] = id);
        }
        Ok(true)
    }

    fn execute(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        let lanes = (0..WARP).filter(|&l| exec >> l & 1 == 1);
        match i.op {
            // Grid dependency control (griddepcontrol.wait / .launch_dependents): one grid runs at a time.
            // MEMBAR: every access completes at once here, so fences order nothing more.
            // PMTRIG: performance-monitor events have no effect on a program's state.
            Op::Nop | Op::Pmtrig | Op::Acqbulk | Op::Preexit | Op::Membar | Op::Yield => {}
            Op::Bra => {
                let target = branch_target(self.k.sm, i);
                for l in lanes {
                    w.pc[l] = target;
                }
            }
            // CALL.REL.NOINC branches (the caller put the return address in a register first).
            Op::Call => {
                let target = branch_target(self.k.sm, i);
                lanes.for_each(|l| w.pc[l] = target);
            }
            Op::CallAbs => self.call_abs(w, i, exec)?,
            Op::Lepc => self.lepc(w, i, exec),
            Op::Ret => {
                let base = branch_target(self.k.sm, i);
                for l in lanes {
                    w.pc[l] = base.wrapping_add(w.reg(i.f(24, 8) as u8, l));
                }
            }
            Op::Exit => lanes.for_each(|l| w.lane[l] = Lane::Exited),
            Op::Bpt => {
                return Err(EmuError::Trap {
                    pc: i.pc,
                    cta: self.cta,
                })
            }
            Op::Bar => {
                if i.f(77, 2) == 2 {
                    // BAR.RED: remember the predicates of the arriving lanes.
                    let p = i.pred(87);
                    let votes = lanes
                        .clone()
                        .filter(|&l| w.pred(p, l))
                        .fold(0u32, |m, l| m | 1 << l);
                    let (_, arrived, old) = w.bar_red.unwrap_or((0, 0, 0));
                    w.bar_red = Some((i.f(74, 2), arrived | exec, old | votes));
                }
                lanes.for_each(|l| w.lane[l] = Lane::AtBarrier)
            }
            Op::B2r => {
                for l in lanes {
                    w.set_reg(i.dst(), l, w.b2r);
                    w.set_pred(i.f(81, 3) as u8, l, w.b2r != 0);
                }
            }
            // NANOSLEEP only delays; error barriers and L1 invalidation order nothing more here.
            Op::Nanosleep | Op::Errbar | Op::Cgaerrbar | Op::Cctl => {}
            Op::Bssy => w.bar[i.f(16, 4) as usize] = exec,
            Op::Break => w.bar[i.f(16, 4) as usize] &= !exec,
            // BMOV.32 Bn, Rb: the barrier's mask from the register (the same in every lane that
            // saved it); BMOV.32[.CLEAR] Rd, Bn: the mask into Rd, the barrier cleared.
            Op::Bmov if i.f(0, 12) == 0x356 => {
                if let Some(l) = lanes.clone().next() {
                    w.bar[i.f(16, 4) as usize] = w.reg(i.f(32, 8) as u8, l);
                }
            }
            Op::Bmov => {
                let b = i.f(24, 4) as usize;
                let mask = w.bar[b];
                for l in lanes {
                    w.set_reg(i.dst(), l, mask);
                }
                if exec != 0 && i.bit(84) {
                    w.bar[b] = 0;
                }
            }
            Op::Bsync => {
                let b = i.f(16, 4) as u8;
                lanes.for_each(|l| w.lane[l] = Lane::AtBsync(b));
            }
            Op::Warpsync => {
                if i.f(9, 3) == 1 {
                    // WARPSYNC Rb (0x348): each lane waits for the lanes of its own mask.
                    if i.bit(86) || i.f(16, 8) != 0 {
                        return Err(unsupported(i, "WARPSYNC.EXCLUSIVE or .COLLECTIVE".into()));
                    }
                    let Operand::R(mask) = i.b else {
                        return Err(unsupported(i, "WARPSYNC without its mask register".into()));
                    };
                    for l in lanes {
                        w.lane[l] = Lane::AtWarpsync(w.reg(mask, l));
                    }
                } else {
                    let m = match (i.b, i.f(32, 32)) {
                        (Operand::Imm(all), _) => all,
                        (_, 0) => u32::MAX,
                        (_, m) => m,
                    };
                    lanes.for_each(|l| w.lane[l] = Lane::AtWarpsync(m));
                }
            }
            Op::Vote | Op::Voteu => self.vote(w, i, exec)?,
            Op::Redux => self.redux(w, i, exec)?,
            Op::Match => warp_match::match_lanes(w, i, exec, self.k.sm)?,
            Op::Qspc => qspc::qspc(w, i, exec)?,
            Op::Shfl => shfl(w, i, exec)?,
            Op::Ldsm => self.ldsm(w, i, exec)?,
            Op::Stsm => self.stsm(w, i, exec)?,
            Op::Movm => matrix_move::movm(w, i, exec)?,
            Op::Hmma884 => matrix_move::hmma884(w, i, exec)?,
            Op::Hmma | Op::Qmma | Op::Imma if sparse_form(i).is_some() => {
                let f = sparse_form(i)
                    .and_then(Result::ok)
                    .ok_or_else(|| unsupported(i, "sparse tensor-op form".into()))?;
                mma_sparse::run(w, i, exec, &f)?
            }
            Op::Imma | Op::Bmma | Op::Dmma => imma::matrix(w, i, exec)?,
            Op::Hmma | Op::Qmma => mma(w, i, exec)?,
            Op::Hgmma | Op::Igmma | Op::Qgmma => self.gmma(w, i, exec)?,
            Op::Warpgroup => {}
            Op::Ldgdepbar | Op::Depbar => {}
            // FENCE.VIEW.ASYNC: every access completes at once here, so it orders nothing more.
            // YIELD only lets other warps run, which the round-robin schedule does anyway.
            Op::FenceViewAsync => {}
            Op::Elect => self.elect(w, i, exec)?,
            Op::SyncsExch | Op::SyncsArrive | Op::SyncsPhasechk | Op::SyncsCctl => {
                self.syncs(w, i, exec)?
            }
            Op::Arrives => self.arrives(w, i, exec)?,
            // Clusters of one CTA (`cluster_decode.rs`): the wait is the CTA's barrier.
            Op::Ucgabar if crate::decode::is_barrier_wait(i) => {
                lanes.for_each(|l| w.lane[l] = Lane::AtBarrier)
            }
            Op::Ucgabar | Op::Utmacctl | Op::Utmacmdflush => {}
            Op::Utmaldg | Op::Utmastg | Op::Utmapf | Op::Ublkcp | Op::Ublkpf => {
                self.tma(w, i, exec)?
            }
            Op::Usetmaxreg => {
                if exec != 0 && i.f(81, 3) != 7 {
                    w.up[i.f(81, 3) as usize] = true;
                }
            }
            Op::S2ur => {
                if exec != 0 {
                    let v = self.special(i, w, exec.trailing_zeros() as usize)?;
                    set_ureg(w, i.f(16, 6) as u8, v);
                }
            }
            Op::Uldc => {
                if exec != 0 {
                    let Operand::Cb { bank, off } = i.b else {
                        unreachable!("ULDC has a cbuf operand")
                    };
                    let words = mem_words(i.f(73, 3));
                    for k in 0..words {
                        let v = self.cload_typed(
                            i,
                            bank,
                            off as u64 + 4 * k as u64,
                            w,
                            exec.trailing_zeros() as usize,
                        )?;
                        set_ureg(w, i.f(16, 6) as u8 + k, v);
                    }
                }
            }
            // The lowest executing lane's value (ptxas moves only warp-uniform values).
            Op::R2ur => {
                if exec != 0 {
                    let a = i.f(24, 8) as u8;
                    let v = w.reg(a, exec.trailing_zeros() as usize);
                    set_ureg(w, i.f(16, 6) as u8, v);
                    let pd = i.f(81, 3) as u8;
                    if pd != PT {
                        for l in lanes {
                            let differs = w.reg(i.f(24, 8) as u8, l) != v;
                            let or = i.bit(84)
                                && w.pred(
                                    PredSrc {
                                        idx: pd,
                                        neg: false,
                                        uniform: false,
                                    },
                                    l,
                                );
                            w.set_pred(pd, l, differs || or);
                        }
                    }
                }
            }
            op if op.is_uniform() => {
                if exec != 0 {
                    let out = exec_alu(
                        i,
                        &UniformView {
                            w,
                            banks: self.banks(),
                        },
                    )
                    .map_err(|what| unsupported(i, what))?;
                    write_uniform(w, i, out);
                }
            }
            _ => {
                for l in lanes {
                    self.execute_lane(w, i, l)?;
                }
            }
        }
        Ok(())
    }

    fn execute_lane(&mut self, w: &mut Warp, i: &Inst, l: usize) -> Result<(), EmuError> {
        let d = i.dst();
        match i.op {
            Op::S2r => {
                let v = self.special(i, w, l)?;
                w.set_reg(d, l, v);
            }
            Op::Ldc => {
                let Operand::Cb { bank, off } = i.b else {
                    unreachable!("LDC has a cbuf operand")
                };
                let base = off as u64 + w.reg(i.f(24, 8) as u8, l) as u64;
                for k in 0..mem_words(i.f(73, 3)) {
                    let v = self.cload_typed(i, bank, base + 4 * k as u64, w, l)?;
                    w.set_reg(d.saturating_add(k), l, v);
                }
            }
            Op::Ldgsts => self.ldgsts(w, i, l)?,
            // CS2R of the clocks and timers (SRZ goes through the ALU).
            Op::Cs2r if i.f(72, 8) != 0xff => {
                let facts = self.thread_facts(w.tid[l]);
                for k in 0..if i.bit(80) { 2 } else { 1 } {
                    let v = crate::special_regs::value(i.f(72, 8) + k, &facts)
                        .ok_or_else(|| unsupported(i, "CS2R register".into()))?;
                    w.set_reg(d.saturating_add(k as u8), l, v);
                }
            }
            Op::Ldg | Op::Ld | Op::Lds | Op::Ldl => {
                let (space, addr) = self.address(i, w, l);
                let ty = i.f(73, 3);
                let bytes = access_bytes(ty);
                let raw = self.load(space, addr, bytes, i, w, l)?;
                for k in 0..mem_words(ty) {
                    let v = match ty {
                        1 => raw[0] as i8 as i32 as u32,
                        3 => i16::from_le_bytes([raw[0], raw[1]]) as i32 as u32,
                        _ => {
                            let s = 4 * k as usize;
                            let mut b = [0u8; 4];
                            let n = bytes.min(4);
                            b[..n].copy_from_slice(&raw[s..s + n]);
                            u32::from_le_bytes(b)
                        }
                    };
                    w.set_reg(d.saturating_add(k), l, v);
                }
            }
            Op::Atoms | Op::Atomg | Op::Red | Op::Atom => {
                let ty = crate::decode::atomic_operand(self.k.sm, i)
                    .ok_or_else(|| unsupported(i, "atomic type".into()))?;
                let n = ty.bytes as usize;
                let (space, addr) = self.address(i, w, l);
                // A generic float add works on global memory only; its predicate says whether
                // it did (ptxas's code then loops on shared memory itself).
                if i.op == Op::Atom && ty.float {
                    w.set_pred(i.f(81, 3) as u8, l, space == "global");
                    if space != "global" {
                        return Ok(());
                    }
                }
                let bytes = self.load(space, addr, n, i, w, l)?;
                let old = bytes.iter().rev().fold(0u64, |acc, &b| acc << 8 | b as u64);
                let v = lane_value(w, l, i.f(32, 8) as u8, n);
                // ATOMS.CAST.SPIN (CAS with 3 at 87..88): stores as CAS, returns 1 when it stored.
                let spin = i.op == Op::Atoms && crate::decode::is_cas(i) && i.f(87, 2) == 3;
                let new = if crate::decode::is_cas(i) {
                    let swap = lane_value(w, l, i.f(64, 8) as u8, n);
                    if old == v {
                        swap
                    } else {
                        old
                    }
                } else {
                    crate::atomic_ops::atomic(i, ty, old, v).map_err(|what| unsupported(i, what))?
                };
                self.store(space, addr, &new.to_le_bytes()[..n], i, w, l)?;
                let old = if spin { (old == v) as u64 } else { old };
                if i.op != Op::Red {
                    w.set_reg(d, l, old as u32);
                    if n == 8 && d != RZ {
                        w.set_reg(d.saturating_add(1), l, (old >> 32) as u32);
                    }
                }
            }
            Op::Stg | Op::St | Op::Sts | Op::Stl => {
                let (space, addr) = self.address(i, w, l);
                let ty = i.f(73, 3);
                let bytes = access_bytes(ty);
                let src = i.f(32, 8) as u8;
                let mut data = Vec::with_capacity(16);
                for k in 0..mem_words(ty) {
                    let r = if src == RZ { RZ } else { src.saturating_add(k) };
                    data.extend_from_slice(&w.reg(r, l).to_le_bytes());
                }
                data.truncate(bytes);
                self.store(space, addr, &data, i, w, l)?;
            }
            _ => {
                let out = exec_alu(
                    i,
                    &LaneView {
                        w,
                        lane: l,
                        banks: self.banks(),
                    },
                )
                .map_err(|what| unsupported(i, what))?;
                write_lane(w, i, l, out);
            }
        }
        Ok(())
    }

    fn check_written(&self, w: &Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        // `STL [R1+x], Rn`: a subroutine saving a register it restores before returning, which
        // its caller may never have written.
        let save = i.op == Op::Stl && i.a == Operand::R(1);
        for r in i
            .reads
            .iter()
            .filter(|r| r.file == crate::decode::File::R && !(save && r.idx != 1))
        {
            for k in 0..r.n {
                let idx = r.idx.saturating_add(k);
                let missing = exec & !w.written[idx as usize];
                if idx != RZ && missing != 0 {
                    let lane = missing.trailing_zeros() as usize;
                    return Err(EmuError::Uninitialized {
                        pc: i.pc,
                        reg: format!("R{idx}"),
                        thread: w.tid[lane],
                        cta: self.cta,
                    });
                }
            }
        }
        Ok(())
    }

    /// VOTE (ballot into a register, ALL/ANY into a predicate) and VOTEU (ballot into a UR).
    fn vote(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        let p = PredSrc {
            uniform: false,
            ..i.pred(87)
        };
        let ballot = (0..WARP)
            .filter(|&l| exec >> l & 1 == 1 && w.pred(p, l))
            .fold(0u32, |m, l| m | 1 << l);
        let result = match i.f(72, 2) {
            0 => ballot == exec,
            1 => ballot != 0,
            2 => ballot == exec || ballot == 0,
            _ => return Err(unsupported(i, "VOTE mode".into())),
        };
        if exec == 0 {
            return Ok(());
        }
        if i.op == Op::Voteu {
            set_ureg(w, i.f(16, 6) as u8, ballot);
            let pd = i.f(81, 3) as usize;
            if pd != PT as usize {
                w.up[pd] = result;
            }
            return Ok(());
        }
        for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
            w.set_reg(i.dst(), l, ballot);
            w.set_pred(i.f(81, 3) as u8, l, result);
        }
        Ok(())
    }

    /// REDUX: reduces a register over the executing lanes into a uniform register.
    fn redux(&mut self, w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
        if exec == 0 {
            return Ok(());
        }
        let signed = i.bit(73);
        let vals = (0..WARP)
            .filter(|&l| exec >> l & 1 == 1)
            .map(|l| w.reg(i.f(24, 8) as u8, l));
        let r = match i.f(78, 3) {
            0 => vals.fold(u32::MAX, |a, v| a & v),
            1 => vals.fold(0, |a, v| a | v),
            2 => vals.fold(0, |a, v| a ^ v),
            3 => vals.fold(0u32, |a, v| a.wrapping_add(v)),
            4 if signed => vals.map(|v| v as i32).min().unwrap_or(0) as u32,
            4 => vals.min().unwrap_or(0),
            5 if signed => vals.map(|v| v as i32).max().unwrap_or(0) as u32,
            5 => vals.max().unwrap_or(0),
            _ => return Err(unsupported(i, "REDUX operation".into())),
        };
        set_ureg(w, i.f(16, 6) as u8, r);
        Ok(())
    }

    /// What a special register read by thread `tid` depends on.
    fn thread_facts(&self, tid: [u32; 3]) -> crate::special_regs::ThreadFacts {
        let word = |n: usize| u32::from_le_bytes(self.cbank[n * 4..n * 4 + 4].try_into().unwrap());
        crate::special_regs::ThreadFacts {
            sm: self.k.sm,
            tid,
            block: [word(0), word(1), word(2)],
            shared_size: self.k.shared_size,
            issued: self.stats.warp_instructions,
        }
    }

    fn special(&self, i: &Inst, w: &Warp, l: usize) -> Result<u32, EmuError> {
        let t = w.tid[l];
        Ok(match i.f(72, 8) {
            0x00 => l as u32,
            0x38 => 1u32 << l,
            0x39 => (1u32 << l) - 1,
            0x3a => ((1u64 << (l + 1)) - 1) as u32,
            0x3b => !(((1u64 << (l + 1)) - 1) as u32),
            0x3c => !((1u32 << l) - 1),
            0x21 => t[0],
            0x22 => t[1],
            0x23 => t[2],
            0x25 => self.cta[0],
            0x26 => self.cta[1],
            0x27 => self.cta[2],
            0x88 => 0,
            0x2f => (SHARED_WINDOW >> 32) as u32,
            sr => crate::special_regs::value(sr, &self.thread_facts(t))
                .ok_or_else(|| unsupported(i, format!("special register {sr:#x}")))?,
        })
    }

    /// A constant load of the type at 73..75: bytes and halves (U8, S8, U16, S16) extended to 32
    /// bits, at their own alignment; wider types one word at a time.
    fn cload_typed(
        &self,
        i: &Inst,
        bank: u8,
        off: u64,
        w: &Warp,
        l: usize,
    ) -> Result<u32, EmuError> {
        let ty = i.f(73, 3);
        if ty >= 4 {
            return self.cload(i, bank, off, w, l);
        }
        let bytes = if ty < 2 { 1 } else { 2 };
        if bank != 0 {
            return Err(unsupported(i, format!("constant bank {bank}")));
        }
        if off % bytes != 0 {
            return Err(EmuError::Misaligned {
                space: "constant",
                addr: off,
                pc: i.pc,
                thread: w.tid[l],
                cta: self.cta,
            });
        }
        let v = cbank_read(&self.cbank, off, bytes as usize).ok_or(EmuError::OutOfBounds {
            space: "constant",
            addr: off,
            pc: i.pc,
            thread: w.tid[l],
            cta: self.cta,
        })?;
        Ok(match ty {
            1 => v as u8 as i8 as i32 as u32,
            3 => v as u16 as i16 as i32 as u32,
            _ => v as u32,
        })
    }

    fn cload(&self, i: &Inst, bank: u8, off: u64, w: &Warp, l: usize) -> Result<u32, EmuError> {
        let data: &[u8] = match bank {
            0 => &self.cbank,
            2 => &self.k.cbank2,
            3 => &self.k.cbank3,
            4 => &self.k.cbank4,
            _ => return Err(unsupported(i, format!("constant bank {bank}"))),
        };
        if off % 4 != 0 {
            return Err(EmuError::Misaligned {
                space: "constant",
                addr: off,
                pc: i.pc,
                thread: w.tid[l],
                cta: self.cta,
            });
        }
        cbank_read(data, off, 4)
            .map(|v| v as u32)
            .ok_or(EmuError::OutOfBounds {
                space: "constant",
                addr: off,
                pc: i.pc,
                thread: w.tid[l],
                cta: self.cta,
            })
    }

    /// The space and byte address of a memory op for lane `l`.
    fn address(&self, i: &Inst, w: &Warp, l: usize) -> (&'static str, u64) {
        let a = i.f(24, 8) as u8;
        let off = sext(field(i.w, 40, 24), 24);
        if matches!(i.op, Op::Ldl | Op::Stl) {
            let ur = match (i.op, i.c) {
                (Op::Ldl, Operand::Ur(u)) if u < URZ => w.ureg(u) as u64,
                _ => 0,
            };
            let addr = (w.reg(a, l) as u64)
                .wrapping_add(ur)
                .wrapping_add(off as u64)
                & 0xffff_ffff;
            return ("local", addr);
        }
        // Generic LD/ST run on global addresses only (a shared-window address is out of bounds).
        if matches!(
            i.op,
            Op::Ldg | Op::Stg | Op::Ld | Op::St | Op::Atomg | Op::Red | Op::Atom
        ) {
            let wide = crate::decode::wide_address(i);
            let base = if wide && a != RZ {
                w.reg(a, l) as u64 | (w.reg(a + 1, l) as u64) << 32
            } else {
                w.reg(a, l) as u64
            };
            // On sm_75 the UR of the 0x98x forms is a 64-bit address the register (64-bit, or
            // 32-bit with `.U32`: `[R4.U32+UR4]`) is added to (elsewhere a descriptor).
            let ur = match i.c {
                Operand::Ur(u) if u < URZ => w.ureg(u) as u64 | (w.ureg(u + 1) as u64) << 32,
                _ => 0,
            };
            let addr = base.wrapping_add(ur).wrapping_add(off as u64);
            // A generic address in the local window reaches the lane's own local memory, one in
            // the shared window the CTA's shared memory.
            if matches!(i.op, Op::Ld | Op::St | Op::Atom) {
                if (LOCAL_WINDOW..LOCAL_WINDOW + (1 << 32)).contains(&addr) {
                    return ("local", addr - LOCAL_WINDOW);
                }
                if (SHARED_WINDOW..SHARED_WINDOW + (1 << 32)).contains(&addr) {
                    return ("shared", addr - SHARED_WINDOW);
                }
                if i.op == Op::Ld && (PARAM_WINDOW..PARAM_WINDOW + (1 << 32)).contains(&addr) {
                    return ("param", addr - PARAM_WINDOW);
                }
            }
            return ("global", addr);
        }
        // ATOMS scales its register address like LDS/STS (`[R2.X4]`) in its 0x38c and CAS (0x38d)
        // forms and in ATOMS.ARRIVE.64 (0xf8c, 88..90 = 4: `[R10.X8+URZ+0x8]`) only.
        let arrive = i.f(0, 12) == 0xf8c && i.f(88, 3) == 4;
        let scale = if i.op == Op::Atoms && !matches!(i.f(0, 12), 0x38c | 0x38d) && !arrive {
            1
        } else {
            [1u64, 4, 8, 16][i.f(78, 2) as usize]
        };
        let ur = match i.c {
            Operand::Ur(u) => w.ureg(u) as u64,
            _ => 0,
        };
        (
            "shared",
            (w.reg(a, l) as u64 * scale)
                .wrapping_add(ur)
                .wrapping_add(off as u64)
                & 0xffff_ffff,
        )
    }

    fn oob(&self, space: &'static str, addr: u64, i: &Inst, w: &Warp, l: usize) -> EmuError {
        EmuError::OutOfBounds {
            space,
            addr,
            pc: i.pc,
            thread: w.tid[l],
            cta: self.cta,
        }
    }

    fn check_align(
        &self,
        space: &'static str,
        addr: u64,
        bytes: usize,
        i: &Inst,
        w: &Warp,
        l: usize,
    ) -> Result<(), EmuError> {
        if addr % bytes as u64 != 0 {
            return Err(EmuError::Misaligned {
                space,
                addr,
                pc: i.pc,
                thread: w.tid[l],
                cta: self.cta,
            });
        }
        Ok(())
    }

    fn load(
        &mut self,
        space: &'static str,
        addr: u64,
        bytes: usize,
        i: &Inst,
        w: &Warp,
        l: usize,
    ) -> Result<[u8; 16], EmuError> {
        self.check_align(space, addr, bytes, i, w, l)?;
        let mut out = [0u8; 16];
        let src = if space == "shared" {
            self.shared.get(addr as usize..addr as usize + bytes)
        } else if space == "param" {
            let at = self.k.param_offset as usize + addr as usize;
            self.cbank.get(at..at + bytes)
        } else if space == "local" {
            w.local_range(l, addr, bytes).map(|r| &w.local[r])
        } else {
            match find_buffer(self.buffers, addr, bytes) {
                Some((b, o)) => Some(&self.buffers[b].bytes[o..o + bytes]),
                None => find_buffer(&self.vars, addr, bytes)
                    .map(|(b, o)| &self.vars[b].bytes[o..o + bytes]),
            }
        };
        let src = src.ok_or_else(|| self.oob(space, addr, i, w, l))?;
        out[..bytes].copy_from_slice(src);
        Ok(out)
    }

    fn store(
        &mut self,
        space: &'static str,
        addr: u64,
        data: &[u8],
        i: &Inst,
        w: &mut Warp,
        l: usize,
    ) -> Result<(), EmuError> {
        self.check_align(space, addr, data.len(), i, w, l)?;
        let n = data.len();
        let dst = if space == "shared" {
            self.shared.get_mut(addr as usize..addr as usize + n)
        } else if space == "local" {
            match w.local_range(l, addr, n) {
                Some(r) => Some(&mut w.local[r]),
                None => None,
            }
        } else {
            match find_buffer(self.buffers, addr, n) {
                Some((b, o)) => Some(&mut self.buffers[b].bytes[o..o + n]),
                None => {
                    find_buffer(&self.vars, addr, n).map(|(b, o)| &mut self.vars[b].bytes[o..o + n])
                }
            }
        };
        match dst {
            Some(d) => {
                d.copy_from_slice(data);
                Ok(())
            }
            None => Err(EmuError::OutOfBounds {
                space,
                addr,
                pc: i.pc,
                thread: w.tid[l],
                cta: self.cta,
            }),
        }
    }
}

/// A warp collective (SHFL, REDUX, VOTE other than the active-mask form) must issue for every lane
/// that reaches it: lanes ready at the same instruction in another group mean the warp is split
/// (nothing reconverged it after a divergent branch), which the hardware does not repair.
fn check_converged(
    w: &Warp,
    i: &Inst,
    ready: u32,
    group: u32,
    cta: [u32; 3],
) -> Result<(), EmuError> {
    let collective = match i.op {
        Op::Shfl | Op::Redux | Op::Elect | Op::Imma | Op::Bmma | Op::Dmma => true,
        Op::Movm | Op::Stsm | Op::Hmma884 => true,
        Op::Vote => i.f(87, 4) != PT as u32,
        _ => false,
    };
    let split = (0..WARP)
        .filter(|&l| ready >> l & 1 == 1 && group >> l & 1 == 0 && w.pc[l] == i.pc)
        .fold(0u32, |m, l| m | 1 << l);
    if collective && split != 0 {
        return Err(EmuError::Diverged {
            pc: i.pc,
            issuing: group,
            split,
            cta,
        });
    }
    Ok(())
}

/// Completes a BAR.RED when the barrier releases: POPC counts the true predicates of the CTA, AND
/// and OR combine them; every warp's B2R.RESULT then reads the value.
fn complete_bar_red(warps: &mut [Warp]) {
    let reds: Vec<(u32, u32, u32)> = warps.iter().filter_map(|w| w.bar_red).collect();
    let Some(&(op, _, _)) = reds.first() else {
        return;
    };
    let popc: u32 = reds.iter().map(|r| r.2.count_ones()).sum();
    let value = match op {
        0 => popc,
        1 => reds.iter().all(|r| r.1 == r.2) as u32,
        _ => (popc != 0) as u32,
    };
    for w in warps.iter_mut() {
        w.bar_red = None;
        w.b2r = value;
    }
}

/// SHFL: every executing lane reads lane j's A value (computed as PTX's shfl.sync specifies from
/// the lane operand B and the clamp/segment operand C); out of range keeps its own value.
fn shfl(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    let mode = i.f(58, 2);
    let src: Vec<u32> = (0..WARP).map(|l| w.reg(i.f(24, 8) as u8, l)).collect();
    for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
        let view = LaneView {
            w,
            lane: l,
            banks: Banks::NONE,
        };
        let (b, c) = (view.val(i.b) & 0x1f, view.val(i.c));
        let (clamp, seg) = (c & 0x1f, (c >> 8) & 0x1f);
        let lane = l as i32;
        let max_lane = ((l as u32 & seg) | (clamp & !seg)) as i32;
        let min_lane = (l as u32 & seg) as i32;
        let (j, ok) = match mode {
            0 => {
                let j = min_lane | (b & !seg) as i32;
                (j, j <= max_lane)
            }
            1 => (lane - b as i32, lane - b as i32 >= max_lane),
            2 => (lane + b as i32, lane + b as i32 <= max_lane),
            _ => (lane ^ b as i32, (lane ^ b as i32) <= max_lane),
        };
        let j = if ok && (0..WARP as i32).contains(&j) {
            j as usize
        } else {
            l
        };
        if exec >> j & 1 == 0 {
            return Err(unsupported(i, format!("SHFL from inactive lane {j}")));
        }
        w.set_reg(i.dst(), l, src[j]);
        w.set_pred(i.f(81, 3) as u8, l, ok);
    }
    Ok(())
}

/// A 32- or 64-bit value (`bytes` 4 or 8) from register `r` (and `r + 1`) of lane `l`.
fn lane_value(w: &Warp, l: usize, r: u8, bytes: usize) -> u64 {
    let hi = if bytes == 8 && r != RZ {
        w.reg(r.saturating_add(1), l) as u64
    } else {
        0
    };
    w.reg(r, l) as u64 | hi << 32
}

fn find_buffer(buffers: &[Buffer], addr: u64, bytes: usize) -> Option<(usize, usize)> {
    buffers.iter().enumerate().find_map(|(n, b)| {
        let off = addr.checked_sub(b.addr)?;
        (off.checked_add(bytes as u64)? <= b.bytes.len() as u64).then_some((n, off as usize))
    })
}

fn unsupported(i: &Inst, what: String) -> EmuError {
    EmuError::Unsupported {
        pc: i.pc,
        opcode: i.f(0, 12),
        what: format!("{}: {what}", i.op.name()),
    }
}

/// Absolute byte address of a BRA's target: signed word offset from the next instruction, split
/// on sm_90 (low 8 bits in 16..23, the rest in 34..81).
pub fn branch_target(sm: u32, i: &Inst) -> u32 {
    let high = sext(field(i.w, 34, 48), 48);
    let words = if sm >= 90 {
        high << 8 | field(i.w, 16, 8) as i64
    } else {
        high
    };
    (i.pc as i64 + 16 + words * 4) as u32
}

fn set_ureg(w: &mut Warp, idx: u8, v: u32) {
    if idx < URZ {
        w.ur[idx as usize] = v;
    }
}

fn write_lane(w: &mut Warp, i: &Inst, l: usize, out: AluOut) {
    let d = i.dst();
    if d != RZ {
        for (k, v) in out.r.iter().enumerate() {
            if let Some(v) = v {
                w.set_reg(d.saturating_add(k as u8), l, *v);
            }
        }
    }
    if let Some(v) = out.p[0] {
        w.set_pred(i.f(81, 3) as u8, l, v);
    }
    if let Some(v) = out.p[1] {
        w.set_pred(i.f(84, 3) as u8, l, v);
    }
}

fn write_uniform(w: &mut Warp, i: &Inst, out: AluOut) {
    let d = i.f(16, 6) as u8;
    for (k, v) in out.r.iter().enumerate() {
        if let Some(v) = v {
            if d < URZ {
                set_ureg(w, d + k as u8, *v);
            }
        }
    }
    for (n, pos) in [81, 84].into_iter().enumerate() {
        if let Some(v) = out.p[n] {
            let idx = i.f(pos, 3) as usize;
            if idx != PT as usize {
                w.up[idx] = v;
            }
        }
    }
}

/// Operand access for the uniform datapath.
struct UniformView<'a> {
    w: &'a Warp,
    banks: Banks<'a>,
}

impl Operands for UniformView<'_> {
    fn val(&self, o: Operand) -> u32 {
        match o {
            Operand::Ur(r) => self.w.ureg(r),
            Operand::Imm(v) => v,
            Operand::Cb { bank, off } => self.banks.read(bank, off, 4) as u32,
            _ => 0,
        }
    }

    fn val64(&self, o: Operand) -> u64 {
        match o {
            Operand::Ur(r) if r < URZ => {
                (self.w.ureg(r) as u64) | (self.w.ureg(r + 1) as u64) << 32
            }
            _ => self.val(o) as u64,
        }
    }

    fn pred(&self, p: PredSrc) -> bool {
        self.w.up[p.idx as usize & 7] != p.neg
    }
}

/// HMMA/QMMA over the whole warp (`crate::mma`): every lane's A, B and C fragments in, D out.
fn mma(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    if exec != u32::MAX {
        return Err(unsupported(i, "tensor op with a partial warp".into()));
    }
    let f = crate::mma::Form::decode(i.w, i.op == Op::Qmma).map_err(|e| unsupported(i, e))?;
    let frag = |w: &Warp, base: u32, n: usize| -> Vec<Vec<u32>> {
        (0..WARP)
            .map(|l| {
                if base as u8 == RZ {
                    vec![0; n]
                } else {
                    (0..n).map(|k| w.reg(base as u8 + k as u8, l)).collect()
                }
            })
            .collect()
    };
    let a = frag(w, i.f(24, 8), f.a_regs());
    let b = frag(w, i.f(32, 8), f.b_regs());
    let c = frag(w, i.f(64, 8), f.acc_regs());
    let d = crate::mma::multiply(&f, &a, &b, &c);
    let base = i.f(16, 8) as u8;
    for (l, regs) in d.iter().enumerate() {
        for (k, v) in regs.iter().enumerate() {
            w.set_reg(base.saturating_add(k as u8), l, *v);
        }
    }
    Ok(())
}
