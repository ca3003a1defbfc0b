//! `prime-solve serve`: a server on a free loopback port, asked over plain
//! HTTP/1.1 as any client would. Its answers are the command line's, to the
//! byte where the command prints JSON, and every refusal is JSON with its
//! status.
#![cfg(feature = "serve")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::Duration;

mod common;
use common::prime_solve;

/// A server on `127.0.0.1:0`, stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let (child, addr) = common::serve(extra);
        Server { child, addr }
    }

    /// One request: its status and body.
    fn ask(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        ask(&self.addr, method, path, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.ask("GET", path, b"")
    }
}

/// One request: its status and body.
fn ask(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A body the server refuses may be cut short: what it answers counts.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

impl Drop for Server {
    fn drop(&mut self) {
        // Quietly: a test may have stopped it already.
        let _ = Command::new("kill")
            .args(["-s", "TERM", &self.child.id().to_string()])
            .stderr(std::process::Stdio::null())
            .status();
        let _ = self.child.wait();
    }
}

fn cli(args: &[&str]) -> String {
    let out = prime_solve().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn error(body: &str) -> String {
    let j: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{body}"));
    j["error"].as_str().unwrap().to_string()
}

#[test]
fn queries_answer_what_the_command_prints() {
    let server = Server::start(&[]);
    assert_eq!(server.get("/healthz"), (200, "ok\n".to_string()));
    for (path, args) in [
        ("/api/v1/query?cards=4,6,8", vec!["query", "4", "6", "8"]),
        (
            "/api/v1/query?cards=QH+7C+JK&faces=rank&powers=1",
            vec!["query", "QH", "7C", "JK", "--faces", "rank", "--powers"],
        ),
        (
            "/api/v1/query?cards=3%205%207%209&functions=tri&high-primes=true&ascii=1",
            vec![
                "query",
                "3",
                "5",
                "7",
                "9",
                "--functions",
                "tri",
                "--high-primes",
                "--ascii",
            ],
        ),
        (
            "/api/v1/query?cards=5,8,Q&faces=rank&juxtapose=0",
            vec!["query", "5", "8", "Q", "--faces", "rank"],
        ),
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        let mut args = args;
        args.extend(["--format", "json"]);
        assert_eq!(body, cli(&args), "{path}");
    }
}

#[test]
fn the_referee_answers_what_the_command_prints() {
    let server = Server::start(&[]);
    for (path, args) in [
        (
            "/api/v1/check?cards=4,6,8&claim=(6*4)/8",
            vec!["check", "4", "6", "8", "(6*4)/8"],
        ),
        (
            "/api/v1/check?cards=7,8,5&claim=78%2B5",
            vec!["check", "7", "8", "5", "78+5"],
        ),
        (
            "/api/v1/check?cards=4,6,8&claim=6*8/4",
            vec!["check", "4", "6", "8", "6*8/4"],
        ),
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{path}");
        let mut args = args;
        args.extend(["--format", "json"]);
        assert_eq!(body, cli(&args), "{path}");
    }
    let (status, body) = server.ask(
        "POST",
        "/api/v1/check",
        br#"{"cards": "2 3 6", "claim": "2^6 + 3", "powers": true}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(
        body,
        cli(&[
            "check", "2", "3", "6", "2^6 + 3", "--powers", "--format", "json"
        ])
    );
}

#[test]
fn every_refusal_is_json_with_its_status() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/api/v1/query?cards=4,6,99");
    assert_eq!(status, 400);
    let cli_line = prime_solve()
        .args(["query", "4", "6", "99"])
        .output()
        .unwrap();
    let cli_line = String::from_utf8(cli_line.stderr).unwrap();
    assert_eq!(
        format!("prime-solve: {}\n", error(&body)),
        cli_line,
        "the same words"
    );
    for (path, says) in [
        (
            "/api/v1/query?cards=4,6,8&faces=royal",
            "invalid value 'royal'",
        ),
        (
            "/api/v1/query?cards=4,6,8&bogus=1",
            "unknown parameter `bogus`",
        ),
        (
            "/api/v1/query?cards=4,6,8&powers=maybe",
            "`powers` is on or off",
        ),
        ("/api/v1/query", "no cards"),
        ("/api/v1/check?cards=4,6,8", "no claim"),
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 400, "{path}");
        assert!(error(&body).contains(says), "{path}: {body}");
    }
    let (status, body) = server.get("/nowhere");
    assert_eq!(status, 404);
    assert!(!error(&body).is_empty());
    let (status, body) = server.ask("DELETE", "/api/v1/query", b"");
    assert_eq!(status, 405);
    assert!(!error(&body).is_empty());
    let (status, _) = server.ask("POST", "/api/v1/check", &vec![b'a'; 20 << 10]);
    assert_eq!(status, 413);
    let (status, body) = server.ask("POST", "/api/v1/check", b"[1, 2]");
    assert_eq!(status, 400);
    assert!(error(&body).contains("not a JSON object"), "{body}");
    // Hostile parameters end in a refusal, and the server goes on.
    let (status, _) = server.get(&format!(
        "/api/v1/check?cards=4,6,8&claim={}",
        "(".repeat(5000)
    ));
    assert_eq!(status, 200, "a claim too long is ruled invalid");
    assert_eq!(server.get("/healthz").0, 200);
}

#[test]
fn six_cards_under_every_rule_are_refused_at_once_and_light_requests_go_on() {
    let server = Server::start(&["--request-memory", "512M"]);
    let start = std::time::Instant::now();
    let (status, body) = server.get(
        "/api/v1/query?cards=3,5,7,9,11,13&faces=rank&powers=1&juxtapose=1&functions=tri,fact,sqrt&high-primes=1",
    );
    assert_eq!(status, 503, "{body}");
    assert!(error(&body).starts_with("not enough memory"), "{body}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(server.get("/api/v1/query?cards=4,6,8").0, 200);
}

/// SIGTERM stops the server once the request in flight is answered, and
/// a heavy search in progress keeps a second heavy one out (429) while
/// light ones still answer.
#[test]
fn a_request_in_flight_is_answered_before_the_server_stops() {
    let mut server = Server::start(&["--heavy", "1", "--time-limit", "120"]);
    // About 3 s and 300 MB: six cards under T with any prime.
    let slow = "/api/v1/query?cards=1,2,3,5,7,9&functions=tri&high-primes=1";
    let addr = server.addr.clone();
    let asked = std::thread::spawn(move || ask(&addr, "GET", slow, b""));
    std::thread::sleep(Duration::from_millis(300));
    let (busy, body) = server.get(slow);
    assert_eq!(busy, 429, "a second heavy search waits its turn: {body}");
    assert_eq!(
        server.get("/api/v1/query?cards=4,6,8").0,
        200,
        "light ones go on"
    );
    let _ = Command::new("kill")
        .args(["-s", "TERM", &server.child.id().to_string()])
        .status();
    let (status, body) = asked.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"highest_prime\""), "{body}");
    let ended = server.child.wait().unwrap();
    assert!(ended.success(), "{ended:?}");
}

/// The table of a rule set holds every hand it deals with every prime the
/// query gives; the crib is the command's PDF.
#[test]
fn the_table_and_the_crib_of_a_rule_set() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/api/v1/table?faces=rank");
    assert_eq!(status, 200);
    let table: serde_json::Value = serde_json::from_str(&body).unwrap();
    let hands = table["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 455, "every three-card hand under rank");
    let deals: u64 = hands.iter().map(|h| h["deals"].as_u64().unwrap()).sum();
    assert_eq!(deals, 54 * 53 * 52 / 6, "every deal, Jokers too");
    let q12 = hands
        .iter()
        .find(|h| h["hand"] == serde_json::json!([5, 8, 12]))
        .unwrap();
    assert_eq!(
        q12["primes"],
        serde_json::json!([]),
        "5 8 Q fails under rank"
    );
    let one: serde_json::Value = serde_json::from_str(&cli(&[
        "query", "4", "6", "8", "--faces", "rank", "--format", "json",
    ]))
    .unwrap();
    let mine = hands
        .iter()
        .find(|h| h["hand"] == serde_json::json!([4, 6, 8]))
        .unwrap();
    assert_eq!(
        mine["primes"], one["primes"],
        "the query's primes and witnesses"
    );
    assert_eq!(server.get("/api/v1/table?cards=4,6,8").0, 400);
    let (status, pdf) = server.get("/api/v1/crib.pdf");
    assert_eq!(status, 200);
    assert!(
        pdf.starts_with("%PDF-") && pdf.trim_end().ends_with("%%EOF"),
        "a whole PDF"
    );
    assert_eq!(server.get("/api/v1/crib.pdf?paper=a3").0, 400);
}
