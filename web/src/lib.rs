//! The chapters' own functions for the book's pages: the live widgets of the online book call
//! them, compiled to WebAssembly (`cargo xtask wasm`). Nothing here computes attention: each module
//! turns a widget's numbers into a chapter's tensors, calls the chapter, and returns flat numbers.
//!
//! * [`abi`]: the seam with the page's JavaScript, the only part that knows of WebAssembly: an
//!   input buffer the page fills, one exported function per widget, an output buffer it reads.
//! * [`ch01`]: the sentence's weightless attention, and the scaling experiment at any width.
//! * [`ch02`]: the "bank loan" example with every matrix editable.
//! * [`ch04`]: the sinusoidal table and the similarity of positions, at any width.
//! * [`ch06`]: a mask builder: padding, the causal mask, and what the fill does to an empty row.
//! * [`ch07`]: the trained ViT classifies a drawn digit and shows each head's `[CLS]` attention.
//! * [`ch08`]: a sparsity pattern, the scores it keeps, and the dense and sparse kernels under it.
//! * [`ch09`]: the trained reverser answers typed digits, with its cross-attention.
//! * [`ch10`]: the trained character model writes, with or without its KV cache.
//! * [`weights`], [`text`]: trained weights from the bytes the page fetched; text as code points.
//!
//! The published models the pages run (`web-models/`, "ask the book") are a module of their own,
//! which only their Web Worker loads, so that a page with widgets downloads only this one; it
//! builds on this crate's seam ([`abi::call`], [`abi::load`], [`abi::with_model`]).
//!
//! The same functions run natively (this crate is also an `rlib`); the browser check
//! (`tests/browser/widgets.rs`) drives each widget and compares what the page shows with the
//! chapter's code run natively.

pub mod abi;
pub mod ch01;
pub mod ch02;
pub mod ch04;
pub mod ch06;
pub mod ch07;
pub mod ch08;
pub mod ch09;
pub mod ch10;
pub mod text;
pub mod weights;
