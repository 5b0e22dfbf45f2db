//! The committed run of `mla_decode_speed` (`measurements/mla_decode.json`) as the page's table.
//!
//! `cargo run -p ch14-modern-attention --example mla_decode_table`

use ch14_modern_attention::mla::decode_speed::committed;
use support::cli::{args_or_exit, or_exit};

fn main() {
    if !args_or_exit().is_empty() {
        or_exit::<(), _>(Err("usage: mla_decode_table (no arguments)"));
    }
    print!("{}", committed().table());
}
