//! Vertex orbits of the automorphisms found so far, as a union-find forest
//! whose roots are the smallest vertex of each orbit.

/// Union-find over `0..n`; every root is the minimum of its set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Orbits {
    parent: Vec<u32>,
}

impl Orbits {
    /// Every vertex in its own orbit.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
    }

    /// The smallest vertex in the orbit of `v`.
    pub fn find(&mut self, v: u32) -> u32 {
        let mut root = v;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        let mut x = v;
        while self.parent[x as usize] != root {
            let next = self.parent[x as usize];
            self.parent[x as usize] = root;
            x = next;
        }
        root
    }

    /// Merges the orbits of `a` and `b`.
    pub fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb as usize] = ra;
        } else if rb < ra {
            self.parent[ra as usize] = rb;
        }
    }

    /// Merges the orbits joined by the permutation `perm`.
    pub fn add_permutation(&mut self, perm: &[u32]) {
        for (v, &w) in perm.iter().enumerate() {
            if v as u32 != w {
                self.union(v as u32, w);
            }
        }
    }

    /// Writes the orbit representative (smallest vertex) of every vertex.
    pub fn write_representatives(&mut self, out: &mut Vec<u32>) {
        out.clear();
        for v in 0..self.parent.len() as u32 {
            let r = self.find(v);
            out.push(r);
        }
    }

    /// Size of the orbit of `v` (linear time).
    pub fn orbit_size(&mut self, v: u32) -> usize {
        let r = self.find(v);
        (0..self.parent.len() as u32)
            .filter(|&x| self.find(x) == r)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_minima() {
        let mut o = Orbits::default();
        o.reset(6);
        o.add_permutation(&[0, 3, 2, 5, 4, 1]);
        assert_eq!(o.find(5), 1);
        assert_eq!(o.find(3), 1);
        assert_eq!(o.find(2), 2);
        assert_eq!(o.orbit_size(3), 3);
    }
}
