//! A clock that is there only where the platform has one. In a browser's WebAssembly
//! (`wasm32-unknown-unknown`) the standard library has no clock: `Instant::now` panics there. The
//! chapters' timed code asks [`now`] instead, gets `None` in a page, and reads zero; the page
//! times the calls with its own clock (`performance.now()`).

use std::time::Instant;

/// Now, where there is a clock.
pub fn now() -> Option<Instant> {
    (!cfg!(target_arch = "wasm32")).then(Instant::now)
}

/// Seconds since `start` ([`now`]), or 0 where there is no clock.
pub fn seconds_since(start: Option<Instant>) -> f64 {
    start.map_or(0.0, |t| t.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natively_the_clock_runs() {
        let start = now().expect("a clock natively");
        std::thread::sleep(std::time::Duration::from_millis(5));
        let seconds = seconds_since(Some(start));
        assert!((0.005..1.0).contains(&seconds), "{seconds}");
        assert_eq!(seconds_since(None), 0.0);
    }
}
