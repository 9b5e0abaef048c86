//! The checked-in OPCODES.md matches what the emulator supports.

#[test]
fn opcodes_md_is_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("OPCODES.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == ptxforge_emu::opcode_table_markdown(),
        "{} is stale: run `cargo run -p ptxforge-emu --bin opcode_table`",
        path.display()
    );
}

#[test]
fn every_architecture_runs_the_core_opcodes() {
    for sm in ptxforge_emu::ARCHITECTURES {
        let ops = ptxforge_emu::supported_opcodes(sm);
        for core in [
            "IMAD", "IADD3", "LDG", "STG", "BRA", "EXIT", "S2R", "ISETP", "BAR.SYNC",
        ] {
            assert!(ops.contains(&core), "sm_{sm} lacks {core}");
        }
    }
}
