//! Stacks of blocks: `L` encoder blocks or `L` decoder blocks applied in turn.

use ch01_attention::Mask;
use dfdx::nn::{BuildModule, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::block::{DecoderBlock, DecoderWeights, EncoderBlock};
use crate::dropout::Mode;
use crate::placement::Placement;

/// `L` encoder blocks applied in turn (`L` is part of the type, as in dfdx's `Repeated`).
///
/// # Generics
/// - `M`, `H`, `DK`, `F`, `P`, `E`, `Dev`: those of [`EncoderBlock`].
/// - `L`: the number of blocks.
///
/// PyTorch equivalent: `nn.TransformerEncoder(layer, num_layers=L)` without its optional final
/// `norm`.
#[derive(Clone, Debug)]
pub struct Encoder<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub layers: Vec<EncoderBlock<M, H, DK, F, P, E, Dev>>,
}

/// `L` decoder blocks, each attending to the same encoder output.
///
/// # Generics
/// - `M`, `H`, `DK`, `F`, `P`, `E`, `Dev`: those of [`DecoderBlock`].
/// - `L`: the number of blocks.
///
/// PyTorch equivalent: `nn.TransformerDecoder(layer, num_layers=L)` without its optional final
/// `norm`.
#[derive(Clone, Debug)]
pub struct Decoder<
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    P: Placement,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub layers: Vec<DecoderBlock<M, H, DK, F, P, E, Dev>>,
}

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        P: Placement,
        Dev: Device<f32>,
    > Encoder<M, H, DK, F, L, P, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of every block ([`EncoderBlock::set_dropout`](crate::EncoderBlock::set_dropout)).
    pub fn set_dropout(&mut self, p: f32) {
        self.layers.iter_mut().for_each(|layer| layer.set_dropout(p));
    }

    /// Runs every block; returns the output and each block's self-attention weights.
    // ANCHOR: encoder_stack
    pub fn forward<B: Dim, S: Dim, T: Tape<f32, Dev>>(
        &self,
        mut x: Tensor<(B, S, Const<M>), f32, Dev, T>,
        mask: Option<&Mask<B, Const<H>, S, S, Dev>>,
        mode: Mode,
    ) -> (Tensor<(B, S, Const<M>), f32, Dev, T>, Vec<Tensor<(B, Const<H>, S, S), f32, Dev>>) {
        let mut weights = Vec::with_capacity(L);
        for layer in &self.layers {
            let (y, w) = layer.forward(x, mask, mode);
            x = y;
            weights.push(w);
        }
        (x, weights)
    }
    // ANCHOR_END: encoder_stack
}

impl<
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        P: Placement,
        Dev: Device<f32>,
    > Decoder<M, H, DK, F, L, P, f32, Dev>
{
    pub fn new(dev: &Dev) -> Self {
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of every block ([`DecoderBlock::set_dropout`](crate::DecoderBlock::set_dropout)).
    pub fn set_dropout(&mut self, p: f32) {
        self.layers.iter_mut().for_each(|layer| layer.set_dropout(p));
    }

    /// Runs every block over the same `memory`; returns the output and each block's weights.
    pub fn forward<B: Dim, Sq: Dim, Sk: Dim, T: Tape<f32, Dev>>(
        &self,
        mut x: Tensor<(B, Sq, Const<M>), f32, Dev, T>,
        memory: &Tensor<(B, Sk, Const<M>), f32, Dev>,
        self_mask: Option<&Mask<B, Const<H>, Sq, Sq, Dev>>,
        memory_mask: Option<&Mask<B, Const<H>, Sq, Sk, Dev>>,
        mode: Mode,
    ) -> (Tensor<(B, Sq, Const<M>), f32, Dev, T>, Vec<DecoderWeights<B, H, Sq, Sk, Dev>>) {
        let mut weights = Vec::with_capacity(L);
        for layer in &self.layers {
            let (y, w) = layer.forward(x, memory, self_mask, memory_mask, mode);
            x = y;
            weights.push(w);
        }
        (x, weights)
    }
}

/// The visitor of a stack: its `L` blocks, named `layers.0`, `layers.1`, ... (as PyTorch names them).
macro_rules! stack_collection {
    ($stack:ident) => {
        impl<
                const M: usize,
                const H: usize,
                const DK: usize,
                const F: usize,
                const L: usize,
                P: Placement,
                Dev: Device<f32>,
            > TensorCollection<f32, Dev> for $stack<M, H, DK, F, L, P, f32, Dev>
        {
            type To<E2: Dtype, D2: Device<E2>> = $stack<M, H, DK, F, L, P, E2, D2>;

            fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
                visitor: &mut V,
            ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
                let names: Vec<String> = (0..L).map(|i| format!("layers.{i}")).collect();
                let fields = names.iter().enumerate().map(|(i, n)| {
                    Self::module(n, move |s| &s.layers[i], move |s| &mut s.layers[i])
                });
                visitor.visit_fields(fields.collect::<Vec<_>>(), |layers| $stack { layers })
            }
        }
    };
}
stack_collection!(Encoder);
stack_collection!(Decoder);
