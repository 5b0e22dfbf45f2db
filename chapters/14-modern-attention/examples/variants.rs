//! The committed runs of `variants_train`: chapter 10's character model trained as it is, with
//! QK-norm and with an output gate.
//!
//! `cargo run -p ch14-modern-attention --example variants`

use ch14_modern_attention::variants::report::committed;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: variants (no arguments)"));
    }
    let runs = committed();
    println!("{}", runs.machine);
    print!("{}", runs.table());
}
