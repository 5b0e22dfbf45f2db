//! What the model's configuration files say, checked against the sizes compiled into
//! [`MiniLm`](crate::MiniLm): a file for another model is an error that names the first
//! difference, never a silent misreading.

use ch05_blocks::Activation;
use serde::Deserialize;

use crate::files::ModelFiles;

/// The parts of Hugging Face's `config.json` for a `BertModel` that this chapter uses.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    /// `"gelu"`: the exact erf form ([`Activation::Gelu`])
    pub hidden_act: String,
    pub layer_norm_eps: f64,
    #[serde(default = "absolute")]
    pub position_embedding_type: String,
}

fn absolute() -> String {
    "absolute".into()
}

/// sentence-transformers' files: how long a text may be, and how token vectors become one.
#[derive(Clone, Debug, PartialEq)]
pub struct SentenceConfig {
    /// `sentence_bert_config.json`'s `max_seq_length`: tokens per text, `[CLS]` and `[SEP]`
    /// included
    pub max_seq_length: usize,
    /// `1_Pooling/config.json` asks for the mean over the real tokens
    pub mean_pooling: bool,
    /// `modules.json` ends with `Normalize`: every embedding is scaled to length 1
    pub normalize: bool,
}

/// The sizes a [`Bert`](crate::Bert) type was compiled with, to compare with a `config.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub vocab: usize,
    pub d_model: usize,
    pub layers: usize,
    pub heads: usize,
    pub d_ff: usize,
    pub positions: usize,
    pub token_types: usize,
}

/// all-MiniLM-L6-v2's sizes, those of [`MiniLm`](crate::MiniLm).
pub const MINILM: Sizes = Sizes {
    vocab: 30_522,
    d_model: 384,
    layers: 6,
    heads: 12,
    d_ff: 1_536,
    positions: 512,
    token_types: 2,
};

impl BertConfig {
    /// Reads `config.json` from the model's folder.
    pub fn read(files: &ModelFiles) -> Result<Self, String> {
        Self::parse(&files.read_text("config.json")?)
    }

    /// `config.json`'s text (from a folder, or the bytes a page fetched).
    pub fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("config.json: {e}"))
    }

    /// The activation the file names.
    pub fn activation(&self) -> Result<Activation, String> {
        self.hidden_act.parse().map_err(|e| format!("config.json: {e}"))
    }

    /// `Ok` if the file describes a model of these sizes with learned absolute positions.
    pub fn check(&self, want: Sizes) -> Result<(), String> {
        let got = [
            ("vocab_size", self.vocab_size, want.vocab),
            ("hidden_size", self.hidden_size, want.d_model),
            ("num_hidden_layers", self.num_hidden_layers, want.layers),
            ("num_attention_heads", self.num_attention_heads, want.heads),
            ("intermediate_size", self.intermediate_size, want.d_ff),
            ("max_position_embeddings", self.max_position_embeddings, want.positions),
            ("type_vocab_size", self.type_vocab_size, want.token_types),
        ];
        for (key, file, compiled) in got {
            if file != compiled {
                return Err(format!(
                    "config.json: {key} is {file}, but this model type was compiled for \
                     {compiled}: it is not all-MiniLM-L6-v2"
                ));
            }
        }
        if self.position_embedding_type != "absolute" {
            return Err(format!(
                "config.json: position_embedding_type {:?}; this BERT has learned absolute \
                 positions only",
                self.position_embedding_type
            ));
        }
        self.activation().map(|_| ())
    }
}

impl SentenceConfig {
    /// Reads sentence-transformers' three files, and refuses a pipeline this chapter does not
    /// build (CLS or max pooling, no normalisation step, another module order).
    pub fn read(files: &ModelFiles) -> Result<Self, String> {
        Self::parse(|name| files.read_text(name))
    }

    /// [`read`](Self::read), with each file's text given by `text` from its name in the
    /// model's folder (from a folder, or the bytes a page fetched).
    pub fn parse(text: impl Fn(&str) -> Result<String, String>) -> Result<Self, String> {
        let json = |name: &str| -> Result<serde_json::Value, String> {
            serde_json::from_str(&text(name)?).map_err(|e| format!("{name}: {e}"))
        };
        let bert = json("sentence_bert_config.json")?;
        let max_seq_length =
            bert["max_seq_length"].as_u64().ok_or("sentence_bert_config.json: no max_seq_length")?
                as usize;
        let pooling = json("1_Pooling/config.json")?;
        let flag = |key: &str| pooling[key].as_bool().unwrap_or(false);
        let mean_pooling = flag("pooling_mode_mean_tokens");
        let others = ["cls_token", "max_tokens", "mean_sqrt_len_tokens"];
        if !mean_pooling || others.iter().any(|k| flag(&format!("pooling_mode_{k}"))) {
            return Err("1_Pooling/config.json: this chapter pools by the mean of the tokens \
                        only, and the file asks for another pooling"
                .into());
        }
        let modules = json("modules.json")?;
        let kinds: Vec<&str> = modules
            .as_array()
            .ok_or("modules.json: not a list")?
            .iter()
            .map(|m| m["type"].as_str().unwrap_or("?").trim_start_matches("sentence_transformers."))
            .collect();
        let normalize = match kinds.as_slice() {
            ["models.Transformer", "models.Pooling", "models.Normalize"] => true,
            ["models.Transformer", "models.Pooling"] => false,
            other => {
                return Err(format!(
                    "modules.json: {other:?}, not Transformer, Pooling[, Normalize]"
                ))
            }
        };
        Ok(SentenceConfig { max_seq_length, mean_pooling, normalize })
    }
}
