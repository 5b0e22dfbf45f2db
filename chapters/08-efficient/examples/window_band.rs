//! The sliding window on 10 tokens with w = 2: the band, the keys per row, and the weights of
//! random queries and keys (each row sums to 1 over its band and is 0 outside it).

use ch08_efficient::pattern::{allowed_mask, keys_per_row};
use ch08_efficient::{Heads, SlidingWindow};

fn main() {
    // ANCHOR: window_band
    let window = SlidingWindow { w: 2, causal: false };
    let allowed = allowed_mask(&window, 10, 10);
    println!("window mask (1 = may attend):");
    for row in allowed.chunks(10) {
        let cells: Vec<&str> = row.iter().map(|&a| if a { "1" } else { "." }).collect();
        println!("  {}", cells.join(" "));
    }
    println!("keys per row: {:?}", keys_per_row(&window, 10, 10));
    // ANCHOR_END: window_band

    // the weights of query 4 and query 0, from the window's own softmax
    let [q, k] = [1, 2].map(|seed| Heads::random(seed, 1, 10, 16));
    for i in [0, 4] {
        let keys = window.keys(i, 10);
        let mut scores: Vec<f32> = keys
            .clone()
            .map(|j| ch08_efficient::heads::dot(q.row(0, i), k.row(0, j)) / 4.0)
            .collect();
        ch08_efficient::heads::softmax_in_place(&mut scores);
        let shown: Vec<String> = scores.iter().map(|p| format!("{p:.2}")).collect();
        println!("query {i}: keys {:?}, weights [{}]", keys, shown.join(", "));
    }
}
