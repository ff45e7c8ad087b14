//! The network's inner loops: accumulator updates, the activated dot product and the
//! second layer's input and sums.
//!
//! Each kernel is written once as plain loops over fixed-size arrays and compiled twice: for
//! the build's baseline (x86-64-v2: SSE4.2, 8 lanes of `i16`) and, chosen at run time with
//! `is_x86_feature_detected!`, for AVX2 (16 lanes). Integer arithmetic with wrapping sums
//! makes the result independent of how the compiler groups the lanes, so both give the same
//! numbers bit for bit (a test compares them on many positions).

use super::{HIDDEN, QA};

/// Whether the AVX2 versions run (checked once).
#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let yes = std::is_x86_feature_detected!("avx2") && !force_scalar();
            STATE.store(1 + yes as u8, Ordering::Relaxed);
            yes
        }
    }
}

/// `CHARIOT_NO_AVX2=1` runs the baseline kernels (to compare the two paths).
#[cfg(target_arch = "x86_64")]
fn force_scalar() -> bool {
    std::env::var_os("CHARIOT_NO_AVX2").is_some_and(|v| v != "0")
}

/// Declares a kernel: its portable body, an AVX2 copy, and the dispatching entry point.
macro_rules! kernel {
    ($(#[$doc:meta])* fn $name:ident / $scalar:ident / $wide:ident ($($arg:ident: $ty:ty),*) -> $ret:ty $body:block) => {
        #[inline(always)]
        pub fn $scalar($($arg: $ty),*) -> $ret $body

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $wide($($arg: $ty),*) -> $ret $body

        $(#[$doc])*
        #[inline]
        pub fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU supports AVX2 (checked by `avx2`), the only requirement
                // of the target-feature function.
                return unsafe { $wide($($arg),*) };
            }
            $scalar($($arg),*)
        }
    };
}

kernel! {
    /// `acc += column`.
    fn add / add_scalar / add_avx2 (acc: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) -> () {
        for i in 0..HIDDEN {
            acc[i] = acc[i].wrapping_add(column[i]);
        }
    }
}

kernel! {
    /// `out = acc + add − sub` (a quiet move).
    fn add_sub / add_sub_scalar / add_sub_avx2 (
        out: &mut [i16; HIDDEN],
        acc: &[i16; HIDDEN],
        add: &[i16; HIDDEN],
        sub: &[i16; HIDDEN]
    ) -> () {
        for i in 0..HIDDEN {
            out[i] = acc[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
        }
    }
}

kernel! {
    /// `out = acc + add − sub − sub2` (a capture).
    fn add_sub_sub / add_sub_sub_scalar / add_sub_sub_avx2 (
        out: &mut [i16; HIDDEN],
        acc: &[i16; HIDDEN],
        add: &[i16; HIDDEN],
        sub: &[i16; HIDDEN],
        sub2: &[i16; HIDDEN]
    ) -> () {
        for i in 0..HIDDEN {
            out[i] = acc[i].wrapping_add(add[i]).wrapping_sub(sub[i]).wrapping_sub(sub2[i]);
        }
    }
}

kernel! {
    /// `Σ clamp(acc, 0, QA) · w · clamp(acc, 0, QA)`, in wrapping `i32`.
    fn screlu_dot / screlu_dot_scalar / screlu_dot_avx2 (
        acc: &[i16; HIDDEN],
        weights: &[i16; HIDDEN]
    ) -> i32 {
        let mut sum = 0i32;
        for i in 0..HIDDEN {
            let c = acc[i].clamp(0, QA as i16);
            let cw = c.wrapping_mul(weights[i]) as i32;
            sum = sum.wrapping_add(cw.wrapping_mul(c as i32));
        }
        sum
    }
}

kernel! {
    /// `out = [clamp(us, 0, QA)² / QA, clamp(them, 0, QA)² / QA]`: the second layer's input.
    fn screlu_pack / screlu_pack_scalar / screlu_pack_avx2 (
        us: &[i16; HIDDEN],
        them: &[i16; HIDDEN],
        out: &mut [i16; 2 * HIDDEN]
    ) -> () {
        let (low, high) = out.split_at_mut(HIDDEN);
        for (half, acc) in [(low, us), (high, them)] {
            for i in 0..HIDDEN {
                let c = acc[i].clamp(0, QA as i16) as i32;
                half[i] = (c * c / QA) as i16;
            }
        }
    }
}

kernel! {
    /// `Σ a · b` in `i32` (the second layer's inputs are at most `QA` and its weights at most
    /// 127 in size, so the sum cannot overflow).
    fn dot / dot_scalar / dot_avx2 (a: &[i16; 2 * HIDDEN], b: &[i16; 2 * HIDDEN]) -> i32 {
        let mut sum = 0i32;
        for i in 0..2 * HIDDEN {
            sum = sum.wrapping_add(a[i] as i32 * b[i] as i32);
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_agree_with_a_plain_reference() {
        let mut state = 12345u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 1200) as i16 - 600
        };
        for _ in 0..50 {
            let a: [i16; HIDDEN] = std::array::from_fn(|_| next());
            let b: [i16; HIDDEN] = std::array::from_fn(|_| next() / 5);
            let c: [i16; HIDDEN] = std::array::from_fn(|_| next() / 5);
            let w: [i16; HIDDEN] = std::array::from_fn(|_| next() % 128);
            let mut out = [0; HIDDEN];
            add_sub(&mut out, &a, &b, &c);
            let mut plain = a;
            add(&mut plain, &b);
            for i in 0..HIDDEN {
                assert_eq!(out[i], a[i] + b[i] - c[i]);
                assert_eq!(plain[i], a[i] + b[i]);
            }
            let reference: i64 = (0..HIDDEN)
                .map(|i| {
                    let x = a[i].clamp(0, 255) as i64;
                    x * x * w[i] as i64
                })
                .sum();
            assert_eq!(screlu_dot(&a, &w) as i64, reference);
            assert_eq!(screlu_dot(&a, &w), screlu_dot_scalar(&a, &w));
            let (mut packed, mut plain_packed) = ([0; 2 * HIDDEN], [0; 2 * HIDDEN]);
            screlu_pack(&a, &b, &mut packed);
            screlu_pack_scalar(&a, &b, &mut plain_packed);
            assert_eq!(packed, plain_packed);
            for i in 0..HIDDEN {
                let x = a[i].clamp(0, 255) as i32;
                assert_eq!(packed[i] as i32, x * x / 255);
            }
            let weights: [i16; 2 * HIDDEN] = std::array::from_fn(|i| w[i % HIDDEN]);
            let reference: i32 = (0..2 * HIDDEN)
                .map(|i| packed[i] as i32 * weights[i] as i32)
                .sum();
            assert_eq!(dot(&packed, &weights), reference);
            assert_eq!(dot_scalar(&packed, &weights), reference);
        }
    }
}
