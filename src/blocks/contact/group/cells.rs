//! The cells of the group's grid (`grid.rs`): a spatial hash of the small members' box centres
//! into cells of a given edge, counting-sorted into a table of `2^⌈log₂ 2n⌉` buckets (n
//! members hashed), and the walk over the 27 cells around a member's (see `grid.rs`'s module
//! documentation for why those hold every partner within the reach).

/// The cells and their buckets, sized once.
#[derive(Clone, Debug)]
pub(super) struct Cells {
    /// The cell edge (m).
    cell: f64,
    /// Per member: its cell (hashed members only).
    cell_of: Vec<[i64; 3]>,
    /// The buckets: bucket b holds `entries[start[b]..start[b + 1]]` (members, ascending, each
    /// with its cell).
    start: Vec<u32>,
    fill: Vec<u32>,
    entries: Vec<(u32, [i64; 3])>,
    /// The bucket count less one (a power of two less one).
    mask: usize,
}

impl Cells {
    /// Cells of edge `cell` (m) over `m` members, `hashed` of which are hashed at a time, with
    /// room for `entries` entries.
    pub(super) fn new(m: usize, hashed: usize, entries: usize, cell: f64) -> Self {
        let buckets = (2 * hashed).max(1).next_power_of_two();
        Cells {
            // A zero-size cell (points only, no reach) would put every member in its own cell
            // at any distance: any positive edge is correct then.
            cell: if cell > 0.0 { cell } else { 1.0 },
            cell_of: vec![[0; 3]; m],
            start: vec![0; buckets + 1],
            fill: vec![0; buckets],
            entries: vec![(0, [0; 3]); entries],
            mask: buckets - 1,
        }
    }

    /// The bucket of a cell: a hash of its row (y, z) plus x, so that the three cells x − 1,
    /// x, x + 1 of a row lie in three consecutive buckets (modulo the table).
    #[inline]
    fn bucket(&self, c: [i64; 3]) -> usize {
        let row = (c[1].wrapping_mul(73_856_093)) ^ (c[2].wrapping_mul(19_349_663));
        (row.wrapping_add(c[0]) as u64 as usize) & self.mask
    }

    /// Hashes the box centres of the members `small` (ascending) into their cells' buckets.
    pub(super) fn rebuild(&mut self, small: &[u32], lo: &[[f64; 3]], hi: &[[f64; 3]]) {
        self.start.fill(0);
        for &k in small {
            let k = k as usize;
            let mut c = [0i64; 3];
            for (a, ca) in c.iter_mut().enumerate() {
                // Saturating for a box at infinity or NaN (its gaps then exceed any reach).
                *ca = (0.5 * (lo[k][a] + hi[k][a]) / self.cell).floor() as i64;
            }
            self.cell_of[k] = c;
            let b = self.bucket(c);
            self.start[b + 1] += 1;
        }
        let buckets = self.fill.len();
        for b in 0..buckets {
            self.start[b + 1] += self.start[b];
        }
        self.fill.copy_from_slice(&self.start[..buckets]);
        for &k in small {
            let c = self.cell_of[k as usize];
            let b = self.bucket(c);
            self.entries[self.fill[b] as usize] = (k, c);
            self.fill[b] += 1;
        }
    }

    /// Calls `found(b)` for each hashed member b > a in the 27 cells around hashed member a's:
    /// nine rows (y, z) of three cells each, a row's three buckets read as one run when they do
    /// not wrap around the table.
    #[inline]
    pub(super) fn small_partners(&self, a: u32, found: &mut impl FnMut(u32)) {
        let c = self.cell_of[a as usize];
        for dz in -1..=1 {
            for dy in -1..=1 {
                let (y, z) = (c[1].wrapping_add(dy), c[2].wrapping_add(dz));
                let first = self.bucket([c[0].wrapping_sub(1), y, z]);
                if first + 2 <= self.mask {
                    // Three distinct buckets: each member in them is seen once.
                    let run = self.start[first] as usize..self.start[first + 3] as usize;
                    for &(k, kc) in &self.entries[run] {
                        let in_row = kc[1] == y && kc[2] == z && kc[0].abs_diff(c[0]) <= 1;
                        if k > a && in_row {
                            found(k);
                        }
                    }
                } else {
                    // Wrapping (or a table of fewer than three buckets, where a bucket may come
                    // twice): cell by cell, each member matching one cell only.
                    for dx in -1..=1 {
                        let cell = [c[0].wrapping_add(dx), y, z];
                        let b = self.bucket(cell);
                        let run = self.start[b] as usize..self.start[b + 1] as usize;
                        for &(k, kc) in &self.entries[run] {
                            if k > a && kc == cell {
                                found(k);
                            }
                        }
                    }
                }
            }
        }
    }
}
