//! B's trees (`tree(S)`, `btree(S)` and their operators) as definitions.
//!
//! A tree over `S` is a function from its nodes, sequences of positive
//! integers (`[]` the root, `n <- i` the `i`-th son of `n`), to `S`, whose
//! nodes are closed under taking the father and the previous brother. Every
//! operator of the Atelier-B reference manual (section 5.20) is a B
//! expression over that function, so orbit supplies them as definitions
//! written in B, added to a component that writes `tree(` or `btree(`
//! (the operators' names are common words: `top`, `left`, `rank`). A name
//! the component uses otherwise (a variable `left`, its own definition
//! `top`) keeps the component's meaning. `bin(l, x, r)` (three arguments)
//! and `bin(x)` share a name: the three-argument calls are renamed to
//! [`BIN3`] before the definitions expand.
//!
//! The orders of `prefix` (a node before its sons), `postfix` (after them)
//! and `infix` (between a binary node's left and right subtrees) compare
//! two nodes where they first differ, else by which descends from the
//! other.

use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind};

/// The name the three-argument `bin(l, x, r)` is read as.
pub(super) const BIN3: &str = "tree_bin3__";

/// The definitions, by name; the helpers' names end in `__`. Bound names
/// carry their definition's name, so that one definition used in another's
/// argument cannot capture it.
const DEFINITIONS: &[(&str, &str)] = &[
    (
        "tree",
        "tree(S) == {tree_t__ | tree_t__ : POW(seq(NATURAL1) * S) & \
         card(dom(tree_t__)) = card(tree_t__) & [] : dom(tree_t__) & \
         !tree_n__.(tree_n__ : dom(tree_t__) & tree_n__ /= [] => \
         front(tree_n__) : dom(tree_t__) & \
         (last(tree_n__) > 1 => front(tree_n__) <- (last(tree_n__) - 1) : dom(tree_t__)))}",
    ),
    (
        "btree",
        "btree(S) == {btree_t__ | btree_t__ : tree(S) & \
         !btree_n__.(btree_n__ : dom(btree_t__) => \
         (btree_n__ <- 1 : dom(btree_t__) <=> btree_n__ <- 2 : dom(btree_t__)) & \
         btree_n__ <- 3 /: dom(btree_t__))}",
    ),
    ("top", "top(t) == t([])"),
    (
        "subtree",
        "subtree(t, n) == UNION(subtree_q__).(subtree_q__ : dom(t) & \
         size(subtree_q__) >= size(n) & subtree_q__ /|\\ size(n) = n | \
         {(subtree_q__ \\|/ size(n)) |-> t(subtree_q__)})",
    ),
    (
        "arity",
        "arity(t, n) == card({arity_q__ | arity_q__ : dom(t) & \
         size(arity_q__) = size(n) + 1 & front(arity_q__) = n})",
    ),
    (
        "sons",
        "sons(t) == %sons_i__.(sons_i__ : 1 .. arity(t, []) | subtree(t, [sons_i__]))",
    ),
    ("son", "son(t, n, i) == n <- i"),
    ("father", "father(t, n) == front(n)"),
    ("rank", "rank(t, n) == last(n)"),
    ("sizet", "sizet(t) == card(t)"),
    (
        "const",
        "const(x, q) == {[] |-> x} \\/ UNION(const_i__, const_r__).(const_i__ : dom(q) & \
         const_r__ : dom(q(const_i__)) | {(const_i__ -> const_r__) |-> q(const_i__)(const_r__)})",
    ),
    ("bin", "bin(x) == {[] |-> x}"),
    (BIN3, "tree_bin3__(l, x, r) == const(x, [l, r])"),
    ("left", "left(t) == subtree(t, [1])"),
    ("right", "right(t) == subtree(t, [2])"),
    (
        "mirror",
        "mirror(t) == UNION(mirror_q__).(mirror_q__ : dom(t) | \
         {%mirror_j__.(mirror_j__ : dom(mirror_q__) | \
         arity(t, mirror_q__ /|\\ (mirror_j__ - 1)) + 1 - mirror_q__(mirror_j__)) \
         |-> t(mirror_q__)})",
    ),
    (
        "tree_differs_below__",
        "tree_differs_below__(o, q) == #tree_k__.(tree_k__ : 1 .. min({size(o), size(q)}) & \
         o /|\\ (tree_k__ - 1) = q /|\\ (tree_k__ - 1) & o(tree_k__) < q(tree_k__))",
    ),
    (
        "tree_descends__",
        "tree_descends__(o, q) == (size(o) > size(q) & o /|\\ size(q) = q)",
    ),
    (
        "prefix",
        "prefix(t) == UNION(prefix_q__).(prefix_q__ : dom(t) | \
         {card({prefix_o__ | prefix_o__ : dom(t) & \
         (tree_descends__(prefix_q__, prefix_o__) or \
         tree_differs_below__(prefix_o__, prefix_q__))}) + 1 |-> t(prefix_q__)})",
    ),
    (
        "postfix",
        "postfix(t) == UNION(postfix_q__).(postfix_q__ : dom(t) | \
         {card({postfix_o__ | postfix_o__ : dom(t) & \
         (tree_descends__(postfix_o__, postfix_q__) or \
         tree_differs_below__(postfix_o__, postfix_q__))}) + 1 |-> t(postfix_q__)})",
    ),
    (
        "infix",
        "infix(t) == UNION(infix_q__).(infix_q__ : dom(t) | \
         {card({infix_o__ | infix_o__ : dom(t) & \
         ((tree_descends__(infix_o__, infix_q__) & infix_o__(size(infix_q__) + 1) = 1) or \
         (tree_descends__(infix_q__, infix_o__) & infix_q__(size(infix_o__) + 1) = 2) or \
         tree_differs_below__(infix_o__, infix_q__))}) + 1 |-> t(infix_q__)})",
    ),
];

/// The library's text (`DEFINITIONS` and every definition, one per line)
/// and each definition's name with its byte range in it.
pub(super) fn library_text() -> (String, Vec<(&'static str, std::ops::Range<usize>)>) {
    let mut text = String::from("DEFINITIONS\n");
    let mut ranges = Vec::new();
    for (i, (name, body)) in DEFINITIONS.iter().enumerate() {
        let start = text.len();
        text.push_str(body);
        ranges.push((*name, start..text.len()));
        text.push_str(if i + 1 < DEFINITIONS.len() {
            ";\n"
        } else {
            "\n"
        });
    }
    (text, ranges)
}

/// Whether a component's tokens write `tree(` or `btree(`.
pub(super) fn uses_trees(tokens: &[Token]) -> bool {
    tokens.windows(2).any(|w| {
        matches!(&w[0].kind, TokenKind::Ident(n) if n == "tree" || n == "btree")
            && w[1].kind == TokenKind::Sym(Sym::LParen)
    })
}

/// Whether the component gives `name` a meaning of its own: written other
/// than as a call (a variable, a constant, a set element, a parameter),
/// or defined in its `DEFINITIONS` (`name ==`, `name(a, b) ==`).
fn taken(tokens: &[Token], name: &str) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        let TokenKind::Ident(n) = &t.kind else {
            return false;
        };
        if n != name {
            return false;
        }
        match tokens.get(i + 1).map(|t| &t.kind) {
            Some(TokenKind::Sym(Sym::LParen)) => defined_with_parameters(&tokens[i + 2..]),
            _ => true,
        }
    })
}

/// Whether `rest` (after `name(`) is a parameter list closed by `) ==`.
fn defined_with_parameters(rest: &[Token]) -> bool {
    let mut i = 0;
    loop {
        match rest.get(i).map(|t| &t.kind) {
            Some(TokenKind::Ident(_)) => i += 1,
            _ => return false,
        }
        match rest.get(i).map(|t| &t.kind) {
            Some(TokenKind::Sym(Sym::Comma)) => i += 1,
            Some(TokenKind::Sym(Sym::RParen)) => {
                return rest.get(i + 1).map(|t| &t.kind) == Some(&TokenKind::Sym(Sym::DefEq));
            }
            _ => return false,
        }
    }
}

/// Renames each `bin(l, x, r)` (three arguments at the top of its
/// parentheses) to [`BIN3`].
fn rename_ternary_bin(tokens: &mut [Token]) {
    for i in 0..tokens.len() {
        if !matches!(&tokens[i].kind, TokenKind::Ident(n) if n == "bin")
            || tokens.get(i + 1).map(|t| &t.kind) != Some(&TokenKind::Sym(Sym::LParen))
        {
            continue;
        }
        let (mut depth, mut commas) = (0usize, 0usize);
        for t in &tokens[i + 1..] {
            match t.kind {
                TokenKind::Sym(Sym::LParen | Sym::LBracket | Sym::LBrace) => depth += 1,
                TokenKind::Sym(Sym::RParen | Sym::RBracket | Sym::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                TokenKind::Sym(Sym::Comma) if depth == 1 => commas += 1,
                _ => {}
            }
        }
        if commas == 2 {
            tokens[i].kind = TokenKind::Ident(BIN3.to_string());
        }
    }
}

/// Adds to a component that uses trees the library's definitions it does
/// not take for itself (`library`: the lexed [`library_text`], `ranges`
/// its definitions), in its `DEFINITIONS` clause or in a new one before
/// its final `END`.
pub(super) fn add_tree_definitions(
    mut tokens: Vec<Token>,
    library: &[Token],
    ranges: &[(&str, std::ops::Range<usize>)],
    base: usize,
) -> Vec<Token> {
    let chosen: Vec<&std::ops::Range<usize>> = ranges
        .iter()
        .filter(|(name, _)| !taken(&tokens, name))
        .map(|(_, r)| r)
        .collect();
    if !taken(&tokens, "bin") {
        rename_ternary_bin(&mut tokens);
    }
    let Some(separator) = library
        .iter()
        .find(|t| t.kind == TokenKind::Sym(Sym::Semicolon))
    else {
        return tokens;
    };
    let mut added: Vec<Token> = Vec::new();
    for range in chosen {
        let within = |t: &&Token| {
            let start = t.span.start as usize - base;
            range.contains(&start)
        };
        if !added.is_empty() {
            added.push(separator.clone());
        }
        added.extend(library.iter().filter(within).cloned());
    }
    if added.is_empty() {
        return tokens;
    }
    let clause = tokens
        .iter()
        .position(|t| t.kind == TokenKind::Keyword(Keyword::Definitions));
    match clause {
        Some(i) => {
            // First in the clause, before the component's own definitions.
            let empty = matches!(
                tokens.get(i + 1).map(|t| &t.kind),
                Some(TokenKind::Keyword(k)) if k.is_clause() || *k == Keyword::End
            );
            if !empty {
                added.push(separator.clone());
            }
            tokens.splice(i + 1..i + 1, added);
        }
        None => {
            let end = tokens
                .iter()
                .rposition(|t| t.kind == TokenKind::Keyword(Keyword::End))
                .unwrap_or(tokens.len());
            let keyword = library
                .iter()
                .find(|t| t.kind == TokenKind::Keyword(Keyword::Definitions))
                .cloned();
            tokens.splice(end..end, keyword.into_iter().chain(added));
        }
    }
    tokens
}
