//! Writes what nvrtc compiles for each of the chapter's CUDA kernels, so that a machine without a
//! GPU can compile them with the real nvrtc and ptxas before a GPU session (`cargo xtask gpu-kit`
//! does, and prints each kernel's registers, spills and shared memory).
//!
//! `cargo run -p ch08-efficient --example gpu_sources -- DIR`: writes `DIR/<module>.cu` for every
//! configuration and `DIR/kernels.json`, listing each file's module, architecture and functions.
use ch08_efficient::gpu::Config;
use std::path::Path;

fn main() {
    let args = support::cli::args_or_exit();
    let [dir] = &args[..] else {
        support::cli::or_exit::<(), _>(Err("usage: gpu_sources DIR"));
        return;
    };
    let dir = Path::new(dir);
    support::cli::or_exit(
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display())),
    );
    let mut listed = Vec::new();
    for config in Config::all() {
        let file = format!("{}.cu", config.module());
        let path = dir.join(&file);
        let written = std::fs::write(&path, config.nvrtc_source());
        support::cli::or_exit(written.map_err(|e| format!("{}: {e}", path.display())));
        listed.push(serde_json::json!({
            "file": file,
            "arch": config.arch(),
            "functions": config.functions(),
        }));
        println!("{} ({} bytes of shared memory a block)", path.display(), config.shared_bytes());
    }
    let list = serde_json::to_string_pretty(&listed).expect("a list of strings");
    support::cli::or_exit(
        std::fs::write(dir.join("kernels.json"), list + "\n").map_err(|e| e.to_string()),
    );
}
