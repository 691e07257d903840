//! Reading and writing graphs in nauty's dreadnaut input format.
//!
//! Supported commands: `n=N` (vertex count, resets the graph), `$=B` (first
//! vertex number, 0 or more), `d` / `-d` (directed / undirected), `g`
//! (adjacency lists: numbers are neighbours of the current vertex, `i:`
//! makes `i` the current vertex, `;` moves to the next vertex, `.` ends the
//! graph), `f=[a b | c:d | ...]` (ordered colour partition; unlisted vertices
//! form a last cell), `x` (process the current graph), comments from `!` to
//! the end of the line, and the output switches `c`, `-c`, `a`, `-a`, `m`,
//! `-m`, `b`, `-b` which are accepted and ignored. Every `x` yields one
//! graph; a file without `x` yields its last graph. Anything else is
//! reported as not supported.

use std::fmt::Write as _;

use super::graph::{Graph, GraphBuilder};

/// The largest vertex count accepted (bounds memory on bad input).
pub const MAX_VERTICES: u64 = 10_000_000;

/// One graph read from dreadnaut input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DreadnautGraph {
    /// Number of vertices.
    pub n: usize,
    /// Whether `g` lists were read as directed edges.
    pub directed: bool,
    /// First vertex number (`$=`).
    pub base: u32,
    /// Edges `(from, to)` numbered from 0.
    pub edges: Vec<(u32, u32)>,
    /// The ordered colour partition: colour of each vertex (cell index).
    pub colours: Vec<u32>,
    /// Line of the `x` (or end of input) that produced this graph.
    pub line: usize,
}

impl DreadnautGraph {
    /// Bytes that building this graph and canonicalising it take, about:
    /// what `orbit canon` checks against the memory cap before it starts
    /// (so that a 17-byte file declaring 10^7 vertices stops cleanly).
    pub fn estimated_bytes(&self) -> usize {
        // The graph's per-vertex arrays and adjacency (both directions),
        // and the canonicaliser's buffers.
        self.n
            .saturating_mul(24 + super::search::WORKSPACE_BYTES_PER_VERTEX)
            .saturating_add(self.edges.len().saturating_mul(16))
    }

    /// The graph with uncoloured edges and the partition as vertex colours.
    pub fn to_graph(&self) -> Graph {
        let mut b = GraphBuilder::new(self.n);
        for (v, &c) in self.colours.iter().enumerate() {
            b.set_colour(v, c);
        }
        for &(f, t) in &self.edges {
            if self.directed {
                b.add_edge(f as usize, t as usize, 0);
            } else {
                b.add_undirected_edge(f as usize, t as usize, 0);
            }
        }
        b.build()
    }
}

/// A syntax error with its 1-based position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was expected or is not supported.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line,
            column: self.column,
            message: message.into(),
        })
    }

    /// Skips white space, commas and `!` comments.
    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ',' {
                self.bump();
            } else if c == '!' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        self.skip_blank();
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return self.error(format!("expected {what}"));
        }
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
            {
                Some(v) if v < (1 << 31) => v,
                _ => return self.error(format!("expected {what} below 2^31")),
            };
            self.bump();
        }
        Ok(value)
    }

    fn expect_char(&mut self, want: char, what: &str) -> Result<(), ParseError> {
        self.skip_blank();
        if self.peek() == Some(want) {
            self.bump();
            Ok(())
        } else {
            self.error(format!("expected {what}"))
        }
    }
}

struct State {
    n: usize,
    directed: bool,
    base: u32,
    edges: Vec<(u32, u32)>,
    colours: Vec<u32>,
    pending: bool,
}

impl State {
    /// Checks a vertex number read at `at` (line, column).
    fn vertex(&self, at: (usize, usize), value: u64) -> Result<u32, ParseError> {
        let base = u64::from(self.base);
        if value < base || value - base >= self.n as u64 {
            return Err(ParseError {
                line: at.0,
                column: at.1,
                message: format!(
                    "expected a vertex number in {}..={}, found {value}",
                    base,
                    (base + self.n as u64).saturating_sub(1)
                ),
            });
        }
        Ok((value - base) as u32)
    }

    fn emit(&mut self, line: usize, out: &mut Vec<DreadnautGraph>) {
        out.push(DreadnautGraph {
            n: self.n,
            directed: self.directed,
            base: self.base,
            edges: self.edges.clone(),
            colours: self.colours.clone(),
            line,
        });
        self.pending = false;
    }
}

/// Parses dreadnaut input into the graphs it processes.
pub fn parse(text: &str) -> Result<Vec<DreadnautGraph>, ParseError> {
    let mut r = Reader {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut st = State {
        n: 0,
        directed: false,
        base: 0,
        edges: Vec::new(),
        colours: Vec::new(),
        pending: false,
    };
    let mut out = Vec::new();
    let mut seen_graph = false;
    loop {
        r.skip_blank();
        let Some(c) = r.peek() else { break };
        match c {
            'n' => {
                r.bump();
                r.expect_char('=', "'=' after 'n'")?;
                let at = (r.line, r.column);
                let n = r.number("a vertex count")?;
                if n > MAX_VERTICES {
                    return Err(ParseError {
                        line: at.0,
                        column: at.1 + 1,
                        message: format!("expected a vertex count of at most {MAX_VERTICES}"),
                    });
                }
                st.n = n as usize;
                st.edges.clear();
                st.colours = vec![0; st.n];
                st.pending = true;
                seen_graph = true;
            }
            '$' => {
                r.bump();
                if r.peek() == Some('$') {
                    return r.error("not supported yet: dreadnaut command '$$'");
                }
                r.expect_char('=', "'=' after '$'")?;
                st.base = r.number("a first vertex number")? as u32;
            }
            'd' => {
                r.bump();
                st.directed = true;
            }
            'g' => {
                r.bump();
                read_lists(&mut r, &mut st)?;
                st.pending = true;
                seen_graph = true;
            }
            'f' => {
                r.bump();
                r.expect_char('=', "'=' after 'f'")?;
                read_partition(&mut r, &mut st)?;
                st.pending = true;
            }
            'x' => {
                r.bump();
                if !seen_graph {
                    return r.error("expected 'n=' before 'x'");
                }
                let line = r.line;
                st.emit(line, &mut out);
            }
            'c' | 'a' | 'm' | 'b' => {
                r.bump();
            }
            '-' => {
                r.bump();
                match r.peek() {
                    Some('d') => {
                        r.bump();
                        st.directed = false;
                    }
                    Some('c' | 'a' | 'm' | 'b') => {
                        r.bump();
                    }
                    _ => return r.error("expected one of 'd', 'c', 'a', 'm', 'b' after '-'"),
                }
            }
            other => {
                return r.error(format!(
                    "expected a dreadnaut command (n= $= d g f= x c a m b), \
                     not supported yet: '{other}'"
                ));
            }
        }
    }
    if st.pending && seen_graph {
        let line = r.line;
        st.emit(line, &mut out);
    }
    if out.is_empty() {
        return r.error("expected a graph ('n=' and 'g')");
    }
    Ok(out)
}

/// Reads the adjacency lists after `g` up to the closing `.`.
fn read_lists(r: &mut Reader<'_>, st: &mut State) -> Result<(), ParseError> {
    st.edges.clear();
    let mut current: usize = 0;
    loop {
        r.skip_blank();
        match r.peek() {
            Some('.') => {
                r.bump();
                return Ok(());
            }
            Some(';') => {
                r.bump();
                current += 1;
            }
            Some(c) if c.is_ascii_digit() => {
                let at = (r.line, r.column);
                let value = r.number("a vertex number")?;
                let v = st.vertex(at, value)?;
                r.skip_blank();
                if r.peek() == Some(':') {
                    r.bump();
                    current = v as usize;
                } else {
                    if current >= st.n {
                        return r.error(format!(
                            "expected '.' to end the graph: all {} lists given",
                            st.n
                        ));
                    }
                    st.edges.push((current as u32, v));
                }
            }
            Some('-') => return r.error("not supported yet: edge removal '-' in 'g'"),
            Some(other) => {
                return r.error(format!(
                    "expected a vertex number, ';', 'i:' or '.' in 'g', found '{other}'"
                ));
            }
            None => return r.error("expected '.' to end the graph"),
        }
    }
}

/// Reads `[cell | cell | ...]` after `f=`.
fn read_partition(r: &mut Reader<'_>, st: &mut State) -> Result<(), ParseError> {
    r.expect_char('[', "'[' to start the partition")?;
    let mut colour: Vec<Option<u32>> = vec![None; st.n];
    let mut cell = 0u32;
    let mut cell_nonempty = false;
    loop {
        r.skip_blank();
        match r.peek() {
            Some(']') => {
                r.bump();
                break;
            }
            Some('|') => {
                r.bump();
                cell += 1;
                cell_nonempty = false;
            }
            Some(c) if c.is_ascii_digit() => {
                let at = (r.line, r.column);
                let a = st.vertex(at, r_number(r)?)?;
                r.skip_blank();
                let b = if r.peek() == Some(':') {
                    r.bump();
                    r.skip_blank();
                    let at = (r.line, r.column);
                    st.vertex(at, r_number(r)?)?
                } else {
                    a
                };
                for v in a..=b {
                    if colour[v as usize].replace(cell).is_some() {
                        return r.error(format!(
                            "expected each vertex in one cell, vertex {} repeated",
                            u64::from(v) + u64::from(st.base)
                        ));
                    }
                }
                cell_nonempty = true;
            }
            Some(other) => {
                return r.error(format!(
                    "expected a vertex number, '|' or ']', found '{other}'"
                ));
            }
            None => return r.error("expected ']' to end the partition"),
        }
    }
    let rest = if cell_nonempty || cell == 0 {
        cell + 1
    } else {
        cell
    };
    st.colours = colour.into_iter().map(|c| c.unwrap_or(rest)).collect();
    Ok(())
}

fn r_number(r: &mut Reader<'_>) -> Result<u64, ParseError> {
    r.number("a vertex number")
}

/// Writes `g` (uncoloured edges, vertex colours as the ordered partition)
/// in dreadnaut format on one line: `n=.. $=.. [d] g ... . f=[..]`.
/// Undirected graphs list each edge once, at its smaller end.
pub fn write(g: &Graph, directed: bool, base: u32) -> String {
    let n = g.vertex_count();
    let mut s = format!("n={n} $={base}{} g", if directed { " d" } else { "" });
    // `;` goes *between* lists: after the last vertex dreadnaut would move
    // past the end and reject the closing `.`.
    let mut listed = false;
    for v in 0..n {
        let mut first = true;
        let mut last = None;
        for (u, _) in g.out_edges(v) {
            if (!directed && (u as usize) < v) || last == Some(u) {
                continue;
            }
            last = Some(u);
            if first {
                if listed {
                    s.push(';');
                }
                let _ = write!(s, " {}:", v as u64 + u64::from(base));
                first = false;
                listed = true;
            }
            let _ = write!(s, " {}", u as u64 + u64::from(base));
        }
    }
    s.push_str(" . f=[");
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&v| (g.vertex_colour(v as usize), v));
    for (i, &v) in order.iter().enumerate() {
        if i > 0 {
            let sep = if g.vertex_colour(order[i - 1] as usize) != g.vertex_colour(v as usize) {
                " |"
            } else {
                ""
            };
            s.push_str(sep);
        }
        let _ = write!(s, " {}", v as u64 + u64::from(base));
    }
    s.push_str(" ]");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_partition_and_several_graphs() {
        let text = "n=4 $=1 g 2 3; 4; . f=[1|2 3] x ! second\n n=3 $=0 d g 1; 2; 0. x";
        let gs = parse(text).unwrap();
        assert_eq!(gs.len(), 2);
        assert_eq!(gs[0].edges, vec![(0, 1), (0, 2), (1, 3)]);
        assert_eq!(gs[0].colours, vec![0, 1, 1, 2]);
        assert!(!gs[0].directed);
        assert!(gs[1].directed);
        assert_eq!(gs[1].edges, vec![(0, 1), (1, 2), (2, 0)]);
        assert_eq!(gs[1].line, 2);
    }

    #[test]
    fn current_vertex_and_ranges() {
        let gs = parse("n=5 g 3: 4 0; . f=[0:2|3]").unwrap();
        assert_eq!(gs.len(), 1);
        assert_eq!(gs[0].edges, vec![(3, 4), (3, 0)]);
        assert_eq!(gs[0].colours, vec![0, 0, 0, 1, 2]);
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("n=3 g 1; 7; .").unwrap_err();
        assert_eq!((e.line, e.column), (1, 10));
        assert!(e.message.contains("expected a vertex number"), "{e}");
        let e = parse("n=3\n g 1 . Ap").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not supported yet"), "{e}");
        assert!(parse("n=2 g 1; -0 .").is_err());
        assert!(parse("").is_err());
        let e = parse("n=99999999999").unwrap_err();
        assert!(e.message.contains("expected a vertex count"), "{e}");
    }

    #[test]
    fn write_round_trips() {
        let gs = parse("n=4 g 1 2; 3; . f=[3|0 1]").unwrap();
        let g = gs[0].to_graph();
        let text = write(&g, false, 0);
        let back = parse(&text).unwrap();
        assert_eq!(back[0].to_graph().out_to, g.out_to);
        assert_eq!(back[0].colours, gs[0].colours);
    }

    /// dreadnaut's `;` moves to the next vertex, so one after the last
    /// vertex's list would run past the end and make it reject the `.`.
    #[test]
    fn write_ends_the_last_list_with_the_full_stop() {
        let gs = parse("n=3 $=0 d g 0: 1; 1: 2; 2: 0. f=[0|1 2]").unwrap();
        let g = gs[0].to_graph();
        let text = write(&g, true, 0);
        assert!(text.contains(" 2: 0 . f=["), "{text}");
        assert_eq!(parse(&text).unwrap()[0].to_graph().out_to, g.out_to);
    }
}
