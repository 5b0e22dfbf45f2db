//! What the chapter's loaders and models share: Hugging Face's tensors read by name into dfdx
//! tensors and chapter 10's parts, and the token table's lookup.

use ch10_language_models::{GroupedQueryAttention, RmsNorm, SwiGlu};
use ch12_real_bert::load::Entries;
use dfdx::nn::BuildModule;
use dfdx::prelude::*;

use crate::mla::products::{Rows, Weight};

/// Takes a file's entries by name, each of the shape the model expects.
pub struct Reader<'a, Dev> {
    pub entries: &'a mut Entries,
    pub dev: Dev,
}

impl<Dev: Device<f32>> Reader<'_, Dev> {
    /// An `(O, I)` matrix (`nn.Linear`'s layout, or a token table).
    pub fn matrix<const O: usize, const I: usize>(
        &mut self,
        name: &str,
    ) -> Result<Weight<O, I, Dev>, String> {
        Ok(self.dev.tensor_from_vec(self.entries.take(name, &[O, I])?, (Const::<O>, Const::<I>)))
    }

    /// Chapter 10's RMSNorm with the weight `name` and epsilon `eps`.
    pub fn norm<const N: usize>(
        &mut self,
        name: &str,
        eps: f64,
    ) -> Result<RmsNorm<N, f32, Dev>, String> {
        let mut norm = RmsNorm::new(&self.dev);
        norm.weight = self.dev.tensor_from_vec(self.entries.take(name, &[N])?, (Const::<N>,));
        norm.eps = eps;
        Ok(norm)
    }

    /// Chapter 10's grouped-query attention from `{prefix}.{q,k,v,o}_proj.weight`.
    pub fn gqa<
        const HIDDEN: usize,
        const HEADS: usize,
        const KV_HEADS: usize,
        const HEAD_DIM: usize,
        const KV_WIDTH: usize,
    >(
        &mut self,
        prefix: &str,
    ) -> Result<GroupedQueryAttention<HIDDEN, HEADS, KV_HEADS, HEAD_DIM, KV_WIDTH, f32, Dev>, String>
    {
        let mut gqa = GroupedQueryAttention::new(&self.dev);
        gqa.q_proj.weight = self.matrix(&format!("{prefix}.q_proj.weight"))?;
        gqa.k_proj.weight = self.matrix(&format!("{prefix}.k_proj.weight"))?;
        gqa.v_proj.weight = self.matrix(&format!("{prefix}.v_proj.weight"))?;
        gqa.o_proj.weight = self.matrix(&format!("{prefix}.o_proj.weight"))?;
        Ok(gqa)
    }

    /// Chapter 10's SwiGLU from `{prefix}.{gate,up,down}_proj.weight`.
    pub fn swiglu<const H: usize, const I: usize>(
        &mut self,
        prefix: &str,
    ) -> Result<SwiGlu<H, I, f32, Dev>, String> {
        let mut mlp: SwiGlu<H, I, f32, Dev> = BuildModule::build(&self.dev);
        mlp.gate_proj.weight = self.matrix(&format!("{prefix}.gate_proj.weight"))?;
        mlp.up_proj.weight = self.matrix(&format!("{prefix}.up_proj.weight"))?;
        mlp.down_proj.weight = self.matrix(&format!("{prefix}.down_proj.weight"))?;
        Ok(mlp)
    }
}

/// The rows of `table` for one sequence of token ids: `(1, ids.len(), HIDDEN)`.
///
/// # Panics
/// If an id is not below `VOCAB`.
pub fn embed<const VOCAB: usize, const HIDDEN: usize, Dev: Device<f32>>(
    table: &Weight<VOCAB, HIDDEN, Dev>,
    ids: &[usize],
) -> Rows<HIDDEN, Dev> {
    assert!(ids.iter().all(|&t| t < VOCAB), "a token id is not below {VOCAB}");
    let dev = table.device().clone();
    table.clone().gather(dev.tensor_from_vec(ids.to_vec(), (1usize, ids.len())))
}
