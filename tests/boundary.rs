//! The line between the command line and the server: neither imports the
//! other (the binary's `main` chooses between them, and what both need is
//! the library's), both read the same cards, and the server's refusals,
//! faults and hints speak plain words where the command line names its
//! flags.
#![cfg(feature = "serve")]

use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

mod common;
use common::prime_solve;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Whether `text` names the module `name` of the crate: `crate::name`, or
/// `name` in a `use crate::{...}` group.
fn names_module(text: &str, name: &str) -> bool {
    if text.contains(&format!("crate::{name}")) {
        return true;
    }
    text.match_indices("crate::{").any(|(at, start)| {
        let group = &text[at + start.len()..];
        let group = &group[..group.find('}').unwrap_or(group.len())];
        group.split(',').any(|item| {
            let item = item.trim();
            item == name || item.starts_with(&format!("{name}::"))
        })
    })
}

#[test]
fn the_server_and_the_command_line_import_nothing_of_each_other() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let serve = rust_files(&src.join("serve"));
    let cli = rust_files(&src.join("cli"));
    assert!(serve.len() > 3 && cli.len() > 10, "{serve:?} {cli:?}");
    for path in &serve {
        let text = fs::read_to_string(path).unwrap();
        assert!(
            !names_module(&text, "cli"),
            "{} names the command line",
            path.display()
        );
        // A request is read by serde, on the library's request type.
        assert!(
            !text.contains("clap"),
            "{} reads requests with clap",
            path.display()
        );
    }
    for path in &cli {
        let text = fs::read_to_string(path).unwrap();
        assert!(
            !names_module(&text, "serve"),
            "{} names the server",
            path.display()
        );
    }
    // The library knows neither.
    for path in rust_files(&src) {
        let rel = path.strip_prefix(&src).unwrap();
        if rel.starts_with("cli") || rel.starts_with("serve") || rel == Path::new("main.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for front_end in ["cli", "serve"] {
            assert!(
                !names_module(&text, front_end),
                "{} names {front_end}",
                path.display()
            );
        }
    }
    assert!(names_module("use crate::{cli, x};", "cli"));
    assert!(names_module("use crate::{x, cli::args};", "cli"));
    assert!(!names_module("use crate::{client};", "cli"));
}

/// The page's screens read no card and work out no figure of their own:
/// the cards come as the server wrote them, the drill's summary from the
/// server, and what the screens share is in `common.js`.
#[test]
fn the_pages_screens_read_no_card_and_sum_nothing_up() {
    let page = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/serve/page");
    let common = fs::read_to_string(page.join("common.js")).unwrap();
    for shared in [
        "export function el(",
        "export function cardView(",
        "export function verdictLine(",
    ] {
        assert!(common.contains(shared), "common.js lacks {shared}");
    }
    for screen in ["app.js", "practice.js", "room.js"] {
        let text = fs::read_to_string(page.join(screen)).unwrap();
        assert!(
            text.contains("from \"/common.js\""),
            "{screen} does not use common.js"
        );
        for own in [
            "function el(",
            "function median(",
            "sort((a, b) => a - b)",
            "JOKER",
            "[SHCD",
            "split(/[\\s,",
            ".reduce(",
        ] {
            assert!(!text.contains(own), "{screen} has {own} of its own");
        }
    }
    let worker = fs::read_to_string(page.join("sw.js")).unwrap();
    assert!(
        worker.contains("\"/common.js\""),
        "sw.js does not keep common.js"
    );
}

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let (child, addr) = common::serve(&[]);
        Server { child, addr }
    }

    /// One request: its status and body.
    fn ask(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let text = String::from_utf8(raw).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        (
            head.split(' ').nth(1).unwrap().parse().unwrap(),
            body.to_string(),
        )
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.ask("GET", path, "")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-s", "TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// `text` as a query string's value: every byte but letters and digits
/// percent-encoded.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The same texts of cards are accepted, as the same hand, or refused,
/// by `query` on the command line and by the server.
#[test]
fn the_command_line_and_the_server_read_the_same_cards() {
    let server = Server::start();
    for text in [
        "4,6,8",
        "4 6 8",
        "4, 6, 8",
        " 4\t6\n8 ",
        "QH 7C JK",
        "QH,7C,JK",
        "q♥ 7♣ joker",
        "10s T A",
        "QH+7C+JK",
        "4+6+8",
        "4;6;8",
        "4/6/8",
        "QH 7C JK 2 3 4 5",
        "4",
        "",
        "12 12 12 12 12",
        "JK JK JK 4",
        "QH QH 4",
        "13 1 x",
        "0 4 6",
        "04 6 8",
    ] {
        let out = prime_solve()
            .args(["query", text, "--faces", "rank", "--format", "json"])
            .output()
            .unwrap();
        let cli_accepts = out.status.code() != Some(2);
        let (status, body) =
            server.get(&format!("/api/v1/query?faces=rank&cards={}", encoded(text)));
        assert!(status == 200 || status == 400, "{text:?}: {status} {body}");
        assert_eq!(
            cli_accepts,
            status == 200,
            "{text:?}: the command line says {}, the server {body}",
            String::from_utf8_lossy(&out.stderr)
        );
        if cli_accepts {
            let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let served = json(&body);
            assert_eq!(cli["hand"], served["hand"], "{text:?}");
            assert_eq!(cli["cards"], served["cards"], "{text:?}");
        } else {
            // The same words, up to the hint each front end words itself.
            let said = String::from_utf8_lossy(&out.stderr);
            let error = json(&body)["error"].as_str().unwrap().to_string();
            let fact = error.split(" (").next().unwrap();
            assert!(said.contains(fact), "{text:?}: {said} / {error}");
        }
    }
}

/// What the server says when it refuses a request, rules a claim invalid
/// or hints at what would change an answer never names a command-line
/// flag, where the command line names one for the same request.
#[test]
fn no_refusal_fault_or_hint_of_the_server_names_a_flag() {
    let server = Server::start();
    let mut said: Vec<String> = Vec::new();
    for path in [
        "/api/v1/query?cards=4,6,12",
        "/api/v1/query?cards=Q,4,6&faces=suit",
        "/api/v1/query?cards=JK,JK,JK,4",
        "/api/v1/query?cards=QH,QH,4",
        "/api/v1/query?cards=4,6,99",
        "/api/v1/query?cards=4,6,8&faces=bogus",
        "/api/v1/query?cards=4,6,8&functions=bogus",
        "/api/v1/query?cards=4,6,8&functions=tri,tri",
        "/api/v1/query?cards=4,6,8&functions=tri,,fact",
        "/api/v1/query?cards=4,6,8&function-depth=2",
        "/api/v1/query?cards=4,6,8&functions=tri&function-depth=9",
        "/api/v1/query?cards=4,6,8&high-primes=1&max-prime=50",
        "/api/v1/query?cards=4,6,8&max-prime=1",
        "/api/v1/query?cards=4,6,8&max-value=5",
        "/api/v1/query?cards=4,6,8&max-value=99999999999999999999999",
        "/api/v1/query?cards=4,6,8&brackets=round",
        "/api/v1/query?cards=4,6,8&ways=some",
        "/api/v1/query?cards=4,6,8&powers=maybe",
        "/api/v1/query?cards=4,6,8&bogus=1",
        "/api/v1/query?cards=4,6,8&powers=1&powers=1",
        "/api/v1/query",
        "/api/v1/table?cards=4,6,8",
        "/api/v1/deal?n=9",
        "/api/v1/daily?date=tomorrow",
        "/api/v1/check?cards=4,6,8",
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 400, "{path}: {body}");
        said.push(json(&body)["error"].as_str().unwrap().to_string());
    }
    said.extend(faults_with_hints(&server));
    for body in [
        r#"{"cards": "4 6 8", "powers": "maybe"}"#,
        r#"{"cards": "4 6 8", "claim": {"a": 1}}"#,
        r#"{"cards": "4 6 8", "claim": "3", "claim": "5"}"#,
        r#"{"cards": "4 6 12", "claim": "3"}"#,
        r#"{"cards": "4 6 8", "faces": "royal", "claim": "3"}"#,
    ] {
        let (status, answer) = server.ask("POST", "/api/v1/check", body);
        assert_eq!(status, 400, "{body}: {answer}");
        said.push(json(&answer)["error"].as_str().unwrap().to_string());
    }
    for words in &said {
        assert!(!words.contains("--"), "a flag named: {words}");
        assert!(!words.contains("invalid value"), "clap's words: {words}");
    }
    assert!(
        said.iter()
            .any(|w| w.contains("house rule cards side by side"))
    );
    assert!(
        said.iter()
            .any(|w| w.contains("face cards count their rank"))
    );
    assert!(said.iter().any(|w| w.contains("primes above 97")));
}

/// Faults with a hint, from the referee and the drill: the server's words
/// for each, where the command line names a flag for the same claim.
fn faults_with_hints(server: &Server) -> Vec<String> {
    let mut said = Vec::new();
    for (cards, claim, flag) in [
        ("7,8,5", "78+5", "--juxtapose"),
        ("2,3,6", "2^6+3", "--powers"),
        ("5,6,8", "6+T(5+8)", "--functions"),
        ("3,4,6", "T(T(3))+4+6", "--function-depth"),
        ("3,4,6", "T(T(T(T(3))))+4+6", "--function-depth"),
        ("10,10,1", "10*10+1", "--high-primes"),
    ] {
        let rules = "functions=tri";
        let path = format!(
            "/api/v1/check?cards={cards}&claim={}{}",
            encoded(claim),
            if claim.contains("T(T(") {
                format!("&{rules}")
            } else {
                String::new()
            }
        );
        let (status, body) = server.get(&path);
        assert_eq!(status, 200, "{path}: {body}");
        let verdict = json(&body);
        assert_eq!(verdict["valid"], false, "{path}: {body}");
        let fault = verdict["fault"].as_str().unwrap().to_string();
        assert!(fault.contains(" (") && fault.ends_with(')'), "{fault}");
        let mut args = vec!["check".to_string()];
        args.extend(cards.split(',').map(String::from));
        args.push(claim.to_string());
        if claim.contains("T(T(") {
            args.extend(["--functions".into(), "tri".into()]);
        }
        let out = prime_solve().args(&args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(flag), "{args:?}: {text}");
        said.push(fault);
        let round = format!(
            r#"{{"cards": "{cards}", "claim": "{claim}", "ms": 1000{}}}"#,
            if claim.contains("T(T(") {
                r#", "functions": "tri""#
            } else {
                ""
            }
        );
        let (status, body) = server.ask("POST", "/api/v1/practice", &round);
        assert_eq!(status, 200, "{round}: {body}");
        said.push(
            json(&body)["verdict"]["fault"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    said
}
