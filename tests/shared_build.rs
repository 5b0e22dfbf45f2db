//! `cargo xtask`'s first build and the workspace's test build share the crates below the task
//! runner (mdbook and everything under it): every crate in the task runner's tree is built with
//! the features the test build gives it, so the test build finds it compiled. Cargo turns on a
//! crate's features by what the command builds, and the test build adds the dev-dependencies of
//! the chapters and of the workspace checks; `xtask/Cargo.toml` asks for the same features, and this
//! check fails when an update of `Cargo.lock` makes them differ again (which costs a fresh
//! machine about a minute of compiling, nothing else).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use workspace_tools::workspace_root;

/// Each crate of a `cargo tree` listing and the feature sets it is built with (a crate used both
/// by build scripts or macros and by the code itself can be built twice).
type Features = BTreeMap<String, BTreeSet<String>>;

fn tree(args: &[&str]) -> Features {
    let out = Command::new(workspace_tools::cargo_program())
        .current_dir(workspace_root())
        .args(["tree", "--locked", "--prefix", "none", "--format", "{p}|{f}"])
        .args(args)
        .output()
        .expect("running cargo tree");
    assert!(out.status.success(), "cargo tree {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    parse(&String::from_utf8_lossy(&out.stdout))
}

fn parse(listing: &str) -> Features {
    let mut features = Features::new();
    for line in listing.lines() {
        let line = line.trim_end().trim_end_matches(" (*)");
        if let Some((package, set)) = line.split_once('|') {
            features.entry(package.to_string()).or_default().insert(set.to_string());
        }
    }
    features
}

/// The crates of `runner` built with features the test build does not use for them: where the
/// test build builds a crate one way, the runner must build it that way; where it builds it
/// several ways, each of the runner's must be one of them.
fn unshared(runner: &Features, tests: &Features) -> Vec<String> {
    let mut problems = Vec::new();
    for (package, sets) in runner {
        if package.contains(" (/") {
            continue; // the workspace's own crates: built for the runner, not shared
        }
        let Some(theirs) = tests.get(package) else {
            problems.push(format!("{package}: not in the test build at all"));
            continue;
        };
        let shared = if theirs.len() == 1 { sets == theirs } else { sets.is_subset(theirs) };
        if !shared {
            problems.push(format!("{package}: the runner's {sets:?}, the test build's {theirs:?}"));
        }
    }
    problems
}

#[test]
fn the_task_runner_builds_its_crates_as_the_test_build_does() {
    let runner = tree(&["-p", "xtask", "-e", "normal,build"]);
    let tests = tree(&["--workspace", "-e", "normal,build,dev"]);
    assert!(
        runner.len() > 100,
        "only {} crates under the runner: the listing is broken",
        runner.len()
    );
    let problems = unshared(&runner, &tests);
    assert!(
        problems.is_empty(),
        "the test build would compile these crates again (ask for the test build's features in \
         xtask/Cargo.toml):\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_crate_built_with_other_features_is_found() {
    let tests = parse("serde v1.0.0|alloc,std\nsyn v3.0.0|derive,fold\nsyn v3.0.0|derive\n");
    let same = parse("serde v1.0.0|alloc,std\nsyn v3.0.0|derive (*)\nxtask v0.1.0 (/w/xtask)|\n");
    assert!(unshared(&same, &tests).is_empty(), "{:?}", unshared(&same, &tests));
    let fewer = parse("serde v1.0.0|std\nsyn v3.0.0|derive,visit\nregex v1.0.0|\n");
    let problems = unshared(&fewer, &tests);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].starts_with("regex v1.0.0: not in the test build"), "{}", problems[0]);
    assert!(problems[1].starts_with("serde v1.0.0: the runner's {\"std\"}"), "{}", problems[1]);
    assert!(
        problems[2].starts_with("syn v3.0.0: the runner's {\"derive,visit\"}"),
        "{}",
        problems[2]
    );
}
