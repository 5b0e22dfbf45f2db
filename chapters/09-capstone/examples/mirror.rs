//! Where the cross-attention looks: for each layer and head, the share of output digits whose
//! strongest weight falls on the mirrored input position, over the 200 validation sequences.

use ch09_capstone::attention::mirrored_shares;
use ch09_capstone::data::validation_set;
use ch09_capstone::trained::{load_model, load_report};
use support::Dev;

fn main() {
    let dev = Dev::default();
    let model = load_model(&dev);
    let shares = mirrored_shares(&model, &dev, &validation_set(&load_report().config));
    println!("share of output digits whose strongest cross-attention is on the mirrored input:");
    for (layer, heads) in shares.iter().enumerate() {
        let cells: Vec<String> = heads.iter().map(|s| format!("{:5.1} %", 100.0 * s)).collect();
        println!("layer {}: heads {}", layer + 1, cells.join("  "));
    }
}
