//! The kernel launched on dfdx's CUDA tensors: compiled by nvrtc the first time a head width is
//! used (as dfdx compiles some of its own kernels), then loaded into the device dfdx uses, so the
//! inputs and the output never leave the GPU. The launch is the one `unsafe` call: the driver
//! cannot check what a kernel does with its arguments.
#![allow(unsafe_code)]

use cudarc::driver::{CudaSlice, DeviceSlice, LaunchAsync, LaunchConfig};
use cudarc::nvrtc::compile_ptx;
use dfdx::prelude::*;

use super::plan::{GpuAttentionError, Launch};
use super::{KERNEL, SOURCE};

/// Exact attention `softmax(q kᵀ / √d) v` per head by the book's CUDA kernel, with the causal
/// mask when `causal`; the score matrix is never stored. Inputs are `(batch, heads, n, d)` with
/// `d` 64 or 128, row-major (not permuted views).
pub fn tiled_attention<B: Dim, H: Dim, S: Dim, const D: usize>(
    q: &Tensor<(B, H, S, Const<D>), f32, Cuda>,
    k: &Tensor<(B, H, S, Const<D>), f32, Cuda>,
    v: &Tensor<(B, H, S, Const<D>), f32, Cuda>,
    causal: bool,
) -> Result<Tensor<(B, H, S, Const<D>), f32, Cuda>, GpuAttentionError> {
    let (b, h, n, _) = *q.shape();
    let (nk, nv) = (k.shape().2.size(), v.shape().2.size());
    let n = n.size();
    if nk != n || nv != n || k.shape().0.size() != b.size() || v.shape().0.size() != b.size() {
        return Err(GpuAttentionError::Lengths { q: n, k: nk, v: nv });
    }
    let launch = Launch::plan(b.size() * h.size(), n, D)?;
    let (qs, ks, vs) = (memory(q, "q")?, memory(k, "k")?, memory(v, "v")?);
    let device = q.device().clone();
    let out = run(&device, &launch, [qs, ks, vs], n, causal).map_err(GpuAttentionError::Device)?;
    Ok(device.tensor_from_cuda_slice(*q.shape(), out))
}

/// A tensor's device memory, refused where it is a view.
fn memory<'a, S: Shape>(
    t: &'a Tensor<S, f32, Cuda>,
    name: &'static str,
) -> Result<&'a CudaSlice<f32>, GpuAttentionError> {
    t.cuda_slice().ok_or(GpuAttentionError::NotContiguous(name))
}

/// Compiles (once per configuration) and launches; the driver's or nvrtc's refusal as text.
fn run(
    device: &Cuda,
    launch: &Launch,
    [q, k, v]: [&CudaSlice<f32>; 3],
    n: usize,
    causal: bool,
) -> Result<CudaSlice<f32>, String> {
    let dev = device.cudarc_device();
    let module = launch.config.module();
    if !dev.has_func(&module, KERNEL) {
        let source = launch.config.defines() + SOURCE;
        let ptx = compile_ptx(source).map_err(|e| format!("nvrtc: {e:?}"))?;
        dev.load_ptx(ptx, &module, &[KERNEL]).map_err(|e| format!("loading the kernel: {e}"))?;
    }
    let function = dev.get_func(&module, KERNEL).ok_or("the kernel was not loaded")?;
    let mut out = dev.alloc_zeros::<f32>(q.len()).map_err(|e| format!("allocating: {e}"))?;
    let config = LaunchConfig {
        grid_dim: launch.grid,
        block_dim: launch.block,
        shared_mem_bytes: 0, // the tiles are static shared arrays, within the 48 KiB
    };
    let args = (q, k, v, &mut out, n as i32, causal as i32, launch.scale);
    // SAFETY: the kernel reads `heads * n * d` floats of q, k and v and writes as many of `out`,
    // which is what the four slices hold (checked by dfdx's shapes and `Launch::plan`).
    unsafe { function.launch(config, args) }.map_err(|e| format!("launching: {e}"))?;
    Ok(out)
}
