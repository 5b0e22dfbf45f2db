//! A training run killed while it saves (SIGKILL, at a random point, many times over) leaves a
//! whole pair: the old weights with the old report, or the new with the new, never one of each,
//! and nothing that the next save does not clean up.
//!
//! The test runs this same program again as the child that saves (`--save-forever DIR`: one
//! generation after another, each a weights file and a report that names it), kills it after a
//! random delay, and looks at the folder each time: first as the kill left it, then after
//! [`finish_interrupted_save`], as every load sees it. It has its own `main` (no test harness) so
//! that it can be that child.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use rand::{rngs::StdRng, Rng, SeedableRng};
use support::saved::{finish_interrupted_save, save_pair};

/// How many children are killed.
const KILLS: usize = 200;

/// The weights of generation `g`: large enough (about 0.6 MB) that writing them takes a while.
fn weights_of(g: u64) -> Vec<u8> {
    format!("weights of generation {g}\n").repeat(24_000).into_bytes()
}

/// The report of generation `g`, as the saved JSON.
#[derive(serde::Serialize, serde::Deserialize)]
struct Report {
    generation: u64,
}

fn pair(dir: &Path) -> (PathBuf, PathBuf) {
    (dir.join("w.bin"), dir.join("w.json"))
}

/// The generation of a weights file and a report that belong together, or what is wrong.
fn generation(weights: &Path, report: &Path) -> Result<u64, String> {
    match (weights.exists(), report.exists()) {
        (false, false) => return Ok(0), // nothing saved yet
        (true, true) => {}
        (w, r) => return Err(format!("weights there: {w}, report there: {r}")),
    }
    let text = std::fs::read_to_string(report).map_err(|e| e.to_string())?;
    let r: Report = serde_json::from_str(&text).map_err(|e| format!("report {text:?}: {e}"))?;
    let bytes = std::fs::read(weights).map_err(|e| e.to_string())?;
    if bytes != weights_of(r.generation) {
        let first = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
        return Err(format!(
            "report of generation {} beside weights of {} bytes starting {first:?}",
            r.generation,
            bytes.len()
        ));
    }
    Ok(r.generation)
}

/// The child: saves generation after generation until it is killed.
fn save_forever(dir: &Path) -> ! {
    let (weights, report) = pair(dir);
    finish_interrupted_save(&weights, &report).expect("finish the last save");
    let mut g = generation(&weights, &report).expect("a whole pair") + 1;
    loop {
        let save = |p: &Path| std::fs::write(p, weights_of(g));
        save_pair(&weights, save, &report, &Report { generation: g }).expect("save");
        g += 1;
    }
}

/// What a kill left in `dir`, before anything finishes it.
#[derive(Default, Debug)]
struct Seen {
    /// a staging folder of a save stopped before the pair was complete
    staging: usize,
    /// a complete new pair still to be moved into place
    pending: usize,
    /// a new weights file already moved beside the old report, the pair folder holding the new one
    half_moved: usize,
}

fn killed_saves_leave_a_whole_pair() {
    let dir = std::env::temp_dir().join(format!("support-killed-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (weights, report) = pair(&dir);
    let pending = dir.join(".w.json.pair");
    let me = std::env::current_exe().expect("the path of this test");
    let mut rng = StdRng::seed_from_u64(39);
    let (mut last, mut seen) = (0, Seen::default());
    for kill in 1..=KILLS {
        let mut child = Command::new(&me)
            .arg("--save-forever")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the saving child");
        std::thread::sleep(Duration::from_micros(rng.gen_range(500..60_000)));
        child.kill().expect("SIGKILL the child");
        let out = child.wait_with_output().expect("wait for the child");
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.status.signal(),
            Some(9),
            "kill {kill}: the child ended by itself: {}",
            String::from_utf8_lossy(&out.stderr)
        );

        // as the kill left it: the pair, a staging folder, and a pending pair folder only
        for name in std::fs::read_dir(&dir).unwrap() {
            let name = name.unwrap().file_name().to_string_lossy().into_owned();
            match name.as_str() {
                "w.bin" | "w.json" | ".w.json.pair" => {}
                _ if name.starts_with(".w.json.pair-") => seen.staging += 1,
                _ => panic!("kill {kill}: {name} left beside the pair"),
            }
        }
        let before = if pending.exists() {
            seen.pending += 1;
            // the pair as finishing it will make it: each file from the pair folder if still there
            let take = |name: &str, target: &Path| {
                let moved = pending.join(name);
                if moved.exists() {
                    moved
                } else {
                    target.to_path_buf()
                }
            };
            if !pending.join("weights").exists() && pending.join("report").exists() {
                seen.half_moved += 1;
            }
            generation(&take("weights", &weights), &take("report", &report))
        } else {
            generation(&weights, &report)
        };
        let before = before.unwrap_or_else(|e| panic!("kill {kill}: a mixed pair on disk: {e}"));

        // as every load sees it
        finish_interrupted_save(&weights, &report).expect("finish the interrupted save");
        let now = generation(&weights, &report)
            .unwrap_or_else(|e| panic!("kill {kill}: a mixed pair after finishing: {e}"));
        assert_eq!(now, before, "kill {kill}: finishing gave another pair than it held");
        assert!(now >= last, "kill {kill}: generation {now} after {last}: an older pair came back");
        assert!(!pending.exists(), "kill {kill}: the pair folder is still there");
        last = now;
    }
    // the next save removes the staging folders the killed children left
    save_pair(
        &weights,
        |p| std::fs::write(p, weights_of(last + 1)),
        &report,
        &Report { generation: last + 1 },
    )
    .unwrap();
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["w.bin", "w.json"], "leftovers after the next save");
    std::fs::remove_dir_all(&dir).unwrap();
    println!(
        "{KILLS} kills, {last} generations saved; the kills left {} staging folders, {} complete \
         pairs to move into place ({} of them half moved)",
        seen.staging, seen.pending, seen.half_moved
    );
    assert!(last > 0, "no save completed before a kill: the delays are too short");
    assert!(seen.staging > 0, "no kill landed while a pair was written: the delays are too long");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, dir] = args.as_slice() {
        if flag == "--save-forever" {
            save_forever(Path::new(dir));
        }
    }
    killed_saves_leave_a_whole_pair();
    println!("test killed_saves_leave_a_whole_pair ... ok");
}
