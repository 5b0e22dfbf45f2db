//! Chapter 7 in the page: draw a digit on the 8×8 grid and the trained ViT classifies it, showing
//! each head's `[CLS]` attention over the 16 patches; or start from a test image.

use ch07_vit::digits::{Digits, CLASSES, PIXELS};
use ch07_vit::{DigitsVit, TrainConfig};
use dfdx::prelude::*;

/// Heads of the model's last layer, and patches per image (a 4×4 grid of 2×2 patches).
pub const HEADS: usize = 4;
pub const PATCHES: usize = DigitsVit::<Cpu>::NUM_PATCHES;

/// The committed ViT, ready to classify.
pub struct Classifier {
    dev: Cpu,
    model: DigitsVit<Cpu>,
}

impl Classifier {
    /// The model with the weights of `weights/digits_vit.safetensors`, given as bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let dev = Cpu::default();
        let mut model = DigitsVit::new(&dev);
        crate::weights::load_into(&mut model, bytes)?;
        Ok(Classifier { dev, model })
    }

    /// For 64 pixels in `[0, 1]`, row by row: the 10 class probabilities, then each head's
    /// `[CLS]` attention on the 16 patches (`HEADS × PATCHES`).
    pub fn classify(&self, pixels: &[f32]) -> Result<Vec<f32>, String> {
        if pixels.len() != PIXELS {
            return Err(format!("an image is {PIXELS} pixels; got {}", pixels.len()));
        }
        if let Some(p) = pixels.iter().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(format!("pixels go from 0 to 1; got {p}"));
        }
        let image = self.dev.tensor_from_vec(pixels.to_vec(), (Const::<1>, Const, Const, Const));
        let logits = self.model.forward(image.clone(), ch07_vit::Mode::Eval);
        let probabilities = logits.softmax::<Axis<1>>().as_vec();
        let attention = self.model.cls_attention(image);
        Ok(probabilities.into_iter().chain(attention.as_vec()).collect())
    }
}

/// The first test image of each digit 0 to 9 (the chapter's split of the committed run), 64
/// pixels each, in `[0, 1]`.
pub fn test_examples() -> Vec<f32> {
    let config = TrainConfig::digits();
    let test = Digits::load().stratified_split(config.train_fraction, config.seed).test;
    (0..CLASSES as u8)
        .flat_map(|digit| {
            let i = test.labels.iter().position(|&l| l == digit).expect("every digit is tested");
            test.scaled(i)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classifier() -> Classifier {
        Classifier::from_bytes(&std::fs::read(ch07_vit::trained::WEIGHTS).unwrap()).unwrap()
    }

    #[test]
    fn the_page_classifies_as_the_chapter_does() {
        // the committed report was trained with the configuration the page splits with
        assert_eq!(ch07_vit::trained::load_report().config, TrainConfig::digits());
        let dev = Cpu::default();
        let chapter = ch07_vit::trained::load_model(&dev);
        let page = classifier();
        let examples = test_examples();
        for (digit, pixels) in examples.chunks(PIXELS).enumerate() {
            let shown = page.classify(pixels).unwrap();
            let image = dev.tensor_from_vec(pixels.to_vec(), (1, Const, Const, Const));
            let logits = chapter.forward(image.clone(), ch07_vit::Mode::Eval).as_vec();
            let expected: Vec<f32> = logits.iter().map(|l| l.exp()).collect();
            let total: f32 = expected.iter().sum();
            for (p, e) in shown[..CLASSES].iter().zip(&expected) {
                assert!((p - e / total).abs() < 1e-6, "digit {digit}: {p} vs {}", e / total);
            }
            assert_eq!(shown[CLASSES..], chapter.cls_attention(image).as_vec()[..]);
            assert_eq!(support::argmax(&shown[..CLASSES]), digit, "the first test {digit}");
        }
    }

    #[test]
    fn bad_images_are_refused() {
        let page = classifier();
        assert!(page.classify(&[0.0; 3]).unwrap_err().contains("64 pixels"));
        assert!(page.classify(&[2.0; PIXELS]).unwrap_err().contains("from 0 to 1"));
    }
}
