//! A small seeded random number generator (SplitMix64): the same seed gives
//! the same game on every machine and for any number of threads.

/// SplitMix64 (Steele, Lea and Flood): fast, and good enough for shuffling
/// cards and drawing reaction times.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of game `index` in a run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        let mut mixer = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
        Rng(mixer.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), without modulo bias worth speaking of
    /// (Lemire's multiply-shift).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `per_mille` / 1000.
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < u64::from(per_mille)
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers from the reference (Vigna's `splitmix64.c`, after
    /// Steele, Lea and Flood 2014): `Rng::new` takes the seed as the raw
    /// state, unmixed, so seed 0 gives the reference's first outputs.
    #[test]
    fn matches_the_reference_splitmix64() {
        let mut r = Rng::new(0);
        let first: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(
            first,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F,
                0xF88B_B8A8_724C_81EC,
                0x1B39_896A_51A8_749B,
            ]
        );
        // The state advances by the golden-ratio increment: seeding with
        // one step on continues the same sequence.
        let mut r = Rng::new(0x9E37_79B9_7F4A_7C15);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        // Game generators: the state is one SplitMix64 output of
        // `seed ^ index × 0xA24BAED4963EE407` (values from a separate
        // Python transcription), so every game of a seeded run stays put.
        assert_eq!(Rng::for_game(1, 0).next_u64(), 0x5E41_AB08_7439_611E);
        assert_eq!(Rng::for_game(42, 7).next_u64(), 0xE5E3_C4E4_ED5F_F17C);
    }

    #[test]
    fn deterministic_and_spread() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!(a.next_u64(), b.next_u64());
        let mut counts = [0u32; 6];
        let mut r = Rng::for_game(1, 2);
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        let mut cards: Vec<u8> = (0..54).collect();
        r.shuffle(&mut cards);
        let mut sorted = cards.clone();
        sorted.sort();
        assert_eq!(sorted, (0..54).collect::<Vec<u8>>());
        assert_ne!(cards, sorted);
    }
}
