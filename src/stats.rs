//! Order statistics of sorted numbers, taken one way everywhere: the
//! median and percentiles of game lengths, call times and drill times.

/// The `pct`th percentile of `sorted` (ascending): the element at
/// `(len − 1) × pct / 100`, so the median is the lower middle for an even
/// count. `None` for no numbers.
///
/// ```
/// use prime_solve::percentile;
/// assert_eq!(percentile(&[1, 2, 3, 4], 50), Some(2));
/// assert_eq!(percentile(&[1, 2, 3, 4], 100), Some(4));
/// assert_eq!(percentile::<u32>(&[], 50), None);
/// ```
pub fn percentile<T: Copy>(sorted: &[T], pct: usize) -> Option<T> {
    let last = sorted.len().checked_sub(1)?;
    sorted.get(last * pct.min(100) / 100).copied()
}

/// The median of `sorted` (ascending): [`percentile`] 50, the lower middle
/// for an even count.
pub fn median<T: Copy>(sorted: &[T]) -> Option<T> {
    percentile(sorted, 50)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_lower_middle() {
        assert_eq!(median(&[5]), Some(5));
        assert_eq!(median(&[1, 9]), Some(1));
        assert_eq!(median(&[1, 2, 9]), Some(2));
        assert_eq!(
            percentile(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 10),
            Some(2)
        );
        assert_eq!(
            percentile(&[1, 2, 3], 250),
            Some(3),
            "past 100 is the maximum"
        );
    }
}
