//! The module trees of the two crate roots (`src/lib.rs`, `src/main.rs`) read as syntax trees: every module
//! file they declare (`mod x;`, `#[path]`, `#[cfg(..)]`-gated ones included), every inline module, and every
//! path written in them (`use` trees, paths in expressions, types and patterns, paths in macro arguments).

use proc_macro2::{Spacing, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::{self, Visit};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Crate {
    /// `src/lib.rs`, the crate `gpu_gjk`.
    Library,
    /// `src/main.rs`, the crate `gpu-gjk`; `gpu_gjk::` in it means the library.
    Binary,
}

/// A module's full name: its crate and its path from the crate root (empty for the root).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModulePath {
    pub krate: Crate,
    pub path: Vec<String>,
}

impl std::fmt::Display for ModulePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let root = match self.krate {
            Crate::Library => "crate (src/lib.rs)",
            Crate::Binary => "crate (src/main.rs)",
        };
        match self.path.is_empty() {
            true => write!(f, "{root}"),
            false => write!(f, "{}", self.path.join("::")),
        }
    }
}

/// A module, file or inline, and the names it brings in.
#[derive(Default)]
pub struct Module {
    /// The file it is written in (an index into `Tree::files`).
    pub file: usize,
    pub children: BTreeSet<String>,
    /// Each name a `use` brings in (its last segment, or its `as` name), with the path as written.
    pub aliases: BTreeMap<String, Vec<String>>,
    /// The paths of its `use x::*`, as written.
    pub globs: Vec<Vec<String>>,
    /// The names of the items defined in it (types, functions, constants, ...).
    pub items: BTreeSet<String>,
}

/// A path as written in a source file.
pub struct Written {
    pub file: usize,
    pub line: usize,
    /// The module whose scope the path is written in (an inline module's, inside one).
    pub scope: ModulePath,
    pub segments: Vec<String>,
    /// Under an item gated by `#[cfg(test)]` (or a `#[test]` function): compiled into the tests only.
    pub test_only: bool,
}

/// The crates' files, modules and written paths, read from a crate directory (the one holding `src/`).
pub struct Tree {
    pub root: PathBuf,
    /// Paths relative to `root`, like `src/gpu/marks.rs`.
    pub files: Vec<PathBuf>,
    pub modules: BTreeMap<ModulePath, Module>,
    pub written: Vec<Written>,
    /// Files that could not be read or parsed, and `mod x;` with no file: the checks cannot be trusted then.
    pub problems: Vec<String>,
}

impl Tree {
    pub fn read(root: &Path) -> Tree {
        let mut tree = Tree {
            root: root.to_path_buf(),
            files: Vec::new(),
            modules: BTreeMap::new(),
            written: Vec::new(),
            problems: Vec::new(),
        };
        for (krate, file) in [
            (Crate::Library, "src/lib.rs"),
            (Crate::Binary, "src/main.rs"),
        ] {
            if root.join(file).exists() {
                let module = ModulePath {
                    krate,
                    path: Vec::new(),
                };
                tree.load(PathBuf::from(file), true, module, false);
            }
        }
        tree
    }

    /// Reads one module file, then the module files it declares. `owns_directory`: its children live in its
    /// own directory (`lib.rs`, `main.rs`, `mod.rs`, a `#[path]` file) rather than in one named after it.
    fn load(&mut self, file: PathBuf, owns_directory: bool, module: ModulePath, test_only: bool) {
        let index = self.files.len();
        self.files.push(file.clone());
        self.modules.entry(module.clone()).or_default().file = index;
        let text = match std::fs::read_to_string(self.root.join(&file)) {
            Ok(text) => text,
            Err(e) => return self.problems.push(format!("{}: {e}", file.display())),
        };
        let syntax = match syn::parse_file(&text) {
            Ok(syntax) => syntax,
            Err(e) => {
                let line = e.span().start().line;
                return self
                    .problems
                    .push(format!("{}:{line}: {e}", file.display()));
            }
        };
        let mut collector = Collector {
            tree: self,
            file: index,
            scope: module,
            inline: Vec::new(),
            test_depth: usize::from(test_only),
            declared: Vec::new(),
        };
        collector.visit_file(&syntax);
        for child in std::mem::take(&mut collector.declared) {
            let candidates = child_files(&file, owns_directory, &child);
            match candidates.iter().find(|c| self.root.join(c).is_file()) {
                Some(found) => {
                    let owns = child.path_attribute.is_some()
                        || found.file_name().is_some_and(|n| n == "mod.rs");
                    self.load(found.clone(), owns, child.module, child.test_only);
                }
                None => self.problems.push(format!(
                    "{}:{}: `mod {};` has no file (looked for {})",
                    file.display(),
                    child.line,
                    child.module.path.last().map_or("", |n| n.as_str()),
                    candidates
                        .iter()
                        .map(|c| c.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
    }
}

/// A `mod x;` declaration, to be read from its own file.
struct Declared {
    module: ModulePath,
    /// The inline modules around the declaration, within its file.
    inline: Vec<String>,
    path_attribute: Option<String>,
    test_only: bool,
    line: usize,
}

/// Where the file of a `mod x;` written in `parent` may be, first choice first (the reference's rules).
fn child_files(parent: &Path, owns_directory: bool, child: &Declared) -> Vec<PathBuf> {
    let directory = parent.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut base = directory.clone();
    if !owns_directory {
        base.push(parent.file_stem().unwrap_or_default());
    }
    base.extend(&child.inline);
    match (&child.path_attribute, child.inline.is_empty()) {
        (Some(path), true) => vec![directory.join(path)],
        (Some(path), false) => vec![base.join(path)],
        (None, _) => {
            let name = child.module.path.last().expect("a child module has a name");
            vec![
                base.join(format!("{name}.rs")),
                base.join(name).join("mod.rs"),
            ]
        }
    }
}

struct Collector<'t> {
    tree: &'t mut Tree,
    file: usize,
    scope: ModulePath,
    inline: Vec<String>,
    /// How many `#[cfg(test)]` items surround the visit.
    test_depth: usize,
    declared: Vec<Declared>,
}

impl Collector<'_> {
    fn record(&mut self, segments: Vec<String>, line: usize) {
        self.tree.written.push(Written {
            file: self.file,
            line,
            scope: self.scope.clone(),
            segments,
            test_only: self.test_depth > 0,
        });
    }

    fn module(&mut self) -> &mut Module {
        self.tree.modules.entry(self.scope.clone()).or_default()
    }

    /// Each leaf of a `use` tree, with the name it brings in.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        use syn::UseTree;
        let (ident, rename) = match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
                return;
            }
            UseTree::Group(g) => return g.items.iter().for_each(|t| self.use_tree(prefix, t)),
            UseTree::Glob(g) => {
                let line = g.star_token.span.start().line;
                self.record(prefix.clone(), line);
                let glob = prefix.clone();
                return self.module().globs.push(glob);
            }
            UseTree::Name(n) => (&n.ident, None),
            UseTree::Rename(r) => (&r.ident, Some(&r.rename)),
        };
        let mut full = prefix.clone();
        if ident != "self" {
            full.push(ident.to_string());
        }
        self.record(full.clone(), ident.span().start().line);
        let name = rename.map_or_else(|| full.last().cloned(), |r| Some(r.to_string()));
        if let Some(name) = name.filter(|n| n != "_") {
            self.module().aliases.entry(name).or_insert(full);
        }
    }

    /// Paths in a macro's tokens (`assert_eq!(crate::x::y(), ..)`): runs of `a::b::c`, in every group.
    fn scan(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.scan(g.stream()),
                TokenTree::Ident(first) => {
                    let mut segments = vec![first.to_string()];
                    while let [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(next), ..] =
                        &trees[i + 1..]
                    {
                        if a.as_char() != ':' || a.spacing() != Spacing::Joint || b.as_char() != ':'
                        {
                            break;
                        }
                        segments.push(next.to_string());
                        i += 3;
                    }
                    if segments.len() >= 2 {
                        self.record(segments, first.span().start().line);
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// `#[cfg(test)]`, `#[cfg(all(test, ..))]` (not `#[cfg(not(test))]`) and `#[test]`.
fn test_only(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|a| {
        if a.path().is_ident("test") {
            return true;
        }
        let syn::Meta::List(list) = &a.meta else {
            return false;
        };
        let idents = |t: &TokenStream| {
            let mut out = Vec::new();
            collect_idents(t.clone(), &mut out);
            out
        };
        let words = idents(&list.tokens);
        list.path.is_ident("cfg")
            && words.iter().any(|w| w == "test")
            && !words.iter().any(|w| w == "not")
    })
}

fn collect_idents(tokens: TokenStream, out: &mut Vec<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

fn item_attributes(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines in its module's namespace (`use`, `mod` and `impl` aside).
fn item_name(item: &syn::Item) -> Option<&syn::Ident> {
    use syn::Item;
    match item {
        Item::Const(i) => Some(&i.ident),
        Item::Enum(i) => Some(&i.ident),
        Item::Fn(i) => Some(&i.sig.ident),
        Item::Macro(i) => i.ident.as_ref(),
        Item::Static(i) => Some(&i.ident),
        Item::Struct(i) => Some(&i.ident),
        Item::Trait(i) => Some(&i.ident),
        Item::TraitAlias(i) => Some(&i.ident),
        Item::Type(i) => Some(&i.ident),
        Item::Union(i) => Some(&i.ident),
        _ => None,
    }
}

fn impl_item_attributes(item: &syn::ImplItem) -> &[syn::Attribute] {
    use syn::ImplItem;
    match item {
        ImplItem::Const(i) => &i.attrs,
        ImplItem::Fn(i) => &i.attrs,
        ImplItem::Type(i) => &i.attrs,
        ImplItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

fn path_attribute(attributes: &[syn::Attribute]) -> Option<String> {
    attributes.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let test = test_only(item_attributes(item));
        if let Some(name) = item_name(item) {
            self.module().items.insert(name.to_string());
        }
        self.test_depth += usize::from(test);
        visit::visit_item(self, item);
        self.test_depth -= usize::from(test);
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let test = test_only(impl_item_attributes(item));
        self.test_depth += usize::from(test);
        visit::visit_impl_item(self, item);
        self.test_depth -= usize::from(test);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let name = item.ident.to_string();
        self.module().children.insert(name.clone());
        let mut module = self.scope.clone();
        module.path.push(name.clone());
        let Some((_, items)) = &item.content else {
            return self.declared.push(Declared {
                module,
                inline: self.inline.clone(),
                path_attribute: path_attribute(&item.attrs),
                test_only: self.test_depth > 0,
                line: item.ident.span().start().line,
            });
        };
        let outer = std::mem::replace(&mut self.scope, module);
        self.module().file = self.file;
        self.inline.push(name);
        items.iter().for_each(|i| self.visit_item(i));
        self.inline.pop();
        self.scope = outer;
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        if item.leading_colon.is_some() {
            prefix.push("::".to_owned());
        }
        self.use_tree(&mut prefix, &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() >= 2 && path.leading_colon.is_none() {
            let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.record(segments, path.segments[0].ident.span().start().line);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.scan(mac.tokens.clone());
    }

    /// `pub(in crate::x)` names where an item is visible, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
}
