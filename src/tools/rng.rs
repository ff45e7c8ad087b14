//! A small deterministic random number generator (splitmix64) for the tools: shuffles,
//! random opening plies, trainer initialisation and sampling. The same seed gives the same
//! numbers on every machine, which is what reproducible data and nets need.

/// splitmix64: one 64-bit state, a full period, good enough statistics for games and SGD.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by multiply-shift (no modulo bias worth naming
    /// for the bounds used here).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A seed for an independent stream, derived from `base` and `index` (one per game,
    /// per shard, per thread).
    pub fn derive(base: u64, index: u64) -> u64 {
        Rng::new(base ^ index.wrapping_mul(0xd6e8_feb8_6659_fd93)).next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_bounds_hold() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
            let u = a.unit();
            assert_eq!(u, b.unit());
            assert!((0.0..1.0).contains(&u));
        }
        assert_ne!(Rng::derive(1, 0), Rng::derive(1, 1));
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
