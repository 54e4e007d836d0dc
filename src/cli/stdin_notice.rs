//! What a command that reads JSON Lines says when it waits on a terminal: run with no file, `query` reads
//! standard input, and on a terminal that looks like a hang unless it says so.

use crate::io::sink::note;
use std::io::IsTerminal;
use std::path::Path;

/// The line to print (on stderr) before reading `input`, when it is standard input (`-`) and that is a
/// terminal; `None` otherwise (a file, or stdin from a pipe or a redirect, which needs no word).
pub fn stdin_notice(command: &str, input: &Path, stdin_is_terminal: bool) -> Option<String> {
    (input.as_os_str() == "-" && stdin_is_terminal).then(|| {
        format!(
            "gpu-gjk {command}: reading JSON Lines from standard input; end with Ctrl-D, or name a file \
             instead"
        )
    })
}

/// Prints [`stdin_notice`] for this process's standard input, if any.
pub fn say_when_reading_a_terminal(command: &str, input: &Path) {
    if let Some(line) = stdin_notice(command, input, std::io::stdin().is_terminal()) {
        note(format_args!("{line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standard_input_on_a_terminal_gets_the_notice() {
        let line = stdin_notice("query", Path::new("-"), true).unwrap();
        assert!(
            line.contains("standard input") && line.contains("Ctrl-D"),
            "{line}"
        );
        assert!(line.contains("name a file"), "{line}");
        assert!(line.len() <= 100, "{line}");
        assert_eq!(stdin_notice("query", Path::new("-"), false), None);
        assert_eq!(stdin_notice("query", Path::new("pairs.jsonl"), true), None);
        assert_eq!(stdin_notice("query", Path::new("pairs.jsonl"), false), None);
    }
}
