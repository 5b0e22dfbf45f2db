//! Running programs, echoing each command.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// Runs `cargo ARGS` in the workspace root, echoing the command; fails if cargo does.
pub fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    cargo_with(root, args, &[])
}

/// [`cargo`] with environment variables set for it alone.
pub fn cargo_with(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let cargo = workspace_tools::cargo_program();
    let shown: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    println!("$ {}cargo {}", shown.concat(), args.join(" "));
    let status = Command::new(cargo)
        .current_dir(root)
        .args(args)
        .envs(env.iter().copied())
        .status()
        .context("running cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Runs `cargo ARGS` with cargo's JSON messages (`--message-format=json-render-diagnostics`),
/// handing each to `on_message` as it comes, while cargo goes on; its errors, warnings and
/// progress go to the terminal as usual. Fails if cargo or `on_message` does.
pub fn cargo_json(
    root: &Path,
    args: &[&str],
    on_message: &mut dyn FnMut(&serde_json::Value) -> Result<()>,
) -> Result<()> {
    let args = [args, &["--message-format=json-render-diagnostics"]].concat();
    println!("$ cargo {}", args.join(" "));
    let mut child = Command::new(workspace_tools::cargo_program())
        .current_dir(root)
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .context("running cargo")?;
    let stdout = child.stdout.take().expect("piped");
    let mut handled = Ok(());
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line.context("reading cargo's messages")?;
        match serde_json::from_str::<serde_json::Value>(&line) {
            Ok(message) if handled.is_ok() => handled = on_message(&message),
            Ok(_) => {}
            // not a message of cargo's: a build script's or a test's own output
            Err(_) => println!("{line}"),
        }
    }
    let status = child.wait().context("waiting for cargo")?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    handled
}

/// `cargo ARGS` in the folder `dir`, left running in the background with its output going to the
/// file `log`; [`Background::finish`] waits for it and shows that output (cargo's `test result:`
/// lines with it). Dropped before that, it is stopped with everything it started.
pub struct Background {
    child: Option<Child>,
    log: PathBuf,
    command: String,
    started: Instant,
}

impl Background {
    pub fn start(dir: &Path, args: &[&str], log: PathBuf) -> Result<Background> {
        let cargo = workspace_tools::cargo_program();
        Background::start_program(dir, Path::new(&cargo), args, &[], log)
    }

    /// [`Background::start`] for `program` instead of cargo, with the variables `env` set for it.
    pub fn start_program(
        dir: &Path,
        program: &Path,
        args: &[&str],
        env: &[(&str, String)],
        log: PathBuf,
    ) -> Result<Background> {
        std::fs::create_dir_all(log.parent().expect("a folder"))?;
        let name = program.strip_prefix(dir).unwrap_or(program).display();
        let command = format!("{name} {}", args.join(" "));
        println!("$ {command} > {} &", log.strip_prefix(dir).unwrap_or(&log).display());
        let out = std::fs::File::create(&log).with_context(|| format!("{}", log.display()))?;
        let mut child = Command::new(program);
        child.current_dir(dir).args(args).envs(env.iter().map(|(k, v)| (k, v)));
        child.stdout(out.try_clone()?).stderr(out);
        let child = child.stdin(Stdio::null()).spawn().with_context(|| command.clone())?;
        Ok(Background { child: Some(child), log, command, started: Instant::now() })
    }

    /// Whether the command has ended (without waiting for it); [`Background::finish`] then
    /// returns at once.
    pub fn has_ended(&mut self) -> bool {
        self.child.as_mut().is_none_or(|c| c.try_wait().is_ok_and(|s| s.is_some()))
    }

    /// Waits for the command, prints what it wrote, and fails if it did; returns how long it ran:
    /// until its last write to the log (it may have ended long before it is waited for).
    pub fn finish(mut self) -> Result<Duration> {
        let status = self.child.take().expect("waited for once").wait().context("waiting")?;
        let waited = self.started.elapsed();
        let last_write = std::fs::metadata(&self.log).and_then(|m| m.modified()).ok();
        let before_wait = last_write.and_then(|t| SystemTime::now().duration_since(t).ok());
        let ran = before_wait.map_or(waited, |b| waited.saturating_sub(b));
        let output = std::fs::read_to_string(&self.log).unwrap_or_default();
        println!("$ {} (ran for {ran:.1?}, beside the steps since it started; waited for after {waited:.1?})", self.command);
        print!("{output}");
        if !status.success() {
            bail!("`{}` failed ({status}); its output: {}", self.command, self.log.display());
        }
        Ok(ran)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            stop_tree(child);
        }
    }
}

/// Stops `child` and every process it started (cargo's compilers, a test binary and its Jupyter),
/// found through `/proc`; they share the suite's process group, so Ctrl-C stops them all anyway.
fn stop_tree(child: &mut Child) {
    let pids: Vec<String> = tree(child.id(), None).iter().map(u32::to_string).collect();
    let _ = Command::new("kill").arg("-TERM").args(&pids).status();
    let _ = child.wait();
}

/// Lowers the priority (niceness 10, with `renice`) of this program and of every program it has
/// started but `keep` and what `keep` started; the programs they start later inherit it. From then
/// on, where both want a processor, `keep` gets it first. A priority only orders the work, so
/// where `renice` fails this says so and goes on.
pub fn yield_to(keep: &Background) {
    let pids = tree(std::process::id(), keep.child.as_ref().map(Child::id));
    // Linux keeps a niceness per thread, and a thread starts with its creator's: every thread of
    // each process (cargo starts its compilers from threads of its own)
    let threads = pids.iter().flat_map(|&p| threads_of(p));
    let pids: Vec<String> = threads.map(|t| t.to_string()).collect();
    let done = Command::new("renice").args(["-n", "10", "-p"]).args(&pids).output();
    match done {
        Ok(out) if out.status.success() => {
            println!("(this run's other programs yield to `{}`: niceness 10)", keep.command)
        }
        Ok(out) => println!("renice failed: {}", String::from_utf8_lossy(&out.stderr).trim()),
        Err(e) => println!("renice did not run: {e}"),
    }
}

/// The threads of process `pid` (`/proc/PID/task`), or `pid` alone where that cannot be read.
fn threads_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return vec![pid] };
    entries.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok()).collect()
}

/// `pid` and every process below it, but `skip` and the processes below that.
fn tree(pid: u32, skip: Option<u32>) -> Vec<u32> {
    let mut pids = vec![pid];
    let mut i = 0;
    while i < pids.len() {
        pids.extend(children_of(pids[i]).into_iter().filter(|p| Some(*p) != skip));
        i += 1;
    }
    pids
}

/// The processes whose parent is `pid` (field 4 of `/proc/PID/stat`, after the command's name).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            after_name.split_whitespace().nth(1) == Some(&pid.to_string())
        })
        .collect()
}

/// Runs a program, echoing the command; fails if it does.
pub fn sh(program: &str, args: &[&str]) -> Result<()> {
    println!("$ {program} {}", args.join(" "));
    let status =
        Command::new(program).args(args).status().with_context(|| format!("running {program}"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Whether the program runs and exits with success.
pub fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

/// Installs Debian packages with apt-get (through sudo unless running as root), after updating the
/// package lists; fails clearly where there is no apt-get.
pub fn apt_install(packages: &[&str]) -> Result<()> {
    if !works("apt-get", &["--version"]) {
        bail!("there is no apt-get to install {}", packages.join(" "));
    }
    let root_user = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
    let apt = |rest: &[&str]| -> Result<()> {
        if root_user {
            sh("apt-get", rest)
        } else {
            sh("sudo", &[&["apt-get"][..], rest].concat())
        }
    };
    apt(&["update", "-qq"])?;
    apt(&[&["install", "-y", "-qq", "--no-install-recommends"][..], packages].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field 19 of `/proc/PID/stat`: the process's niceness.
    fn niceness(pid: u32) -> i32 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after_name = stat.rsplit_once(')').unwrap().1;
        after_name.split_whitespace().nth(16).unwrap().parse().unwrap()
    }

    #[test]
    fn yield_to_lowers_all_but_the_kept_program() {
        let log = std::env::temp_dir().join(format!("yield-to-{}.log", std::process::id()));
        let dir = std::env::temp_dir();
        let kept =
            Background::start_program(&dir, Path::new("sleep"), &["30"], &[], log.clone()).unwrap();
        let mut other = Command::new("sleep").arg("30").spawn().unwrap();
        let before = niceness(std::process::id());
        yield_to(&kept);
        let kept_pid = kept.child.as_ref().unwrap().id();
        assert_eq!(niceness(kept_pid), before, "the kept program keeps its priority");
        assert_eq!(niceness(other.id()), before.max(10), "a program started before yields");
        assert_eq!(niceness(std::process::id()), before.max(10), "and this one");
        let mut later = Command::new("sleep").arg("30").spawn().unwrap();
        assert_eq!(niceness(later.id()), before.max(10), "a program started after inherits it");
        for child in [&mut other, &mut later] {
            child.kill().unwrap();
            child.wait().unwrap();
        }
        drop(kept);
        std::fs::remove_file(log).unwrap();
    }

    #[test]
    fn stop_tree_stops_the_grandchildren_too() {
        let mut child =
            Command::new("sh").args(["-c", "sleep 300 & sleep 300; wait"]).spawn().unwrap();
        let start = Instant::now();
        let mut sleeps = Vec::new();
        while sleeps.len() < 2 && start.elapsed() < Duration::from_secs(10) {
            sleeps = children_of(child.id());
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(sleeps.len(), 2, "the shell's two sleeps: {sleeps:?}");
        stop_tree(&mut child);
        std::thread::sleep(Duration::from_millis(100));
        for pid in sleeps {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // gone, or a zombie waiting for init to reap it
            assert!(stat.is_empty() || stat.contains(") Z "), "sleep {pid} still runs: {stat}");
        }
    }
}
