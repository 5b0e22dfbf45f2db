//! What all-MiniLM-L6-v2's heads look at, on 64 entries of chapter 10's text (24 to 128 tokens
//! each): per layer, the share of attention on [CLS], [SEP] and punctuation, and [CLS]'s and
//! [SEP]'s share of what the heads add (weight times the length of the value); the heads that
//! attend most to the previous and the next token. `--save` writes `measurements/looks.json`,
//! from which the page's figures are drawn. Layers and heads counted from 1.
//!
//! ```text
//! cargo run --release -p ch12-real-bert --example looks
//! ```

use ch11_real_llm::heads::HeadScores;
use ch12_real_bert::looks::{self, Looks};
use ch12_real_bert::SentenceEncoder;
use support::cli::flag_or_exit;

fn top(name: &str, scores: &HeadScores) {
    let top: Vec<String> =
        (scores.top(3).iter()).map(|(l, h, s)| format!("L{}H{} {s:.2}", l + 1, h + 1)).collect();
    println!("{name:>15}: {} heads above 0.5; highest {}", scores.above(0.5), top.join(", "));
}

fn main() {
    let save = flag_or_exit("--save", "usage: looks [--save]");
    let encoder = SentenceEncoder::load_or_exit(&support::Dev::default());
    let looks = looks::measure(&encoder);
    println!(
        "{} texts, {} tokens; an even spread puts {:.3} on any one key\n",
        looks.segments, looks.tokens, looks.even_spread
    );
    println!("        share of the weight        share of what is added");
    println!("layer   [CLS]   [SEP]   . and ,        [CLS]   [SEP]");
    let scores = [&looks.cls, &looks.sep, &looks.punctuation, &looks.cls_by_length];
    let [cls, sep, punctuation, cls_added] = scores.map(Looks::per_layer);
    let sep_added = Looks::per_layer(&looks.sep_by_length);
    for l in 0..cls.len() {
        println!(
            "{:>5} {:>7.3} {:>7.3} {:>9.3} {:>12.3} {:>7.3}",
            l + 1,
            cls[l],
            sep[l],
            punctuation[l],
            cls_added[l],
            sep_added[l]
        );
    }
    println!();
    for (name, scores) in [
        ("[CLS]", &looks.cls),
        ("[SEP]", &looks.sep),
        (". and ,", &looks.punctuation),
        ("previous token", &looks.previous),
        ("next token", &looks.next),
        ("[CLS], added", &looks.cls_by_length),
    ] {
        top(name, scores);
    }
    if save {
        let json = serde_json::to_string_pretty(&looks).expect("serialisable");
        std::fs::write(looks::committed_path(), json + "\n").expect("measurements/looks.json");
        println!("wrote measurements/looks.json");
    }
}
