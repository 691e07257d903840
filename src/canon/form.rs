//! Leaf certificates and the canonical form.
//!
//! At a leaf the partition orders the vertices; vertex `v` gets the
//! canonical number `pos[v]`. The *certificate* of a leaf lists, for each
//! position `i` in order, the out-degree of the vertex there and its sorted
//! out-edges, each as the words `pos[target], colour`, or as `pos[target]`
//! alone when every edge of the graph has one colour (half the memory
//! traffic on the large uncoloured graphs; the order of certificates is the
//! same either way). Two leaves of a graph have equal certificates exactly
//! when the map between them is an automorphism; certificates are compared
//! lexicographically.
//!
//! The *form* prefixes the certificate of the canonical leaf with the vertex
//! count and the ordered colour classes `(colour, size)`, and always spells
//! edges as `(position, colour)` pairs, so graphs whose colour classes differ
//! (including classes empty in one graph only, thesis Example 3.28) never
//! share a form.

use super::graph::{Graph, splitmix};

/// Writes the certificate of the labelling `lab` (position -> vertex, with
/// inverse `pos`) into `cert`, in time linear in the size of the graph:
/// rows are filled by walking the edge heads in canonical order, so every
/// row comes out sorted without sorting. `cursor` is scratch space.
pub(crate) fn certificate(
    g: &Graph,
    lab: &[u32],
    pos: &[u32],
    cursor: &mut Vec<u32>,
    cert: &mut Vec<u32>,
) {
    let n = lab.len();
    let per_edge = if g.edge_colour.is_some() { 1 } else { 2 };
    // Every entry is written below: resizing without clearing skips
    // zeroing when the length is unchanged.
    cert.resize(n + per_edge * g.edge_count(), 0);
    cursor.resize(n, 0);
    let mut at = 0;
    for (&v, c) in lab.iter().zip(cursor.iter_mut()) {
        let deg = (g.out_off[v as usize + 1] - g.out_off[v as usize]) as usize;
        cert[at] = deg as u32;
        *c = (at + 1) as u32;
        at += 1 + per_edge * deg;
    }
    // In-rows are sorted by (tail, colour), so each out-row receives its
    // entries in increasing (head position, colour) order.
    for (t, &u) in lab.iter().enumerate() {
        let u = u as usize;
        let r = g.in_off[u] as usize..g.in_off[u + 1] as usize;
        if per_edge == 1 {
            for &from in &g.in_from[r] {
                let row = pos[from as usize] as usize;
                let slot = cursor[row] as usize;
                cursor[row] += 1;
                cert[slot] = t as u32;
            }
        } else {
            for (&from, &col) in g.in_from[r.clone()].iter().zip(&g.in_col[r]) {
                let row = pos[from as usize] as usize;
                let slot = cursor[row] as usize;
                cursor[row] += 2;
                cert[slot] = t as u32;
                cert[slot + 1] = col;
            }
        }
    }
}

/// Writes the form words: `n`, the number of colour classes, the classes
/// as `(colour, size)` pairs, then the certificate of `g`'s leaf with every
/// edge as a `(position, colour)` pair.
pub(crate) fn write_form(g: &Graph, classes: &[(u32, u32)], cert: &[u32], form: &mut Vec<u32>) {
    let n = g.vertex_count();
    let edges = g.edge_count();
    form.clear();
    form.resize(2 + 2 * classes.len() + n + 2 * edges, 0);
    form[0] = n as u32;
    form[1] = classes.len() as u32;
    for (slot, &(c, s)) in form[2..].chunks_exact_mut(2).zip(classes) {
        slot[0] = c;
        slot[1] = s;
    }
    let at = 2 + 2 * classes.len();
    match g.edge_colour {
        // One colour: expand each position into (position, colour).
        Some(colour) => {
            let mut i = 0;
            let mut at = at;
            while i < cert.len() {
                let deg = cert[i] as usize;
                form[at] = deg as u32;
                at += 1;
                for (slot, &p) in form[at..at + 2 * deg]
                    .chunks_exact_mut(2)
                    .zip(&cert[i + 1..i + 1 + deg])
                {
                    slot[0] = p;
                    slot[1] = colour;
                }
                at += 2 * deg;
                i += 1 + deg;
            }
        }
        None => form[at..].copy_from_slice(cert),
    }
}

/// A 128-bit hash of form words (two independent splitmix lanes).
pub fn hash_words(words: &[u32]) -> u128 {
    let mut a: u64 = 0x243f_6a88_85a3_08d3 ^ words.len() as u64;
    let mut b: u64 = 0x1319_8a2e_0370_7344;
    for &w in words {
        a = splitmix(a ^ u64::from(w));
        b = splitmix(b.rotate_left(17) ^ u64::from(w) ^ 0xa409_3822_299f_31d0);
    }
    (u128::from(a) << 64) | u128::from(b)
}

/// An owned canonical form: compare and hash it to decide isomorphism.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CanonForm(pub Box<[u32]>);

impl CanonForm {
    /// The form as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The 128-bit hash of the form.
    pub fn hash128(&self) -> u128 {
        hash_words(&self.0)
    }
}
