//! Trained weights from bytes the page fetched: the same safetensors reading as dfdx's
//! `load_safetensors` (its `TensorVisitor` for `SafeTensors`, walked over the model's tensors),
//! without the file and the memory map, which a page does not have.

use ::safetensors::SafeTensors;
use dfdx::nn::tensor_collection::{RecursiveWalker, TensorCollection};
use dfdx::prelude::*;

/// Fills `model`'s tensors (and settings stored as scalars) from a safetensors file's bytes.
///
/// # Errors
/// When the bytes are not a safetensors file, or lack a tensor of the model or hold it in
/// another shape or type: the message says which.
pub fn load_into<M: TensorCollection<f32, Cpu>>(model: &mut M, bytes: &[u8]) -> Result<(), String> {
    let mut tensors =
        SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file: {e:?}"))?;
    M::iter_tensors(&mut RecursiveWalker { m: (model, String::new()), f: &mut tensors })
        .map_err(|e| format!("the weights do not fit the model: {e:?}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_weights_are_refused() {
        let dev = Cpu::default();
        let mut model = dev.build_module::<Linear<2, 2>, f32>();
        assert!(load_into(&mut model, b"hello").unwrap_err().contains("not a safetensors file"));
        let other = ch07_vit::trained::WEIGHTS;
        let bytes = std::fs::read(other).expect("chapter 7's weights");
        assert!(load_into(&mut model, &bytes).unwrap_err().contains("do not fit"));
    }
}
