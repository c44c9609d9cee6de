//! The fill-reducing order of [`SparseLu`](super::sparse_lu::SparseLu)'s symbolic analysis, in
//! buffers that are kept between analyses: a pattern that changes during a run (a contact
//! group's watched pairs) is analysed again without allocating once the buffers have grown to
//! the largest pattern seen (they only grow).
//!
//! The pattern is symmetrised (the graph of M + Mᵀ) and states with the same closed
//! neighbourhood N[i] = {i} ∪ adj(i) are merged into supernodes (a body's states, whose rows and
//! columns read the same bodies, are one), numbered in order of their first state; equal
//! neighbourhoods are found by a hash of each sorted list, then compared entry by entry within
//! equal hashes. The supernodes are eliminated in minimum-degree order (George & Liu, "The
//! evolution of the minimum degree ordering algorithm", SIAM Review 31 (1989) 1–19): each step
//! eliminates the supernode with the fewest states adjacent (ties to the lowest index) and joins
//! its neighbours into a clique. Cost per analysis: O(entries·log) for the lists, O(S²) for the
//! selection among S supernodes, and the cliques' merges.

/// The order and the supernodes of one analysed pattern, with the work buffers that made them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ordering {
    /// Closed neighbourhoods, sorted: state i's are `adj[adj_ptr[i]..adj_ptr[i + 1]]`.
    adj_ptr: Vec<usize>,
    adj: Vec<usize>,
    /// A fill cursor per state (then per supernode).
    cursor: Vec<usize>,
    /// Hash of each closed neighbourhood, and the states sorted by (hash, state).
    hash: Vec<u64>,
    by_hash: Vec<usize>,
    /// The lowest state with the same closed neighbourhood, and each state's supernode.
    rep: Vec<usize>,
    of: Vec<usize>,
    /// Supernode s's states, ascending: `members[member_ptr[s]..member_ptr[s + 1]]`.
    member_ptr: Vec<usize>,
    members: Vec<usize>,
    /// Supernodes' adjacency during elimination: s's list is
    /// `arena[at[s]..at[s] + len[s]]` (room for `room[s]` there); a list that outgrows its
    /// room moves to the arena's end. An eliminated supernode's list is frozen: its later
    /// neighbours.
    arena: Vec<usize>,
    at: Vec<usize>,
    len: Vec<usize>,
    room: Vec<usize>,
    /// States adjacent to each supernode (Σ of its neighbours' weights), and eliminated flags.
    degree: Vec<usize>,
    done: Vec<bool>,
    /// A merged list being built.
    merged: Vec<usize>,
    /// The supernodes in elimination order.
    pub order: Vec<usize>,
}

/// Mixes one more value into a hash (the multiplier of FxHash; any odd constant with spread
/// bits would do: equal hashes are only candidates, compared in full).
fn mix(h: u64, v: usize) -> u64 {
    (h.rotate_left(5) ^ v as u64).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// Merges the sorted lists `a` and `b` into `out` (sorted, without duplicates), leaving out
/// `skip.0` and `skip.1`.
fn merge_into(a: &[usize], b: &[usize], skip: (usize, usize), out: &mut Vec<usize>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let v = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!(),
        };
        if v != skip.0 && v != skip.1 {
            out.push(v);
        }
    }
}

/// Sorts each list `list[ptr[k]..ptr[k + 1]]`, drops its repeats and compacts the lists in
/// place (`ptr` updated), leaving out the value `skip(k)` from list k.
fn sort_dedup_lists(ptr: &mut [usize], list: &mut Vec<usize>, skip: impl Fn(usize) -> usize) {
    let mut end = 0;
    for k in 0..ptr.len() - 1 {
        let (a, b) = (ptr[k], ptr[k + 1]);
        list[a..b].sort_unstable();
        ptr[k] = end;
        for p in a..b {
            let v = list[p];
            if (p == a || v != list[p - 1]) && v != skip(k) {
                list[end] = v;
                end += 1;
            }
        }
    }
    *ptr.last_mut().expect("n + 1 entries") = end;
    list.truncate(end);
}

impl Ordering {
    /// The number of supernodes.
    pub(crate) fn supernodes(&self) -> usize {
        self.order.len()
    }

    /// Supernode s's states, ascending.
    pub(crate) fn members(&self, s: usize) -> &[usize] {
        &self.members[self.member_ptr[s]..self.member_ptr[s + 1]]
    }

    /// The supernodes adjacent to s when it was eliminated (its later neighbours).
    pub(crate) fn later(&self, s: usize) -> &[usize] {
        &self.arena[self.at[s]..self.at[s] + self.len[s]]
    }

    /// Orders the n × n pattern given column by column (column j's rows are
    /// `rows[col_ptr[j]..col_ptr[j + 1]]`; the diagonal may be present or not).
    pub(crate) fn compute(&mut self, n: usize, col_ptr: &[usize], rows: &[usize]) {
        self.closed_neighbourhoods(n, col_ptr, rows);
        let ns = self.supernodes_of(n);
        self.minimum_degree(ns);
    }

    /// The symmetrised graph's closed neighbourhoods, sorted, into `adj_ptr`/`adj`.
    fn closed_neighbourhoods(&mut self, n: usize, col_ptr: &[usize], rows: &[usize]) {
        self.adj_ptr.clear();
        self.adj_ptr.resize(n + 1, 1); // the state itself
        self.adj_ptr[0] = 0;
        for j in 0..n {
            for &i in rows[col_ptr[j]..col_ptr[j + 1]].iter().filter(|&&i| i != j) {
                self.adj_ptr[i + 1] += 1;
                self.adj_ptr[j + 1] += 1;
            }
        }
        for i in 0..n {
            self.adj_ptr[i + 1] += self.adj_ptr[i];
        }
        self.adj.clear();
        self.adj.resize(self.adj_ptr[n], 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.adj_ptr[..n]);
        for i in 0..n {
            self.adj[self.cursor[i]] = i;
            self.cursor[i] += 1;
        }
        for j in 0..n {
            for &i in rows[col_ptr[j]..col_ptr[j + 1]].iter().filter(|&&i| i != j) {
                self.adj[self.cursor[i]] = j;
                self.cursor[i] += 1;
                self.adj[self.cursor[j]] = i;
                self.cursor[j] += 1;
            }
        }
        sort_dedup_lists(&mut self.adj_ptr, &mut self.adj, |_| usize::MAX);
    }

    /// State i's closed neighbourhood.
    fn closed(&self, i: usize) -> &[usize] {
        &self.adj[self.adj_ptr[i]..self.adj_ptr[i + 1]]
    }

    /// Supernodes (`of`, `members`), numbered in order of first state; returns their number.
    fn supernodes_of(&mut self, n: usize) -> usize {
        self.hash.clear();
        for i in 0..n {
            let h = self.closed(i).iter().fold(n as u64, |h, &v| mix(h, v));
            self.hash.push(h);
        }
        self.by_hash.clear();
        self.by_hash.extend(0..n);
        let hash = &self.hash;
        self.by_hash.sort_unstable_by_key(|&i| (hash[i], i));
        self.rep.clear();
        self.rep.extend(0..n);
        let mut a = 0;
        while a < n {
            let h = self.hash[self.by_hash[a]];
            let b = a + self.by_hash[a..].partition_point(|&i| self.hash[i] == h);
            for p in a + 1..b {
                let i = self.by_hash[p];
                let same = self.by_hash[a..p]
                    .iter()
                    .find(|&&j| self.rep[j] == j && self.closed(j) == self.closed(i));
                if let Some(&j) = same {
                    self.rep[i] = j;
                }
            }
            a = b;
        }
        self.of.clear();
        self.of.resize(n, 0);
        let mut ns = 0;
        for i in 0..n {
            self.of[i] = if self.rep[i] == i {
                ns += 1;
                ns - 1
            } else {
                self.of[self.rep[i]]
            };
        }
        // Members by a counting sort on the supernode (states stay ascending).
        self.member_ptr.clear();
        self.member_ptr.resize(ns + 1, 0);
        for &s in &self.of {
            self.member_ptr[s + 1] += 1;
        }
        for s in 0..ns {
            self.member_ptr[s + 1] += self.member_ptr[s];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.member_ptr[..ns]);
        self.members.clear();
        self.members.resize(n, 0);
        for i in 0..n {
            let s = self.of[i];
            self.members[self.cursor[s]] = i;
            self.cursor[s] += 1;
        }
        ns
    }

    /// The minimum-degree elimination of the supernodes into `order`, their later neighbours
    /// kept in the arena.
    fn minimum_degree(&mut self, ns: usize) {
        // Each supernode's neighbours: the supernodes of its first state's neighbourhood.
        self.arena.clear();
        self.at.clear();
        self.len.clear();
        for s in 0..ns {
            let first = self.members[self.member_ptr[s]];
            let (a, b) = (self.adj_ptr[first], self.adj_ptr[first + 1]);
            self.at.push(self.arena.len());
            for p in a..b {
                self.arena.push(self.of[self.adj[p]]);
            }
        }
        self.at.push(self.arena.len());
        sort_dedup_lists(&mut self.at, &mut self.arena, |s| s);
        for s in 0..ns {
            self.len.push(self.at[s + 1] - self.at[s]);
        }
        self.at.truncate(ns);
        self.room.clear();
        self.room.extend_from_slice(&self.len);
        let weight = |member_ptr: &[usize], t: usize| member_ptr[t + 1] - member_ptr[t];
        self.degree.clear();
        for s in 0..ns {
            let list = &self.arena[self.at[s]..self.at[s] + self.len[s]];
            let d = list.iter().map(|&t| weight(&self.member_ptr, t)).sum();
            self.degree.push(d);
        }
        self.done.clear();
        self.done.resize(ns, false);
        self.order.clear();
        for _ in 0..ns {
            let s = (0..ns)
                .filter(|&s| !self.done[s])
                .min_by_key(|&s| (self.degree[s], s))
                .expect("a supernode is left");
            self.done[s] = true;
            self.order.push(s);
            for k in 0..self.len[s] {
                let t = self.arena[self.at[s] + k];
                let nbrs = &self.arena[self.at[s]..self.at[s] + self.len[s]];
                let own = &self.arena[self.at[t]..self.at[t] + self.len[t]];
                merge_into(own, nbrs, (t, s), &mut self.merged);
                let m = self.merged.len();
                if m > self.room[t] {
                    self.at[t] = self.arena.len();
                    self.room[t] = m;
                    self.arena.extend_from_slice(&self.merged);
                } else {
                    self.arena[self.at[t]..self.at[t] + m].copy_from_slice(&self.merged);
                }
                self.len[t] = m;
                self.degree[t] = self
                    .merged
                    .iter()
                    .map(|&u| weight(&self.member_ptr, u))
                    .sum();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The straightforward analysis (one `Vec` per list, a `HashMap` of neighbourhoods) that the
    /// buffered one replaced: its supernodes, their order and their later neighbours.
    fn reference(n: usize, col_ptr: &[usize], rows: &[usize]) -> Vec<(Vec<usize>, Vec<usize>)> {
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        for j in 0..n {
            for &i in &rows[col_ptr[j]..col_ptr[j + 1]] {
                if i != j {
                    adj[i].push(j);
                    adj[j].push(i);
                }
            }
        }
        for a in adj.iter_mut() {
            a.sort_unstable();
            a.dedup();
        }
        let mut of = vec![0; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut seen: HashMap<Vec<usize>, usize> = HashMap::new();
        for i in 0..n {
            let mut closed = adj[i].clone();
            let at = closed.partition_point(|&v| v < i);
            closed.insert(at, i);
            let next = members.len();
            let s = *seen.entry(closed).or_insert(next);
            if s == next {
                members.push(Vec::new());
            }
            members[s].push(i);
            of[i] = s;
        }
        let ns = members.len();
        let weight: Vec<usize> = members.iter().map(Vec::len).collect();
        let mut sadj: Vec<Vec<usize>> = (0..ns)
            .map(|s| {
                let mut a: Vec<usize> = adj[members[s][0]].iter().map(|&v| of[v]).collect();
                a.sort_unstable();
                a.dedup();
                a.retain(|&t| t != s);
                a
            })
            .collect();
        let degree = |a: &[usize]| a.iter().map(|&t| weight[t]).sum::<usize>();
        let mut deg: Vec<usize> = sadj.iter().map(|a| degree(a)).collect();
        let mut done = vec![false; ns];
        let mut out = Vec::new();
        let mut merged = Vec::new();
        for _ in 0..ns {
            let s = (0..ns)
                .filter(|&s| !done[s])
                .min_by_key(|&s| (deg[s], s))
                .unwrap();
            done[s] = true;
            let nbrs = std::mem::take(&mut sadj[s]);
            for &t in &nbrs {
                merge_into(&sadj[t], &nbrs, (t, s), &mut merged);
                std::mem::swap(&mut sadj[t], &mut merged);
                deg[t] = degree(&sadj[t]);
            }
            out.push((
                members[s].clone(),
                nbrs.iter().map(|&t| members[t][0]).collect(),
            ));
        }
        out
    }

    /// On random block patterns (bodies of several states reading a random contact graph, plus
    /// scattered single entries that split some supernodes), analysed one after the other in
    /// the same buffers, the buffered analysis gives the reference's supernodes, order and
    /// later neighbours exactly (so the sparse LU's results are those of before).
    #[test]
    fn the_buffered_order_is_the_reference_order() {
        let mut seed = 7u64;
        let mut rand = move |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        let mut ordering = Ordering::default();
        for (bodies, size, contacts, singles) in [(30, 13, 4, 0), (50, 6, 6, 20), (12, 1, 3, 5)] {
            let n = bodies * size;
            let mut dep = vec![false; n * n];
            for a in 0..bodies {
                let mut couple = |a: usize, b: usize| {
                    for i in a * size..(a + 1) * size {
                        for j in b * size..(b + 1) * size {
                            dep[i * n + j] = true;
                        }
                    }
                };
                couple(a, a);
                for _ in 0..contacts / 2 {
                    let b = rand(bodies);
                    couple(a, b);
                    couple(b, a);
                }
            }
            for _ in 0..singles {
                let (i, j) = (rand(n), rand(n));
                dep[i * n + j] = true;
            }
            let (mut col_ptr, mut rows) = (vec![0], Vec::new());
            for j in 0..n {
                rows.extend((0..n).filter(|&i| dep[i * n + j]));
                col_ptr.push(rows.len());
            }
            ordering.compute(n, &col_ptr, &rows);
            let got: Vec<(Vec<usize>, Vec<usize>)> = ordering
                .order
                .iter()
                .map(|&s| {
                    let later = ordering.later(s).iter();
                    let firsts = later.map(|&t| ordering.members(t)[0]).collect();
                    (ordering.members(s).to_vec(), firsts)
                })
                .collect();
            assert_eq!(got, reference(n, &col_ptr, &rows), "{bodies} × {size}");
            assert!(ordering.supernodes() < n || size == 1);
        }
    }
}
