//! The records of printf and assert calls (`kernels/syscalls.ptx`): the emulator's models of
//! vprintf and __assertfail, run on ptxas's cubin and on ours, record exactly the calls the
//! kernel makes, with the arguments computed here from the inputs.

mod common;

use common::*;
use ptxforge_device::syscall::{record_key, records_buffer, SysCallRecord};
use ptxforge_emu::{run_kernel_recording, EmuOptions};

const FILE: &str = "kernels/syscalls.ptx";

fn key(t: u32) -> u64 {
    record_key([0; 3], [1, 1, 1], [t, 0, 0], [32, 1, 1])
}

/// `printf("%d %x\n", a, b)` by each odd thread.
fn printf_records(input: &[u32]) -> Vec<u8> {
    let records: Vec<SysCallRecord> = (1..32)
        .step_by(2)
        .map(|t| {
            let mut bytes = b"vprintf\0%d %x\n\0d".to_vec();
            bytes.extend_from_slice(&(input[t] as u64).to_le_bytes());
            bytes.push(b'x');
            bytes.extend_from_slice(&(input[t + 32] as u64).to_le_bytes());
            SysCallRecord {
                key: key(t as u32),
                bytes,
            }
        })
        .collect();
    records_buffer(&records)
}

/// `__assertfail("(v & 7) != 5", "syscalls.cu", 18, "void assert_calls(const int *, int *)", 1)`
/// by each thread whose word is 5 mod 8.
fn assert_records(input: &[u32]) -> Vec<u8> {
    let records: Vec<SysCallRecord> = (0..32)
        .filter(|&t| input[t] & 7 == 5)
        .map(|t| {
            let mut bytes = b"__assertfail\0(v & 7) != 5\0syscalls.cu\0".to_vec();
            bytes.extend_from_slice(&18u32.to_le_bytes());
            bytes.extend_from_slice(b"void assert_calls(const int *, int *)\0");
            bytes.extend_from_slice(&1u64.to_le_bytes());
            SysCallRecord {
                key: key(t as u32),
                bytes,
            }
        })
        .collect();
    records_buffer(&records)
}

fn run(cubin: &[u8], kernel: &str, input: &[u32]) -> Vec<u8> {
    let mut buffers = vec![buf_u32(0, input), buf_u32(1, &[0; 32])];
    let params = Params::default().u64(addr(0)).u64(addr(1)).0;
    let launch = ptxforge_emu::Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
    };
    let opts = EmuOptions {
        check_uninit: true,
        check_hazards: true,
        ..Default::default()
    };
    let (_, records) = run_kernel_recording(cubin, kernel, &launch, &params, &mut buffers, &opts)
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    records.expect("a kernel that calls vprintf or __assertfail gives records")
}

#[test]
fn printf_and_assert_record_their_arguments() {
    if ptxforge_sass::nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (set PTXFORGE_NV)");
        return;
    }
    let mut rng = Rng::new(7);
    let input: Vec<u32> = (0..64).map(|_| rng.u32()).collect();
    assert!(
        input[..32].iter().any(|v| v & 7 == 5),
        "some thread asserts"
    );
    for sm in SMS {
        let ours = our_cubin(FILE, sm).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
        let theirs = ptxas_cubin(FILE, sm).expect("ptxas");
        for (who, cubin) in [("ptxas", &theirs), ("ptxforge", &ours)] {
            let got = run(cubin, "printf_calls", &input);
            assert_eq!(got, printf_records(&input), "{who} sm_{sm} printf_calls");
            let got = run(cubin, "assert_calls", &input);
            assert_eq!(got, assert_records(&input), "{who} sm_{sm} assert_calls");
        }
    }
}

#[test]
fn a_wrong_argument_changes_the_record() {
    let mut input: Vec<u32> = (0..64).collect();
    let before = printf_records(&input);
    input[33] ^= 1;
    assert_ne!(before, printf_records(&input));
}
