//! Load and fault test of the game rooms, loopback only and bounded in
//! time: R rooms (default 300) of three scripted players each play whole
//! games over WebSockets against `prime-solve serve` (the release binary,
//! `cargo build --release` first); one player in ten drops its connection
//! once mid-game and comes back with its token. It checks, at every step,
//! that the 54 cards are all somewhere, that every verdict on a claim is
//! `check`'s, and that no message carries another seat's token; it
//! measures the time from a call leaving its player to its verdict reaching
//! every player of the room, and the server's resident memory.
//!
//!   cargo build --release && cargo bench --bench rooms [-- ROOMS]

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use prime_solve::{Hand, Rules, Solver, Style, Want, check};

/// The whole run's bound.
const DEADLINE: Duration = Duration::from_secs(300);

#[derive(Default)]
struct Totals {
    latencies_us: Mutex<Vec<u64>>,
    games: AtomicU64,
    calls: AtomicU64,
    verdicts_checked: AtomicU64,
    reconnects: AtomicU64,
    violations: Mutex<Vec<String>>,
}

impl Totals {
    fn violation(&self, what: String) {
        self.violations.lock().unwrap().push(what);
    }
}

async fn post(addr: &str, path: &str, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    let (_, body) = raw.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: &str, code: &str, token: &str) -> Socket {
    let url = format!("ws://{addr}/api/v1/rooms/{code}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// What a room's players share: when each call left (by turn), and every
/// seat's token.
struct RoomShared {
    sent: Mutex<HashMap<u64, Instant>>,
    tokens: Vec<String>,
}

async fn player(
    addr: String,
    code: String,
    seat: usize,
    room: Arc<RoomShared>,
    totals: Arc<Totals>,
    solver: Arc<Solver>,
    drop_at: Option<u64>,
) {
    let token = room.tokens[seat].clone();
    let mut ws = connect(&addr, &code, &token).await;
    if seat == 0 {
        // The others have connected (the room was filled first); start.
        tokio::time::sleep(Duration::from_millis(300)).await;
        ws.send(Message::Text(json!({"type": "start"}).to_string().into()))
            .await
            .unwrap();
    }
    let rules = Rules::default();
    let mut hand: Vec<u8> = Vec::new();
    let mut dropped = false;
    loop {
        let got = tokio::time::timeout(Duration::from_secs(60), ws.next()).await;
        let text = match got {
            Ok(Some(Ok(Message::Text(t)))) => t.to_string(),
            Ok(Some(Ok(_))) => continue,
            _ => {
                totals.violation(format!(
                    "room {code} seat {seat}: the connection ended mid-game"
                ));
                return;
            }
        };
        for (other, t) in room.tokens.iter().enumerate() {
            if other != seat && text.contains(t.as_str()) {
                totals.violation(format!("room {code} seat {seat} got seat {other}'s token"));
            }
        }
        let m: Value = serde_json::from_str(&text).unwrap();
        let conserved = |m: &Value| {
            let held: u64 = m["held"]
                .as_array()
                .map_or(0, |h| h.iter().filter_map(Value::as_u64).sum());
            held + m["stock"].as_u64().unwrap_or(0) == 54
        };
        match m["type"].as_str().unwrap_or("") {
            "turn" => {
                if !conserved(&m) {
                    totals.violation(format!("room {code}: cards not conserved: {m}"));
                }
                let turn = m["turn"].as_u64().unwrap();
                hand = m["hand"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as u8)
                    .collect();
                if drop_at == Some(turn) && !dropped {
                    // The phone drops mid-turn and comes back.
                    dropped = true;
                    drop(ws);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    ws = connect(&addr, &code, &token).await;
                    totals.reconnects.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                let mine = m["seats"].as_array().unwrap().contains(&json!(seat));
                if !mine {
                    continue;
                }
                let message = reply(seat, turn, &hand, &room, &totals, &solver);
                if ws
                    .send(Message::Text(message.to_string().into()))
                    .await
                    .is_err()
                {
                    totals.violation(format!("room {code} seat {seat}: could not send"));
                    return;
                }
            }
            "verdict" => verdict(&m, &hand, &rules, &code, &room, &totals),
            "won" | "buried" => {
                if !conserved(&m) {
                    totals.violation(format!("room {code}: cards not conserved: {m}"));
                }
                let _ = ws
                    .send(Message::Text(json!({"type": "next"}).to_string().into()))
                    .await;
            }
            "game_over" => {
                if seat == 0 {
                    totals.games.fetch_add(1, Ordering::Relaxed);
                }
                return;
            }
            "error" => totals.violation(format!("room {code} seat {seat}: {m}")),
            _ => {}
        }
    }
}

/// What `seat` sends on `turn` of `hand`: seat 1 calls on every fourth
/// turn, seat 0 on the others, a wrong claim on every seventh (a card
/// used twice), the
/// highest prime else; the other seats pass.
fn reply(
    seat: usize,
    turn: u64,
    hand: &[u8],
    room: &RoomShared,
    totals: &Totals,
    solver: &Solver,
) -> Value {
    let caller = if turn % 4 == 3 { 1 } else { 0 };
    if caller != seat {
        return json!({"type": "pass", "turn": turn});
    }
    let claim = if turn.is_multiple_of(7) {
        // A card used twice: a readable claim that fails, ruled wrong.
        let cards: Vec<String> = hand.iter().map(u8::to_string).collect();
        Some(format!("{}+{}", cards[0], cards.join("+")))
    } else {
        let answer = solver.query(Hand::from_values(hand), Want::Primes).unwrap();
        answer
            .primes()
            .last()
            .map(|&p| answer.witness(p).unwrap().render(Style::ASCII))
    };
    match claim {
        Some(claim) => {
            room.sent.lock().unwrap().insert(turn, Instant::now());
            totals.calls.fetch_add(1, Ordering::Relaxed);
            json!({"type": "call", "turn": turn, "claim": claim})
        }
        None => json!({"type": "pass", "turn": turn}),
    }
}

/// A verdict `m` on a claim on `hand`: its time from the call, and
/// whether it is `check`'s.
fn verdict(m: &Value, hand: &[u8], rules: &Rules, code: &str, room: &RoomShared, totals: &Totals) {
    let Some(claim) = m["claim"].as_str() else {
        return;
    };
    let arrived = Instant::now();
    let turn = m["turn"].as_u64().unwrap();
    if let Some(sent) = room.sent.lock().unwrap().get(&turn) {
        totals
            .latencies_us
            .lock()
            .unwrap()
            .push(arrived.duration_since(*sent).as_micros() as u64);
    }
    let ruled = check(Hand::from_values(hand), claim, rules);
    if m["valid"] != json!(ruled.is_ok()) {
        totals.violation(format!("room {code}: a verdict that is not check's: {m}"));
    }
    totals.verdicts_checked.fetch_add(1, Ordering::Relaxed);
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() {
    let rooms: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(300);
    let (mut server, addr) = start_server();
    let pid = server.id();
    let totals = Arc::new(Totals::default());
    let peak = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    play_rooms(rooms, &addr, pid, &totals, &peak);
    let elapsed = started.elapsed();
    let end_rss = rss_kb(pid);
    let _ = server.kill();
    let _ = server.wait();
    let violations = report(
        rooms,
        &totals,
        elapsed,
        [peak.load(Ordering::Relaxed), end_rss],
    );
    if !violations.is_empty() {
        std::process::exit(1);
    }
}

/// The release binary serving on a free loopback port, and its address.
fn start_server() -> (std::process::Child, String) {
    let bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/prime-solve");
    let mut server = Command::new(bin)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--max-rooms",
            "5000",
            "--connections-per-address",
            "100000",
            "--rooms-per-minute",
            "100000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cargo build --release first");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving on http://")
        .unwrap()
        .to_string();
    (server, addr)
}

/// `rooms` rooms of three scripted players each, made on the server at
/// `addr` (process `pid`) and played to their end, into `totals`; `peak`
/// is the server's highest resident memory sampled meanwhile.
fn play_rooms(rooms: usize, addr: &str, pid: u32, totals: &Arc<Totals>, peak: &Arc<AtomicU64>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let solver = Arc::new(Solver::new(Rules::default()).unwrap());
        let sampler = {
            let peak = Arc::clone(peak);
            tokio::spawn(async move {
                loop {
                    peak.fetch_max(rss_kb(pid), Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            })
        };
        let mut players = Vec::new();
        let mut rng = prime_solve::Rng::new(7);
        for _ in 0..rooms {
            let made = post(
                addr,
                "/api/v1/rooms",
                &json!({"seats": 3, "name": "p0", "endgame": "first-out", "window_ms": 300, "limit": 10, "turns": 60}),
            )
            .await;
            let code = made["code"].as_str().unwrap().to_string();
            let mut tokens = vec![made["token"].as_str().unwrap().to_string()];
            for i in 1..3 {
                let seat = post(addr, &format!("/api/v1/rooms/{code}/join"), &json!({"name": format!("p{i}")})).await;
                tokens.push(seat["token"].as_str().unwrap().to_string());
            }
            let room = Arc::new(RoomShared { sent: Mutex::default(), tokens });
            for seat in 0..3 {
                // One player in ten drops once, somewhere in turns 2 to 12.
                let drop_at = rng.chance(100).then(|| 2 + rng.below(10));
                players.push(tokio::spawn(player(
                    addr.to_string(),
                    code.clone(),
                    seat,
                    Arc::clone(&room),
                    Arc::clone(totals),
                    Arc::clone(&solver),
                    drop_at,
                )));
            }
        }
        let all = futures_util::future::join_all(players);
        if tokio::time::timeout(DEADLINE, all).await.is_err() {
            totals.violation(format!("not every game ended within {} s", DEADLINE.as_secs()));
        }
        sampler.abort();
    });
}

/// Prints what the run measured, `memory_kb` the server's peak and final
/// resident memory; the violations found.
fn report(rooms: usize, totals: &Totals, elapsed: Duration, memory_kb: [u64; 2]) -> Vec<String> {
    let [peak, end_rss] = memory_kb;
    let mut lat = totals.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let violations = totals.violations.lock().unwrap().clone();
    println!("rooms: {rooms}, players: {}", rooms * 3);
    println!(
        "games finished: {} of {rooms} in {:.1} s",
        totals.games.load(Ordering::Relaxed),
        elapsed.as_secs_f64()
    );
    println!(
        "calls: {}, verdicts on claims checked against check(): {}, reconnections: {}",
        totals.calls.load(Ordering::Relaxed),
        totals.verdicts_checked.load(Ordering::Relaxed),
        totals.reconnects.load(Ordering::Relaxed)
    );
    println!(
        "call to verdict at every player: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} deliveries)",
        prime_solve::percentile(&lat, 50).unwrap_or(0) as f64 / 1000.0,
        prime_solve::percentile(&lat, 99).unwrap_or(0) as f64 / 1000.0,
        lat.last().copied().unwrap_or(0) as f64 / 1000.0,
        lat.len()
    );
    println!(
        "server resident memory: peak {:.1} MB, at the end {:.1} MB",
        peak as f64 / 1024.0,
        end_rss as f64 / 1024.0
    );
    println!("violations: {}", violations.len());
    for v in violations.iter().take(20) {
        println!("  {v}");
    }
    violations
}
