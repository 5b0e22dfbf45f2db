//! Chapter 10 in the page: the trained character model writes after the reader's prompt, with
//! temperature and top-k, with or without its KV cache (the page times both).

use ch10_language_models::char_model::cli::GenerateArgs;
use ch10_language_models::{decode, encode, generate, Recompute, Sampling, TinyLlama, TrainConfig};
use dfdx::prelude::*;

/// The most characters the page asks for in one call.
pub const MAX_NEW: usize = 400;

/// The committed character model, ready to write.
pub struct Writer {
    model: TinyLlama<Cpu>,
}

/// What the page asks for, after the chapter's own checks ([`GenerateArgs::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub args: GenerateArgs,
    pub recompute: Recompute,
}

impl Request {
    /// From the page's numbers: characters to write, temperature, top-k (0: all), seed, 1 for
    /// the KV cache (0: recompute everything), then the prompt's code points.
    pub fn from_numbers(values: &[f32]) -> Result<Self, String> {
        let [tokens, temperature, top_k, seed, cached, prompt @ ..] = values else {
            return Err(format!("the writer takes 5 numbers and a prompt; got {}", values.len()));
        };
        let whole = |name: &str, v: f32| {
            if v >= 0.0 && v.fract() == 0.0 {
                Ok(v as usize)
            } else {
                Err(format!("{name} must be a whole number; got {v}"))
            }
        };
        let tokens = whole("characters to write", *tokens)?;
        if tokens > MAX_NEW {
            return Err(format!(
                "the page writes at most {MAX_NEW} characters at once; asked {tokens}"
            ));
        }
        let words = [
            "--prompt".to_string(),
            crate::text::from_code_points(prompt)?,
            "--tokens".into(),
            tokens.to_string(),
            "--temperature".into(),
            temperature.to_string(),
            "--seed".into(),
            whole("the seed", *seed)?.to_string(),
            // 0: all the characters, as `--top-k 0` means to the `generate` example
            "--top-k".into(),
            whole("top-k", *top_k)?.to_string(),
        ];
        let context = TrainConfig::char_model().context;
        let args = GenerateArgs::parse(&words, context).map_err(|e| e.to_string())?;
        let recompute =
            if *cached != 0.0 { Recompute::NewTokenOnly } else { Recompute::Everything };
        Ok(Request { args, recompute })
    }

    /// How the chapter's [`generate`] samples for this request.
    pub fn sampling(&self) -> Sampling {
        let GenerateArgs { temperature, top_k, seed, .. } = self.args;
        Sampling::Sample { temperature, top_k, seed }
    }
}

impl Writer {
    /// The model with the weights of `weights/char_model.safetensors`, given as bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let mut model = TinyLlama::new(&Cpu::default());
        crate::weights::load_into(&mut model, bytes)?;
        Ok(Writer { model })
    }

    /// The characters written after the prompt, as code points.
    pub fn write(&self, values: &[f32]) -> Result<Vec<f32>, String> {
        let request = Request::from_numbers(values)?;
        let prompt = encode(&request.args.prompt).map_err(|e| e.to_string())?;
        let ids = generate(
            &self.model,
            &prompt,
            request.args.tokens,
            request.sampling(),
            request.recompute,
        );
        Ok(crate::text::to_code_points(&decode(&ids)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::to_code_points;

    fn numbers(settings: [f32; 5], prompt: &str) -> Vec<f32> {
        settings.into_iter().chain(to_code_points(prompt)).collect()
    }

    #[test]
    fn the_page_writes_what_the_chapter_writes() {
        assert_eq!(
            ch10_language_models::char_model::trained::load_report().config,
            TrainConfig::char_model()
        );
        let bytes = std::fs::read(ch10_language_models::char_model::trained::WEIGHTS).unwrap();
        let page = Writer::from_bytes(&bytes).unwrap();
        let chapter = ch10_language_models::char_model::trained::load_model(&Cpu::default());
        for (settings, prompt) in
            [([40.0, 0.8, 0.0, 1.0, 1.0], "LAWYER, n."), ([30.0, 1.2, 5.0, 7.0, 0.0], "Love")]
        {
            let values = numbers(settings, prompt);
            let request = Request::from_numbers(&values).unwrap();
            let ids = generate(
                &chapter,
                &encode(prompt).unwrap(),
                settings[0] as usize,
                request.sampling(),
                request.recompute,
            );
            let shown: String =
                crate::text::from_code_points(&page.write(&values).unwrap()).unwrap();
            assert_eq!(shown, decode(&ids), "{prompt}");
            assert_eq!(shown.chars().count(), settings[0] as usize);
        }
    }

    #[test]
    fn requests_are_checked_by_the_chapters_rules() {
        let err = |settings, prompt| Request::from_numbers(&numbers(settings, prompt)).unwrap_err();
        assert!(err([10.0, 0.0, 0.0, 0.0, 1.0], "a").contains("--temperature"));
        assert!(err([10.0, 1.0, 97.0, 0.0, 1.0], "a").contains("--top-k"));
        assert!(err([10.0, 1.0, 0.0, 0.0, 1.0], "").contains("at least one character"));
        assert!(err([10.0, 1.0, 0.0, 0.0, 1.0], "é").contains("--prompt"));
        assert!(err([401.0, 1.0, 0.0, 0.0, 1.0], "a").contains("at most 400"));
        assert!(err([1.5, 1.0, 0.0, 0.0, 1.0], "a").contains("whole number"));
        assert!(Request::from_numbers(&[1.0]).unwrap_err().contains("5 numbers"));
        let ok = Request::from_numbers(&numbers([10.0, 0.5, 3.0, 2.0, 0.0], "a")).unwrap();
        assert_eq!(ok.recompute, Recompute::Everything);
        assert_eq!(ok.sampling(), Sampling::Sample { temperature: 0.5, top_k: Some(3), seed: 2 });
        // the widget's top-k 0 is the `generate` example's `--top-k 0`: all the characters
        let all = Request::from_numbers(&numbers([10.0, 0.5, 0.0, 2.0, 1.0], "a")).unwrap();
        let words = ["--prompt", "a", "--tokens", "10", "--temperature", "0.5", "--top-k", "0"];
        let cli = GenerateArgs::parse(&words.map(String::from), 128).unwrap();
        assert_eq!((all.args.top_k, cli.top_k), (None, None));
    }
}
