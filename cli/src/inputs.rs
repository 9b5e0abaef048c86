//! The PTX inputs of one run: the files, then the `--input-as-string` modules, as ptxas reads them.

/// The name ptxas gives a module passed with `--input-as-string` in its diagnostics.
pub const STRING_INPUT_NAME: &str = "application ptx input";

/// The input file `-` is standard input (ptxas names it after a temporary file; we say this).
const STDIN_NAME: &str = "<stdin>";

/// One input's name and text.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// Reads every input file (then the string inputs); `Err` lists ptxas's fatal message for every
/// file that could not be read.
pub fn read_all(files: &[String], strings: &[String]) -> Result<Vec<Input>, Vec<String>> {
    let mut inputs = Vec::new();
    let mut missing = Vec::new();
    for name in files {
        match read_file(name) {
            Ok(bytes) => {
                let shown = if name == "-" {
                    STDIN_NAME.to_string()
                } else {
                    name.clone()
                };
                inputs.push(Input {
                    name: shown,
                    // Valid UTF-8 (every real module) is taken as it is, without a copy.
                    text: String::from_utf8(bytes)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
                });
            }
            Err(_) => missing.push(format!("Input file '{name}' could not be opened")),
        }
    }
    if !missing.is_empty() {
        return Err(missing);
    }
    inputs.extend(strings.iter().map(|s| Input {
        name: STRING_INPUT_NAME.into(),
        text: s.clone(),
    }));
    Ok(inputs)
}

/// A file's bytes; `-` is standard input, and a directory reads as empty, as ptxas reads them.
fn read_file(name: &str) -> std::io::Result<Vec<u8>> {
    if std::path::Path::new(name).is_dir() {
        return Ok(Vec::new());
    }
    if name == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)?;
        return Ok(bytes);
    }
    std::fs::read(name)
}
