//! Text between the page and the module: the page sends a string as its Unicode code points, one
//! number each, and reads text back the same way.

/// The string whose code points are `values`.
pub fn from_code_points(values: &[f32]) -> Result<String, String> {
    values
        .iter()
        .map(|&v| {
            let point = (v.fract() == 0.0 && v >= 0.0).then_some(v as u32).and_then(char::from_u32);
            point.ok_or_else(|| format!("{v} is not a Unicode code point"))
        })
        .collect()
}

/// The code points of `text`, one number each.
pub fn to_code_points(text: &str) -> impl Iterator<Item = f32> + '_ {
    text.chars().map(|c| c as u32 as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_points_are_named() {
        let text = "Love, n. — ∞";
        let points: Vec<f32> = to_code_points(text).collect();
        assert_eq!(from_code_points(&points).unwrap(), text);
        assert!(from_code_points(&[65.5]).unwrap_err().contains("65.5"));
        assert!(from_code_points(&[55296.0]).is_err()); // a lone surrogate
    }
}
