//! The Vision Transformer: patch tokens, a learnable `[CLS]` token, learnable position embeddings,
//! chapter 5's pre-norm encoder, a final layer norm and a classifier on the `[CLS]` output.

use ch05_blocks::dropout::assert_probability;
use ch05_blocks::{dropout, Encoder, LayerNorm, Mode, PreNorm, DEFAULT_DROPOUT};
use dfdx::nn::modules::Linear;
use dfdx::nn::{
    BuildModule, Module, ModuleVisitor, ScalarOptions, TensorCollection, TensorOptions,
};
use dfdx::prelude::*;
use support::params::{Count, ParamTable};

use crate::error::ImageError;
use crate::patch::PatchEmbedding;

/// The standard deviation of the initial `[CLS]` token and position embeddings, 0.02 as in common
/// ViT code (the demo ViT this chapter compares with draws them from `torch.randn`, std 1).
pub const EMBED_INIT_STD: f32 = 0.02;

/// Attention weights of every layer, `(batch, heads, SEQ, SEQ)` each; row 0 of each is what the
/// `[CLS]` token looks at.
pub type AttentionMaps<B, const H: usize, const SEQ: usize, Dev> =
    Vec<Tensor<(B, Const<H>, Const<SEQ>, Const<SEQ>), f32, Dev>>;

/// A Vision Transformer for square `C x IMG x IMG` images cut into `P x P` patches.
///
/// # Generics
/// - `C`: channels of the images; `IMG`: their side, in pixels.
/// - `P`: the side of a patch; it must divide `IMG`.
/// - `PD`: the length of a flattened patch, `C·P·P`.
/// - `SEQ`: tokens per image, `(IMG/P)² + 1` (the patches and the `[CLS]` token).
/// - `M`, `H`, `DK`, `F`: `d_model`, heads, width of a head (`H·DK = M`) and `d_ff` of the encoder
///   blocks (chapter 5's [`EncoderBlock`](ch05_blocks::EncoderBlock)).
/// - `L`: the number of encoder blocks.
/// - `CLASSES`: the number of classes the classifier scores.
/// - `E`: the element type of the parameters (`f32`); `Dev`: the dfdx device.
///
/// `PD`, `SEQ` and `DK` follow from the others, but stable Rust cannot compute them in a type, so
/// they are spelled out and checked at compile time ([`Vit::SHAPE_CHECK`]). The configurations the
/// book uses have aliases: [`DemoVit`](crate::DemoVit), [`DigitsVit`](crate::DigitsVit).
///
/// PyTorch equivalent: the common minimal ViT built from `nn.Conv2d(C, M, P, stride=P)`,
/// `cls_token` `[1, 1, M]`, `pos_embed` `[1, SEQ, M]`, `nn.Dropout`,
/// `nn.TransformerEncoder(nn.TransformerEncoderLayer(M, H, F, norm_first=True), L)`,
/// `nn.LayerNorm(M)` and `nn.Linear(M, CLASSES)`; the field names are that model's.
// ANCHOR: vit_struct
#[derive(Clone, Debug)]
pub struct Vit<
    const C: usize,
    const IMG: usize,
    const P: usize,
    const PD: usize,
    const SEQ: usize,
    const M: usize,
    const H: usize,
    const DK: usize,
    const F: usize,
    const L: usize,
    const CLASSES: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub patch_embed: PatchEmbedding<C, P, PD, M, E, Dev>,
    /// prepended to every image's patch tokens; its encoder output is what gets classified
    pub cls_token: Tensor<(Const<M>,), E, Dev>,
    /// one learned vector per position: `[CLS]` first, then the patches row by row
    pub pos_embed: Tensor<(Const<SEQ>, Const<M>), E, Dev>,
    pub encoder: Encoder<M, H, DK, F, L, PreNorm, E, Dev>,
    pub norm: LayerNorm<M, E, Dev>,
    pub classifier: Linear<M, CLASSES, E, Dev>,
    /// dropout on the tokens after the position embeddings are added
    pub dropout: f32,
}
// ANCHOR_END: vit_struct

impl<
        const C: usize,
        const IMG: usize,
        const P: usize,
        const PD: usize,
        const SEQ: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const CLASSES: usize,
        Dev: Device<f32>,
    > Vit<C, IMG, P, PD, SEQ, M, H, DK, F, L, CLASSES, f32, Dev>
{
    /// Evaluated when the type is used: a compile error unless the sizes fit together.
    // ANCHOR: shape_check
    pub const SHAPE_CHECK: () = {
        assert!(P > 0 && IMG.is_multiple_of(P), "Vit: the patch size P must divide IMG");
        assert!(PD == C * P * P, "Vit: PD must be C * P * P, the length of a flattened patch");
        assert!(SEQ == (IMG / P) * (IMG / P) + 1, "Vit: SEQ must be (IMG / P)^2 patches + 1 CLS");
        assert!(H * DK == M, "Vit: H heads of DK dimensions must make d_model M");
    };
    // ANCHOR_END: shape_check

    /// Patches: `(IMG / P)²`.
    pub const NUM_PATCHES: usize = (IMG / P) * (IMG / P);

    /// Trainable parameters, counted term by term as PyTorch counts the same model.
    // ANCHOR: num_params
    pub const NUM_PARAMS: usize = {
        let patch_embed = PD * M + M; // Conv2d(C, M, P, stride=P): weight [M, C, P, P] and bias
        let (cls_token, pos_embed) = (M, SEQ * M);
        let attention = 4 * (M * M + M); // W_q, W_k, W_v and W_o, each with a bias
        let ffn = (M * F + F) + (F * M + M); // Linear(M, F), Linear(F, M)
        let block = attention + ffn + 2 * (2 * M); // two layer norms: a scale and a shift each
        let (norm, classifier) = (2 * M, M * CLASSES + CLASSES);
        patch_embed + cls_token + pos_embed + L * block + norm + classifier
    };
    // ANCHOR_END: num_params

    /// The page's parameter table, built from the sizes: patch embedding, `[CLS]`, positions, one
    /// block (a detail), all blocks, the final norm and the classifier. Every formula evaluates to
    /// its number, the sum is [`Self::NUM_PARAMS`], and `worked_example_demo_parameters` checks
    /// each row against dfdx's count of that part and PyTorch's.
    pub fn parameter_table() -> ParamTable {
        let n = Count::n;
        let linear = |i: Count, o: usize| i * n(o) + n(o);
        // W_q, W_k, W_v, W_o with biases; Linear(M, F), Linear(F, M); two norms, scale and shift
        let block = n(4) * (Count::squared(M) + n(M))
            + linear(n(M), F)
            + linear(n(F), M)
            + n(2) * n(2) * n(M);
        let block_count = block.value();
        ParamTable::default()
            .part(
                &format!("patch embedding, `Conv2d({C}, {M}, {P}, stride {P})`"),
                linear(n(C) * n(P) * n(P), M),
            )
            .part("`[CLS]` token", n(M))
            .part("position embeddings", n(SEQ) * n(M))
            .detail("one encoder block", block)
            .part(&format!("{L} encoder blocks"), n(L) * n(block_count))
            .part("final `LayerNorm`", n(2) * n(M))
            .part(&format!("classifier, `Linear({M}, {CLASSES})`"), linear(n(M), CLASSES))
    }

    /// A model drawn from `dev`'s generator: every `Linear` (the patch projection included)
    /// uniform in ±1/sqrt(fan_in) as PyTorch's `Linear` and `Conv2d` start, layer norms at (1, 0),
    /// `[CLS]` and the positions from N(0, 0.02²); dropout 0.1 everywhere.
    pub fn new(dev: &Dev) -> Self {
        const { Self::SHAPE_CHECK };
        BuildModule::build(dev)
    }

    /// Sets every dropout probability of the model: the embeddings', and the attention, residual
    /// and feed-forward dropout of every block.
    pub fn set_dropout(&mut self, p: f32) {
        assert_probability(p);
        self.dropout = p;
        self.encoder.set_dropout(p);
    }

    /// Images `(batch, C, IMG, IMG)` to the encoder's input `(batch, SEQ, M)`: patch tokens, the
    /// `[CLS]` token in front, position embeddings added.
    // ANCHOR: embed
    pub fn embed<B: Dim, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, Const<C>, Const<IMG>, Const<IMG>), f32, Dev, T>,
        mode: Mode,
    ) -> Tensor<(B, Const<SEQ>, Const<M>), f32, Dev, T> {
        const { Self::SHAPE_CHECK };
        let b = images.shape().0;
        // patch tokens: (b, patches, M)
        let patches = self.patch_embed.forward(images);
        // the same learned [CLS] vector for every image: (M) -> (b, 1, M)
        let cls = self.cls_token.retaped::<T>().broadcast_like(&(b, Const::<1>, Const::<M>));
        let tokens = (cls, patches) // (b, 1 + patches, M)
            .concat_along(Axis::<1>)
            .try_realize::<(B, Const<SEQ>, Const<M>)>()
            .unwrap_or_else(|_| unreachable!("SHAPE_CHECK: (IMG / P)^2 + 1 = SEQ"));
        let shape = *tokens.shape();
        let tokens = tokens + self.pos_embed.retaped::<T>().broadcast_like(&shape);
        dropout(tokens, self.dropout, mode)
    }
    // ANCHOR_END: embed

    /// Logits `(batch, CLASSES)` and the attention weights of every layer.
    // ANCHOR: forward
    pub fn forward_with_attention<B: Dim, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, Const<C>, Const<IMG>, Const<IMG>), f32, Dev, T>,
        mode: Mode,
    ) -> (Tensor<(B, Const<CLASSES>), f32, Dev, T>, AttentionMaps<B, H, SEQ, Dev>) {
        let b = images.shape().0;
        let tokens = self.embed(images, mode); // (b, SEQ, M)
        let (encoded, attention) = self.encoder.forward(tokens, None, mode);
        let encoded = self.norm.forward(encoded);
        // the [CLS] token's output, position 0: (b, SEQ, M) -> (b, M)
        let cls = encoded.slice((.., 0..1, ..)).reshape_like(&(b, Const::<M>));
        (self.classifier.forward(cls), attention)
    }
    // ANCHOR_END: forward

    /// What the `[CLS]` token reads in the last layer: for every image and head, its attention
    /// weights on the `(IMG / P)²` patches, row by row: `(batch, H, patches)`. Its weight on itself
    /// is left out, so a row sums to a little less than 1.
    // ANCHOR: cls_attention
    pub fn cls_attention<B: Dim>(
        &self,
        images: Tensor<(B, Const<C>, Const<IMG>, Const<IMG>), f32, Dev>,
    ) -> Tensor<(B, Const<H>, usize), f32, Dev> {
        let b = images.shape().0;
        let (_, attention) = self.forward_with_attention(images, Mode::Eval);
        let last = attention.into_iter().last().expect("a ViT has at least one layer");
        // query 0 ([CLS]), keys 1.. (the patches): (b, H, 1, patches) -> (b, H, patches)
        last.slice((.., .., 0..1, 1..)).reshape_like(&(b, Const::<H>, Self::NUM_PATCHES))
    }
    // ANCHOR_END: cls_attention

    /// Logits `(batch, CLASSES)` for images `(batch, C, IMG, IMG)`.
    pub fn forward<B: Dim, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, Const<C>, Const<IMG>, Const<IMG>), f32, Dev, T>,
        mode: Mode,
    ) -> Tensor<(B, Const<CLASSES>), f32, Dev, T> {
        self.forward_with_attention(images, mode).0
    }

    /// [`forward`](Self::forward) for images whose sizes are known only at run time: an error that
    /// names the problem (channels, a side the patch does not divide, another image size) instead
    /// of a compile error.
    pub fn try_forward_dynamic<B: Dim, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, usize, usize, usize), f32, Dev, T>,
        mode: Mode,
    ) -> Result<Tensor<(B, Const<CLASSES>), f32, Dev, T>, ImageError> {
        let (_, c, height, width) = *images.shape();
        if c != C {
            return Err(ImageError::Channels { expected: C, got: c });
        }
        if height % P != 0 || width % P != 0 {
            return Err(ImageError::NotDivisible { height, width, patch: P });
        }
        match images.try_realize::<(B, Const<C>, Const<IMG>, Const<IMG>)>() {
            Ok(images) => Ok(self.forward(images, mode)),
            Err(_) => Err(ImageError::Size { expected: IMG, height, width }),
        }
    }
}

/// N(0, std²) samples from the device's generator: the embeddings' initial values. Box–Muller in
/// `f32`, the cosine of each pair only, as the committed run drew them.
struct Normal(f32);

impl rand::distributions::Distribution<f32> for Normal {
    fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f32 {
        let (r, theta) = support::box_muller::<f32, _>(rng);
        self.0 * r * theta.cos()
    }
}

/// How `[CLS]` and the position embeddings start (and are reset): N(0, [`EMBED_INIT_STD`]²).
fn embedding_init<S: ConstShape, Dev: Device<f32>>() -> TensorOptions<S, f32, Dev> {
    TensorOptions::reset_with(|t| t.try_fill_with_distr(Normal(EMBED_INIT_STD)))
}

impl<
        const C: usize,
        const IMG: usize,
        const P: usize,
        const PD: usize,
        const SEQ: usize,
        const M: usize,
        const H: usize,
        const DK: usize,
        const F: usize,
        const L: usize,
        const CLASSES: usize,
        Dev: Device<f32>,
    > TensorCollection<f32, Dev> for Vit<C, IMG, P, PD, SEQ, M, H, DK, F, L, CLASSES, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = Vit<C, IMG, P, PD, SEQ, M, H, DK, F, L, CLASSES, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(
            (
                // dfdx's visitor takes tuples of at most six fields: group the embeddings
                (
                    Self::module("patch_embed", |s| &s.patch_embed, |s| &mut s.patch_embed),
                    Self::tensor(
                        "cls_token",
                        |s| &s.cls_token,
                        |s| &mut s.cls_token,
                        embedding_init(),
                    ),
                    Self::tensor(
                        "pos_embed",
                        |s| &s.pos_embed,
                        |s| &mut s.pos_embed,
                        embedding_init(),
                    ),
                ),
                Self::module("encoder", |s| &s.encoder, |s| &mut s.encoder),
                Self::module("norm", |s| &s.norm, |s| &mut s.norm),
                Self::module("classifier", |s| &s.classifier, |s| &mut s.classifier),
                Self::scalar(
                    "dropout",
                    |s| &s.dropout,
                    |s| &mut s.dropout,
                    ScalarOptions::from_default(DEFAULT_DROPOUT),
                ),
            ),
            |((patch_embed, cls_token, pos_embed), encoder, norm, classifier, dropout)| Vit {
                patch_embed,
                cls_token,
                pos_embed,
                encoder,
                norm,
                classifier,
                dropout,
            },
        )
    }
}
