//! Printing tensors rounded and laid out as PyTorch prints them (`[[0.999, 0.954], ...]`).

use dfdx::prelude::*;

/// Rounds half away from zero to `decimals` places (what `torch.round(decimals=..)` shows for
/// values that are not exact ties).
pub fn round_to(x: f32, decimals: u32) -> f32 {
    let p = 10f64.powi(decimals as i32);
    ((x as f64 * p).round() / p) as f32
}

/// [`round_to`] applied to every value: what a tensor printed with `decimals` digits shows.
pub fn round_all(values: &[f32], decimals: u32) -> Vec<f32> {
    values.iter().map(|&x| round_to(x, decimals)).collect()
}

/// Formats a flat row-major buffer with the given dimensions as nested brackets, every number with
/// exactly `decimals` digits after the point.
///
/// ```
/// let s = support::fmt::format_nested(&[1.0, 0.25, -0.5, 2.0], &[2, 2], 2);
/// assert_eq!(s, "[[ 1.00,  0.25],\n [-0.50,  2.00]]");
/// ```
pub fn format_nested(values: &[f32], dims: &[usize], decimals: usize) -> String {
    let expected: usize = dims.iter().product();
    assert_eq!(
        values.len(),
        expected,
        "format_nested: {} values cannot have dims {:?} ({} elements)",
        values.len(),
        dims,
        expected
    );
    let cells: Vec<String> = values.iter().map(|v| format!("{v:.decimals$}")).collect();
    let width = cells.iter().map(|c| c.len()).max().unwrap_or(0);
    let padded: Vec<String> = cells.iter().map(|c| format!("{c:>width$}")).collect();
    let mut out = String::new();
    write_level(&padded, dims, 0, &mut out);
    out
}

fn write_level(cells: &[String], dims: &[usize], depth: usize, out: &mut String) {
    if dims.is_empty() {
        out.push_str(cells[0].trim());
        return;
    }
    out.push('[');
    if dims.len() == 1 {
        out.push_str(&cells.join(", "));
    } else {
        let stride: usize = dims[1..].iter().product();
        for (i, chunk) in cells.chunks(stride).enumerate() {
            if i > 0 {
                out.push(',');
                out.push_str(&"\n".repeat(dims.len() - 1));
                out.push_str(&" ".repeat(depth + 1));
            }
            write_level(chunk, &dims[1..], depth + 1, out);
        }
    }
    out.push(']');
}

/// Formats a dfdx tensor (on any device) with `decimals` digits, like `print(t.round(decimals=..))`.
pub fn format_tensor<S: Shape, D: Device<f32>, T>(
    t: &Tensor<S, f32, D, T>,
    decimals: usize,
) -> String {
    let dims = t.shape().concrete();
    format_nested(&t.as_vec(), dims.as_ref(), decimals)
}

/// The shape of a tensor as PyTorch prints it: `[2, 1, 5, 16]`.
pub fn shape_of<S: Shape, E: Unit, D: Storage<E>, T>(t: &Tensor<S, E, D, T>) -> String {
    format!("{:?}", t.shape().concrete().as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_like_pytorch_prints() {
        assert_eq!(round_to(0.32893, 3), 0.329);
        assert_eq!(round_to(-0.0004, 3), -0.0);
        assert_eq!(round_to(0.6505, 2), 0.65);
    }

    #[test]
    fn nests_three_dimensions() {
        let v: Vec<f32> = (0..8).map(|i| i as f32).collect();
        let s = format_nested(&v, &[2, 2, 2], 0);
        assert_eq!(s, "[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]");
    }

    #[test]
    #[should_panic(expected = "cannot have dims")]
    fn rejects_wrong_dims() {
        format_nested(&[1.0, 2.0, 3.0], &[2, 2], 1);
    }
}
