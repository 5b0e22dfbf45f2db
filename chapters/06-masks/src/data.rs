//! Batches of token ids: the chapter's example data, and the checks every mask builder runs on its
//! input.

// ANCHOR: data
/// A batch of three sequences padded to length 6 with PAD = 0: 4, 6 and 2 real tokens.
pub const SEQUENCES: [[usize; 6]; 3] =
    [[5, 12, 8, 3, 0, 0], [7, 1, 9, 4, 6, 2], [11, 3, 0, 0, 0, 0]];
/// Two target sequences for a decoder, padded the same way: 4 and 6 real tokens.
pub const TARGETS: [[usize; 6]; 2] = [[1, 5, 8, 3, 0, 0], [2, 7, 4, 6, 9, 1]];
/// The padding id of both.
pub const PAD: usize = 0;
// ANCHOR_END: data

/// Panics with a message naming `what` if a mask of length `n` would be empty.
pub(crate) fn check_len(what: &str, n: usize) {
    assert!(n > 0, "{what}: a sequence of length 0 has nothing to mask; pass n >= 1");
}

/// Checks a batch of token ids: at least one sequence, all of one non-zero length. Returns the
/// length.
pub(crate) fn check_batch(what: &str, ids: &[impl AsRef<[usize]>]) -> usize {
    assert!(!ids.is_empty(), "{what}: the batch is empty; give at least one sequence of token ids");
    let len = ids[0].as_ref().len();
    for (i, seq) in ids.iter().enumerate() {
        let n = seq.as_ref().len();
        assert_eq!(
            n, len,
            "{what}: sequence {i} has {n} tokens, sequence 0 has {len}; \
             pad every sequence to one length first"
        );
    }
    assert!(len > 0, "{what}: the sequences are empty; a sequence needs at least one position");
    len
}
