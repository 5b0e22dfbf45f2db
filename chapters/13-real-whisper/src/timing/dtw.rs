//! Dynamic time warping over the alignment matrix.

/// The monotonic path from `(0, 0)` to `(rows - 1, cols - 1)` that maximises the summed weights of
/// `matrix` (`rows × cols`, row-major): each step moves to the next frame, the next token, or
/// both. Returns the path's `(token, frame)` cells in order.
///
/// The cost of a cell is minus its weight plus the cheapest of the three cells it can come from
/// (diagonal first where costs tie; a strict comparison, as Whisper's). The path is read back from
/// the last cell until it reaches the first row or the first column.
// ANCHOR: dtw
pub fn dtw(matrix: &[f32], rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let at = |i: usize, j: usize| i * (cols + 1) + j;
    let mut cost = vec![f32::INFINITY; (rows + 1) * (cols + 1)];
    // 0: from the diagonal, 1: from the row above (next token), 2: from the left (next frame)
    let mut trace = vec![0u8; (rows + 1) * (cols + 1)];
    cost[0] = 0.0;
    for j in 1..=cols {
        for i in 1..=rows {
            let (c0, c1, c2) = (cost[at(i - 1, j - 1)], cost[at(i - 1, j)], cost[at(i, j - 1)]);
            let (c, t) = if c0 < c1 && c0 < c2 {
                (c0, 0)
            } else if c1 < c0 && c1 < c2 {
                (c1, 1)
            } else {
                (c2, 2)
            };
            cost[at(i, j)] = -matrix[(i - 1) * cols + j - 1] + c;
            trace[at(i, j)] = t;
        }
    }
    let (mut i, mut j, mut path) = (rows, cols, Vec::new());
    while i > 0 && j > 0 {
        path.push((i - 1, j - 1));
        match trace[at(i, j)] {
            0 => (i, j) = (i - 1, j - 1),
            1 => i -= 1,
            _ => j -= 1,
        }
    }
    path.reverse();
    path
}
// ANCHOR_END: dtw
