//! `trap` stops a kernel in every runner: the interpreter, the emulator on ptxas's cubin (when
//! ptxas is present) and on ours, each reporting a trap rather than storing past it.

use ptxforge_sass::nvtools;
use ptxforge_sim::{check_each, compile_ours, parse_request, Runs, SimRequest, Verdict};

fn request(sm: u32) -> SimRequest {
    request_for("trap_taken", sm)
}

fn request_for(entry: &str, sm: u32) -> SimRequest {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels/trap.ptx");
    SimRequest {
        ptx: std::fs::read_to_string(path).unwrap(),
        file_name: "trap.ptx".into(),
        entry: entry.into(),
        sm,
        grid: [1, 1, 1],
        block: [32, 1, 1],
        buffer_bytes: 256,
        ..SimRequest::default()
    }
}

fn is_trap(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Failed { error, .. } if error.contains("trap"))
}

#[test]
fn a_trap_stops_every_runner() {
    for sm in [80, 86, 90] {
        stops_every_runner(request(sm), sm);
    }
}

/// A guarded trap that one thread of 32 takes (`@p trap`, branched around as ptxas does) stops
/// every runner too.
#[test]
fn a_guarded_trap_one_thread_takes_stops_every_runner() {
    for sm in [80, 89, 90] {
        stops_every_runner(request_for("trap_guarded_some", sm), sm);
    }
}

/// Guarded traps no thread takes: the three runners agree on the stores past them.
#[test]
fn guarded_traps_not_taken_are_passed() {
    for sm in [80, 86, 90] {
        let req = SimRequest {
            block: [64, 1, 1],
            ..request_for("trap_guarded_skipped", sm)
        };
        let ours = compile_ours(&req).expect("ptxforge compiles trap_guarded_skipped");
        let mut cubins: Vec<(&str, Vec<u8>)> = vec![("ptxforge cubin", ours)];
        let path = std::env::temp_dir().join(format!(
            "ptxforge-trap-guarded-{}-{sm}.ptx",
            std::process::id()
        ));
        std::fs::write(&path, &req.ptx).unwrap();
        if let Some(Ok(cubin)) = nvtools::ptxas_cubin(&path, sm) {
            cubins.push(("ptxas cubin", cubin));
        }
        let _ = std::fs::remove_file(&path);
        let named: Vec<(&str, &[u8])> = cubins.iter().map(|(n, c)| (*n, c.as_slice())).collect();
        let verdict = ptxforge_sim::check_cubins(&req, &named).unwrap();
        assert!(matches!(verdict, Verdict::Agree), "sm_{sm}: {verdict}");
    }
}

fn stops_every_runner(req: SimRequest, sm: u32) {
    {
        let ours = compile_ours(&req).expect("ptxforge compiles the trap kernel");
        let mut cubins: Vec<(&str, Vec<u8>)> = vec![("ptxforge cubin", ours)];
        let path = std::env::temp_dir().join(format!(
            "ptxforge-trap-{}-{}-{sm}.ptx",
            req.entry,
            std::process::id()
        ));
        std::fs::write(&path, &req.ptx).unwrap();
        match nvtools::ptxas_cubin(&path, sm) {
            Some(Ok(cubin)) => cubins.push(("ptxas cubin", cubin)),
            Some(Err(e)) => panic!("ptxas rejects trap.ptx: {e}"),
            None => eprintln!("skipped: ptxas's cubin (ptxas not found); ours only"),
        }
        let _ = std::fs::remove_file(&path);
        let module = parse_request(&req).unwrap();
        // The interpreter stops first, so each cubin is run on its own against nothing.
        let stopped = check_each(&module, &req, &[]).unwrap();
        assert!(
            matches!(&stopped, Runs::InterpreterStopped(v) if is_trap(v)),
            "sm_{sm}: interpreter: {stopped:?}"
        );
        for (runner, cubin) in &cubins {
            let inputs = ptxforge_sim::setup::build_inputs(&module, &req).unwrap();
            let verdict = ptxforge_sim::emulated_buffers(cubin, &req, &inputs, runner);
            assert!(
                matches!(&verdict, Err(v) if is_trap(v)),
                "sm_{sm}: {runner} did not trap: {:?}",
                verdict.map(|_| "ran to the end")
            );
        }
    }
}
