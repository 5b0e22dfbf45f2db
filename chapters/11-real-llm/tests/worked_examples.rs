//! The worked examples of chapter 11, with every number its page shows.

use ch08_efficient::fast::Isa;
use ch11_real_llm::decode::Matrix;
use ch11_real_llm::gguf::{q4_1_block, q8_0_block, TensorType};

/// The page's Q4_1 block: `d` = 0.25 (f16 bits 0x3400), `m` = -1.5 (0xBE00), then 16 bytes of
/// which the first two are 0x3A and 0xF0.
pub fn page_block() -> [u8; 20] {
    let mut block = [0u8; 20];
    block[..2].copy_from_slice(&0x3400u16.to_le_bytes());
    block[2..4].copy_from_slice(&0xBE00u16.to_le_bytes());
    block[4] = 0x3A;
    block[5] = 0xF0;
    block
}

#[test]
fn worked_example_q4_1_block() {
    let values = q4_1_block(&page_block());
    // byte 0x3A: low nibble 10 is element 0, high nibble 3 is element 16
    assert_eq!(values[0], 0.25 * 10.0 - 1.5);
    assert_eq!((values[0], values[16]), (1.0, -0.75));
    // byte 0xF0: element 1 is 0, element 17 is 15
    assert_eq!((values[1], values[17]), (-1.5, 2.25));
    // every other code is 0: the minimum
    assert_eq!(values.iter().filter(|&&v| v == -1.5).count(), 29);
    // 20 bytes for 32 numbers: 5 bits each, against 32 for f32
    assert_eq!(TensorType::Q4_1.bytes_of(32), 20);
    assert_eq!(TensorType::Q4_1.bytes_of(32) as f64 * 8.0 / 32.0, 5.0);
}

#[test]
fn worked_example_q8_0_block() {
    let mut block = [0u8; 34];
    block[..2].copy_from_slice(&0x3800u16.to_le_bytes()); // d = 0.5
    block[2..5].copy_from_slice(&[0x80, 0x7F, 0x03]); // -128, 127, 3
    let values = q8_0_block(&block);
    assert_eq!(values[..3], [-64.0, 63.5, 1.5]);
    assert_eq!(TensorType::Q8_0.bytes_of(32) as f64 * 8.0 / 32.0, 8.5);
}

#[test]
fn worked_example_block_product() {
    // x = 1, 2, ..., 32 against the page's block: d · Σ qᵢxᵢ + m · Σ xᵢ
    let x: Vec<f32> = (1..=32).map(|i| i as f32).collect();
    let (d, m) = (0.25f32, -1.5f32);
    let codes_times_x = 10.0 * 1.0 + 3.0 * 17.0 + 15.0 * 18.0; // elements 0, 16, 17
    let by_formula = d * codes_times_x + m * x.iter().sum::<f32>();
    assert_eq!(x.iter().sum::<f32>(), 528.0);
    assert_eq!(by_formula, 82.75 - 792.0);
    let expanded: f32 = q4_1_block(&page_block()).iter().zip(&x).map(|(w, x)| w * x).sum();
    assert_eq!(expanded, -709.25);
    for isa in Isa::available() {
        let row = Matrix::from_stored(TensorType::Q4_1, 1, 32, &page_block(), false).unwrap();
        assert_eq!(row.apply(isa, &x, 1), [-709.25], "{isa:?}");
    }
}
