//! What the trainer and the evaluation need of a model: [`DigitsModel`], which every [`Vit`] for
//! 1×8×8 images and 10 classes is.

use dfdx::nn::TensorCollection;
use dfdx::prelude::*;

use crate::digits::{CLASSES, SIDE};
use crate::{Mode, Vit};

/// `(batch, 1, 8, 8)` digit images.
pub type DigitImages<Dev, T = NoneTape> =
    Tensor<(usize, Const<1>, Const<SIDE>, Const<SIDE>), f32, Dev, T>;

/// A model the trainer can train on the digits: any [`Vit`] for 1×8×8 images and 10 classes
/// (whatever its patch size, width and depth), so that configurations can be compared.
pub trait DigitsModel<Dev: Device<f32>>: TensorCollection<f32, Dev> + Sized {
    /// A freshly initialised model, drawn from `dev`'s generator.
    fn init(dev: &Dev) -> Self;

    /// Logits `(batch, 10)`.
    fn logits<T: Tape<f32, Dev>>(
        &self,
        images: DigitImages<Dev, T>,
        mode: Mode,
    ) -> Tensor<(usize, Const<CLASSES>), f32, Dev, T>;

    /// Sets every dropout probability of the model.
    fn set_dropout(&mut self, p: f32);
}

impl<
        const P: usize,
        const PD: usize,
        const SEQ: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        Dev: Device<f32>,
    > DigitsModel<Dev> for Vit<1, SIDE, P, PD, SEQ, M, H, DK, F, L, CLASSES, f32, Dev>
{
    fn init(dev: &Dev) -> Self {
        Vit::new(dev)
    }

    fn logits<T: Tape<f32, Dev>>(
        &self,
        images: DigitImages<Dev, T>,
        mode: Mode,
    ) -> Tensor<(usize, Const<CLASSES>), f32, Dev, T> {
        self.forward(images, mode)
    }

    fn set_dropout(&mut self, p: f32) {
        Vit::set_dropout(self, p)
    }
}
