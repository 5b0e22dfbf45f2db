//! How close to the limit: on every instruction-set path this CPU has, the fused multiply-add
//! peak (independent chains, one thread and all threads), the fast kernel's stages on one thread,
//! and the whole kernel at 2,048 tokens, each as a share of the peak
//! (`cargo run --release -p ch08-efficient --example limits`). Prints the table, then one JSON
//! line; `--save NAME` writes it to `measurements/limits/NAME.json` instead and regenerates the
//! page's tables, `measurements/limits.md`, from every machine's file.

use ch08_efficient::fast::Isa;
use ch08_efficient::measure::{limits_tables, Limits, PathLimits};
use std::path::Path;

fn main() {
    let args = support::cli::args_or_exit();
    let save = match args.as_slice() {
        [] => None,
        [flag, name] if flag == "--save" => Some(name.clone()),
        _ => {
            eprintln!("usage: limits [--save NAME]");
            std::process::exit(2);
        }
    };
    let paths = Isa::available().into_iter().map(PathLimits::measure).collect();
    let limits = Limits { machine: support::machine::describe(), paths };
    print!("{}", limits.table());
    let json = serde_json::to_string_pretty(&limits).expect("limits are serialisable");
    if let Some(name) = save {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements");
        let file = dir.join("limits").join(format!("{name}.json"));
        std::fs::create_dir_all(file.parent().expect("a folder"))
            .expect("create measurements/limits");
        std::fs::write(&file, json + "\n").expect("write the limits");
        std::fs::write(dir.join("limits.md"), limits_tables()).expect("write limits.md");
        println!("wrote {} and measurements/limits.md", file.display());
    } else {
        println!("{json}");
    }
}
