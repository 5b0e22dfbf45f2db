//! Reading the reference values that PyTorch scripts export as JSON (`chapters/*/fixtures/`).

use dfdx::nn::modules::Linear;
use dfdx::prelude::*;
use serde_json::Value;

/// Loads a fixture; the panic names the file and the script that regenerates it.
pub fn load(path: &str, generator: &str) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}; regenerate it with {generator}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not valid JSON: {e}"))
}

/// The array `key` of `v` as `f32`s.
pub fn floats(v: &Value, key: &str) -> Vec<f32> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("fixture lacks the array {key:?}"))
        .iter()
        .map(|x| x.as_f64().expect("fixture values are numbers") as f32)
        .collect()
}

/// The non-negative integer `key` of `v`.
pub fn size(v: &Value, key: &str) -> usize {
    v[key].as_u64().unwrap_or_else(|| panic!("fixture lacks the size {key:?}")) as usize
}

/// The array `key` of `v` as a tensor of `N` values (a bias, a norm's scale, an embedding).
pub fn vector<const N: usize, Dev: Device<f32>>(
    dev: &Dev,
    v: &Value,
    key: &str,
) -> Tensor<(Const<N>,), f32, Dev> {
    dev.tensor_from_vec(floats(v, key), (Const::<N>,))
}

/// The array `key` of `v` as an `R x C` matrix, row-major as PyTorch stores it.
pub fn matrix<const R: usize, const C: usize, Dev: Device<f32>>(
    dev: &Dev,
    v: &Value,
    key: &str,
) -> Tensor<(Const<R>, Const<C>), f32, Dev> {
    dev.tensor_from_vec(floats(v, key), (Const::<R>, Const::<C>))
}

/// PyTorch's `nn.Linear` named `name` (its `name.weight` `[O, I]` and `name.bias` `[O]`) into `l`.
pub fn load_linear<const I: usize, const O: usize, Dev: Device<f32>>(
    dev: &Dev,
    l: &mut Linear<I, O, f32, Dev>,
    v: &Value,
    name: &str,
) {
    l.weight = matrix(dev, v, &format!("{name}.weight"));
    l.bias = vector(dev, v, &format!("{name}.bias"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_numbers_and_sizes() {
        let v: serde_json::Value = serde_json::from_str(r#"{"x": [1, 2.5, -3], "n": 4}"#).unwrap();
        assert_eq!(super::floats(&v, "x"), vec![1.0, 2.5, -3.0]);
        assert_eq!(super::size(&v, "n"), 4);
    }

    #[test]
    fn a_linear_layer_takes_pytorchs_layout() {
        use dfdx::prelude::*;
        let dev: Cpu = Default::default();
        let v = serde_json::json!({"fc.weight": [1, 2, 3, 4, 5, 6], "fc.bias": [7, 8]});
        let mut l: dfdx::nn::modules::Linear<3, 2, f32, Cpu> = dfdx::nn::BuildModule::build(&dev);
        super::load_linear(&dev, &mut l, &v, "fc");
        // weight [out 2, in 3]: y0 = 1 + 2 + 3 + 7, y1 = 4 + 5 + 6 + 8
        assert_eq!(l.forward(dev.ones::<Rank1<3>>()).array(), [13.0, 23.0]);
    }

    #[test]
    #[should_panic(expected = "fixture lacks the array \"y\"")]
    fn a_missing_key_is_named() {
        super::floats(&serde_json::json!({}), "y");
    }
}
