//! Reading the reference values that PyTorch scripts export as JSON (`chapters/*/fixtures/`).

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

#[cfg(test)]
mod tests {
    #[test]
    fn reads_numbers_and_sizes() {
        let v: serde_json::Value = serde_json::from_str(r#"{"x": [1, 2.5, -3], "n": 4}"#).unwrap();
        assert_eq!(super::floats(&v, "x"), vec![1.0, 2.5, -3.0]);
        assert_eq!(super::size(&v, "n"), 4);
    }

    #[test]
    #[should_panic(expected = "fixture lacks the array \"y\"")]
    fn a_missing_key_is_named() {
        super::floats(&serde_json::json!({}), "y");
    }
}
