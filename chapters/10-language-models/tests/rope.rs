//! RoPE: scores depend on the offset only, norms are kept, the three ways of writing it agree.

use ch10_language_models::llama::rope::dot;
use ch10_language_models::{Rope, RopeLayout};
use dfdx::prelude::*;
use proptest::prelude::*;

const LAYOUTS: [RopeLayout; 2] = [RopeLayout::Interleaved, RopeLayout::HalfSplit];

fn vector(seed: u64, d: usize) -> Vec<f32> {
    support::normal_vec(seed, d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `<R(m) q, R(n) k>` is the same for (m, n) and (m + s, n + s): only m - n matters.
    #[test]
    fn scores_depend_on_the_offset_only(
        seed in 0u64..1000, m in 0usize..2000, n in 0usize..2000, shift in 0usize..5000,
        interleaved in any::<bool>(),
    ) {
        let rope = Rope::new(10_000.0, if interleaved { RopeLayout::Interleaved } else { RopeLayout::HalfSplit });
        let (q, k) = (vector(seed, 64), vector(seed + 1000, 64));
        let here = dot(&rope.rotate(&q, m), &rope.rotate(&k, n));
        let there = dot(&rope.rotate(&q, m + shift), &rope.rotate(&k, n + shift));
        // f32 rounding of the rotated vectors: |q| |k| ~ 64, relative 1e-7 per entry
        prop_assert!((here - there).abs() < 1e-4, "{here} vs {there}");
    }

    /// A rotation keeps the length of every vector, at every position.
    #[test]
    fn rotation_keeps_the_norm(seed in 0u64..1000, pos in 0usize..100_000, interleaved in any::<bool>()) {
        let rope = Rope::new(10_000.0, if interleaved { RopeLayout::Interleaved } else { RopeLayout::HalfSplit });
        let x = vector(seed, 32);
        let (before, after) = (dot(&x, &x).sqrt(), dot(&rope.rotate(&x, pos), &rope.rotate(&x, pos)).sqrt());
        prop_assert!((before - after).abs() < 1e-5 * before, "{before} vs {after}");
    }

    /// The pair formula and the complex-number form are the same rotation.
    #[test]
    fn pairs_equal_the_complex_form(seed in 0u64..1000, pos in 0usize..10_000, interleaved in any::<bool>()) {
        let rope = Rope::new(10_000.0, if interleaved { RopeLayout::Interleaved } else { RopeLayout::HalfSplit });
        let x = vector(seed, 16);
        support::assert_close(&rope.rotate(&x, pos), &rope.rotate_complex(&x, pos), 1e-6);
    }
}

/// The tensor form (`x cos + (x J) sin`, every head and position at once) equals the rotation of
/// each vector on its own, in both layouts, from any start position.
#[test]
fn tensor_form_equals_one_vector_at_a_time() {
    let dev = support::Dev::default();
    for layout in LAYOUTS {
        let rope = Rope::new(10_000.0, layout);
        let x = support::normal_tensor(&dev, 3, (2, Const::<3>, 5, Const::<8>));
        let start = 17;
        let got = rope.apply(x.clone(), start).as_vec();
        let flat = x.as_vec();
        let mut want = Vec::new();
        for (row, chunk) in flat.chunks(8).enumerate() {
            want.extend(rope.rotate(chunk, start + row % 5));
        }
        support::assert_close(&got, &want, 1e-6);
    }
}

/// RoPE's angles are chapter 4's: at base 10,000, `sin(pos theta_i)` and `cos(pos theta_i)` are
/// the sinusoidal table's entries `2i` and `2i + 1`.
#[test]
fn angles_are_chapter_4s_sinusoids() {
    let (d, len) = (16, 50);
    let table = ch04_positions::sinusoidal_table(len, d);
    let rope = Rope::new(10_000.0, RopeLayout::Interleaved);
    let (cos, sin) = rope.tables(0, len, d);
    for pos in 0..len {
        for i in 0..d / 2 {
            assert!((sin[pos * d + 2 * i] - table[pos * d + 2 * i]).abs() < 1e-6);
            assert!((cos[pos * d + 2 * i] - table[pos * d + 2 * i + 1]).abs() < 1e-6);
        }
    }
}

/// `x J` turns every pair by 90 degrees; for the half-split layout it is `rotate_half`:
/// `[x1, x2] -> [-x2, x1]`.
#[test]
fn quarter_turn_is_rotate_half() {
    let dev = support::Dev::default();
    let x = dev.tensor_from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], (1, Const::<6>));
    let turn = |layout| {
        let j = Rope::new(10_000.0, layout).quarter_turn(6);
        x.clone().matmul(dev.tensor_from_vec(j, (Const::<6>, Const::<6>))).as_vec()
    };
    assert_eq!(turn(RopeLayout::HalfSplit), [-4.0, -5.0, -6.0, 1.0, 2.0, 3.0]);
    assert_eq!(turn(RopeLayout::Interleaved), [-2.0, 1.0, -4.0, 3.0, -6.0, 5.0]);
}

/// An odd head width cannot be turned in pairs.
#[test]
#[should_panic(expected = "d must be even")]
fn odd_width_is_refused() {
    Rope::default().frequencies(7);
}
