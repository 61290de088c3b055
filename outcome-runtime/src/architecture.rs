//! The layers of `ARCHITECTURE.md`, checked against the code: each folder
//! uses only folders of a lower layer, and each module of a folder only
//! the modules of an earlier step in it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The two tables of `ARCHITECTURE.md`.
struct Layers {
    /// Each folder, with its layer.
    folders: HashMap<String, u32>,
    /// Each module of a folder, with its step in the folder.
    modules: HashMap<(String, String), u32>,
}

/// The text of a cell that is a name in backticks.
fn name(cell: &str) -> Option<String> {
    Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_owned())
}

/// The folders' table (`| layer | folder | what it holds |`) and the
/// modules' (`| folder | step | module | what it owns |`).
fn layers(root: &Path) -> Layers {
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md is beside Cargo.toml");
    let mut layers = Layers {
        folders: HashMap::new(),
        modules: HashMap::new(),
    };
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[0].is_empty() {
            continue;
        }
        if let (Ok(layer), Some(folder)) = (cells[1].parse(), name(cells[2])) {
            layers.folders.insert(folder, layer);
        } else if let (Some(folder), Ok(step), Some(module)) =
            (name(cells[1]), cells[2].parse(), name(cells[3]))
        {
            layers.modules.insert((folder, module), step);
        }
    }
    layers
}

impl Layers {
    /// The folder and module a file under `src` belongs to: `a.rs` is the
    /// folder `a`'s own file, `a/b.rs` and `a/b/c.rs` are the module `b` of
    /// the folder `a` (or of `a`'s own file, for a folder with no modules
    /// in the table).
    fn place(&self, file: &[String]) -> (String, String) {
        let folder = file[0].clone();
        match file.get(1) {
            Some(module) if self.modules.contains_key(&(folder.clone(), module.clone())) => {
                (folder, module.clone())
            }
            _ => (folder.clone(), folder),
        }
    }

    /// The step of a module in its folder: the folder's own file comes
    /// after all its modules.
    fn step(&self, place: &(String, String)) -> u32 {
        self.modules.get(place).copied().unwrap_or(u32::MAX)
    }
}

/// The code of `file`, its tests and comments left out.
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    // Comments left out too: a doc link to a higher layer's item is a
    // pointer for the reader, not a use.
    text.split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths (their first two names) the code of the file at `file`
/// (its path under `src`, without `.rs`) names from the crate: as
/// `crate::a::b`, in a `use crate::{..}` group, or through `super::` (whose
/// items, of a module inside the file, are left to the caller to tell from
/// modules).
fn named(code: &str, file: &[String]) -> Vec<Vec<String>> {
    let mut named = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        named.extend(use_paths(Vec::new(), &code[at + "crate::".len()..]));
    }
    let mut at = 0;
    while let Some(found) = code[at..].find("super::") {
        let start = at + found;
        let mut rest = &code[start..];
        let mut up = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            rest = after;
            up += 1;
        }
        at = code.len() - rest.len();
        let preceded = code[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if preceded || up > file.len() {
            continue;
        }
        let base = file[..file.len() - up].to_vec();
        named.extend(use_paths(base, rest));
    }
    named.retain(|path| !path.is_empty());
    named
}

/// The paths of a use tree that starts at `rest`, after `prefix`: each cut
/// to its first two names.
fn use_paths(prefix: Vec<String>, rest: &str) -> Vec<Vec<String>> {
    if prefix.len() >= 2 {
        return vec![prefix];
    }
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        return top_level_names(group)
            .into_iter()
            .flat_map(|path| use_paths(prefix.clone(), path))
            .collect();
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if word.is_empty() || word == "self" {
        return vec![prefix];
    }
    let mut path = prefix;
    path.push(word.clone());
    match rest[word.len()..].strip_prefix("::") {
        Some(after) => use_paths(path, after),
        None => vec![path],
    }
}

/// What the crate root re-exports (`pub use answer::error::{Outcome,
/// ToolError};`, and `handler`'s `pub use crate::call::routes::wrap_router;`),
/// each name with the path it comes from: a path through the root
/// (`crate::ToolError`) uses that module.
fn root_items(root: &Path) -> HashMap<String, Vec<String>> {
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let mut items = HashMap::new();
    for (at, _) in lib.match_indices("pub use ") {
        let rest = &lib[at + "pub use ".len()..];
        let statement = &rest[..rest.find(';').unwrap_or(rest.len())];
        let statement = statement.strip_prefix("crate::").unwrap_or(statement);
        let (path, names) = match statement.split_once("::{") {
            Some((path, names)) => (path, names.trim_end_matches('}')),
            None => match statement.rsplit_once("::") {
                Some((path, name)) => (path, name),
                None => continue,
            },
        };
        let path: Vec<String> = path
            .split("::")
            .map(|name| name.trim().to_owned())
            .collect();
        for name in names.split(',') {
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            let mut from = path.clone();
            from.extend(name.split("::").map(str::to_owned));
            let last = from.pop().unwrap_or_default();
            // A module re-exported whole is the module itself.
            if from.len() < 2 {
                from.push(last.clone());
            }
            items.insert(last, from);
        }
    }
    items
}

/// `path` with a name the root re-exports replaced by where it comes from.
fn through_root(path: Vec<String>, items: &HashMap<String, Vec<String>>) -> Vec<String> {
    let by = match path.as_slice() {
        [handler, name] if handler == "handler" => name,
        [first, ..] => first,
        [] => return path,
    };
    items.get(by).cloned().unwrap_or(path)
}

#[test]
fn a_path_through_a_root_re_export_names_its_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let items = root_items(root);
    let from = |path: &[&str]| {
        let path = path.iter().map(|name| name.to_string()).collect();
        through_root(path, &items)[0].clone()
    };
    assert_eq!(from(&["ToolError"]), from(&["Outcome"]));
    assert_ne!(from(&["quote"]), "quote");
    assert_ne!(from(&["Jobs"]), "Jobs");
    assert_ne!(from(&["recognize_transient"]), "recognize_transient");
    assert_ne!(from(&["handler", "wrap_router"]), "handler");
}

#[test]
fn a_use_tree_names_each_path() {
    let file = ["call".to_owned(), "request".to_owned()];
    let found = named(
        "use crate::{a::{B, c::D}, e};\nuse crate::f::g::h;\nuse super::i::J;",
        &file,
    );
    let found: Vec<String> = found.iter().map(|path| path.join("::")).collect();
    assert_eq!(found, ["a::B", "a::c", "e", "f::g", "call::i"]);
}

/// The start of each path in a `{..}` group of a `use`, up to its
/// closing brace: nested groups are skipped whole.
fn top_level_names(group: &str) -> Vec<&str> {
    let mut names = vec![group];
    let mut depth = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => names.push(&group[at + 1..]),
            _ => {}
        }
    }
    names
}

#[test]
fn a_nested_group_hides_no_module() {
    assert_eq!(
        top_level_names("a, b::{C, d::{E}}, f};\nuse g;")
            .iter()
            .map(|path| path
                .trim_start()
                .split(|c: char| !c.is_ascii_lowercase())
                .next()
                .unwrap())
            .collect::<Vec<_>>(),
        ["a", "b", "f"]
    );
}

/// Every `.rs` file under `src`, as its path there without `.rs`; the
/// guide's pages, the crate root, `private.rs`, this file and unit tests'
/// own files left out.
fn source_files(src: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut files = Vec::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("tests.rs") {
                continue;
            }
            let within = path.strip_prefix(src).unwrap().with_extension("");
            let names: Vec<String> = within
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_owned())
                .collect();
            if matches!(
                names.as_slice(),
                [only] if matches!(only.as_str(), "lib" | "private" | "architecture")
            ) {
                continue;
            }
            files.push((path, names));
        }
    }
    files
}

#[test]
fn every_folder_uses_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let layers = layers(root);
    let items = root_items(root);
    let mut wrong = Vec::new();
    for (path, file) in source_files(&root.join("src")) {
        let (folder, module) = layers.place(&file);
        let Some(&layer) = layers.folders.get(&folder) else {
            wrong.push(format!("{folder} is not in ARCHITECTURE.md's table"));
            continue;
        };
        let step = layers.step(&(folder.clone(), module.clone()));
        for used in named(&code(&path), &file) {
            let used = through_root(used, &items);
            // `super::` in a module inside the file names the file's items,
            // or all of them (`*`).
            if used == [folder.clone()] {
                continue;
            }
            if used[0] == folder
                && used.len() == 2
                && used[1] != folder
                && !layers
                    .modules
                    .contains_key(&(folder.clone(), used[1].clone()))
            {
                continue;
            }
            let Some(&below) = layers.folders.get(&used[0]) else {
                continue;
            };
            let (used_folder, used_module) = layers.place(&used);
            let at = file.join("/");
            if used_folder != folder {
                if below >= layer {
                    wrong.push(format!(
                        "{at} (folder {folder}, layer {layer}) uses {used_folder} (layer {below})"
                    ));
                }
            } else if used_module != module {
                let earlier = layers.step(&(used_folder, used_module.clone()));
                if earlier >= step {
                    wrong.push(format!(
                        "{at} ({module}, step {step} of {folder}) uses {used_module} (step {earlier})"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        layers.folders.len() >= 5,
        "the table was not read: {:?}",
        layers.folders
    );
}

/// What the runtime reads of another's text has one home each: rmcp's
/// argument error in `rmcp_errors`, the reading of sentences (the last
/// step, abbreviations) in `outcome_rules`, which `sentences` calls.
#[test]
fn each_reading_has_one_home() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = source_files(&root);
    // The crate root and the macros' module may read nothing either.
    for own in ["lib", "private"] {
        files.push((root.join(own).with_extension("rs"), vec![own.to_owned()]));
    }
    for (needle, home) in [
        ("deserialize parameters", "rmcp_errors.rs"),
        ("outcome_rules::last_step", "sentences.rs"),
        ("outcome_rules::sentences", "sentences/passed_on.rs"),
    ] {
        let found: Vec<String> = files
            .iter()
            .filter(|(file, _)| {
                let text = std::fs::read_to_string(file).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                code.lines()
                    .filter(|line| !line.trim_start().starts_with("//"))
                    .any(|line| {
                        line.to_ascii_lowercase()
                            .contains(&needle.to_ascii_lowercase())
                    })
            })
            .map(|(file, _)| file.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(found.len(), 1, "{needle}: {found:?}");
        assert!(found[0].ends_with(home), "{needle}: {found:?}");
    }
}
