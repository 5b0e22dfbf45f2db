//! The model: a Llama-family decoder, its parts, and what its configuration costs.

pub mod block;
pub mod cache;
pub mod checkpoint;
pub mod config;
pub mod generate;
pub mod gqa;
pub mod lm;
pub mod mask;
pub mod memory;
pub mod model;
pub mod params;
pub mod permute;
pub mod presets;
pub mod rms;
pub mod rope;
pub mod swiglu;
