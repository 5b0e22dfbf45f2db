//! Chapter 11 in its page: chatting with SmolLM2-135M-Instruct on the chapter's decode path (the
//! file's Q4_1 and Q8_0 blocks as stored, the key/value cache), one token per call so that the
//! page shows each as it comes. The tokens are chosen as the `chat` example chooses them
//! ([`Replying`]): greedy, or sampled with a temperature, a top-k and a seed.

use std::cell::RefCell;

use ch11_real_llm::chat::{chat_prompt, Choice, Replying, DEFAULT_SYSTEM};
use ch11_real_llm::decode::lm::CONTEXT;
use ch11_real_llm::decode::{Decoder, Weights};
use ch11_real_llm::gguf::Gguf;
use ch11_real_llm::tokenizer::Tokenizer;

/// The most tokens the page lets one reply run to.
pub const MAX_NEW: usize = 512;
/// The longest message the page takes, in characters.
pub const MAX_CHARS: usize = 2000;

/// SmolLM2 with its tokenizer, and the reply under way.
pub struct Chatter {
    model: Decoder,
    tok: Tokenizer,
    stop: u32,
    reply: RefCell<Option<Replying<Decoder>>>,
}

impl Chatter {
    /// The model from its GGUF file's bytes, kept quantized as the file stores it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Chatter, String> {
        let file = Gguf::parse(bytes.to_vec()).map_err(|e| e.to_string())?;
        let tok = Tokenizer::from_gguf(&file)?;
        let model = Decoder::from_gguf(&file, Weights::Quantized)?;
        let stop = tok.id("<|im_end|>").ok_or("the file's vocabulary has no <|im_end|>")?;
        Ok(Chatter { model, tok, stop, reply: RefCell::new(None) })
    }

    /// The prompt of a user's message, as the `chat` example builds it: ChatML with the file's
    /// default system message.
    pub fn prompt(&self, message: &str) -> Vec<u32> {
        self.tok.encode(&chat_prompt(DEFAULT_SYSTEM, message))
    }

    /// Starts a reply, the prompt run through the model. The page's numbers: top-k (1: greedy; 0:
    /// every token), temperature, seed, then the message's code points. Returns the prompt's
    /// length in tokens.
    pub fn start(&self, values: &[f32]) -> Result<Vec<f32>, String> {
        let [top_k, temperature, seed, message @ ..] = values else {
            return Err(format!("a reply takes 3 numbers and a message; got {}", values.len()));
        };
        let whole = |name: &str, v: f32| match v >= 0.0 && v.fract() == 0.0 {
            true => Ok(v as usize),
            false => Err(format!("{name} must be a whole number; got {v}")),
        };
        let choice =
            Choice::new(whole("top-k", *top_k)?, *temperature, whole("the seed", *seed)? as u64)?;
        let message = attention_web::text::from_code_points(message)?;
        if message.trim().is_empty() {
            return Err("type a message first".into());
        }
        if message.chars().count() > MAX_CHARS {
            return Err(format!("a message of at most {MAX_CHARS} characters, please"));
        }
        let prompt = self.prompt(&message);
        if prompt.len() + MAX_NEW > CONTEXT {
            return Err(format!("{} tokens of prompt leave no room in {CONTEXT}", prompt.len()));
        }
        let replying = Replying::start(&self.model, &prompt, choice, self.stop)?;
        self.reply.replace(Some(replying));
        Ok(vec![prompt.len() as f32])
    }

    /// The reply's next token: its id, 1 if it ends the reply (0 otherwise), then the code points
    /// of the text it completes. After the last token, or [`MAX_NEW`] of them, an error.
    pub fn next(&self, _: &[f32]) -> Result<Vec<f32>, String> {
        let mut slot = self.reply.borrow_mut();
        let replying = slot.as_mut().ok_or("no reply under way: send a message first")?;
        if replying.ids.len() >= MAX_NEW {
            return Err(format!("the page stops a reply at {MAX_NEW} tokens"));
        }
        let step = replying.next(&self.model, &self.tok).ok_or("the reply has ended")?;
        let done = step.id == self.stop || replying.ids.len() >= MAX_NEW;
        let mut out = vec![step.id as f32, f32::from(u8::from(done))];
        out.extend(attention_web::text::to_code_points(&step.text));
        Ok(out)
    }
}
