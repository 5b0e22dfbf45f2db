//! The demo ViT's parameter table, as the page shows it: each part's formula from the model's
//! sizes, its count, and the total (`cargo run -p ch07-vit --example vit_parameters`).

use ch07_vit::DemoVit;
use support::Dev;

fn main() {
    print!("{}", DemoVit::<Dev>::parameter_table().markdown());
}
