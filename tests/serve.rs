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
        (
            "/api/v1/query?cards=1,2,3&ways=all&powers=1",
            vec!["query", "1", "2", "3", "--ways", "all", "--powers"],
        ),
        (
            "/api/v1/query?cards=4,6,8,9&ways=count",
            vec!["query", "4", "6", "8", "9", "--ways"],
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
        // The hint in plain words where the command line names its flag.
        let plain = cli(&args).replace(
            " (use --juxtapose)",
            " (allowed with the house rule cards side by side)",
        );
        assert_eq!(body, plain, "{path}");
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
            "faces: `royal` is not a face rule: give five, rank or suit",
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

/// The ways past the work limit: the server says the command line's
/// sentence, to which the command line adds only its flag.
#[test]
fn a_ways_count_past_its_limit_is_refused_in_the_command_lines_words() {
    let server = Server::start(&[]);
    let (status, body) = server.get(
        "/api/v1/query?cards=1,2,3,4,5&ways=count&powers=1&juxtapose=1&functions=tri,fact,sqrt",
    );
    assert_eq!(status, 400, "{body}");
    let sentence = error(&body);
    assert!(
        sentence.starts_with("counting the ways of 1 2 3 4 5 would try more than")
            && sentence.ends_with("; list the primes alone, without their ways"),
        "{sentence}"
    );
    let out = prime_solve()
        .args([
            "query",
            "1",
            "2",
            "3",
            "4",
            "5",
            "--ways",
            "--powers",
            "--juxtapose",
        ])
        .args(["--functions", "tri,fact,sqrt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("prime-solve: {sentence} (drop --ways)\n")
    );
}

/// `serve` with `options` and a port free a moment ago: the server, at
/// 127.0.0.1 and that port, once it has said where it serves.
fn serve_at_a_free_port(options: &[&str]) -> (Server, String) {
    use std::io::BufRead;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_prime-solve"))
        .arg("serve")
        .args(options)
        .args(["--port", &port])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Server {
        child,
        addr: format!("127.0.0.1:{port}"),
    };
    // Read on, so that what it prints after its first line (under --lan,
    // a QR code) never meets a closed pipe.
    let mut out = std::io::BufReader::new(server.child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (server, format!("{port} {line}"))
}

/// `--port N` listens on this machine at N, as `--addr 127.0.0.1:N`, or
/// on every interface at N under `--lan`; with `--addr` it is refused.
#[test]
fn port_listens_on_this_machine_at_that_port() {
    let (server, said) = serve_at_a_free_port(&[]);
    let (port, line) = said.split_once(' ').unwrap();
    assert_eq!(line, format!("serving on http://127.0.0.1:{port}\n"));
    assert_eq!(server.get("/healthz"), (200, "ok\n".to_string()));
    drop(server);
    let (server, said) = serve_at_a_free_port(&["--lan"]);
    let (port, line) = said.split_once(' ').unwrap();
    assert_eq!(line, format!("serving on http://0.0.0.0:{port}\n"));
    assert_eq!(server.get("/healthz"), (200, "ok\n".to_string()));
    drop(server);
    let out = prime_solve()
        .args(["serve", "--port", "9000", "--addr", "127.0.0.1:9001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains("--port") && said.contains("--addr"), "{said}");
    assert!(out.stdout.is_empty());
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
    // Binary (the embedded font), so read as bytes.
    let (head, pdf) = get_raw(&server.addr, "/api/v1/crib.pdf", "");
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/pdf"), "{head}");
    assert!(
        pdf.starts_with(b"%PDF-") && pdf.trim_ascii_end().ends_with(b"%%EOF"),
        "a whole PDF"
    );
    assert_eq!(server.get("/api/v1/crib.pdf?paper=a3").0, 400);
}

/// One GET with `headers` added: its head and its body as bytes.
fn get_raw(addr: &str, path: &str, headers: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    (
        String::from_utf8_lossy(&raw[..split]).to_lowercase(),
        raw[split + 4..].to_vec(),
    )
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// A query's witnesses worked step by step are the command's (`query
/// --steps`), each step's last value the prime, each witness valid to the
/// referee; the quickest call is one of the primes.
#[test]
fn steps_and_the_quickest_call_are_the_commands_and_the_referee_agrees() {
    let server = Server::start(&[]);
    for (path, args) in [
        (
            "/api/v1/query?cards=4,6,8&steps=1",
            vec!["query", "4", "6", "8", "--steps"],
        ),
        (
            "/api/v1/query?cards=QH+7C+JK&faces=rank&powers=1&juxtapose=1&functions=tri,sqrt&steps=1&ascii=1",
            vec![
                "query",
                "QH",
                "7C",
                "JK",
                "--faces",
                "rank",
                "--powers",
                "--juxtapose",
                "--functions",
                "tri,sqrt",
                "--steps",
                "--ascii",
            ],
        ),
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{body}");
        let mut args = args;
        args.extend(["--format", "json"]);
        assert_eq!(body, cli(&args), "{path}");
        let q = json(&body);
        let primes = q["primes"].as_array().unwrap();
        assert!(
            primes.iter().any(|p| p["value"] == q["simplest_prime"]),
            "{body}"
        );
        let rules = path.split_once('&').unwrap().1.replace("&steps=1", "");
        for p in primes {
            let last = p["steps"].as_array().unwrap().last().unwrap();
            assert!(
                last.as_str()
                    .unwrap()
                    .ends_with(&format!("= {}", p["value_text"].as_str().unwrap())),
                "{p}"
            );
            let claim: String = p["witness"]
                .as_str()
                .unwrap()
                .bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() {
                        (b as char).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect();
            let cards = q["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",");
            let (status, verdict) = server.get(&format!(
                "/api/v1/check?cards={cards}&claim={claim}&{rules}&any-values=1"
            ));
            assert_eq!(status, 200, "{verdict}");
            let v = json(&verdict);
            assert_eq!(v["valid"], true, "{verdict}");
            assert_eq!(v["value"], p["value"], "{verdict}");
        }
    }
    let text = cli(&["query", "4", "6", "8", "--steps"]);
    assert!(
        text.contains("  3 = (6 × 4) ÷ 8\n      6 × 4 = 24\n      24 ÷ 8 = 3\n"),
        "{text}"
    );
}

/// The keys a page uses to find a hand of the table from its cards, with
/// no rule of its own, find the hand the query reads from those cards.
#[test]
fn the_tables_keys_find_the_hand_the_cards_make() {
    let server = Server::start(&[]);
    for faces in ["five", "rank", "suit"] {
        let (status, body) = server.get(&format!("/api/v1/table?faces={faces}"));
        assert_eq!(status, 200);
        let t = json(&body);
        let (card_keys, hand_keys) = (&t["card_keys"], &t["hand_keys"]);
        let hands = t["hands"].as_array().unwrap();
        assert_eq!(
            hand_keys
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            hands.len(),
            "{faces}: every hand has a key"
        );
        let cards = [
            "AS", "7C", "10H", "JS", "QH", "KD", "KC", "JK", "5", "q♥", "2", "9D",
        ];
        for (i, a) in cards.iter().enumerate() {
            for (j, b) in cards.iter().enumerate().skip(i + 1) {
                for c in cards.iter().skip(j + 1) {
                    // The same card twice (QH, q♥) is refused by the query
                    // and found by the keys, which know values, not cards.
                    if [a, b, c]
                        .iter()
                        .filter(|t| t.to_uppercase().starts_with('Q'))
                        .count()
                        > 1
                    {
                        continue;
                    }
                    let mut keys: Vec<String> = Vec::new();
                    let mut readable = true;
                    for t in [a, b, c] {
                        match card_keys[t.to_uppercase()].as_str() {
                            Some(k) => keys.push(k.to_string()),
                            None => readable = false,
                        }
                    }
                    let (status, body) =
                        server.get(&format!("/api/v1/query?cards={a}+{b}+{c}&faces={faces}"));
                    if !readable {
                        assert_eq!(status, 400, "{faces} {a} {b} {c}: {body}");
                        continue;
                    }
                    keys.sort();
                    let found = &hand_keys[keys.join(" ")];
                    if status == 400 {
                        assert!(found.is_null(), "{faces} {a} {b} {c}: {body}");
                        continue;
                    }
                    let i = found
                        .as_u64()
                        .unwrap_or_else(|| panic!("{faces} {a} {b} {c}"))
                        as usize;
                    let q = json(&body);
                    assert_eq!(hands[i]["hand"], q["hand"], "{faces} {a} {b} {c}");
                    assert_eq!(hands[i]["primes"], q["primes"], "{faces} {a} {b} {c}");
                    assert_eq!(hands[i]["simplest_prime"], q["simplest_prime"]);
                }
            }
        }
    }
}

/// Deals follow the seed; their hints are the hand's primes; the day's
/// ten are the same cards under any rules, and another day's differ.
#[test]
fn deals_and_the_daily_deal() {
    let server = Server::start(&[]);
    let a = json(&server.get("/api/v1/deal?seed=7&faces=rank").1);
    let b = json(&server.get("/api/v1/deal?seed=7&faces=rank").1);
    assert_eq!(a, b, "the same seed deals the same hand");
    assert_eq!(a["tokens"].as_array().unwrap().len(), 3);
    let tokens: Vec<&str> = a["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let q = json(
        &server
            .get(&format!(
                "/api/v1/query?cards={}&faces=rank",
                tokens.join("+")
            ))
            .1,
    );
    assert_eq!(a["hand"], q["hand"]);
    let mut hinted: Vec<i64> = a["hints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_i64().unwrap())
        .collect();
    hinted.sort_unstable();
    let primes: Vec<i64> = q["primes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["value"].as_i64().unwrap())
        .collect();
    assert_eq!(hinted, primes, "the hints are the hand's primes");
    let fresh: Vec<u64> = (0..4)
        .map(|_| {
            json(&server.get("/api/v1/deal").1)["seed"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert!(fresh.windows(2).any(|w| w[0] != w[1]), "{fresh:?}");
    let four = json(&server.get("/api/v1/deal?n=4&seed=1").1);
    assert_eq!(four["cards"].as_array().unwrap().len(), 4);
    for bad in [
        "n=7",
        "n=1",
        "n=x",
        "seed=-1",
        "cards=4,6,8",
        "date=2026-12-06",
    ] {
        let (status, body) = server.get(&format!("/api/v1/deal?{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }

    let day = |q: &str| json(&server.get(&format!("/api/v1/daily?{q}")).1);
    let five = day("date=2026-12-06");
    let rank = day("date=2026-12-06&faces=rank&powers=1");
    let deals = five["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 10);
    let cards = |d: &serde_json::Value| -> Vec<serde_json::Value> {
        d["deals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["tokens"].clone())
            .collect()
    };
    assert_eq!(cards(&five), cards(&rank), "the same cards under any rules");
    assert_eq!(cards(&five), cards(&day("date=2026-12-06")));
    assert_ne!(cards(&five), cards(&day("date=2026-12-07")));
    for bad in [
        "date=2026-02-30",
        "date=tomorrow",
        "",
        "date=2026-12-06&cards=4",
    ] {
        let (status, body) = server.get(&format!("/api/v1/daily?{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

/// A practice round is ruled by the referee and scored as the drill
/// scores it: 10 for a valid call, up to 10 for speed, up to 10 for height.
#[test]
fn a_practice_round_is_ruled_and_scored() {
    let server = Server::start(&[]);
    let round = |body: &str| {
        let (status, text) = server.ask("POST", "/api/v1/practice", body.as_bytes());
        assert_eq!(status, 200, "{text}");
        json(&text)
    };
    let good = round(r#"{"cards": "4 6 8", "claim": "6*4/8", "ms": 1500}"#);
    assert_eq!(good["verdict"]["valid"], true);
    assert_eq!(good["prime"], 3);
    // 10, 9 for 1.5 s, 10 for the higher of the hand's two primes.
    assert_eq!(good["score"], 29);
    assert_eq!(good["missed"], serde_json::json!([2]));
    assert_eq!(good["best_prime"], 3);
    let hinted = round(r#"{"cards": "4 6 8", "claim": "6+4-8", "ms": 1500, "hints": 1}"#);
    // 10, no speed after a hint, 5 for the lower of two.
    assert_eq!(hinted["score"], 15);
    let wrong = round(r#"{"cards": "QH 7C JK", "claim": "12+12+7+1", "faces": "rank"}"#);
    assert_eq!(wrong["verdict"]["valid"], false);
    assert!(
        wrong["verdict"]["fault"]
            .as_str()
            .unwrap()
            .contains("1 is not a card in the hand (7 12 12)"),
        "{wrong}"
    );
    assert_eq!(wrong["score"], 0);
    assert_eq!(
        wrong["missed"].as_array().unwrap().len(),
        wrong["primes"].as_array().unwrap().len()
    );
    let pass = round(r#"{"cards": "4 6 8", "ms": 30000}"#);
    assert!(pass["verdict"].is_null());
    assert_eq!(pass["score"], 0);
    // The drill summed up by the server, as `practice` sums one up.
    let (status, text) = server.ask(
        "POST",
        "/api/v1/practice/summary",
        br#"{"rounds": [{"valid": true, "ms": 1500, "score": 29}, {"valid": false, "ms": 30000, "score": 0}, {"valid": true, "ms": 4100, "score": 24}]}"#,
    );
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        json(&text),
        serde_json::json!({"schema": 1, "rounds": 3, "correct": 2, "score": 53, "median_ms": 1500, "worst_ms": 4100})
    );
    for bad in [
        r#"{"rounds": [{"valid": true, "ms": 99999999999, "score": 29}]}"#,
        r#"{"rounds": [{"valid": true, "ms": 10, "score": 31}]}"#,
        r#"{"rounds": [{"valid": true}]}"#,
        r#"{"rounds": [], "extra": 1}"#,
        r#"[]"#,
    ] {
        let (status, body) = server.ask("POST", "/api/v1/practice/summary", bad.as_bytes());
        assert_eq!(status, 400, "{bad}: {body}");
    }
    for bad in [
        r#"{"cards": "4 6 8", "claim": "3", "ms": -1}"#,
        r#"{"cards": "4 6 8", "claim": "3", "ms": 99999999999}"#,
        r#"{"cards": "4 6 8", "claim": "3", "hints": "many"}"#,
        r#"{"claim": "3"}"#,
        r#"{"cards": "4 6 8", "claim": {"nested": 1}}"#,
    ] {
        let (status, body) = server.ask("POST", "/api/v1/practice", bad.as_bytes());
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

/// One address past its share of heavy searches gets 429 while light
/// requests from it go on; the page's files come with their policy; large
/// answers are compressed for a client that takes gzip.
#[test]
fn shares_of_heavy_searches_policy_and_compression() {
    let server = Server::start(&["--heavy", "4", "--heavy-per-minute", "2"]);
    let heavy = "/api/v1/query?cards=1,2,3,4,5";
    assert_eq!(server.get(heavy).0, 200);
    assert_eq!(server.get(heavy).0, 200);
    let (status, body) = server.get(heavy);
    assert_eq!(status, 429, "{body}");
    assert!(error(&body).contains("share"), "{body}");
    for _ in 0..50 {
        assert_eq!(server.get("/api/v1/query?cards=4,6,8").0, 200);
    }
    for path in [
        "/",
        "/common.js",
        "/keypad.js",
        "/room.js",
        "/app.js",
        "/practice.js",
        "/style.css",
        "/sw.js",
        "/manifest.json",
        "/icon.svg",
    ] {
        let (head, body) = get_raw(&server.addr, path, "");
        assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
        assert!(
            head.contains("content-security-policy: default-src 'self'; script-src 'self';"),
            "{path}"
        );
        assert!(!body.is_empty());
    }
    let (head, _) = get_raw(&server.addr, "/", "");
    let (_, page) = get_raw(&server.addr, "/", "");
    let page = String::from_utf8(page).unwrap();
    assert!(!page.contains("<script>"), "no inline script: {head}");
    assert!(
        !page
            .split_whitespace()
            .any(|w| w.starts_with("on") && w.contains('=')),
        "no inline handler"
    );
    let (head, gz) = get_raw(&server.addr, "/api/v1/table", "Accept-Encoding: gzip\r\n");
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let (_, plain) = get_raw(&server.addr, "/api/v1/table", "");
    assert!(
        gz.len() * 3 < plain.len(),
        "{} of {}",
        gz.len(),
        plain.len()
    );
}

/// `--lan` listens on every interface and says where a phone should go,
/// with a QR code of it, or that no local network was found.
#[test]
fn lan_listens_everywhere_and_says_where_to_go() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_prime-solve"))
        .args(["serve", "--lan", "--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let port = first
        .trim()
        .strip_prefix("serving on http://0.0.0.0:")
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    let mut second = String::new();
    out.read_line(&mut second).unwrap();
    if second.starts_with("on a phone on this network, open http://") {
        // The QR code: rows of block characters.
        let mut row = String::new();
        out.read_line(&mut row).unwrap();
        while row.starts_with("  or ") {
            row.clear();
            out.read_line(&mut row).unwrap();
        }
        assert!(
            row.contains('█') || row.contains('▀') || row.contains('▄'),
            "{row}"
        );
    } else {
        assert!(
            second.starts_with("no address on a local network"),
            "{second}"
        );
    }
    let (status, _) = ask(&format!("127.0.0.1:{port}"), "GET", "/healthz", b"");
    assert_eq!(status, 200);
    let _ = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status();
    assert!(child.wait().unwrap().success());
}

/// Refusals the layers make are JSON too; a parameter given twice is
/// refused; a client refusing plain answers still gets the real status;
/// a search past the time limit is stopped, its place freed; a ceiling
/// so high it is any prime counts as heavy.
#[test]
fn the_edges_of_requests_are_refused_cleanly_and_stopped_searches_free_their_place() {
    let server = Server::start(&[
        "--time-limit",
        "1",
        "--heavy",
        "1",
        "--heavy-per-minute",
        "3",
    ]);
    let (status, body) = server.ask("POST", "/api/v1/check", &vec![b' '; 20 << 10]);
    assert_eq!(status, 413);
    assert!(error(&body).contains("over 16 KiB"), "{body}");
    let (status, body) = server.get("/api/v1/query?cards=4,6,8&powers=1&powers=0");
    assert_eq!(status, 400);
    assert!(error(&body).contains("`powers` is given twice"), "{body}");
    // In a JSON body too: not the last one read.
    let (status, body) = server.ask(
        "POST",
        "/api/v1/check",
        br#"{"cards": "4 6 8", "claim": "(6*4)/8", "claim": "4+6+8"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(error(&body), "`claim` is given twice: give it once");
    // The key is named whole, whatever words it holds.
    let (status, body) = server.ask(
        "POST",
        "/api/v1/check",
        br#"{"cards": "4 6 8", "a at line 9": 1, "a at line 9": 1}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(error(&body), "`a at line 9` is given twice: give it once");
    let (head, body) = get_raw(
        &server.addr,
        "/api/v1/query?cards=4,6,99",
        "Accept-Encoding: identity;q=0\r\n",
    );
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert!(String::from_utf8(body).unwrap().contains("bad card"));
    // About 3 s of search: stopped at the limit, and the place it held is
    // free soon after, not when the search would have ended.
    let slow = "/api/v1/query?cards=1,2,3,5,7,9&functions=tri&high-primes=1";
    let (status, body) = server.get(slow);
    assert_eq!(status, 503, "{body}");
    std::thread::sleep(Duration::from_millis(700));
    let (status, body) = server.get("/api/v1/query?cards=1,2,3,4,5");
    assert_eq!(
        status, 200,
        "the stopped search gave its place back: {body}"
    );
    // `max-prime` past any prime is the search of `high-primes`: heavy.
    let huge = "/api/v1/table?functions=tri&max-prime=18446744073709551615";
    let (status, body) = server.get(huge);
    assert!(status == 200 || status == 503, "{status} {body}");
    let (status, body) = server.get(huge);
    assert_eq!(status, 429, "{body}");
}
