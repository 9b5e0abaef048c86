//! Modelled cycles, ours against ptxas's on the same PTX: every sim kernel launch of
//! `pipeline/sim/tests/kernels.rs` (its `KERNELS` table, read from the test's source so that the
//! two lists cannot drift apart) runs on the emulator with both cubins and the test's seeded
//! inputs; where both agree with the PTX interpreter, the report gives per kernel and in total
//! the emulator's modelled cycles (`ptxforge_emu::modelled`: stalls, and scoreboard waits costing
//! each result's nominal latency by kind) and executed warp instructions.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin sim_cycles -- [--sm N] [--json FILE]
//! [--filter TEXT]`. Each kernel runs at `--sm` (default 80) or its oldest architecture when newer.
//! Markdown on stdout. `PTXFORGE_NO_LIST_SCHEDULE=1` compiles ours without the list scheduler.
//!
//! Measured (sm_80, 160 launches, 2026-11-29, block-start EXIT/ERRBAR without waits in both):
//!
//! | list scheduler | modelled cycles ours / ptxas | total | geomean | worst | warp instructions |
//! |---|---|---|---|---|---|
//! | off | 1212072 / 773323 | 1.567 | 1.851 | 12.69 divergent_reduce | 1.498 |
//! | on | 1156097 / 773323 | 1.495 | 1.659 | 12.03 divergent_reduce | 1.498 |
//!
//! The scheduler leaves `code_quality` unchanged (off and on: static instructions 849902 / 734826
//! = 1.16, registers 47084 / 41935 = 1.12, 168 of 671 kernels within 1.10x).
//!
//! divergent_reduce executes 7.1x ptxas's warp instructions (37998 / 5352): ours has no
//! BSSY/BSYNC, so lanes that leave the per-lane loop apart stay apart, and each split group issues
//! the rest of the kernel on its own; ptxas also unrolls that loop by 4. Code shape, not scheduling.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ptxforge_sass::nvtools;
use ptxforge_sim::{setup, SimRequest, Verdict};

/// One launch of the sim kernels' table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Launch {
    file: String,
    entry: String,
    grid: u32,
    block: u32,
    ulps: u32,
    min_sm: u32,
}

/// The launches of the `KERNELS` table in the source of `kernels.rs`: each `kernel("f", "e", n)`
/// call, with the `grid:`, `ulps:` and `min_sm:` fields of the `Kernel { .. }` around it.
fn parse_launches(source: &str) -> Vec<Launch> {
    let Some(start) = source.find("const KERNELS: &[Kernel] = &[") else {
        return Vec::new();
    };
    let body = &source[start..];
    let body = &body[..body.find("\n];").unwrap_or(body.len())];
    let mut out = Vec::new();
    let (mut grid, mut ulps, mut min_sm) = (1, 0, 75);
    for line in body.lines().skip(1).map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        let field = |key: &str| {
            line.strip_prefix(key)?
                .trim_end_matches(',')
                .trim()
                .parse()
                .ok()
        };
        if let Some(v) = field("grid:") {
            grid = v;
        } else if let Some(v) = field("ulps:") {
            ulps = v;
        } else if let Some(v) = field("min_sm:") {
            min_sm = v;
        } else if let Some(call) = line.split("kernel(").nth(1) {
            let args: Vec<&str> = call
                .split(')')
                .next()
                .unwrap_or("")
                .split(',')
                .map(|a| a.trim().trim_matches('"'))
                .collect();
            if let [file, entry, block] = args[..] {
                if let Ok(block) = block.parse() {
                    out.push(Launch {
                        file: file.into(),
                        entry: entry.into(),
                        grid,
                        block,
                        ulps,
                        min_sm,
                    });
                }
            }
            (grid, ulps, min_sm) = (1, 0, 75);
        }
    }
    out
}

/// What one cubin's run gave.
#[derive(Clone, Copy, Debug, Default)]
struct RunCost {
    cycles: u64,
    instructions: u64,
}

struct Row {
    name: String,
    sm: u32,
    ours: RunCost,
    ptxas: RunCost,
}

fn kernel_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../pipeline/sim/tests/kernels")
}

/// Runs one launch with both cubins; the row, or why it is left out.
fn measure(k: &Launch, sm: u32) -> Result<Row, String> {
    let path = kernel_dir().join(&k.file);
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let ptx = text.replacen("\n.target sm_80\n", &format!("\n.target sm_{sm}\n"), 1);
    let tmp = std::env::temp_dir().join(format!(
        "ptxforge-sim-cycles-{}-{}-sm{sm}.ptx",
        std::process::id(),
        k.entry
    ));
    std::fs::write(&tmp, &ptx).map_err(|e| e.to_string())?;
    let theirs = nvtools::ptxas_cubin(&tmp, sm);
    let _ = std::fs::remove_file(&tmp);
    let theirs = theirs.ok_or("ptxas not found")??;
    let req = SimRequest {
        ptx,
        file_name: k.file.clone(),
        entry: k.entry.clone(),
        sm,
        grid: [k.grid, 1, 1],
        block: [k.block, 1, 1],
        ulps: k.ulps,
        seed: 0x6b65_726e + sm as u64,
        seed_structs: true,
        ..SimRequest::default()
    };
    let ours = ptxforge_sim::compile_ours(&req)?;
    let module = ptxforge_sim::parse_request(&req)?;
    let inputs = setup::build_inputs(&module, &req)?;
    let reference = ptxforge_sim::reference_buffers(&module, &req, &inputs)
        .map_err(|v| format!("interpreter: {v:?}"))?;
    let mut costs = [RunCost::default(); 2];
    for (cost, (runner, cubin)) in costs
        .iter_mut()
        .zip([("ptxforge", &ours), ("ptxas", &theirs)])
    {
        let (buffers, stats) = ptxforge_sim::emulated_run(cubin, &req, &inputs, runner)
            .map_err(|v| format!("{runner}'s cubin: {}", short(&v)))?;
        let verdict =
            ptxforge_sim::compare_runner(&module, &req, &inputs, runner, &reference, &buffers);
        if verdict != Verdict::Agree {
            return Err(format!("{runner}'s cubin: {}", short(&verdict)));
        }
        *cost = RunCost {
            cycles: stats.modelled_cycles,
            instructions: stats.warp_instructions,
        };
    }
    Ok(Row {
        name: format!("{}:{}", k.file, k.entry),
        sm,
        ours: costs[0],
        ptxas: costs[1],
    })
}

fn short(v: &Verdict) -> String {
    let s = format!("{v:?}");
    s.chars().take(160).collect()
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// Sums, total ratios, the geometric mean and the largest of the per-kernel cycle ratios.
struct Totals {
    ours: RunCost,
    ptxas: RunCost,
    geomean: f64,
    worst: f64,
}

fn totals(rows: &[Row]) -> Totals {
    let mut t = Totals {
        ours: RunCost::default(),
        ptxas: RunCost::default(),
        geomean: 1.0,
        worst: 0.0,
    };
    let mut log_sum = 0.0;
    for r in rows {
        t.ours.cycles += r.ours.cycles;
        t.ours.instructions += r.ours.instructions;
        t.ptxas.cycles += r.ptxas.cycles;
        t.ptxas.instructions += r.ptxas.instructions;
        let q = ratio(r.ours.cycles, r.ptxas.cycles);
        log_sum += q.ln();
        t.worst = t.worst.max(q);
    }
    if !rows.is_empty() {
        t.geomean = (log_sum / rows.len() as f64).exp();
    }
    t
}

fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| kernel | sm | modelled cycles ours / ptxas | ratio | warp instructions ours / ptxas | ratio |\n|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} / {} | {:.2} | {} / {} | {:.2} |",
            r.name,
            r.sm,
            r.ours.cycles,
            r.ptxas.cycles,
            ratio(r.ours.cycles, r.ptxas.cycles),
            r.ours.instructions,
            r.ptxas.instructions,
            ratio(r.ours.instructions, r.ptxas.instructions)
        );
    }
    let t = totals(rows);
    let _ = writeln!(
        s,
        "| **total** ({} kernels) | | {} / {} | {:.3} | {} / {} | {:.3} |",
        rows.len(),
        t.ours.cycles,
        t.ptxas.cycles,
        ratio(t.ours.cycles, t.ptxas.cycles),
        t.ours.instructions,
        t.ptxas.instructions,
        ratio(t.ours.instructions, t.ptxas.instructions)
    );
    let _ = writeln!(
        s,
        "\ncycles: total ratio {:.3}, geometric mean of the per-kernel ratios {:.3}, largest {:.2}",
        ratio(t.ours.cycles, t.ptxas.cycles),
        t.geomean,
        t.worst
    );
    s
}

fn json(rows: &[Row]) -> String {
    let kernels: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"kernel\":\"{}\",\"sm\":{},\"ptxforge\":{{\"cycles\":{},\"instructions\":{}}},\"ptxas\":{{\"cycles\":{},\"instructions\":{}}}}}",
                r.name, r.sm, r.ours.cycles, r.ours.instructions, r.ptxas.cycles, r.ptxas.instructions
            )
        })
        .collect();
    let t = totals(rows);
    format!(
        "{{\"kernels\":[{}],\"total\":{{\"ptxforge_cycles\":{},\"ptxas_cycles\":{},\"geomean_cycle_ratio\":{:.4}}}}}\n",
        kernels.join(","),
        t.ours.cycles,
        t.ptxas.cycles,
        t.geomean
    )
}

fn main() {
    let (mut sm, mut json_out, mut filter) = (80u32, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--sm" => sm = args.next().and_then(|v| v.parse().ok()).expect("--sm N"),
            "--json" => json_out = args.next().map(PathBuf::from),
            "--filter" => filter = args.next(),
            _ => {
                eprintln!("usage: sim_cycles [--sm N] [--json FILE] [--filter TEXT]");
                std::process::exit(2);
            }
        }
    }
    if nvtools::tool("ptxas").is_none() {
        println!("skipped: ptxas not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    }
    let source = std::fs::read_to_string(Path::new(&kernel_dir()).with_extension("rs"))
        .expect("pipeline/sim/tests/kernels.rs");
    let mut rows = Vec::new();
    for k in parse_launches(&source) {
        let name = format!("{}:{}", k.file, k.entry);
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        match measure(&k, sm.max(k.min_sm)) {
            Ok(r) => rows.push(r),
            Err(why) => eprintln!("{name}: left out ({why})"),
        }
    }
    print!("{}", markdown(&rows));
    if let Some(path) = json_out {
        std::fs::write(path, json(&rows)).expect("write json");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_are_read_with_their_fields() {
        let src = "const KERNELS: &[Kernel] = &[\n    kernel(\"a.ptx\", \"a\", 64),\n    // note\n    Kernel {\n        grid: 2,\n        min_sm: 90,\n        ..kernel(\"b.ptx\", \"b\", 128)\n    },\n    kernel(\"c.ptx\", \"c\", 32),\n];\n";
        let l = parse_launches(src);
        assert_eq!(l.len(), 3);
        assert_eq!((l[1].grid, l[1].min_sm, l[1].block), (2, 90, 128));
        assert_eq!((l[2].grid, l[2].min_sm, l[2].block), (1, 75, 32));
    }

    #[test]
    fn the_sim_kernels_table_is_read() {
        let source = std::fs::read_to_string(kernel_dir().with_extension("rs")).unwrap();
        assert!(parse_launches(&source).len() >= 100);
    }
}
