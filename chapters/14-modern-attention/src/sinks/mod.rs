//! Learned sinks (gpt-oss, OpenAI 2025): every head has one more logit in its softmax, learned and
//! the same for every query, whose weight is thrown away; gpt-oss alternates layers that see a
//! window of 128 keys with layers that see every key. Pinned to Hugging Face's `GptOssAttention`.

pub mod attention;
pub mod fixture;
pub mod load;

pub use attention::{sink_share, softmax_with_sinks, SinkAttention};
