//! # Chapter 7 — Vision Transformers
//!
//! A Transformer does not care where its tokens come from. A Vision Transformer (Dosovitskiy et
//! al. 2021) cuts an image into non-overlapping patches, flattens and projects each patch into a
//! token, puts a learnable `[CLS]` token in front, adds learnable position embeddings, runs
//! chapter 5's encoder, and classifies the `[CLS]` token's output.
//!
//! * [`patch`]: [`patchify`] and [`PatchEmbedding`], equal to a strided convolution
//!   ([`conv2d_reference`]);
//! * [`vit`]: the model, [`Vit`], and its parameter table;
//! * [`presets`]: the configurations the book runs ([`DemoVit`], [`DigitsVit`],
//!   [`TrainConfig::digits`]);
//! * [`error`]: [`ImageError`], for sizes known only at run time, [`InvalidPick`] for test
//!   images picked by an index the test set lacks, and [`LoadError`];
//! * [`digits`]: the UCI handwritten digits (1,797 images of 8×8), embedded, and a stratified
//!   split;
//! * [`knn`]: the 1-nearest-neighbour baseline;
//! * [`model`]: [`DigitsModel`], what training and evaluation need of a model;
//! * [`evaluate`]: predictions, accuracy, the confusion matrix and the misclassified images;
//! * [`config`]: [`TrainConfig`], everything that decides a training run;
//! * [`train`](mod@train): Adam, cross-entropy and mini-batches: [`train()`] and [`Trainer`];
//! * [`report`], [`trained`]: what a training run records, and the committed weights, report and
//!   the runs of the `seeds` example;
//! * [`figures`]: the chapter's figures.
//!
//! Sizes are part of the types, so the shape bugs that a PyTorch ViT meets at run time do not
//! compile: see [`shape_errors`].

/// The shape bugs of a PyTorch ViT, as compile errors here.
///
#[doc = include_str!("shape_errors.md")]
pub mod shape_errors {}

pub mod config;
pub mod digits;
pub mod error;
pub mod evaluate;
#[cfg(not(target_arch = "wasm32"))] // figures are drawn natively; `web/` builds without plotting
pub mod figures;
pub mod knn;
pub mod model;
pub mod patch;
pub mod presets;
pub mod report;
pub mod train;
pub mod trained;
pub mod vit;

pub use ch05_blocks::Mode;
pub use config::TrainConfig;
pub use digits::{Digits, Split};
pub use error::{ImageError, InvalidPick, LoadError};
pub use model::DigitsModel;
pub use patch::{conv2d_reference, patchify, patchify_dynamic, PatchEmbedding};
pub use presets::{DemoVit, DigitsVit, VitBase16};
pub use train::{train, Trainer};
pub use vit::{AttentionMaps, Vit, EMBED_INIT_STD};
