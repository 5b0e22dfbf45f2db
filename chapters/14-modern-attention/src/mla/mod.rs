//! Multi-head latent attention (DeepSeek-AI 2024): the layer in its plain and absorbed forms,
//! its latent cache and the expanded keys-and-values cache it replaces, and a DeepSeek-style
//! model around it.

pub mod absorbed;
pub mod attention;
pub mod cache;
pub mod decode_speed;
pub mod fixture;
pub mod kv_cache;
pub mod load;
pub mod model;
pub mod products;
pub mod speed;

pub use absorbed::Absorbed;
pub use attention::{HeadKeysValues, LatentAttention, Latents};
pub use cache::LatentCache;
pub use kv_cache::KvCache;
pub use model::{Form, LatentBlock, LatentLm, Pass};
