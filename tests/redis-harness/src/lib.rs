//! A `redis-server` of the test's own, on a free loopback port, and the
//! notes example built as a process to start ([`notes_example`]), for the
//! tests and benchmarks that start processes.
//!
//! Each [`RedisServer`] is a child process with nothing saved to disk
//! (`--save ''`, `--appendonly no`) and a temporary directory of its own as
//! its working directory, so a server that is stopped and restarted comes
//! back empty, as a store that lost its data would; one started with
//! [`RedisServer::start_persistent`] writes every change to its append-only
//! file before it answers, and comes back with all of it. The test can take it
//! away mid-test with [`RedisServer::stop`] and bring it back on the same
//! port with [`RedisServer::restart`]; dropping it kills the process.
//!
//! Starting and stopping block the thread for the few milliseconds they
//! take, which is fine on a test's runtime: nothing else needs to run then.
//!
//! The binary must be installed; `scripts/test` installs it. A machine without it
//! fails the first [`RedisServer::start`] with a message saying so.

use std::collections::hash_map::RandomState;
use std::fs::{self, File};
use std::hash::BuildHasher;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How long a server has to answer PING after it is spawned.
const READY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one probe of the port may take, and the pause between probes.
const PROBE_TIMEOUT: Duration = Duration::from_millis(200);
const PROBE_INTERVAL: Duration = Duration::from_millis(10);

/// How many ports [`RedisServer::start`] tries before it gives up, for when
/// another process takes the port between our check and the server's bind.
const START_ATTEMPTS: u32 = 5;

/// The ports the servers are given: below the range the system hands out
/// to outgoing connections (32768 and up on Linux by default), so that
/// while a server is stopped a client's reconnection attempt cannot take
/// its port and make [`RedisServer::restart`] fail.
const PORTS: std::ops::Range<u16> = 20_000..32_000;

/// Tells apart the temporary directories of the servers of one process.
static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// A running (or stopped) `redis-server` of the test's own.
pub struct RedisServer {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
    persistent: bool,
}

impl RedisServer {
    /// Starts a server on a free loopback port and waits until it answers
    /// PING. Panics if `redis-server` is not installed, or if it does not
    /// come up.
    pub fn start() -> RedisServer {
        RedisServer::start_with(false)
    }

    /// Starts a server as [`start`](Self::start) does, that keeps its data
    /// in an append-only file synced on every write (`--appendonly yes
    /// --appendfsync always`): killed and restarted, it holds every write
    /// it answered.
    pub fn start_persistent() -> RedisServer {
        RedisServer::start_with(true)
    }

    fn start_with(persistent: bool) -> RedisServer {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("outcome-tests-redis-{}-{id}", std::process::id()));
        fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("creating the server's directory {dir:?}: {e}"));
        let mut server = RedisServer {
            port: 0,
            dir,
            child: None,
            persistent,
        };
        let mut failures = Vec::new();
        for _ in 0..START_ATTEMPTS {
            server.port = free_port();
            match server.spawn() {
                Ok(()) => return server,
                Err(failure) => failures.push(failure),
            }
        }
        panic!(
            "redis-server did not start in {START_ATTEMPTS} attempts:\n{}",
            failures.join("\n")
        );
    }

    /// The URL a Redis client connects to: `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Sends one command and returns the first line of the reply
    /// (`+OK`, `-ERR ...`, `:1`): what a test needs to flush the server or
    /// change its configuration, without a client library.
    pub fn command(&self, args: &[&str]) -> String {
        use std::io::{BufRead, BufReader, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port))
            .unwrap_or_else(|e| panic!("connecting to the test's Redis: {e}"));
        let mut request = format!("*{}\r\n", args.len());
        for arg in args {
            request.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
        }
        stream
            .write_all(request.as_bytes())
            .unwrap_or_else(|e| panic!("writing to the test's Redis: {e}"));
        let mut line = String::new();
        BufReader::new(stream)
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("reading from the test's Redis: {e}"));
        line.trim_end().to_owned()
    }

    /// The port the server listens on, and listens on again after a
    /// restart.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server and waits for it to exit: the store is gone, as if
    /// its machine had died. Its port refuses connections until
    /// [`restart`](Self::restart). Does nothing if it is stopped already.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // An error here means the process has exited already.
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port, empty unless it is
    /// persistent (stopping it first if it is running), and waits until it answers PING. Panics if it
    /// does not come up.
    pub fn restart(&mut self) {
        self.stop();
        if let Err(failure) = self.spawn() {
            panic!("redis-server did not restart: {failure}");
        }
    }

    /// Spawns the server on `self.port` and waits until it answers PING;
    /// on failure, kills it and says why, with its log.
    fn spawn(&mut self) -> Result<(), String> {
        let log_path = self.dir.join(format!("redis-{}.log", self.port));
        let log = File::create(&log_path)
            .unwrap_or_else(|e| panic!("creating the server's log {log_path:?}: {e}"));
        let log_err = log
            .try_clone()
            .unwrap_or_else(|e| panic!("sharing the server's log {log_path:?}: {e}"));
        let spawned = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port"])
            .arg(self.port.to_string())
            .args(["--save", "", "--daemonize", "no", "--appendonly"])
            .args(if self.persistent {
                ["yes", "--appendfsync", "always"]
            } else {
                ["no", "--appendfsync", "everysec"]
            })
            .arg("--dir")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(e) if e.kind() == io::ErrorKind::NotFound => panic!(
                "redis-server is not installed; scripts/test installs it \
                 (apt-get install redis-server)"
            ),
            Err(e) => panic!("spawning redis-server: {e}"),
        };
        let child = self.child.insert(child);
        match wait_ready(child, self.port) {
            Ok(()) => Ok(()),
            Err(reason) => {
                self.stop();
                let log = fs::read_to_string(&log_path).unwrap_or_default();
                Err(format!(
                    "port {}: {reason}; its log:\n{}",
                    self.port,
                    log.trim_end()
                ))
            }
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Waits until the server on `port` answers PING, or `child` exits, or
/// [`READY_TIMEOUT`] passes.
fn wait_ready(child: &mut Child, port: u16) -> Result<(), String> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Err(format!("it exited ({status}) before it answered PING"));
        }
        // A server still loading answers `-LOADING`: wait for `+PONG`.
        if ping(address).is_ok_and(|reply| reply.starts_with("+PONG")) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!("it did not answer PING in {READY_TIMEOUT:?}"));
        }
        thread::sleep(PROBE_INTERVAL);
    }
}

/// Sends PING to `address` and returns the first line of the reply.
fn ping(address: SocketAddr) -> io::Result<String> {
    let mut stream = TcpStream::connect_timeout(&address, PROBE_TIMEOUT)?;
    stream.set_read_timeout(Some(PROBE_TIMEOUT))?;
    stream.set_write_timeout(Some(PROBE_TIMEOUT))?;
    stream.write_all(b"PING\r\n")?;
    let mut reply = String::new();
    BufReader::new(stream).read_line(&mut reply)?;
    Ok(reply)
}

/// A loopback port in [`PORTS`] that nothing listens on now. The server may
/// still lose it to another process before it binds; [`RedisServer::start`]
/// then tries another.
fn free_port() -> u16 {
    let span = u64::from(PORTS.end - PORTS.start);
    for _ in 0..100 {
        // A randomly keyed hasher gives each call its own random number.
        let offset = RandomState::new().hash_one(NEXT_ID.load(Ordering::Relaxed)) % span;
        let port = PORTS.start + u16::try_from(offset).expect("an offset below the span");
        if TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port in {PORTS:?}");
}

/// The notes example's executable, built with `cargo build --workspace
/// --example notes` and `args` (`--release`, `--features notes/redis`) if
/// it is not yet: the servers the tests and benchmarks start as processes.
///
/// `--workspace`, not `-p notes`: the features of every crate are then the
/// ones the workspace's test build chose, so the example that build made is
/// the one asked for, and nothing under it is built again with fewer
/// features (a fresh machine's tests waited a minute on that).
pub fn notes_example(args: &[&str]) -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["build", "-q", "--workspace", "--example", "notes"])
        .args(args)
        .arg("--message-format=json")
        .stderr(Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "the notes example builds");
    String::from_utf8(output.stdout)
        .expect("cargo writes UTF-8")
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == "notes")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo names the example's executable")
}
