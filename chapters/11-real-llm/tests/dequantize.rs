//! The dequantizer against the `gguf` Python package, bit for bit, on rows of SmolLM2's tensors
//! of every type the file holds (`fixtures/dequantized_rows.json`, written by
//! `parity/dequantized_rows.py`).

use ch11_real_llm::gguf::{dequantize, Gguf};
use ch11_real_llm::model_file;

#[test]
#[ignore = "needs SmolLM2's GGUF file: cargo xtask models"]
fn rows_equal_the_gguf_package_bit_for_bit() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/dequantized_rows.json")).unwrap();
    assert_eq!(fixture["gguf_package"], "0.19.0");
    let file = Gguf::parse(model_file::read().unwrap()).unwrap();
    let rows = fixture["rows"].as_array().unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for row in rows {
        let name = row["tensor"].as_str().unwrap();
        let info = file.tensor(name).unwrap();
        // GGUF lists dimensions innermost first: dims[0] is the length of a row
        let (width, r) = (info.dims[0], row["row"].as_u64().unwrap());
        let row_bytes = info.kind.bytes_of(width) as usize;
        let data = &file.tensor_data(info)[r as usize * row_bytes..][..row_bytes];
        let ours: Vec<u32> = dequantize(info.kind, data).iter().map(|x| x.to_bits()).collect();
        let theirs: Vec<u32> =
            row["bits"].as_array().unwrap().iter().map(|b| b.as_u64().unwrap() as u32).collect();
        assert_eq!(ours.len() as u64, width);
        assert!(ours == theirs, "{name} row {r}: differs from the gguf package");
        kinds.insert(format!("{:?}", info.kind));
    }
    assert_eq!(rows.len(), 10);
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["F32", "Q4_1", "Q8_0"]);
}
