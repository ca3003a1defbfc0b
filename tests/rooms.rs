//! Game rooms over their protocol (docs/protocol.md): scripted players on
//! WebSockets (tokio-tungstenite) against a server on a free loopback
//! port play whole games; every verdict is the referee's, the 54 cards are
//! all somewhere at every step, no message carries another seat's token;
//! and strangers, hosts' messages from guests, oversized and malformed
//! messages are refused, never a crash or a stuck room.
#![cfg(feature = "serve")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use prime_solve::{Hand, Rules, Solver, Style, Want, check};

mod common;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Server {
    child: std::process::Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let (child, addr) = common::serve(extra);
        Server { child, addr }
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let body = body.to_string();
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut raw = String::new();
        let _ = stream.read_to_string(&mut raw);
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    fn room(&self, settings: Value) -> (String, String) {
        let (status, made) = self.post("/api/v1/rooms", &settings);
        assert_eq!(status, 201, "{made}");
        let code = made["code"].as_str().unwrap().to_string();
        assert_eq!(code.len(), 6);
        assert_eq!(made["seat"], 0);
        (code, made["token"].as_str().unwrap().to_string())
    }

    fn join(&self, code: &str, name: &str) -> (u16, Value) {
        self.post(
            &format!("/api/v1/rooms/{code}/join"),
            &json!({ "name": name }),
        )
    }

    /// A seat's connection again, past its `state`.
    async fn rejoin(&self, code: &str, token: &str) -> (Socket, Value) {
        let mut ws = self.connect(code, &format!("token={token}")).await.unwrap();
        let state = until(&mut ws, "state").await;
        (ws, state)
    }

    async fn connect(&self, code: &str, query: &str) -> Result<Socket, u16> {
        let url = format!("ws://{}/api/v1/rooms/{code}/ws?{query}", self.addr);
        match tokio_tungstenite::connect_async(url).await {
            Ok((socket, _)) => Ok(socket),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(e) => panic!("{e}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn send(ws: &mut Socket, message: Value) {
    ws.send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

/// The next text message, as JSON and as sent; `None` when the
/// connection closes or nothing comes within 20 s.
async fn next(ws: &mut Socket) -> Option<(Value, String)> {
    loop {
        let got = tokio::time::timeout(Duration::from_secs(20), ws.next()).await;
        match got {
            Ok(Some(Ok(Message::Text(t)))) => {
                let text = t.to_string();
                return Some((serde_json::from_str(&text).unwrap(), text));
            }
            Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) | Err(_) => return None,
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// Messages until one of type `kind`.
async fn until(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let (m, _) = next(ws)
            .await
            .unwrap_or_else(|| panic!("closed before `{kind}`"));
        if m["type"] == kind {
            return m;
        }
    }
}

/// A witness of the hand's highest prime, as a player types it.
fn best_claim(values: &[u8], rules: Rules) -> Option<String> {
    let solver = Solver::new(rules).unwrap();
    let answer = solver
        .query(Hand::from_values(values), Want::Primes)
        .unwrap();
    let top = *answer.primes().last()?;
    Some(answer.witness(top).unwrap().render(Style::ASCII))
}

fn values(v: &Value) -> Vec<u8> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| u8::try_from(x.as_u64().unwrap()).unwrap())
        .collect()
}

/// What a scripted player saw of a game.
#[derive(Default, Debug)]
struct Seen {
    turns: u32,
    verdicts: u32,
    own_calls: u32,
    over: Option<Value>,
}

/// Plays a seat to the end of the game: on each turn it may call, seat 0
/// calls the hand's best prime (seat 1 every fourth turn, so that the
/// cards change hands both ways), with a wrong claim every seventh turn;
/// the others pass; after each result, next. Checks each message on the
/// way.
async fn play(
    mut ws: Socket,
    seat: usize,
    players: usize,
    rules: Rules,
    tokens: Vec<String>,
) -> Seen {
    let mut seen = Seen::default();
    let mut hand: Vec<u8> = Vec::new();
    loop {
        let Some((m, raw)) = next(&mut ws).await else {
            panic!("seat {seat}: the connection closed mid-game: {seen:?}");
        };
        for (other, token) in tokens.iter().enumerate() {
            assert!(
                other == seat || !raw.contains(token.as_str()),
                "seat {seat} was sent seat {other}'s token: {raw}"
            );
        }
        match m["type"].as_str().unwrap() {
            "turn" => {
                seen.turns += 1;
                hand = values(&m["hand"]);
                let stock = m["stock"].as_u64().unwrap_or(0) as usize;
                let held: usize = values(&m["held"]).iter().map(|&h| usize::from(h)).sum();
                assert_eq!(held + stock, 54, "every card somewhere: {m}");
                let mine = m["seats"].as_array().unwrap().contains(&json!(seat));
                if mine {
                    let turn = m["turn"].as_u64().unwrap() as usize;
                    let caller = if turn % 4 == 3 { 1 % players } else { 0 };
                    if caller == seat {
                        // A card used twice: a readable claim that fails.
                        let claim = if turn.is_multiple_of(7) {
                            let cards: Vec<String> = hand.iter().map(u8::to_string).collect();
                            Some(format!("{}+{}", cards[0], cards.join("+")))
                        } else {
                            best_claim(&hand, rules)
                        };
                        match claim {
                            Some(claim) => {
                                seen.own_calls += 1;
                                send(
                                    &mut ws,
                                    json!({"type": "call", "turn": turn, "claim": claim}),
                                )
                                .await;
                            }
                            None => send(&mut ws, json!({"type": "pass", "turn": turn})).await,
                        }
                    } else {
                        send(&mut ws, json!({"type": "pass", "turn": turn})).await;
                    }
                }
            }
            "verdict" => {
                seen.verdicts += 1;
                if let Some(claim) = m["claim"].as_str() {
                    let ruled = check(Hand::from_values(&hand), claim, &rules);
                    assert_eq!(m["valid"], ruled.is_ok(), "{m}");
                    match ruled {
                        Ok(v) => assert_eq!(m["value"], json!(v as u64), "{m}"),
                        Err(f) => assert_eq!(m["fault"], json!(f.to_string()), "{m}"),
                    }
                }
            }
            "won" | "buried" => {
                let stock = m["stock"].as_u64().unwrap_or(0) as usize;
                let held: usize = values(&m["held"]).iter().map(|&h| usize::from(h)).sum();
                assert_eq!(held + stock, 54, "every card somewhere: {m}");
                send(&mut ws, json!({"type": "next"})).await;
            }
            "game_over" => {
                seen.over = Some(m);
                return seen;
            }
            "error" => panic!("seat {seat}: {m}"),
            _ => {}
        }
    }
}

/// A room of `players` people (and `bots`), all connected and started.
async fn seated(
    server: &Server,
    settings: Value,
    players: usize,
) -> (String, Vec<String>, Vec<Socket>) {
    let (code, host) = server.room(settings);
    let mut tokens = vec![host];
    for i in 1..players {
        let (status, seat) = server.join(&code, &format!("player {i}"));
        assert_eq!(status, 200, "{seat}");
        assert_eq!(seat["seat"], i);
        tokens.push(seat["token"].as_str().unwrap().to_string());
    }
    let mut sockets = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let mut ws = server.connect(&code, &format!("token={t}")).await.unwrap();
        let state = until(&mut ws, "state").await;
        assert_eq!(state["you"], i);
        assert_eq!(state["host"], i == 0);
        assert!(
            !state.to_string().contains(t.as_str()),
            "the state carries no token"
        );
        sockets.push(ws);
    }
    (code, tokens, sockets)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_a_whole_game_refereed_as_check_rules() {
    let server = Server::start(&[]);
    let rules = Rules::default();
    let (_, tokens, mut sockets) = seated(
        &server,
        json!({"seats": 3, "bots": [], "name": "host", "endgame": "first-out", "window_ms": 100, "limit": 5, "turns": 400}),
        3,
    )
    .await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    let games: Vec<_> = sockets
        .into_iter()
        .enumerate()
        .map(|(seat, ws)| tokio::spawn(play(ws, seat, 3, rules, tokens.clone())))
        .collect();
    let mut seen = Vec::new();
    for g in games {
        seen.push(g.await.unwrap());
    }
    let over = seen[0].over.clone().unwrap();
    assert_eq!(over["reason"], "won", "{over}");
    assert_eq!(over["winner"], 0, "{over}");
    let records = over["records"].as_array().unwrap();
    assert_eq!(records.len(), 3);
    let valid: u64 = records.iter().map(|r| r["valid"].as_u64().unwrap()).sum();
    let wrong: u64 = records.iter().map(|r| r["wrong"].as_u64().unwrap()).sum();
    assert!(valid > 0 && wrong > 0, "{over}");
    let calls: u32 = seen.iter().map(|s| s.own_calls).sum();
    assert!(u64::from(calls) >= valid + wrong, "{calls} calls, {over}");
    for s in &seen {
        assert_eq!(s.over.as_ref().unwrap()["turns"], over["turns"]);
        assert!(s.verdicts > 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_the_stockpile_game() {
    let record = tempfile::tempdir().unwrap();
    let path = record.path().join("games.jsonl");
    let server = Server::start(&["--record", path.to_str().unwrap()]);
    let rules = Rules::default();
    let (_, tokens, mut sockets) = seated(
        &server,
        json!({"seats": 2, "window_ms": 100, "limit": 5, "turns": 40}),
        2,
    )
    .await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    let mut first = sockets.remove(0);
    let start = until(&mut first, "start").await;
    assert_eq!(start["seats"].as_array().unwrap().len(), 2);
    let second = sockets.remove(0);
    let (a, b) = (
        tokio::spawn(play(first, 0, 2, rules, tokens.clone())),
        tokio::spawn(play(second, 1, 2, rules, tokens.clone())),
    );
    let (a, b) = (a.await.unwrap(), b.await.unwrap());
    assert!(a.turns > 0 && a.turns == b.turns, "{a:?} {b:?}");
    let over = a.over.unwrap();
    assert!(over["turns"].as_u64().unwrap() <= 40, "{over}");
    // The finished game, one line, written whole.
    let mut written = String::new();
    for _ in 0..50 {
        written = std::fs::read_to_string(&path).unwrap_or_default();
        if written.ends_with('\n') {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(written.lines().count(), 1, "{written}");
    let line: Value = serde_json::from_str(written.trim()).unwrap();
    assert_eq!(line["game"], over);
    assert_eq!(line["rule_set"], "five");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_guests_and_hostile_messages_are_refused() {
    let server = Server::start(&[]);
    let (code, tokens, mut sockets) = seated(&server, json!({"seats": 2, "limit": 5}), 2).await;
    let (other, other_host) = server.room(json!({"seats": 3, "bots": ["club"]}));
    // A wrong token, a token of another room, no token: refused.
    let wrong = "0".repeat(32);
    assert_eq!(
        server.connect(&code, &format!("token={wrong}")).await.err(),
        Some(403)
    );
    assert_eq!(
        server
            .connect(&code, &format!("token={other_host}"))
            .await
            .err(),
        Some(403)
    );
    assert_eq!(
        server
            .connect(&other, &format!("token={}", tokens[0]))
            .await
            .err(),
        Some(403)
    );
    assert_eq!(server.connect(&code, "token=xyz").await.err(), Some(403));
    assert_eq!(server.connect(&code, "").await.err(), Some(400));
    assert_eq!(server.connect("ZZZZZZ", "watch=1").await.err(), Some(404));
    // Another site's page.
    let mut request = format!("ws://{}/api/v1/rooms/{code}/ws?watch=1", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    // A full room, an unknown code.
    assert_eq!(server.join(&code, "late").0, 409);
    assert_eq!(server.join("ACDEFG", "x").0, 404);
    assert_eq!(server.join(&other, "").0, 400);
    assert_eq!(server.join(&other, &"n".repeat(40)).0, 400);
    // A guest cannot start; the host's start, an oversized and a
    // malformed message from the guest get errors, and the room goes on.
    let guest = &mut sockets[1];
    send(guest, json!({"type": "start"})).await;
    assert!(
        until(guest, "error").await["error"]
            .as_str()
            .unwrap()
            .contains("host")
    );
    send(
        guest,
        json!({"type": "call", "turn": 1, "claim": "1".repeat(5000)}),
    )
    .await;
    assert!(
        until(guest, "error").await["error"]
            .as_str()
            .unwrap()
            .contains("at most 4096 bytes")
    );
    guest.send(Message::Text("{not json".into())).await.unwrap();
    assert!(
        until(guest, "error").await["error"]
            .as_str()
            .unwrap()
            .contains("not a message")
    );
    guest
        .send(Message::Binary(vec![0, 1, 2].into()))
        .await
        .unwrap();
    until(guest, "error").await;
    send(guest, json!({"type": "call", "turn": 1, "claim": "1+1"})).await;
    assert!(
        until(guest, "error").await["error"]
            .as_str()
            .unwrap()
            .contains("not started")
    );
    // Repeated faults close the connection.
    let mut pest = server
        .connect(&code, &format!("token={}", tokens[1]))
        .await
        .unwrap();
    for _ in 0..12 {
        let _ = pest.send(Message::Text("nonsense".into())).await;
    }
    let mut closed = false;
    for _ in 0..20 {
        if next(&mut pest).await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed, "a connection that keeps sending nonsense is closed");
    // The room still works: the host starts, a turn comes.
    send(&mut sockets[0], json!({"type": "start"})).await;
    let turn = until(&mut sockets[0], "turn").await;
    assert_eq!(turn["cards"].as_array().unwrap().len(), 3);
    // Failed joins from one address are rate-limited.
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(server.join("QQQQQQ", "x").0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // Locked out, a real code is refused alike: a 429 tells nothing.
    assert_eq!(server.join(&other, "guess").0, 429);
    assert_eq!(server.connect(&other, "watch=1").await.err(), Some(429));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_reconnects_mid_turn_and_keeps_playing() {
    let server = Server::start(&[]);
    let (code, tokens, mut sockets) = seated(&server, json!({"seats": 2, "limit": 20}), 2).await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    let turn = until(&mut sockets[1], "turn").await;
    // The guest's phone drops the connection and comes back.
    let old = sockets.remove(1);
    drop(old);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (mut back, state) = server.rejoin(&code, &tokens[1]).await;
    assert_eq!(state["you"], 1);
    assert_eq!(state["phase"], "turn");
    let again = until(&mut back, "turn").await;
    assert_eq!(
        again["turn"], turn["turn"],
        "the turn on the table is sent again"
    );
    let claim = best_claim(&values(&turn["hand"]), Rules::default()).unwrap();
    send(
        &mut back,
        json!({"type": "call", "turn": turn["turn"], "claim": claim}),
    )
    .await;
    let verdict = until(&mut back, "verdict").await;
    assert_eq!(verdict["seat"], 1);
    assert_eq!(verdict["valid"], true, "{verdict}");
    // The table view sees the same, and cannot call.
    let mut table = server.connect(&code, "watch=1").await.unwrap();
    let state = until(&mut table, "state").await;
    assert!(state["you"].is_null());
    send(
        &mut table,
        json!({"type": "call", "turn": turn["turn"], "claim": claim}),
    )
    .await;
    until(&mut table, "error").await;
}

/// A seat gone longer than the host allows is played by the host's choice
/// of model, and is back in the person's hands when they return.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_away_is_played_for_and_given_back() {
    let server = Server::start(&[]);
    let (code, tokens, mut sockets) = seated(
        &server,
        json!({"seats": 2, "limit": 5, "away": 1, "away_as": "expert", "window_ms": 100}),
        2,
    )
    .await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    until(&mut sockets[0], "turn").await;
    drop(sockets.remove(1));
    tokio::time::sleep(Duration::from_millis(1300)).await;
    // The host passes and moves on until a turn shows the seat played for:
    // a verdict for seat 1 with no claim (a model's).
    let host = &mut sockets[0];
    let mut played_for = false;
    for _ in 0..200 {
        let Some((m, _)) = next(host).await else {
            break;
        };
        match m["type"].as_str().unwrap() {
            "turn" => send(host, json!({"type": "pass", "turn": m["turn"]})).await,
            "won" | "buried" => send(host, json!({"type": "next"})).await,
            "verdict" if m["seat"] == 1 && m["claim"].is_null() => {
                played_for = true;
                break;
            }
            "game_over" => break,
            _ => {}
        }
    }
    assert!(played_for, "the seat away was played for by the model");
    let (_back, state) = server.rejoin(&code, &tokens[1]).await;
    assert_eq!(state["you"], 1);
}

/// One address makes at most its share of rooms a minute; table views
/// cannot take the places seats need.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_and_table_views_are_limited() {
    let server = Server::start(&["--rooms-per-minute", "3"]);
    let (code, host) = server.room(json!({"seats": 2}));
    server.room(json!({"seats": 2}));
    server.room(json!({"seats": 2}));
    let (status, refused) = server.post("/api/v1/rooms", &json!({"seats": 2}));
    assert_eq!(status, 429, "{refused}");
    let mut views = Vec::new();
    for _ in 0..8 {
        views.push(server.connect(&code, "watch=1").await.unwrap());
    }
    assert_eq!(server.connect(&code, "watch=1").await.err(), Some(403));
    let (_ws, state) = server.rejoin(&code, &host).await;
    assert_eq!(state["you"], 0, "the host's seat is still there to take");
}

/// A room seats the levels for people as `play` does, and names them when
/// a bot is unknown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_seat_the_levels_for_people() {
    let server = Server::start(&[]);
    server.room(json!({"seats": 4, "bots": ["beginner", "casual", "steady"]}));
    let (status, refused) = server.post("/api/v1/rooms", &json!({"seats": 3, "bots": ["master"]}));
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused.to_string().contains("steady, casual or beginner"),
        "{refused}"
    );
}

/// A call names the turn it answers: one for a turn that is over is
/// answered "too late for turn N" and judged against no other cards; one
/// for a turn not dealt is refused. A claim that cannot be read is no call:
/// only the caller hears of it, and the seat calls again on the same cards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_call_is_refused_with_its_turn_and_a_slip_is_no_call() {
    let server = Server::start(&[]);
    let (_, _, mut sockets) = seated(
        &server,
        json!({"seats": 3, "bots": ["beginner"], "limit": 20, "window_ms": 100}),
        2,
    )
    .await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    let (number, claim) = a_turn_to_call(&mut sockets).await;
    // A call that does not name its turn is refused, saying so.
    send(&mut sockets[0], json!({"type": "call", "claim": claim})).await;
    let unnamed = until(&mut sockets[0], "error").await;
    assert!(
        unnamed["error"]
            .as_str()
            .unwrap()
            .contains("names the turn it answers"),
        "{unnamed}"
    );
    // A slip: a number that is no card. Only seat 0 is told.
    send(
        &mut sockets[0],
        json!({"type": "call", "turn": number, "claim": "1*3*4+0"}),
    )
    .await;
    let slip = until(&mut sockets[0], "not_a_call").await;
    assert_eq!(slip["turn"], number);
    assert!(
        slip["why"].as_str().unwrap().contains("is not a card"),
        "{slip}"
    );
    // Not barred: the same seat's call on the same cards is ruled.
    send(
        &mut sockets[0],
        json!({"type": "call", "turn": number, "claim": claim}),
    )
    .await;
    let verdict = until(&mut sockets[0], "verdict").await;
    assert_eq!(
        (verdict["seat"].clone(), verdict["valid"].clone()),
        (json!(0), json!(true)),
        "{verdict}"
    );
    // Seat 1 saw the verdict, and never the slip.
    loop {
        let m = next(&mut sockets[1]).await.unwrap().0;
        assert_ne!(m["type"], "not_a_call", "{m}");
        if m["type"] == "verdict" && m["seat"] == 0 {
            break;
        }
    }
    let decided = until(&mut sockets[0], "won").await;
    assert_eq!(decided["turn"], number);
    // Late: the same turn's call after its cards were decided.
    send(
        &mut sockets[1],
        json!({"type": "call", "turn": number, "claim": claim}),
    )
    .await;
    let late = until(&mut sockets[1], "error").await;
    assert_eq!(late["turn"], number, "{late}");
    assert_eq!(
        late["error"],
        format!("too late for turn {number}: its cards have been decided")
    );
    send(
        &mut sockets[1],
        json!({"type": "call", "turn": number + 1, "claim": claim}),
    )
    .await;
    let early = until(&mut sockets[1], "error").await;
    assert_eq!(
        early["error"],
        format!("turn {} has not been dealt", number + 1)
    );
    // The next cards: a call for the turn before is still too late, never
    // judged against these cards.
    for ws in sockets.iter_mut() {
        send(ws, json!({"type": "next"})).await;
    }
    let next_turn = until(&mut sockets[1], "turn").await;
    assert_eq!(next_turn["turn"], number + 1);
    send(
        &mut sockets[1],
        json!({"type": "call", "turn": number, "claim": claim}),
    )
    .await;
    let late = until(&mut sockets[1], "error").await;
    assert_eq!(late["turn"], number, "{late}");
    assert!(
        late["error"].as_str().unwrap().starts_with("too late"),
        "{late}"
    );
}

/// Passes on the turns seat 0 cannot call (both seats ready for the next
/// cards each time) until one comes whose cards make a prime: its number
/// and the claim of its highest prime.
async fn a_turn_to_call(sockets: &mut [Socket]) -> (u64, String) {
    let mut turn = until(&mut sockets[0], "turn").await;
    until(&mut sockets[1], "turn").await;
    loop {
        let number = turn["turn"].as_u64().unwrap();
        if turn["seats"].as_array().unwrap().contains(&json!(0))
            && let Some(claim) = best_claim(&values(&turn["hand"]), Rules::default())
        {
            return (number, claim);
        }
        for ws in sockets.iter_mut() {
            send(ws, json!({"type": "pass", "turn": number})).await;
        }
        for ws in sockets.iter_mut() {
            loop {
                let m = next(ws).await.unwrap().0;
                if m["type"] == "won" || m["type"] == "buried" {
                    break;
                }
            }
            send(ws, json!({"type": "next"})).await;
        }
        turn = until(&mut sockets[0], "turn").await;
        until(&mut sockets[1], "turn").await;
    }
}

/// The host's controls over the WebSocket: the next cards now, a seat
/// handed to a bot and back, the host role passed on, a player removed,
/// the game ended with the winner and why; none of them from a guest. The
/// result says when the next cards come; a free seat is taken for the
/// rematch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_deals_hands_over_removes_and_ends() {
    let server = Server::start(&[]);
    let (code, _, mut sockets) = seated(
        &server,
        json!({"seats": 3, "limit": 20, "window_ms": 100, "pause": 30}),
        3,
    )
    .await;
    send(&mut sockets[0], json!({"type": "start"})).await;
    let turn = until(&mut sockets[0], "turn").await;
    until(&mut sockets[1], "turn").await;
    send(&mut sockets[1], json!({"type": "deal_now"})).await;
    assert!(
        until(&mut sockets[1], "error").await["error"]
            .as_str()
            .unwrap()
            .contains("only the host")
    );
    let number = turn["turn"].as_u64().unwrap();
    for ws in sockets.iter_mut() {
        send(ws, json!({"type": "pass", "turn": number})).await;
    }
    let result = loop {
        let m = next(&mut sockets[0]).await.unwrap().0;
        if m["type"] == "won" || m["type"] == "buried" {
            break m;
        }
    };
    assert_eq!(result["next_in_ms"], 30_000, "{result}");
    // Nobody else pressed next: the host deals now.
    send(&mut sockets[0], json!({"type": "deal_now"})).await;
    let second = until(&mut sockets[0], "turn").await;
    assert_eq!(second["turn"], number + 1);
    // Seat 2 handed to a bot: from the next cards a model plays it.
    send(&mut sockets[0], json!({"type": "hand_over", "seat": 2})).await;
    seats_until(&mut sockets[0], |s| s[2]["away"] == true).await;
    // The host role passes to seat 1, who may then end the game.
    send(&mut sockets[0], json!({"type": "make_host", "seat": 1})).await;
    seats_until(&mut sockets[1], |s| {
        s[1]["host"] == true && s[0]["host"] == false
    })
    .await;
    send(&mut sockets[0], json!({"type": "end"})).await;
    assert!(
        until(&mut sockets[0], "error").await["error"]
            .as_str()
            .unwrap()
            .contains("only the host")
    );
    // The new host removes seat 0's player: its connection is told and
    // closed, its token no longer takes the seat.
    send(&mut sockets[1], json!({"type": "remove", "seat": 0})).await;
    let removed = until(&mut sockets[0], "error").await;
    assert!(
        removed["error"].as_str().unwrap().contains("removed"),
        "{removed}"
    );
    send(&mut sockets[1], json!({"type": "end"})).await;
    let over = until(&mut sockets[1], "game_over").await;
    assert_eq!(over["reason"], "ended", "{over}");
    assert!(
        over["why"]
            .as_str()
            .unwrap()
            .starts_with("The host ended the game"),
        "{over}"
    );
    let records = over["records"].as_array().unwrap();
    let held: Vec<u64> = records
        .iter()
        .map(|r| r["held"].as_u64().unwrap())
        .collect();
    assert_eq!(held.iter().sum::<u64>(), 54, "{over}");
    // The seats agree with the records.
    let seats = until(&mut sockets[2], "game_over").await;
    assert_eq!(seats["records"], over["records"]);
    // Seat 0 is free: a newcomer takes it for the rematch.
    let (status, seat) = server.join(&code, "Dan");
    assert_eq!(status, 200, "{seat}");
    assert_eq!(seat["seat"], 0);
}

/// Reads `seats` messages until one whose seats satisfy `ok`.
async fn seats_until(ws: &mut Socket, ok: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..50 {
        let seats = until(ws, "seats").await;
        if ok(&seats["seats"]) {
            return seats;
        }
    }
    panic!("no seats message came as expected");
}

/// How long each kind of game lasts at a table: from games the server
/// simulates, the whole game longer than a short one, a game of N turns
/// N turns long; settings a room would refuse are refused alike.
#[test]
fn a_table_is_told_how_long_each_game_lasts() {
    let server = Server::start(&[]);
    let (status, lengths) = server.post("/api/v1/rooms/lengths", &json!({"seats": 3}));
    assert_eq!(status, 200, "{lengths}");
    let games = lengths["games"].as_array().unwrap();
    let turns = |game: &str| {
        games
            .iter()
            .find(|g| g["game"] == game)
            .and_then(|g| g["turns"].as_u64())
            .unwrap_or_else(|| panic!("{game}: {lengths}"))
    };
    assert!(turns("") > turns("target=36"), "{lengths}");
    assert!(turns("target=36") > turns("target=27"), "{lengths}");
    assert_eq!(turns("turns=30"), 30);
    assert!(
        games.iter().all(|g| g["minutes"].as_u64().is_some()),
        "{lengths}"
    );
    let (status, again) = server.post("/api/v1/rooms/lengths", &json!({"seats": 3}));
    assert_eq!((status, &again), (200, &lengths), "the same answer, kept");
    let (status, refused) = server.post("/api/v1/rooms/lengths", &json!({"seats": 9}));
    assert_eq!(status, 400, "{refused}");
}
