//! Register-pressure probe: per kernel, the most registers live at once (a lower bound for any
//! assignment without spilling) against what the allocator assigns.
//!
//! Usage: `ra_probe FILE.ptx SM [NAME_FILTER]`

use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

/// The most registers of `file` live at one slot.
fn max_live(f: &Function, file: RegFile) -> u32 {
    let lr = ptxforge_sass::liveness::live_ranges(f);
    let mut files = vec![RegFile::Gpr; f.num_vregs as usize];
    for i in f.instrs() {
        i.visit_regs(|r, _| files[r.idx as usize] = r.file);
    }
    let mut ev: Vec<(u32, i32)> = Vec::new();
    for v in 0..f.num_vregs as usize {
        if files[v] != file {
            continue;
        }
        let c = f.vreg_comps[v] as i32;
        for &(s, e) in lr.of(v) {
            ev.push((s, c));
            ev.push((e, -c));
        }
    }
    ev.sort_by_key(|&(p, d)| (p, d));
    let (mut cur, mut best) = (0i32, 0i32);
    for (_, d) in ev {
        cur += d;
        best = best.max(cur);
    }
    best as u32
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read_to_string(&args[1]).unwrap();
    let sm = Sm::new(args[2].parse().unwrap());
    let filter = args.get(3).cloned().unwrap_or_default();
    let module = ptxforge_ptx::parse_module(&src, &args[1]).unwrap();
    for func in module
        .functions
        .iter()
        .filter(|f| f.is_entry && f.name.contains(&filter))
    {
        let Ok(mut k) = ptxforge_lower::lower_function(&module, func, sm) else {
            continue;
        };
        ptxforge_lower::optimize(&mut k.func);
        let f = &k.func;
        let mut g = f.clone();
        ptxforge_sass::pred_pressure::fit_predicates(&mut g);
        let moved = g.num_instrs() - f.num_instrs();
        let before = g.clone();
        let res = ptxforge_sass::regalloc::allocate_registers(&mut g, sm, 255);
        if res.is_ok() {
            if let Err(e) = ptxforge_sass::regalloc::verify_allocation(&before, &g) {
                println!("VERIFY FAILED {}: {e}", func.name);
            }
        }
        println!(
            "{}\tinstrs={} blocks={} vregs={} maxliveG={} maxliveP={} added={} alloc={}",
            &func.name,
            f.num_instrs(),
            f.blocks.len(),
            f.num_vregs,
            max_live(f, RegFile::Gpr),
            max_live(f, RegFile::Pred),
            moved,
            match res {
                Ok(()) => format!("ok {} P{}", g.reg_usage.gprs, g.reg_usage.preds),
                Err(e) => e.0,
            }
        );
    }
}
