//! Times one method at one length: `cargo run --release -p ch08-efficient --example time_one --
//! METHOD N [REPEATS] [BATCH]`. Prints one JSON line (the best of the repeats, the instruction-set
//! path of the fast kernel and the thread count), which the PyTorch comparison script reads;
//! `METHOD` is an id of `ch08_efficient::measure::Method`, `BATCH` (default 1) multiplies the
//! heads.

use std::time::Instant;

use ch08_efficient::fast::Isa;
use ch08_efficient::measure::{inputs_batched, Method, D, HEADS};

fn main() {
    let args = support::cli::args_or_exit();
    let usage = "usage: time_one METHOD N [REPEATS] [BATCH]";
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
    let number = |i: usize| match args.get(i).map(|a| a.parse::<usize>()) {
        None => 1,
        Some(Ok(x)) if x > 0 => x,
        Some(_) => {
            eprintln!("{usage}: REPEATS and BATCH are whole numbers of at least 1");
            std::process::exit(2);
        }
    };
    let (repeats, batch) = (if args.len() > 2 { number(2) } else { 3 }, number(3));
    let [q, k, v] = inputs_batched(batch, n);
    method.run(&q, &k, &v); // warm-up: page in the buffers, start the threads
    let best = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(method.run(&q, &k, &v));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    println!(
        "{{\"method\": \"{id}\", \"n\": {n}, \"batch\": {batch}, \"heads\": {HEADS}, \"d\": {D}, \"seconds\": {best:.6}, \"gflops\": {:.2}, \"isa\": \"{}\", \"threads\": {}}}",
        batch as f64 * method.flops(n) / best / 1e9,
        Isa::chosen().name(),
        rayon::current_num_threads()
    );
}
