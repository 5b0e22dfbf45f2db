//! The explorer's data in the book, `book/src/explorer/reversal.json`, is what the committed model
//! gives now (regenerate it with `cargo xtask explorer`), and it holds what the page needs.

use ch09_capstone::explorer::{export, to_json, Explorer, DECIMALS};
use ch09_capstone::trained::load_model;
use support::Dev;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../book/src/explorer/reversal.json");

fn committed() -> (String, Explorer) {
    let text = std::fs::read_to_string(FILE)
        .unwrap_or_else(|e| panic!("{FILE}: {e}; run `cargo xtask explorer`"));
    let explorer = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    (text, explorer)
}

fn now() -> Explorer {
    let dev = Dev::default();
    export(&load_model(&dev), &dev)
}

#[test]
fn explorer_data_is_current() {
    let (text, old) = committed();
    let new = now();
    if text == to_json(&new) {
        return;
    }
    // Same sequences and answers; the weights may differ by one in their last decimal where
    // another CPU's arithmetic lands on the other side of a rounding boundary.
    let stale = "is stale: run `cargo xtask explorer`";
    assert_eq!(
        (old.layers, old.heads, old.trained_lengths),
        (new.layers, new.heads, new.trained_lengths),
        "{FILE} {stale}"
    );
    assert_eq!(old.examples.len(), new.examples.len(), "{FILE} {stale}");
    let step = 10f32.powi(-DECIMALS);
    for (i, (o, n)) in old.examples.iter().zip(&new.examples).enumerate() {
        let what = format!("{FILE}, example {i} ({:?}) {stale}", n.input);
        assert_eq!(
            (&o.input, &o.answer, o.correct, o.stopped),
            (&n.input, &n.answer, n.correct, n.stopped),
            "{what}"
        );
        let flat = |e: &ch09_capstone::explorer::Example| -> Vec<f32> {
            e.maps.iter().flatten().flatten().flatten().copied().collect()
        };
        let (a, b) = (flat(o), flat(n));
        assert_eq!(a.len(), b.len(), "{what}");
        let worst = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
        assert!(worst <= step * 1.01, "{what}: a weight differs by {worst}");
    }
}

#[test]
fn explorer_data_holds_what_the_page_shows() {
    let (text, e) = committed();
    assert!(text.len() < 200_000, "{FILE} is {} bytes", text.len());
    assert_eq!((e.layers, e.heads), (2, 4));
    assert_eq!(e.examples.len(), 36);
    let mut inputs: Vec<&Vec<u8>> = e.examples.iter().map(|x| &x.input).collect();
    inputs.sort();
    inputs.dedup();
    assert_eq!(inputs.len(), 36, "the sequences are distinct");
    for x in &e.examples {
        assert_eq!(x.correct, x.input.iter().rev().eq(x.answer.iter()), "{:?}", x.input);
        assert!(x.answer.iter().all(|&d| d < 10), "{:?}", x.answer);
        assert_eq!(x.maps.len(), e.layers);
        for layer in &x.maps {
            assert_eq!(layer.len(), e.heads);
            for head in layer {
                // one row per digit written, then EOS (or the step after the last digit)
                assert_eq!(head.len(), x.answer.len() + 1, "{:?}", x.input);
                for row in head {
                    assert_eq!(row.len(), x.input.len());
                    let sum: f32 = row.iter().sum();
                    // softmax rows, each weight rounded by at most half a step
                    assert!((sum - 1.0).abs() < 0.007, "{:?}: a row sums to {sum}", x.input);
                }
            }
        }
    }
    let (trained, longer): (Vec<_>, Vec<_>) =
        e.examples.iter().partition(|x| x.input.len() <= e.trained_lengths[1]);
    assert_eq!((trained.len(), longer.len()), (32, 4));
    assert!(trained.iter().all(|x| x.correct), "the held-out set is reversed exactly");
    // the page: of the four longer ones (11, 11, 12, 12 digits) the model reverses the first;
    // the last one never writes EOS, and its answer has 13 digits
    let lengths: Vec<usize> = longer.iter().map(|x| x.input.len()).collect();
    assert_eq!(lengths, vec![11, 11, 12, 12]);
    assert_eq!(
        longer.iter().map(|x| x.correct).collect::<Vec<_>>(),
        vec![true, false, false, false]
    );
    assert_eq!(longer.iter().map(|x| x.stopped).collect::<Vec<_>>(), vec![true, true, true, false]);
    assert_eq!(longer[3].answer.len(), 13);
    assert!(e.examples.iter().all(|x| (3..=12).contains(&x.input.len())));
}
