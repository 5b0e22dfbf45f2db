//! The `generate` example's command line, read and checked before any model runs: every mistake
//! is an [`ArgError`] that says what was wrong and what is allowed.

use crate::char_model::chars::{encode, VOCAB};
use crate::error::CharOutOfVocab;

/// What `generate` was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateArgs {
    pub prompt: String,
    /// characters to generate
    pub tokens: usize,
    /// `> 0`: below 1 sharpens the distribution, above 1 flattens it
    pub temperature: f32,
    /// draw only among the `k` most likely characters; `None` (`--top-k 0`, the default): among
    /// all of them
    pub top_k: Option<usize>,
    pub seed: u64,
}

/// The most characters one call generates.
pub const MAX_TOKENS: usize = 10_000;

/// Why the command line was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgError {
    Usage(String),
    BadNumber { flag: &'static str, value: String, expected: &'static str },
    OutOfVocab(CharOutOfVocab),
    PromptTooLong { len: usize, context: usize },
}

/// How to call it.
pub const USAGE: &str = "usage: generate --prompt TEXT [--tokens N] [--temperature T] \
                         [--top-k K] [--seed S]";

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Usage(what) => write!(f, "{what}\n{USAGE}"),
            ArgError::BadNumber { flag, value, expected } => {
                write!(f, "{flag} {value:?}: expected {expected}")
            }
            ArgError::OutOfVocab(e) => write!(f, "--prompt: {e}"),
            ArgError::PromptTooLong { len, context } => write!(
                f,
                "--prompt has {len} characters but the model's context is {context}; \
                 give at most {context}"
            ),
        }
    }
}

impl std::error::Error for ArgError {}

impl GenerateArgs {
    /// Reads the arguments after the program name, for a model of `context` characters.
    pub fn parse(args: &[String], context: usize) -> Result<Self, ArgError> {
        let mut out = GenerateArgs {
            prompt: String::new(),
            tokens: 200,
            temperature: 0.8,
            top_k: None,
            seed: 0,
        };
        let mut prompt = None;
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            let mut value =
                || rest.next().ok_or_else(|| ArgError::Usage(format!("{flag} needs a value")));
            match flag.as_str() {
                "--prompt" => prompt = Some(value()?.clone()),
                "--tokens" => {
                    out.tokens = number(value()?, "--tokens", "a whole number from 1 to 10000")?;
                    if !(1..=MAX_TOKENS).contains(&out.tokens) {
                        return Err(bad("--tokens", out.tokens, "a whole number from 1 to 10000"));
                    }
                }
                "--temperature" => {
                    let t: f32 = number(value()?, "--temperature", "a number above 0")?;
                    if !(t > 0.0 && t.is_finite()) {
                        return Err(bad("--temperature", t, "a number above 0 (for the most likely character every time, a small one such as 0.01)"));
                    }
                    out.temperature = t;
                }
                "--top-k" => {
                    // one rule with the page's widget: 0 draws among all the characters
                    const EXPECTED: &str = "a whole number from 0 (all characters) to 96";
                    let k: usize = number(value()?, "--top-k", EXPECTED)?;
                    if k > VOCAB {
                        return Err(bad("--top-k", k, EXPECTED));
                    }
                    out.top_k = (k > 0).then_some(k);
                }
                "--seed" => out.seed = number(value()?, "--seed", "a whole number")?,
                other => return Err(ArgError::Usage(format!("unknown argument {other:?}"))),
            }
        }
        out.prompt = prompt.ok_or_else(|| ArgError::Usage("--prompt is required".into()))?;
        if out.prompt.is_empty() {
            return Err(ArgError::Usage("--prompt must hold at least one character".into()));
        }
        encode(&out.prompt).map_err(ArgError::OutOfVocab)?;
        let len = out.prompt.chars().count();
        if len > context {
            return Err(ArgError::PromptTooLong { len, context });
        }
        Ok(out)
    }
}

fn number<N: std::str::FromStr>(
    value: &str,
    flag: &'static str,
    expected: &'static str,
) -> Result<N, ArgError> {
    value.parse().map_err(|_| ArgError::BadNumber { flag, value: value.into(), expected })
}

fn bad(flag: &'static str, value: impl ToString, expected: &'static str) -> ArgError {
    ArgError::BadNumber { flag, value: value.to_string(), expected }
}
