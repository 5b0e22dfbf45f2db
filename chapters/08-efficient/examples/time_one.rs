//! Times one method at one length: `cargo run --release -p ch08-efficient --example time_one --
//! METHOD N [REPEATS]`. Prints one JSON line (the best of the repeats), which the PyTorch
//! comparison script reads; `METHOD` is an id of `ch08_efficient::measure::Method`.

use std::time::Instant;

use ch08_efficient::measure::{inputs, Method, D, HEADS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: time_one METHOD N [REPEATS]";
    let (Some(id), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse::<usize>().ok()))
    else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(method) = Method::from_id(id) else {
        let ids: Vec<&str> = Method::ALL.iter().map(|m| m.id()).collect();
        eprintln!("unknown method {id:?}; one of {}", ids.join(", "));
        std::process::exit(2);
    };
    let repeats: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    let [q, k, v] = inputs(n);
    method.run(&q, &k, &v); // warm-up: page in the buffers, start the threads
    let best = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(method.run(&q, &k, &v));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    println!(
        "{{\"method\": \"{id}\", \"n\": {n}, \"heads\": {HEADS}, \"d\": {D}, \"seconds\": {best:.6}, \"gflops\": {:.2}}}",
        method.flops(n) / best / 1e9
    );
}
