//! The kernels launched on dfdx's CUDA tensors: compiled by nvrtc the first time a configuration
//! is used (as dfdx compiles some of its own kernels), then loaded into the device dfdx uses, so
//! the inputs and the output never leave the GPU. The launches are the one `unsafe` call: the
//! driver cannot check what a kernel does with its arguments.
#![allow(unsafe_code)]

use cudarc::driver::{CudaFunction, CudaSlice, DeviceRepr, DeviceSlice, LaunchAsync, LaunchConfig};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions};
use dfdx::prelude::*;

use super::plan::{Config, GpuAttentionError, Half, Kernel, Launch};

type Qkv<B, H, S, const D: usize> = Tensor<(B, H, S, Const<D>), f32, Cuda>;

/// Exact attention `softmax(q kᵀ / √d) v` per head by the plain float32 kernel, with the causal
/// mask when `causal`; the score matrix is never stored. Inputs are `(batch, heads, n, d)` with
/// `d` 64 or 128, row-major (not permuted views).
pub fn tiled_attention<B: Dim, H: Dim, S: Dim, const D: usize>(
    q: &Qkv<B, H, S, D>,
    k: &Qkv<B, H, S, D>,
    v: &Qkv<B, H, S, D>,
    causal: bool,
) -> Result<Qkv<B, H, S, D>, GpuAttentionError> {
    float32_kernel(Kernel::Plain, [q, k, v], causal)
}

/// [`tiled_attention`] by the float32 tensor-core kernel (3xTF32).
pub fn tf32x3_attention<B: Dim, H: Dim, S: Dim, const D: usize>(
    q: &Qkv<B, H, S, D>,
    k: &Qkv<B, H, S, D>,
    v: &Qkv<B, H, S, D>,
    causal: bool,
) -> Result<Qkv<B, H, S, D>, GpuAttentionError> {
    float32_kernel(Kernel::Tf32x3, [q, k, v], causal)
}

/// One of the two kernels that take float32 tensors as they are.
fn float32_kernel<B: Dim, H: Dim, S: Dim, const D: usize>(
    kernel: Kernel,
    [q, k, v]: [&Qkv<B, H, S, D>; 3],
    causal: bool,
) -> Result<Qkv<B, H, S, D>, GpuAttentionError> {
    let launch = plan(kernel, q, k, v)?;
    let inputs = [memory(q, "q")?, memory(k, "k")?, memory(v, "v")?];
    let device = q.device().clone();
    let out = attend(&device, &launch, inputs, causal).map_err(GpuAttentionError::Device)?;
    Ok(device.tensor_from_cuda_slice(*q.shape(), out))
}

/// Queries, keys and values rounded to half precision on the GPU, for the tensor-core kernel.
pub struct Halves<B: Dim, H: Dim, S: Dim, const D: usize> {
    pub half: Half,
    shape: (B, H, S, Const<D>),
    device: Cuda,
    q: CudaSlice<u16>,
    k: CudaSlice<u16>,
    v: CudaSlice<u16>,
}

/// Rounds `q`, `k` and `v` to `half` on the GPU (a kernel of the same source).
pub fn to_halves<B: Dim, H: Dim, S: Dim, const D: usize>(
    q: &Qkv<B, H, S, D>,
    k: &Qkv<B, H, S, D>,
    v: &Qkv<B, H, S, D>,
    half: Half,
) -> Result<Halves<B, H, S, D>, GpuAttentionError> {
    let launch = plan(Kernel::TensorCores(half), q, k, v)?;
    let device = q.device().clone();
    let round = |t, name| {
        let x = memory(t, name)?;
        convert(&device, &launch.config, x).map_err(GpuAttentionError::Device)
    };
    let (qh, kh, vh) = (round(q, "q")?, round(k, "k")?, round(v, "v")?);
    Ok(Halves { half, shape: *q.shape(), device, q: qh, k: kh, v: vh })
}

/// Exact attention by the tensor-core kernel on inputs already in half precision; the output in
/// float32.
pub fn tensor_core_attention<B: Dim, H: Dim, S: Dim, const D: usize>(
    inputs: &Halves<B, H, S, D>,
    causal: bool,
) -> Result<Qkv<B, H, S, D>, GpuAttentionError> {
    let (b, h, n, _) = inputs.shape;
    let launch = Launch::plan(Kernel::TensorCores(inputs.half), b.size() * h.size(), n.size(), D)?;
    let slices = [&inputs.q, &inputs.k, &inputs.v];
    let out = attend(&inputs.device, &launch, slices, causal).map_err(GpuAttentionError::Device)?;
    Ok(inputs.device.tensor_from_cuda_slice(inputs.shape, out))
}

/// The launch for `kernel` after the checks the types cannot make: one length for all three,
/// one batch.
fn plan<B: Dim, H: Dim, S: Dim, const D: usize>(
    kernel: Kernel,
    q: &Qkv<B, H, S, D>,
    k: &Qkv<B, H, S, D>,
    v: &Qkv<B, H, S, D>,
) -> Result<Launch, GpuAttentionError> {
    let (b, h, n, _) = *q.shape();
    let (n, nk, nv) = (n.size(), k.shape().2.size(), v.shape().2.size());
    if nk != n || nv != n || k.shape().0.size() != b.size() || v.shape().0.size() != b.size() {
        return Err(GpuAttentionError::Lengths { q: n, k: nk, v: nv });
    }
    Launch::plan(kernel, b.size() * h.size(), n, D)
}

/// A tensor's device memory, refused where it is a view.
fn memory<'a, S: Shape>(
    t: &'a Tensor<S, f32, Cuda>,
    name: &'static str,
) -> Result<&'a CudaSlice<f32>, GpuAttentionError> {
    t.cuda_slice().ok_or(GpuAttentionError::NotContiguous(name))
}

/// The configuration's function `name`, compiled and loaded on first use.
fn function(device: &Cuda, config: &Config, name: &str) -> Result<CudaFunction, String> {
    let dev = device.cudarc_device();
    let module = config.module();
    if !dev.has_func(&module, config.function()) {
        let options = CompileOptions { arch: config.arch(), ..Default::default() };
        let ptx = compile_ptx_with_opts(config.nvrtc_source(), options)
            .map_err(|e| format!("nvrtc: {e:?}"))?;
        let names = config.functions();
        dev.load_ptx(ptx, &module, names).map_err(|e| format!("loading the kernel: {e}"))?;
    }
    dev.get_func(&module, name).ok_or_else(|| format!("{name} was not loaded"))
}

/// Launches the attention kernel of `launch` on `[q, k, v]`; the output, or the driver's or
/// nvrtc's refusal as text.
fn attend<T: DeviceRepr>(
    device: &Cuda,
    launch: &Launch,
    [q, k, v]: [&CudaSlice<T>; 3],
    causal: bool,
) -> Result<CudaSlice<f32>, String> {
    let f = function(device, &launch.config, launch.config.function())?;
    let dev = device.cudarc_device();
    let mut out = dev.alloc_zeros::<f32>(q.len()).map_err(|e| format!("allocating: {e}"))?;
    let config = LaunchConfig {
        grid_dim: launch.grid,
        block_dim: launch.block,
        shared_mem_bytes: 0, // the tiles are static shared arrays, within the 48 KiB
    };
    let n = (q.len() / (launch.grid.1 as usize * launch.config.head_dim)) as i32;
    let args = (q, k, v, &mut out, n, causal as i32, launch.scale);
    // SAFETY: the kernel reads `heads * n * d` elements of q, k and v and writes as many floats
    // of `out`, which is what the four slices hold (dfdx's shapes and `plan` checked them).
    unsafe { f.launch(config, args) }.map_err(|e| format!("launching: {e}"))?;
    Ok(out)
}

/// `x` rounded to the configuration's half type by the `to_halves` kernel.
fn convert(device: &Cuda, config: &Config, x: &CudaSlice<f32>) -> Result<CudaSlice<u16>, String> {
    let f = function(device, config, "to_halves")?;
    let dev = device.cudarc_device();
    let mut out = dev.alloc_zeros::<u16>(x.len()).map_err(|e| format!("allocating: {e}"))?;
    let pairs = x.len() / 2; // d is 64 or 128: every length is even
    let launch = LaunchConfig::for_num_elems(pairs as u32);
    // SAFETY: to_halves reads `2 * pairs` floats and writes as many halves, what both slices hold.
    unsafe { f.launch(launch, (x, &mut out, pairs as i32)) }
        .map_err(|e| format!("launching: {e}"))?;
    Ok(out)
}
