//! Chapter 11's chat in a real browser: the box in the chapter's page loads SmolLM2-135M-Instruct
//! into the models' WebAssembly module in a worker and writes replies with the chapter's decode
//! path. The chat prompts of the parity test, greedy, give the `chat` example's token ids (its
//! `reply`, run natively on one thread, which also gives the speed the page is compared with), and
//! so does a sampled reply with a fixed seed; an empty message gets one line.

use std::time::Duration;

use super::cdp::{Browser, Tab};
use ch11_real_llm::chat::{chat_prompt, reply, Choice, DEFAULT_SYSTEM};
use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::tokenizer::Tokenizer;
use serde_json::Value;

use super::eval_json;
use super::screenshot::element_screenshot;

/// Tokens per reply: the parity test's 64.
pub const TOKENS: usize = 64;
/// The sampled reply: its message, top-k, temperature and seed.
const SAMPLED: (&str, usize, f32, u64) = ("Write a short poem about attention.", 40, 0.8, 7);

/// The user messages of chapter 11's chat prompts (`fixtures/hf_parity.json`), each checked to
/// give the fixture's prompt through the chat template.
fn parity_messages(tok: &Tokenizer) -> Vec<String> {
    let root = workspace_tools::workspace_root();
    let text = std::fs::read_to_string(root.join("chapters/11-real-llm/fixtures/hf_parity.json"))
        .expect("chapter 11's parity fixture");
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let mut messages = Vec::new();
    for p in fixture["prompts"].as_array().unwrap() {
        let prompt = p["prompt"].as_str().unwrap();
        let Some(user) = prompt.split("<|im_start|>user\n").nth(1) else { continue };
        let user = user.split("<|im_end|>").next().unwrap().to_string();
        assert_eq!(chat_prompt(DEFAULT_SYSTEM, &user), prompt, "the fixture's template");
        let ids: Vec<u32> =
            p["ids"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as u32).collect();
        assert_eq!(tok.encode(prompt), ids, "the fixture's prompt ids");
        messages.push(user);
    }
    assert_eq!(messages.len(), 3, "chapter 11's three chat prompts");
    messages
}

/// Waits until the element's `data-state` is one of `states`; returns it.
fn wait_for(tab: &Tab, states: &[&str], limit: Duration) -> String {
    super::wait_for_state(tab, "ch11-chat", states, limit)
}

/// Sends `message` with the box's settings; returns the state and what the box shows after.
fn send(tab: &Tab, message: &str, choice: Choice, tokens: usize) -> (String, Value) {
    let js = r#"(() => {
        const box = document.getElementById('ch11-chat');
        const [mode] = box.querySelectorAll('select');
        const [temperature, topK, seed, max] = box.querySelectorAll('.chat-options input');
        const sampled = SAMPLED;
        mode.value = sampled ? 'sampled' : 'greedy';
        [temperature.value, topK.value, seed.value, max.value] = [TEMPERATURE, TOP_K, SEED, MAX].map(String);
        box.querySelector('.chat-row input').value = MESSAGE;
        box.querySelector('.chat-row button').click();
        return '""';
    })()"#
        .replace("SAMPLED", if choice.top_k == 1 { "false" } else { "true" })
        .replace("TEMPERATURE", &choice.temperature.to_string())
        .replace("TOP_K", &choice.top_k.to_string())
        .replace("SEED", &choice.seed.to_string())
        .replace("MAX", &tokens.to_string())
        .replace("MESSAGE", &serde_json::to_string(message).unwrap());
    eval_json(tab, &js);
    let state = wait_for(tab, &["replied", "error"], Duration::from_secs(300));
    let shown = eval_json(
        tab,
        "JSON.stringify((b => ({ ids: JSON.parse(b.dataset.ids || 'null'), perSecond: Number(b.dataset.tokensPerS),
            text: b.querySelector('.chat-reply').textContent, status: b.querySelector('.chat-status').textContent }))
            (document.getElementById('ch11-chat')))",
    );
    (state, shown)
}

/// The problems found, and a table of what was measured.
pub fn check_chat(tab: &Tab) -> (Vec<String>, String) {
    let mut problems = Vec::new();
    let file = Gguf::parse(ch11_real_llm::model_file::read().unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let tok = Tokenizer::from_gguf(&file).unwrap();
    let model = Decoder::from_gguf(&file, Weights::Quantized).unwrap();
    let stop = tok.id("<|im_end|>").unwrap();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    eval_json(tab, "document.querySelector('#ch11-chat > button').click(), '\"\"'");
    let state = wait_for(tab, &["loaded", "error", "absent"], Duration::from_secs(180));
    if state != "loaded" {
        let status =
            eval_json(tab, "JSON.stringify(document.querySelector('.chat-status').textContent)");
        problems.push(format!("the model did not load: {state}, {status}"));
        return (problems, String::new());
    }
    let load =
        eval_json(tab, "JSON.stringify(document.getElementById('ch11-chat').dataset.loadMs)");
    let mut table = format!(
        "Measured by `browser::models::chatting_in_chromium_equals_native` on {}, headless chromium, \
         the book served from 127.0.0.1; the reply's decode speed in the page (the worker's \
         WebAssembly, one thread, SIMD128) and natively on one thread (the `chat` example's \
         `reply`, this CPU's widest path).\n\n\
         | message | choice | tokens | page (tokens/s) | native, one thread (tokens/s) | same ids |\n\
         |---|---|---:|---:|---:|---|\n",
        support::machine::describe()
    );
    let mut cases: Vec<(String, Choice, usize)> =
        parity_messages(&tok).into_iter().map(|m| (m, Choice::GREEDY, TOKENS)).collect();
    let (message, top_k, temperature, seed) = SAMPLED;
    cases.push((message.to_string(), Choice::new(top_k, temperature, seed).unwrap(), 48));
    for (message, choice, tokens) in &cases {
        let (state, shown) = send(tab, message, *choice, *tokens);
        let prompt = tok.encode(&chat_prompt(DEFAULT_SYSTEM, message));
        let native =
            one_thread.install(|| reply(&model, &tok, &prompt, *tokens, *choice, stop, |_| {}));
        let native_rate = native.ids.len() as f64 / native.decode_seconds;
        let ids: Vec<u32> = shown["ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i.as_f64().map(|v| v as u32))
            .collect();
        let same = state == "replied" && ids == native.ids;
        if !same {
            problems.push(format!(
                "{message:?} ({choice:?}): the page wrote {ids:?} ({state}, {}), native {:?}",
                shown["status"], native.ids
            ));
        }
        let text = tok.decode(&native.ids).replace("<|im_end|>", "");
        if same && shown["text"].as_str() != Some(text.as_str()) {
            problems
                .push(format!("{message:?}: the page shows {:?}, native {text:?}", shown["text"]));
        }
        let mode = if choice.top_k == 1 {
            "greedy".to_string()
        } else {
            format!(
                "top-k {}, temperature {}, seed {}",
                choice.top_k, choice.temperature, choice.seed
            )
        };
        table += &format!(
            "| {message} | {mode} | {} | {:.1} | {native_rate:.1} | {} |\n",
            ids.len(),
            shown["perSecond"].as_f64().unwrap_or(f64::NAN),
            if same { "yes" } else { "no" }
        );
    }
    let (state, shown) = send(tab, "  ", Choice::GREEDY, 8);
    if state != "error" || shown["status"] != "type a message first" {
        problems.push(format!("an empty message: {state}, {shown}"));
    }
    table += &format!(
        "\nThe model's file loaded from the server in {} ms.\n",
        load.as_str().unwrap_or("?")
    );
    (problems, table)
}

/// The box with a reply, at desktop width on `tab` and on a phone's screen in a new tab of
/// `browser` (the model from the browser's cache); what is wrong with the phone's layout.
pub fn chat_screenshots(browser: &Browser, tab: &Tab, url: &str) -> Vec<String> {
    let shots = workspace_tools::workspace_root().join("target/book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    send(tab, "What is the capital of France?", Choice::GREEDY, 16);
    std::fs::write(shots.join("chat.png"), element_screenshot(tab, "#ch11-chat")).unwrap();
    let (phone, _, mut problems) = super::models::phone_visit(browser, url, "ch11-chat");
    send(&phone, "What is the capital of France?", Choice::GREEDY, 16);
    problems.extend(super::models::phone_fits(&phone, "ch11-chat", "chat-phone.png"));
    problems
}
