//! How close any JSON Lines path can come to the compute it feeds, on this machine: the `bench --io` mix answered
//! on one thread, timed in rounds next to the least work a reader and a writer of that file must do.
//!
//! `cargo bench --bench jsonl_floor` (`-- --rounds N`, default 31). It writes the mix of `gpu-gjk bench --io
//! --pairs 21000 --max-hull-points 640` (seed 1, 80.3 MB) to a temporary folder, parses and answers it once, and
//! then each round times, one after the other:
//! - compute only: the parsed pairs answered on one thread ([`answer_pairs`], what `bench --io` calls compute
//!   only);
//! - read: the file through a 256 KiB buffer, as `query`'s typed reader reads it (the kernel copies it out of the
//!   page cache);
//! - read and recognise: the same, plus finding each line's two point lists and its end, and recognising each
//!   list among the distinct ones (a hash of its first bytes, then a byte comparison, which also finds where
//!   it ends): how the typed reader knows a repeated shape without reading its numbers, with every byte looked
//!   at once. No number is converted;
//! - format: every float of the answers by zmij (the shortest round-trip formatter the writer uses), no JSON
//!   around them;
//! - write: the answers' bytes to a file, 1 MiB at a time;
//! - for comparison, what `query` does in those places: the typed reader on the file already in memory (every
//!   number converted, every shape placed), and the answer lines laid out by the writer's `push_result`.
//!
//! It prints the medians and the largest share of compute only that a JSON Lines path could reach here,
//! compute / (compute + read and recognise + format + write): a path that also converts the poses' numbers,
//! places the shapes and lays out the answer lines can only do worse.

use gpu_gjk::io::answers::push_result;
use gpu_gjk::io::batch::{answer_pairs, Executor};
use gpu_gjk::io::jsonl::write_mix_file;
use gpu_gjk::io::jsonl::{parse_input, ParsedLine};
use gpu_gjk::query::AnswerKind;
use gpu_gjk::scenario::MixSpec;
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;
use std::io::{Read, Write};
use std::path::Path;
use std::time::Instant;

/// The typed reader's block on one thread.
const BLOCK: usize = 256 * 1024;
/// Point lists are looked up by a hash of this many first bytes, as the typed reader's cache does.
const KEY_BYTES: usize = 9;
const POINTS_KEY: &[u8] = b"\"points\":";

/// The distinct point lists of the file, as written.
#[derive(Default)]
struct Lists(FxHashMap<u64, Vec<Box<[u8]>>>);

impl Lists {
    fn key(text: &[u8]) -> u64 {
        rustc_hash::FxBuildHasher.hash_one(&text[..KEY_BYTES])
    }

    /// The length of the known list `text` starts with.
    fn recognise(&self, text: &[u8]) -> usize {
        let found = self.0.get(&Self::key(text));
        let list = found.and_then(|lists| lists.iter().find(|l| text.starts_with(l)));
        list.expect("every list was seen when the file was set up")
            .len()
    }

    /// Learns every point list of `text`'s lines (each ends at its first `]]`: numbers hold no bracket).
    fn learn(text: &[u8]) -> Self {
        let mut lists = Self::default();
        for line in text.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
            let _ = for_each_list(line, |at| {
                let len = memchr::memmem::find(&line[at..], b"]]").expect("a point list") + 2;
                let list: Box<[u8]> = line[at..at + len].into();
                let same_key = lists.0.entry(Self::key(&list)).or_default();
                if !same_key.contains(&list) {
                    same_key.push(list);
                }
                len
            });
        }
        lists
    }
}

/// Calls `list` with where each of the line's two point lists starts (it returns the list's length); returns
/// where the second list ends.
fn for_each_list(line: &[u8], mut list: impl FnMut(usize) -> usize) -> usize {
    let mut at = 0;
    for _ in 0..2 {
        let start = at
            + memchr::memmem::find(&line[at..], POINTS_KEY).expect("two shapes a line")
            + POINTS_KEY.len();
        at = start + list(start);
    }
    at
}

/// Reads `path` block by block; with `lists`, also recognises every line's point lists and finds its end.
/// Returns a count that depends on all of it.
///
/// Each byte is looked at once: a point list is recognised by comparing it with the known one (which also
/// finds where it ends), and only the short rest of the line (the pose) is searched for the line's end. The
/// last complete line of a block is found from the block's end, backwards over the partial line after it.
fn read_file(path: &Path, lists: Option<&Lists>) -> usize {
    let mut file = std::fs::File::open(path).expect("the mix file");
    let mut buffer = vec![0u8; 2 * BLOCK];
    let (mut held, mut count) = (0, 0);
    loop {
        if held + BLOCK > buffer.len() {
            buffer.resize(held + BLOCK, 0);
        }
        let n = file.read(&mut buffer[held..held + BLOCK]).expect("read");
        if n == 0 {
            return count;
        }
        held += n;
        count += n;
        let Some(lists) = lists else {
            held = 0;
            continue;
        };
        let Some(last) = memchr::memrchr(b'\n', &buffer[..held]) else {
            continue;
        };
        let mut start = 0;
        while start < last {
            let lines = &buffer[start..=last];
            let pose = for_each_list(lines, |at| {
                let len = lists.recognise(&lines[at..]);
                count += len;
                len
            });
            let end = pose + memchr::memchr(b'\n', &lines[pose..]).expect("a line end");
            start += end + 1;
        }
        buffer.copy_within(last + 1..held, 0);
        held -= last + 1;
    }
}

/// Every float of the answer lines, as the writer formatted them.
fn answer_floats(answers: &[u8]) -> Vec<f64> {
    let text = std::str::from_utf8(answers).expect("UTF-8 answers");
    text.split(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | 'e')))
        .filter(|token| token.contains('.'))
        .map(|token| token.parse().expect("a float"))
        .collect()
}

fn median_ms(mut seconds: Vec<f64>) -> [f64; 3] {
    seconds.sort_by(f64::total_cmp);
    [1, 2, 3].map(|q| seconds[q * (seconds.len() - 1) / 4] * 1e3)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let rounds = match args.iter().position(|a| a == "--rounds") {
        Some(i) => args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(31),
        None => 31,
    };
    let dir = std::env::temp_dir().join(format!("gpu-gjk-jsonl-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (input, output) = (dir.join("mix.jsonl"), dir.join("answers.jsonl"));
    let mix = MixSpec {
        hull_points: (8, 640),
        ..MixSpec::default()
    };
    let bytes = write_mix_file(&input, 1, 21_000, &mix)?;
    let text = std::fs::read(&input)?;
    let lists = Lists::learn(&text);
    let exec = Executor::Single;
    let parsed = parse_input(&text, &exec);
    let pairs: Vec<_> = parsed
        .iter()
        .filter_map(|line| match line {
            ParsedLine::Pair(pair) => Some(pair),
            _ => None,
        })
        .collect();
    let (results, _) = answer_pairs(&pairs, AnswerKind::Penetration, &exec);
    let mut answers = Vec::new();
    for (r, hit) in &results {
        push_result(&mut answers, r, hit.as_ref());
    }
    let floats = answer_floats(&answers);
    println!(
        "{} pairs, a {:.1} MB file, {} distinct point lists; answers {:.1} MB with {} floats; {rounds} rounds",
        pairs.len(),
        bytes as f64 / 1e6,
        lists.0.values().map(Vec::len).sum::<usize>(),
        answers.len() as f64 / 1e6,
        floats.len()
    );

    let mut times = vec![Vec::new(); 7];
    let mut formatted = Vec::with_capacity(answers.len());
    for _ in 0..rounds {
        let start = Instant::now();
        let (answered, _) = answer_pairs(&pairs, AnswerKind::Penetration, &exec);
        times[0].push(start.elapsed().as_secs_f64());
        drop(answered);

        let start = Instant::now();
        std::hint::black_box(read_file(&input, None));
        times[1].push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        std::hint::black_box(read_file(&input, Some(&lists)));
        times[2].push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        formatted.clear();
        let mut buffer = zmij::Buffer::new();
        for &x in &floats {
            formatted.extend_from_slice(buffer.format_finite(x).as_bytes());
        }
        std::hint::black_box(&formatted);
        times[3].push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        let mut file = std::fs::File::create(&output)?;
        for chunk in answers.chunks(1 << 20) {
            file.write_all(chunk)?;
        }
        drop(file);
        times[4].push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        std::hint::black_box(parse_input(&text, &exec));
        times[5].push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        formatted.clear();
        for (r, hit) in &results {
            push_result(&mut formatted, r, hit.as_ref());
        }
        std::hint::black_box(&formatted);
        times[6].push(start.elapsed().as_secs_f64());
    }
    std::fs::remove_dir_all(&dir)?;

    let names = [
        "compute only (one thread)",
        "read (kernel copy, 256 KiB blocks)",
        "read and recognise (lines, point lists)",
        "format the answers' floats (zmij)",
        "write the answers (1 MiB chunks)",
        "for comparison: the typed reader on the file in memory",
        "for comparison: the answer lines laid out (push_result)",
    ];
    let medians: Vec<[f64; 3]> = times.into_iter().map(median_ms).collect();
    println!("| stage | median ms | quartiles |\n|---|---:|---:|");
    for (name, [low, mid, high]) in names.iter().zip(&medians) {
        println!("| {name} | {mid:.2} | {low:.2}-{high:.2} |");
    }
    let compute = medians[0][1];
    let floor = medians[2][1] + medians[3][1] + medians[4][1];
    println!(
        "floor outside compute {floor:.2} ms: a JSON Lines path reaches at most {:.0}% of compute only here",
        100.0 * compute / (compute + floor)
    );
    Ok(())
}
