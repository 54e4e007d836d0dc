//! The rules, checked on any crate directory: the layers between top-level modules, no cycle between
//! top-level modules, no cycle between files. Code compiled into the tests only (`#[cfg(test)]`) is left out:
//! a test may reach further than the code it tests.

use crate::resolve::Reference;
use crate::tree::{Crate, ModulePath, Tree};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// Where the layer table is, for the failure messages.
pub const TABLE: &str = "LIBRARY_LAYERS / BINARY_LAYERS in tests/architecture/main.rs";

/// Top-level modules in groups, lowest first: a module may use the modules of its own group and of lower ones.
/// The binary crate's groups sit above all the library's.
pub struct Layers {
    pub library: &'static [&'static [&'static str]],
    pub binary: &'static [&'static [&'static str]],
}

impl Layers {
    /// The group of a top-level module, counted from 1 (the binary's above the library's).
    fn group(&self, krate: Crate, name: &str) -> Option<usize> {
        let (table, below) = match krate {
            Crate::Library => (self.library, 0),
            Crate::Binary => (self.binary, self.library.len()),
        };
        table
            .iter()
            .position(|g| g.contains(&name))
            .map(|i| below + i + 1)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A file that could not be read or parsed, or a `mod x;` with no file.
    Unread,
    /// A top-level module missing from the layer table, or a table entry naming no module.
    Table,
    Layer,
    ModuleCycle,
    FileCycle,
}

/// One broken rule: the places it names (`src/gjk/mod.rs:12`, a cycle's steps in order) and what to do.
#[derive(Debug)]
pub struct Finding {
    pub rule: Rule,
    pub places: Vec<String>,
    pub message: String,
}

/// Every broken rule in the crate at `root` (the directory holding `src/`).
pub fn check(root: &Path, layers: &Layers) -> Vec<Finding> {
    let tree = Tree::read(root);
    let mut findings: Vec<Finding> = tree
        .problems
        .iter()
        .map(|p| Finding {
            rule: Rule::Unread,
            places: vec![p.clone()],
            message: p.clone(),
        })
        .collect();
    let references: Vec<Reference> = tree
        .references()
        .into_iter()
        .filter(|r| !r.test_only)
        .collect();
    findings.extend(table_gaps(&tree, layers));
    findings.extend(layer_breaks(&tree, &references, layers));
    let top = |m: &ModulePath| {
        let path = m.path.first()?.clone();
        Some(ModulePath {
            krate: m.krate,
            path: vec![path],
        })
    };
    let modules = edges(&tree, &references, |r| {
        Some((top(&r.from)?, top(&r.target)?))
    });
    findings.extend(cycles(&modules).into_iter().map(|(cycle, knot)| {
        let mut places: Vec<String> = cycle
            .iter()
            .map(|(m, at)| format!("{m} (at {at})"))
            .collect();
        places.push(cycle[0].0.to_string());
        Finding {
            rule: Rule::ModuleCycle,
            message: format!(
                "{}{}",
                places.join(" -> "),
                knot_note(&knot, cycle.len(), |m| m.to_string()),
            ),
            places,
        }
    }));
    let file = |m: &ModulePath| tree.files[tree.file_of(m)].display().to_string();
    let files = edges(&tree, &references, |r| {
        Some((file(&r.from), file(&r.target)))
    });
    findings.extend(cycles(&files).into_iter().map(|(cycle, knot)| {
        let mut places: Vec<String> = cycle.iter().map(|(_, at)| at.clone()).collect();
        places.push(cycle[0].0.clone());
        Finding {
            rule: Rule::FileCycle,
            message: format!(
                "{}{}",
                places.join(" -> "),
                knot_note(&knot, cycle.len(), |f| f.clone()),
            ),
            places,
        }
    }));
    findings
}

/// The failure message for `findings`: each broken rule, what it says and how to mend it, then where.
pub fn report(findings: &[Finding]) -> String {
    let mut text = format!(
        "{} architecture finding(s) (tests/architecture/):\n",
        findings.len()
    );
    for rule in [
        Rule::Unread,
        Rule::Table,
        Rule::Layer,
        Rule::ModuleCycle,
        Rule::FileCycle,
    ] {
        let broken: Vec<&Finding> = findings.iter().filter(|f| f.rule == rule).collect();
        if !broken.is_empty() {
            text += &format!("\n{}\n", advice(rule));
            broken
                .iter()
                .for_each(|f| text += &format!("  - {}\n", f.message));
        }
    }
    text
}

fn advice(rule: Rule) -> String {
    match rule {
        Rule::Unread => "Unread: every module file must be found and parse as Rust, or the checks see nothing of \
                         it."
            .to_owned(),
        Rule::Table => format!("Table: every top-level module has one group in {TABLE}, and only those: add or \
                                remove the entry."),
        Rule::Layer => format!("Layer: a module may use only modules of its own or a lower group of {TABLE}. Move \
                                what it needs down to its group or below (or the using code up); if the layering \
                                changed on purpose, edit the table."),
        Rule::ModuleCycle => "Module cycle: top-level modules depend one way. Move what the lower module needs \
                              from the higher one down into it (or into a module below both)."
            .to_owned(),
        Rule::FileCycle => "File cycle: files depend one way (a folder's parent file above its children, as it \
                            re-exports them). Move the item the lower file needs (a constant, a type) down into \
                            it, or into a new file below both, and re-export it where it was."
            .to_owned(),
    }
}

fn table_gaps(tree: &Tree, layers: &Layers) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (krate, table) in [
        (Crate::Library, layers.library),
        (Crate::Binary, layers.binary),
    ] {
        let tops: BTreeSet<&str> = tree
            .modules
            .keys()
            .filter(|m| m.krate == krate && m.path.len() == 1)
            .map(|m| m.path[0].as_str())
            .collect();
        let listed: BTreeSet<&str> = table.iter().flat_map(|g| g.iter().copied()).collect();
        for missing in tops.difference(&listed) {
            let file = &tree.files[tree.file_of(&ModulePath {
                krate,
                path: vec![missing.to_string()],
            })];
            findings.push(Finding {
                rule: Rule::Table,
                places: vec![file.display().to_string()],
                message: format!("{krate:?} module `{missing}` has no group"),
            });
        }
        for stale in listed.difference(&tops) {
            findings.push(Finding {
                rule: Rule::Table,
                places: vec![],
                message: format!(
                    "{TABLE} names `{stale}`, which the {krate:?} crate does not declare."
                ),
            });
        }
    }
    findings
}

fn layer_breaks(tree: &Tree, references: &[Reference], layers: &Layers) -> Vec<Finding> {
    let mut findings = Vec::new();
    for r in references {
        // A crate root may use everything; the binary may use the whole library.
        let Some(from) = r.from.path.first() else {
            continue;
        };
        if r.from.krate == Crate::Binary && r.target.krate == Crate::Library {
            continue;
        }
        let to = r.target.path.first();
        if to == Some(from) {
            continue;
        }
        let Some(from_group) = layers.group(r.from.krate, from) else {
            continue;
        };
        let to_group = match to {
            Some(to) => layers.group(r.target.krate, to),
            None => Some(usize::MAX),
        };
        let Some(to_group) = to_group.filter(|g| *g > from_group) else {
            continue;
        };
        let at = format!("{}:{}", tree.files[r.file].display(), r.line);
        let group = |g: usize| match g {
            usize::MAX => "the crate root, above every group".to_owned(),
            g => format!("group {g}"),
        };
        findings.push(Finding {
            rule: Rule::Layer,
            message: format!(
                "{at}: `{from}` ({}) uses `{}` ({}) through `{}`",
                group(from_group),
                to.map_or("crate", |t| t.as_str()),
                group(to_group),
                r.written,
            ),
            places: vec![at],
        });
    }
    findings
}

/// The graph `node` draws from the references: for each edge, where it is first written (`file:line: path`).
fn edges<N: Ord>(
    tree: &Tree,
    references: &[Reference],
    node: impl Fn(&Reference) -> Option<(N, N)>,
) -> BTreeMap<N, BTreeMap<N, String>> {
    let mut graph: BTreeMap<N, BTreeMap<N, String>> = BTreeMap::new();
    for r in references {
        let Some((from, to)) = node(r) else { continue };
        if from == to {
            continue;
        }
        let at = format!(
            "{}:{} `{}`",
            tree.files[r.file].display(),
            r.line,
            r.written
        );
        graph.entry(from).or_default().entry(to).or_insert(at);
    }
    graph
}

/// One step of a cycle: the node, and where it uses the next one.
type Step<N> = (N, String);

/// A shortest cycle through the first node of each knot (strongly connected set of more than one node), and
/// the knot's nodes.
fn cycles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeMap<N, String>>) -> Vec<(Vec<Step<N>>, Vec<N>)> {
    let nodes: Vec<N> = graph
        .keys()
        .chain(graph.values().flat_map(|e| e.keys()))
        .cloned()
        .collect();
    let nodes: Vec<N> = nodes
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index = |n: &N| nodes.binary_search(n).expect("a node");
    let adjacent: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph
                .get(n)
                .map_or(Vec::new(), |e| e.keys().map(index).collect())
        })
        .collect();
    let mut out = Vec::new();
    for mut knot in tarjan(&adjacent).into_iter().filter(|k| k.len() > 1) {
        knot.sort_unstable();
        let cycle = shortest_cycle(&adjacent, &knot);
        let steps = cycle
            .iter()
            .zip(cycle.iter().cycle().skip(1))
            .map(|(&a, &b)| (nodes[a].clone(), graph[&nodes[a]][&nodes[b]].clone()))
            .collect();
        out.push((steps, knot.into_iter().map(|k| nodes[k].clone()).collect()));
    }
    out
}

/// Tarjan's strongly connected components.
fn tarjan(adjacent: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        adjacent: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    impl State<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            let adjacent = self.adjacent;
            for &w in &adjacent[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if self.index[v] == Some(self.low[v]) {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.out.push(component);
            }
        }
    }
    let n = adjacent.len();
    let mut state = State {
        adjacent,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if state.index[v].is_none() {
            state.visit(v);
        }
    }
    state.out
}

/// A shortest cycle through `knot[0]` inside the knot (breadth first).
fn shortest_cycle(adjacent: &[Vec<usize>], knot: &[usize]) -> Vec<usize> {
    let start = knot[0];
    let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &adjacent[v] {
            if w == start {
                let mut cycle = vec![v];
                while let Some(&p) = parent.get(cycle.last().expect("a node")) {
                    cycle.push(p);
                }
                cycle.reverse();
                return cycle;
            }
            if knot.binary_search(&w).is_ok() && !parent.contains_key(&w) {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    unreachable!("a strongly connected set of two or more nodes has a cycle through each")
}

/// The whole knot, when it holds more than the cycle shown.
fn knot_note<N>(knot: &[N], cycle: usize, name: impl Fn(&N) -> String) -> String {
    match knot.len() {
        n if n <= cycle => String::new(),
        n => format!(
            "\n  (one cycle of a knot of {n}: {})",
            knot.iter().map(name).collect::<Vec<_>>().join(", ")
        ),
    }
}
