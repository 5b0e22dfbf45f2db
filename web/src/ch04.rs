//! Chapter 4 in the page: the sinusoidal table for a width the reader picks, and how similar one
//! position's encoding is to every other's.

use ch04_positions::{position_dot, sinusoidal_table};

/// Positions the widget shows: those of the chapter's heatmap.
pub const POSITIONS: usize = 50;
/// The widths the widget offers (the chapter's heatmap uses 64).
pub const WIDTHS: [usize; 4] = [16, 32, 64, 128];

/// The table for [`POSITIONS`] positions of width `d_model` (row-major), followed by the dot
/// products of position `p`'s row with every position's: `POSITIONS * d_model + POSITIONS` values.
pub fn encoding(d_model: usize, p: usize) -> Result<Vec<f32>, String> {
    if !WIDTHS.contains(&d_model) {
        return Err(format!("d_model must be one of {WIDTHS:?}; got {d_model}"));
    }
    if p >= POSITIONS {
        return Err(format!("the position must be below {POSITIONS}; got {p}"));
    }
    let table = sinusoidal_table(POSITIONS, d_model);
    let dots: Vec<f32> = (0..POSITIONS).map(|q| position_dot(&table, d_model, p, q)).collect();
    Ok([table, dots].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_most_like_itself_and_its_dot_is_half_the_width() {
        let out = encoding(64, 10).unwrap();
        let dots = &out[POSITIONS * 64..];
        // sin² + cos² = 1 for each of the 32 pairs
        assert!((dots[10] - 32.0).abs() < 1e-4);
        assert!(dots.iter().all(|&d| d <= dots[10] + 1e-4));
        assert!(encoding(10, 0).unwrap_err().contains("one of"));
        assert!(encoding(64, 50).unwrap_err().contains("below 50"));
    }
}
