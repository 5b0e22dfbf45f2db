//! Several figures of one size laid out in a grid, as one SVG: the heads of a layer side by side.

use super::Svg;

/// `figures`, all of one size, `per_row` to a row, drawn at `scale` of their size (0.5 draws
/// them at half size). Each figure is nested as it is, so its text and colours are unchanged.
///
/// Panics if `figures` is empty, if `per_row` is 0, or if the figures differ in size.
pub fn side_by_side(figures: &[Svg], per_row: usize, scale: f32) -> Svg {
    assert!(!figures.is_empty(), "side_by_side: no figures given");
    assert!(per_row > 0, "side_by_side: per_row must be at least 1");
    let (w, h) = size(&figures[0]);
    for (i, fig) in figures.iter().enumerate() {
        assert_eq!(
            size(fig),
            (w, h),
            "side_by_side: figure {i} differs in size from figure 0 ({w} x {h})"
        );
    }
    let (cols, rows) = (per_row.min(figures.len()), figures.len().div_ceil(per_row));
    let (total_w, total_h) = (cols * w, rows * h);
    let mut out = format!(
        "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {total_w} {total_h}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        (total_w as f32 * scale).round(),
        (total_h as f32 * scale).round()
    );
    for (i, fig) in figures.iter().enumerate() {
        let (x, y) = ((i % per_row) * w, (i / per_row) * h);
        out += &fig.as_str().replacen("<svg ", &format!("<svg x=\"{x}\" y=\"{y}\" "), 1);
    }
    Svg(out + "</svg>")
}

/// The `width` and `height` attributes of an SVG's root element, in pixels.
fn size(svg: &Svg) -> (usize, usize) {
    let s = svg.as_str();
    let root = &s[s.find("<svg").expect("side_by_side: not an SVG")..];
    let root = &root[..root.find('>').expect("side_by_side: an unclosed <svg> tag")];
    let attr = |key: &str| -> usize {
        let at = root
            .find(&format!(" {key}=\""))
            .unwrap_or_else(|| panic!("side_by_side: the <svg> tag has no {key}"))
            + key.len()
            + 3;
        root[at..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            panic!("side_by_side: the <svg> {key} is not a whole number of pixels")
        })
    };
    (attr("width"), attr("height"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Heatmap;

    fn map(title: &str) -> Svg {
        Heatmap::new(title, vec![0.1, 0.9, 0.5, 0.5], 2, 2).to_svg()
    }

    #[test]
    fn three_figures_two_to_a_row_make_a_two_by_two_grid() {
        let one = map("a");
        let (w, h) = size(&one);
        let grid = side_by_side(&[one, map("b"), map("c")], 2, 0.5);
        let s = grid.as_str();
        assert!(s.starts_with(&format!(
            "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\"",
            (w as f32).round(),
            (h as f32).round(),
            2 * w,
            2 * h
        )));
        for (x, y) in [(0, 0), (w, 0), (0, h)] {
            assert!(s.contains(&format!("<svg x=\"{x}\" y=\"{y}\" ")), "no figure at {x}, {y}");
        }
        for title in [">a<", ">b<", ">c<"] {
            assert!(s.replace('\n', "").contains(title), "the grid lost the title {title}");
        }
        assert_eq!(s.matches("<svg").count(), 4);
    }

    #[test]
    #[should_panic(expected = "figure 1 differs in size")]
    fn figures_of_different_sizes_are_refused() {
        let small = Heatmap::new("s", vec![0.0; 4], 2, 2).to_svg();
        let wide = Svg(small.as_str().replacen("width=\"", "width=\"1", 1));
        side_by_side(&[small, wide], 2, 1.0);
    }

    #[test]
    #[should_panic(expected = "no figures given")]
    fn an_empty_grid_is_refused() {
        side_by_side(&[], 2, 1.0);
    }
}
