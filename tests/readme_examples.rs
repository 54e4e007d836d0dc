//! The command examples of README.md and docs/commands.md are the binary's real output. Every ```` ```console ````
//! block there holds `$ gpu-gjk ARGS` lines, each followed by the standard output it shows; this test runs each
//! command from the repository root and requires exactly those lines, so an answer that drifts (a digit, a
//! field, an error text) fails here, naming the file and line of the first difference.
//!
//! Examples must be deterministic and self-contained: plain arguments (no quotes, pipes or redirections),
//! `query` on the CPU backend with no `--output`, or `inspect` without files to write.

use std::path::Path;
use std::process::Command;

/// The pages whose console examples are checked. Pages of measurements (docs/benchmarks.md) show runs that
/// differ from machine to machine and are not listed.
const PAGES: [&str; 2] = ["README.md", "docs/commands.md"];

/// One `$ gpu-gjk ...` line and the output lines shown after it.
struct Example {
    page: &'static str,
    /// 1-based line of the `$` line.
    line: usize,
    args: Vec<String>,
    /// The expected output lines with their 1-based line numbers.
    expected: Vec<(usize, String)>,
}

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read_page(page: &str) -> String {
    std::fs::read_to_string(repo_root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The examples of one page, in order.
fn examples(page: &'static str, text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if !in_console {
            in_console = raw.trim_end() == "```console";
            continue;
        }
        if raw.trim_end() == "```" {
            in_console = false;
            continue;
        }
        if let Some(command) = raw.strip_prefix("$ ") {
            found.push(Example {
                page,
                line,
                args: command_args(page, line, command),
                expected: Vec::new(),
            });
        } else {
            let example = found
                .last_mut()
                .filter(|e| e.line < line)
                .unwrap_or_else(|| {
                    panic!("{page}:{line}: a console block must start with `$ gpu-gjk ...`")
                });
            example.expected.push((line, raw.to_owned()));
        }
    }
    assert!(!in_console, "{page}: a ```console block is not closed");
    found
}

/// The arguments after `gpu-gjk`, refusing what a plain argument list cannot express or what would not
/// print the same output on every machine.
fn command_args(page: &str, line: usize, command: &str) -> Vec<String> {
    let mut words = command.split_whitespace();
    assert_eq!(
        words.next(),
        Some("gpu-gjk"),
        "{page}:{line}: console examples run `gpu-gjk`: {command}"
    );
    let args: Vec<String> = words.map(str::to_owned).collect();
    for arg in &args {
        assert!(
            !arg.contains(['\'', '"', '|', '<', '>', ';', '&', '$', '`', '*']),
            "{page}:{line}: `{arg}`: console examples take plain arguments (no quotes, pipes or redirections)"
        );
    }
    let has = |flag: &str| args.iter().any(|a| a == flag);
    match args.first().map(String::as_str) {
        Some("query") => assert!(
            has("--backend") && args.windows(2).any(|w| w == ["--backend", "cpu"]) && !has("--output"),
            "{page}:{line}: a query example runs with `--backend cpu` and prints its answers: {command}"
        ),
        Some("inspect") => assert!(
            !has("--trace") && !has("--screenshot"),
            "{page}:{line}: an inspect example writes no files: {command}"
        ),
        _ => panic!("{page}:{line}: only `query` and `inspect` examples have outputs that can be checked: {command}"),
    }
    args
}

/// Runs one example; `None` when it printed exactly what its page shows, else what differs.
fn check(example: &Example) -> Option<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(&example.args)
        .current_dir(repo_root())
        .env_remove("GPU_GJK_ADAPTER")
        .env_remove("WGPU_BACKEND")
        .output()
        .expect("run gpu-gjk");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let command = format!("gpu-gjk {}", example.args.join(" "));
    let here = format!("{}:{}", example.page, example.line);
    if !stdout.is_empty() && !stdout.ends_with('\n') {
        return Some(format!(
            "{here}: `{command}`: the output does not end with a newline"
        ));
    }
    let actual: Vec<&str> = stdout.split_terminator('\n').collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    for (k, (line, expected)) in example.expected.iter().enumerate() {
        match actual.get(k) {
            Some(got) if got == expected => {}
            Some(got) => {
                let column = first_difference(expected, got) + 1;
                return Some(format!(
                    "{}:{line}: `{command}` prints another line {} (from column {column}):\n  the page: {expected}\n  printed:  {got}\n  stderr: {stderr}",
                    example.page,
                    k + 1
                ));
            }
            None => {
                return Some(format!(
                    "{}:{line}: `{command}` printed {} lines, the page shows {}; missing: {expected}\n  stderr: {stderr}",
                    example.page,
                    actual.len(),
                    example.expected.len()
                ))
            }
        }
    }
    if actual.len() > example.expected.len() {
        return Some(format!(
            "{here}: `{command}` printed {} lines, the page shows {}; the first extra line: {}",
            actual.len(),
            example.expected.len(),
            actual[example.expected.len()]
        ));
    }
    None
}

/// The 0-based character index where two lines first differ.
fn first_difference(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

#[test]
fn command_examples_print_what_the_pages_show() {
    let mut failures = Vec::new();
    for page in PAGES {
        let found = examples(page, &read_page(page));
        assert!(!found.is_empty(), "{page}: no ```console example found");
        for example in &found {
            assert!(
                !example.expected.is_empty(),
                "{page}:{}: an example shows no output",
                example.line
            );
            failures.extend(check(example));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// docs/commands.md shows the sample file's pairs before their answers: the two must stay the same text.
#[test]
fn the_query_input_shown_is_the_sample_file() {
    let page = read_page("docs/commands.md");
    let section = &page[page.find("## `gpu-gjk query`").expect("the query section")..];
    let shown = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the input example");
    let sample = std::fs::read_to_string(repo_root().join("examples/data/pairs.jsonl")).unwrap();
    assert_eq!(
        shown, sample,
        "docs/commands.md's query input is not examples/data/pairs.jsonl"
    );
}

/// The parser itself: blank output lines belong to the example, a second `$` line starts another.
#[test]
fn console_blocks_are_read_line_by_line() {
    let text = "intro\n```console\n$ gpu-gjk inspect a.jsonl\nfirst\n\nthird\n$ gpu-gjk query b.jsonl --backend cpu\nonly\n```\n";
    let found = examples("page.md", text);
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].line, found[0].args.join(" ")),
        (3, "inspect a.jsonl".into())
    );
    let lines: Vec<(usize, &str)> = found[0]
        .expected
        .iter()
        .map(|(n, s)| (*n, s.as_str()))
        .collect();
    assert_eq!(lines, [(4, "first"), (5, ""), (6, "third")]);
    assert_eq!(found[1].expected, [(8, "only".to_owned())]);
}
