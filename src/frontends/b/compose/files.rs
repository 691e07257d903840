//! Finding, reading and lexing the files of a modular model: components
//! named by `SEES`, `INCLUDES`, `REFINES`, ... (`M.mch`, `M.ref`, `M.imp`,
//! `M.sys`) and definition files (`DEFINITIONS "file.def"`), looked up
//! beside the file that names them, then in the search path.
//!
//! Every file read joins one [`SourceFile`], so spans point into any of
//! them and diagnostics name the right file. A definition file's
//! definitions are spliced into the token stream where it is named, so the
//! parser sees one `DEFINITIONS` clause.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, SourceFile, Span};
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind, lex};
use crate::frontends::b::library::bundled_definition_file;

/// Extensions of component files, in the order they are tried.
const COMPONENT_EXTENSIONS: [&str; 4] = ["mch", "ref", "imp", "sys"];

/// How deeply definition files may include each other.
const MAX_DEFINITION_FILE_DEPTH: usize = 32;

/// The files read so far and where to look for more.
pub(super) struct Files {
    /// Every file read, one after the other.
    pub file: SourceFile,
    /// Directories searched after the naming file's own (`--search-path`).
    search_path: Vec<PathBuf>,
    /// Where each file read lies in `file`, and its path.
    parts: Vec<(Range<usize>, PathBuf)>,
    /// Components read, by name: their part index.
    components: HashMap<String, usize>,
    /// The definition files being spliced, innermost last (for cycles).
    including: Vec<usize>,
    /// The definition files spliced into the current component so far: one
    /// included again (directly, or by another definition file) adds nothing.
    spliced: Vec<usize>,
}

impl Files {
    /// Reads the model's own file.
    pub fn open(path: &Path, search_path: &[PathBuf]) -> Result<Files, String> {
        let text = crate::frontends::source::read_model_text(path)?;
        let file = SourceFile::new(path.display().to_string(), text);
        let range = 0..file.text.len();
        Ok(Files {
            file,
            search_path: search_path.to_vec(),
            parts: vec![(range, path.to_path_buf())],
            components: HashMap::new(),
            including: Vec::new(),
            spliced: Vec::new(),
        })
    }

    /// The main file's tokens, with definition files spliced in.
    pub fn main_tokens(&mut self) -> Result<Vec<Token>, Diagnostic> {
        self.tokens_of(0, 0)
    }

    /// The tokens of component `name` (named at `span` in the file whose
    /// part index holds `span`), read from its file on first use.
    pub fn component_tokens(&mut self, name: &str, span: Span) -> Result<Vec<Token>, Diagnostic> {
        if let Some(&part) = self.components.get(name) {
            return self.tokens_of(part, 0);
        }
        let names: Vec<String> = COMPONENT_EXTENSIONS
            .iter()
            .map(|ext| format!("{name}.{ext}"))
            .collect();
        let Some(path) = self.file_pragma(span).or_else(|| self.find(&names, span)) else {
            return Err(self.not_found(&format!("machine `{name}`"), &names, span));
        };
        let part = self.read(&path, span)?;
        self.components.insert(name.to_string(), part);
        self.tokens_of(part, 0)
    }

    /// Reads `path` into the source map; returns its part index.
    fn read(&mut self, path: &Path, span: Span) -> Result<usize, Diagnostic> {
        if let Some(i) = self.parts.iter().position(|(_, p)| p == path) {
            return Ok(i);
        }
        let text = crate::frontends::source::read_model_text(path).map_err(|e| {
            let e = e.trim();
            Diagnostic::error(span, e.strip_prefix("error: ").unwrap_or(e).to_string())
        })?;
        let range = self.file.add(path.display().to_string(), &text);
        self.parts.push((range, path.to_path_buf()));
        Ok(self.parts.len() - 1)
    }

    /// Adds orbit's own text of a ProB library file; returns its part index.
    fn add_bundled(&mut self, name: &str, text: &str) -> usize {
        let path = PathBuf::from(format!("<orbit's {name}>"));
        if let Some(i) = self.parts.iter().position(|(_, p)| *p == path) {
            return i;
        }
        let range = self.file.add(path.display().to_string(), text);
        self.parts.push((range, path));
        self.parts.len() - 1
    }

    /// The first of `names` that exists beside the file holding `span`,
    /// then in the search path.
    fn find(&self, names: &[String], span: Span) -> Option<PathBuf> {
        self.directories(span)
            .into_iter()
            .find_map(|dir| names.iter().map(|n| dir.join(n)).find(|p| p.is_file()))
    }

    /// The file (its part) holding `span`.
    fn part_of(&self, span: Span) -> Option<&(Range<usize>, PathBuf)> {
        self.parts
            .iter()
            .find(|(r, _)| r.contains(&(span.start as usize)) || r.end == span.start as usize)
            .or(self.parts.first())
    }

    /// The directory of the file holding `span`, the directories its
    /// package pragmas import ([`package_directories`]), then the search
    /// path.
    fn directories(&self, span: Span) -> Vec<PathBuf> {
        let part = self.part_of(span);
        let own = part.and_then(|(_, p)| p.parent()).map(Path::to_path_buf);
        let packages = match (part, &own) {
            (Some((range, _)), Some(dir)) => self
                .file
                .text
                .get(range.clone())
                .map_or_else(Vec::new, |text| package_directories(text, dir)),
            _ => Vec::new(),
        };
        own.into_iter()
            .chain(packages)
            .chain(self.search_path.iter().cloned())
            .collect()
    }

    /// The file a `/*@file "path" */` pragma right after the component
    /// name at `span` gives (ProB's pragma; the path is relative to the
    /// naming file's directory).
    fn file_pragma(&self, span: Span) -> Option<PathBuf> {
        let rest = self.file.text.get(span.end as usize..)?.trim_start();
        let quoted = rest
            .strip_prefix("/*@file")?
            .trim_start()
            .strip_prefix('"')?;
        let (path, _) = quoted.split_once('"')?;
        let dir = self.part_of(span)?.1.parent()?;
        Some(dir.join(path))
    }

    fn not_found(&self, what: &str, names: &[String], span: Span) -> Diagnostic {
        let dirs: Vec<String> = self
            .directories(span)
            .iter()
            .map(|d| {
                if d.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    d.display().to_string()
                }
            })
            .collect();
        let mut d = Diagnostic::error(span, format!("cannot find {what}")).with_note(format!(
            "looked for {} in {}",
            names.join(", "),
            dirs.join(", ")
        ));
        // A file whose name differs only in case (B names are case sensitive).
        let near = self.directories(span).into_iter().find_map(|dir| {
            let listing = std::fs::read_dir(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                &dir
            })
            .ok()?;
            listing.filter_map(|e| e.ok()).find_map(|e| {
                let file = e.file_name().to_string_lossy().into_owned();
                names
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(&file) && *n != file)
                    .then_some(file)
            })
        });
        if let Some(file) = near {
            d = d.with_note(format!("there is `{file}`: names are case sensitive"));
        }
        d.with_note("add directories to search with `--search-path DIR`")
    }

    /// Lexes part `part` (spans shifted into the source map) and splices
    /// in the definition files it names.
    fn tokens_of(&mut self, part: usize, depth: usize) -> Result<Vec<Token>, Diagnostic> {
        if depth == 0 {
            self.spliced.clear();
        }
        let tokens = self.lex_part(part)?;
        let tokens = self.splice_definition_files(tokens, depth)?;
        if depth > 0 || !super::trees::uses_trees(&tokens) {
            return Ok(tokens);
        }
        let (text, ranges) = super::trees::library_text();
        let library = self.add_bundled("tree operators", &text);
        let base = self.parts[library].0.start;
        let lexed = self.lex_part(library)?;
        Ok(super::trees::add_tree_definitions(
            tokens, &lexed, &ranges, base,
        ))
    }

    /// The tokens of part `part`, with spans into the source map.
    fn lex_part(&self, part: usize) -> Result<Vec<Token>, Diagnostic> {
        let range = self.parts[part].0.clone();
        let base = range.start as u32;
        let shift = |mut span: Span| {
            span.start += base;
            span.end += base;
            span
        };
        let mut tokens = lex(&self.file.text[range]).map_err(|mut d| {
            d.span = shift(d.span);
            d
        })?;
        for t in &mut tokens {
            t.span = shift(t.span);
        }
        Ok(tokens)
    }

    /// Replaces each `"file.def"` of a `DEFINITIONS` clause by the
    /// definitions of that file.
    fn splice_definition_files(
        &mut self,
        tokens: Vec<Token>,
        depth: usize,
    ) -> Result<Vec<Token>, Diagnostic> {
        let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            let TokenKind::Str(name) = &t.kind else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            if !is_definition_file(&tokens, i) {
                out.push(t.clone());
                i += 1;
                continue;
            }
            if depth >= MAX_DEFINITION_FILE_DEPTH {
                return Err(Diagnostic::error(
                    t.span,
                    format!(
                        "definition file \"{name}\" is included {MAX_DEFINITION_FILE_DEPTH} files deep; do definition files include each other in a cycle?"
                    ),
                ));
            }
            let names = vec![name.clone()];
            let part = match self.find(&names, t.span) {
                Some(path) => self.read(&path, t.span)?,
                // ProB's standard library, in orbit's own version.
                None if let Some(text) = bundled_definition_file(name) => {
                    self.add_bundled(name, text)
                }
                None => {
                    let mut d =
                        self.not_found(&format!("definition file \"{name}\""), &names, t.span);
                    if name.starts_with("Library")
                        || name.starts_with("Choose")
                        || name == "SORT.def"
                    {
                        d = d.with_note(format!(
                            "orbit supplies {} of ProB's standard library; not this one yet",
                            crate::frontends::b::library::BUNDLED_DEFINITION_FILES.join(", ")
                        ));
                    }
                    return Err(d);
                }
            };
            let raw = self.lex_part(part)?;
            match raw.first().map(|t| &t.kind) {
                Some(TokenKind::Keyword(Keyword::Definitions) | TokenKind::Eof) | None => {}
                Some(_) => {
                    return Err(Diagnostic::error(
                        raw[0].span,
                        format!("definition file \"{name}\" must start with `DEFINITIONS`"),
                    ));
                }
            }
            if self.including.contains(&part) {
                return Err(Diagnostic::error(
                    t.span,
                    format!("definition file \"{name}\" includes itself"),
                ));
            }
            if self.spliced.contains(&part) {
                // Already spliced into this component: skip the name and
                // its separator, as ProB reads a file once.
                i += 1;
                if matches!(
                    tokens.get(i).map(|t| &t.kind),
                    Some(TokenKind::Sym(Sym::Semicolon))
                ) {
                    i += 1;
                }
                continue;
            }
            self.spliced.push(part);
            self.including.push(part);
            let inner = self.splice_definition_files(raw, depth + 1);
            self.including.pop();
            let inner = inner?;
            let mut body: &[Token] = &inner;
            if let Some(TokenKind::Eof) = body.last().map(|t| &t.kind) {
                body = &body[..body.len() - 1];
            }
            if let Some(TokenKind::Keyword(Keyword::Definitions)) = body.first().map(|t| &t.kind) {
                body = &body[1..];
            }
            while let Some(TokenKind::Sym(Sym::Semicolon)) = body.last().map(|t| &t.kind) {
                body = &body[..body.len() - 1];
            }
            i += 1;
            if body.is_empty() {
                // Nothing to splice: drop the separator after the name too.
                if matches!(
                    tokens.get(i).map(|t| &t.kind),
                    Some(TokenKind::Sym(Sym::Semicolon))
                ) {
                    i += 1;
                }
                continue;
            }
            out.extend_from_slice(body);
        }
        Ok(out)
    }
}

/// The directories ProB's package pragmas at the head of a file make it
/// see: `/*@package a.b */` says the file lies in `ROOT/a/b` (`dir`);
/// `/*@import-package c.d */` adds `ROOT/c/d`, `/*@import "c.d.M" */` and
/// `/*@import "c.d.*" */` add `ROOT/c/d`. Names may be quoted.
fn package_directories(text: &str, dir: &Path) -> Vec<PathBuf> {
    let mut root: Option<PathBuf> = None;
    let mut imports: Vec<Vec<String>> = Vec::new();
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while let Some(comment) = rest.strip_prefix("/*@") {
        let Some((body, after)) = comment.split_once("*/") else {
            break;
        };
        rest = after.trim_start();
        let (keyword, name) = body
            .trim()
            .split_once(char::is_whitespace)
            .unwrap_or((body, ""));
        let parts: Vec<String> = name
            .trim()
            .trim_matches('"')
            .split('.')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        match keyword {
            "package" => {
                let mut up = Some(dir);
                for _ in &parts {
                    up = up.and_then(Path::parent);
                }
                root = up.map(Path::to_path_buf);
            }
            "import-package" => imports.push(parts),
            "import" => {
                // The package of a machine, or of `*`.
                let mut parts = parts;
                parts.pop();
                imports.push(parts);
            }
            _ => {}
        }
    }
    let Some(root) = root else {
        return Vec::new();
    };
    imports
        .into_iter()
        .map(|parts| parts.iter().fold(root.clone(), |d, p| d.join(p)))
        .collect()
}

/// Whether the string at `i` names a definition file: it follows
/// `DEFINITIONS` or a `;` and is followed by a `;`, a clause keyword,
/// `END` or the end of the file (no expression is a lone string there).
fn is_definition_file(tokens: &[Token], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| &tokens[j].kind);
    let after = tokens.get(i + 1).map(|t| &t.kind);
    let opens = matches!(
        before,
        Some(TokenKind::Keyword(Keyword::Definitions) | TokenKind::Sym(Sym::Semicolon))
    );
    let closes = match after {
        Some(TokenKind::Sym(Sym::Semicolon)) | Some(TokenKind::Eof) | None => true,
        Some(TokenKind::Keyword(k)) => k.is_clause() || *k == Keyword::End,
        _ => false,
    };
    opens && closes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_pragmas_name_directories_under_the_package_root() {
        let dir = Path::new("/m/a/aa");
        let text = "/*@package a.aa */\n/*@import-package b.bb*/\n\
                    /*@import \"c.M\" */ /*@import \"d.e.*\" */\nMACHINE M END";
        assert_eq!(
            package_directories(text, dir),
            [
                PathBuf::from("/m/b/bb"),
                PathBuf::from("/m/c"),
                PathBuf::from("/m/d/e")
            ]
        );
        // No package, or pragmas after the machine's first word: nothing.
        assert!(package_directories("/*@import-package b */ MACHINE M END", dir).is_empty());
        assert!(package_directories("MACHINE M /*@package a */ END", dir).is_empty());
    }
}
