//! The checked-in `benches/ISA_FAMILIES.md` is what `isa_family_table` writes today: this test
//! compiles every family's snippet at every target again and fails when the table is stale
//! (`PTXFORGE_BLESS=1` rewrites it). Needs no NVIDIA tools.

use ptxforge_benches::isa_families::{parse_families, render_table, survey, FAMILIES_TXT};

#[test]
fn isa_family_table_is_current() {
    let families = parse_families(FAMILIES_TXT).expect("benches/isa/families.txt parses");
    let table = render_table(&families, &survey(&families));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ISA_FAMILIES.md");
    if std::env::var_os("PTXFORGE_BLESS").is_some() {
        std::fs::write(&path, &table).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != table {
        let first_diff = checked_in
            .lines()
            .zip(table.lines())
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("\nchecked in: {a}\nnow:        {b}"))
            .unwrap_or_else(|| "\n(lengths differ)".into());
        panic!(
            "benches/ISA_FAMILIES.md is stale: run `cargo run --release -p ptxforge-benches --bin isa_family_table` (or PTXFORGE_BLESS=1){first_diff}"
        );
    }
}
