//! Tiled exact attention on an NVIDIA GPU: the online softmax of [`tiled`](crate::tiled) as a
//! CUDA kernel of the book's own ([`SOURCE`], `attention.cu`), launched on dfdx's CUDA tensors.
//!
//! * [`plan`]: the host side, which needs no GPU and is tested on every machine: the kernel's
//!   configuration per head width, the grid, the block, the shared memory, the argument checks;
//! * `cuda` (with the `cuda` feature): [`tiled_attention`] compiles the kernel with nvrtc on first
//!   use and launches it on dfdx tensors `(batch, heads, n, d)`.
//!
//! The kernel itself also runs on the CPU, unchanged: the chapter's test `gpu_on_host` compiles it
//! with the C compiler under a small stand-in for CUDA (one POSIX thread per GPU thread), so its
//! indexing, tiling and masking are checked against the dense computation on machines without a
//! GPU. The GPU kit's run compares it with chapter 1's attention on the GPU itself.

pub mod plan;

#[cfg(feature = "cuda")]
mod cuda;

#[cfg(feature = "cuda")]
pub use cuda::tiled_attention;
pub use plan::{Config, GpuAttentionError, Launch, TILE_Q};

/// The kernel's CUDA C source. The host puts [`Config::defines`] before it.
pub const SOURCE: &str = include_str!("attention.cu");

/// The kernel's name in [`SOURCE`].
pub const KERNEL: &str = "tiled_attention_f32";
