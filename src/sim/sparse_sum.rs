//! `dst[t] = Σ c·src[s]` over a fixed set of targets and terms `(t, s, c)`, laid out for speed
//! once when the engine is built.
//!
//! The terms of a fused linear diagram are mostly *runs*: consecutive targets reading consecutive
//! sources (a chain of stages reads `x[i-1]` and `x[i]` for every `i`; a vector Gain feeds a vector
//! Integrator element by element). A run of length `n` from target `t0`, source `s0` is the
//! contiguous update `dst[t0..t0+n] += c[..] * src[s0..s0+n]`, which the compiler vectorizes and
//! whose iterations are independent. Scattering the same terms one by one instead chains every
//! update of a target through memory (store-to-load forwarding), several times slower. This is
//! the diagonal (DIA) storage of sparse matrices, kept exact: a run holds only terms that exist
//! (no padded zeros, so a non-finite source that no term reads never reaches `dst`).
//!
//! Runs are then cut at each other's ends, and the pieces over the same targets grouped into a
//! *band*: `dst[t0..t0+n] = Σ_k c_k · src_k[..]`, evaluated two sources per pass. Bands cover
//! disjoint targets, so each assigns its targets instead of clearing and adding; a chain's two
//! diagonals become one pass that reads two sources and writes once, like the loop one would
//! write by hand. Pieces shorter than [`MIN_RUN`] and terms in no run are scalar terms: those on
//! targets no band writes run first (the first of each target assigns), those adding onto band
//! targets run last.

use std::ops::Range;

/// The shortest run stored as a run; shorter ones cost less as scalar terms.
pub const MIN_RUN: usize = 4;

/// Which buffer a term reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The signal buffer.
    Signals,
    /// The state vector.
    States,
}

/// A band source's coefficients: one for the whole band (a Sum's sign, a scalar Gain broadcast
/// over a vector), which saves streaming them from memory, or one per element.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Coefficients {
    Uniform(f64),
    /// Start in [`SparseSum::coefficients`]; one per target of the band.
    Varying(u32),
}

/// One source of a band: `c · src[start..start+len]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BandSource {
    from: Source,
    start: u32,
    coefficients: Coefficients,
}

/// `dst[target..target+len] = Σ over its sources`.
#[derive(Clone, Debug, PartialEq)]
struct Band {
    target: u32,
    len: u32,
    /// Range in [`SparseSum::sources`].
    sources: Range<u32>,
}

/// `dst[t] = Σ c·src[s]` for a fixed set of targets `t` and terms `(t, s, c)` reading the
/// signals or the states.
#[derive(Clone, Debug, Default)]
pub struct SparseSum {
    /// Targets that no band assigns and no scalar term assigns: cleared first.
    clear: ZeroRanges,
    bands: Vec<Band>,
    sources: Vec<BandSource>,
    coefficients: Vec<f64>,
    /// Terms outside bands on targets no band assigns: evaluated before the bands.
    scalars_apart: ScalarTerms,
    /// Terms outside bands adding onto band targets: evaluated after the bands.
    scalars_onto_bands: ScalarTerms,
}

/// `(target, source, c)` terms evaluated one by one, per source buffer. The `*_assign` terms
/// store (the first term of a target nothing else writes first) and run before those that add.
#[derive(Clone, Debug, Default)]
struct ScalarTerms {
    signal_assign: Vec<(u32, u32, f64)>,
    state_assign: Vec<(u32, u32, f64)>,
    signal_add: Vec<(u32, u32, f64)>,
    state_add: Vec<(u32, u32, f64)>,
}

impl ScalarTerms {
    fn len(&self) -> usize {
        self.signal_assign.len()
            + self.state_assign.len()
            + self.signal_add.len()
            + self.state_add.len()
    }

    #[inline(always)]
    fn evaluate(&self, signals: &[f64], states: &[f64], dst: &mut [f64]) {
        for &(t, s, c) in &self.signal_assign {
            dst[t as usize] = c * signals[s as usize];
        }
        for &(t, s, c) in &self.state_assign {
            dst[t as usize] = c * states[s as usize];
        }
        for &(t, s, c) in &self.signal_add {
            dst[t as usize] += c * signals[s as usize];
        }
        for &(t, s, c) in &self.state_add {
            dst[t as usize] += c * states[s as usize];
        }
    }
}

/// A stretch of consecutive targets on one diagonal: `(target, source, c)` per element.
type Stretch = (Source, Vec<(u32, u32, f64)>);

/// A run cut to a band's targets: `(first target, length, source buffer, terms)`.
type Piece<'a> = (u32, u32, Source, &'a [(u32, u32, f64)]);

/// The maximal stretches of `terms` on one diagonal (source − target), in any order.
fn stretches(from: Source, terms: &[(u32, u32, f64)]) -> Vec<Stretch> {
    let mut sorted: Vec<(i64, u32, u32, f64)> = terms
        .iter()
        .map(|&(t, s, c)| (s as i64 - t as i64, t, s, c))
        .collect();
    sorted.sort_by_key(|a| (a.0, a.1));
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i + 1;
        while j < sorted.len() && sorted[j].0 == sorted[i].0 && sorted[j].1 == sorted[j - 1].1 + 1 {
            j += 1;
        }
        out.push((
            from,
            sorted[i..j].iter().map(|&(_, t, s, c)| (t, s, c)).collect(),
        ));
        i = j;
    }
    out
}

impl SparseSum {
    /// Arranges the terms of `targets` (a target without terms gets 0). The same
    /// `(target, source)` pair may appear only once per source; every term's target must be in
    /// `targets`.
    pub fn new(
        targets: &[u32],
        signal_terms: &[(u32, u32, f64)],
        state_terms: &[(u32, u32, f64)],
    ) -> SparseSum {
        debug_assert!(
            {
                let mut known = targets.to_vec();
                known.sort_unstable();
                signal_terms
                    .iter()
                    .chain(state_terms)
                    .all(|term| known.binary_search(&term.0).is_ok())
            },
            "every term's target must be one of the targets"
        );
        let mut sum = SparseSum::default();
        let mut runs: Vec<Stretch> = Vec::new();
        let mut scalars: Vec<(Source, (u32, u32, f64))> = Vec::new();
        for (from, terms) in [
            (Source::Signals, signal_terms),
            (Source::States, state_terms),
        ] {
            for (from, stretch) in stretches(from, terms) {
                if stretch.len() >= MIN_RUN {
                    runs.push((from, stretch));
                } else {
                    scalars.extend(stretch.into_iter().map(|e| (from, e)));
                }
            }
        }
        // Cut every run at every run's ends, so that pieces either cover the same targets or
        // none in common.
        let mut cuts: Vec<u32> = runs
            .iter()
            .flat_map(|(_, r)| [r[0].0, r[0].0 + r.len() as u32])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut pieces: Vec<Piece> = Vec::new();
        for (from, run) in &runs {
            let (start, end) = (run[0].0, run[0].0 + run.len() as u32);
            let first = cuts.partition_point(|&c| c <= start);
            let mut lo = start;
            for &cut in cuts[first..].iter().take_while(|&&c| c < end).chain([&end]) {
                let piece = &run[(lo - start) as usize..(cut - start) as usize];
                if piece.len() >= MIN_RUN {
                    pieces.push((lo, cut - lo, *from, piece));
                } else {
                    scalars.extend(piece.iter().map(|&e| (*from, e)));
                }
                lo = cut;
            }
        }
        pieces.sort_by_key(|&(t, len, from, piece)| (t, len, from, piece[0].1));
        let size = targets.iter().map(|&t| t as usize + 1).max().unwrap_or(0);
        let mut assigned = vec![false; size];
        for group in pieces.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (target, len) = (group[0].0, group[0].1);
            let first_source = sum.sources.len() as u32;
            for &(_, _, from, piece) in group {
                let c0 = piece[0].2;
                let coefficients = if piece.iter().all(|e| e.2.to_bits() == c0.to_bits()) {
                    Coefficients::Uniform(c0)
                } else {
                    let start = sum.coefficients.len() as u32;
                    sum.coefficients.extend(piece.iter().map(|e| e.2));
                    Coefficients::Varying(start)
                };
                sum.sources.push(BandSource {
                    from,
                    start: piece[0].1,
                    coefficients,
                });
            }
            sum.bands.push(Band {
                target,
                len,
                sources: first_source..sum.sources.len() as u32,
            });
            assigned[target as usize..(target + len) as usize].fill(true);
        }
        // Scalar terms in target order: neighbouring updates then touch neighbouring memory.
        // Those on targets no band writes run before the bands (their stores do not wait behind
        // the bands' in the store buffer), each such target taking its first term by assignment
        // (no clearing); those adding onto band targets run after the bands.
        scalars.sort_by_key(|&(from, (t, s, _))| (t, from, s));
        let on_band = assigned.clone();
        for (from, term) in scalars {
            let t = term.0 as usize;
            let group = if on_band[t] {
                &mut sum.scalars_onto_bands
            } else {
                &mut sum.scalars_apart
            };
            let list = match (from, !assigned[t]) {
                (Source::Signals, true) => &mut group.signal_assign,
                (Source::States, true) => &mut group.state_assign,
                (Source::Signals, false) => &mut group.signal_add,
                (Source::States, false) => &mut group.state_add,
            };
            list.push(term);
            assigned[t] = true;
        }
        let to_clear: Vec<u32> = targets
            .iter()
            .copied()
            .filter(|&t| !assigned[t as usize])
            .collect();
        sum.clear = ZeroRanges::new(&to_clear);
        sum
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms_in_bands() + self.scalars_apart.len() + self.scalars_onto_bands.len()
    }

    /// Number of terms stored in bands (the rest are scalar).
    pub fn terms_in_bands(&self) -> usize {
        self.bands
            .iter()
            .map(|b| b.len as usize * b.sources.len())
            .sum()
    }

    /// `dst[t] = Σ c·src[s]` for every target, reading `signals` and `states`.
    ///
    /// # Panics
    /// If a term's target or source lies outside `dst` or its source buffer (the engine sizes
    /// all three from the same diagram the terms come from).
    #[inline]
    pub fn evaluate(&self, signals: &[f64], states: &[f64], dst: &mut [f64]) {
        self.clear.apply(dst);
        self.scalars_apart.evaluate(signals, states, dst);
        for band in &self.bands {
            let (t, n) = (band.target as usize, band.len as usize);
            let dst = &mut dst[t..t + n];
            let sources = &self.sources[band.sources.start as usize..band.sources.end as usize];
            let view = |s: &BandSource| {
                let k = s.start as usize;
                let src = match s.from {
                    Source::Signals => &signals[k..k + n],
                    Source::States => &states[k..k + n],
                };
                let c = Coef::new(s.coefficients, &self.coefficients, n);
                (src, c)
            };
            let mut assign = true;
            for pair in sources.chunks(2) {
                match pair {
                    [a, b] => pass2(dst, view(a), view(b), assign),
                    [a] => pass1(dst, view(a), assign),
                    _ => {}
                }
                assign = false;
            }
        }
        self.scalars_onto_bands.evaluate(signals, states, dst);
    }
}

/// A band source's coefficients at evaluation time. ±1 (a Sum's signs, unit gains) get their
/// own kinds: `1·x` and `−1·x` are exactly `x` and `−x`, so adding or subtracting instead of
/// multiplying gives bit-identical results with one operation less per element.
#[derive(Clone, Copy)]
enum Coef<'a> {
    PlusOne,
    MinusOne,
    Uniform(f64),
    Varying(&'a [f64]),
}

impl<'a> Coef<'a> {
    fn new(coefficients: Coefficients, all: &'a [f64], n: usize) -> Coef<'a> {
        match coefficients {
            Coefficients::Uniform(1.0) => Coef::PlusOne,
            Coefficients::Uniform(-1.0) => Coef::MinusOne,
            Coefficients::Uniform(c) => Coef::Uniform(c),
            Coefficients::Varying(j) => Coef::Varying(&all[j as usize..j as usize + n]),
        }
    }
}

/// One coefficient kind, as a type: each combination of kinds gets its own loop, which the
/// compiler vectorizes.
trait Scale: Copy {
    /// `c_i · x`.
    fn scale(self, i: usize, x: f64) -> f64;
}

#[derive(Clone, Copy)]
struct PlusOne;
#[derive(Clone, Copy)]
struct MinusOne;
#[derive(Clone, Copy)]
struct Uniform(f64);
/// Coefficients at least as long as the band (checked once before the loop).
#[derive(Clone, Copy)]
struct Varying<'a>(&'a [f64]);

impl Scale for PlusOne {
    #[inline(always)]
    fn scale(self, _: usize, x: f64) -> f64 {
        x
    }
}
impl Scale for MinusOne {
    #[inline(always)]
    fn scale(self, _: usize, x: f64) -> f64 {
        -x
    }
}
impl Scale for Uniform {
    #[inline(always)]
    fn scale(self, _: usize, x: f64) -> f64 {
        self.0 * x
    }
}
impl Scale for Varying<'_> {
    #[inline(always)]
    fn scale(self, i: usize, x: f64) -> f64 {
        self.0[i] * x
    }
}

/// Calls `$body` with `$s` bound to the [`Scale`] type of coefficient `$c`.
macro_rules! with_scale {
    ($c:expr, $n:expr, |$s:ident| $body:expr) => {
        match $c {
            Coef::PlusOne => {
                let $s = PlusOne;
                $body
            }
            Coef::MinusOne => {
                let $s = MinusOne;
                $body
            }
            Coef::Uniform(c) => {
                let $s = Uniform(c);
                $body
            }
            Coef::Varying(c) => {
                let $s = Varying(&c[..$n]);
                $body
            }
        }
    };
}

/// `dst (=|+=) c·src`.
#[inline(always)]
fn pass1(dst: &mut [f64], (src, c): (&[f64], Coef<'_>), assign: bool) {
    #[inline(always)]
    fn run<A: Scale>(dst: &mut [f64], x: &[f64], a: A, assign: bool) {
        let x = &x[..dst.len()];
        if assign {
            for (i, d) in dst.iter_mut().enumerate() {
                *d = a.scale(i, x[i]);
            }
        } else {
            for (i, d) in dst.iter_mut().enumerate() {
                *d += a.scale(i, x[i]);
            }
        }
    }
    let n = dst.len();
    with_scale!(c, n, |a| run(dst, src, a, assign))
}

/// `dst (=|+=) a·src_a + b·src_b` in one pass.
#[inline(always)]
fn pass2(
    dst: &mut [f64],
    (xa, ca): (&[f64], Coef<'_>),
    (xb, cb): (&[f64], Coef<'_>),
    assign: bool,
) {
    #[inline(always)]
    fn run<A: Scale, B: Scale>(dst: &mut [f64], xa: &[f64], a: A, xb: &[f64], b: B, assign: bool) {
        let (xa, xb) = (&xa[..dst.len()], &xb[..dst.len()]);
        if assign {
            for (i, d) in dst.iter_mut().enumerate() {
                *d = a.scale(i, xa[i]) + b.scale(i, xb[i]);
            }
        } else {
            for (i, d) in dst.iter_mut().enumerate() {
                *d += a.scale(i, xa[i]) + b.scale(i, xb[i]);
            }
        }
    }
    let n = dst.len();
    with_scale!(ca, n, |a| with_scale!(cb, n, |b| run(
        dst, xa, a, xb, b, assign
    )))
}

/// Sets `dst[i] = 0` for every `i` of a fixed set of indices, stored as contiguous ranges.
#[derive(Clone, Debug, Default)]
pub struct ZeroRanges {
    ranges: Vec<(u32, u32)>,
}

impl ZeroRanges {
    /// The ranges covering `indices` (any order, no duplicates needed).
    pub fn new(indices: &[u32]) -> ZeroRanges {
        let mut sorted = indices.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for i in sorted {
            match ranges.last_mut() {
                Some((_, end)) if *end == i => *end += 1,
                _ => ranges.push((i, i + 1)),
            }
        }
        ZeroRanges { ranges }
    }

    /// Zeroes every index.
    #[inline]
    pub fn apply(&self, dst: &mut [f64]) {
        for &(start, end) in &self.ranges {
            dst[start as usize..end as usize].fill(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: clear the targets, then one scalar update per term.
    fn naive(
        targets: &[u32],
        signal_terms: &[(u32, u32, f64)],
        state_terms: &[(u32, u32, f64)],
        signals: &[f64],
        states: &[f64],
        dst: &mut [f64],
    ) {
        for &t in targets {
            dst[t as usize] = 0.0;
        }
        for &(t, s, c) in signal_terms {
            dst[t as usize] += c * signals[s as usize];
        }
        for &(t, s, c) in state_terms {
            dst[t as usize] += c * states[s as usize];
        }
    }

    /// Each target gets the same terms in a possibly different order: equal to a few ulps of
    /// the largest term (`scale`).
    fn assert_close(fast: &[f64], slow: &[f64], scale: f64) {
        for (i, (a, b)) in fast.iter().zip(slow).enumerate() {
            assert!(
                (a - b).abs() <= 64.0 * f64::EPSILON * scale,
                "[{i}] {a} vs {b}"
            );
        }
    }

    #[test]
    fn chain_terms_become_one_band_of_two_diagonals() {
        // x_i' = u − x_0 for i = 0, x_{i-1} − x_i otherwise, for i in 0..8, with u a signal.
        let targets: Vec<u32> = (0..8).collect();
        let mut state_terms = Vec::new();
        for i in 0..8u32 {
            state_terms.push((i, i, -1.0));
            if i > 0 {
                state_terms.push((i, i - 1, 1.0));
            }
        }
        let signal_terms = [(0, 3, 1.0)];
        let sum = SparseSum::new(&targets, &signal_terms, &state_terms);
        // The main diagonal's first element is cut off (scalar); the rest of it and the
        // sub-diagonal form one band of two uniform sources over targets 1..8.
        assert_eq!(sum.bands.len(), 1);
        assert_eq!((sum.bands[0].target, sum.bands[0].len), (1, 7));
        assert!(sum
            .sources
            .iter()
            .all(|s| matches!(s.coefficients, Coefficients::Uniform(_))));
        // Target 0: its signal term assigns, its state term adds; nothing is cleared.
        assert!(sum.clear.ranges.is_empty());
        let apart = &sum.scalars_apart;
        assert_eq!((apart.signal_assign.len(), apart.state_add.len()), (1, 1));
        assert_eq!(sum.scalars_onto_bands.len(), 0);
        assert_eq!((sum.terms_in_bands(), sum.len()), (14, 16));
        let signals = [0.0, 0.0, 0.0, 2.5];
        let states: Vec<f64> = (0..8).map(|i| (i * i) as f64 + 0.5).collect();
        let (mut fast, mut slow) = (vec![7.0; 8], vec![7.0; 8]);
        sum.evaluate(&signals, &states, &mut fast);
        naive(
            &targets,
            &signal_terms,
            &state_terms,
            &signals,
            &states,
            &mut slow,
        );
        assert_close(&fast, &slow, 50.0);
        assert_eq!(slow[0], 2.5 - 0.5);
    }

    #[test]
    fn random_terms_with_gaps_and_untouched_targets_match_the_reference() {
        // Pseudo-random sparse terms: a deterministic LCG picks (target, source) pairs.
        let mut state = 0x2545_f491_u64;
        let mut next = |m: u32| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((state >> 33) % m as u64) as u32
        };
        // Targets: every other index below 40 plus 41..60; 40 and the odd ones are not ours.
        let targets: Vec<u32> = (0..40).step_by(2).chain(41..60).collect();
        let mut terms: [Vec<(u32, u32, f64)>; 2] = [Vec::new(), Vec::new()];
        for round in 0..400 {
            let list = &mut terms[round % 2];
            let (t, s) = (targets[next(targets.len() as u32) as usize], next(60));
            if !list.iter().any(|e| e.0 == t && e.1 == s) {
                list.push((t, s, next(100) as f64 / 7.0 - 5.0));
            }
        }
        // Plus long diagonals over the same targets, with a hole (two runs, not one padded
        // run): varying coefficients, a uniform −2, +1 and −1 (bands of four sources, every
        // coefficient kind).
        for i in (41..60u32).filter(|&i| i != 50) {
            for (list, src, c) in [
                (0, i - 30, 0.5 + i as f64),
                (1, i - 41, -2.0),
                (1, i - 40, 1.0),
                (0, i - 38, -1.0),
            ] {
                if !terms[list].iter().any(|e| e.0 == i && e.1 == src) {
                    terms[list].push((i, src, c));
                }
            }
        }
        let sum = SparseSum::new(&targets, &terms[0], &terms[1]);
        assert_eq!(sum.len(), terms[0].len() + terms[1].len());
        assert!(sum.terms_in_bands() >= 30);
        let signals: Vec<f64> = (0..60).map(|i| (i as f64).sin()).collect();
        let states: Vec<f64> = (0..60).map(|i| (i as f64 * 0.7).cos()).collect();
        let (mut fast, mut slow) = (vec![0.25; 60], vec![0.25; 60]);
        sum.evaluate(&signals, &states, &mut fast);
        naive(&targets, &terms[0], &terms[1], &signals, &states, &mut slow);
        // Terms are at most 60 in size, at most ~30 of them per target.
        assert_close(&fast, &slow, 60.0 * 30.0);
        // Indices that are not targets keep their value.
        assert!((0..40).step_by(2).all(|i| fast[i + 1] == 0.25) && fast[40] == 0.25);
    }

    #[test]
    fn a_non_finite_source_no_term_reads_stays_out() {
        // A diagonal with a hole at target 5, whose would-be source is NaN.
        let targets: Vec<u32> = (0..10).collect();
        let terms: Vec<(u32, u32, f64)> = (0..10u32)
            .filter(|&i| i != 5)
            .map(|i| (i, i, 1.0))
            .collect();
        let sum = SparseSum::new(&targets, &[], &terms);
        let mut states = vec![1.0; 10];
        states[5] = f64::NAN;
        let mut dst = vec![f64::NAN; 10];
        sum.evaluate(&[], &states, &mut dst);
        assert!(dst.iter().all(|v| v.is_finite()), "{dst:?}");
        assert_eq!(dst[5], 0.0);
    }

    #[test]
    fn zero_ranges_cover_exactly_the_indices() {
        let zero = ZeroRanges::new(&[7, 1, 2, 3, 9, 8, 2]);
        assert_eq!(zero.ranges, vec![(1, 4), (7, 10)]);
        let mut dst = vec![1.0; 11];
        zero.apply(&mut dst);
        let kept: Vec<usize> = (0..11).filter(|&i| dst[i] == 1.0).collect();
        assert_eq!(kept, vec![0, 4, 5, 6, 10]);
    }
}
