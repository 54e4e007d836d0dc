//! Written paths resolved to the modules they land in: `crate::`, `self::`, `super::` chains, `gpu_gjk::` (the
//! library, from the binary), child modules, and names brought in by `use` (re-exports followed, so
//! `crate::GjkConfig` lands in `gjk`).

use crate::tree::{Crate, ModulePath, Tree};

/// How many `use` names one path may go through (a loop of re-exports stops here).
const MAX_HOPS: usize = 16;

/// A path that lands in one of the crates' modules.
pub struct Reference {
    pub file: usize,
    pub line: usize,
    /// The path as written, like `super::super::gpu::Mark`.
    pub written: String,
    pub from: ModulePath,
    /// The deepest module the path names (`crate::gpu::pipeline::Pipelines::new` lands in `gpu::pipeline`).
    pub target: ModulePath,
    pub test_only: bool,
}

impl Tree {
    /// Every written path that lands in a module of the crates (paths into `std`, dependencies and local
    /// items are left out).
    pub fn references(&self) -> Vec<Reference> {
        self.written
            .iter()
            .filter_map(|w| {
                let target = self.resolve(&w.scope, &w.segments, 0)?;
                Some(Reference {
                    file: w.file,
                    line: w.line,
                    written: w.segments.join("::"),
                    from: w.scope.clone(),
                    target,
                    test_only: w.test_only,
                })
            })
            .collect()
    }

    /// The file a module is written in (an inline module's is its parent's).
    pub fn file_of(&self, module: &ModulePath) -> usize {
        self.modules[module].file
    }

    /// The module that `segments`, written in `scope`, lands in.
    fn resolve(&self, scope: &ModulePath, segments: &[String], hops: usize) -> Option<ModulePath> {
        let (krate, path) = self.absolute(scope, segments, hops)?;
        self.land(krate, path, hops)
    }

    /// `segments` as a path from a crate root.
    fn absolute(
        &self,
        scope: &ModulePath,
        segments: &[String],
        hops: usize,
    ) -> Option<(Crate, Vec<String>)> {
        let (first, rest) = segments.split_first()?;
        let joined = |base: &[String], rest: &[String]| [base, rest].concat();
        match first.as_str() {
            "crate" => Some((scope.krate, rest.to_vec())),
            "gpu_gjk" => Some((Crate::Library, rest.to_vec())),
            "self" => self
                .absolute(scope, rest, hops)
                .or(Some((scope.krate, scope.path.clone()))),
            "super" => {
                let mut base = scope.path.clone();
                let mut rest = segments;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                Some((scope.krate, joined(&base, rest)))
            }
            _ if hops >= MAX_HOPS => None,
            name => {
                let module = self.modules.get(scope)?;
                if module.children.contains(name) || module.items.contains(name) {
                    return Some((scope.krate, joined(&scope.path, segments)));
                }
                if let Some(alias) = module.aliases.get(name) {
                    let (krate, base) = self.absolute(scope, alias, hops + 1)?;
                    return Some((krate, joined(&base, rest)));
                }
                // `use super::*;` and the like: the name may come from the glob's module.
                module.globs.iter().find_map(|glob| {
                    let from = self.resolve(scope, glob, hops + 1)?;
                    let there = self.modules.get(&from)?;
                    there
                        .defines(name)
                        .then(|| self.absolute(&from, segments, hops + 1))
                        .flatten()
                })
            }
        }
    }

    /// The deepest module a path from a crate root names, through the `use` names (re-exports) it meets.
    fn land(&self, krate: Crate, path: Vec<String>, hops: usize) -> Option<ModulePath> {
        let mut depth = path.len();
        let module = loop {
            let candidate = ModulePath {
                krate,
                path: path[..depth].to_vec(),
            };
            if self.modules.contains_key(&candidate) {
                break candidate;
            }
            depth = depth.checked_sub(1)?;
        };
        let Some(next) = path.get(depth) else {
            return Some(module);
        };
        let reexported = self.modules[&module].aliases.contains_key(next)
            || self.modules[&module].globs.iter().any(|glob| {
                self.resolve(&module, glob, hops + 1)
                    .and_then(|m| self.modules.get(&m))
                    .is_some_and(|m| m.defines(next))
            });
        if reexported && hops < MAX_HOPS {
            if let Some(found) = self.resolve(&module, &path[depth..], hops + 1) {
                return Some(found);
            }
        }
        Some(module)
    }
}

impl crate::tree::Module {
    /// Whether `name` is a child module, an item or a `use` name of this module.
    fn defines(&self, name: &str) -> bool {
        self.children.contains(name) || self.items.contains(name) || self.aliases.contains_key(name)
    }
}
