//! The Redis harness itself: a server of the test's own answers on its
//! port, refuses once stopped, comes back empty on the same port when
//! restarted, and is gone once dropped. Spoken to over a raw TCP socket,
//! with Redis's inline commands, so that these tests need no Redis client.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::Duration;

use outcome_tests::redis_server::RedisServer;

/// Sends one inline command to the server on `port` and returns the first
/// line of its reply.
fn command(port: u16, command: &str) -> io::Result<String> {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.write_all(format!("{command}\r\n").as_bytes())?;
    let mut reply = String::new();
    BufReader::new(stream).read_line(&mut reply)?;
    Ok(reply)
}

/// Panics unless nothing accepts connections on `port`.
fn assert_refused(port: u16) {
    match TcpStream::connect((Ipv4Addr::LOCALHOST, port)) {
        Err(e) => assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused, "{e}"),
        Ok(_) => panic!("port {port} still accepts connections"),
    }
}

#[test]
fn a_server_stops_and_restarts_empty_on_its_port() {
    let mut server = RedisServer::start();
    let port = server.port();
    assert_eq!(server.url(), format!("redis://127.0.0.1:{port}"));

    assert!(command(port, "PING").unwrap().starts_with("+PONG"));
    assert_eq!(command(port, "SET job running").unwrap(), "+OK\r\n");
    assert_eq!(command(port, "GET job").unwrap(), "$7\r\n");

    server.stop();
    assert_refused(port);
    // Stopping twice is fine.
    server.stop();

    server.restart();
    assert_eq!(server.port(), port);
    assert!(command(port, "PING").unwrap().starts_with("+PONG"));
    // Nothing was saved: the store comes back empty.
    assert_eq!(command(port, "GET job").unwrap(), "$-1\r\n");

    // Restarting a running server works too.
    server.restart();
    assert!(command(port, "PING").unwrap().starts_with("+PONG"));
}

#[test]
fn servers_have_ports_of_their_own_and_go_with_their_value() {
    let first = RedisServer::start();
    let second = RedisServer::start();
    assert_ne!(first.port(), second.port());

    let port = first.port();
    drop(first);
    assert_refused(port);
    assert!(command(second.port(), "PING").unwrap().starts_with("+PONG"));
}
