//! What the heads look at: the page's numbers from the committed reading, and the reading
//! recomputed from the model.

use ch12_real_bert::looks::{self, Looks};

#[test]
fn worked_example_what_bert_looks_at() {
    let r = looks::committed();
    assert_eq!((looks::SEGMENTS, looks::TOKENS), (64, (24, 128)));
    assert_eq!((r.segments, r.tokens, format!("{:.3}", r.even_spread)), (64, 2884, "0.022".into()));
    assert_eq!(r.cls.values.len(), 72); // 6 layers of 12 heads
    let layer = |s| Looks::per_layer(s).iter().map(|v| format!("{v:.3}")).collect::<Vec<_>>();
    assert_eq!(layer(&r.cls), ["0.086", "0.404", "0.415", "0.384", "0.422", "0.232"]);
    assert_eq!(layer(&r.sep), ["0.027", "0.010", "0.011", "0.022", "0.015", "0.016"]);
    assert_eq!(layer(&r.punctuation), ["0.098", "0.070", "0.075", "0.108", "0.091", "0.069"]);
    // what the heads add: [CLS]'s share is far below its share of the weight
    assert_eq!(layer(&r.cls_by_length), ["0.027", "0.073", "0.062", "0.037", "0.051", "0.036"]);
    assert_eq!(layer(&r.sep_by_length), ["0.018", "0.018", "0.022", "0.029", "0.022", "0.010"]);
    // in layers 2 to 5, [CLS]'s share of what is added over its share of the weight: from 0.096
    // (layer 4, just under a tenth) to 0.18 (layer 2, just under a fifth)
    let (added, weight) = (Looks::per_layer(&r.cls_by_length), Looks::per_layer(&r.cls));
    let ratios: Vec<String> = (1..5).map(|l| format!("{:.3}", added[l] / weight[l])).collect();
    assert_eq!(ratios, ["0.181", "0.150", "0.096", "0.120"]);
    let lowest = (1..5).map(|l| added[l] / weight[l]).fold(f64::INFINITY, f64::min);
    let highest = (1..5).map(|l| added[l] / weight[l]).fold(0.0, f64::max);
    assert!(lowest < 0.1 && highest < 0.2, "just under a tenth, just under a fifth");
    assert_eq!((format!("{lowest:.3}"), format!("{highest:.2}")), ("0.096".into(), "0.18".into()));
    let top = |s: &ch11_real_llm::heads::HeadScores| {
        let (l, h, v) = s.top(1)[0];
        format!("L{}H{} {v:.2}", l + 1, h + 1)
    };
    assert_eq!(top(&r.cls), "L2H12 0.68");
    assert_eq!(top(&r.sep), "L4H12 0.07");
    assert_eq!(top(&r.punctuation), "L4H12 0.36");
    assert_eq!(top(&r.previous), "L1H3 1.00");
    assert_eq!(top(&r.next), "L2H9 0.69");
    assert_eq!(top(&r.cls_by_length), "L2H12 0.27");
    assert_eq!(r.cls_by_length.above(0.5), 0);
    assert_eq!((r.cls.above(0.5), r.sep.above(0.5), r.cls.above(0.3)), (12, 0, 42));
    // chapter 11's sinks, for the comparison: 97 of SmolLM2's 162 heads in layers 13 to 30
    let smollm2 = ch11_real_llm::heads::committed().sinks;
    let late = &smollm2.values[12 * smollm2.heads..];
    assert_eq!((late.iter().filter(|&&v| v > 0.5).count(), late.len()), (97, 162));
    let maps: Vec<String> =
        r.maps.iter().map(|m| format!("L{}H{} {}", m.layer, m.head, m.role)).collect();
    assert_eq!(maps, ["L2H12 [CLS]", "L1H3 previous token", "L2H9 next token"]);
}

#[test]
#[ignore = "needs all-MiniLM-L6-v2's files: cargo xtask models"]
fn the_committed_reading_is_the_models() {
    let measured = looks::measure(crate::real_model::encoder());
    let committed = looks::committed();
    assert_eq!((measured.segments, measured.tokens), (committed.segments, committed.tokens));
    let pairs = [
        (&measured.cls, &committed.cls),
        (&measured.sep, &committed.sep),
        (&measured.punctuation, &committed.punctuation),
        (&measured.previous, &committed.previous),
        (&measured.next, &committed.next),
        (&measured.cls_by_length, &committed.cls_by_length),
        (&measured.sep_by_length, &committed.sep_by_length),
    ];
    for (m, c) in pairs {
        for (a, b) in m.values.iter().zip(&c.values) {
            assert!(
                (a - b).abs() < 1e-5,
                "measured {a}, committed {b}: `--example looks -- --save`"
            );
        }
    }
    for (m, c) in measured.maps.iter().zip(&committed.maps) {
        assert_eq!((m.layer, m.head, &m.tokens), (c.layer, c.head, &c.tokens));
        support::check::assert_close(&m.weights, &c.weights, 1e-5);
    }
}
