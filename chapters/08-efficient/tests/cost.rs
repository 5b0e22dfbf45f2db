//! The quadratic cost, in the numbers the page prints.

use ch08_efficient::cost::{
    bytes_per_head, bytes_per_model, human, scores_per_head, Precision, HEADS_32_LAYERS_24,
};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

#[test]
fn worked_example_scores_per_head() {
    assert_eq!(scores_per_head(512), 262_144);
    assert_eq!(scores_per_head(4_096), 16_777_216); // "16.7 million"
    assert_eq!(scores_per_head(8_192), 67_108_864); // 67 million, not 268 million
    assert_eq!(scores_per_head(16_384), 268_435_456); // the 268 million belong here
    assert_eq!(scores_per_head(100_000), 10_000_000_000); // ten billion
}

#[test]
fn worked_example_memory_per_head_and_model() {
    use Precision::{F16, F32};
    // n = 8192: 128 MiB a head in f16, 256 MiB in f32; 96 GiB for 32 heads x 24 layers in f16
    assert_eq!(bytes_per_head(8_192, F16), 128 * MIB);
    assert_eq!(bytes_per_head(8_192, F32), 256 * MIB);
    assert_eq!(bytes_per_model(8_192, F16, HEADS_32_LAYERS_24), 96 * GIB);
    assert_eq!(bytes_per_model(8_192, F32, HEADS_32_LAYERS_24), 192 * GIB);
    // n = 16384: the 512 MiB a head and 384 GiB a model often quoted for n = 8192
    assert_eq!(bytes_per_head(16_384, F16), 512 * MIB);
    assert_eq!(bytes_per_model(16_384, F16, HEADS_32_LAYERS_24), 384 * GIB);
    assert_eq!(bytes_per_head(16_384, F32), GIB);
    // n = 100,000: 20 GB (18.6 GiB) a head in f16
    assert_eq!(bytes_per_head(100_000, F16), 20_000_000_000);
    assert_eq!(human(bytes_per_head(100_000, F16)), "18.6 GiB");
    assert_eq!(human(bytes_per_head(512, F32)), "1 MiB");
}
