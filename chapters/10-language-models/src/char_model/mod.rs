//! The character-level model the chapter trains on *The Devil's Dictionary*: its vocabulary, its
//! baseline, its training and the committed run.

pub mod bigram;
pub mod chars;
pub mod cli;
pub mod config;
pub mod report;
pub mod train;
pub mod trained;
