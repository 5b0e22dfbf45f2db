//! The configurations this chapter runs, by name, so that no example or test spells out thirteen
//! parameters.

use crate::Vit;

// ANCHOR: demo
/// The demo configuration of a common PyTorch ViT: 3×32×32 images in 8×8 patches (16 patches, 17
/// tokens), `d_model` 128, 8 heads of 16, `d_ff` 512, 4 pre-norm blocks, 10 classes (821,642
/// parameters).
pub type DemoVit<Dev> = Vit<3, 32, 8, 192, 17, 128, 8, 16, 512, 4, 10, f32, Dev>;
// ANCHOR_END: demo

// ANCHOR: digits
/// The model trained on the 8×8 handwritten digits: 1×8×8 images in 2×2 patches (16 patches, 17
/// tokens, the demo's sequence length), `d_model` 64, 4 heads of 16, `d_ff` 128, 3 pre-norm
/// blocks, 10 classes (102,666 parameters). Trained by the `train` example
/// ([`TrainConfig::digits`](crate::TrainConfig::digits)).
pub type DigitsVit<Dev> = Vit<1, 8, 2, 4, 17, 64, 4, 16, 128, 3, 10, f32, Dev>;
// ANCHOR_END: digits

/// ViT-Base/16 at 224×224, the paper's configuration (Dosovitskiy et al. 2021): 196 patches of
/// 16×16×3, 197 tokens, `d_model` 768, 12 heads, `d_ff` 3072, 12 blocks, 1000 classes:
/// 86,567,656 parameters (the paper's blocks use GELU where chapter 5's use ReLU, which changes no
/// count). Only its sizes are used here: building it would allocate all of them.
pub type VitBase16<Dev> = Vit<3, 224, 16, 768, 197, 768, 12, 64, 3072, 12, 1000, f32, Dev>;
