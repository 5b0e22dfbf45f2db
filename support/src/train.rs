//! The end of every training step (backpropagate, update, keep the gradients for the next step),
//! and reading off what the logits pick.

use dfdx::nn::ZeroGrads;
use dfdx::optim::Optimizer;
use dfdx::prelude::*;

/// Backpropagates the scalar `loss`, lets `optimizer` update `model`, and returns the loss's
/// value and the gradients, zeroed, for the next step to trace into (no new allocation).
///
/// # Panics
/// If a parameter of `model` received no gradient (it was not used by the loss).
pub fn optimizer_step<Model, Opt, Dev>(
    loss: Tensor<(), f32, Dev, OwnedTape<f32, Dev>>,
    model: &mut Model,
    optimizer: &mut Opt,
) -> (f32, Gradients<f32, Dev>)
where
    Dev: Device<f32>,
    Model: ZeroGrads<f32, Dev>,
    Opt: Optimizer<Model, Dev, f32>,
{
    let value = loss.as_vec()[0];
    let mut grads = loss.backward();
    optimizer.update(model, &grads).expect("every parameter has a gradient");
    model.zero_grads(&mut grads);
    (value, grads)
}

/// The index of the largest value of `row` (the first one on ties): the class, or the token, a
/// row of logits picks.
///
/// ```
/// assert_eq!(support::argmax(&[0.1, 2.0, -1.0, 2.0]), 1);
/// ```
pub fn argmax(row: &[f32]) -> usize {
    row.iter().enumerate().fold(0, |best, (i, &v)| if v > row[best] { i } else { best })
}
