//! Synthetic PTX modules for the benchmarks and stress tests: many kernels, one huge kernel, and
//! kernels under high register pressure. Every value depends on loaded data, so nothing folds
//! away; the same arguments always give the same text.

use std::fmt::Write;

/// A small deterministic generator (64-bit LCG; the high bits are used).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as u32
    }
}

/// The module header every generated module starts with.
fn header() -> String {
    ".version 8.0\n.target sm_75\n.address_size 64\n\n".to_string()
}

/// One kernel of `steps` statement groups (about five PTX lines each) over a rolling window of
/// `live` registers. With `live` large and every register summed at the end, all stay live.
fn kernel(out: &mut String, name: &str, steps: usize, live: u32, seed: u64) {
    let mut rng = Lcg(seed);
    let regs = live + 8;
    let _ = write!(
        out,
        ".visible .entry {name}(.param .u64 {name}_in, .param .u64 {name}_out, .param .u32 {name}_n)\n{{\n\
         \t.reg .pred %p<3>;\n\t.reg .b32 %r<{regs}>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n\
         \tld.param.u64 %rd1, [{name}_in];\n\tld.param.u64 %rd2, [{name}_out];\n\tld.param.u32 %r1, [{name}_n];\n\
         \tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n\
         \tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n\
         \tmad.lo.s32 %r5, %r3, %r4, %r2;\n\tand.b32 %r6, %r5, 255;\n\
         \tmul.wide.u32 %rd5, %r6, 4;\n\tadd.s64 %rd6, %rd3, %rd5;\n"
    );
    let reg = |k: u32| 8 + k % live;
    for k in 0..live {
        let _ = writeln!(
            out,
            "\tld.global.u32 %r{}, [%rd6+{}];",
            reg(k),
            4 * (k % 256)
        );
    }
    for j in 0..steps as u32 {
        let (d, a, b) = (
            reg(j + live),
            reg(j + rng.below(live)),
            reg(j + rng.below(live)),
        );
        match rng.below(6) {
            0 => {
                let _ = writeln!(
                    out,
                    "\tld.global.u32 %r7, [%rd6+{}];\n\tmad.lo.s32 %r{d}, %r7, {}, %r{a};",
                    4 * rng.below(256),
                    rng.below(1000) | 1
                );
            }
            1 => {
                let _ = writeln!(
                    out,
                    "\txor.b32 %r7, %r{a}, %r{b};\n\tshl.b32 %r{d}, %r7, {};",
                    1 + rng.below(30)
                );
            }
            2 => {
                let _ = writeln!(
                    out,
                    "\tsetp.lt.u32 %p1, %r{a}, %r{b};\n\tselp.b32 %r{d}, %r{a}, %r{b}, %p1;"
                );
            }
            3 => {
                let _ = writeln!(
                    out,
                    "\tcvt.rn.f32.u32 %f1, %r{a};\n\tcvt.rn.f32.u32 %f2, %r{b};\n\
                     \tfma.rn.f32 %f3, %f1, %f2, 0f3F800000;\n\tmov.b32 %r{d}, %f3;"
                );
            }
            4 => {
                let _ = writeln!(
                    out,
                    "\tsetp.eq.u32 %p2, %r{a}, {};\n\t@%p2 bra $L_{name}_{j};\n\
                     \tadd.s32 %r{d}, %r{d}, %r{b};\n$L_{name}_{j}:",
                    rng.below(7)
                );
            }
            _ => {
                let _ = writeln!(out, "\tadd.s32 %r{d}, %r{a}, %r{b};");
            }
        }
    }
    let _ = writeln!(out, "\tmov.u32 %r7, 0;");
    for k in 0..live {
        let _ = writeln!(out, "\tadd.s32 %r7, %r7, %r{};", reg(k));
    }
    let _ = write!(
        out,
        "\tmul.wide.u32 %rd7, %r6, 4;\n\tadd.s64 %rd7, %rd4, %rd7;\n\tst.global.u32 [%rd7], %r7;\n\tret;\n}}\n\n"
    );
}

/// `count` kernels of `steps` statement groups each (about 70 bytes a group: 220 groups make a
/// kernel of some 17 KB, so 300 such kernels are about 5 MB).
pub fn many_kernels(count: usize, steps: usize) -> String {
    let mut out = header();
    for i in 0..count {
        kernel(&mut out, &format!("many_{i}"), steps, 16, i as u64 + 1);
    }
    out
}

/// Many kernels, grown until the module holds at least `mb` megabytes.
pub fn module_of_mb(mb: usize) -> String {
    let mut out = header();
    let mut i = 0;
    while out.len() < mb * 1_000_000 {
        kernel(&mut out, &format!("bulk_{i}"), 220, 16, i as u64 + 1);
        i += 1;
    }
    out
}

/// One kernel of about `lines` PTX lines.
pub fn huge_kernel(lines: usize) -> String {
    let mut out = header();
    kernel(&mut out, "huge", lines / 2, 16, 7);
    out
}

/// `count` kernels that each keep `live` values live at once (registers beyond what fits spill).
pub fn high_pressure(count: usize, live: u32) -> String {
    let mut out = header();
    for i in 0..count {
        kernel(
            &mut out,
            &format!("pressure_{i}"),
            4 * live as usize,
            live,
            i as u64 + 11,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_sized() {
        assert_eq!(many_kernels(3, 20), many_kernels(3, 20));
        let m = many_kernels(300, 220);
        assert!((4_000_000..7_000_000).contains(&m.len()), "{}", m.len());
        assert_eq!(m.matches(".entry").count(), 300);
        assert!(module_of_mb(2).len() >= 2_000_000);
        let h = huge_kernel(10_000);
        assert!(h.lines().count() >= 10_000, "{}", h.lines().count());
    }

    #[test]
    fn generated_modules_parse_and_validate() {
        for src in [many_kernels(4, 60), huge_kernel(2000), high_pressure(2, 64)] {
            if let Err(d) = ptxforge_ptx::parse_module(&src, "synth.ptx") {
                panic!("{:?}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>());
            }
        }
    }
}
