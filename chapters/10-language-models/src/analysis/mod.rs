//! What the page measures and reads off the trained model: generation timed with and without the
//! cache, and where the heads look.

pub mod cost;
pub mod count;
pub mod reading;
pub mod words;
