//! The worked examples of chapter 11, with every number its page shows.

use ch11_real_llm::scale;
use dfdx::prelude::*;

/// Scaling [1, 2, 3] by 2 gives [2, 4, 6].
#[test]
fn worked_example_real_llm() {
    let dev = support::Dev::default();
    let x = dev.tensor([1.0f32, 2.0, 3.0]);
    assert_eq!(scale(x, 2.0).as_vec(), [2.0, 4.0, 6.0]);
}
