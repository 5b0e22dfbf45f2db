//! The model has exactly the 169,933 parameters of the from-scratch PyTorch model it mirrors
//! (d_model 64, 4 heads, d_ff 128, 2 + 2 post-norm blocks, 13 tokens, sinusoidal positions).

use ch09_capstone::model::parameter_parts;
use ch09_capstone::{new_model, MAX_DIGITS, MAX_LEN};
use dfdx::prelude::*;
use support::Dev;

#[test]
fn worked_example_parameters() {
    let parts = parameter_parts();
    let counts: Vec<usize> = parts.iter().map(|p| p.1).collect();
    assert_eq!(counts, vec![832, 832, 33_472, 50_240, 845, 0]);
    // two blocks of each kind
    let total = 832 + 832 + 2 * 33_472 + 2 * 50_240 + 845;
    assert_eq!(total, 169_933);
    let model = new_model(&Dev::default(), 0.0);
    assert_eq!(model.num_trainable_params(), 169_933);
    assert_eq!((model.max_len, MAX_LEN, MAX_DIGITS), (24, 24, 23));
}
