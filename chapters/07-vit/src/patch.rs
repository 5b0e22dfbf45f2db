//! From images to tokens: cut each image into non-overlapping `P x P` patches, flatten every patch
//! into one vector, and project it with a `Linear` layer.
//!
//! PyTorch ViTs write the same thing as one `nn.Conv2d(C, E, kernel_size=P, stride=P)`: a kernel
//! that never overlaps itself sees each patch exactly once, so the convolution is a matrix product
//! over flattened patches. [`conv2d_reference`] is that convolution written out as loops, and the
//! tests show the two agree (and agree with PyTorch's `Conv2d`).

use dfdx::nn::modules::Linear;
use dfdx::nn::{BuildModule, Module, ModuleVisitor, TensorCollection};
use dfdx::prelude::*;

use crate::error::ImageError;

/// Cuts `(batch, C, H, W)` images into `(batch, (H/P)·(W/P), C·P·P)` flattened patches.
///
/// Patches are numbered row by row (left to right, then top to bottom), and each one is flattened
/// channel first, then row, then column: the order in which PyTorch's `Conv2d` weight
/// `[E, C, P, P]` flattens, so `weight.reshape(E, -1)` projects these vectors.
///
/// `PD` (the length of a flattened patch) must be `C·P·P`, and `P` must divide `H` and `W`: both
/// are checked at compile time.
// ANCHOR: patchify
pub fn patchify<
    B: Dim,
    const C: usize,
    const H: usize,
    const W: usize,
    const P: usize,
    const PD: usize,
    Dev: Device<f32>,
    T: Tape<f32, Dev>,
>(
    images: Tensor<(B, Const<C>, Const<H>, Const<W>), f32, Dev, T>,
    _patch: Const<P>,
) -> Tensor<(B, usize, Const<PD>), f32, Dev, T> {
    const { assert!(H.is_multiple_of(P) && W.is_multiple_of(P), "patchify: P must divide H, W") };
    const { assert!(PD == C * P * P, "patchify: a flattened patch has C * P * P values") };
    let b = images.shape().0;
    let (rows, cols) = (H / P, W / P);
    images
        // split each side into (patch index, pixel within the patch): (b, C, rows, P, cols, P)
        .reshape_like(&(b, Const::<C>, rows, Const::<P>, cols, Const::<P>))
        // bring the two patch indices forward: (b, rows, cols, C, P, P)
        .permute::<_, Axes6<0, 2, 4, 1, 3, 5>>()
        // one row per patch: (b, rows * cols, C * P * P)
        .reshape_like(&(b, rows * cols, Const::<PD>))
}
// ANCHOR_END: patchify

/// [`patchify`] for sizes known only at run time: an error instead of a compile error when `patch`
/// does not divide the height or the width.
pub fn patchify_dynamic<B: Dim, Dev: Device<f32>, T: Tape<f32, Dev>>(
    images: Tensor<(B, usize, usize, usize), f32, Dev, T>,
    patch: usize,
) -> Result<Tensor<(B, usize, usize), f32, Dev, T>, ImageError> {
    let (b, c, h, w) = *images.shape();
    if patch == 0 || h % patch != 0 || w % patch != 0 {
        return Err(ImageError::NotDivisible { height: h, width: w, patch });
    }
    let (rows, cols) = (h / patch, w / patch);
    Ok(images
        .reshape_like(&(b, c, rows, patch, cols, patch))
        .permute::<_, Axes6<0, 2, 4, 1, 3, 5>>()
        .reshape_like(&(b, rows * cols, c * patch * patch)))
}

/// `P x P` patches of `C`-channel images, each flattened and projected to `M` features.
///
/// # Generics
/// - `C`: channels of the input images (1 for grey, 3 for RGB).
/// - `P`: the side of a square patch, in pixels.
/// - `PD`: the length of a flattened patch, `C·P·P` (checked at compile time: stable Rust cannot
///   compute it in a type).
/// - `M`: the width of a token, `d_model` (PyTorch's `embed_dim`).
/// - `E`: the element type of the weights (`f32`); `Dev`: the dfdx device.
///
/// PyTorch equivalent: `nn.Conv2d(C, M, kernel_size=P, stride=P)` followed by
/// `.flatten(2).transpose(1, 2)`. `proj.weight` is the convolution's `[M, C, P, P]` weight reshaped
/// to `[M, C·P·P]`; the bias is the same.
// ANCHOR: patch_embedding
#[derive(Clone, Debug)]
pub struct PatchEmbedding<
    const C: usize,
    const P: usize,
    const PD: usize,
    const M: usize,
    E: Dtype,
    Dev: Storage<E>,
> {
    pub proj: Linear<PD, M, E, Dev>,
}

impl<const C: usize, const P: usize, const PD: usize, const M: usize, Dev: Device<f32>>
    PatchEmbedding<C, P, PD, M, f32, Dev>
{
    /// `(batch, C, H, W)` images to `(batch, (H/P)·(W/P), M)` patch tokens.
    pub fn forward<B: Dim, const H: usize, const W: usize, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, Const<C>, Const<H>, Const<W>), f32, Dev, T>,
    ) -> Tensor<(B, usize, Const<M>), f32, Dev, T> {
        self.proj.forward(patchify(images, Const::<P>))
    }
}
// ANCHOR_END: patch_embedding

impl<const C: usize, const P: usize, const PD: usize, const M: usize, Dev: Device<f32>>
    PatchEmbedding<C, P, PD, M, f32, Dev>
{
    /// Evaluated when the type is used: a compile error unless `PD == C·P·P`.
    pub const SHAPE_CHECK: () = assert!(
        P > 0 && PD == C * P * P,
        "PatchEmbedding<C, P, PD, M>: PD must be C * P * P, the length of a flattened patch"
    );

    /// Weights and bias uniform in `±1/sqrt(C·P·P)`, as PyTorch's `Conv2d` and `Linear` start.
    pub fn new(dev: &Dev) -> Self {
        const { Self::SHAPE_CHECK };
        BuildModule::build(dev)
    }

    /// [`forward`](Self::forward) for images whose sizes are known only at run time: an error that
    /// names the problem when the channels are not `C` or `P` does not divide a side.
    pub fn try_forward_dynamic<B: Dim, T: Tape<f32, Dev>>(
        &self,
        images: Tensor<(B, usize, usize, usize), f32, Dev, T>,
    ) -> Result<Tensor<(B, usize, Const<M>), f32, Dev, T>, ImageError> {
        const { Self::SHAPE_CHECK };
        let channels = images.shape().1;
        if channels != C {
            return Err(ImageError::Channels { expected: C, got: channels });
        }
        let patches = patchify_dynamic(images, P)?
            .try_realize::<(B, usize, Const<PD>)>()
            .unwrap_or_else(|_| unreachable!("C channels give patches of C * P * P = PD values"));
        Ok(self.proj.forward(patches))
    }
}

/// PyTorch's `Conv2d` with `kernel_size = stride = p` and no padding, written out as loops on flat
/// row-major buffers: the reference the patch embedding is checked against.
///
/// `images` is `[batch, c, h, w]`, `weight` is `[out, c, p, p]`, `bias` is `[out]`; the result is
/// `[batch, out, h / p, w / p]`. Like PyTorch, it ignores the last `h % p` rows and `w % p`
/// columns.
// ANCHOR: conv_reference
pub fn conv2d_reference(
    images: &[f32],
    [batch, c, h, w]: [usize; 4],
    weight: &[f32],
    bias: &[f32],
    p: usize,
) -> Vec<f32> {
    let out_ch = bias.len();
    assert_eq!(images.len(), batch * c * h * w, "images must hold batch * c * h * w values");
    assert_eq!(weight.len(), out_ch * c * p * p, "weight must be [out, c, p, p]");
    let (rows, cols) = (h / p, w / p);
    let mut out = vec![0.0; batch * out_ch * rows * cols];
    for b in 0..batch {
        for o in 0..out_ch {
            for i in 0..rows {
                for j in 0..cols {
                    // one output value: the kernel laid over patch (i, j), all channels
                    let mut acc = bias[o];
                    for ch in 0..c {
                        for u in 0..p {
                            for v in 0..p {
                                let pixel = images[((b * c + ch) * h + i * p + u) * w + j * p + v];
                                acc += weight[((o * c + ch) * p + u) * p + v] * pixel;
                            }
                        }
                    }
                    out[((b * out_ch + o) * rows + i) * cols + j] = acc;
                }
            }
        }
    }
    out
}
// ANCHOR_END: conv_reference

impl<const C: usize, const P: usize, const PD: usize, const M: usize, Dev: Device<f32>>
    TensorCollection<f32, Dev> for PatchEmbedding<C, P, PD, M, f32, Dev>
{
    type To<E2: Dtype, D2: Device<E2>> = PatchEmbedding<C, P, PD, M, E2, D2>;

    fn iter_tensors<V: ModuleVisitor<Self, f32, Dev>>(
        visitor: &mut V,
    ) -> Result<Option<Self::To<V::E2, V::D2>>, V::Err> {
        visitor.visit_fields(Self::module("proj", |s| &s.proj, |s| &mut s.proj), |proj| {
            PatchEmbedding { proj }
        })
    }
}
