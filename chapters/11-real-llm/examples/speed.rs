//! Prefill and decode speed on this machine: the decode path with the file's quantized blocks
//! and with the weights in `f32`, and chapter 10's model, on a 32-token prompt then 64 greedy
//! tokens, best of 3; and the memory bandwidth
//! (`cargo run --release -p ch11-real-llm --example speed`). `--json` prints one round of each
//! as JSON, for `compare/compare_speed.py`.

use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::speed::{self, Round};
use ch11_real_llm::tokenizer::Tokenizer;
use ch11_real_llm::{model_file, smollm2};
use support::cli::flag_or_exit;

fn best(rounds: &[Round]) -> (f64, f64) {
    let p = rounds.iter().map(|r| r.prefill_tokens_per_s).fold(0.0, f64::max);
    (p, rounds.iter().map(|r| r.decode_tokens_per_s).fold(0.0, f64::max))
}

fn main() {
    let json = flag_or_exit("--json", "usage: speed [--json]");
    let file = model_file::open_or_exit();
    let prompt = speed::prompt_ids(&Tokenizer::from_gguf(&file).unwrap());
    let rounds = if json { 1 } else { 3 };
    let mut results = Vec::new();
    let mut profiles = Vec::new();
    for (name, weights) in [("quantized", Weights::Quantized), ("f32", Weights::Dequantized)] {
        let model = Decoder::from_gguf(&file, weights).unwrap();
        let runs: Vec<Round> = (0..rounds).map(|_| speed::decoder_round(&model, &prompt)).collect();
        let profile = speed::decoder_profile(&model, &prompt);
        profiles.push((name, profile, model.part_bytes()));
        results.push((name, runs, model.bytes_per_token()));
    }
    let model = smollm2::from_gguf(&file, &support::Dev::default()).unwrap();
    let runs = (0..rounds.min(2)).map(|_| speed::chapter10_round(&model, &prompt)).collect();
    results.push(("chapter 10", runs, results[1].2));
    if json {
        let paths: Vec<String> = results
            .iter()
            .map(|(name, runs, bytes)| {
                let profile = match profiles.iter().find(|(n, ..)| n == name) {
                    Some((_, p, bytes)) => {
                        let parts: Vec<String> = (p.parts().iter().zip(bytes))
                            .map(|((part, t), b)| {
                                let ms = t.as_secs_f64() * 1e3 / (speed::NEW_TOKENS - 1) as f64;
                                format!("{{\"part\": \"{part}\", \"ms_per_token\": {ms:.4}, \"weight_bytes\": {b}}}")
                            })
                            .collect();
                        format!(", \"profile\": [{}]", parts.join(", "))
                    }
                    None => String::new(),
                };
                format!(
                    "{{\"path\": \"{name}\", \"prefill_tokens_per_s\": {:.3}, \"decode_tokens_per_s\": {:.3}, \"weight_bytes_per_token\": {bytes}, \"tokens\": {:?}{profile}}}",
                    runs[0].prefill_tokens_per_s, runs[0].decode_tokens_per_s, runs[0].tokens
                )
            })
            .collect();
        println!(
            "{{\"machine\": \"{}\", \"isa\": \"{}\", \"threads\": {}, \"prompt_ids\": {prompt:?}, \"read_bandwidth_bytes_per_s\": {:.0}, \"paths\": [{}]}}",
            support::machine::describe(),
            ch08_efficient::fast::Isa::chosen().name(),
            rayon::current_num_threads(),
            speed::read_bandwidth(),
            paths.join(", ")
        );
        return;
    }
    println!("{}", support::machine::describe());
    for (name, runs, bytes) in &results {
        let (p, d) = best(runs);
        let same = runs[0].tokens == results[0].1[0].tokens;
        println!(
            "{name:>10}: prefill {p:6.1} tokens/s, decode {d:5.1} tokens/s, {:5.1} MB of weights per token, tokens {} the quantized path's",
            *bytes as f64 / 1e6,
            if same { "equal to" } else { "differ from" }
        );
    }
    for (name, profile, bytes) in &profiles {
        println!("one decode step, {name}:");
        for ((part, t), b) in profile.parts().iter().zip(bytes) {
            let ms = t.as_secs_f64() * 1e3 / (speed::NEW_TOKENS - 1) as f64;
            println!("  {part:>30}: {ms:6.2} ms, {:6.1} MB of weights", *b as f64 / 1e6);
        }
    }
    println!("memory read bandwidth: {:.1} GB/s", speed::read_bandwidth() / 1e9);
}
