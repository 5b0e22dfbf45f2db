//! From a tensor's stored bytes to `f32`: plain floats, and the quantized blocks of 32 with their
//! half-precision scales. The arithmetic is the `gguf` Python package's, in `f32` and unfused
//! (`d * q + m`), so the results are equal bit for bit. Only the addition rounds: a scale `d` has
//! an 11-bit significand and a code `q` at most 8 bits, so `d * q` is exact in `f32`'s 24.

use super::types::TensorType;
use half::f16;

fn f16_at(bytes: &[u8], at: usize) -> f32 {
    f16::from_bits(u16::from_le_bytes([bytes[at], bytes[at + 1]])).to_f32()
}

/// One Q4_1 block of 20 bytes: scale `d`, minimum `m`, then 16 bytes whose low nibbles are
/// elements 0–15 and whose high nibbles are elements 16–31; element `i` is `d · q_i + m`.
// ANCHOR: q4_1
pub fn q4_1_block(block: &[u8; 20]) -> [f32; 32] {
    let (d, m) = (f16_at(block, 0), f16_at(block, 2));
    let qs = &block[4..];
    std::array::from_fn(|i| {
        let q = if i < 16 { qs[i] & 0x0F } else { qs[i - 16] >> 4 };
        d * f32::from(q) + m
    })
}
// ANCHOR_END: q4_1

/// One Q8_0 block of 34 bytes: scale `d`, then 32 signed bytes; element `i` is `d · q_i`.
pub fn q8_0_block(block: &[u8; 34]) -> [f32; 32] {
    let d = f16_at(block, 0);
    std::array::from_fn(|i| f32::from(block[2 + i] as i8) * d)
}

/// Every element of a tensor of type `kind` stored in `bytes` (a whole number of blocks).
///
/// # Panics
/// If `bytes` is not a whole number of `kind`'s blocks.
pub fn dequantize(kind: TensorType, bytes: &[u8]) -> Vec<f32> {
    let block = kind.block_bytes() as usize;
    assert!(
        bytes.len().is_multiple_of(block),
        "{} bytes are not whole {kind:?} blocks",
        bytes.len()
    );
    let blocks = bytes.chunks_exact(block);
    match kind {
        TensorType::F32 => blocks.map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect(),
        TensorType::F16 => blocks.map(|b| f16_at(b, 0)).collect(),
        TensorType::Q4_1 => blocks.flat_map(|b| q4_1_block(b.try_into().unwrap())).collect(),
        TensorType::Q8_0 => blocks.flat_map(|b| q8_0_block(b.try_into().unwrap())).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_q4_1_block_by_hand() {
        // d = 0.5, m = -1.0; byte j holds q_j in its low nibble and q_{j+16} in its high one
        let mut block = [0u8; 20];
        block[..2].copy_from_slice(&f16::from_f32(0.5).to_bits().to_le_bytes());
        block[2..4].copy_from_slice(&f16::from_f32(-1.0).to_bits().to_le_bytes());
        for j in 0..16 {
            block[4 + j] = (j as u8) | ((15 - j as u8) << 4);
        }
        let x = q4_1_block(&block);
        assert_eq!((x[0], x[1], x[15]), (-1.0, -0.5, 6.5)); // 0.5 · 15 - 1
        assert_eq!((x[16], x[31]), (6.5, -1.0)); // high nibbles: 15 down to 0
    }

    /// Every half-precision scale times every Q4_1 code (0 to 15) and every Q8_0 code (-128 to
    /// 127) is exact in `f32`: the product rounds nowhere, so `d * q + m` rounds once, in the
    /// addition, and a Q8_0 weight not at all.
    #[test]
    fn a_scale_times_a_code_is_exact() {
        for bits in 0..=u16::MAX {
            let d = f16::from_bits(bits).to_f32();
            if !d.is_finite() {
                continue;
            }
            for q in -128i32..=127 {
                let product = d * q as f32;
                assert_eq!(f64::from(product), f64::from(d) * f64::from(q), "{d} · {q}");
            }
        }
    }

    #[test]
    fn a_q8_0_block_by_hand() {
        let mut block = [0u8; 34];
        block[..2].copy_from_slice(&f16::from_f32(0.25).to_bits().to_le_bytes());
        block[2] = 4;
        block[3] = (-128i8) as u8;
        block[33] = 127;
        let x = q8_0_block(&block);
        assert_eq!((x[0], x[1], x[2], x[31]), (1.0, -32.0, 0.0, 31.75));
    }

    #[test]
    fn plain_floats_and_lengths() {
        let bytes: Vec<u8> = [1.5f32, -2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(dequantize(TensorType::F32, &bytes), vec![1.5, -2.0]);
        let halves: Vec<u8> = [0.5f32, 65504.0]
            .iter()
            .flat_map(|&x| f16::from_f32(x).to_bits().to_le_bytes())
            .collect();
        assert_eq!(dequantize(TensorType::F16, &halves), vec![0.5, 65504.0]);
        assert_eq!(dequantize(TensorType::Q4_1, &[0; 40]).len(), 64);
    }
}
