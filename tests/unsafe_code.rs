//! `unsafe` is denied in every crate (`[workspace.lints]`), and allowed in exactly the modules
//! that hold vector code: the seven of chapter 8's fast kernel (the lane operations and their AVX2,
//! AVX-512 and WebAssembly SIMD128 forms, the kernel written against them, its stages run one at a time for timing,
//! and the run-time switch) and the launches of its CUDA kernels (`gpu/cuda.rs`), and the three of chapter 11's decode path that run through the same
//! switch (the quantized dot products, the matrix products, attention over the cache), and chapter
//! 12's linear layer for many tokens, on chapter 8's kernel through the same switch; and the
//! WebAssembly seams of the book's widgets and models (`web/src/abi.rs`, `web-models/src/abi.rs`),
//! whose exports need `#[no_mangle]`,
//! which the lint counts as unsafe, with no `unsafe` block. A new
//! allowance of the `unsafe_code` lint anywhere else fails here, so it gets looked at.

use std::path::{Path, PathBuf};
use workspace_tools::workspace_root;

const ALLOWED: [&str; 14] = [
    "chapters/08-efficient/src/fast/avx2.rs",
    "chapters/08-efficient/src/fast/avx512.rs",
    "chapters/08-efficient/src/fast/isa.rs",
    "chapters/08-efficient/src/fast/kernel.rs",
    "chapters/08-efficient/src/fast/lanes.rs",
    "chapters/08-efficient/src/fast/simd128.rs",
    "chapters/08-efficient/src/fast/stages.rs",
    "chapters/08-efficient/src/gpu/cuda.rs",
    "chapters/11-real-llm/src/decode/attention.rs",
    "chapters/11-real-llm/src/decode/kernels.rs",
    "chapters/11-real-llm/src/decode/matrix.rs",
    "chapters/12-real-bert/src/fast/linear.rs",
    "web-models/src/abi.rs",
    "web/src/abi.rs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && !["target", "build", ".git"].contains(&name.as_str()) {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn unsafe_code_is_allowed_only_in_the_vector_modules() {
    let root = workspace_root();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut allowing: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains(concat!("allow(", "unsafe_code)")))
        .map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    allowing.sort();
    assert_eq!(allowing, ALLOWED, "the unsafe_code lint is allowed outside the vector modules");
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(toml.contains("unsafe_code = \"deny\""), "the workspace must deny unsafe code");
}

#[test]
fn chapter_8_counts_the_files_that_allow_unsafe_code() {
    // the page says how many files the test allows, in words, and what they are
    let page = std::fs::read_to_string(workspace_root().join("book/src/08-efficient.md")).unwrap();
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(ALLOWED.len(), 14);
    let fast = ALLOWED.iter().filter(|f| f.starts_with("chapters/08-efficient/src/fast/")).count();
    let later = ALLOWED.iter().filter(|f| f.starts_with("chapters/1")).count();
    let seams = ALLOWED.iter().filter(|f| f.ends_with("/abi.rs")).count();
    let gpu = ALLOWED.iter().filter(|f| f.starts_with("chapters/08-efficient/src/gpu/")).count();
    assert_eq!((fast, gpu, later, seams), (7, 1, 4, 2));
    for said in [
        "denies `unsafe` code everywhere except in fourteen files",
        "the module that launches the chapter's CUDA kernels on a GPU (`gpu/cuda.rs`",
        "the seven vector modules of `fast/`",
        "four modules of later chapters",
        "the WebAssembly seams of the book's widgets and of its models",
    ] {
        assert!(page.contains(said), "chapter 8 should say {said:?}");
    }
}
