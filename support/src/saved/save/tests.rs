use super::*;

/// A fresh folder holding an old pair (`model.bin`, `model.json`).
fn old_pair(test: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("support-save-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (weights, report) = (dir.join("model.bin"), dir.join("model.json"));
    std::fs::write(&weights, b"old weights").unwrap();
    std::fs::write(&report, b"{\"old\": true}\n").unwrap();
    (dir, weights, report)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn assert_old_pair_intact(dir: &Path, weights: &Path, report: &Path) {
    assert_eq!(std::fs::read(weights).unwrap(), b"old weights");
    assert_eq!(std::fs::read(report).unwrap(), b"{\"old\": true}\n");
    assert_eq!(names(dir), ["model.bin", "model.json"], "nothing left beside the pair");
}

fn assert_new_pair(dir: &Path, weights: &Path, report: &Path) {
    assert_eq!(std::fs::read(weights).unwrap(), b"new weights");
    assert_eq!(std::fs::read(report).unwrap(), b"[\n  1\n]\n");
    assert_eq!(names(dir), ["model.bin", "model.json"], "nothing left beside the pair");
}

/// A report whose serialisation fails.
struct Unserialisable;

impl Serialize for Unserialisable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("no JSON for this"))
    }
}

#[test]
fn a_writer_failing_half_way_leaves_the_old_pair() {
    let (dir, weights, report) = old_pair("writer");
    let e = save_pair(
        &weights,
        |tmp| {
            std::fs::write(tmp, b"half of the new wei").unwrap();
            Err("disk full")
        },
        &report,
        &vec![1.0f32; 3],
    )
    .unwrap_err();
    assert!(matches!(e, SaveError::Write { .. }), "{e}");
    assert!(e.to_string().contains("model.bin (\"disk full\")"), "{e}");
    assert!(e.to_string().contains("unchanged"), "{e}");
    assert_old_pair_intact(&dir, &weights, &report);
}

#[test]
fn a_report_that_does_not_serialise_leaves_the_old_pair() {
    let (dir, weights, report) = old_pair("report");
    let mut wrote = false;
    let e = save_pair(
        &weights,
        |tmp| {
            wrote = true;
            std::fs::write(tmp, b"new weights")
        },
        &report,
        &Unserialisable,
    )
    .unwrap_err();
    assert!(matches!(e, SaveError::Serialize { .. }), "{e}");
    assert!(e.to_string().contains("model.json does not serialise as JSON (no JSON for this)"));
    assert!(!wrote, "the report is serialised before any file is written");
    assert_old_pair_intact(&dir, &weights, &report);

    let e = save_json(&report, &Unserialisable).unwrap_err();
    assert!(matches!(e, SaveError::Serialize { .. }), "{e}");
    assert_old_pair_intact(&dir, &weights, &report);
}

#[test]
fn a_panicking_writer_leaves_nothing_behind() {
    let (dir, weights, report) = old_pair("panic");
    let saved = std::panic::catch_unwind(|| {
        save_pair(
            &weights,
            |tmp| -> Result<(), String> {
                std::fs::write(tmp, b"half").unwrap();
                panic!("killed mid-write")
            },
            &report,
            &[1],
        )
    });
    assert!(saved.is_err());
    assert_old_pair_intact(&dir, &weights, &report);
}

#[test]
fn a_successful_save_replaces_both() {
    let (dir, weights, report) = old_pair("success");
    save_pair(&weights, |tmp| std::fs::write(tmp, b"new weights"), &report, &[1]).unwrap();
    assert_new_pair(&dir, &weights, &report);
    assert!(!finish_interrupted_save(&weights, &report).unwrap(), "nothing left to finish");

    save_json(&report, &["one"]).unwrap();
    assert_eq!(std::fs::read_to_string(&report).unwrap(), "[\n  \"one\"\n]\n");
    assert_eq!(names(&dir), ["model.bin", "model.json"]);
}

#[test]
fn a_missing_folder_is_created() {
    let (dir, _, _) = old_pair("folder");
    let (weights, report) = (dir.join("new/model.bin"), dir.join("new/model.json"));
    save_pair(&weights, |tmp| std::fs::write(tmp, b"w"), &report, &1).unwrap();
    assert_eq!(names(&dir.join("new")), ["model.bin", "model.json"]);
}

/// The states a save can be stopped in once the new pair is complete (`.model.json.pair/`
/// holding both files, one of them, or none): finishing gives the new pair each time, and a
/// second call finds nothing to do.
#[test]
fn a_save_stopped_after_the_new_pair_is_complete_is_finished() {
    for moved in 0..=2 {
        let (dir, weights, report) = old_pair(&format!("stopped-{moved}"));
        let pending = dir.join(".model.json.pair");
        std::fs::create_dir(&pending).unwrap();
        std::fs::write(pending.join("weights"), b"new weights").unwrap();
        std::fs::write(pending.join("report"), b"[\n  1\n]\n").unwrap();
        if moved >= 1 {
            std::fs::rename(pending.join("weights"), &weights).unwrap();
        }
        if moved == 2 {
            std::fs::rename(pending.join("report"), &report).unwrap();
        }
        assert!(finish_interrupted_save(&weights, &report).unwrap());
        assert_new_pair(&dir, &weights, &report);
        assert!(!finish_interrupted_save(&weights, &report).unwrap());
    }
}

/// A report that cannot be moved into place (a folder holds its name): the save says where the
/// new pair waits, and finishing it works once the obstacle is gone.
#[test]
fn a_pair_that_cannot_be_moved_into_place_waits_and_is_finished_later() {
    let (dir, weights, report) = old_pair("blocked");
    std::fs::remove_file(&report).unwrap();
    std::fs::create_dir_all(report.join("in the way")).unwrap();
    let e =
        save_pair(&weights, |tmp| std::fs::write(tmp, b"new weights"), &report, &[1]).unwrap_err();
    assert!(matches!(e, SaveError::Unfinished { .. }), "{e}");
    let message = e.to_string();
    assert!(message.contains(".model.json.pair, but "), "{message}");
    assert!(message.ends_with("the next load or save of the run moves them into place"));
    assert!(finish_interrupted_save(&weights, &report).is_err(), "still in the way");
    std::fs::remove_dir_all(&report).unwrap();
    assert!(finish_interrupted_save(&weights, &report).unwrap());
    assert_new_pair(&dir, &weights, &report);
}

/// What killed saves leave (a staging folder, a JSON file's temporary) is removed by the next save
/// once its process is gone; this process's own is never taken for a stale one.
#[test]
fn leftovers_of_processes_that_are_gone_are_removed_by_the_next_save() {
    let (dir, weights, report) = old_pair("stale");
    let gone = 4_000_000_000u32; // above Linux's largest process id
    std::fs::create_dir(dir.join(format!(".model.json.pair-{gone}"))).unwrap();
    std::fs::write(dir.join(format!(".model.json.pair-{gone}/weights")), b"half").unwrap();
    std::fs::write(dir.join(format!(".model.json.tmp-{gone}")), b"half").unwrap();
    std::fs::write(dir.join(".model.json.pair-notes"), b"not a process id").unwrap();
    save_pair(&weights, |tmp| std::fs::write(tmp, b"new weights"), &report, &[1]).unwrap();
    let left = names(&dir);
    assert_eq!(
        left,
        [".model.json.pair-notes", ".model.json.tmp-4000000000", "model.bin", "model.json"]
    );
    save_json(&report, &[1]).unwrap();
    assert_eq!(names(&dir), [".model.json.pair-notes", "model.bin", "model.json"]);
}
