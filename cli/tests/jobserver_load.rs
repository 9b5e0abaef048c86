//! Load on the jobserver client as a `make -j` build of a CUDA library gives it: many back-to-back
//! compiles under `make -j2`, and several ptxforge processes sharing one fifo jobserver at once;
//! every token comes back, no process runs more sections than its tokens allow, and every cubin
//! is the same bytes as a compile without make. Reduced counts by default;
//! `PTXFORGE_STRESS_FULL=1` runs 1,000 compiles.

mod fifo;

use std::path::PathBuf;
use std::process::Command;

use fifo::{fifo_with_tokens, max_concurrent, tokens_in};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-jsload-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A module of `n` small kernels that differ by a constant.
fn module(n: usize) -> String {
    let mut src = String::from(".version 8.0\n.target sm_75\n.address_size 64\n");
    for i in 0..n {
        src.push_str(&format!(
            ".visible .entry k{i}(.param .u64 p)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n\
             cvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, {i};\nst.global.u32 [%rd2], %r2;\nret;\n}}\n"
        ));
    }
    src
}

fn compiles() -> usize {
    if std::env::var_os("PTXFORGE_STRESS_FULL").is_some() {
        1000
    } else {
        200
    }
}

#[test]
fn many_back_to_back_compiles_under_make_j2() {
    if Command::new("make").arg("--version").output().is_err() {
        println!("skipped: GNU make not found");
        return;
    }
    let dir = scratch("make");
    let ptx = dir.join("m.ptx");
    std::fs::write(&ptx, module(24)).unwrap();
    let n = compiles();
    let exe = env!("CARGO_BIN_EXE_ptxforge");
    let mut makefile = String::from("all:");
    for i in 0..n {
        makefile.push_str(&format!(" c{i}.cubin"));
    }
    makefile.push_str(&format!(
        "\n%.cubin:\n\t+{exe} --jobserver --split-compile 0 -arch=sm_80 {} -o $@\n",
        ptx.display()
    ));
    std::fs::write(dir.join("Makefile"), makefile).unwrap();
    let out = Command::new("make")
        .args(["-j2", "-s", "-C"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("jobserver tokens"),
        "make reports lost tokens: {stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
    let reference = Command::new(exe)
        .args(["-arch=sm_80"])
        .arg(&ptx)
        .arg("-o")
        .arg(dir.join("reference.cubin"))
        .status()
        .unwrap();
    assert!(reference.success());
    let expected = std::fs::read(dir.join("reference.cubin")).unwrap();
    for i in 0..n {
        let got = std::fs::read(dir.join(format!("c{i}.cubin"))).unwrap();
        assert!(
            got == expected,
            "c{i}.cubin differs from a compile without make"
        );
    }
}

#[test]
fn processes_sharing_one_fifo_conserve_its_tokens() {
    let dir = scratch("fifo");
    let ptx = dir.join("m.ptx");
    std::fs::write(&ptx, module(300)).unwrap();
    let tokens = 3;
    let (fifo, _keep_open) = fifo_with_tokens(&dir, tokens);
    for round in 0..3 {
        let children: Vec<_> = (0..4)
            .map(|p| {
                Command::new(env!("CARGO_BIN_EXE_ptxforge"))
                    .args(["--jobserver", "--split-compile", "0", "-arch=sm_80"])
                    .arg(&ptx)
                    .arg("-o")
                    .arg(dir.join(format!("r{round}p{p}.cubin")))
                    .env(
                        "MAKEFLAGS",
                        format!(" -j4 --jobserver-auth=fifo:{}", fifo.display()),
                    )
                    .env("PTXFORGE_JOBSERVER_STATS", "1")
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{stderr}");
            // Its implicit token plus at most every token in the fifo.
            assert!(max_concurrent(&stderr) <= tokens + 1, "{stderr}");
        }
        // Reading drains the fifo: the tokens go back for the next round.
        assert_eq!(
            tokens_in(&fifo),
            tokens,
            "round {round}: tokens lost or added"
        );
        let back = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        std::io::Write::write_all(&mut &back, &vec![b'+'; tokens]).unwrap();
    }
}
