//! The vendored dfdx's CUDA gather kernel (`vendor/dfdx`, change 5 in `vendor/README.md`): its
//! index arithmetic, cut from the `.cu` source and compiled for the host with the C compiler, gives
//! every element of an embedding lookup of 512 tokens from SmolLM2's (49,152 × 576) table the row
//! it must read. With the lines of change 5 taken out again, the same program finds what a GPU
//! run found: from token 152 on, `(152 × 49,152 + id) × 576` passes 2^32 and the lookup reads
//! the wrong rows. No GPU is needed; the GPU kit's `gpu_consistency` tests run the kernel itself.

use std::path::Path;
use std::process::Command;
use workspace_tools::workspace_root;

/// The first two lines of change 5 (the kernel's own `if` above it starts the same way).
const FIX: &str =
    "    if (out_num_dims > inp_num_dims) {\n        // the whole index tensor replaces axis 0";

/// The text of `file` from the line starting `from` up to (not including) the one starting `to`.
fn cut(file: &str, from: &str, to: &str) -> String {
    let start = file.find(from).unwrap_or_else(|| panic!("{from:?} not found"));
    let end = start + file[start..].find(to).unwrap_or_else(|| panic!("{to:?} not found"));
    file[start..end].to_string()
}

/// Compiles the harness against `kernel` (the kernel's functions) and returns what it prints.
fn run(kernel: &str, dir: &Path) -> String {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("kernel.h"), format!("#define __device__ static\n{kernel}")).unwrap();
    let harness = workspace_root().join("tests/fixtures/gather_index.c");
    let exe = dir.join("gather_index");
    let cc = Command::new("cc")
        .args(["-O1", "-I"])
        .arg(dir)
        .arg("-o")
        .arg(&exe)
        .arg(&harness)
        .output()
        .expect("the C compiler `cc` runs");
    assert!(cc.status.success(), "cc failed: {}", String::from_utf8_lossy(&cc.stderr));
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The wrong counts the harness prints, in its order: four lengths, then the batched form.
fn wrong(printed: &str) -> Vec<usize> {
    printed
        .lines()
        .map(|l| l.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn the_gather_kernel_reads_the_right_rows_past_151_tokens() {
    let root = workspace_root().join("vendor/dfdx/src/tensor_ops");
    let utils = std::fs::read_to_string(root.join("utilities/cuda_utils.cuh")).unwrap();
    let gather = std::fs::read_to_string(root.join("select_and_gather/gather.cu")).unwrap();
    let (utils, gather) = (utils.replace("\r\n", "\n"), gather.replace("\r\n", "\n"));
    let strided = cut(
        &utils,
        "__device__ unsigned int get_strided_index",
        "__device__ unsigned int restrided",
    );
    let gathered =
        cut(&gather, "__device__ unsigned int get_gathered_index", "template<typename T>");
    let dir = workspace_root().join("target/vendor-gather");

    let patched = run(&format!("{strided}{gathered}"), &dir.join("patched"));
    print!("{patched}");
    // 16, 129, 200 and 512 tokens, then the batched form: nothing read from the wrong place
    assert_eq!(wrong(&patched), [0, 0, 0, 0, 0]);

    // the same arithmetic without change 5: the fix's six lines cut out again
    let block = cut(&gathered, FIX, "\n\n    for (unsigned int d = 0;");
    assert_eq!(block.lines().count(), 6, "{block}");
    let unpatched =
        run(&format!("{strided}{}", gathered.replace(&block, "")), &dir.join("unpatched"));
    print!("{unpatched}");
    // tokens 152 onwards, each of their 576 numbers: (200 - 152) * 576 and (512 - 152) * 576
    assert_eq!(wrong(&unpatched), [0, 0, 48 * 576, 360 * 576, 0]);
}
