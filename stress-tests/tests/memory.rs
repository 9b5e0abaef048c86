//! Peak memory as a module grows: the same synthetic kernels in modules of growing size are
//! compiled in this process under a counting allocator, and the peak bytes allocated above the
//! module's own text must stay a bounded multiple of the text (the AST of the whole module is
//! kept; each kernel's back-end state is freed as it leaves the pipeline). Reduced sizes by
//! default; `PTXFORGE_STRESS_FULL=1` goes from 5 to 200 MB.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use ptxforge_benches::synth;
use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::Sm;

/// The system allocator, counting the bytes live now and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed straight to `System`, which upholds the contract; the counters
// only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time: the counters are process-wide and tests run on several threads.
static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Peak bytes allocated while compiling `src` on `threads` workers, above what was live before.
fn peak_of_compile(src: &str, threads: usize) -> usize {
    let _one_at_a_time = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let opts = CompileOptions {
        sm: Sm::new(80),
        split_compile: threads,
        ..CompileOptions::default()
    };
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = compile_module(src, "grow.ptx", &opts);
    assert!(
        !out.failed(),
        "{:?}",
        out.diagnostics.first().map(|d| d.to_string())
    );
    assert!(out.cubin.is_some());
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(out);
    peak
}

#[test]
fn peak_memory_grows_no_faster_than_the_module() {
    let sizes: &[usize] = if std::env::var_os("PTXFORGE_STRESS_FULL").is_some() {
        &[5, 20, 50, 100, 200]
    } else {
        &[2, 4, 8]
    };
    let mut per_byte = Vec::new();
    for &mb in sizes {
        let src = synth::module_of_mb(mb);
        let peak = peak_of_compile(&src, 2);
        let ratio = peak as f64 / src.len() as f64;
        println!(
            "{mb:4} MB module: {:7.1} MB peak allocated ({ratio:.2} bytes per byte of PTX)",
            peak as f64 / 1e6
        );
        per_byte.push(ratio);
    }
    // Flat means the cost per byte of PTX does not grow with the module: allow noise, not growth.
    let first = per_byte[0];
    for (mb, r) in sizes.iter().zip(&per_byte) {
        assert!(
            *r < first * 1.5 + 0.5,
            "{mb} MB: {r:.2} bytes per PTX byte against {first:.2} at {} MB",
            sizes[0]
        );
    }
}

#[test]
fn a_kernel_s_back_end_state_is_freed_as_it_leaves() {
    // Ten times the kernels must not need ten times the memory above the module's own tree:
    // measure the peak beyond the parse by compiling the same kernel text 40 and 400 times.
    let small = synth::many_kernels(40, 220);
    let large = synth::many_kernels(400, 220);
    let (a, b) = (peak_of_compile(&small, 2), peak_of_compile(&large, 2));
    let per_kernel = |peak: usize, src: &str| peak as f64 / src.len() as f64;
    println!(
        "40 kernels: {:.1} MB; 400 kernels: {:.1} MB",
        a as f64 / 1e6,
        b as f64 / 1e6
    );
    assert!(
        per_kernel(b, &large) < per_kernel(a, &small) * 1.5 + 0.5,
        "peak per PTX byte grew from {:.2} to {:.2}",
        per_kernel(a, &small),
        per_kernel(b, &large)
    );
}
