//! Tiled exact attention on an NVIDIA GPU: the online softmax of [`tiled`](crate::tiled) as CUDA
//! kernels of the book's own, launched on dfdx's CUDA tensors. Three versions: the plain one in
//! float32, one thread per query row ([`SOURCE`], `attention.cu`); one on the tensor cores,
//! half-precision inputs with float32 sums ([`SOURCE_MMA`], `attention_mma.cu`); and one on the
//! tensor cores in float32, each product as three TF32 products ([`SOURCE_TF32`],
//! `attention_tf32.cu`).
//!
//! * [`plan`]: the host side, which needs no GPU and is tested on every machine: the kernel's
//!   configuration per head width, the grid, the block, the shared memory, the argument checks;
//! * `cuda` (with the `cuda` feature): `tiled_attention`, `tf32x3_attention` and
//!   `tensor_core_attention` compile their kernel with nvrtc on first use and launch it on dfdx
//!   tensors `(batch, heads, n, d)`.
//!
//! The kernels themselves also run on the CPU, unchanged: the chapter's test `gpu_on_host`
//! compiles them with the C compiler under a small stand-in for CUDA (a block's GPU threads
//! taking turns at its barriers, the tensor cores' warp-wide product rebuilt from every lane's
//! fragments), so their indexing, tiling, masking and fragment layouts are checked against the
//! dense computation on machines without a GPU. The GPU kit's run compares them with chapter 1's attention on the GPU.

pub mod plan;

#[cfg(feature = "cuda")]
mod cuda;

#[cfg(feature = "cuda")]
pub use cuda::{tensor_core_attention, tf32x3_attention, tiled_attention, to_halves, Halves};
pub use plan::{Config, GpuAttentionError, Half, Kernel, Launch, TILE_Q};

/// What both kernels' sources need first: the kernel qualifier, -∞, the shared tiles.
pub const COMMON: &str = include_str!("common.cuh");

/// The online softmax on mma result fragments, shared by the two tensor-core kernels.
pub const WARP_SOFTMAX: &str = include_str!("warp_softmax.cuh");

/// The plain kernel's CUDA C source. The host puts [`Config::defines`] and [`COMMON`] before it.
pub const SOURCE: &str = include_str!("attention.cu");

/// The tensor-core kernel's CUDA C source, with its conversion of float32 to halves.
pub const SOURCE_MMA: &str = include_str!("attention_mma.cu");

/// The float32 tensor-core kernel's CUDA C source (3xTF32).
pub const SOURCE_TF32: &str = include_str!("attention_tf32.cu");
