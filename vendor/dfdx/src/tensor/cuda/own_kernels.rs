//! Change 6 of the vendored copy (vendor/README.md): a CUDA tensor's memory and the cudarc device
//! under `Cuda` are public, so that a crate can launch kernels of its own on dfdx's tensors.

use super::Cuda;
use crate::shapes::{HasShape, Shape, Unit};
use crate::tensor::Tensor;
use cudarc::driver::{CudaDevice, CudaSlice, DeviceSlice};
use std::sync::Arc;

impl Cuda {
    /// The cudarc device every tensor of this `Cuda` lives on.
    pub fn cudarc_device(&self) -> &Arc<CudaDevice> {
        &self.dev
    }

    /// A tensor of `shape` holding `slice`, laid out row-major.
    ///
    /// # Panics
    /// If `slice` does not hold exactly the shape's number of elements.
    pub fn tensor_from_cuda_slice<S: Shape, E: Unit>(
        &self,
        shape: S,
        slice: CudaSlice<E>,
    ) -> Tensor<S, E, Self> {
        assert_eq!(slice.len(), shape.num_elements(), "the slice must hold the shape's elements");
        self.build_tensor(shape, shape.strides(), slice)
    }
}

impl<S: Shape, E: Unit, T> Tensor<S, E, Cuda, T> {
    /// The tensor's device memory, or `None` where its layout is not row-major and contiguous (a
    /// permuted or broadcast view).
    pub fn cuda_slice(&self) -> Option<&CudaSlice<E>> {
        let contiguous = self.strides == self.shape().strides() && self.data.len() == self.shape.num_elements();
        contiguous.then(|| &self.data.data)
    }
}
