//! Writes OPCODES.md: the SASS opcodes the emulator runs, per architecture.
//! Run with `cargo run -p ptxforge-emu --bin opcode_table`.

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("OPCODES.md");
    if let Err(e) = std::fs::write(&path, ptxforge_emu::opcode_table_markdown()) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
    println!("wrote {}", path.display());
}
