//! What the wrong RoPE pairing does to SmolLM2's writing: a question in the chat template and
//! the start of a story, each continued greedily by the model as published (the file's query and
//! key rows, the interleaved rotation) and by the file's rows with the half-split rotation
//! (`cargo run --release -p ch11-real-llm --example wrong_pairing`). No arguments; a missing model
//! file is one line on stderr and exit status 2.

use ch11_real_llm::chat::{chat_prompt, reply, Choice, DEFAULT_SYSTEM};
use ch11_real_llm::model_file;
use ch11_real_llm::smollm2::{from_gguf_paired, Pairing, SmolLm2};
use ch11_real_llm::tokenizer::Tokenizer;
use support::cli::{args_or_exit, or_exit};
use support::Dev;

/// The most tokens written after each prompt.
const TOKENS: usize = 32;
/// Printed lines are cut at a space before this many characters.
const WIDTH: usize = 88;

/// `text` as a quoted string (newlines shown as `\n`), in lines of at most [`WIDTH`] characters
/// cut at spaces, each indented by four.
fn wrapped(text: &str) -> String {
    let quoted = format!("{text:?}");
    let (mut lines, mut line) = (Vec::new(), String::new());
    for word in quoted.split_inclusive(' ') {
        if line.len() + word.len() > WIDTH - 4 && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.iter().map(|l| format!("    {}", l.trim_end())).collect::<Vec<_>>().join("\n")
}

fn main() {
    if !args_or_exit().is_empty() {
        eprintln!("usage: wrong_pairing (it takes no arguments)");
        std::process::exit(2);
    }
    let file = model_file::open_or_exit();
    let tok = or_exit(Tokenizer::from_gguf(&file));
    let dev = Dev::default();
    let models: Vec<(&str, SmolLm2<Dev>)> =
        [("as published", Pairing::AsStored), ("wrong pairing", Pairing::Wrong)]
            .into_iter()
            .map(|(name, pairing)| (name, or_exit(from_gguf_paired(&file, &dev, pairing))))
            .collect();
    let end = tok.id("<|im_end|>").expect("the file has <|im_end|>");
    let question = "What is the capital of France?";
    let prompts = [
        (format!("chat: {question:?}"), chat_prompt(DEFAULT_SYSTEM, question), Some(end)),
        (
            "plain text: \"Once upon a time, there was a\"".to_string(),
            "Once upon a time, there was a".to_string(),
            None,
        ),
    ];
    let greedy = Choice::GREEDY;
    for (shown, prompt, stop) in prompts {
        println!("{shown}");
        let ids = tok.encode(&prompt);
        for (name, model) in &models {
            // with no stop token, an id no token has: all TOKENS are written
            let r = reply(model, &tok, &ids, TOKENS, greedy, stop.unwrap_or(u32::MAX), |_| {});
            let stopped = stop.is_some() && r.ids.last() == stop.as_ref();
            let text = tok.decode(&r.ids[..r.ids.len() - usize::from(stopped)]);
            let how = if stopped { ", then <|im_end|>" } else { "" };
            println!("  {name}, {} tokens{how}:", r.ids.len() - usize::from(stopped));
            println!("{}", wrapped(&text));
        }
    }
}
