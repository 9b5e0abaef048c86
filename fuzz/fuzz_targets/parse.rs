//! Fuzz target: any bytes through the PTX front end (serial and in sections) never panic, and
//! parsing in sections gives exactly the serial result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptxforge_ptx::sections::parse_syntax_in_sections;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let serial = ptxforge_ptx::parse_syntax(src, "fuzz.ptx");
    for min in [1, 3] {
        let (module, diags) = parse_syntax_in_sections(src, "fuzz.ptx", min);
        assert!(module == serial.0, "module differs in sections of >= {min}");
        assert_eq!(diags, serial.1, "diagnostics differ in sections of >= {min}");
    }
    let _ = ptxforge_ptx::finish_module(src, "fuzz.ptx", serial.0, serial.1);
});
