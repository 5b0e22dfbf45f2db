//! The worked examples of chapter 12, with every number its page shows.
