//! The full sequence-to-sequence model and `nn.Transformer`'s layout on the demo sizes:
//! `cargo run -p ch05-blocks --example transformer`.
use ch01_attention::{broadcast_mask, causal_allowed};
use ch05_blocks::{DemoSeq2Seq, DemoTransformer, Mode, Seq2SeqMasks};
use dfdx::nn::NumParams;
use dfdx::prelude::*;
use rand::{Rng, SeedableRng};
use support::{normal_tensor, seeded_device, Dev};

/// `batch x len` token ids drawn uniformly from `0..1000` (`torch.randint(0, 1000, ..)`).
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
    let model = DemoSeq2Seq::new(&dev);
    let src = random_ids(&dev, 1, 2, 15); // source: batch 2, 15 tokens
    let tgt = random_ids(&dev, 2, 2, 12); // target: batch 2, 12 tokens
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let masks = Seq2SeqMasks { tgt: Some(&causal), ..Default::default() };
    let logits = model.forward(src.clone(), tgt.clone(), masks, Mode::Eval);
    println!("Source shape: {:?}", src.shape().concrete());
    println!("Target shape: {:?}", tgt.shape().concrete());
    println!("Logits shape: {:?}", logits.shape().concrete());
    println!("Total params: {}", model.num_trainable_params());
    // ANCHOR_END: seq2seq

    // ANCHOR: nn_transformer
    let transformer = DemoTransformer::new(&dev);
    let src = normal_tensor(&dev, 3, (2, 15, Const::<64>)); // already embedded
    let tgt = normal_tensor(&dev, 4, (2, 12, Const::<64>));
    let causal = broadcast_mask(causal_allowed(&dev, 12), 2, Const::<8>);
    let output = transformer.forward(
        src,
        tgt,
        Seq2SeqMasks { tgt: Some(&causal), ..Default::default() },
        Mode::Eval,
    );
    println!();
    println!("nn.Transformer output shape: {:?}", output.shape().concrete());
    println!("nn.Transformer total params: {}", transformer.num_trainable_params());
    // ANCHOR_END: nn_transformer
}
