//! `ptxforge`: the ptxas-compatible command-line driver.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    eprintln!("ptxforge: not yet wired");
    std::process::exit(255);
}
