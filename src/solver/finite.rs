//! The finiteness test of stage derivatives and states (on the hot path of every method).

/// First non-finite component of `v`.
///
/// The common case — all finite — is decided by a branch-free fold the compiler vectorizes:
/// `x − x` is +0 (all bits clear) for every finite `x` and NaN for ±∞ and NaN, so the OR of
/// the bit patterns is zero exactly when every component is finite. Only then is the position
/// searched element by element. (Checked after every stage, so this is on the hot path.)
#[inline]
#[allow(clippy::eq_op)] // `x - x` is the finiteness test, not a mistake
pub(crate) fn first_non_finite(v: &[f64]) -> Option<usize> {
    if v.iter().fold(0u64, |acc, x| acc | (x - x).to_bits()) == 0 {
        return None;
    }
    v.iter().position(|x| !x.is_finite())
}

/// f(t, x) into `out`, counted in `evaluations`; the time and component of the first non-finite
/// derivative (reported to the system first) if any.
pub(crate) fn checked_derivatives<S: super::System>(
    system: &mut S,
    (t, x): (f64, &[f64]),
    out: &mut [f64],
    evaluations: &mut usize,
) -> Result<(), (f64, usize)> {
    system.derivatives(t, x, out);
    *evaluations += 1;
    match first_non_finite(out) {
        Some(i) => {
            system.non_finite_derivative(t, x);
            Err((t, i))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::first_non_finite;

    #[test]
    fn first_non_finite_finds_the_first_bad_component_or_none() {
        assert_eq!(first_non_finite(&[]), None);
        assert_eq!(
            first_non_finite(&[0.0, -0.0, 1e308, -1e-320, f64::MAX, f64::MIN]),
            None
        );
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut v = vec![1.0; 37];
            v[29] = bad;
            v[33] = bad;
            assert_eq!(first_non_finite(&v), Some(29));
        }
    }
}
