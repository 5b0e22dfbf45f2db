//! Screenshots through the DevTools protocol: a whole page in parts, or one rectangle of it.

use headless_chrome::protocol::cdp::{Emulation, Page};
use headless_chrome::Tab;
use std::time::Duration;

/// The tallest image Chromium captures in one piece; longer pages come in several parts.
const PART_HEIGHT: f64 = 16_000.0;

/// PNGs of the whole page, top to bottom, at most [`PART_HEIGHT`] pixels each: the viewport is
/// stretched to the page's height (up to that limit) first, so the fixed sidebar spans the image.
pub fn screenshots(tab: &Tab, width: f64, height: f64) -> Vec<Vec<u8>> {
    let metrics: Emulation::SetDeviceMetricsOverride = serde_json::from_value(serde_json::json!({
        "width": width as u32, "height": height.min(PART_HEIGHT) as u32, "deviceScaleFactor": 1,
        "mobile": false,
    }))
    .unwrap();
    tab.call_method(metrics).expect("Emulation.setDeviceMetricsOverride");
    std::thread::sleep(Duration::from_millis(300));
    let parts = (height / PART_HEIGHT).ceil().max(1.0) as usize;
    (0..parts)
        .map(|i| {
            let y = i as f64 * PART_HEIGHT;
            screenshot(
                tab,
                Page::Viewport {
                    x: 0.0,
                    y,
                    width,
                    height: (height - y).min(PART_HEIGHT),
                    scale: 1.0,
                },
            )
        })
        .collect()
}

pub fn screenshot(tab: &Tab, clip: Page::Viewport) -> Vec<u8> {
    let shot = tab
        .call_method(Page::CaptureScreenshot {
            format: Some(Page::CaptureScreenshotFormatOption::Png),
            quality: None,
            clip: Some(clip),
            from_surface: Some(true),
            capture_beyond_viewport: Some(true),
            optimize_for_speed: None,
        })
        .expect("screenshot");
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(shot.data).expect("base64 PNG")
}

/// A PNG of the element `selector` finds, as laid out now.
pub fn element_screenshot(tab: &headless_chrome::Tab, selector: &str) -> Vec<u8> {
    let js = r#"JSON.stringify((r => ({x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}))
        (document.querySelector(SELECTOR).getBoundingClientRect()))"#
        .replace("SELECTOR", &serde_json::to_string(selector).unwrap());
    let r = super::eval_json(tab, &js);
    let n = |k: &str| r[k].as_f64().unwrap_or(0.0);
    let (width, height) = (n("w").max(1.0), n("h").max(1.0));
    screenshot(tab, Page::Viewport { x: n("x"), y: n("y"), width, height, scale: 1.0 })
}
