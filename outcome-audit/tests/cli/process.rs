//! The server's process: its group ended whichever way the audit ends,
//! its stderr dropped or kept, a command that speaks no MCP, and an
//! interrupted audit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{AUDIT, notes_example};

/// A scratch directory of its own for one test, removed when the test
/// ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("outcome-audit-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A server as a shell script in `dir`: it starts a grandchild that
/// outlives it unless killed, writes its pid and its own to files, writes
/// a line to stderr, then runs `server` in its place (`exec`: the same
/// process).
fn script(dir: &Path, server: &str) -> PathBuf {
    let path = dir.join("server.sh");
    std::fs::write(
        &path,
        format!(
            "sleep 1000 &\necho $! > '{dir}/grandchild.pid'\necho $$ > '{dir}/server.pid'\n\
             echo 'the server says hello on stderr' >&2\nexec {server}\n",
            dir = dir.display()
        ),
    )
    .unwrap();
    path
}

/// Whether the process `pid` is gone (or a zombie no one reaped yet).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|state| state.trim_start().starts_with('Z')),
    }
}

/// The pids the script in `dir` wrote, once it wrote them.
fn pids(dir: &Path) -> Vec<u32> {
    ["server.pid", "grandchild.pid"]
        .iter()
        .map(|file| {
            let text =
                std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            text.trim().parse().unwrap()
        })
        .collect()
}

/// Runs the audit with its stdout and stderr in files in `dir`, failing
/// the test if it is still running after `bound`: a process left behind
/// with a pipe of the audit's open would keep a reader of the pipe
/// waiting.
fn audit_in(dir: &Path, args: &[&str], bound: Duration) -> (Output, String) {
    let stdout = dir.join("audit.out");
    let stderr = dir.join("audit.err");
    let mut child = Command::new(AUDIT)
        .args(args)
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("outcome-audit runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("outcome-audit {args:?} still ran after {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = Output {
        status,
        stdout: std::fs::read(&stdout).unwrap(),
        stderr: std::fs::read(&stderr).unwrap(),
    };
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, report)
}

/// Fails unless the server of the script in `dir`, and its grandchild,
/// are gone within a few seconds.
fn assert_server_gone(dir: &Path) {
    let pids = pids(dir);
    let started = Instant::now();
    while !pids.iter().all(|&pid| gone(pid)) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "processes left: {:?}",
            pids.iter().filter(|&&pid| !gone(pid)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The server runs in a process group of its own, ended when the audit
/// ends: a grandchild it leaves behind goes too. Its stderr is dropped.
#[test]
fn the_server_s_process_group_ends_with_a_clean_audit() {
    let dir = scratch("clean");
    let notes = notes_example();
    let server = script(&dir, &format!("'{}' --export", notes.display()));
    let (output, report) = audit_in(
        &dir,
        &["--", "sh", server.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_server_gone(&dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("hello on stderr"), "{stderr}");
    assert!(!report.contains("hello on stderr"), "{report}");
}

#[test]
fn the_server_s_stderr_goes_to_the_file_asked_for() {
    let dir = scratch("stderr");
    let notes = notes_example();
    let server = script(&dir, &format!("'{}' --export", notes.display()));
    let log = dir.join("server.log");
    let (output, report) = audit_in(
        &dir,
        &[
            "--server-stderr",
            log.to_str().unwrap(),
            "--",
            "sh",
            server.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{report}");
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(
        written.contains("the server says hello on stderr"),
        "{written}"
    );
    assert!(!String::from_utf8_lossy(&output.stderr).contains("hello"));
    assert_server_gone(&dir);
}

/// A command that speaks no MCP fails within seconds, and is stopped.
#[test]
fn a_command_that_is_no_mcp_server_fails_within_seconds() {
    let dir = scratch("silent");
    let server = script(&dir, "sleep 1000");
    // The default `--init-timeout`: ten seconds.
    let started = Instant::now();
    let (output, _) = audit_in(
        &dir,
        &["--", "sh", server.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert_eq!(output.status.code(), Some(4));
    assert!(
        started.elapsed() >= Duration::from_secs(9),
        "{:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("did not answer initialize within 10 seconds"),
        "{stderr}"
    );
    assert_server_gone(&dir);
    // One that echoes what it reads: its own request is no answer.
    let (output, _) = audit_in(
        &dir,
        &["--init-timeout", "2", "--", "cat"],
        Duration::from_secs(10),
    );
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cat did not answer initialize within 2 seconds"),
        "{stderr}"
    );
    // One that exits at once fails at once.
    let (output, _) = audit_in(
        &dir,
        &["--init-timeout", "20", "--", "true"],
        Duration::from_secs(10),
    );
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("true did not start an MCP session"),
        "{stderr}"
    );
}

/// Ctrl-C (SIGINT) or SIGTERM stops the audit and the server's whole
/// process group, and exits 130.
#[test]
fn an_interrupted_audit_stops_the_server() {
    for signal in ["-INT", "-TERM"] {
        let dir = scratch(&format!("interrupted{signal}"));
        let server = script(&dir, "sleep 1000");
        let mut child = Command::new(AUDIT)
            .args(["--init-timeout", "60", "--", "sh", server.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("audit.err")).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !dir.join("grandchild.pid").exists() || !dir.join("server.pid").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the script ran"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // The script writes a pid file in two steps: let it finish.
        std::thread::sleep(Duration::from_millis(200));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let stopped = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if stopped.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("outcome-audit still ran after {signal}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{signal}");
        let stderr = std::fs::read_to_string(dir.join("audit.err")).unwrap();
        assert!(stderr.contains("interrupted"), "{stderr}");
        assert_server_gone(&dir);
    }
}
