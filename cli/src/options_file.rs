//! `--options-file F,...` (`-optf`): command-line words read from files, in ptxas's syntax.
//!
//! Words are separated by white space (newlines included); `"..."` keeps white space inside a
//! word and the quotes are dropped; a backslash takes the next character as it is. There are no
//! comments: `#` is an ordinary word. Files may name further options files.

use std::collections::VecDeque;

/// Reads the comma-separated options files and puts their words at the front of `rest`, in order.
/// `too_many` is set once the command line has opened more files than ptxas allows.
pub fn splice(names: &str, rest: &mut VecDeque<String>, too_many: bool) -> Result<(), String> {
    let mut words = Vec::new();
    for name in names.split(',') {
        if too_many {
            return Err(format!("Too many options file opened '{name}'"));
        }
        let text =
            std::fs::read(name).map_err(|_| format!("Could not open options file '{name}'"))?;
        words.extend(split_words(&String::from_utf8_lossy(&text))?);
    }
    for w in words.into_iter().rev() {
        rest.push_front(w);
    }
    Ok(())
}

/// Splits an options file's text into words.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '\\' => {
                word.extend(chars.next());
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err("Stray '\"' character".into());
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split_words;

    #[test]
    fn words_quotes_and_escapes() {
        assert_eq!(
            split_words("-arch=sm_80\n-O2   -o x.o\n").unwrap(),
            ["-arch=sm_80", "-O2", "-o", "x.o"]
        );
        assert_eq!(
            split_words("-o \"a b.o\" -arch=\"sm_80\"").unwrap(),
            ["-o", "a b.o", "-arch=sm_80"]
        );
        assert_eq!(
            split_words("a\\ b.o \\\\x # c").unwrap(),
            ["a b.o", "\\x", "#", "c"]
        );
        assert_eq!(split_words("\"\"").unwrap(), [""]);
        assert_eq!(
            split_words("-o \"open").unwrap_err(),
            "Stray '\"' character"
        );
        assert!(split_words("").unwrap().is_empty());
    }
}
