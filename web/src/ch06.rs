//! Chapter 6 in the page: a mask builder. One target sequence of [`LEN`] positions, some of them
//! padding on the left or the right, with or without the causal mask; the combined mask the
//! chapter's builders make, and the attention weights it gives seeded queries and keys, with the
//! book's `-1e9` fill or an additive `-inf` mask.

use ch01_attention::scaled_dot_product_attention;
use ch06_masks::{attention_additive, decoder_self_mask, encoder_mask, rows01_of, PAD};
use dfdx::prelude::*;

/// Positions of the sequence (the chapter's examples have six).
pub const LEN: usize = 6;
/// Width of the seeded queries and keys, and their seeds: those of the chapter's `empty_rows`
/// example.
const D_K: usize = 4;
const SEEDS: (u64, u64) = (3, 4);

/// The builder's settings, in the order the page sends them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// real tokens, 0 to [`LEN`]; the rest is padding
    pub real: usize,
    /// padding on the left (else on the right)
    pub left_padded: bool,
    /// the causal (look-ahead) mask on top of the padding mask
    pub causal: bool,
    /// an additive `-inf` mask instead of the `-1e9` fill
    pub additive: bool,
}

impl Settings {
    /// From the page's four numbers: real tokens, then 0/1 for left padding, causal, additive.
    pub fn from_numbers(values: &[f32]) -> Result<Self, String> {
        let [real, left, causal, additive] = values else {
            return Err(format!("the mask builder takes 4 numbers; got {}", values.len()));
        };
        if !(0.0..=LEN as f32).contains(real) || real.fract() != 0.0 {
            return Err(format!("real tokens must be a whole number from 0 to {LEN}; got {real}"));
        }
        let flag = |x: &f32| *x != 0.0;
        let (left_padded, causal, additive) = (flag(left), flag(causal), flag(additive));
        Ok(Settings { real: *real as usize, left_padded, causal, additive })
    }

    /// The token ids: 1, 2, ... for the real tokens, [`PAD`] for the rest.
    pub fn ids(&self) -> [usize; LEN] {
        let pads = LEN - self.real;
        std::array::from_fn(|i| {
            let real_index = if self.left_padded { i.checked_sub(pads) } else { Some(i) };
            match real_index {
                Some(r) if r < self.real => r + 1,
                _ => PAD,
            }
        })
    }
}

/// The token ids ([`Settings::ids`], [`LEN`] of them), the mask (`LEN × LEN`, 1 = may attend) and
/// the weights (`LEN × LEN`; `NaN` where an additive mask leaves a row nothing to attend to).
pub fn mask_builder(values: &[f32]) -> Result<Vec<f32>, String> {
    let s = Settings::from_numbers(values)?;
    let dev = Cpu::default();
    let ids = [s.ids()];
    let mask = if s.causal {
        decoder_self_mask(&dev, &ids, PAD, Const::<1>)
    } else {
        encoder_mask(&dev, &ids, PAD, Const::<1>)
    };
    let shape = (1, Const::<1>, LEN, Const::<D_K>);
    let q = support::normal_tensor(&dev, SEEDS.0, shape);
    let k = support::normal_tensor(&dev, SEEDS.1, shape);
    let weights = if s.additive {
        let additive = ch06_masks::additive(mask.clone());
        attention_additive(q, k.clone(), k, &additive).1.as_vec()
    } else {
        scaled_dot_product_attention(q, k.clone(), k, Some(&mask)).1.as_vec()
    };
    let ids = s.ids().map(|id| id as f32);
    let allowed = rows01_of(&mask, 0, 0).concat().into_iter().map(f32::from);
    Ok(ids.into_iter().chain(allowed).chain(weights).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ids_pad_on_the_chosen_side() {
        let s = |real, left_padded| Settings { real, left_padded, causal: true, additive: false };
        assert_eq!(s(4, false).ids(), [1, 2, 3, 4, PAD, PAD]);
        assert_eq!(s(4, true).ids(), [PAD, PAD, 1, 2, 3, 4]);
        assert_eq!(s(0, true).ids(), [PAD; LEN]);
    }

    #[test]
    fn left_padding_under_the_causal_mask_gives_uniform_rows_or_nan() {
        // the chapter's example: two PAD queries on the left see no key
        let fill = mask_builder(&[4.0, 1.0, 1.0, 0.0]).unwrap();
        let (ids, rest) = fill.split_at(LEN);
        assert_eq!(ids, [PAD, PAD, 1, 2, 3, 4].map(|id| id as f32));
        let (mask, weights) = rest.split_at(LEN * LEN);
        assert_eq!(&mask[..LEN], &[0.0; LEN]);
        assert!(weights[..LEN].iter().all(|&w| (w - 1.0 / 6.0).abs() < 1e-6));
        let inf = mask_builder(&[4.0, 1.0, 1.0, 1.0]).unwrap();
        let weights_of = |out: &[f32]| out[LEN + LEN * LEN..].to_vec();
        assert!(weights_of(&inf)[..LEN].iter().all(|w| w.is_nan()));
        assert_eq!(weights_of(&inf)[2 * LEN..], weights_of(&fill)[2 * LEN..]);
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(mask_builder(&[7.0, 0.0, 0.0, 0.0]).unwrap_err().contains("0 to 6"));
        assert!(mask_builder(&[1.5, 0.0, 0.0, 0.0]).unwrap_err().contains("whole number"));
        assert!(mask_builder(&[1.0]).unwrap_err().contains("4 numbers"));
    }
}
