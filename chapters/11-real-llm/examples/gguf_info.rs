//! What a GGUF file holds: its version, metadata (long arrays summarised) and tensors by type
//! (`cargo run --release -p ch11-real-llm --example gguf_info -- [FILE]`; by default the
//! SmolLM2 file that `cargo xtask models` fetches).

use ch11_real_llm::gguf::{Gguf, Value};
use ch11_real_llm::model_file;
use std::collections::BTreeMap;

fn main() {
    let (path, bytes) = match support::cli::args_or_exit().as_slice() {
        [] => (model_file::path().display().to_string(), model_file::read()),
        [p] if !p.starts_with('-') => {
            (p.clone(), std::fs::read(p).map_err(|e| format!("{p}: {e}")))
        }
        _ => (
            String::new(),
            Err("usage: gguf_info [FILE] (one GGUF file; by default SmolLM2's)".into()),
        ),
    };
    let bytes = bytes.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let file = Gguf::parse(bytes).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let h = &file.header;
    println!(
        "GGUF version {}, {} metadata entries, {} tensors, alignment {}, data from byte {}",
        h.version,
        h.metadata.len(),
        h.tensors.len(),
        h.alignment,
        h.data_start
    );
    for (key, value) in &h.metadata {
        let shown = match value {
            Value::Array(items) => format!("array of {} ({:?}, ...)", items.len(), items.first()),
            Value::String(s) if s.len() > 60 => format!(
                "{:?}... ({} bytes)",
                &s[..s.char_indices().nth(60).map_or(s.len(), |(i, _)| i)],
                s.len()
            ),
            other => format!("{other:?}"),
        };
        println!("  {key} = {shown}");
    }
    let mut by_type: BTreeMap<String, usize> = BTreeMap::new();
    for t in &h.tensors {
        *by_type.entry(format!("{:?}", t.kind)).or_default() += 1;
    }
    println!("tensors by type: {by_type:?}");
    for t in h.tensors.iter().take(4) {
        println!("  {} {:?} {:?} at {} ({} bytes)", t.name, t.dims, t.kind, t.offset, t.bytes());
    }
}
