//! The configurations this chapter runs, by name, so that no example or test spells out thirteen
//! parameters: the models, and the training run of the committed weights.
//!
//! The sizes that follow from others are written as the arithmetic that gives them: a flattened
//! patch holds `C·P·P` values, an image is `(IMG/P)²` patches plus the `[CLS]` token, and a head is
//! `d_model / heads` wide.

use crate::config::TrainConfig;
use crate::digits::{CLASSES, SIDE};
use crate::Vit;

// ANCHOR: demo
/// The demo configuration of a common PyTorch ViT: 3×32×32 images in 8×8 patches (16 patches, 17
/// tokens), `d_model` 128, 8 heads of 16, `d_ff` 512, 4 pre-norm blocks, 10 classes (821,642
/// parameters).
pub type DemoVit<Dev> =
    Vit<3, 32, 8, { 3 * 8 * 8 }, { 4 * 4 + 1 }, 128, 8, { 128 / 8 }, 512, 4, 10, f32, Dev>;
// ANCHOR_END: demo

// ANCHOR: digits
/// The model trained on the 8×8 handwritten digits, the demo's design at a smaller width: 1×8×8
/// images in 2×2 patches (16 patches, 17 tokens, the demo's sequence length), `d_model` 64, 4
/// heads of 16, `d_ff` 128, 3 pre-norm blocks, 10 classes (102,666 parameters). Trained by the
/// `train` example ([`TrainConfig::digits`]).
pub type DigitsVit<Dev> =
    Vit<1, SIDE, 2, { 2 * 2 }, { 4 * 4 + 1 }, 64, 4, { 64 / 4 }, 128, 3, CLASSES, f32, Dev>;
// ANCHOR_END: digits

/// ViT-Base/16 at 224×224, the paper's configuration (Dosovitskiy et al. 2021): 196 patches of
/// 16×16×3, 197 tokens, `d_model` 768, 12 heads, `d_ff` 3072, 12 blocks, 1000 classes:
/// 86,567,656 parameters (the paper's blocks use GELU where chapter 5's use ReLU, which changes no
/// count). Only its sizes are used here: building it would allocate all of them.
pub type VitBase16<Dev> =
    Vit<3, 224, 16, { 3 * 16 * 16 }, { 196 + 1 }, 768, 12, { 768 / 12 }, 3072, 12, 1000, f32, Dev>;

impl TrainConfig {
    /// The run of the committed weights (the `train` example), set for the chapter's two goals
    /// (the accuracy of 1-nearest-neighbour within two points, at most a minute on a 2-core CPU):
    /// Adam with decoupled weight decay (Loshchilov and Hutter 2019), a short warm-up and a cosine
    /// decay, label smoothing (Szegedy et al. 2016) and one-pixel shifts against overfitting 896
    /// training images, no dropout.
    // ANCHOR: digits_config
    pub fn digits() -> Self {
        TrainConfig {
            seed: 0,
            train_fraction: 0.5,
            epochs: 100,
            batch_size: 32,
            peak_lr: 2e-3,
            warmup_steps: 100,
            weight_decay: 0.05,
            dropout: 0.0,
            label_smoothing: 0.1,
            shift: 0.5,
            eval_every: 5,
        }
    }
    // ANCHOR_END: digits_config
}
