//! Multi-head latent attention (DeepSeek-AI 2024): the layer in its plain and absorbed forms,
//! its cache, and a DeepSeek-style model around it.

pub mod absorbed;
pub mod attention;
pub mod cache;
pub mod decode_speed;
pub mod fixture;
pub mod load;
pub mod model;
pub mod speed;

pub use absorbed::Absorbed;
pub use attention::{LatentAttention, Latents};
pub use cache::LatentCache;
pub use model::{Form, LatentBlock, LatentLm, Pass};
