//! What CTranslate2's `model.bin` holds: its header, its parameters (and how many of them Whisper
//! learned), the settings it stores as scalars, and the variables of the first decoder block, with
//! the fused ones marked
//! (`cargo run --release -p ch13-real-whisper --example model_bin -- [FILE]`; by default the file
//! that `cargo xtask models` fetches). A file that cannot be read gets one line and exit status 2.

use ch13_real_whisper::ct2::ModelBin;
use ch13_real_whisper::files;
use ch13_real_whisper::model::load::parameter_count;
use support::cli::{args_or_exit, or_exit};

fn main() {
    let path = match args_or_exit().as_slice() {
        [] => files::locate_or_exit().path("model.bin"),
        [p] if !p.starts_with('-') => p.into(),
        _ => {
            or_exit(Err("usage: model_bin [FILE] (a CTranslate2 model.bin; by default Whisper's)"))
        }
    };
    let bin = or_exit(ModelBin::read(&path));
    let tensors = bin.variables.iter().filter(|v| !v.shape.is_empty()).count();
    println!(
        "format version {}, {} revision {}: {} variables ({} tensors, {} scalars), {} alias",
        bin.version,
        bin.spec,
        bin.revision,
        bin.variables.len(),
        tensors,
        bin.variables.len() - tensors,
        bin.aliases.len()
    );
    match parameter_count(&bin) {
        Ok(p) => println!(
            "{} parameters: {} learned, {} fixed sinusoids, {} zero key biases",
            p.stored, p.learned, p.sinusoids, p.zero_key_biases
        ),
        // another model's file: its values, uncounted
        Err(_) => println!("{} parameters", bin.parameters()),
    }
    for v in bin.variables.iter().filter(|v| v.shape.is_empty()) {
        println!("  {:<36} {:?} = {}", v.name, v.dtype, or_exit(bin.scalar(&v.name)));
    }
    for (alias, target) in &bin.aliases {
        println!("  {alias} -> {target}");
    }
    println!("decoder block 0:");
    for v in bin.variables.iter().filter(|v| v.name.starts_with("decoder/layer_0/")) {
        let note = match (v.name.as_str(), v.shape.first()) {
            (n, Some(1152)) if n.contains("self_attention/linear_0") => "  query, key, value",
            (n, Some(768)) if n.contains("attention/linear_1") => "  key, value (cross)",
            _ => "",
        };
        let name = v.name.trim_start_matches("decoder/layer_0/");
        println!("  {name:<34} {:?} {:?}{note}", v.dtype, v.shape);
    }
}
