//! The full sequence-to-sequence model and `nn.Transformer`'s layout on the sources' demo sizes:
//! `cargo run -p ch05-blocks --example transformer`.
use ch01_attention::{broadcast_mask, causal_allowed};
use ch05_blocks::model::Seq2SeqMasks;
use ch05_blocks::{Mode, PostNorm, PreNorm, Seq2Seq, Transformer};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use rand::{Rng, SeedableRng};
use support::{normal_vec, seeded_device, Dev};

/// vocabularies 1000 and 1000, d_model 128, 8 heads of 16, d_ff 512, 3 layers, pre-norm
type SeedModel = Seq2Seq<1000, 1000, 128, 8, 16, 512, 3, PreNorm, f32, Dev>;
/// `nn.Transformer(d_model=64, nhead=8, 3 + 3 layers, dim_feedforward=256)`
type TorchTransformer = Transformer<64, 8, 8, 256, 3, 3, PostNorm, f32, Dev>;

fn random_ids(
    dev: &Dev,
    seed: u64,
    batch: usize,
    len: usize,
) -> Tensor<(usize, usize), usize, Dev> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    dev.tensor_from_vec((0..batch * len).map(|_| rng.gen_range(0..1000)).collect(), (batch, len))
}

fn main() {
    let dev = seeded_device(0);

    // ANCHOR: seq2seq
    let model = SeedModel::new(&dev);
    let src = random_ids(&dev, 1, 2, 15); // source: batch 2, 15 tokens
    let tgt = random_ids(&dev, 2, 2, 12); // target: batch 2, 12 tokens
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let masks = Seq2SeqMasks { tgt: Some(&causal), ..Default::default() };
    let logits = model
        .try_forward(src.clone(), tgt.clone(), masks, Mode::Eval)
        .expect("ids and lengths are valid");
    println!("Source shape: {:?}", src.shape().concrete());
    println!("Target shape: {:?}", tgt.shape().concrete());
    println!("Logits shape: {:?}", logits.shape().concrete());
    println!("Total params: {}", model.num_trainable_params());
    // ANCHOR_END: seq2seq

    // ANCHOR: nn_transformer
    let transformer = TorchTransformer::new(&dev);
    let src = dev.tensor_from_vec(normal_vec(3, 2 * 15 * 64), (2, 15, Const::<64>)); // embeddings
    let tgt = dev.tensor_from_vec(normal_vec(4, 2 * 12 * 64), (2, 12, Const::<64>));
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let output = transformer.forward(src, tgt, None, Some(&causal), None, Mode::Eval);
    println!();
    println!("Output shape: {:?}", output.shape().concrete());
    println!("Total params: {}", transformer.num_trainable_params());
    // ANCHOR_END: nn_transformer
}
