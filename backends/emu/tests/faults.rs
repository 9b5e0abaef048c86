//! Planted faults in ptxforge's cubins: each one must be caught, as a hazard at the right
//! instruction, as a wrong result against the test's reference, or as an emulation error.

mod common;

use common::cases::CASES;
use common::*;
use ptxforge_emu::decode::{decode, File, Inst, Op, Timing};
use ptxforge_emu::opcodes::Queue;
use ptxforge_emu::{run_kernel, EmuError, EmuOptions, HazardKind};

/// A cubin with its kernel's code located, so words can be rewritten in place.
struct Patchable {
    cubin: Vec<u8>,
    code_at: usize,
    sm: u32,
    insts: Vec<Inst>,
}

impl Patchable {
    fn new(file: &str, kernel: &str, sm: u32) -> Patchable {
        let cubin =
            our_cubin(file, sm).unwrap_or_else(|e| panic!("ptxforge cannot compile {file}: {e}"));
        let code = ptxforge_emu::cubin::load_kernel(&cubin, kernel)
            .expect("kernel")
            .code;
        let code_at = cubin
            .windows(code.len())
            .position(|w| w == code)
            .expect("code inside the cubin");
        let insts = code
            .chunks(16)
            .enumerate()
            .map(|(n, w)| {
                decode(
                    sm,
                    n as u32 * 16,
                    u128::from_le_bytes(w.try_into().unwrap()),
                )
                .expect("decodes")
            })
            .collect();
        Patchable {
            cubin,
            code_at,
            sm,
            insts,
        }
    }

    fn word(&self, n: usize) -> u128 {
        let at = self.code_at + 16 * n;
        u128::from_le_bytes(self.cubin[at..at + 16].try_into().unwrap())
    }

    /// Sets `width` bits at `pos` of instruction `n`.
    fn patch(&mut self, n: usize, pos: u32, width: u32, v: u128) {
        let mask = ((1u128 << width) - 1) << pos;
        let w = (self.word(n) & !mask) | ((v << pos) & mask);
        let at = self.code_at + 16 * n;
        self.cubin[at..at + 16].copy_from_slice(&w.to_le_bytes());
        self.insts[n] = decode(self.sm, n as u32 * 16, w).expect("patched word decodes");
    }
}

fn case(kernel: &str) -> &'static Case {
    CASES.iter().find(|c| c.kernel == kernel).expect("case")
}

/// Runs a case on a (patched) cubin: Ok(true) = results as expected.
fn run(c: &Case, cubin: &[u8]) -> Result<bool, EmuError> {
    let mut s = (c.setup)(&mut Rng::new(7));
    run_kernel(
        cubin,
        c.kernel,
        &s.launch,
        &s.params,
        &mut s.buffers,
        &EmuOptions {
            max_steps: 200_000,
            ..Default::default()
        },
    )?;
    Ok(compare(&s.buffers, &s).is_ok())
}

/// Whether the run reaches instruction `j`: turning it into the kernel's own unguarded EXIT
/// changes the results.
fn reached(c: &Case, p: &Patchable, j: usize) -> bool {
    let exit = (0..p.insts.len())
        .find(|&n| p.insts[n].op == Op::Exit && p.insts[n].guard.idx == 7 && !p.insts[n].guard.neg)
        .expect("an unguarded EXIT");
    let mut cubin = p.cubin.clone();
    let at = p.code_at + 16 * j;
    cubin[at..at + 16].copy_from_slice(&p.word(exit).to_le_bytes());
    !matches!(run(c, &cubin), Ok(true))
}

fn reads_reg(i: &Inst, file: File, idx: u8) -> bool {
    i.reads
        .iter()
        .any(|r| r.file == file && (r.idx..r.idx + r.n).contains(&idx))
}

/// The first consumer (index) after `k` that reads a register `k` writes, in straight-line code.
fn first_consumer(insts: &[Inst], k: usize) -> Option<(usize, File, u8)> {
    for (j, c) in insts.iter().enumerate().skip(k + 1) {
        if let Some((f, r)) = insts[k]
            .writes
            .iter()
            .flat_map(|w| (0..w.n).map(move |d| (w.file, w.idx + d)))
            .find(|&(f, r)| reads_reg(c, f, r))
        {
            return Some((j, f, r));
        }
        if matches!(c.op, Op::Bra | Op::Exit | Op::Bar) {
            return None;
        }
    }
    None
}

#[test]
fn removed_scoreboard_wait_is_a_hazard_at_the_consumer() {
    let mut checked = 0;
    for sm in [80, 90] {
        for c in CASES
            .iter()
            .filter(|c| c.kernel != "empty" && our_cubin(c.file, sm).is_ok())
        {
            let mut p = Patchable::new(c.file, c.kernel, sm);
            assert_eq!(
                run(c, &p.cubin).map(|_| ()),
                Ok(()),
                "{} sm_{sm} unpatched",
                c.kernel
            );
            // The first scoreboarded load (LDG/LDS/S2R/LDC) and its first consumer.
            let found = (0..p.insts.len()).find_map(|k| {
                let sb = p.insts[k]
                    .ctrl
                    .wr_sb
                    .filter(|_| matches!(p.insts[k].op.timing(), Timing::Var { .. }))?;
                let (j, _, _) = first_consumer(&p.insts, k)?;
                (p.insts[j].ctrl.wait & (1 << sb) != 0).then_some((j, sb))
            });
            let Some((j, sb)) = found else { continue };
            let wait = p.insts[j].ctrl.wait & !(1 << sb);
            p.patch(j, 116, 6, wait as u128);
            match run(c, &p.cubin) {
                Err(EmuError::Hazard {
                    pc,
                    kind: HazardKind::MissingWait,
                    ..
                }) => assert_eq!(pc, 16 * j as u32, "{} sm_{sm}", c.kernel),
                other => panic!(
                    "{} sm_{sm}: removing SB{sb} from the wait of /*{:04x}*/ gave {other:?}",
                    c.kernel,
                    16 * j
                ),
            }
            checked += 1;
        }
    }
    println!("{checked} kernels checked");
    assert!(
        checked >= 20,
        "only {checked} kernels had a scoreboarded load with a consumer"
    );
}

#[test]
fn too_short_stall_is_a_hazard_at_the_consumer() {
    let mut checked = 0;
    for sm in [80, 90] {
        for c in CASES
            .iter()
            .filter(|c| c.kernel != "empty" && our_cubin(c.file, sm).is_ok())
        {
            let mut p = Patchable::new(c.file, c.kernel, sm);
            // A fixed-latency producer immediately followed by its consumer (no wait in between).
            let found = (0..p.insts.len().saturating_sub(1)).find(|&k| {
                matches!(
                    p.insts[k].op.timing(),
                    Timing::Alu | Timing::Fma | Timing::Uniform
                ) && !matches!(p.insts[k].op, Op::Uldc | Op::Umov)
                    && p.insts[k + 1].ctrl.wait == 0
                    && first_consumer(&p.insts, k).is_some_and(|(j, _, _)| j == k + 1)
            });
            let Some(k) = found else { continue };
            p.patch(k, 105, 4, 1);
            match run(c, &p.cubin) {
                Err(EmuError::Hazard {
                    pc,
                    kind: HazardKind::ReadTooEarly,
                    ..
                }) => assert_eq!(pc, 16 * (k as u32 + 1), "{} sm_{sm}", c.kernel),
                other => panic!(
                    "{} sm_{sm}: stall 1 on /*{:04x}*/ gave {other:?}",
                    c.kernel,
                    16 * k
                ),
            }
            checked += 1;
        }
    }
    println!("{checked} kernels checked");
    assert!(
        checked >= 20,
        "only {checked} kernels had an adjacent producer/consumer pair"
    );
}

#[test]
fn inverted_guard_predicate_gives_a_wrong_result_or_an_error() {
    for sm in [80, 90] {
        for kernel in ["vadd", "saxpy", "clamp_or_scale", "gather64", "grid_stride"] {
            let c = case(kernel);
            let mut p = Patchable::new(c.file, c.kernel, sm);
            let k = p
                .insts
                .iter()
                .position(|i| i.guard.idx != 7)
                .expect("a guarded instruction");
            p.patch(k, 15, 1, (!p.insts[k].guard.neg) as u128);
            let outcome = run(c, &p.cubin);
            assert!(
                !matches!(outcome, Ok(true)),
                "{kernel} sm_{sm}: inverting the guard of /*{:04x}*/ went unnoticed",
                16 * k
            );
        }
    }
}

#[test]
fn wrong_branch_target_gives_a_wrong_result_or_an_error() {
    let mut checked = 0;
    for sm in [80, 90] {
        // (block_reduce is left out: its last step, `if (t == 0) buf[0] += buf[1]`, gives the same
        // output when every thread runs it in lockstep, so retargeting that branch is benign.)
        for kernel in [
            "clamp_or_scale",
            "preds",
            "select_pred",
            "row_sum",
            "grid_stride",
        ] {
            let c = case(kernel);
            let base = Patchable::new(c.file, c.kernel, sm);
            // Every branch the run takes (a self-loop there hits the step limit), except the trailing
            // self-loop: retarget it to the next instruction.
            let taken = |k: usize| {
                let mut p = Patchable::new(c.file, c.kernel, sm);
                set_branch_offset(&mut p, k, -4);
                matches!(run(c, &p.cubin), Err(EmuError::StepLimit { .. }))
            };
            let branches: Vec<usize> = (0..base.insts.len())
                .filter(|&k| {
                    base.insts[k].op == Op::Bra && branch_offset_words(&base, k) != -4 && taken(k)
                })
                .collect();
            for k in branches {
                let mut p = Patchable::new(c.file, c.kernel, sm);
                set_branch_offset(&mut p, k, 0);
                let outcome = run(c, &p.cubin);
                assert!(
                    !matches!(outcome, Ok(true)),
                    "{kernel} sm_{sm}: branch /*{:04x}*/ to the next instruction went unnoticed",
                    16 * k
                );
                checked += 1;
            }
        }
    }
    println!("{checked} branches checked");
    assert!(checked >= 6, "only {checked} branches");
}

#[test]
fn branch_into_a_self_loop_hits_the_step_limit() {
    let c = case("row_sum");
    let mut p = Patchable::new(c.file, c.kernel, 80);
    let k = p
        .insts
        .iter()
        .position(|i| i.op == Op::Bra)
        .expect("a branch");
    set_branch_offset(&mut p, k, -4);
    p.patch(k, 12, 4, 7);
    assert!(matches!(run(c, &p.cubin), Err(EmuError::StepLimit { .. })));
}

fn branch_offset_words(p: &Patchable, k: usize) -> i64 {
    let w = p.word(k);
    let high = (((w >> 34) as u64 & ((1 << 48) - 1)) << 16) as i64 >> 16;
    if p.sm >= 90 {
        high << 8 | ((w >> 16) & 0xff) as i64
    } else {
        high
    }
}

fn set_branch_offset(p: &mut Patchable, k: usize, words: i64) {
    if p.sm >= 90 {
        p.patch(k, 16, 8, (words & 0xff) as u128);
        p.patch(k, 34, 48, (words >> 8) as u128);
    } else {
        p.patch(k, 34, 48, words as u128);
    }
}

#[test]
fn removed_bsync_in_ptxas_code_is_caught() {
    if ptxforge_sass::nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (set PTXFORGE_NV)");
        return;
    }
    let c = case("diverge");
    for sm in [80, 90] {
        let cubin = ptxas_cubin(c.file, sm).expect("ptxas");
        let code = ptxforge_emu::cubin::load_kernel(&cubin, c.kernel)
            .expect("kernel")
            .code;
        let code_at = cubin
            .windows(code.len())
            .position(|w| w == code)
            .expect("code inside the cubin");
        let insts: Vec<Inst> = code
            .chunks(16)
            .enumerate()
            .map(|(n, w)| {
                decode(
                    sm,
                    n as u32 * 16,
                    u128::from_le_bytes(w.try_into().unwrap()),
                )
                .unwrap()
            })
            .collect();
        let bsyncs: Vec<usize> = (0..insts.len())
            .filter(|&k| insts[k].op == Op::Bsync)
            .collect();
        assert!(!bsyncs.is_empty(), "sm_{sm}: ptxas emitted no BSYNC");
        let mut caught = 0;
        for &k in &bsyncs {
            // Replace the BSYNC by a NOP with the same control bits.
            let mut patched = cubin.clone();
            let at = code_at + 16 * k;
            let w = u128::from_le_bytes(patched[at..at + 16].try_into().unwrap());
            let nop = (w & !0xffff) | 0x7918;
            patched[at..at + 16].copy_from_slice(&nop.to_le_bytes());
            if !matches!(run(c, &patched), Ok(true)) {
                caught += 1;
            }
        }
        // Removing the BSYNC that reconverges the warp before the shuffle must be caught; inner
        // ones may be harmless to the result.
        assert!(
            caught >= 1,
            "sm_{sm}: none of {} BSYNC removals was caught",
            bsyncs.len()
        );
        println!(
            "sm_{sm}: {caught} of {} BSYNC removals caught",
            bsyncs.len()
        );
    }
}

#[test]
fn collective_of_a_split_warp_is_caught() {
    let c = case("shfl_diverged");
    for sm in [75, 80, 90] {
        let mut p = Patchable::new(c.file, c.kernel, sm);
        assert_eq!(run(c, &p.cubin), Ok(true), "sm_{sm} unpatched");
        // ptxforge reconverges the warp with WARPSYNC before the SHFL; without it the lanes that
        // left the loop early reach the SHFL apart from the others.
        let k = p
            .insts
            .iter()
            .position(|i| i.op == Op::Warpsync)
            .expect("a WARPSYNC before the SHFL");
        p.patch(k, 0, 12, 0x918);
        match run(c, &p.cubin) {
            Err(EmuError::Diverged { pc, .. }) => {
                assert_eq!(p.insts[pc as usize / 16].op, Op::Shfl, "sm_{sm}")
            }
            other => panic!("sm_{sm}: a SHFL without the WARPSYNC gave {other:?}"),
        }
    }
}

#[test]
fn mutated_code_never_panics() {
    let c = case("vadd");
    let base = Patchable::new(c.file, c.kernel, 80);
    let mut rng = Rng::new(42);
    let mut outcomes = [0usize; 3];
    for _ in 0..1500 {
        let mut p = Patchable {
            cubin: base.cubin.clone(),
            code_at: base.code_at,
            sm: 80,
            insts: Vec::new(),
        };
        let n = (rng.next() % (base.insts.len() as u64)) as usize;
        let bit = (rng.next() % 128) as usize;
        p.cubin[p.code_at + 16 * n + bit / 8] ^= 1 << (bit % 8);
        let result = std::panic::catch_unwind(|| run(c, &p.cubin));
        let outcome =
            result.unwrap_or_else(|_| panic!("panic with bit {bit} of /*{:04x}*/ flipped", 16 * n));
        outcomes[match outcome {
            Ok(true) => 0,
            Ok(false) => 1,
            Err(_) => 2,
        }] += 1;
    }
    println!(
        "unchanged result {}, wrong result {}, error {}",
        outcomes[0], outcomes[1], outcomes[2]
    );
    assert!(outcomes[1] + outcomes[2] > 0);
}

#[test]
fn read_of_a_never_written_register_is_reported() {
    let c = case("vadd");
    for sm in [80, 90] {
        let mut p = Patchable::new(c.file, c.kernel, sm);
        let k = p
            .insts
            .iter()
            .position(|i| i.op == Op::Fadd)
            .expect("an FADD");
        p.patch(k, 24, 8, 200);
        let mut s = (c.setup)(&mut Rng::new(1));
        let opts = EmuOptions {
            check_uninit: true,
            ..Default::default()
        };
        match run_kernel(
            &p.cubin,
            c.kernel,
            &s.launch,
            &s.params,
            &mut s.buffers,
            &opts,
        ) {
            Err(EmuError::Uninitialized { pc, reg, .. }) => {
                assert_eq!((pc, reg.as_str()), (16 * k as u32, "R200"))
            }
            other => panic!("sm_{sm}: FADD reading R200 gave {other:?}"),
        }
    }
}

#[test]
fn removed_read_scoreboard_wait_is_a_hazard_at_the_overwriter() {
    let mut checked = 0;
    for sm in [80, 90] {
        for c in CASES
            .iter()
            .filter(|c| c.kernel != "empty" && our_cubin(c.file, sm).is_ok())
        {
            let mut p = Patchable::new(c.file, c.kernel, sm);
            // A late-reading op with a read scoreboard and the first later writer of one of its
            // GPR sources, in straight-line code, that waits on that scoreboard (with no wait on
            // the op's write scoreboard in between: its result coming back also ends the read).
            let candidate = |k: usize| {
                let sb = p.insts[k]
                    .ctrl
                    .rd_sb
                    .filter(|_| p.insts[k].op.reads_late())?;
                let wr = p.insts[k].ctrl.wr_sb.map_or(0, |s| 1u8 << s);
                let sources: Vec<(File, u8)> = p.insts[k]
                    .reads
                    .iter()
                    .filter(|r| r.file == File::R)
                    .flat_map(|r| (0..r.n).map(move |d| (r.file, r.idx + d)))
                    .collect();
                for j in k + 1..p.insts.len() {
                    let w = &p.insts[j];
                    if sources.iter().any(|&(f, r)| {
                        w.writes
                            .iter()
                            .any(|x| x.file == f && (x.idx..x.idx + x.n).contains(&r))
                    }) {
                        // (On sm_90 an LDG may overwrite an earlier load's address without
                        // the wait: ptxas's code does; the model accepts it.)
                        let load_after_load = sm >= 90
                            && w.op == Op::Ldg
                            && matches!(p.insts[k].op, Op::Ldg | Op::Ld | Op::Ldl);
                        // A wait on a scoreboard that a later op (issued after k, same unit
                        // order) set also orders k's read before j: then removing SBsb proves
                        // nothing, so such a pair is not tested.
                        let later: u8 = p.insts[k + 1..j]
                            .iter()
                            .flat_map(|x| [x.ctrl.rd_sb, x.ctrl.wr_sb])
                            .flatten()
                            .fold(0, |m, s| m | 1 << s);
                        let ordered_otherwise = w.ctrl.wait & !(1 << sb) & later != 0;
                        // A writer in the same in-order queue (a SHFL overwriting an earlier
                        // SHFL's lane register) reads after k anyway: nothing to prove either.
                        let same_queue = w.op.timing() == p.insts[k].op.timing()
                            && matches!(w.op.timing(), Timing::Var { queue } if queue != Queue::Unordered);
                        return (w.ctrl.wait & (1 << sb) != 0
                            && !same_queue
                            && w.ctrl.wait & wr == 0
                            && !load_after_load
                            && !ordered_otherwise)
                            .then_some((j, sb));
                    }
                    // A later late reader of the same source takes over the pending read (its
                    // own write scoreboard may end it): only the last one is tested.
                    let reads_again = w.op.reads_late()
                        && w.reads.iter().any(|x| {
                            sources
                                .iter()
                                .any(|&(f, r)| x.file == f && (x.idx..x.idx + x.n).contains(&r))
                        });
                    if w.ctrl.wait & ((1 << sb) | wr) != 0
                        || reads_again
                        || matches!(w.op, Op::Bra | Op::Exit | Op::Bar | Op::Warpsync)
                    {
                        return None;
                    }
                }
                None
            };
            // Only an overwriter this run reaches proves anything (a pair in a block the seeded
            // inputs skip passes unpatched): the first candidate that is reached is tested.
            let found = (0..p.insts.len())
                .filter_map(candidate)
                .find(|&(j, _)| reached(c, &p, j));
            let Some((j, sb)) = found else { continue };
            let wait = p.insts[j].ctrl.wait & !(1 << sb);
            p.patch(j, 116, 6, wait as u128);
            match run(c, &p.cubin) {
                Err(EmuError::Hazard {
                    pc,
                    kind: HazardKind::OverwriteBeforeRead,
                    ..
                }) => assert_eq!(pc, 16 * j as u32, "{} sm_{sm}", c.kernel),
                other => panic!(
                    "{} sm_{sm}: removing SB{sb} from the wait of /*{:04x}*/ gave {other:?}",
                    c.kernel,
                    16 * j
                ),
            }
            checked += 1;
        }
    }
    println!("{checked} kernels checked");
    assert!(
        checked >= 4,
        "only {checked} kernels overwrite a late-read source"
    );
}

#[test]
fn frame_smaller_than_its_accesses_is_caught() {
    let c = case("local_mem");
    for sm in SMS {
        let mut p = Patchable::new(c.file, c.kernel, sm);
        assert!(run(c, &p.cubin).expect("runs as compiled"), "sm_{sm}");
        // The prologue's `IADD3 R1, R1, -0x20, RZ` made to take 16 bytes: R1 then starts 16 bytes
        // below the top of the 32-byte stack, and the stores above those 16 bytes leave it.
        let alloc = (0..p.insts.len())
            .find(|&n| p.insts[n].op == Op::Iadd3 && p.word(n) >> 16 & 0xffff == 0x0101)
            .expect("frame allocation");
        p.patch(alloc, 32, 32, (-16i32) as u32 as u128);
        match run(c, &p.cubin) {
            Err(EmuError::OutOfBounds { space: "local", .. }) => {}
            other => panic!("sm_{sm}: expected an out-of-bounds local access, got {other:?}"),
        }
    }
}
