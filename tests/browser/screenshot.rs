//! Screenshots through the DevTools protocol: a whole page in parts, or one rectangle of it.

use super::cdp::Tab;
use serde_json::json;
use std::time::Duration;

/// The tallest image Chromium captures in one piece; longer pages come in several parts.
const PART_HEIGHT: f64 = 16_000.0;

/// PNGs of the whole page, top to bottom, at most [`PART_HEIGHT`] pixels each: the viewport is
/// stretched to the page's height (up to that limit) first, so the fixed sidebar spans the image.
pub fn screenshots(tab: &Tab, width: f64, height: f64) -> Vec<Vec<u8>> {
    set_viewport(tab, width as u32, height.min(PART_HEIGHT) as u32, false);
    std::thread::sleep(Duration::from_millis(300));
    let parts = (height / PART_HEIGHT).ceil().max(1.0) as usize;
    (0..parts)
        .map(|i| {
            let y = i as f64 * PART_HEIGHT;
            screenshot(tab, Clip { x: 0.0, y, width, height: (height - y).min(PART_HEIGHT) })
        })
        .collect()
}

/// Lays the tab out in a viewport of `width` × `height` CSS pixels, one device pixel each, as a
/// phone's screen where `mobile`.
pub fn set_viewport(tab: &Tab, width: u32, height: u32, mobile: bool) {
    let metrics =
        json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile });
    tab.call("Emulation.setDeviceMetricsOverride", metrics).unwrap_or_else(|e| panic!("{e:#}"));
}

/// A rectangle of the page, in CSS pixels from its top left corner.
pub struct Clip {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Clip {
    /// The rectangle at (`x`, `y`) of `width` × `height` with `margin` around it (cut at the
    /// page's top and left edges).
    pub fn around(x: f64, y: f64, width: f64, height: f64, margin: f64) -> Clip {
        Clip {
            x: (x - margin).max(0.0),
            y: (y - margin).max(0.0),
            width: width + 2.0 * margin,
            height: height + 2.0 * margin,
        }
    }
}

/// A PNG of the rectangle `clip` of the page, beyond the viewport where it reaches past it.
pub fn screenshot(tab: &Tab, clip: Clip) -> Vec<u8> {
    let Clip { x, y, width, height } = clip;
    let shot = tab
        .call(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "clip": { "x": x, "y": y, "width": width, "height": height, "scale": 1 },
                "fromSurface": true,
                "captureBeyondViewport": true,
            }),
        )
        .unwrap_or_else(|e| panic!("screenshot: {e:#}"));
    use base64::Engine;
    let data = shot["data"].as_str().expect("Page.captureScreenshot: no data");
    base64::engine::general_purpose::STANDARD.decode(data).expect("base64 PNG")
}

/// A PNG of the element `selector` finds, as laid out now.
pub fn element_screenshot(tab: &Tab, selector: &str) -> Vec<u8> {
    let js = r#"JSON.stringify((r => ({x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}))
        (document.querySelector(SELECTOR).getBoundingClientRect()))"#
        .replace("SELECTOR", &serde_json::to_string(selector).unwrap());
    let r = super::eval_json(tab, &js);
    let n = |k: &str| r[k].as_f64().unwrap_or(0.0);
    let (width, height) = (n("w").max(1.0), n("h").max(1.0));
    screenshot(tab, Clip { x: n("x"), y: n("y"), width, height })
}
